#!/usr/bin/env bash
# Compares hudiscope with hudi-rs (PyPI `hudi`, the hudi-rs Python bindings) on the shared hudi-rs
# test tables and our fixtures (not CI): snapshot row counts and record-key sets, incremental
# counts from every commit; one JSON line per table. With BENCH_DIR set (a table directory, e.g.
# the one `HUDISCOPE_BENCH_KEEP=DIR go test -run XXX -bench SnapshotScan1M ./hudi/records/` leaves), also times a
# snapshot scan of it by both readers, side by side.
# Usage: scripts/compare-hudi-rs.sh [TABLE.zip ...]
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${HUDIRS_WORK:-/tmp/hudiscope-hudirs}
VENV="$WORK/venv"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q "hudi==${HUDI_RS_VERSION:-0.5.0}" pyarrow
fi
mkdir -p "$WORK/tables"
go build -o "$WORK/hudiscope" .
if [ $# -eq 0 ]; then
  set -- $(find ../shared/testdata/hudi-rs/crates/test/data -name '*.zip' | sort) $(ls testdata/fixtures/*/table.zip)
fi
B=()
[ -n "${BENCH_DIR:-}" ] && B=(--bench "$BENCH_DIR")
"$VENV/bin/python" scripts/compare-hudi-rs.py "$WORK/hudiscope" "$WORK/tables" "$@" "${B[@]}"
