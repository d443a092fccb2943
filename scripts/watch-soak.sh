#!/usr/bin/env bash
# Soak test of --watch (not CI): a table receives a synthetic commit every COMMIT_EVERY while the
# explorer watches it (--watch=$INTERVAL, in a detached tmux session) for DURATION; the
# explorer's resident memory and CPU time are sampled every SAMPLE from /proc and printed, with
# the first and last thirds compared. Bounded: it stops after DURATION (default 10m).
#
# Usage: DURATION=1h scripts/watch-soak.sh [TABLE.zip]
# Needs go, tmux and Linux /proc. Exit 0 when memory and CPU stayed flat (last third's mean
# RSS within 1.5x of the first's, and CPU per sample within 2x), 1 otherwise.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
command -v tmux >/dev/null 2>&1 || { echo "watch-soak: tmux is not installed" >&2; exit 2; }
src=${1:-$repo/testdata/fixtures/cow-services-1.2.0/table.zip}
[[ -f $src ]] || { echo "watch-soak: SKIP: no fixture $src" >&2; exit 0; }
duration=${DURATION:-10m}
interval=${INTERVAL:-2s}
commit_every=${COMMIT_EVERY:-10s}
sample=${SAMPLE:-30}
secs() { local d=$1; case $d in *h) echo $((${d%h} * 3600)) ;; *m) echo $((${d%m} * 60)) ;; *s) echo "${d%s}" ;; *) echo "$d" ;; esac; }
total=$(secs "$duration")

NAME=watch-soak SESSION=soak
# shellcheck source=tmux-lib.sh
source "$(dirname "$0")/tmux-lib.sh"

(cd "$repo" && go build -o "$tmp/hudiscope" . && go build -o "$tmp/replay" ./internal/replay/cmd/replay)
table=$tmp/table
"$tmp/replay" -src "$src" -dst "$table" -start 1000 -every -1s
commits=$((total / $(secs "$commit_every") + 1))
"$tmp/replay" -src "$src" -dst "$table" -start 1000 -every "$commit_every" -commits $commits >"$tmp/replay.log" 2>&1 &
replay_pid=$!
trap 'kill $replay_pid 2>/dev/null || true; cleanup' EXIT

tmux -L "$sock" -f /dev/null new-session -d -s "$session" -x 120 -y 40 \
	"env TERM=xterm-256color '$tmp/hudiscope' --watch=$interval --log-file '$tmp/log' --cluster-defaults - '$table'"
wait_for "[1 Overview]"
send() { tmux -L "$sock" send-keys -t "$session" "$@"; }
send 2
pid=$(tmux -L "$sock" list-panes -t "$session" -F '#{pane_pid}')
# The pane runs env, which execs hudiscope: the pane's process is the explorer.
hz=$(getconf CLK_TCK)
rss() { awk '/VmRSS/ {print $2}' "/proc/$pid/status"; }
cpu() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
echo "watch-soak: watching $table for $duration, a commit every $commit_every, refresh every $interval (pid $pid)"
printf '%8s %10s %12s %10s\n' elapsed rss_kib cpu_s_total instants
t0=$(date +%s)
prev_cpu=$(cpu)
declare -a rs cs
while :; do
	sleep "$sample"
	now=$(date +%s)
	[[ -d /proc/$pid ]] || fail "the explorer exited"
	r=$(rss)
	c=$(cpu)
	n=$(find "$table/.hoodie/timeline" -maxdepth 1 -name '*_*.commit' | wc -l)
	rs+=("$r")
	cs+=($((c - prev_cpu)))
	prev_cpu=$c
	printf '%8s %10s %12s %10s\n' $((now - t0)) "$r" "$(awk -v c="$c" -v hz="$hz" 'BEGIN{printf "%.2f", c/hz}')" "$n"
	((now - t0 >= total)) && break
done
screen | tail -n 1
k=$((${#rs[@]} / 3))
((k >= 1)) || { echo "watch-soak: too short to compare (need 3 samples)"; exit 0; }
mean() { local s=0 x; for x in "$@"; do s=$((s + x)); done; echo $((s / $#)); }
r1=$(mean "${rs[@]:0:k}") r3=$(mean "${rs[@]: -k}")
c1=$(mean "${cs[@]:0:k}") c3=$(mean "${cs[@]: -k}")
echo "watch-soak: RSS first third ${r1} KiB, last third ${r3} KiB; CPU ticks per sample first third ${c1}, last third ${c3} (${hz}/s)"
if ((r3 * 2 > r1 * 3)) || ((c3 > 2 * c1 + 2 * hz / 10)); then
	echo "watch-soak: FAIL: memory or CPU grew" >&2
	exit 1
fi
echo "watch-soak: OK: flat"
