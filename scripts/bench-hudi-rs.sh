#!/usr/bin/env bash
# Side-by-side: `hudiscope files --json` against hudi-rs (PyPI `hudi`, the native-Rust reader)
# listing the same table's latest file slices. Each tool runs RUNS times (default 3) in turn;
# the line per run gives user+sys CPU seconds, wall seconds and peak RSS from /usr/bin/time,
# and the number of file slices each found (they must agree).
#
#   scripts/bench-hudi-rs.sh /tmp/hs-50k-10k /tmp/hs-1k-1m
#   scripts/bench-hudi-rs.sh --synth-mdt
#
# --synth-mdt checks that hudi-rs reads the metadata-table HFile synth.WriteDiskMDT writes: it
# builds a small table (3000 base files in 30 partitions, one run) and deletes one base file
# from storage, so only a reader of the metadata table reports 3000 slices — storage has 2999.
# The exit status is 1 when the two tools' counts differ (in every mode).
#
# Environment: HUDISCOPE (binary; default: go build into a temp dir), VENV (default
# /tmp/hudi-rs-venv, created with `pip install hudi==0.5.0` when missing), RUNS.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 TABLE_DIR... | $0 --synth-mdt" >&2; exit 2; }
RUNS=${RUNS:-3}
VENV=${VENV:-/tmp/hudi-rs-venv}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ "$1" = --synth-mdt ]; then
	RUNS=1
	(cd "$(dirname "$0")/.." && go run ./hudi/internal/synth/cmd/synthtable -mdt -commits 20 -files 3000 -parts 30 "$tmp/synth-mdt")
	rm "$tmp"/synth-mdt/dt=2026-01-0000/00000000-*.parquet
	set -- "$tmp/synth-mdt"
fi
if [ -z "${HUDISCOPE:-}" ]; then
	HUDISCOPE=$tmp/hudiscope
	(cd "$(dirname "$0")/.." && go build -o "$HUDISCOPE" .)
fi
if [ ! -x "$VENV/bin/python" ]; then
	python3 -m venv "$VENV"
	"$VENV/bin/pip" install -q hudi==0.5.0
fi
cat > "$tmp/slices.py" <<'PY'
import sys
from hudi import HudiTableBuilder
t = HudiTableBuilder.from_base_uri(sys.argv[1]).build()
print(len(t.get_file_slices()))
PY
measure() { # label, command...: one line of figures
	local label=$1; shift
	/usr/bin/time -f '%U %S %e %M' -o "$tmp/time" "$@" > "$tmp/out"
	local count
	if [ "$label" = hudiscope ]; then
		count=$(grep -c '"fileId"' "$tmp/out" || true)
	else
		count=$(tail -1 "$tmp/out")
	fi
	read -r u s e m < "$tmp/time"
	printf '%-10s cpu %6.2f s  wall %6.2f s  rss %5d MB  slices %s\n' "$label" "$(echo "$u + $s" | bc)" "$e" $((m / 1024)) "$count"
	last_count=$count
}
status=0
# hudi-rs lists partitions only when hoodie.properties declares a partition field present in
# the schema. The synthetic tables (hudi/internal/synth) keep their fixture's non-partitioned
# properties while writing dt=… partition directories (hudiscope lists what is on storage), so
# hudi-rs reads them through a shadow directory of links whose hoodie.properties names `id`.
shadow() { # table dir → a directory hudi-rs lists the same files in
	local t=$1 s
	if ! grep -q '^hoodie.table.partition.fields=$' "$t/.hoodie/hoodie.properties"; then
		echo "$t"
		return
	fi
	s=$tmp/shadow-$(basename "$t")
	mkdir -p "$s/.hoodie"
	for e in "$t"/* "$t"/.hoodie/* "$t"/.hoodie/.[!.]*; do
		[ -e "$e" ] || continue
		case $e in
		"$t/.hoodie/hoodie.properties") ;;
		"$t"/.hoodie/*) ln -s "$e" "$s/.hoodie/" ;;
		*) ln -s "$e" "$s/" ;;
		esac
	done
	sed 's/^hoodie.table.partition.fields=$/hoodie.table.partition.fields=id/; s/^hoodie.table.keygenerator.type=NON_PARTITION$/hoodie.table.keygenerator.type=SIMPLE/' \
		"$t/.hoodie/hoodie.properties" > "$s/.hoodie/hoodie.properties"
	echo "$s"
}
for table in "$@"; do
	echo "== $table"
	rs=$(shadow "$table")
	for _ in $(seq "$RUNS"); do
		measure hudiscope "$HUDISCOPE" files --json "$table"
		ours=$last_count
		measure hudi-rs "$VENV/bin/python" "$tmp/slices.py" "$rs"
		if [ "$ours" != "$last_count" ]; then
			echo "MISMATCH: hudiscope $ours slices, hudi-rs $last_count" >&2
			status=1
		fi
	done
done
exit $status
