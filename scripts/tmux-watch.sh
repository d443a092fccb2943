#!/usr/bin/env bash
# tmux test of --watch: replay a fixture's timeline into a folder one instant file at a time
# (in the order its writers wrote them: requested, inflight, completed; a commit that is rolled
# back while pending) while the explorer watches it with --watch=1s in a detached 200x100 tmux
# session, and check after each step that the Timeline pane shows the change (the instant's
# row in its new state, or gone once rolled back) within the interval plus a refresh.
#
# Usage: scripts/tmux-watch.sh [TABLE.zip]   (default: testdata/fixtures/cow-services-1.2.0)
# Needs go and tmux; exit 0 on success (or SKIP without the fixture), 1 on failure.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
command -v tmux >/dev/null 2>&1 || { echo "tmux-watch: tmux is not installed" >&2; exit 2; }
src=${1:-$repo/testdata/fixtures/cow-services-1.2.0/table.zip}
if [[ ! -f $src ]]; then
	echo "tmux-watch: SKIP: no fixture $src" >&2
	exit 0
fi
limit_ms=${WATCH_LIMIT_MS:-3000} # interval 1 s + the refresh + a render, with slack for a loaded machine

NAME=tmux-watch SESSION=watch
# shellcheck source=tmux-lib.sh
source "$(dirname "$0")/tmux-lib.sh"
send() { tmux -L "$sock" send-keys -t "$session" "$@"; }

(cd "$repo" && go build -o "$tmp/hudiscope" . && go build -o "$tmp/replay" ./internal/replay/cmd/replay)
table=$tmp/table
start=3
"$tmp/replay" -src "$src" -dst "$table" -start $start -every -1s
steps=$("$tmp/replay" -src "$src" -count)

cmd="env TERM=xterm-256color '$tmp/hudiscope' --watch=1s --alert rollback --log-file '$tmp/log' --cluster-defaults - '$table'; echo \$? > '$tmp/exit-code'"
tmux -L "$sock" -f /dev/null new-session -d -s "$session" -x 200 -y 100 "$cmd"
wait_for "[1 Overview]"
send 2
wait_for "[2 Timeline]"
send z z z # raw instant strings, as the replay names them
wait_for "every 1s"

now_ms() { date +%s%3N; }
worst=0
for ((n = start; n < steps; n++)); do
	read -r _ ts state _ action _ < <("$tmp/replay" -src "$src" -dst "$table" -step $n)
	t0=$(now_ms)
	while [[ $state != partly-deleted ]]; do
		rows=$(screen | tail -n +4 | grep -F -- "$ts" | grep -F -- " $action " || true)
		if [[ $state == deleted ]]; then
			[[ -z $rows ]] && break
		elif grep -qF -- " $state " <<<"$rows"; then
			break
		fi
		if (($(now_ms) - t0 > limit_ms)); then
			fail "step $n ($ts $action $state) not on screen after ${limit_ms} ms"
		fi
		sleep 0.05
	done
	dt=$(($(now_ms) - t0))
	((dt > worst)) && worst=$dt
	echo "tmux-watch: step $n: $ts $action $state on screen after ${dt} ms"
done
# The rollback alert is in the header.
screen | head -n 1 | grep -qF "was rolled back" || screen | head -n 1 | grep -qF "rollback" || fail "no rollback alert in the header"
send q
for ((i = 0; i < 50; i++)); do [[ -f $tmp/exit-code ]] && break; sleep 0.1; done
[[ $(cat "$tmp/exit-code" 2>/dev/null) == 0 ]] || fail "exit code $(cat "$tmp/exit-code" 2>/dev/null)"
echo "tmux-watch: OK: $((steps - start)) steps, each on screen within ${worst} ms (limit ${limit_ms} ms)"
