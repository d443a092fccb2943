// Package eventlog is the explorer's Event log pane: Spark stages, phases and the instants
// they belong to.
package eventlog

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
	"github.com/hudiscope/hudiscope/ui/common"
	"github.com/hudiscope/hudiscope/view"
)

// EventLogPane is pane 4, in hudiscope's attribution (labelled, with the Java tool's share
// beside a phase where it differs): phase bars (share of stage wall clock, UNKNOWN stated first
// when material), operations, the stages table, and the caveats, always visible. Enter opens a
// stage (task-duration histogram, percentiles and metrics); w opens caveats, warnings, damage and the
// application's Hudi-relevant Spark properties.
type EventLogPane struct {
	c    *common.Common
	km   eventLogKeys
	snap *model.Snapshot
	Rep  *eventlog.Report
	// Stages are rep's stages with hudiscope's attribution; Rows their rows (view.StageRowsOf),
	// index for index: the list lays the rows out, it computes none of their numbers.
	Stages []eventlog.Stage
	Rows   []view.StageRow
	List   *common.ListView

	stage   *common.Pager
	stageAt int
	caveats *common.Pager
	// compare is the comparison with --compare-log (x), when open.
	compare *common.Pager

	// view are the stages listed (indices into stages): all, or a scope's.
	InView []int
	scope  string // what the scope is ("" for all stages)
	note   string // how the scope was chosen
	// Phase picking (p): the cursor is on the phase bars; enter scopes the list to one.
	Phases     []eventlog.GroupSummary
	phaseFocus bool
	phaseCur   int
	opW        int // widest operation name

	Width, Height int
}

// eventLogKeys are the stage list's keys. Caveats is w: c is the Timeline's checkpoint helper.
type eventLogKeys struct {
	common.ListKeys
	Open, Caveats, Phases, Instant, Compare key.Binding
}

func (k eventLogKeys) ShortHelp() []key.Binding {
	return common.Enabled(k.Open, k.Filter, k.Sort, k.Phases, k.Caveats, k.Compare)
}
func (k eventLogKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.All(), common.Enabled(k.Open, k.Filter, k.Sort, k.Phases, k.Instant, k.Caveats, k.Compare)}
}
func (k eventLogKeys) HelpTitles() []string { return []string{"Move", "Event log"} }

// phaseKeys pick a phase bar.
type phaseKeys struct {
	Up, Down, Pick, Leave key.Binding
}

func (k phaseKeys) ShortHelp() []key.Binding { return common.Enabled(k.Pick, k.Leave) }
func (k phaseKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{common.Enabled(k.Up, k.Down, k.Pick, k.Leave)}
}
func (k phaseKeys) HelpTitles() []string { return []string{"Phases"} }

// stageKeys scroll a stage and link to its instant.
type stageKeys struct {
	common.PagerKeys
	Instant key.Binding
}

func (k stageKeys) ShortHelp() []key.Binding { return common.Enabled(k.Up, k.Down, k.Instant) }
func (k stageKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.All(), common.Enabled(k.Instant)}
}
func (k stageKeys) HelpTitles() []string { return []string{"Scroll", "Stage"} }

// NewEventLog makes the Event log pane.
func NewEventLog(c *common.Common) *EventLogPane {
	return &EventLogPane{c: c, km: eventLogKeys{Open: c.Keys.Open, Caveats: common.Bind("w", "caveats & properties", "w"),
		Phases:  common.Bind("P", "phase: pick one (enter lists its stages)", "P"),
		Instant: common.Bind("i", "instant of the stage (Timeline)", "i"),
		Compare: common.Bind("x", "compare with --compare-log", "x")}}
}

// KeyMap is the focused view's keys: a stage or the caveats, the filter, or the list.
func (e *EventLogPane) KeyMap() help.KeyMap {
	switch {
	case e.List == nil:
		return common.KeyColumns{}
	case e.stage != nil:
		in, _ := e.stageInstant(e.stageAt)
		return stageKeys{PagerKeys: e.stage.Keys(e.c.Keys.Nav), Instant: common.When(e.km.Instant, in != "")}
	case e.caveats != nil:
		return e.caveats.Keys(e.c.Keys.Nav)
	case e.compare != nil:
		return e.compare.Keys(e.c.Keys.Nav)
	case e.phaseFocus:
		n := len(e.Phases)
		return phaseKeys{Up: common.When(e.c.Keys.Nav.Up, n > 1), Down: common.When(e.c.Keys.Nav.Down, n > 1),
			Pick: common.Bind("enter", "list the phase's stages", "enter"), Leave: common.Bind("P", "phase picking off", "P")}
	case e.List.Filtering:
		return e.c.Keys.FilterKeys()
	}
	k := e.km
	k.ListKeys = e.List.Keys(e.c.Keys)
	k.Open = common.When(k.Open, e.List.Selected() >= 0)
	k.Phases = common.When(k.Phases, len(e.Phases) > 0)
	in, _ := e.stageInstant(e.Selected())
	k.Instant = common.When(k.Instant, in != "")
	k.Compare = common.When(k.Compare, e.comparison() != nil)
	return k
}

// comparison is the snapshot's comparison with --compare-log (nil without one).
func (e *EventLogPane) comparison() *eventlog.Comparison {
	if e.snap == nil {
		return nil
	}
	return e.snap.EventLogCompare
}

// Selected is the stage under the list cursor (an index into stages), or -1.
func (e *EventLogPane) Selected() int {
	if e.List == nil {
		return -1
	}
	if i := e.List.Selected(); i >= 0 {
		return e.InView[i]
	}
	return -1
}

func (e *EventLogPane) Title() string { return "Event log" }

func (e *EventLogPane) SetSize(w, h int) { e.Width, e.Height = w, h; e.Reflow() }

// Reflow fits the open text view, the list's page and the filter input to the size.
func (e *EventLogPane) Reflow() {
	if e.List == nil {
		return
	}
	w, h := e.Width, e.Height
	switch {
	case e.stage != nil:
		e.stage.Set(e.stageLines(&e.Rows[e.stageAt], w), w, h-1)
	case e.caveats != nil:
		e.caveats.Set(e.caveatLines(w), w, h-1)
	case e.compare != nil:
		e.compare.Set(e.compareLines(w), w, h-1)
	}
	e.List.SizeFooter(w, "stages")
	e.List.SetPage(h - len(e.Top(w, h)) - 1 - len(e.bottom(w, h)))
}

func (e *EventLogPane) SetSnapshot(s *model.Snapshot) tea.Cmd {
	e.snap = s
	if s == nil || s.EventLog == nil || s.EventLog == e.Rep {
		return nil
	}
	e.Rep, e.stage, e.caveats, e.compare = s.EventLog, nil, nil, nil
	e.Stages = e.Rep.HudiscopeStages()
	e.Rows = view.StageRowsOf(e.Rep, e.Stages)
	ours, java := e.Rep.Hudiscope.PhaseSummary, e.Rep.PhaseSummary
	e.Phases = append(append([]eventlog.GroupSummary(nil), ours...), view.JavaOnly(ours, java)...)
	e.phaseFocus, e.phaseCur = false, 0
	e.opW = 9
	for i := range e.Stages {
		e.opW = max(e.opW, min(24, len(e.Stages[i].Operation)))
	}
	e.setScope(nil, "")
	return nil
}

// setScope lists only the stages in idx (nil: all), keeping the cursor's stage.
func (e *EventLogPane) setScope(idx []int, label string) {
	keep := e.Selected()
	filter := ""
	if e.List != nil {
		filter = e.List.Filter
	}
	if idx == nil {
		idx = make([]int, len(e.Stages))
		for i := range idx {
			idx[i] = i
		}
	}
	e.InView, e.scope = idx, label
	e.buildList()
	if filter != "" {
		e.List.Filter = filter
		e.List.Input.SetValue(filter)
	}
	k := -1
	for p, i := range e.InView {
		if i == keep {
			k = p
		}
	}
	e.List.Apply(k)
	e.Reflow()
}

func (e *EventLogPane) buildList() {
	rs, in := e.Rows, e.InView
	row := func(i int) *view.StageRow { return &rs[in[i]] }
	// byID orders stages by id and attempt: the tie-break of the numeric sorts.
	byID := func(a, b int) bool {
		x, y := rs[in[a]].Stage, rs[in[b]].Stage
		return x.StageID < y.StageID || x.StageID == y.StageID && x.AttemptID < y.AttemptID
	}
	cols := []common.LvCol{
		{Title: "stage", Width: 6, Right: true},
		{Title: "job", Width: 4, Right: true, Prio: 1},
		{Title: "phase", Width: 24, Flex: true, MaxW: 40, Txt: func(i int) string { return row(i).Phase }},
		{Title: "tasks", Width: 5, Right: true, Num: func(i int) float64 { return float64(row(i).Tasks) }},
		{Title: "dur", Width: 6, Right: true, Num: func(i int) float64 { return float64(row(i).DurationMillis) }},
		// Skew sorts by the value shown (1.04 and 1.01 are both 1.0x: ties, by stage id); none last.
		{Title: "skew", Width: 5, Right: true, Tie: byID, Num: func(i int) float64 { return ShownSkew(row(i).Skew) }},
		{Title: "spill", Width: 6, Right: true, Num: func(i int) float64 { return float64(row(i).Spill) }},
		{Title: "gc", Width: 4, Right: true, Tie: byID, Num: func(i int) float64 { return float64(row(i).GcShare) }},
		{Title: "p50", Width: 6, Right: true, Prio: 3},
		{Title: "operation", Width: e.opW, Prio: 5, Txt: func(i int) string { return row(i).Stage.Operation }},
		{Title: "name", Width: 16, Prio: 4, Flex: true},
	}
	e.List = common.NewListView(cols, len(in), func(i, c int) string {
		r := row(i)
		switch c {
		case 0:
			return r.ID
		case 1:
			return r.Job
		case 2:
			return r.Phase
		case 3:
			return units.Count(r.Tasks)
		case 4:
			return common.MsDur(r.DurationMillis)
		case 5:
			return SkewCell(r.Skew)
		case 6:
			return units.BytesCompact(r.Spill)
		case 7:
			return GcCell(r.GcShare)
		case 8:
			return common.MsDur(r.P50Millis)
		case 9:
			return r.Stage.Operation
		case 10:
			return r.Stage.Name
		}
		return ""
	}, func(i int) string {
		r := row(i)
		return r.ID + " " + r.Phase + " " + r.Stage.Operation + " " + r.Stage.Name
	})
	e.List.Mark = func(i int) string {
		if row(i).Failed {
			return e.c.Styles.G.Bad
		}
		return ""
	}
}

// SkewCell is a stage's max/p50 task time as the list shows it: one decimal, "-" for none.
func SkewCell(r eventlog.Ratio) string {
	if r < 0 {
		return "-"
	}
	return strconv.FormatFloat(float64(r), 'f', 1, 64) + "x"
}

// ShownSkew is the skew the list shows, as a number to sort by (-1: none, sorts last).
func ShownSkew(r eventlog.Ratio) float64 {
	if r < 0 {
		return -1
	}
	v, _ := strconv.ParseFloat(strings.TrimSuffix(SkewCell(r), "x"), 64)
	return v
}

// GcCell is GC time as a share of run time in the 4-cell gc column: a whole percentage ("<1%"
// when GC ran but rounds to 0), and, when GC exceeds run time tenfold (task metrics can say so),
// a multiple: "11x", ">99x". The stage's detail has the exact ratio.
func GcCell(r eventlog.Ratio) string {
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

func (e *EventLogPane) Capturing() bool {
	return e.List != nil && e.List.Filtering && e.stage == nil && e.caveats == nil && e.compare == nil && !e.phaseFocus
}

func (e *EventLogPane) Back() bool {
	switch {
	case e.stage != nil:
		e.stage = nil
	case e.caveats != nil:
		e.caveats = nil
	case e.compare != nil:
		e.compare = nil
	case e.phaseFocus:
		e.phaseFocus = false
	case e.List != nil && e.List.CloseFilter():
	case e.List != nil && e.scope != "":
		e.setScope(nil, "")
	default:
		return false
	}
	e.Reflow()
	return true
}

func (e *EventLogPane) Update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	km, isKey := msg.(tea.KeyPressMsg)
	switch k := e.KeyMap().(type) {
	case stageKeys:
		if isKey && key.Matches(km, k.Instant) {
			in, _ := e.stageInstant(e.stageAt)
			cmd = common.JumpTo(common.JumpInstant{Requested: in})
		} else {
			e.stage.Handle(k.NavKeys, msg)
		}
	case common.PagerKeys:
		if e.compare != nil {
			e.compare.Handle(k.NavKeys, msg)
		} else {
			e.caveats.Handle(k.NavKeys, msg)
		}
	case phaseKeys:
		switch {
		case isKey && key.Matches(km, k.Up):
			e.phaseCur = max(0, e.phaseCur-1)
		case isKey && key.Matches(km, k.Down):
			e.phaseCur = min(len(e.Phases)-1, e.phaseCur+1)
		case isKey && key.Matches(km, k.Pick):
			e.phaseFocus = false
			e.scopePhase(e.Phases[e.phaseCur].Label)
		case isKey && key.Matches(km, k.Leave):
			e.phaseFocus = false
		}
	case eventLogKeys:
		switch {
		case isKey && key.Matches(km, k.Open):
			e.stageAt, e.stage = e.Selected(), common.NewPager()
		case isKey && key.Matches(km, k.Caveats):
			e.caveats = common.NewPager()
		case isKey && key.Matches(km, k.Compare):
			e.compare = common.NewPager()
		case isKey && key.Matches(km, k.Phases):
			e.phaseFocus = true
		case isKey && key.Matches(km, k.Instant):
			in, _ := e.stageInstant(e.Selected())
			cmd = common.JumpTo(common.JumpInstant{Requested: in})
		default:
			e.List.Handle(e.c.Keys, msg)
		}
	case common.FilterKeys:
		e.List.Handle(e.c.Keys, msg)
	}
	e.Reflow()
	return cmd
}

// scopePhase lists only the stages of one phase (hudiscope's attribution).
func (e *EventLogPane) scopePhase(phase string) {
	var idx []int
	for i := range e.Stages {
		if e.Stages[i].Phase == phase {
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
		return []string{"stage " + e.Rows[e.stageAt].ID}
	case e.caveats != nil:
		return []string{"caveats & properties"}
	case e.compare != nil:
		return []string{"compare"}
	case e.scope != "":
		return []string{e.scope}
	}
	return nil
}

// Help is the focused view's hint-bar keys.
func (e *EventLogPane) Help() []key.Binding { return e.KeyMap().ShortHelp() }

func (e *EventLogPane) Status() string {
	switch {
	case e.Rep == nil:
		return ""
	case e.stage != nil:
		return e.stage.Status()
	case e.caveats != nil:
		return e.caveats.Status()
	case e.compare != nil:
		return e.compare.Status()
	}
	return e.List.Status()
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
	if e.Rep == nil {
		return common.NoData(e.reason(), width, height)
	}
	switch {
	case e.stage != nil:
		return common.Fit(append([]string{e.Head(width)}, e.stage.VisibleLines()...), width, height)
	case e.caveats != nil:
		return common.Fit(append([]string{e.Head(width)}, e.caveats.VisibleLines()...), width, height)
	case e.compare != nil:
		return common.Fit(append([]string{e.Head(width)}, e.compare.VisibleLines()...), width, height)
	}
	st := e.c.Styles
	lines := e.Top(width, height)
	bottom := e.bottom(width, height)
	lines = append(lines, e.List.Header(st, width))
	rows := e.List.Rows(st, width, true)
	if len(rows) == 0 {
		rows = []string{"  no stage matches"}
	}
	lines = append(lines, rows...)
	for len(lines) < height-len(bottom) {
		lines = append(lines, "")
	}
	return common.Fit(append(lines, bottom...), width, height)
}

func (e *EventLogPane) Head(width int) string {
	a := e.Rep.Application
	var parts []string
	if a.Name != nil {
		parts = append(parts, *a.Name)
	}
	if a.ID != nil {
		parts = append(parts, *a.ID)
	}
	if !e.Rep.Hudiscope.Application.Complete {
		parts = append(parts, "incomplete")
	}
	return common.Clip(" "+common.Trunc(common.AsciiText(e.c.Styles.G, strings.Join(parts, e.c.Styles.G.Sep)), width-1, e.c.Styles.G.Ellipsis), width)
}

// facts is the application's timing and counts, longest wording that fits first.
func (e *EventLogPane) facts(width int) string {
	g := e.c.Styles.G
	o := e.Rep.Application.Observed
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
		if common.CellWidth(c) <= width {
			return c
		}
	}
	return common.Clip(cands[len(cands)-1], width)
}

// Top is the stage list's lines above it: the application, UNKNOWN, phase bars, operations.
func (e *EventLogPane) Top(width, height int) []string {
	st := e.c.Styles
	g := st.G
	lines := []string{e.Head(width), e.facts(width)}
	// The largest fact of many Hudi logs: time no job covers, which no phase share counts.
	if us := view.UncoveredStatements(e.Rep); len(us) > 0 {
		l := us[len(us)-1]
		for _, u := range us {
			if common.CellWidth(u)+1 <= width {
				l = u
				break
			}
		}
		l = common.AsciiText(g, l)
		if float64(e.Rep.Hudiscope.Application.UncoveredShare) >= findings.UncoveredMaterial {
			l = st.Warn.Render(l)
		}
		lines = append(lines, common.Clip(" "+l, width))
	}
	if u := view.UnknownStatement(e.Rep); u != "" {
		lines = append(lines, common.Clip(" "+st.Warn.Render(common.AsciiText(g, u)), width))
	}
	ours, java := e.Rep.Hudiscope.PhaseSummary, e.Rep.PhaseSummary
	title := " phases: share of stage wall clock, its time (Java tool's share where it differs):"
	if e.phaseFocus {
		title = " pick a phase: enter lists its stages"
	}
	if common.CellWidth(title) > width {
		title = " phases, hudiscope's attribution: share of stage wall clock, its time:"
	}
	if common.CellWidth(title) > width {
		title = " phases: share and time of stage wall clock:"
	}
	lines = append(lines, common.Clip(st.Dim.Render(title), width))
	// Phase bars: at most a third of the height.
	phases := e.Phases
	maxPh := max(2, (height-len(lines))/3)
	var mx float64
	for _, p := range phases {
		mx = max(mx, float64(p.ShareOfStageWallClock))
	}
	nameW := 24
	noteW := 0
	for _, p := range phases {
		noteW = max(noteW, len(view.JavaNote(ours, java, p.Label)))
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
		abs := common.PadLeft(common.MsDur(p.StageWallClockMillis), 6)
		row := "  " + common.BarRow(st, common.Trunc(p.Label, nameW, g.Ellipsis), nameW, float64(p.ShareOfStageWallClock), mx, barW, common.PadLeft(share, 4)+" "+abs)
		if noteW > 0 {
			row += " " + common.PadRight(view.JavaNote(ours, java, p.Label), noteW-1)
		}
		if subW > 0 {
			row += "  " + common.Trunc(view.TopSubPhase(e.Rep, p.Label), subW-2, g.Ellipsis)
		}
		if e.phaseFocus && i == e.phaseCur {
			row = st.Cursor.Render(common.PadRight(g.Cursor+row[1:], width))
		}
		lines = append(lines, common.Clip(row, width))
	}
	var ops []string
	for _, o := range e.Rep.Hudiscope.OperationSummary {
		op := fmt.Sprintf("%s %.0f%%", o.Label, 100*float64(o.ShareOfStageWallClock))
		if n := view.JavaNote(e.Rep.Hudiscope.OperationSummary, e.Rep.OperationSummary, o.Label); n != "" {
			op += " " + n
		}
		ops = append(ops, op)
	}
	opl := common.Wrap("operations: "+strings.Join(ops, g.Sep), width-2)
	if len(opl) > 2 && height < 30 {
		opl = opl[:2]
		opl[1] = common.Trunc(opl[1], width-3, g.Ellipsis)
	}
	for _, l := range opl {
		lines = append(lines, common.Clip(" "+l, width))
	}
	if e.scope != "" {
		l := " " + st.Key.Render(common.AsciiText(g, e.scope)) + fmt.Sprintf(": %d of %d stages", len(e.InView), len(e.Stages))
		if e.note != "" {
			l += " (" + e.note + ")"
		}
		lines = append(lines, common.Clip(l, width))
	}
	return lines
}

// bottom is the lines under the stage list: the caveats line and the filter line.
func (e *EventLogPane) bottom(width, height int) []string {
	bottom := []string{e.caveatSummary(width, height)}
	if f := e.List.Footer(e.c, width, "stages"); f != "" {
		bottom = append(bottom, f)
	}
	return bottom
}

// caveatSummary is the always-visible caveats line.
func (e *EventLogPane) caveatSummary(width, height int) string {
	st := e.c.Styles
	g := st.G
	cv := view.Caveats(e.Rep)
	if len(cv) == 0 {
		return ""
	}
	more := ""
	if n := len(cv) - 1 + len(e.Rep.Warnings); n > 0 {
		more = fmt.Sprintf(" (%d more: %s)", n, e.km.Caveats.Help().Key)
	}
	first := common.AsciiText(g, cv[0])
	avail := width - 10 - len(more)
	return common.Clip(" "+st.Warn.Render("caveats:")+" "+common.Trunc(first, avail, g.Ellipsis)+more, width)
}

func (e *EventLogPane) stageLines(r *view.StageRow, width int) []string {
	st := e.c.Styles
	g := st.G
	s := r.Stage
	out := []string{" " + st.ColHead.Render("stage "+r.ID) + "  " + common.Trunc(safetext.Terminal(s.Name), width-14, g.Ellipsis)}
	if in, how := e.stageInstant(e.stageAt); in != "" {
		out = append(out, common.Clip(" instant "+in+" ("+how+"; "+e.km.Instant.Help().Key+" shows it on the Timeline)", width))
	}
	// Task durations: the stage's fixed log-scale histogram, from the first to the last
	// non-empty bucket, under a line of the percentiles the report holds.
	var ps []string
	for _, q := range view.TaskQuantiles(s) {
		ps = append(ps, q.Name+" "+common.MsDur(q.Millis))
	}
	h := e.Rep.TaskDurationHistogram(s)
	var n int64
	if h != nil {
		n = h.Total()
	}
	for _, l := range common.PackFacts(append([]string{fmt.Sprintf("task durations: %d task(s)", n)}, ps...), g.Sep, width) {
		out = append(out, st.Dim.Render(common.AsciiText(g, l)))
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
			out = append(out, "  "+common.BarRow(st, common.AsciiText(g, b.Label), 10, float64(b.Count), mx, bw, common.PadLeft(fmt.Sprint(b.Count), cw)))
		}
	}
	out = append(out, "")
	// The report's wording for what is text (phase, operation, job first, the rest after
	// the table); the numbers as a table from the stage's data, in units.
	text := func(m [2]string) {
		label := common.PadRight(m[0], 22)
		for i, w := range common.Wrap(common.AsciiText(g, safetext.Terminal(m[1])), width-26) {
			if i == 0 {
				out = append(out, "  "+label+" "+w)
			} else {
				out = append(out, "  "+strings.Repeat(" ", 22)+" "+w)
			}
		}
	}
	var rest [][2]string
	for _, m := range view.StageMetrics(*r) {
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
	out = append(out, e.stageMetricTable(r, width)...)
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
func (e *EventLogPane) stageMetricTable(r *view.StageRow, width int) []string {
	st := e.c.Styles
	g := st.G
	o := r.Stage.Observed
	const lw, vw, rw = 22, 7, 8
	var out []string
	row := func(label, v, recs, note string) {
		l := "  " + common.PadRight(label, lw) + " " + common.PadLeft(v, vw) + " " + common.PadLeft(recs, rw)
		if note == "" {
			out = append(out, common.Clip(common.AsciiText(g, strings.TrimRight(l, " ")), width))
			return
		}
		ind := common.CellWidth(l) + 2
		for i, w := range common.Wrap(common.AsciiText(g, note), max(12, width-ind)) {
			if i > 0 {
				l = strings.Repeat(" ", ind-2)
			}
			out = append(out, common.Clip(common.AsciiText(g, l)+"  "+w, width))
		}
	}
	ratio := func(r eventlog.Ratio, pct bool) string {
		switch {
		case r < 0:
			return "-"
		case pct:
			return units.Num(100*float64(r)) + "%"
		}
		return units.Num(float64(r))
	}
	bytes := func(b int64) string {
		if b < 0 {
			return "-"
		}
		return units.BytesCompact(b)
	}
	nsDur := func(ns int64) string {
		if ns < 0 {
			return "-"
		}
		return common.MsDur(ns / 1e6)
	}
	out = append(out, st.ColHead.Render(common.Clip("  "+common.PadRight("metric", lw)+" "+common.PadLeft("value", vw)+" "+common.PadLeft("records", rw), width)))
	row("tasks", units.Count(o.NumTasksObserved), "", fmt.Sprintf("of %s planned: %s ok, %s failed, %s killed, %s speculative",
		units.Count(int64(o.NumTasksPlanned)), units.Count(o.TasksSucceeded), units.Count(o.TasksFailed), units.Count(o.TasksKilled), units.Count(o.TasksSpeculative)))
	row("skew (max / p50)", ratio(o.SkewRatio, false), "", "")
	row("duration", common.MsDur(o.DurationMillis), "", "")
	row("executor run time", common.MsDur(o.ExecutorRunTimeMillis), "", "")
	x := r.Extra
	if x != nil {
		row("executor CPU time", nsDur(x.ExecutorCPUTimeNanos), "", "")
	}
	row("deserialize time", common.MsDur(o.ExecutorDeserializeTimeMillis), "", "")
	row("GC time", common.MsDur(o.JvmGcTimeMillis), "", ratio(o.GcFractionOfRunTime, true)+" of run time")
	row("input", bytes(o.InputBytes), units.Count(o.InputRecords), "")
	row("output", bytes(o.OutputBytes), units.Count(o.OutputRecords), "")
	row("shuffle read", bytes(o.ShuffleReadBytes), units.Count(o.ShuffleReadRecords), "fetch wait "+common.MsDur(o.ShuffleFetchWaitTimeMillis))
	row("shuffle write", bytes(o.ShuffleWriteBytes), units.Count(o.ShuffleWriteRecords), "write time "+nsDur(o.ShuffleWriteTimeNanos))
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
			for i, w := range common.Wrap(common.AsciiText(g, safetext.Terminal(it)), width-5) {
				p := "   "
				if i == 0 {
					p = " - "
				}
				out = append(out, " "+p+w)
			}
		}
	}
	section("Attribution (hudiscope's; the Java tool's is in the JSON's top-level fields)")
	bullets(e.Rep.Hudiscope.Caveats)
	section("Caveats")
	bullets(e.Rep.Caveats)
	if len(e.Rep.Warnings) > 0 {
		section("Warnings")
		bullets(e.Rep.Warnings)
	}
	if d := e.Rep.Hudiscope.Damage; len(d) > 0 {
		section("Damage")
		var items []string
		for _, r := range d {
			items = append(items, r.File+": "+r.Kind+" "+r.Detail)
		}
		bullets(items)
	}
	section("Spark properties relevant to Hudi")
	props := view.HudiProperties(e.Rep)
	if len(props) == 0 {
		out = append(out, "   none recorded in the log's environment update")
	}
	for _, p := range props {
		out = append(out, common.Clip("   "+p[0]+" = "+p[1], width))
	}
	return out
}

func (e *EventLogPane) Export() (string, string) {
	if e.Rep == nil {
		return "event-log", "# Event log\n\n" + strings.Join(e.reason(), "\n\n") + "\n"
	}
	if e.stage != nil {
		r := e.Rows[e.stageAt]
		return "event-log-stage-" + r.ID, "# Event log: stage " + r.ID + "\n\n" + report.StageMarkdown(r)
	}
	var b strings.Builder
	b.WriteString("# Event log\n\n")
	if e.caveats != nil {
		b.WriteString(report.EventLogMarkdown(e.Rep, nil))
		return "event-log", b.String()
	}
	if c := e.comparison(); e.compare != nil && c != nil {
		return "event-log-compare", "# Event log\n\n" + report.EventLogCompareMarkdown(c, 0)
	}
	stages := []view.StageRow{}
	for _, i := range e.List.Visible() {
		stages = append(stages, e.Rows[e.InView[i]]) // i is a list position: InView names the stage
	}
	if e.List.SortBy >= 0 || e.List.Filter != "" {
		fmt.Fprintf(&b, "Stages ordered by %s", e.List.SortName("stage id"))
		if e.List.Filter != "" {
			fmt.Fprintf(&b, ", filter `%s`", e.List.Filter)
		}
		b.WriteString(".\n\n")
	}
	b.WriteString(report.EventLogMarkdown(e.Rep, stages))
	return "event-log", b.String()
}

// compareLines are the comparison with --compare-log: what moved most first, then the
// application measures, phases, operations and stage kinds side by side (view.CompareRows).
func (e *EventLogPane) compareLines(width int) []string {
	st := e.c.Styles
	g := st.G
	c := e.comparison()
	if c == nil {
		return []string{" no --compare-log"}
	}
	txt := func(s string) string { return common.AsciiText(g, safetext.Terminal(s)) }
	var out []string
	for _, l := range common.Wrap(txt("before "+c.Before.EventLogPath+g.Sep+"after "+c.After.EventLogPath), width-2) {
		out = append(out, " "+l)
	}
	for _, l := range common.Wrap(txt(view.CompareHeadline(c)), width-2) {
		out = append(out, " "+l)
	}
	// Labels as wide as the widest "moved most" entry (stage kinds are the long ones).
	labelW := 32
	for _, m := range view.MovedMost(c, 0) {
		labelW = max(labelW, min(48, common.CellWidth(m.What)))
	}
	labelW = max(16, min(labelW, width-2-4*10)) // four 9-wide cells must fit
	cell := func(s string) string { return common.PadLeft(txt(s), 9) }
	row := func(label string, v ...string) string {
		l := " " + common.PadRight(common.Trunc(txt(label), labelW, g.Ellipsis), labelW)
		for _, x := range v {
			l += " " + cell(x)
		}
		return common.Clip(l, width)
	}
	head := func(t string) {
		out = append(out, "", " "+st.ColHead.Render(t), st.Dim.Render(row("", "before", "after", "delta", "change")))
	}
	head("Moved most (stage wall clock, time no job covers)")
	moved := view.MovedMost(c, 0)
	if len(moved) == 0 {
		out = append(out, "   nothing moved")
	}
	for _, m := range moved {
		out = append(out, row(m.What, m.Before, m.After, m.Delta, m.Relative))
	}
	rows := view.CompareRows(c)
	for _, sec := range view.CompareSectionTitles {
		rs := view.CompareSection(rows, sec[0])
		if len(rs) == 0 {
			continue
		}
		head(sec[1])
		last := ""
		for _, r := range rs {
			label := r.Measure
			if sec[0] != eventlog.SectionApplication {
				if r.Label != last {
					l := r.Label
					if r.Only != "" {
						l += " (" + r.Only + " only)"
					}
					out = append(out, common.Clip(" "+st.Key.Render(txt(l)), width))
					last = r.Label
				}
				label = "  " + r.Measure
			}
			out = append(out, row(label, r.Before, r.After, r.Delta, r.Relative))
		}
	}
	return out
}
