#!/usr/bin/env bash
# tmux smoke test of the interactive explorer: build hudiscope, start it in a detached tmux
# session (100x30, SSH_TTY set so bubbletea takes its SSH code path) on a fixture table,
# start on the Overview, navigate (3, 2, j, Enter, Esc, c, Esc, then esc and a digit typed at
# once, which the terminal sends as alt+digit), export the pane (e), quit (q), and check the
# screen, the exported Markdown file and the exit status. First, a --props file that is missing
# or not properties (a zstd event log) must stop the explorer before it takes the terminal, with
# the message and exit code the commands give.
#
# Usage: scripts/tmux-smoke.sh [TABLE.zip]
#   default table: testdata/fixtures/incr-1.2.0/table.zip, else the hudi-rs corpus's
#   sample_table/cow/v9_txns_simple_meta.zip under ../shared/testdata.
# Needs: go, tmux (>= 3.0). Installs nothing. Exit 0 on success (or when no fixture exists:
# skipped, with a message), 1 on failure, 2 when tmux is missing.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
if ! command -v tmux >/dev/null 2>&1; then
	echo "tmux-smoke: tmux is not installed (apt-get install -y tmux)" >&2
	exit 2
fi

table=${1:-}
if [[ -z $table ]]; then
	for c in "$repo/testdata/fixtures/incr-1.2.0/table.zip" \
		"$repo/../shared/testdata/hudi-rs/crates/test/data/sample_table/cow/v9_txns_simple_meta.zip"; do
		if [[ -f $c ]]; then table=$c; break; fi
	done
fi
if [[ -z $table || ! -e $table ]]; then
	echo "tmux-smoke: SKIP: no fixture table found (testdata/fixtures or ../shared/testdata)" >&2
	exit 0
fi
table=$(cd "$(dirname "$table")" && pwd)/$(basename "$table")

tmp=$(mktemp -d)
sock="hudiscope-smoke-$$" # a private tmux server: never touches the user's sessions
session=smoke
cleanup() {
	tmux -L "$sock" kill-server >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT

fail() {
	echo "tmux-smoke: FAIL: $*" >&2
	if tmux -L "$sock" has-session -t "$session" 2>/dev/null; then
		echo "---- screen ----" >&2
		tmux -L "$sock" capture-pane -p -t "$session" >&2 || true
		echo "----------------" >&2
	fi
	if [[ -s $tmp/log ]]; then
		echo "---- log file ----" >&2
		tail -n 20 "$tmp/log" >&2
	fi
	exit 1
}

echo "tmux-smoke: building"
(cd "$repo" && go build -o "$tmp/hudiscope" .)

# The table's name as the header shows it, from the non-interactive report.
name=$("$tmp/hudiscope" report "$table" --format json 2>/dev/null | sed -n 's/^    "name": "\(.*\)",$/\1/p' | head -n 1)
[[ -n $name ]] || fail "hudiscope report could not read $table"

# --props is refused as every command refuses it: same message, exit 1, no TUI.
zstd="$repo/testdata/fixtures/cdc-0.15.0/local-1796078932238.zstd"
for props in "$tmp/missing.properties" "$zstd"; do
	[[ -e $props || $props == "$tmp/missing.properties" ]] || continue
	set +e
	"$tmp/hudiscope" --props "$props" "$table" </dev/null >"$tmp/open.out" 2>"$tmp/open.err"
	code=$?
	"$tmp/hudiscope" report "$table" --props "$props" >/dev/null 2>"$tmp/report.err"
	set -e
	[[ $code == 1 ]] || fail "hudiscope --props $props: exit $code, want 1"
	grep -qF "read --props: " "$tmp/open.err" || fail "hudiscope --props $props: stderr $(cat "$tmp/open.err")"
	cmp -s "$tmp/open.err" "$tmp/report.err" || fail "explorer and report disagree on --props $props: $(cat "$tmp/open.err") / $(cat "$tmp/report.err")"
	[[ ! -s $tmp/open.out ]] || fail "hudiscope --props $props drew on stdout"
	echo "tmux-smoke: refused: $(cat "$tmp/open.err")"
done

mkdir -p "$tmp/export"
cmd="env SSH_TTY=/dev/pts/99 TERM=xterm-256color '$tmp/hudiscope' --export-dir '$tmp/export' --log-file '$tmp/log' '$table'; echo \$? > '$tmp/exit-code'"
tmux -L "$sock" -f /dev/null new-session -d -s "$session" -x 100 -y 30 "$cmd"

screen() { tmux -L "$sock" capture-pane -p -t "$session" 2>/dev/null || true; }

# wait_for TEXT [SECONDS]: poll the screen until it shows TEXT.
wait_for() {
	local text=$1 limit=${2:-10} i
	for ((i = 0; i < limit * 10; i++)); do
		if screen | grep -qF -- "$text"; then return 0; fi
		sleep 0.1
	done
	fail "screen never showed '$text'"
}

send() { tmux -L "$sock" send-keys -t "$session" "$@"; }

echo "tmux-smoke: $table (table $name)"
wait_for "$name"
wait_for "[1 Overview]"
wait_for "last commit"
wait_for "resume after the latest commit: "
wait_for "earliest readable ("

send 3
wait_for "[3 Layout]"
send 2
wait_for "[2 Timeline]"
send j
send Enter
wait_for "Timeline › "
wait_for "files written"
send Escape
wait_for "[2 Timeline]"
send c
wait_for "Checkpoint helper"
send Escape
wait_for "[2 Timeline]"
# Esc then a digit in one write: bubbletea reads it as alt+digit, which must switch panes too.
send Escape 3
wait_for "[3 Layout]"
send Escape 2
wait_for "[2 Timeline]"
send e
wait_for "exported timeline pane to"

shopt -s nullglob
files=("$tmp"/export/hudiscope-*-timeline-*.md)
[[ ${#files[@]} -eq 1 ]] || fail "expected one exported timeline file in $tmp/export, found ${#files[@]}"
grep -q '^| requested | completed | action |' "${files[0]}" || fail "export has no timeline table header"
grep -q '^|---|' "${files[0]}" || fail "export has no Markdown table separator"
if grep -q $'\x1b' "${files[0]}"; then fail "export contains ANSI escapes"; fi
echo "tmux-smoke: exported $(basename "${files[0]}")"

send q
for ((i = 0; i < 50; i++)); do
	[[ -s $tmp/exit-code ]] && break
	sleep 0.1
done
[[ -s $tmp/exit-code ]] || fail "hudiscope did not exit after q"
code=$(cat "$tmp/exit-code")
[[ $code == 0 ]] || fail "hudiscope exited with status $code"
echo "tmux-smoke: OK"
