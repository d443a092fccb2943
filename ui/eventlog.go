package ui

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/hudiscope/hudiscope/analyzers/eventlog"
	"github.com/hudiscope/hudiscope/analyzers/findings"
	"github.com/hudiscope/hudiscope/internal/safetext"
	"github.com/hudiscope/hudiscope/internal/units"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
)

// EventLogPane is pane 4, in hudiscope's attribution (labelled, with the Java tool's share
// beside a phase where it differs): phase bars (share of stage wall clock, UNKNOWN stated first
// when material), operations, the stages table, and the caveats, always visible. Enter opens a
// stage (task-duration histogram, percentiles and metrics); w opens caveats, warnings, damage and the
// application's Hudi-relevant Spark properties.
type EventLogPane struct {
	c    *Common
	km   eventLogKeys
	snap *model.Snapshot
	rep  *eventlog.Report
	// stages are rep's stages with hudiscope's attribution.
	stages []eventlog.Stage
	list   *listView

	stage   *pager
	stageAt int
	caveats *pager

	// view are the stages listed (indices into stages): all, or a scope's.
	view  []int
	scope string // what the scope is ("" for all stages)
	note  string // how the scope was chosen
	// Phase picking (p): the cursor is on the phase bars; enter scopes the list to one.
	phases     []eventlog.GroupSummary
	phaseFocus bool
	phaseCur   int
	opW        int // widest operation name

	width, height int
}

// eventLogKeys are the stage list's keys. Caveats is w: c is the Timeline's checkpoint helper.
type eventLogKeys struct {
	listKeys
	Open, Caveats, Phases, Instant key.Binding
}

func (k eventLogKeys) ShortHelp() []key.Binding {
	return enabled(k.Open, k.Filter, k.Sort, k.Phases, k.Caveats)
}
func (k eventLogKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.all(), {k.Open, k.Filter, k.Sort, k.Phases, k.Instant, k.Caveats}}
}
func (k eventLogKeys) helpTitles() []string { return []string{"Move", "Event log"} }

// phaseKeys pick a phase bar.
type phaseKeys struct {
	Up, Down, Pick, Leave key.Binding
}

func (k phaseKeys) ShortHelp() []key.Binding { return enabled(k.Pick, k.Leave) }
func (k phaseKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{enabled(k.Up, k.Down, k.Pick, k.Leave)}
}
func (k phaseKeys) helpTitles() []string { return []string{"Phases"} }

// stageKeys scroll a stage and link to its instant.
type stageKeys struct {
	pagerKeys
	Instant key.Binding
}

func (k stageKeys) ShortHelp() []key.Binding { return enabled(k.Up, k.Down, k.Instant) }
func (k stageKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.all(), enabled(k.Instant)}
}
func (k stageKeys) helpTitles() []string { return []string{"Scroll", "Stage"} }

// NewEventLog makes the Event log pane.
func NewEventLog(c *Common) *EventLogPane {
	return &EventLogPane{c: c, km: eventLogKeys{Open: c.Keys.Open, Caveats: bind("w", "caveats & properties", "w"),
		Phases:  bind("P", "phase: pick one (enter lists its stages)", "P"),
		Instant: bind("i", "instant of the stage (Timeline)", "i")}}
}

// KeyMap is the focused view's keys: a stage or the caveats, the filter, or the list.
func (e *EventLogPane) KeyMap() help.KeyMap {
	switch {
	case e.list == nil:
		return keyColumns{}
	case e.stage != nil:
		in, _ := e.stageInstant(e.stageAt)
		return stageKeys{pagerKeys: e.stage.keys(e.c.Keys.Nav), Instant: when(e.km.Instant, in != "")}
	case e.caveats != nil:
		return e.caveats.keys(e.c.Keys.Nav)
	case e.phaseFocus:
		n := len(e.phases)
		return phaseKeys{Up: when(e.c.Keys.Nav.Up, n > 1), Down: when(e.c.Keys.Nav.Down, n > 1),
			Pick: bind("enter", "list the phase's stages", "enter"), Leave: bind("P", "phase picking off", "P")}
	case e.list.filtering:
		return e.c.Keys.filterKeys()
	}
	k := e.km
	k.listKeys = e.list.keys(e.c.Keys)
	k.Open = when(k.Open, e.list.selected() >= 0)
	k.Phases = when(k.Phases, len(e.phases) > 0)
	in, _ := e.stageInstant(e.selected())
	k.Instant = when(k.Instant, in != "")
	return k
}

// selected is the stage under the list cursor (an index into stages), or -1.
func (e *EventLogPane) selected() int {
	if e.list == nil {
		return -1
	}
	if i := e.list.selected(); i >= 0 {
		return e.view[i]
	}
	return -1
}

func (e *EventLogPane) Title() string { return "Event log" }

func (e *EventLogPane) SetSize(w, h int) { e.width, e.height = w, h; e.reflow() }

// reflow fits the open text view, the list's page and the filter input to the size.
func (e *EventLogPane) reflow() {
	if e.list == nil {
		return
	}
	w, h := e.width, e.height
	switch {
	case e.stage != nil:
		e.stage.set(e.stageLines(&e.stages[e.stageAt], w), w, h-1)
	case e.caveats != nil:
		e.caveats.set(e.caveatLines(w), w, h-1)
	}
	e.list.sizeFooter(w, "stages")
	e.list.setPage(h - len(e.top(w, h)) - 1 - len(e.bottom(w, h)))
}

func (e *EventLogPane) SetSnapshot(s *model.Snapshot) tea.Cmd {
	e.snap = s
	if s == nil || s.EventLog == nil || s.EventLog == e.rep {
		return nil
	}
	e.rep, e.stage, e.caveats = s.EventLog, nil, nil
	e.stages = e.rep.HudiscopeStages()
	ours, java := e.rep.Hudiscope.PhaseSummary, e.rep.PhaseSummary
	e.phases = append(append([]eventlog.GroupSummary(nil), ours...), report.JavaOnly(ours, java)...)
	e.phaseFocus, e.phaseCur = false, 0
	e.opW = 9
	for i := range e.stages {
		e.opW = max(e.opW, min(24, len(e.stages[i].Operation)))
	}
	e.setScope(nil, "")
	return nil
}

// setScope lists only the stages in idx (nil: all), keeping the cursor's stage.
func (e *EventLogPane) setScope(idx []int, label string) {
	keep := e.selected()
	filter := ""
	if e.list != nil {
		filter = e.list.filter
	}
	if idx == nil {
		idx = make([]int, len(e.stages))
		for i := range idx {
			idx[i] = i
		}
	}
	e.view, e.scope = idx, label
	e.buildList()
	if filter != "" {
		e.list.filter = filter
		e.list.input.SetValue(filter)
	}
	k := -1
	for p, i := range e.view {
		if i == keep {
			k = p
		}
	}
	e.list.apply(k)
	e.reflow()
}

func (e *EventLogPane) buildList() {
	ss, view := e.stages, e.view
	st := func(i int) *eventlog.Stage { return &ss[view[i]] }
	o := func(i int) *eventlog.StageObserved { return &ss[view[i]].Observed }
	// byID orders stages by id and attempt: the tie-break of the numeric sorts.
	byID := func(a, b int) bool {
		x, y := &ss[view[a]], &ss[view[b]]
		return x.StageID < y.StageID || x.StageID == y.StageID && x.AttemptID < y.AttemptID
	}
	cols := []lvCol{
		{title: "stage", width: 6, right: true},
		{title: "job", width: 4, right: true, prio: 1},
		{title: "phase", width: 24, flex: true, maxW: 40, txt: func(i int) string { return report.StagePhase(st(i)) }},
		{title: "tasks", width: 5, right: true, num: func(i int) float64 { return float64(o(i).NumTasksObserved) }},
		{title: "dur", width: 6, right: true, num: func(i int) float64 { return float64(o(i).DurationMillis) }},
		// Skew sorts by the value shown (1.04 and 1.01 are both 1.0x: ties, by stage id); none last.
		{title: "skew", width: 5, right: true, tie: byID, num: func(i int) float64 { return shownSkew(o(i).SkewRatio) }},
		{title: "spill", width: 6, right: true, num: func(i int) float64 { return float64(report.Spill(st(i))) }},
		{title: "gc", width: 4, right: true, tie: byID, num: func(i int) float64 { return float64(o(i).GcFractionOfRunTime) }},
		{title: "p50", width: 6, right: true, prio: 3},
		{title: "operation", width: e.opW, prio: 5, txt: func(i int) string { return st(i).Operation }},
		{title: "name", width: 16, prio: 4, flex: true},
	}
	e.list = newListView(cols, len(view), func(i, c int) string {
		s := st(i)
		ob := o(i)
		switch c {
		case 0:
			return report.StageID(s)
		case 1:
			if s.JobID == nil {
				return "-"
			}
			return itoa(*s.JobID)
		case 2:
			return report.StagePhase(s)
		case 3:
			return humanCount(ob.NumTasksObserved)
		case 4:
			return msDur(ob.DurationMillis)
		case 5:
			return skewCell(ob.SkewRatio)
		case 6:
			return humanBytes(report.Spill(s))
		case 7:
			return gcCell(ob.GcFractionOfRunTime)
		case 8:
			return msDur(ob.TaskDurationMillis.P50)
		case 9:
			return s.Operation
		case 10:
			return s.Name
		}
		return ""
	}, func(i int) string {
		s := st(i)
		return report.StageID(s) + " " + report.StagePhase(s) + " " + s.Operation + " " + s.Name
	})
	e.list.mark = func(i int) string {
		if s := st(i); s.FailureReason != nil || s.Observed.TasksFailed > 0 {
			return e.c.Styles.G.Bad
		}
		return ""
	}
}

// skewCell is a stage's max/p50 task time as the list shows it: one decimal, "-" for none.
func skewCell(r eventlog.Ratio) string {
	if r < 0 {
		return "-"
	}
	return strconv.FormatFloat(float64(r), 'f', 1, 64) + "x"
}

// shownSkew is the skew the list shows, as a number to sort by (-1: none, sorts last).
func shownSkew(r eventlog.Ratio) float64 {
	if r < 0 {
		return -1
	}
	v, _ := strconv.ParseFloat(strings.TrimSuffix(skewCell(r), "x"), 64)
	return v
}

// gcCell is GC time as a share of run time in the 4-cell gc column: a whole percentage ("<1%"
// when GC ran but rounds to 0), and, when GC exceeds run time tenfold (task metrics can say so),
// a multiple: "11x", ">99x". The stage's detail has the exact ratio.
func gcCell(r eventlog.Ratio) string {
	f := float64(r)
	switch pct := math.Round(100 * f); {
	case f < 0:
		return "-"
	case f > 0 && pct == 0:
		return "<1%"
	case pct < 1000:
		return strconv.Itoa(int(pct)) + "%"
	case f < 99.5:
		return strconv.Itoa(int(math.Round(f))) + "x"
	}
	return ">99x"
}

func msDur(ms int64) string {
	if ms < 0 {
		return "-"
	}
	return shortDur(float64(ms) / 1000)
}

func (e *EventLogPane) Capturing() bool {
	return e.list != nil && e.list.filtering && e.stage == nil && e.caveats == nil && !e.phaseFocus
}

func (e *EventLogPane) Back() bool {
	switch {
	case e.stage != nil:
		e.stage = nil
	case e.caveats != nil:
		e.caveats = nil
	case e.phaseFocus:
		e.phaseFocus = false
	case e.list != nil && e.list.closeFilter():
	case e.list != nil && e.scope != "":
		e.setScope(nil, "")
	default:
		return false
	}
	e.reflow()
	return true
}

func (e *EventLogPane) Update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	km, isKey := msg.(tea.KeyPressMsg)
	switch k := e.KeyMap().(type) {
	case stageKeys:
		if isKey && key.Matches(km, k.Instant) {
			in, _ := e.stageInstant(e.stageAt)
			cmd = jumpTo(JumpInstant{Requested: in})
		} else {
			e.stage.update(k.navKeys, msg)
		}
	case pagerKeys:
		e.caveats.update(k.navKeys, msg)
	case phaseKeys:
		switch {
		case isKey && key.Matches(km, k.Up):
			e.phaseCur = max(0, e.phaseCur-1)
		case isKey && key.Matches(km, k.Down):
			e.phaseCur = min(len(e.phases)-1, e.phaseCur+1)
		case isKey && key.Matches(km, k.Pick):
			e.phaseFocus = false
			e.scopePhase(e.phases[e.phaseCur].Label)
		case isKey && key.Matches(km, k.Leave):
			e.phaseFocus = false
		}
	case eventLogKeys:
		switch {
		case isKey && key.Matches(km, k.Open):
			e.stageAt, e.stage = e.selected(), newPager()
		case isKey && key.Matches(km, k.Caveats):
			e.caveats = newPager()
		case isKey && key.Matches(km, k.Phases):
			e.phaseFocus = true
		case isKey && key.Matches(km, k.Instant):
			in, _ := e.stageInstant(e.selected())
			cmd = jumpTo(JumpInstant{Requested: in})
		default:
			e.list.update(e.c.Keys, msg)
		}
	case filterKeys:
		e.list.update(e.c.Keys, msg)
	}
	e.reflow()
	return cmd
}

// scopePhase lists only the stages of one phase (hudiscope's attribution).
func (e *EventLogPane) scopePhase(phase string) {
	var idx []int
	for i := range e.stages {
		if e.stages[i].Phase == phase {
			idx = append(idx, i)
		}
	}
	if idx == nil {
		idx = []int{}
	}
	e.setScope(idx, "phase "+phase)
	e.note = ""
}

func (e *EventLogPane) Breadcrumb() []string {
	switch {
	case e.stage != nil:
		return []string{"stage " + report.StageID(&e.stages[e.stageAt])}
	case e.caveats != nil:
		return []string{"caveats & properties"}
	case e.scope != "":
		return []string{e.scope}
	}
	return nil
}

// Help is the focused view's hint-bar keys.
func (e *EventLogPane) Help() []key.Binding { return e.KeyMap().ShortHelp() }

func (e *EventLogPane) Status() string {
	switch {
	case e.rep == nil:
		return ""
	case e.stage != nil:
		return e.stage.status()
	case e.caveats != nil:
		return e.caveats.status()
	}
	return e.list.status()
}

func (e *EventLogPane) reason() []string {
	s := e.snap
	if s == nil || s.Options.EventLog == "" {
		return []string{"No event log given: start with --event-log PATH (a Spark event log file or directory) to see the job's stages by Hudi phase."}
	}
	if err := s.StepErrors[model.StepEventLog]; err != nil {
		return []string{"The event log " + s.Options.EventLog + " could not be analysed: " + err.Error()}
	}
	if !s.HasRun(model.StepEventLog) {
		return []string{"The event log " + s.Options.EventLog + " has not been read yet."}
	}
	return []string{"The event log analysis produced no report."}
}

// ---- view ----

func (e *EventLogPane) View(width, height int) string {
	if e.rep == nil {
		return noData(e.reason(), width, height)
	}
	switch {
	case e.stage != nil:
		return fit(append([]string{e.head(width)}, e.stage.view()...), width, height)
	case e.caveats != nil:
		return fit(append([]string{e.head(width)}, e.caveats.view()...), width, height)
	}
	st := e.c.Styles
	lines := e.top(width, height)
	bottom := e.bottom(width, height)
	lines = append(lines, e.list.header(st, width))
	rows := e.list.rows(st, width, true)
	if len(rows) == 0 {
		rows = []string{"  no stage matches"}
	}
	lines = append(lines, rows...)
	for len(lines) < height-len(bottom) {
		lines = append(lines, "")
	}
	return fit(append(lines, bottom...), width, height)
}

func (e *EventLogPane) head(width int) string {
	a := e.rep.Application
	var parts []string
	if a.Name != nil {
		parts = append(parts, *a.Name)
	}
	if a.ID != nil {
		parts = append(parts, *a.ID)
	}
	if !e.rep.Hudiscope.Application.Complete {
		parts = append(parts, "incomplete")
	}
	return clip(" "+trunc(asciiText(e.c.Styles.G, strings.Join(parts, e.c.Styles.G.Sep)), width-1, e.c.Styles.G.Ellipsis), width)
}

// facts is the application's timing and counts, longest wording that fits first.
func (e *EventLogPane) facts(width int) string {
	g := e.c.Styles.G
	o := e.rep.Application.Observed
	stages := fmt.Sprintf("%d stages", o.StageCount)
	if o.FailedStageCount > 0 {
		stages += fmt.Sprintf(" (%d failed)", o.FailedStageCount)
	}
	jobs := fmt.Sprintf("%d jobs", o.JobCount)
	var cands []string
	// The time no job covers has its own line (uncovered), so it is not squeezed in here.
	for _, v := range [][2]string{{"app ", "critical path "}, {"app ", "crit. path "}} {
		cands = append(cands, " "+stages+g.Sep+jobs+g.Sep+v[0]+units.Millis(o.DurationMillis)+g.Sep+v[1]+units.Millis(o.CriticalPathMillis))
	}
	for _, c := range cands {
		if cellWidth(c) <= width {
			return c
		}
	}
	return clip(cands[len(cands)-1], width)
}

// top is the stage list's lines above it: the application, UNKNOWN, phase bars, operations.
func (e *EventLogPane) top(width, height int) []string {
	st := e.c.Styles
	g := st.G
	lines := []string{e.head(width), e.facts(width)}
	// The largest fact of many Hudi logs: time no job covers, which no phase share counts.
	if us := report.UncoveredStatements(e.rep); len(us) > 0 {
		l := us[len(us)-1]
		for _, u := range us {
			if cellWidth(u)+1 <= width {
				l = u
				break
			}
		}
		l = asciiText(g, l)
		if float64(e.rep.Hudiscope.Application.UncoveredShare) >= findings.UncoveredMaterial {
			l = st.Warn.Render(l)
		}
		lines = append(lines, clip(" "+l, width))
	}
	if u := report.UnknownStatement(e.rep); u != "" {
		lines = append(lines, clip(" "+st.Warn.Render(asciiText(g, u)), width))
	}
	ours, java := e.rep.Hudiscope.PhaseSummary, e.rep.PhaseSummary
	title := " phases: share of stage wall clock, its time (Java tool's share where it differs):"
	if e.phaseFocus {
		title = " pick a phase: enter lists its stages"
	}
	if cellWidth(title) > width {
		title = " phases, hudiscope's attribution: share of stage wall clock, its time:"
	}
	if cellWidth(title) > width {
		title = " phases: share and time of stage wall clock:"
	}
	lines = append(lines, clip(st.Dim.Render(title), width))
	// Phase bars: at most a third of the height.
	phases := e.phases
	maxPh := max(2, (height-len(lines))/3)
	var mx float64
	for _, p := range phases {
		mx = max(mx, float64(p.ShareOfStageWallClock))
	}
	nameW := 24
	noteW := 0
	for _, p := range phases {
		noteW = max(noteW, len(report.JavaNote(ours, java, p.Label)))
	}
	if noteW > 0 {
		noteW++
	}
	subW := 0
	if width >= 100 {
		subW = 24
	}
	barW := max(4, width-2-nameW-1-1-5-7-noteW-subW-1)
	first := 0
	if e.phaseFocus && len(phases) > maxPh {
		first = min(max(0, e.phaseCur-maxPh/2), len(phases)-maxPh)
	}
	for i := first; i < len(phases); i++ {
		p := phases[i]
		if !e.phaseFocus && i == maxPh-1 && len(phases) > maxPh {
			lines = append(lines, st.Dim.Render(fmt.Sprintf("  %s %d more phase(s) (%s picks, %s exports all)", g.Ellipsis, len(phases)-i, e.km.Phases.Help().Key, e.c.Keys.Export.Help().Key)))
			break
		}
		if i >= first+maxPh {
			break
		}
		share := "-"
		if p.ShareOfStageWallClock >= 0 {
			share = fmt.Sprintf("%.0f%%", 100*float64(p.ShareOfStageWallClock))
		}
		abs := padLeft(msDur(p.StageWallClockMillis), 6)
		row := "  " + barRow(st, trunc(p.Label, nameW, g.Ellipsis), nameW, float64(p.ShareOfStageWallClock), mx, barW, padLeft(share, 4)+" "+abs)
		if noteW > 0 {
			row += " " + padRight(report.JavaNote(ours, java, p.Label), noteW-1)
		}
		if subW > 0 {
			row += "  " + trunc(report.TopSubPhase(e.rep, p.Label), subW-2, g.Ellipsis)
		}
		if e.phaseFocus && i == e.phaseCur {
			row = st.Cursor.Render(padRight(g.Cursor+row[1:], width))
		}
		lines = append(lines, clip(row, width))
	}
	var ops []string
	for _, o := range e.rep.Hudiscope.OperationSummary {
		op := fmt.Sprintf("%s %.0f%%", o.Label, 100*float64(o.ShareOfStageWallClock))
		if n := report.JavaNote(e.rep.Hudiscope.OperationSummary, e.rep.OperationSummary, o.Label); n != "" {
			op += " " + n
		}
		ops = append(ops, op)
	}
	opl := wrap("operations: "+strings.Join(ops, g.Sep), width-2)
	if len(opl) > 2 && height < 30 {
		opl = opl[:2]
		opl[1] = trunc(opl[1], width-3, g.Ellipsis)
	}
	for _, l := range opl {
		lines = append(lines, clip(" "+l, width))
	}
	if e.scope != "" {
		l := " " + st.Key.Render(asciiText(g, e.scope)) + fmt.Sprintf(": %d of %d stages", len(e.view), len(e.stages))
		if e.note != "" {
			l += " (" + e.note + ")"
		}
		lines = append(lines, clip(l, width))
	}
	return lines
}

// bottom is the lines under the stage list: the caveats line and the filter line.
func (e *EventLogPane) bottom(width, height int) []string {
	bottom := []string{e.caveatSummary(width, height)}
	if f := e.list.footer(e.c, width, "stages"); f != "" {
		bottom = append(bottom, f)
	}
	return bottom
}

// caveatSummary is the always-visible caveats line.
func (e *EventLogPane) caveatSummary(width, height int) string {
	st := e.c.Styles
	g := st.G
	cv := report.Caveats(e.rep)
	if len(cv) == 0 {
		return ""
	}
	more := ""
	if n := len(cv) - 1 + len(e.rep.Warnings); n > 0 {
		more = fmt.Sprintf(" (%d more: %s)", n, e.km.Caveats.Help().Key)
	}
	first := asciiText(g, cv[0])
	avail := width - 10 - len(more)
	return clip(" "+st.Warn.Render("caveats:")+" "+trunc(first, avail, g.Ellipsis)+more, width)
}

func (e *EventLogPane) stageLines(s *eventlog.Stage, width int) []string {
	st := e.c.Styles
	g := st.G
	out := []string{" " + st.ColHead.Render("stage "+report.StageID(s)) + "  " + trunc(safetext.Terminal(s.Name), width-14, g.Ellipsis)}
	if in, how := e.stageInstant(e.stageAt); in != "" {
		out = append(out, clip(" instant "+in+" ("+how+"; "+e.km.Instant.Help().Key+" shows it on the Timeline)", width))
	}
	// Task durations: the stage's fixed log-scale histogram, from the first to the last
	// non-empty bucket, under a line of the percentiles the report holds.
	qs := report.TaskQuantiles(s)
	var ps []string
	for _, q := range qs {
		ps = append(ps, q[0].(string)+" "+msDur(q[1].(int64)))
	}
	h := e.rep.TaskDurationHistogram(s)
	var n int64
	if h != nil {
		n = h.Total()
	}
	for _, l := range packFacts(append([]string{fmt.Sprintf("task durations: %d task(s)", n)}, ps...), g.Sep, width) {
		out = append(out, st.Dim.Render(asciiText(g, l)))
	}
	if n == 0 {
		out = append(out, "  no task finished")
	} else {
		bs := h.Buckets()
		lo, hi := -1, -1
		var mx float64
		for i, b := range bs {
			if b.Count > 0 {
				if lo < 0 {
					lo = i
				}
				hi = i
				mx = max(mx, float64(b.Count))
			}
		}
		cw := len(fmt.Sprint(int64(mx)))
		bw := max(4, min(50, width-4-10-1-1-cw))
		for _, b := range bs[lo : hi+1] {
			out = append(out, "  "+barRow(st, asciiText(g, b.Label), 10, float64(b.Count), mx, bw, padLeft(fmt.Sprint(b.Count), cw)))
		}
	}
	out = append(out, "")
	// The report's wording for what is text (phase, operation, job first, the rest after
	// the table); the numbers as a table from the stage's data, in units.
	text := func(m [2]string) {
		label := padRight(m[0], 22)
		for i, w := range wrap(asciiText(g, safetext.Terminal(m[1])), width-26) {
			if i == 0 {
				out = append(out, "  "+label+" "+w)
			} else {
				out = append(out, "  "+strings.Repeat(" ", 22)+" "+w)
			}
		}
	}
	var rest [][2]string
	for _, m := range report.StageMetrics(e.rep, s) {
		switch m[0] {
		case "phase", "operation", "job":
			text(m)
		case "duration", "tasks", "skew (max / p50)", "executor run time", "deserialize time", "GC", "input", "shuffle read",
			"shuffle write", "spill (memory / disk)", "result size", "executor CPU time", "peak execution memory":
		default:
			rest = append(rest, m)
		}
	}
	out = append(out, "")
	out = append(out, e.stageMetricTable(s, width)...)
	if len(rest) > 0 {
		out = append(out, "")
	}
	for _, m := range rest {
		text(m)
	}
	return out
}

// stageMetricTable is a stage's numbers aligned in columns: value (a duration, bytes or a
// count), records where the metric has them, and a note.
func (e *EventLogPane) stageMetricTable(s *eventlog.Stage, width int) []string {
	st := e.c.Styles
	g := st.G
	o := s.Observed
	const lw, vw, rw = 22, 7, 8
	var out []string
	row := func(label, v, recs, note string) {
		l := "  " + padRight(label, lw) + " " + padLeft(v, vw) + " " + padLeft(recs, rw)
		if note == "" {
			out = append(out, clip(asciiText(g, strings.TrimRight(l, " ")), width))
			return
		}
		ind := cellWidth(l) + 2
		for i, w := range wrap(asciiText(g, note), max(12, width-ind)) {
			if i > 0 {
				l = strings.Repeat(" ", ind-2)
			}
			out = append(out, clip(asciiText(g, l)+"  "+w, width))
		}
	}
	ratio := func(r eventlog.Ratio, pct bool) string {
		switch {
		case r < 0:
			return "-"
		case pct:
			return humanNum(100*float64(r)) + "%"
		}
		return humanNum(float64(r))
	}
	bytes := func(b int64) string {
		if b < 0 {
			return "-"
		}
		return humanBytes(b)
	}
	nsDur := func(ns int64) string {
		if ns < 0 {
			return "-"
		}
		return msDur(ns / 1e6)
	}
	out = append(out, st.ColHead.Render(clip("  "+padRight("metric", lw)+" "+padLeft("value", vw)+" "+padLeft("records", rw), width)))
	row("tasks", humanCount(o.NumTasksObserved), "", fmt.Sprintf("of %s planned: %s ok, %s failed, %s killed, %s speculative",
		humanCount(int64(o.NumTasksPlanned)), humanCount(o.TasksSucceeded), humanCount(o.TasksFailed), humanCount(o.TasksKilled), humanCount(o.TasksSpeculative)))
	row("skew (max / p50)", ratio(o.SkewRatio, false), "", "")
	row("duration", msDur(o.DurationMillis), "", "")
	row("executor run time", msDur(o.ExecutorRunTimeMillis), "", "")
	x := report.StageExtra(e.rep, s)
	if x != nil {
		row("executor CPU time", nsDur(x.ExecutorCPUTimeNanos), "", "")
	}
	row("deserialize time", msDur(o.ExecutorDeserializeTimeMillis), "", "")
	row("GC time", msDur(o.JvmGcTimeMillis), "", ratio(o.GcFractionOfRunTime, true)+" of run time")
	row("input", bytes(o.InputBytes), humanCount(o.InputRecords), "")
	row("output", bytes(o.OutputBytes), humanCount(o.OutputRecords), "")
	row("shuffle read", bytes(o.ShuffleReadBytes), humanCount(o.ShuffleReadRecords), "fetch wait "+msDur(o.ShuffleFetchWaitTimeMillis))
	row("shuffle write", bytes(o.ShuffleWriteBytes), humanCount(o.ShuffleWriteRecords), "write time "+nsDur(o.ShuffleWriteTimeNanos))
	row("spilled (memory)", bytes(o.MemoryBytesSpilled), "", "")
	row("spilled (disk)", bytes(o.DiskBytesSpilled), "", "")
	row("result size", bytes(o.ResultSizeBytes), "", "")
	if x != nil {
		row("peak execution memory", bytes(x.PeakExecutionMemoryBytes), "", "")
	}
	return out
}

func (e *EventLogPane) caveatLines(width int) []string {
	st := e.c.Styles
	g := st.G
	var out []string
	section := func(t string) {
		if len(out) > 0 {
			out = append(out, "")
		}
		out = append(out, " "+st.ColHead.Render(t))
	}
	bullets := func(items []string) {
		for _, it := range items {
			for i, w := range wrap(asciiText(g, safetext.Terminal(it)), width-5) {
				p := "   "
				if i == 0 {
					p = " - "
				}
				out = append(out, " "+p+w)
			}
		}
	}
	section("Attribution (hudiscope's; the Java tool's is in the JSON's top-level fields)")
	bullets(e.rep.Hudiscope.Caveats)
	section("Caveats")
	bullets(e.rep.Caveats)
	if len(e.rep.Warnings) > 0 {
		section("Warnings")
		bullets(e.rep.Warnings)
	}
	if d := e.rep.Hudiscope.Damage; len(d) > 0 {
		section("Damage")
		var items []string
		for _, r := range d {
			items = append(items, r.File+": "+r.Kind+" "+r.Detail)
		}
		bullets(items)
	}
	section("Spark properties relevant to Hudi")
	props := report.HudiProperties(e.rep)
	if len(props) == 0 {
		out = append(out, "   none recorded in the log's environment update")
	}
	for _, p := range props {
		out = append(out, clip("   "+p[0]+" = "+p[1], width))
	}
	return out
}

func (e *EventLogPane) Export() (string, string) {
	if e.rep == nil {
		return "event-log", "# Event log\n\n" + strings.Join(e.reason(), "\n\n") + "\n"
	}
	if e.stage != nil {
		s := &e.stages[e.stageAt]
		return "event-log-stage-" + report.StageID(s), "# Event log: stage " + report.StageID(s) + "\n\n" + report.StageMarkdown(e.rep, s)
	}
	var b strings.Builder
	b.WriteString("# Event log\n\n")
	if e.caveats != nil {
		b.WriteString(report.EventLogMarkdown(e.rep, nil))
		return "event-log", b.String()
	}
	stages := []eventlog.Stage{}
	for _, i := range e.list.visible() {
		stages = append(stages, e.stages[i])
	}
	if e.list.sortBy >= 0 || e.list.filter != "" {
		fmt.Fprintf(&b, "Stages ordered by %s", e.list.sortName("stage id"))
		if e.list.filter != "" {
			fmt.Fprintf(&b, ", filter `%s`", e.list.filter)
		}
		b.WriteString(".\n\n")
	}
	b.WriteString(report.EventLogMarkdown(e.rep, stages))
	return "event-log", b.String()
}
