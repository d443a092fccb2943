#!/usr/bin/env bash
# tmux test of signals to the explorer (issue 31): SIGHUP (an SSH connection dropping), SIGTERM
# and SIGQUIT each leave the terminal as it was (main screen, cursor shown: tmux's alternate_on=0
# cursor_flag=1) and exit 130, the README's "interrupted". Before, SIGHUP left the alternate
# screen on and the cursor hidden, and SIGTERM exited 0.
# Needs go and tmux; exit 0 on success (SKIP without a fixture), 1 on failure.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
command -v tmux >/dev/null 2>&1 || { echo "tmux-signals: tmux is not installed" >&2; exit 2; }
table=$repo/testdata/fixtures/incr-1.2.0/table.zip
if [[ ! -f $table ]]; then
	echo "tmux-signals: SKIP: no fixture $table" >&2
	exit 0
fi
NAME=tmux-signals SESSION=sig
# shellcheck source=tmux-lib.sh
source "$(dirname "$0")/tmux-lib.sh"

(cd "$repo" && go build -o "$tmp/hudiscope" .)
for sig in HUP TERM QUIT; do
	rm -f "$tmp/pid" "$tmp/exit-code"
	# The inner sh writes its pid and execs hudiscope (so the pid is hudiscope's); the outer
	# one records the exit status and keeps the pane open to inspect the terminal's state.
	tmux -L "$sock" -f /dev/null new-session -d -s "$session" -x 80 -y 24 \
		"sh -c \"sh -c 'echo \\\$\\\$ > $tmp/pid; TERM=xterm-256color exec $tmp/hudiscope --log-file $tmp/log $table'; echo \\\$? > '$tmp/exit-code'\"; sleep 30"
	wait_for "[1 Overview]"
	[[ -s $tmp/pid ]] || fail "no pid for SIG$sig"
	kill -s "$sig" "$(cat "$tmp/pid")"
	for ((i = 0; i < 50; i++)); do
		[[ -s $tmp/exit-code ]] && break
		sleep 0.1
	done
	[[ -s $tmp/exit-code ]] || fail "hudiscope did not exit after SIG$sig"
	[[ $(cat "$tmp/exit-code") == 130 ]] || fail "SIG$sig: exit status $(cat "$tmp/exit-code"), want 130"
	state=$(tmux -L "$sock" display-message -p -t "$session" '#{alternate_on} #{cursor_flag}')
	[[ $state == "0 1" ]] || fail "SIG$sig left the terminal with alternate_on cursor_flag = $state, want 0 1"
	tmux -L "$sock" kill-session -t "$session"
	echo "tmux-signals: SIG$sig: exit 130, terminal restored"
done
echo "tmux-signals: OK"
