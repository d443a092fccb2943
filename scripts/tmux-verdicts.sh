#!/usr/bin/env bash
# tmux test of issue 28's items 1-10 ("one answer per question") on the real TUI at 80x24.
# The inputs are our own, derived in a scratch directory from the bundled fixtures (nothing is
# committed): mor-services-1.2.0 unzipped (a MOR table whose compaction is behind, with no event
# log), its writer.properties without the keys it sets to their release default (a props file
# that omits defaults), a props path that does not exist and a binary "props" file, and
# mor-compaction-1.2.0 (fewer commits than the cleaner retains), cdc-morlog-1.2.0 (MOR) with no
# props, its writer.properties and a copy with the compaction trigger at 2 (behind). Each check prints what it
# checked; the first mismatch fails with the screen. The clock is pinned (HUDISCOPE_NOW).
# Needs go and tmux; exit 0 on success (or SKIP without the fixtures), 1 on failure, 2 without tmux.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
command -v tmux >/dev/null 2>&1 || { echo "tmux-verdicts: tmux is not installed" >&2; exit 2; }
fx=$repo/testdata/fixtures/mor-services-1.2.0
fx2=$repo/testdata/fixtures/mor-compaction-1.2.0
fx3=$repo/testdata/fixtures/cdc-morlog-1.2.0 # optional: item 1's candidate/hypothesis/don't
for f in "$fx/table.zip" "$fx/writer.properties" "$fx2/table.zip"; do
	if [[ ! -f $f ]]; then
		echo "tmux-verdicts: SKIP: no fixture $f" >&2
		exit 0
	fi
done
evlog=$( (ls -d "$fx"/local-* "$fx"/eventlog_v2_* 2>/dev/null || true) | head -n 1)

NAME=tmux-verdicts SESSION=vd
# shellcheck source=tmux-lib.sh
source "$(dirname "$0")/tmux-lib.sh"
# A command that fails unexpectedly fails loudly too (with the screen), never silently.
set -E
trap 'fail "unexpected failure at line $LINENO: $BASH_COMMAND"' ERR
send() { tmux -L "$sock" send-keys -t "$session" "$@"; }
ok() { echo "tmux-verdicts: item $1: $2: ok"; }
export HUDISCOPE_NOW=2026-11-30T20:00:00Z NO_COLOR=1

(cd "$repo" && go build -o "$tmp/hudiscope" .)
hs=$tmp/hudiscope

# Our fixtures.
mkdir -p "$tmp/w" "$tmp/w2" "$tmp/x"
(cd "$tmp/w" && unzip -q "$fx/table.zip")
(cd "$tmp/w2" && unzip -q "$fx2/table.zip")
tbl=$(dirname "$(find "$tmp/w" -maxdepth 3 -name .hoodie -type d | head -n 1)")
tbl2=$(dirname "$(find "$tmp/w2" -maxdepth 3 -name .hoodie -type d | head -n 1)")
# hoodie.metadata.enable=true and hoodie.clean.automatic=true are Hudi 1.2's defaults: left out.
grep -v -e '^#' -e '^hoodie.metadata.enable=' -e '^hoodie.clean.automatic=' "$fx/writer.properties" >"$tmp/x/omit.properties"
printf '\000\001\002 not properties' >"$tmp/x/binary.properties"

# start ARGS...: hudiscope in a fresh 80x24 session (the exit status lands in $tmp/exit-code).
start() {
	tmux -L "$sock" kill-session -t "$session" >/dev/null 2>&1 || true
	rm -f "$tmp/exit-code"
	local q="" a
	for a in "$@"; do q+=" '$a'"; done
	tmux -L "$sock" -f /dev/null new-session -d -s "$session" -x 80 -y 24 \
		"cd '$tmp/x'; env TERM=xterm-256color '$hs' --log-file '$tmp/log' --cluster-defaults -$q; echo \$? > '$tmp/exit-code'; sleep 30"
}
# loaded: the Overview shows every line (nothing "not read yet").
loaded() {
	wait_for "top finding"
	local i
	for ((i = 0; i < 100; i++)); do
		screen | grep -qF "not read yet" || return 0
		sleep 0.1
	done
	fail "the load never finished"
}
# ovline LABEL: the value of an Overview line.
ovline() { screen | sed 's/^[▶ ] //' | grep -m1 "^$1 " | cut -c14- | sed 's/ *$//'; }
shows() { screen | grep -qF -- "$1" || fail "$2: screen lacks '$1'"; }
lacks() { ! screen | grep -qF -- "$1" || fail "$2: screen shows '$1'"; }
exited() {
	local i
	for ((i = 0; i < 50; i++)); do
		[[ -s $tmp/exit-code ]] && { cat "$tmp/exit-code"; return; }
		sleep 0.1
	done
	fail "hudiscope did not exit"
}
# header: the Health pane header's roll-up.
header() { screen | sed -n 's/^ overall \(.*\) · \(engine\|props\|no --props\).*/\1/p' | head -n 1 | sed 's/ · \(engine\|props\|no --props\).*//'; }
# export_overall: press E and print the new export's Health "Overall:" roll-up.
export_overall() {
	local n i f
	n=$(count_exports)
	send E
	for ((i = 0; i < 50; i++)); do
		[[ $(count_exports) -gt $n ]] && break
		sleep 0.1
	done
	[[ $(count_exports) -gt $n ]] || fail "item 8: E wrote no report"
	f=$(ls -t "$tmp/x"/hudiscope-*-report-*.md | head -n 1)
	sed -n 's/^Overall: \*\*\(.*\)\*\*.*/\1/p' "$f" | head -n 1
}
count_exports() { find "$tmp/x" -maxdepth 1 -name 'hudiscope-*-report-*.md' | wc -l; }
# md_top: the report's "**Top finding:** …" words.
md_top() { sed -n 's/^\*\*Top finding:\*\* \(.*\)\(: no observation is corroborated\| — the highest-ranked\).*/\1/p' | head -n 1; }

# ---- no props, no event log: the compaction check is skipped --------------------------------
start "$tbl"
loaded
h=$(ovline health)
[[ $h == "SKIPPED · 7 of 7 not judged" ]] || fail "Overview health '$h', want 'SKIPPED · 7 of 7 not judged'"
send 6
wait_for "[6 Findings]"
send / C A P - 0 0 3 Enter
wait_for 'filter "CAP-003"'
row=$(screen | grep -m1 'CAP-003')
[[ $row != *candidate* ]] || fail "item 1: CAP-003 promoted to a candidate: $row"
send Enter
wait_for "6 Findings › CAP-003"
# The counter-signal rows may sit on a later page of the detail: page on until it shows.
for ((i = 0; i < 8; i++)); do
	screen | grep -qF "unknown: the compaction health" && break
	send f
	sleep 0.2
done
shows "unknown: the compaction health" "item 1"
ok 1 "CAP-003 is '$(echo "$row" | awk '{print $3}')', its compaction counter-signal 'unknown: the compaction health check was skipped'"
lacks "does not hold (health" "item 1"

# Item 10: catalog text, not raw Markdown, no internal ids (in the detail pages and the list).
for page in 1 2 3; do
	scr=$(screen)
	for bad in '**' '`' '## ' 'HUDI-RCA-' 'hudi-architect'; do
		! grep -qF -- "$bad" <<<"$scr" || fail "item 10: CAP-003 detail page $page shows '$bad'"
	done
	send f
	sleep 0.2
done
# (one esc at a time: two at once read as alt+esc)
send Escape
wait_for "[6 Findings]"
send Escape
for ((i = 0; i < 50; i++)); do
	screen | grep -qF 'filter "CAP-003"' || break
	sleep 0.1
done
wait_for "Observations, by payoff"
for bad in '**' '`' 'HUDI-RCA-' 'hudi-architect'; do lacks "$bad" "item 10 (Findings list)"; done
# The first observation's detail too (the list opens with the cursor on it).
send g Enter
wait_for "6 Findings › OBS-"
for page in 1 2 3 4; do
	scr=$(screen)
	for bad in '**' '`' '## ' 'HUDI-RCA-' 'hudi-architect'; do
		! grep -qF -- "$bad" <<<"$scr" || fail "item 10: observation detail page $page shows '$bad'"
	done
	send f
	sleep 0.2
done
obs=$(screen | sed -n 's/.*6 Findings › \(OBS-[0-9]*\).*/\1/p' | head -n 1)
send Escape
wait_for "[6 Findings]"
ok 10 "Findings list, CAP-003's and $obs's detail show catalog text: no '**', backticks, '## ', HUDI-RCA- or hudi-architect"

# Item 3: the Overview's top finding is the report's.
send 1
wait_for "[1 Overview]"
top=$(ovline "top finding")
want=$("$hs" report --cluster-defaults - "$tbl" | md_top)
[[ $top == "$want" && $top == "none ("*" hypotheses)" ]] || fail "item 3: Overview top finding '$top', report says '$want'"
ok 3 "Overview top finding '$top' = the report's **Top finding:**"

# Item 4: labelled begins, each accepted by checkpoint.
resume=$(screen | sed -n 's/.*resume after the latest commit: \([0-9]*\).*/\1/p' | head -n 1)
early=$(screen | sed -n 's/.*earliest readable (\([^)]*\)): \([0-9]*\).*/\2/p' | head -n 1)
label=$(screen | sed -n 's/.*earliest readable (\([^)]*\)).*/\1/p' | head -n 1)
[[ -n $resume && -n $early && -n $label ]] || fail "item 4: no labelled begins on the Overview"
screen | grep -q "incr\. [0-9.]*+ *resume after the latest commit" || fail "item 4: the resume line names no reader line"
for b in "$resume" "$early"; do
	"$hs" checkpoint "$tbl" "$b" >/dev/null || fail "item 4: checkpoint refused the Overview's begin $b"
done
ok 4 "Overview 'resume after the latest commit: $resume' and 'earliest readable ($label): $early', both accepted by checkpoint"

# Item 9: esc+digit switches panes; skew▼ sorts; gc column fits; cut lines end with …; legend scrolls.
send Escape 3
wait_for "[3 Layout]"
ok 9 "esc then 3 (alt+3) switches to the Layout pane"
# Item 7: every layout verdict shows its reason; 'too few to judge' below the minimum population.
shows "small-files     too few to judge  0 of 3 partitions have 5+" "item 7"
for d in micro-partition small-files hot-partitions; do
	line=$(screen | grep -m1 "^ $d ")
	[[ $(echo "$line" | wc -w) -ge 5 ]] || fail "item 7: layout verdict '$d' has no reason: $line"
done
ok 7 "Layout detectors show verdict + reason; small-files 'too few to judge' (0 of 3 partitions have 5+ base files)"
send Escape 6
wait_for "[6 Findings]"
send G
wait_for "What the labels mean"
wait_for "not applicable"
ok 9 "Findings legend scrolls to its last label (G shows 'not applicable')"
send g
sleep 0.2
cut=$(screen | grep -m1 '^[▶ ] OBS-[0-9]*' | sed 's/ *$//')
[[ $cut == *… ]] || fail "item 9: a Findings row cut at 80 columns does not end with …: '$cut'"
ok 9 "a cut Findings row ends with …: '${cut:0:40}…'"
send q
[[ $(exited) == 0 ]] || fail "q: exit status $(cat "$tmp/exit-code")"

# ---- item 1 on cdc-morlog-1.2.0 (MOR, no completed compaction): skipped, then judged behind ---
# behind.properties is its writer.properties with the compaction trigger at 2 delta commits (3
# were written: behind, not stopped); it leaves the trigger strategy unset (a release default).
if [[ -f $fx3/table.zip ]]; then
	mkdir -p "$tmp/w3"
	(cd "$tmp/w3" && unzip -q "$fx3/table.zip")
	tbl3=$(dirname "$(find "$tmp/w3" -maxdepth 3 -name .hoodie -type d | head -n 1)")
	{ grep -v -e '^#' -e '^hoodie.compact.inline.max.delta.commits=' "$fx3/writer.properties"; echo hoodie.compact.inline.max.delta.commits=2; } >"$tmp/x/behind.properties"
	# cap003: the Findings pane's CAP-003 status word.
	cap003() {
		send 6
		wait_for "[6 Findings]"
		send / C A P - 0 0 3 Enter
		wait_for 'filter "CAP-003"'
		screen | grep -m1 -E '^[▶ ] CAP-003 ' | awk '{print $3}'
	}
	start "$tbl3"
	loaded
	st=$(cap003)
	[[ $st == hypothesis ]] || fail "item 1: cdc-morlog without props: CAP-003 is '$st', want hypothesis (the compaction check was skipped)"
	send Enter
	wait_for "6 Findings › CAP-003"
	for ((i = 0; i < 6; i++)); do
		screen | grep -qF "unknown: the compaction health" && break
		send f
		sleep 0.2
	done
	shows "unknown: the compaction health" "item 1"
	ok 1 "cdc-morlog, compaction check skipped: CAP-003 stays a hypothesis, its compaction counter-signal 'unknown: the compaction health check was skipped'"
	send q
	exited >/dev/null
	start --props "$fx3/writer.properties" "$tbl3"
	loaded
	st=$(cap003)
	[[ $st == candidate ]] || fail "item 1: cdc-morlog with writer.properties: CAP-003 is '$st', want candidate (compaction on track)"
	send q
	exited >/dev/null
	start --props behind.properties "$tbl3"
	loaded
	send 4
	wait_for "[4 Health]"
	line=$(screen | grep -m1 ' compaction ' || true)
	[[ $line == *"behind, not stopped"* ]] || fail "item 1: cdc-morlog with trigger 2: compaction is not 'behind, not stopped': $line"
	send Enter
	wait_for "4 Health › compaction"
	shows "hoodie.compact.inline.trigger.strategy = NUM_COMMITS  (Hudi 1.1/1.2 default)" "item 2"
	shows "hoodie.compact.inline.max.delta.commits = 2  (props (behind.properties))" "item 2"
	send Escape
	wait_for "[4 Health]"
	st=$(cap003)
	[[ $st == "don't" ]] || fail "item 1: cdc-morlog with compaction behind: CAP-003 is '$st', want don't"
	ok 1 "cdc-morlog: CAP-003 a candidate only with compaction judged on track (writer.properties); 'don't' with it behind (behind.properties, trigger 2, strategy marked 'Hudi 1.1/1.2 default')"
	send q
	exited >/dev/null
fi

# ---- item 6: --props missing or not properties: the explorer refuses like the commands ------
for p in "$tmp/x/missing.properties" "$tmp/x/binary.properties"; do
	start --props "$p" "$tbl"
	code=$(exited)
	msg=$("$hs" report --props "$p" "$tbl" 2>&1 >/dev/null || true)
	[[ $code == 1 ]] || fail "item 6: explorer exit $code with --props $(basename "$p"), want 1"
	# (-J joins the lines the terminal wrapped at 80 columns)
	tmux -L "$sock" capture-pane -p -J -t "$session" | grep -qF -- "$msg" || fail "item 6: the explorer did not print '$msg'"
	lacks "[1 Overview]" "item 6"
	ok 6 "--props $(basename "$p"): explorer exit 1 with the report's message '$msg'"
done

# ---- a props file that omits defaults: judged at the release default, marked so -------------
start --props omit.properties "$tbl" # (relative: the session runs in $tmp/x)
loaded
h=$(ovline health)
[[ $h == "HEALTHY (7 checks)" ]] || fail "item 2: Overview health '$h', want 'HEALTHY (7 checks)'"
send 4
wait_for "[4 Health]"
shows "overall HEALTHY · engine spark · props omit.properties" "item 2"
shows "compaction     HEALTHY          6        3            6 behind, not stopped" "item 1 (compaction behind)"
shows "hoodie.compact.inline.trigger.strategy = NUM_COMMITS  (Hudi 1.1/1.2 default)" "item 2"
ok 2 "omit.properties: every check judged ('HEALTHY (7 checks)'), unset keys marked '(Hudi 1.1/1.2 default)'; compaction 'behind, not stopped'"
send Enter
wait_for "4 Health › compaction"
shows "hoodie.compact.inline.max.delta.commits = 3  (props (omit.properties))" "item 2"
send Escape
wait_for "[4 Health]"
# Item 8: d then E: the export's roll-up is the Health header's.
send d
wait_for "defaults assumed"
hdr=$(header)
ov=$(export_overall)
[[ -n $hdr && $ov == "$hdr" ]] || fail "item 8: after d the Health header says '$hdr', the E export '$ov'"
ok 8 "after d the Health header and the E export both say '$hdr'"
send q
exited >/dev/null

# Item 2: one check judged, the rest not: the roll-up is never plain HEALTHY.
start --hoodie-conf hoodie.keep.max.commits=6 "$tbl"
loaded
h=$(ovline health)
[[ $h == "HEALTHY · 5 of 7 not judged" ]] || fail "item 2: Overview health '$h', want 'HEALTHY · 5 of 7 not judged'"
send 4
wait_for "overall HEALTHY · 5 of 7 not judged"
ok 2 "with two checks judged the Overview and Health header say '$h', not plain HEALTHY"
# Item 8: d judges the other five by Hudi's defaults: header, Overview and E move together.
send d
wait_for "defaults assumed"
hdr=$(header)
[[ $hdr != "HEALTHY · 5 of 7 not judged" ]] || fail "item 8: d did not change the roll-up"
ov=$(export_overall)
[[ $ov == "$hdr" ]] || fail "item 8: after d the Health header says '$hdr', the E export '$ov'"
send 1
wait_for "[1 Overview]"
h=$(ovline health)
[[ $h == "$hdr"* ]] || fail "item 8: after d the Health header says '$hdr', the Overview '$h'"
want=$("$hs" report --cluster-defaults - --hoodie-conf hoodie.keep.max.commits=6 --apply-all-defaults "$tbl" | sed -n 's/^Overall: \*\*\(.*\)\*\*.*/\1/p' | head -n 1)
[[ $want == "$hdr" ]] || fail "item 8: d says '$hdr', report --apply-all-defaults '$want'"
ok 8 "d: 'HEALTHY · 5 of 7 not judged' becomes '$hdr' on the Health header, the Overview and the E export, as report --apply-all-defaults says"
send q
exited >/dev/null
"$hs" report --apply-all-defaults --cluster-defaults - "$tbl" >/dev/null || fail "item 2: report refused --apply-all-defaults"
ok 2 "the SKIPPED hint's --apply-all-defaults is a flag report accepts"

# ---- item 5: one event-log attribution, the Java tool's labelled; time no job covers --------
if [[ -n $evlog ]]; then
	start --props "$fx/writer.properties" --event-log "$evlog" "$tbl"
	loaded
	send 5
	wait_for "phases, hudiscope's attribution"
	shows "no Spark job ran for 4m4s of the app's 9m37s (42%)" "item 5"
	shows "(Java tool: " "item 5"
	# The pane's shares (hudiscope's, the Java tool's beside it) are the report's, rounded.
	pane=$(screen | sed -n 's/^ *DEDUP_AND_INDEX_TAGGING .* \([0-9]*\)% .*(Java tool: \([0-9]*\)%).*/\1 \2/p' | head -n 1)
	"$hs" report --cluster-defaults - --props "$fx/writer.properties" --event-log "$evlog" "$tbl" >"$tmp/r.md"
	grep -qF "Phases in hudiscope's attribution" "$tmp/r.md" || fail "item 5: the report's phases are not hudiscope's attribution"
	rep=$(sed -n 's/^| DEDUP_AND_INDEX_TAGGING | \([0-9.]*\)% | \([0-9.]*\)% |.*/\1 \2/p' "$tmp/r.md" | head -n 1)
	[[ -n $pane && -n $rep ]] || fail "item 5: no DEDUP_AND_INDEX_TAGGING share (pane '$pane', report '$rep')"
	read -r a b <<<"$rep"
	[[ $pane == "$(printf '%.0f %.0f' "$a" "$b")" ]] || fail "item 5: pane shares '$pane', report's '$rep'"
	ok 5 "Event log pane: 'no Spark job ran for 4m4s of the app's 9m37s (42%)' at 80 columns; DEDUP_AND_INDEX_TAGGING hudiscope $a% (Java tool's, labelled, $b%) as in the report"
	# Item 9: s sorts by skew (▼ on the header), the gc column fits.
	for ((i = 0; i < 12; i++)); do
		screen | grep -q 'skew▼' && break
		send s
		sleep 0.2
	done
	shows "skew▼" "item 9"
	mapfile -t skews < <(screen | grep -E '^[▶ ] +[0-9]+\.[0-9]+ ' | sed 's/.* \([0-9.]*\)x .*/\1/')
	[[ ${#skews[@]} -ge 3 ]] || fail "item 9: no skew column rows"
	sort -rn -c <(printf '%s\n' "${skews[@]}") || fail "item 9: skew▼ rows not descending: ${skews[*]}"
	screen | grep -qE '^ +stage +job .* gc +p50 *$' || fail "item 9: the stage header's gc column does not fit 80 columns"
	ok 9 "s sorts by skew▼ (${skews[0]}x, ${skews[1]}x, ${skews[2]}x …), the header ends '… gc p50' within 80 columns"
	send q
	exited >/dev/null
fi

# ---- item 7: below the cleaner retention no 'never cleaned' UNHEALTHY ------------------------
start --apply-all-defaults "$tbl2"
loaded
send 4
wait_for "[4 Health]"
line=$(screen | grep -m1 ' cleaner ' || true)
st=$(echo "$line" | sed -n 's/.* cleaner *\([A-Z]*\)\** .*/\1/p')
[[ $st == HEALTHY ]] || fail "item 7: mor-compaction (fewer commits than the cleaner retains): cleaner '$st', want HEALTHY: $line"
lacks "never cleaned" "item 7"
ok 7 "mor-compaction-1.2.0 (below the cleaner retention): cleaner $st, no 'never cleaned'"
send q
exited >/dev/null

# ---- items 7 and 8: the fleet view on a .hoodie folder; fleet row = opened table -------------
start "$tbl/.hoodie"
wait_for "hudiscope fleet"
wait_for "1 table(s)"
lacks "metadata" "item 7 (fleet on .hoodie)"
fh=""
for ((i = 0; i < 100; i++)); do
	frow=$(screen | grep -m1 -E '^[▶ ] +mor_services ' || true)
	fh=$(echo "$frow" | grep -oE '(UNHEALTHY|HEALTHY|SKIPPED)( · [0-9]+ of [0-9]+ not judged)?' | head -n 1 || true)
	[[ -n $fh ]] && break
	sleep 0.1
done
[[ -n $fh ]] || fail "item 8: the fleet row shows no health verdict"
ok 7 "fleet on .hoodie lists the table alone, not its metadata table"
send Enter
wait_for "[1 Overview]"
loaded
h=$(ovline health)
[[ -n $fh && $h == "$fh"* ]] || fail "item 8: fleet row says '$fh', the opened table's Overview '$h'"
clirow=$("$hs" fleet --cluster-defaults - "$tbl/.hoodie" | sed -n 2p)
[[ $clirow == *" $fh "* ]] || fail "item 8: hudiscope fleet says '$clirow', the fleet view '$fh'"
ok 8 "fleet view row '$fh' = the opened table's Overview '$h' = hudiscope fleet's row"
send q
echo "tmux-verdicts: OK"
