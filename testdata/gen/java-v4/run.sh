#!/usr/bin/env bash
# Table-version-4 fixtures (Hudi 0.11.1, the release Amazon EMR 6.7 ships) written with the plain
# Java write client (org.apache.hudi:hudi-java-client:0.11.1, Hadoop 2.10.1 local file system) —
# no Spark bundle of 0.11 is served here. Never run by `go test` or CI: the output is committed.
# Needs: Java 17, mvn (Maven Central), zip.
#
#   bash testdata/gen/java-v4/run.sh            # cow-v4-0.11.1 and mor-v4-0.11.1
#   bash testdata/gen/java-v4/run.sh mor        # only one
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
OUT="$(dirname "$(dirname "$HERE")")/fixtures"
WORK="${HUDISCOPE_GEN_WORK:-/tmp/hudiscope-gen}/java-v4"
RELEASE=0.11.1
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
export PATH="$JAVA_HOME/bin:$PATH"
export TZ=UTC   # instant times are local wall-clock time; UTC like the Spark fixtures

cd "$HERE"
mvn -q -B compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
CP="target/classes:$(cat target/cp.txt)"
# Hadoop 2.10 and Hudi's Kryo/reflection use on Java 17
OPENS=()
for p in java.lang java.lang.invoke java.lang.reflect java.io java.net java.nio java.util java.util.concurrent \
         java.util.concurrent.atomic java.util.regex java.text java.math sun.nio.ch sun.nio.cs sun.security.action \
         sun.util.calendar; do
  OPENS+=("--add-opens=java.base/$p=ALL-UNNAMED")
done

scenarios=("$@")
[ ${#scenarios[@]} -gt 0 ] || scenarios=(cow mor)
for sc in "${scenarios[@]}"; do
  fx="$sc-v4-$RELEASE"
  dest="$OUT/$fx"
  echo "=== $fx"
  rm -rf "$WORK/$sc" "$dest"
  mkdir -p "$WORK/$sc" "$dest"
  java -Xmx1g "${OPENS[@]}" -Duser.timezone=UTC -Djava.io.tmpdir="$WORK/$sc" -cp "$CP" \
    hudiscope.WriteV4 "$sc" "$WORK/$sc" "$dest" "$fx" > "$WORK/$fx.log" 2>&1 \
    || { echo "FAILED: $fx (see $WORK/$fx.log)"; tail -30 "$WORK/$fx.log"; exit 1; }
  # zip without -X: keeps the Unix extended timestamp (mtime to the second, UTC) beside the DOS time
  (cd "$WORK/$sc" && zip -q -r "$dest/table.zip" "${sc}_v4")
  # spill files of the log scanner / view live in java.io.tmpdir = $WORK/$sc, outside the table
  du -sh "$dest"
done
