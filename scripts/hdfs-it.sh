#!/usr/bin/env bash
# Integration test of the HDFS backend against a real HDFS: Hadoop's MiniDFSCluster (one
# namenode, one datanode; fetched from Maven Central on first run into $WORK) runs in a JVM,
# then `go test -tags hdfs_it ./hudi/storage/hdfs/` reads the fixture tables from it.
# Needs Java 11+ (JAVA_HOME) and mvn. Usage: scripts/hdfs-it.sh [extra go test args]
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${HDFS_IT_WORK:-${TMPDIR:-/tmp}/hudiscope-hdfs-it}
PORT=${HDFS_IT_PORT:-19000}
JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
mkdir -p "$WORK"
if [ ! -d "$WORK/lib" ]; then
  echo "fetching hadoop-minicluster from Maven Central into $WORK/lib ..." >&2
  mvn -q -B -f scripts/hdfs-it/pom.xml dependency:copy-dependencies -DoutputDirectory="$WORK/lib"
fi
mkdir -p "$WORK/classes"
"$JAVA_HOME/bin/javac" -nowarn -cp "$WORK/lib/*" -d "$WORK/classes" scripts/hdfs-it/MiniHDFS.java
rm -rf "$WORK/data" && mkdir -p "$WORK/data"
"$JAVA_HOME/bin/java" -Xmx512m --add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/java.nio=ALL-UNNAMED \
  --add-opens java.base/sun.nio.ch=ALL-UNNAMED -cp "$WORK/classes:$WORK/lib/*" MiniHDFS "$PORT" "$WORK/data" >"$WORK/minicluster.log" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null; wait $PID 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do
  [ -f "$WORK/data/READY" ] && break
  kill -0 $PID 2>/dev/null || { echo "minicluster exited; see $WORK/minicluster.log" >&2; exit 1; }
  sleep 1
done
[ -f "$WORK/data/READY" ] || { echo "minicluster did not start in 120 s; see $WORK/minicluster.log" >&2; exit 1; }
echo "HDFS up at $(cat "$WORK/data/READY")" >&2
HUDISCOPE_HDFS_URL=$(cat "$WORK/data/READY") go test -count=1 -timeout 40m -tags hdfs_it ./hudi/storage/hdfs/ -run "TestHDFSEqualsZip|TestHDFSFleet" -v "$@"
