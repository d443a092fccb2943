#!/usr/bin/env bash
# Regenerates every fixture under testdata/fixtures/ with real Spark + real Hudi.
# Needs: Java 17 (JAVA_HOME), python3 >= 3.8 with venv (+ python3.10 for Hudi 0.12), mvn, zip; network access to PyPI and Maven Central.
# Never run by `go test` or CI: the output is committed.
#
#   bash testdata/gen/run.sh            # everything (≈ 40 min on 2 cores)
#   bash testdata/gen/run.sh incr-1.2.0 cdc-1.2.0   # only the named fixtures
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
TESTDATA="$(dirname "$HERE")"
OUT="$TESTDATA/fixtures"
WORK="${HUDISCOPE_GEN_WORK:-/tmp/hudiscope-gen}"
PYSPARK_VERSION=3.5.8
HUDI_1X=1.2.0
HUDI_0X=0.15.0
HUDI_10=1.0.2   # last release line writing table version 8 (1.1+ write version 9)
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
export PATH="$JAVA_HOME/bin:$PATH"
export TZ="${TZ:-UTC}"

mkdir -p "$WORK" "$OUT"
VENV="$WORK/venv-pyspark-$PYSPARK_VERSION"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q "pyspark==$PYSPARK_VERSION"
fi

jar() { # group artifact version -> path in ~/.m2 (downloads from Maven Central once)
  local g=$1 a=$2 v=$3
  local p="$HOME/.m2/repository/${g//.//}/$a/$v/$a-$v.jar"
  [ -f "$p" ] || mvn -q dependency:get -Dartifact="$g:$a:$v" -Dtransitive=false >&2
  echo "$p"
}
B1=$(jar org.apache.hudi hudi-spark3.5-bundle_2.12 $HUDI_1X)
B0=$(jar org.apache.hudi hudi-spark3.5-bundle_2.12 $HUDI_0X)
B10=$(jar org.apache.hudi hudi-spark3.5-bundle_2.12 $HUDI_10 || true)
# Hudi 0.12 (table version 5): Spark 3.3 bundle; PySpark 3.3 needs Python <= 3.10.
HUDI_012=0.12.2
PY310="${PY310:-}"
if [ -z "$PY310" ]; then
  for c in python3.10 "$HOME"/.pyenv/versions/3.10*/bin/python3.10; do
    if "$c" --version >/dev/null 2>&1; then PY310=$c; break; fi
  done
fi
VENV33="$WORK/venv-pyspark-3.3.4"
if [ -n "$PY310" ] && [ ! -x "$VENV33/bin/python" ]; then
  "$PY310" -m venv "$VENV33" && "$VENV33/bin/pip" install -q "pyspark==3.3.4" || rm -rf "$VENV33"
fi
B012=$(jar org.apache.hudi hudi-spark3.3-bundle_2.12 $HUDI_012 || true)
# Issue 29: the releases EMR ships. Hudi 1.1.1 (table version 9) on Spark 3.5; Hudi 0.14.0 (table version 6)
# on Spark 3.4 (hudi-spark3.4-bundle, PyPI pyspark 3.4.4 in its own venv).
HUDI_111=1.1.1
HUDI_014=0.14.0
B111=$(jar org.apache.hudi hudi-spark3.5-bundle_2.12 $HUDI_111 || true)
B014=$(jar org.apache.hudi hudi-spark3.4-bundle_2.12 $HUDI_014 || true)
VENV34="$WORK/venv-pyspark-3.4.4"
if [ ! -x "$VENV34/bin/python" ]; then
  python3 -m venv "$VENV34" && "$VENV34/bin/pip" install -q "pyspark==3.4.4" || rm -rf "$VENV34"
fi

# fixture | scenario | variant | release | bundle | event-log codec | rolling
FIXTURES="
incr-$HUDI_1X|incr||$HUDI_1X|$B1|none|
cdc-$HUDI_1X|cdc||$HUDI_1X|$B1|none|
cdc-opkey-$HUDI_1X|cdc|op_key_only|$HUDI_1X|$B1|zstd|
cdc-before-$HUDI_1X|cdc|data_before|$HUDI_1X|$B1|zstd|
cdc-mor-$HUDI_1X|cdc|mor|$HUDI_1X|$B1|zstd|
cdc-morlog-$HUDI_1X|cdc-morlog||$HUDI_1X|$B1|zstd|
cdc-ops-$HUDI_1X|cdc-ops||$HUDI_1X|$B1|zstd|
types-$HUDI_1X|types||$HUDI_1X|$B1|zstd|
cow-services-$HUDI_1X|cow-services||$HUDI_1X|$B1|zstd|rolling
mor-services-$HUDI_1X|mor-services||$HUDI_1X|$B1|lz4|
incr-$HUDI_1X-lz4|incr||$HUDI_1X|$B1|lz4|
incr-$HUDI_1X-zstd|incr||$HUDI_1X|$B1|zstd|
incr-$HUDI_1X-snappy|incr||$HUDI_1X|$B1|snappy|
index-simple-$HUDI_1X|index|simple|$HUDI_1X|$B1|zstd|
index-bloom-$HUDI_1X|index|bloom|$HUDI_1X|$B1|zstd|
index-rli-$HUDI_1X|index|rli|$HUDI_1X|$B1|zstd|
index-rli-nostream-$HUDI_1X|index|rli_nostream|$HUDI_1X|$B1|zstd|
index-bucket-$HUDI_1X|index|bucket|$HUDI_1X|$B1|zstd|
incr-$HUDI_10|incr||$HUDI_10|$B10|none|
cow-services-$HUDI_10|cow-services||$HUDI_10|$B10|zstd|
mor-services-$HUDI_10|mor-services||$HUDI_10|$B10|lz4|
mor-compaction-$HUDI_1X|mor-compaction||$HUDI_1X|$B1|zstd|
mor-compaction-$HUDI_10|mor-compaction||$HUDI_10|$B10|zstd|
mor-compaction-$HUDI_0X|mor-compaction||$HUDI_0X|$B0|zstd|
incr-$HUDI_0X|incr||$HUDI_0X|$B0|none|
cdc-$HUDI_0X|cdc||$HUDI_0X|$B0|zstd|
cow-services-$HUDI_0X|cow-services||$HUDI_0X|$B0|snappy|
incr-$HUDI_012|incr||$HUDI_012|$B012|none|
cow-services-$HUDI_012|cow-services||$HUDI_012|$B012|zstd|
bootstrap-$HUDI_111|bootstrap||$HUDI_111|$B111|off|
bootstrap-$HUDI_014|bootstrap||$HUDI_014|$B014|off|
mor-archived-$HUDI_111|mor-archived||$HUDI_111|$B111|off|
mor-archived-$HUDI_014|mor-archived||$HUDI_014|$B014|off|
restore-cow-$HUDI_111|restore|cow|$HUDI_111|$B111|off|
restore-mor-$HUDI_111|restore|mor|$HUDI_111|$B111|off|
restore-cow-$HUDI_014|restore|cow|$HUDI_014|$B014|off|
restore-mor-$HUDI_014|restore|mor|$HUDI_014|$B014|off|
schema-evo-mor-$HUDI_111|schema-evo||$HUDI_111|$B111|off|
killed-writer-$HUDI_014|killed-writer||$HUDI_014|$B014|off|
bootstrap-full-$HUDI_014|bootstrap|full|$HUDI_014|$B014|off|
dups-$HUDI_111|dups||$HUDI_111|$B111|off|
dups-cow-$HUDI_014|dups|cow|$HUDI_014|$B014|off|
eventlog-pair-before-$HUDI_1X|eventlog-pair|before|$HUDI_1X|$B1|zstd|
eventlog-pair-after-$HUDI_1X|eventlog-pair|after|$HUDI_1X|$B1|zstd|
"

want() { local w; for w in "${SELECTED[@]}"; do [ "$w" = "$1" ] && return 0; done; return 1; }
SELECTED=("$@")
echo "$FIXTURES" | while IFS='|' read -r fx sc var rel bundle codec roll; do
  [ -n "$fx" ] || continue
  if [ ${#SELECTED[@]} -gt 0 ] && ! want "$fx"; then continue; fi
  echo "=== $fx ($sc $var, Hudi $rel, event log $codec $roll)"
  args=(--scenario "$sc" --fixture "$fx" --hudi-release "$rel" --bundle "$bundle"
        --out "$OUT/$fx" --work "$WORK/tables" --eventlog-codec "$codec")
  [ -n "$var" ] && args+=(--variant "$var")
  [ -n "$roll" ] && args+=(--eventlog-rolling)
  py="$VENV/bin/python"
  [ -f "$bundle" ] || { echo "SKIPPED: $fx (bundle for Hudi $rel not downloadable)"; continue; }
  case "$rel" in 0.14.*)
    py="$VENV34/bin/python"
    [ -x "$py" ] || { echo "SKIPPED: $fx (needs $VENV34)"; continue; } ;;
  esac
  case "$rel" in 0.1[0-2].*)
    py="$VENV33/bin/python"
    [ -x "$py" ] && [ -f "$bundle" ] || { echo "SKIPPED: $fx (needs python3.10 + $bundle)"; continue; } ;;
  esac
  PYSPARK_PYTHON="$py" PYSPARK_DRIVER_PYTHON="$py" "$py" "$HERE/generate.py" "${args[@]}" > "$WORK/$fx.log" 2>&1 \
    || { echo "FAILED: $fx (see $WORK/$fx.log)"; tail -20 "$WORK/$fx.log"; }
done

# Incremental-read probes (oracle/incremental_probes*.json, format in testdata/README.md): one Spark
# application per reader release, reading unzipped copies of the committed table.zip files (never writing).
# The writer's own release -> incremental_probes.json; another reader -> incremental_probes_reader-<rel>.json.
# selected_fixtures ARRAY fixture-dir...: the fixture dirs holding a table.zip, only those named on the
# command line when some are (every probe function's choice).
selected_fixtures() {
  local -n into=$1; shift
  local d
  for d in "$@"; do
    [ -f "$d/table.zip" ] || continue
    if [ ${#SELECTED[@]} -gt 0 ] && ! want "$(basename "$d")"; then continue; fi
    into+=("$d")
  done
}
probe() { # reader-release bundle python out-name fixture-dir...
  local rel=$1 bundle=$2 py=$3 name=$4; shift 4
  local dirs=()
  selected_fixtures dirs "$@"
  [ ${#dirs[@]} -gt 0 ] || return 0
  if [ ! -x "$py" ] || [ ! -f "$bundle" ]; then echo "SKIPPED probes by $rel ($name): needs $py + $bundle"; return 0; fi
  echo "=== probes: reader Hudi $rel -> $name: ${dirs[*]##*/}"
  PYSPARK_PYTHON="$py" PYSPARK_DRIVER_PYTHON="$py" "$py" "$HERE/probe_incremental.py" --reader "$rel" \
    --bundle "$bundle" --out-name "$name" ${PROBE_EXTRA:-} "${dirs[@]}" > "$WORK/probe-$rel-$name.log" 2>&1 \
    || { echo "FAILED: probes $rel $name (see $WORK/probe-$rel-$name.log)"; tail -5 "$WORK/probe-$rel-$name.log"; }
}
shopt -s nullglob
probe $HUDI_1X "$B1" "$VENV/bin/python" incremental_probes.json "$OUT"/*-$HUDI_1X "$OUT"/*-$HUDI_1X-*
probe $HUDI_10 "$B10" "$VENV/bin/python" incremental_probes.json "$OUT"/*-$HUDI_10
probe $HUDI_0X "$B0" "$VENV/bin/python" incremental_probes.json "$OUT"/*-$HUDI_0X
probe $HUDI_012 "$B012" "$VENV33/bin/python" incremental_probes.json "$OUT"/*-$HUDI_012
# cross-release: a version-8 table read by a 1.1+ reader, a version-9 table offered to a 1.0 reader
probe $HUDI_1X "$B1" "$VENV/bin/python" incremental_probes_reader-$HUDI_1X.json "$OUT"/*-$HUDI_10
probe $HUDI_10 "$B10" "$VENV/bin/python" incremental_probes_reader-$HUDI_10.json "$OUT"/incr-$HUDI_1X "$OUT"/mor-compaction-$HUDI_1X
# issue 29 fixtures: every archived write too, fallback on/off, full row values; plus time travel
# (as.of.instant at every write, archived included) by the writer's release, and 0.14.0 tables read by 1.1.1.
PROBE_EXTRA="--rows --archived-all" probe $HUDI_111 "$B111" "$VENV/bin/python" incremental_probes.json "$OUT"/*-$HUDI_111
PROBE_EXTRA="--rows --archived-all" probe $HUDI_014 "$B014" "$VENV34/bin/python" incremental_probes.json "$OUT"/*-$HUDI_014
PROBE_EXTRA="--rows --archived-all" probe $HUDI_111 "$B111" "$VENV/bin/python" incremental_probes_reader-$HUDI_111.json "$OUT"/*-$HUDI_014
tt() { # reader-release bundle python fixture-dir...
  local rel=$1 bundle=$2 py=$3; shift 3
  local dirs=()
  selected_fixtures dirs "$@"
  [ ${#dirs[@]} -gt 0 ] || return 0
  echo "=== time-travel probes: reader Hudi $rel: ${dirs[*]##*/}"
  PYSPARK_PYTHON="$py" PYSPARK_DRIVER_PYTHON="$py" "$py" "$HERE/probe_timetravel.py" --reader "$rel" --bundle "$bundle" \
    --rows --archived "${dirs[@]}" > "$WORK/tt-$rel.log" 2>&1 || { echo "FAILED: time travel $rel (see $WORK/tt-$rel.log)"; }
}
tt $HUDI_111 "$B111" "$VENV/bin/python" "$OUT"/*-$HUDI_111
tt $HUDI_014 "$B014" "$VENV34/bin/python" "$OUT"/*-$HUDI_014
tt $HUDI_111 "$B111" "$VENV/bin/python" "$OUT"/*-$HUDI_014
# Read-only probes on unzipped copies, one Spark application per release (never writing to a committed table).
# fixture_probe script log-name reader-release bundle python fixture-dir...
fixture_probe() {
  local script=$1 name=$2 rel=$3 bundle=$4 py=$5; shift 5
  local dirs=()
  selected_fixtures dirs "$@"
  [ ${#dirs[@]} -gt 0 ] || return 0
  echo "=== $name probes: Hudi $rel: ${dirs[*]##*/}"
  PYSPARK_PYTHON="$py" PYSPARK_DRIVER_PYTHON="$py" "$py" "$HERE/$script" --reader "$rel" --bundle "$bundle" \
    "${dirs[@]}" > "$WORK/$name-$rel.log" 2>&1 || { echo "FAILED: $name probes $rel (see $WORK/$name-$rel.log)"; }
}
# Metadata-table procedures (oracle/metadata_procedures.json): show_metadata_table_partitions, _files,
# _stats and validate_metadata_table_files; cli/metadata_oracle_test.go compares `hudiscope metadata` with them.
fixture_probe probe_metadata.py mdt $HUDI_1X "$B1" "$VENV/bin/python" "$OUT"/cow-services-$HUDI_1X
fixture_probe probe_metadata.py mdt $HUDI_0X "$B0" "$VENV/bin/python" "$OUT"/cow-services-$HUDI_0X
# Write-statistics probes (oracle/show_probes.json, the oracle of `hudiscope show`): CALL show_commit_partitions,
# show_commit_files, show_commit_write_stats per completed write, stats_wa and stats_file_sizes per table.
fixture_probe probe_show.py show $HUDI_1X "$B1" "$VENV/bin/python" "$OUT"/cow-services-$HUDI_1X "$OUT"/mor-services-$HUDI_1X
shopt -u nullglob
# Issue 32: one record key's story (oracle/key_story.json) on the index fixtures, read by Hudi 1.2.0.
keyprobe() { # fixture:keys...
  local args=() a
  for a in "$@"; do
    if [ ${#SELECTED[@]} -gt 0 ] && ! want "${a%%:*}"; then continue; fi
    [ -f "$OUT/${a%%:*}/table.zip" ] && args+=("$OUT/$a")
  done
  [ ${#args[@]} -gt 0 ] || return 0
  echo "=== key probes: ${args[*]##*/}"
  PYSPARK_PYTHON="$VENV/bin/python" PYSPARK_DRIVER_PYTHON="$VENV/bin/python" "$VENV/bin/python" "$HERE/probe_key.py" --reader $HUDI_1X \
    --bundle "$B1" "${args[@]}" > "$WORK/probe-key.log" 2>&1 || { echo "FAILED: key probes (see $WORK/probe-key.log)"; }
}
keyprobe index-bucket-$HUDI_1X:8,9,10,0 index-rli-$HUDI_1X:8,1249,99999 index-bloom-$HUDI_1X:8,1249 index-simple-$HUDI_1X:8,1249

# Describe probes (oracle/describe.json): show_table_properties, DESCRIBE, the read schema and every active
# write's recorded schema, by the writer's own release.
fixture_probe probe_describe.py describe $HUDI_111 "$B111" "$VENV/bin/python" "$OUT"/schema-evo-mor-$HUDI_111
fixture_probe probe_describe.py describe $HUDI_0X "$B0" "$VENV/bin/python" "$OUT"/cow-services-$HUDI_0X

# Do the released hudi-utilities bundles ship the analyzer tools?
{
  echo "# Class-list check of released hudi-utilities bundles (Maven Central), $(date -u +%F)"
  for v in $HUDI_1X $HUDI_0X; do
    u=$(jar org.apache.hudi hudi-utilities-bundle_2.12 $v 2>/dev/null || true)
    if [ -f "$u" ]; then
      hits=$(unzip -l "$u" | grep -E 'HoodieTableLayoutAnalyzer|HoodieTableHealthChecker|HoodieSparkEventLogAnalyzer' || true)
      echo "hudi-utilities-bundle_2.12:$v: ${hits:-none of HoodieTableLayoutAnalyzer, HoodieTableHealthChecker, HoodieSparkEventLogAnalyzer}"
    else
      echo "hudi-utilities-bundle_2.12:$v: not downloadable"
    fi
  done
  for b in "$B1" "$B0" "$B012"; do
    [ -f "$b" ] || continue
    hits=$(unzip -l "$b" | grep -E 'HoodieTableLayoutAnalyzer|HoodieTableHealthChecker|HoodieSparkEventLogAnalyzer' || true)
    echo "$(basename "$b"): ${hits:-none of the three classes}"
  done
} > "$OUT/ANALYZERS.txt"
cat "$OUT/ANALYZERS.txt"
du -sh "$TESTDATA"
