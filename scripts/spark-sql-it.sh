#!/usr/bin/env bash
# Integration test of `--spark` (not CI): runs the Spark SQL hudiscope generates through a real
# spark-sql (PySpark's, from testdata/gen's venv, with the Hudi bundle testdata/gen fetched) on
# unzipped fixtures, and compares with hudiscope's own rows: counts per commit, record keys.
# Needs what testdata/gen/run.sh made: $WORK/venv-pyspark-3.5.8 and the hudi-spark3.5 bundle in
# ~/.m2. Usage: scripts/spark-sql-it.sh
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd)
WORK=${HUDISCOPE_GEN_WORK:-/tmp/hudiscope-gen}
HUDI=${HUDI_VERSION:-1.2.0}
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
export TZ=UTC
SPARK_SQL="$WORK/venv-pyspark-3.5.8/bin/spark-sql"
BUNDLE="$HOME/.m2/repository/org/apache/hudi/hudi-spark3.5-bundle_2.12/$HUDI/hudi-spark3.5-bundle_2.12-$HUDI.jar"
[ -x "$SPARK_SQL" ] || { echo "no $SPARK_SQL: run testdata/gen/run.sh first" >&2; exit 1; }
[ -f "$BUNDLE" ] || { echo "no $BUNDLE: run testdata/gen/run.sh first" >&2; exit 1; }
SPARK_HOME=$("$WORK/venv-pyspark-3.5.8/bin/python" -c 'import os, pyspark; print(os.path.dirname(pyspark.__file__))')
export SPARK_HOME
T=$(mktemp -d "${TMPDIR:-/tmp}/spark-sql-it.XXXXXX")
trap 'rm -rf "$T"' EXIT
go build -o "$T/hudiscope" .
# hudiscope adds --jars for a bundle in HUDISCOPE_HUDI_LIB and reads with that release's rules.
mkdir -p "$T/lib" && ln -s "$BUNDLE" "$T/lib/"
export HUDISCOPE_HUDI_LIB="$T/lib"
H="$T/hudiscope"
SP=(--spark --spark-sql "$SPARK_SQL" --spark-conf spark.ui.enabled=false --spark-conf spark.sql.session.timeZone=UTC
  --spark-conf "spark.driver.extraJavaOptions=-Dlog4j2.level=error" --spark-conf spark.hadoop.fs.defaultFS=file:///)
fail=0
cd "$T" # spark-sql leaves metastore_db/ and derby.log in its working directory
check() { # name, local output file, spark output file
  if diff -u "$2" "$3" >"$T/diff"; then
    echo "AGREE  $1: $(wc -l <"$2") line(s)"
  else
    echo "DIFFER $1:"; cat "$T/diff"; fail=1
  fi
}
table() { # fixture -> unzipped table dir
  mkdir -p "$T/fx/$1" && (cd "$T/fx/$1" && unzip -q "$REPO/testdata/fixtures/$1/table.zip")
  echo "$T/fx/$1/$(ls "$T/fx/$1")"
}
# Hudi's bundle prints JOL attach warnings on stdout ("# WARNING: ..."): not rows.
normalize() { grep -v '^# WARNING' | tr '\t' ' ' | sed 's/ *$//' | sort; }

INCR=$(table incr-1.2.0)
for begin in 000 20261129155610512 20261129155625814; do
  "$H" incremental "$INCR" --begin "$begin" --count --by commit | normalize >"$T/l"
  "$H" incremental "$INCR" --begin "$begin" --count --by commit "${SP[@]}" 2>"$T/spark.log" | normalize >"$T/s"
  check "incr-1.2.0 incremental --begin $begin (rows per commit)" "$T/l" "$T/s"
  "$H" incremental "$INCR" --begin "$begin" --columns name -o csv | tail -n +2 | cut -d, -f1,2 | tr , ' ' | sort >"$T/l"
  "$H" incremental "$INCR" --begin "$begin" --columns name "${SP[@]}" 2>>"$T/spark.log" | grep -v '^# WARNING' | cut -f1,2 | tr '\t' ' ' | sort >"$T/s"
  check "incr-1.2.0 incremental --begin $begin (commit time, record key)" "$T/l" "$T/s"
done
"$H" snapshot "$INCR" --count --by commit | normalize >"$T/l"
"$H" snapshot "$INCR" --count --by commit "${SP[@]}" 2>>"$T/spark.log" | normalize >"$T/s"
check "incr-1.2.0 snapshot (rows per commit)" "$T/l" "$T/s"
"$H" snapshot "$INCR" --as-of 20261129155626253 --count --by commit | normalize >"$T/l"
"$H" snapshot "$INCR" --as-of 20261129155626253 --count --by commit "${SP[@]}" 2>>"$T/spark.log" | normalize >"$T/s"
check "incr-1.2.0 snapshot --as-of 20261129155626253 (rows per commit)" "$T/l" "$T/s"

CDC=$(table cdc-1.2.0)
"$H" changes "$CDC" --begin earliest --count >"$T/l"
"$H" changes "$CDC" --begin earliest --count "${SP[@]}" 2>>"$T/spark.log" | normalize >"$T/s"
check "cdc-1.2.0 changes --begin earliest (count)" "$T/l" "$T/s"

MOR=$(table mor-services-1.2.0)
"$H" snapshot "$MOR" --count --by commit | normalize >"$T/l"
"$H" snapshot "$MOR" --count --by commit "${SP[@]}" 2>>"$T/spark.log" | normalize >"$T/s"
check "mor-services-1.2.0 snapshot (rows per commit)" "$T/l" "$T/s"
# duplicates: the GROUP BY on the dups fixture (9 keys), as "key copies" lines; its 1.1.1 table is
# read by the 1.2.0 bundle (a version-9 table).
DUPS=$(table dups-1.1.1)
"$H" duplicates "$DUPS" -o json --limit 0 | python3 -c 'import json,sys; [print(d["key"], d["copies"]) for d in json.load(sys.stdin)["duplicates"]]' | sort >"$T/l" || true
"$H" duplicates "$DUPS" "${SP[@]}" 2>>"$T/spark.log" | grep -v '^# WARNING' | cut -f1,2 | tr '\t' ' ' | sort >"$T/s"
check "dups-1.1.1 duplicates (key, copies)" "$T/l" "$T/s"
if [ "$fail" != 0 ]; then
  echo "spark-sql log tail:"; tail -20 "$T/spark.log"
fi
exit $fail
