#!/usr/bin/env bash
# tmux test of ctrl+z where nothing can resume a stopped process: hudiscope runs under
# `sh -c` (no job control) as the tmux session's command. ctrl+z must not stop it (the pane
# would hang): the status line says it was ignored, and q still quits with status 0.
# Needs go and tmux; exit 0 on success (SKIP without a fixture), 1 on failure.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
command -v tmux >/dev/null 2>&1 || { echo "tmux-suspend: tmux is not installed" >&2; exit 2; }
table=$repo/testdata/fixtures/incr-1.2.0/table.zip
if [[ ! -f $table ]]; then
	echo "tmux-suspend: SKIP: no fixture $table" >&2
	exit 0
fi
NAME=tmux-suspend SESSION=susp
# shellcheck source=tmux-lib.sh
source "$(dirname "$0")/tmux-lib.sh"

(cd "$repo" && go build -o "$tmp/hudiscope" .)
# The inner sh has no job control (no -i, no -m): a stopped hudiscope would never be resumed.
tmux -L "$sock" -f /dev/null new-session -d -s "$session" -x 80 -y 24 \
	"sh -c \"TERM=xterm-256color '$tmp/hudiscope' --log-file '$tmp/log' '$table'; echo \\\$? > '$tmp/exit-code'\"; sleep 30"
wait_for "[1 Overview]"
tmux -L "$sock" send-keys -t "$session" C-z
wait_for "ctrl+z ignored"
tmux -L "$sock" send-keys -t "$session" q
for ((i = 0; i < 50; i++)); do
	[[ -s $tmp/exit-code ]] && break
	sleep 0.1
done
[[ -s $tmp/exit-code ]] || fail "hudiscope did not exit after q (stopped by ctrl+z?)"
[[ $(cat "$tmp/exit-code") == 0 ]] || fail "exit status $(cat "$tmp/exit-code")"
echo "tmux-suspend: OK"
