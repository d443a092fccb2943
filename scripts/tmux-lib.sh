# Shared by the tmux test scripts: a private tmux server, screen capture, waiting and failing.
# The sourcing script sets NAME (for messages) and SESSION before sourcing.
tmp=$(mktemp -d)
sock="hudiscope-$NAME-$$"
session=$SESSION
cleanup() {
	tmux -L "$sock" kill-server >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT
screen() { tmux -L "$sock" capture-pane -p -t "$session" 2>/dev/null || true; }
fail() {
	echo "$NAME: FAIL: $*" >&2
	echo "---- screen ----" >&2
	screen >&2
	exit 1
}
wait_for() {
	local text=$1 i
	for ((i = 0; i < 100; i++)); do
		if screen | grep -qF -- "$text"; then return 0; fi
		sleep 0.1
	done
	fail "screen never showed '$text'"
}
