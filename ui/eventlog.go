package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/hudiscope/hudiscope/analyzers/eventlog"
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

	width, height int
}

// eventLogKeys are the stage list's keys. Caveats is w: c is the Timeline's checkpoint helper.
type eventLogKeys struct {
	listKeys
	Open, Caveats key.Binding
}

func (k eventLogKeys) ShortHelp() []key.Binding {
	return enabled(k.Open, k.Filter, k.Sort, k.Caveats)
}
func (k eventLogKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.all(), {k.Open, k.Filter, k.Sort, k.Caveats}}
}
func (k eventLogKeys) helpTitles() []string { return []string{"Move", "Event log"} }

// NewEventLog makes the Event log pane.
func NewEventLog(c *Common) *EventLogPane {
	return &EventLogPane{c: c, km: eventLogKeys{Open: c.Keys.Open, Caveats: bind("w", "caveats & properties", "w")}}
}

// KeyMap is the focused view's keys: a stage or the caveats, the filter, or the list.
func (e *EventLogPane) KeyMap() help.KeyMap {
	switch {
	case e.list == nil:
		return keyColumns{}
	case e.stage != nil:
		return e.stage.keys(e.c.Keys.Nav)
	case e.caveats != nil:
		return e.caveats.keys(e.c.Keys.Nav)
	case e.list.filtering:
		return e.c.Keys.filterKeys()
	}
	k := e.km
	k.listKeys = e.list.keys(e.c.Keys)
	k.Open = when(k.Open, e.list.selected() >= 0)
	return k
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
	ss := e.stages
	o := func(i int) *eventlog.StageObserved { return &ss[i].Observed }
	cols := []lvCol{
		{title: "stage", width: 6, right: true},
		{title: "job", width: 4, right: true, prio: 1},
		{title: "phase", width: 24, flex: true, maxW: 40, txt: func(i int) string { return report.StagePhase(&ss[i]) }},
		{title: "tasks", width: 5, right: true, num: func(i int) float64 { return float64(o(i).NumTasksObserved) }},
		{title: "dur", width: 6, right: true, num: func(i int) float64 { return float64(o(i).DurationMillis) }},
		{title: "skew", width: 5, right: true, num: func(i int) float64 { return float64(o(i).SkewRatio) }},
		{title: "spill", width: 6, right: true, num: func(i int) float64 { return float64(report.Spill(&ss[i])) }},
		{title: "gc", width: 4, right: true, num: func(i int) float64 { return float64(o(i).GcFractionOfRunTime) }},
		{title: "p50", width: 6, right: true, prio: 3},
		{title: "operation", width: 15, prio: 5, txt: func(i int) string { return ss[i].Operation }},
		{title: "name", width: 16, prio: 4, flex: true},
	}
	e.list = newListView(cols, len(ss), func(i, c int) string {
		s := &ss[i]
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
			if ob.SkewRatio < 0 {
				return "-"
			}
			return fmt.Sprintf("%.1fx", float64(ob.SkewRatio))
		case 6:
			return humanBytes(report.Spill(s))
		case 7:
			return report.Ratio(ob.GcFractionOfRunTime, 2)
		case 8:
			return msDur(ob.TaskDurationMillis.P50)
		case 9:
			return s.Operation
		case 10:
			return s.Name
		}
		return ""
	}, func(i int) string {
		s := &ss[i]
		return report.StageID(s) + " " + report.StagePhase(s) + " " + s.Operation + " " + s.Name
	})
	e.list.mark = func(i int) string {
		if ss[i].FailureReason != nil || ss[i].Observed.TasksFailed > 0 {
			return e.c.Styles.G.Bad
		}
		return ""
	}
	e.reflow()
	return nil
}

func msDur(ms int64) string {
	if ms < 0 {
		return "-"
	}
	return shortDur(float64(ms) / 1000)
}

func (e *EventLogPane) Capturing() bool {
	return e.list != nil && e.list.filtering && e.stage == nil && e.caveats == nil
}

func (e *EventLogPane) Back() bool {
	switch {
	case e.stage != nil:
		e.stage = nil
	case e.caveats != nil:
		e.caveats = nil
	case e.list != nil && e.list.closeFilter():
	default:
		return false
	}
	e.reflow()
	return true
}

func (e *EventLogPane) Update(msg tea.Msg) tea.Cmd {
	switch k := e.KeyMap().(type) {
	case pagerKeys:
		if e.stage != nil {
			e.stage.update(k.navKeys, msg)
		} else {
			e.caveats.update(k.navKeys, msg)
		}
	case eventLogKeys:
		km, isKey := msg.(tea.KeyPressMsg)
		switch {
		case isKey && key.Matches(km, k.Open):
			e.stageAt, e.stage = e.list.selected(), newPager()
		case isKey && key.Matches(km, k.Caveats):
			e.caveats = newPager()
		default:
			e.list.update(e.c.Keys, msg)
		}
	case filterKeys:
		e.list.update(e.c.Keys, msg)
	}
	e.reflow()
	return nil
}

func (e *EventLogPane) Breadcrumb() []string {
	switch {
	case e.stage != nil:
		return []string{"stage " + report.StageID(&e.stages[e.stageAt])}
	case e.caveats != nil:
		return []string{"caveats & properties"}
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
	return clip(" "+asciiText(e.c.Styles.G, report.AppLine(e.rep)), width)
}

// top is the stage list's lines above it: the application, UNKNOWN, phase bars, operations.
func (e *EventLogPane) top(width, height int) []string {
	st := e.c.Styles
	g := st.G
	lines := []string{e.head(width)}
	if u := report.UnknownStatement(e.rep); u != "" {
		lines = append(lines, clip(" "+st.Warn.Render(asciiText(g, u)), width))
	}
	ours, java := e.rep.Hudiscope.PhaseSummary, e.rep.PhaseSummary
	lines = append(lines, clip(st.Dim.Render(" phases by hudiscope's attribution (Java tool's share where it differs):"), width))
	// Phase bars: at most a third of the height.
	phases := append(append([]eventlog.GroupSummary(nil), ours...), report.JavaOnly(ours, java)...)
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
	barW := max(4, width-2-nameW-1-1-6-noteW-subW-1)
	for i, p := range phases {
		if i == maxPh-1 && len(phases) > maxPh {
			lines = append(lines, st.Dim.Render(fmt.Sprintf("  %s %d more phase(s) (%s exports all)", g.Ellipsis, len(phases)-i, e.c.Keys.Export.Help().Key)))
			break
		}
		share := "-"
		if p.ShareOfStageWallClock >= 0 {
			share = fmt.Sprintf("%.0f%%", 100*float64(p.ShareOfStageWallClock))
		}
		row := "  " + barRow(st, trunc(p.Label, nameW, g.Ellipsis), nameW, float64(p.ShareOfStageWallClock), mx, barW, padLeft(share, 5))
		if noteW > 0 {
			row += " " + padRight(report.JavaNote(ours, java, p.Label), noteW-1)
		}
		if subW > 0 {
			row += "  " + trunc(report.TopSubPhase(e.rep, p.Label), subW-2, g.Ellipsis)
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
	return append(lines, clip(" operations: "+strings.Join(ops, g.Sep), width))
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
	out := []string{" " + st.ColHead.Render("stage "+report.StageID(s)) + "  " + trunc(s.Name, width-14, g.Ellipsis)}
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
	head := fmt.Sprintf(" task durations: %d task(s)", n)
	if len(ps) > 0 {
		head += g.Sep + strings.Join(ps, g.Sep)
	}
	out = append(out, st.Dim.Render(clip(asciiText(g, head), width)))
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
	for _, m := range report.StageMetrics(e.rep, s) {
		label := padRight(m[0], 22)
		for i, w := range wrap(asciiText(g, m[1]), width-26) {
			if i == 0 {
				out = append(out, "  "+label+" "+w)
			} else {
				out = append(out, "  "+strings.Repeat(" ", 22)+" "+w)
			}
		}
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
			for i, w := range wrap(asciiText(g, it), width-5) {
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
