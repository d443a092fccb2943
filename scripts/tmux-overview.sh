#!/usr/bin/env bash
# tmux test of the Overview's links: start hudiscope on the largest fixture (MOR, table services,
# writer properties, event log) in a detached 80x24 tmux session, switch times to raw instant
# strings (z z z), then for every Overview line press Enter and check that the right pane
# shows and, where the line names one, that the cursor row is that instant, partition, check
# or finding. Needs go and tmux; exit 0 on success (or SKIP without the fixture), 1 on failure.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
command -v tmux >/dev/null 2>&1 || { echo "tmux-overview: tmux is not installed" >&2; exit 2; }
fx=$repo/testdata/fixtures/mor-services-1.2.0
if [[ ! -f $fx/table.zip ]]; then
	echo "tmux-overview: SKIP: no fixture $fx" >&2
	exit 0
fi
evlog=$( (ls -d "$fx"/local-* "$fx"/eventlog_v2_* 2>/dev/null || true) | head -n 1)

NAME=tmux-overview SESSION=ov
# shellcheck source=tmux-lib.sh
source "$(dirname "$0")/tmux-lib.sh"
send() { tmux -L "$sock" send-keys -t "$session" "$@"; }

(cd "$repo" && go build -o "$tmp/hudiscope" .)
cmd="env TERM=xterm-256color '$tmp/hudiscope' --log-file '$tmp/log' --props '$fx/writer.properties' --event-log '$evlog' '$fx/table.zip'; echo \$? > '$tmp/exit-code'"
tmux -L "$sock" -f /dev/null new-session -d -s "$session" -x 80 -y 24 "$cmd"

wait_for "[1 Overview]"
wait_for "top finding"
wait_for "resume after the latest commit"
# Wait until the load is over: no line still "not read yet".
for ((i = 0; i < 100; i++)); do
	screen | grep -qF "not read yet" || break
	sleep 0.1
done
send z z z
wait_for "times shown in the raw instant strings"

# The overview's lines (label, value) in raw mode: body rows start at screen line 4.
mapfile -t lines < <(screen | sed -n '4,22p' | sed 's/^[▶ ] //' | grep -v '^ *$')
[[ ${#lines[@]} -ge 10 ]] || fail "only ${#lines[@]} overview lines"
echo "tmux-overview: ${#lines[@]} lines"
label=""
for ((i = 0; i < ${#lines[@]}; i++)); do
	line=${lines[$i]}
	l=$(echo "${line:0:12}" | sed 's/ *$//')
	[[ -n $l ]] && label=$l
	value=${line:13}
	send 1 g
	wait_for "[1 Overview]"
	for ((j = 0; j < i; j++)); do send j; done
	sleep 0.2
	send Enter
	sleep 0.3
	scr=$(screen)
	cursor=$(echo "$scr" | grep -m1 '▶' || true)
	case $label in
	table | size | files) want="[3 Layout]" ;;
	partitions) want="[3 Layout]"; row=$(echo "$value" | sed -n 's/.*largest \([^ ]*\) .*/\1/p') ;;
	version | "last commit" | pending | incr.*) want="[2 Timeline]" ;;
	health) want="[4 Health]" ;;
	"top finding") want="[6 Findings]" ;;
	problems) want="Problems reading the inputs" ;;
	*) fail "unknown overview line '$label'" ;;
	esac
	echo "$scr" | grep -qF -- "$want" || fail "line $i ($label): Enter did not show $want"
	row=""
	case $label in
	partitions) row=$(echo "$value" | sed -n 's/.*largest \([^ ]*\) .*/\1/p') ;;
	"last commit") row=$(echo "$value" | awk '{print $1}') ;;
	pending) row=$(echo "$value" | awk '{print $3}') ;;
	health) row=$(echo "$value" | sed -n 's/^UNHEALTHY: \([^,]*\).*/\1/p') ;;
	"top finding") row=$(echo "$value" | awk '$1 != "none" {print $1}') ;; # "none (N hypotheses)" names no row
	esac
	if [[ -n $row ]]; then
		if [[ $label == "top finding" ]]; then
			echo "$scr" | grep -qF -- "$row" || fail "line $i ($label): $row not shown"
		else
			echo "$cursor" | grep -qF -- "$row" || fail "line $i ($label): cursor row is '$cursor', want $row"
		fi
	fi
	echo "tmux-overview: $label → ${want} ${row:+($row)}"
	# (no esc: esc followed by a digit reads as alt+digit)
done

send q
for ((i = 0; i < 50; i++)); do
	[[ -s $tmp/exit-code ]] && break
	sleep 0.1
done
[[ -s $tmp/exit-code ]] || fail "hudiscope did not exit after q"
[[ $(cat "$tmp/exit-code") == 0 ]] || fail "exit status $(cat "$tmp/exit-code")"
echo "tmux-overview: OK"
