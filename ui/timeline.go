package ui

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/hudiscope/hudiscope/analyzers/checkpoint"
	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/internal/safetext"
	"github.com/hudiscope/hudiscope/internal/units"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
	"github.com/hudiscope/hudiscope/view"
)

type timelineOrder int

const (
	byCompletion timelineOrder = iota
	byRequested
)

type tlRow struct {
	in   *timeline.Instant
	late bool
	// row is the view layer's row (late mark, derived mark, duration); in and late are its.
	row view.TimelineRow
}

// Timeline is pane 1: the instant table in completion (or requested) order, the span strip,
// drill-down into one instant, and the checkpoint helper. Its cursor, filter and scrolling are
// the shared listView's; items are indices into byComp.
type Timeline struct {
	c    *Common
	km   timelineKeys
	snap *model.Snapshot
	tl   *timeline.Timeline // the timeline rows were built from

	byComp     []tlRow
	byReq      []int // byComp indices in requested order (built on first use)
	*listView        // embedded: cursor, filter and scrolling are the shared list's; View draws the rows
	order      timelineOrder
	orderSet   bool // the first timeline picked the opening order
	anyLate    bool
	anyDerived bool
	lower      map[string]string

	incrBegins []checkpoint.Begins // per reader line: resume after the latest write, earliest readable
	incrKnown  bool

	detail *instantDetail
	ckpt   *checkpointHelper

	// The Gantt view (v): zoom halves the window per level, pan shifts it a quarter per step.
	gantt     bool
	zoom, pan int
	latest    time.Time // the latest time on the timeline: where pending bars end

	width, height int
}

// timelineKeys are the Timeline list's keys (the shared list's, without sort).
type timelineKeys struct {
	listKeys
	Open, Order, Checkpoint, Stages, Gantt key.Binding
	ZoomIn, ZoomOut, Pan                   key.Binding
	panLeft                                key.Binding // the earlier half of Pan
}

func (k timelineKeys) ShortHelp() []key.Binding {
	return enabled(k.Filter, k.Open, k.Gantt, k.Checkpoint)
}

func (k timelineKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.all(), {k.Open, k.Filter, k.Order, k.Checkpoint, k.Gantt, k.Stages},
		{k.ZoomIn, k.ZoomOut, k.Pan}}
}

func (k timelineKeys) helpTitles() []string { return []string{"Move", "Timeline", "Gantt chart"} }

// NewTimeline makes the Timeline pane.
func NewTimeline(c *Common) *Timeline {
	t := &Timeline{c: c, km: timelineKeys{
		Open:       c.Keys.Open,
		Order:      bind("o", "order: requested", "o"),
		Checkpoint: bind("c", "checkpoint helper", "c"),
		Stages:     bind("S", "Spark stages", "S"),
		Gantt:      bind("v", "view: Gantt", "v"),
		ZoomIn:     bind("+", "zoom in", "+", "="),
		ZoomOut:    bind("-", "zoom out", "-"),
		Pan:        bind("←/→", "pan", "left", "h", "right", "l"),
		panLeft:    bind("←", "pan earlier", "left", "h"),
	}}
	t.listView = newListView(nil, 0, nil, nil)
	t.listView.match = func(f string) func(int) bool {
		terms := parseFilter(f)
		if t.lower == nil {
			t.lower = map[string]string{}
		}
		return func(i int) bool { return matchRow(t.byComp[i], terms, t.lower) }
	}
	return t
}

// keys are the list keys enabled in the current state.
func (t *Timeline) keys() timelineKeys {
	k := t.km
	k.listKeys = t.listView.keys(t.c.Keys)
	k.Open = when(k.Open, t.Selected() != nil && t.snap != nil)
	k.Checkpoint = when(k.Checkpoint, t.snap != nil && t.snap.Timeline != nil)
	k.Stages = when(k.Stages, t.Selected() != nil && t.snap != nil && t.snap.EventLog != nil)
	k.Gantt = when(k.Gantt, t.snap != nil && t.snap.Timeline != nil)
	k.ZoomIn = when(k.ZoomIn, t.gantt && t.zoom < 16)
	k.ZoomOut = when(k.ZoomOut, t.gantt && t.zoom > 0)
	k.Pan = when(k.Pan, t.gantt)
	return k
}

// KeyMap is the focused view's keys: the checkpoint helper, an instant, the filter or the list.
func (t *Timeline) KeyMap() help.KeyMap {
	switch {
	case t.ckpt != nil:
		return t.ckpt.keys(t)
	case t.detail != nil:
		return t.detail.keys(t.c)
	case t.listView.filtering:
		return t.c.Keys.filterKeys()
	}
	return t.keys()
}

type incrStartMsg struct {
	tl     *timeline.Timeline
	begins []checkpoint.Begins
}

// timelineHeadN is the header's height: the two incremental begin values, one line each.
const timelineHeadN = 2

func (t *Timeline) Title() string { return "Timeline" }

func (t *Timeline) SetSize(w, h int) { t.width, t.height = w, h; t.reflow() }

// reflow fits scroll positions and input widths to the size and state, so View only reads.
func (t *Timeline) reflow() {
	t.listView.setPage(t.listRows())
	sizeInput(&t.listView.input, t.width-45)
	if t.detail != nil {
		t.detail.reflow(t.c, t.width, t.height)
	}
	if t.ckpt != nil {
		t.ckpt.reflow(t, t.width, t.height)
	}
}

// SetSnapshot rebuilds the rows when the snapshot carries a new timeline, keeping the
// selected instant.
func (t *Timeline) SetSnapshot(s *model.Snapshot) tea.Cmd {
	t.snap = s
	if s == nil || s.Timeline == nil || s.Timeline == t.tl {
		return nil
	}
	keep := t.Selected()
	t.tl = s.Timeline
	// byComp is completion order whatever the table's own order; a table that orders by
	// requested time (version < 8) opens in that order.
	instants := append([]*timeline.Instant(nil), s.TimelineInstants()...)
	timeline.SortByCompletion(instants)
	if !t.orderSet {
		t.orderSet = true
		if s.Timeline.ByRequested {
			t.order = byRequested
		}
	}
	rows := view.TimelineRows(instants)
	t.byComp = make([]tlRow, len(instants))
	t.anyLate, t.anyDerived = false, false
	t.latest = time.Time{}
	k := -1
	for i, in := range instants {
		t.byComp[i] = tlRow{in: in, late: rows[i].Late, row: rows[i]}
		if in.Ended.After(t.latest) {
			t.latest = in.Ended
		}
		if in.Started.After(t.latest) {
			t.latest = in.Started
		}
		t.anyLate = t.anyLate || rows[i].Late
		t.anyDerived = t.anyDerived || in.CompletionDerived
		// The same instant, its decoded copy (model's commit-metadata step publishes copies) or
		// its refreshed self (a watch refresh makes new instants).
		if keep != nil && (in == keep || (k < 0 && in.Key() == keep.Key())) {
			k = i
		}
	}
	t.byReq = nil
	t.incrKnown = false
	t.listView.n = len(t.byComp)
	t.applyOrder(k)
	t.reflow()
	tl := s.Timeline
	return func() tea.Msg {
		return incrStartMsg{tl: tl, begins: s.IncrementalBegins(context.Background())}
	}
}

// Selected is the instant under the cursor, or nil.
func (t *Timeline) Selected() *timeline.Instant {
	if i := t.listView.selected(); i >= 0 {
		return t.byComp[i].in
	}
	return nil
}

// row is the p-th row shown.
func (t *Timeline) row(p int) tlRow { return t.byComp[t.listView.idx[p]] }

// applyOrder sets the list's natural order from t.order and re-filters, keeping item keep.
func (t *Timeline) applyOrder(keep int) {
	t.listView.base = nil
	if t.order == byRequested {
		if t.byReq == nil {
			t.byReq = requestedOrder(t.byComp)
		}
		t.listView.base = t.byReq
	}
	t.listView.apply(keep)
}

// requestedOrder is the byComp indices sorted as hudi sorts by requested time.
func requestedOrder(rows []tlRow) []int {
	ins := make([]*timeline.Instant, len(rows))
	pos := make(map[*timeline.Instant]int, len(rows))
	for i, r := range rows {
		ins[i] = r.in
		pos[r.in] = i
	}
	timeline.SortByRequested(ins)
	out := make([]int, len(ins))
	for i, in := range ins {
		out[i] = pos[in]
	}
	return out
}

type filterTerm struct{ field, text string }

// parseFilter splits "action:clean upsert" into terms; every term must match.
func parseFilter(f string) []filterTerm {
	var out []filterTerm
	for _, w := range strings.Fields(strings.ToLower(f)) {
		ft := filterTerm{text: w}
		if i := strings.IndexByte(w, ':'); i > 0 {
			ft.field, ft.text = w[:i], w[i+1:]
		}
		out = append(out, ft)
	}
	return out
}

// matchRow reports whether every term matches; lower caches lower-cased field values (a
// timeline has few distinct actions, states and operations).
func matchRow(r tlRow, terms []filterTerm, lower map[string]string) bool {
	in := r.in
	for _, t := range terms {
		has := func(s string) bool {
			if s == "" {
				return t.text == ""
			}
			l, ok := lower[s]
			if !ok {
				l = strings.ToLower(s)
				lower[s] = l
			}
			return strings.Contains(l, t.text)
		}
		ok := false
		switch t.field {
		case "action", "a":
			ok = has(in.Action) || has(in.PlanAction)
		case "state", "s":
			ok = has(string(in.State))
		case "op", "operation", "o":
			ok = has(in.Operation)
		case "part", "partition":
			ok = wrotePartition(r, t.text)
		default:
			ok = has(in.Action) || has(in.PlanAction) || has(string(in.State)) || has(in.Operation) ||
				strings.HasPrefix(in.RequestedTime, t.text) || strings.HasPrefix(in.CompletionTime, t.text) ||
				(in.Archived && t.text == "archived") || (r.late && t.text == "late")
		}
		if !ok {
			return false
		}
	}
	return true
}

// listRows is how many table rows fit.
func (t *Timeline) listRows() int {
	if t.gantt {
		return t.ganttRows()
	}
	n := t.height - 2 - timelineHeadN - t.stripLines() - 1
	if n < 1 {
		n = 1
	}
	return n
}

// stripLines is the span strip's height including its rule (0 when there is no room).
func (t *Timeline) stripLines() int {
	switch {
	case t.height >= 34:
		return 4
	case t.height >= 18:
		return 3
	case t.height >= 14:
		return 2
	}
	return 0
}

func (t *Timeline) Capturing() bool {
	return t.listView.filtering || (t.ckpt != nil && t.detail == nil) || (t.ckpt == nil && t.detail != nil && t.detail.capturing())
}

func (t *Timeline) Back() bool {
	switch {
	case t.ckpt != nil:
		t.ckpt = nil
	case t.detail != nil:
		t.detail = nil
	case t.listView.closeFilter():
	default:
		return false
	}
	t.reflow()
	return true
}

func (t *Timeline) Update(msg tea.Msg) tea.Cmd {
	cmd := t.update(msg)
	t.reflow()
	return cmd
}

func (t *Timeline) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case incrStartMsg:
		if msg.tl == t.tl {
			t.incrBegins, t.incrKnown = msg.begins, true
		}
		return nil
	case detailMsg:
		if t.detail != nil && t.detail.in == msg.in {
			t.detail.set(msg)
		}
		return nil
	case checkpointMsg:
		if t.ckpt != nil {
			return t.ckpt.set(msg)
		}
		return nil
	}
	switch {
	case t.ckpt != nil:
		return t.ckpt.update(t, msg)
	case t.detail != nil:
		return t.detail.update(t.c, msg)
	case t.listView.filtering:
		t.listView.update(t.c.Keys, msg)
		return nil
	}
	k := t.keys()
	if km, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(km, k.Order):
			t.orderSet = true
			if t.order == byCompletion {
				t.order = byRequested
			} else {
				t.order = byCompletion
			}
			t.applyOrder(t.listView.selected())
			return nil
		case key.Matches(km, k.Open):
			in := t.Selected()
			t.detail = newInstantDetail(in)
			t.detail.hasLayout = t.snap.Layout != nil
			t.detail.hasEventLog = t.snap.EventLog != nil
			return loadDetail(t.snap, in)
		case key.Matches(km, k.Checkpoint):
			t.ckpt = newCheckpointHelper(t.c)
			return nil
		case key.Matches(km, k.Stages):
			return jumpTo(JumpInstantStages{Requested: t.Selected().RequestedTime})
		case key.Matches(km, k.Gantt):
			t.gantt = !t.gantt
			return nil
		case key.Matches(km, k.ZoomIn):
			t.zoom, t.pan = t.zoom+1, 0
			return nil
		case key.Matches(km, k.ZoomOut):
			t.zoom, t.pan = t.zoom-1, 0
			return nil
		case key.Matches(km, k.Pan):
			if key.Matches(km, k.panLeft) {
				t.pan--
			} else {
				t.pan++
			}
			return nil
		}
	}
	t.listView.update(t.c.Keys, msg)
	return nil
}

func (t *Timeline) Breadcrumb() []string {
	var out []string
	if t.detail != nil {
		out = append(out, t.detail.crumb())
	}
	if t.ckpt != nil {
		out = append(out, "checkpoint helper")
	}
	return out
}

// Help is the focused view's hint-bar keys.
func (t *Timeline) Help() []key.Binding { return t.KeyMap().ShortHelp() }

func (t *Timeline) Status() string {
	if t.detail != nil {
		return t.detail.status()
	}
	return t.listView.status()
}

// ---- view ----

type tlColumn struct {
	title string
	width int
	right bool
	prio  int
	cell  func(g Glyphs, r tlRow) string
}

var tlColumns = []tlColumn{
	{"requested", 17, false, 0, func(_ Glyphs, r tlRow) string { return r.in.RequestedTime }},
	{"completed", 18, false, 1, func(g Glyphs, r tlRow) string {
		if r.in.CompletionTime == "" {
			return "(" + strings.ToLower(string(r.in.State)) + ")"
		}
		switch r.row.Mark {
		case view.Approx:
			return r.in.CompletionTime + g.Approx
		case view.Derived:
			return r.in.CompletionTime + g.Derived
		}
		return r.in.CompletionTime
	}},
	{"action", 13, false, 2, func(_ Glyphs, r tlRow) string { return r.in.Action }},
	{"state", 9, false, 7, func(_ Glyphs, r tlRow) string { return strings.ToLower(string(r.in.State)) }},
	{"op", 8, false, 3, func(_ Glyphs, r tlRow) string { return dashIf(r.in.Operation) }},
	{"writes", 6, true, 4, writeCell(func(c timeline.CommitTotals) int64 { return c.NumWrites }, humanCount)},
	{"ins", 5, true, 8, writeCell(func(c timeline.CommitTotals) int64 { return c.NumInserts }, humanCount)},
	{"upd", 5, true, 9, writeCell(func(c timeline.CommitTotals) int64 { return c.NumUpdateWrites }, humanCount)},
	{"del", 5, true, 10, writeCell(func(c timeline.CommitTotals) int64 { return c.NumDeletes }, humanCount)},
	{"bytes", 5, true, 5, writeCell(func(c timeline.CommitTotals) int64 { return c.TotalBytesWritten }, humanBytes)},
	{"files", 5, true, 11, writeCell(func(c timeline.CommitTotals) int64 { return int64(c.Files) }, humanCount)},
	{"parts", 5, true, 12, writeCell(func(c timeline.CommitTotals) int64 { return int64(c.Partitions) }, humanCount)},
	{"dur", 5, true, 6, func(_ Glyphs, r tlRow) string { return humanDuration(r.row) }},
}

func writeCell(get func(timeline.CommitTotals) int64, f func(int64) string) func(Glyphs, tlRow) string {
	return func(_ Glyphs, r tlRow) string {
		if r.in.Commit == nil && r.in.Totals == (timeline.CommitTotals{}) {
			return "-"
		}
		return f(get(r.in.Totals))
	}
}

// tlClockWidth is the narrowest pane that shows the requested and completed columns through
// the clock (the zone key). A formatted time ("2006-01-02 15:04:05.000 MST", 27 cells and more
// for zones like "+0530") in both columns does not fit the 80-column layout beside action, op,
// writes, bytes and dur; below 120 columns, as in raw mode, they keep the raw 17-digit instant
// strings and their widths.
const tlClockWidth = 120

// tlTimeW is a clock-formatted instant column's width: the format with a 5-cell zone name.
const tlTimeW = 24 + 5

// columns are the table's columns at width: tlColumns, with the requested and completed times
// rendered by the clock when the pane is wide enough and the clock is not in raw mode.
func (t *Timeline) columns(width int) []tlColumn {
	clk := t.c.Clock
	if width < tlClockWidth || clk == nil || clk.Mode == TimeRaw {
		return columnsFor(tlColumns, width)
	}
	zone := tableZone(t.snap)
	cols := append([]tlColumn(nil), tlColumns...)
	for i, c := range cols {
		switch c.title {
		case "requested":
			cols[i].width = tlTimeW
			cols[i].cell = func(_ Glyphs, r tlRow) string { return clk.Instant(r.in.RequestedTime, zone) }
		case "completed":
			cols[i].width = tlTimeW + 1 // the approximate or derived mark
			raw := c.cell
			cols[i].cell = func(g Glyphs, r tlRow) string {
				v := raw(g, r)
				if ct := r.in.CompletionTime; ct != "" && strings.HasPrefix(v, ct) {
					v = clk.Instant(ct, zone) + v[len(ct):]
				}
				return v
			}
		}
	}
	return columnsFor(cols, width)
}

// columnsFor picks the columns of all that fit width (2 cells of gutter), by priority, kept
// in display order.
func columnsFor(all []tlColumn, width int) []tlColumn {
	used := 2 - 1
	take := make([]bool, len(all))
	for p := 0; p < len(all); p++ {
		for i, c := range all {
			if c.prio == p && used+1+c.width <= width {
				take[i] = true
				used += 1 + c.width
			}
		}
	}
	var out []tlColumn
	for i, c := range all {
		if take[i] {
			out = append(out, c)
		}
	}
	return out
}

func (t *Timeline) View(width, height int) string {
	if t.ckpt != nil {
		return t.ckpt.view(t, width, height)
	}
	if t.detail != nil {
		return t.detail.view(t.c, width, height)
	}
	st := t.c.Styles
	g := st.G
	lines := make([]string, 0, height)
	lines = append(lines, t.headerLines(width)...)
	if t.gantt && t.snap != nil && t.snap.Timeline != nil {
		lines = append(lines, t.ganttView(width, height-1-timelineHeadN)...)
		return fit(append(lines, t.footerLine(width)), width, height)
	}
	if t.snap == nil || t.snap.Timeline == nil {
		msg := "The timeline has not been read yet."
		if t.snap != nil {
			if err := t.snap.StepErrors[model.StepTimeline]; err != nil {
				msg = "The timeline could not be read: " + err.Error()
			}
		}
		for _, l := range wrap(msg, width-2) {
			lines = append(lines, " "+l)
		}
		return fit(lines, width, height)
	}
	cols := t.columns(width)
	var hb strings.Builder
	hb.WriteString("  ")
	for i, c := range cols {
		if i > 0 {
			hb.WriteByte(' ')
		}
		title := c.title
		if c.title == "requested" && t.order == byRequested {
			title = "requested " + g.Sorted
		} else if c.title == "completed" && t.order == byCompletion {
			title = "completed " + g.Sorted
		}
		if c.right {
			hb.WriteString(padLeft(title, c.width))
		} else {
			hb.WriteString(padRight(title, c.width))
		}
	}
	lines = append(lines, st.ColHead.Render(padRight(hb.String(), width)))
	lv := t.listView
	end := min(lv.top+lv.page, len(lv.idx))
	if len(lv.idx) == 0 {
		if lv.filter != "" {
			lines = append(lines, "  no instant matches the filter")
		} else {
			lines = append(lines, "  the timeline has no instants")
		}
	}
	var b strings.Builder
	for i := lv.top; i < end; i++ {
		r := t.row(i)
		b.Reset()
		sel := i == lv.cursor
		writeRowLead(&b, g, r, sel)
		for j, c := range cols {
			if j > 0 {
				b.WriteByte(' ')
			}
			cell := c.cell(g, r)
			if c.title == "dur" {
				if e := t.c.watchElapsed(r.in); e != "" {
					cell = e // a pending instant's age, ticking while watching
				}
			}
			v := trunc(safetext.Terminal(cell), c.width, g.Ellipsis)
			if c.right {
				b.WriteString(padLeft(v, c.width))
			} else {
				b.WriteString(padRight(v, c.width))
			}
		}
		line := b.String()
		mark := t.c.Watch.Mark(r.in, g.Cursor == ">")
		switch {
		case sel:
			line = st.Cursor.Render(padRight(line, width))
		case r.late:
			line = " " + st.Late.Render(g.Late) + line[1+len(g.Late):]
		case mark != "" && !r.in.Archived:
			// New or changed since a recent refresh (--watch): marked and highlighted.
			line = " " + st.OK.Render(mark+line[2:])
		}
		lines = append(lines, line)
	}
	if n := t.stripLines(); n > 0 {
		lines = append(lines, t.stripView(width, n)...)
	}
	for len(lines) < height-1 {
		lines = append(lines, "")
	}
	lines = append(lines, t.footerLine(width))
	return fit(lines, width, height)
}

// headerLines are the two incremental begin values per reader line, each labelled with the
// question it answers: what a pipeline stores after the latest write, and how far back the
// cleaner still serves. Both come from the model (checkpoint.Begins); `checkpoint` accepts
// each for its reader line.
func (t *Timeline) headerLines(width int) []string {
	st := t.c.Styles
	switch {
	case t.snap == nil || t.snap.Timeline == nil:
		return make([]string, timelineHeadN)
	case !t.incrKnown:
		return []string{" incremental begin: (reading the last clean)", ""}
	case len(t.incrBegins) == 0:
		return []string{" incremental begin: no completed write on the active timeline", ""}
	}
	bs := t.incrBegins
	values := func(pick func(checkpoint.Begins) string) string {
		var vs []string
		for _, b := range bs {
			v := st.Key.Render(pick(b))
			if len(bs) > 1 {
				v = b.Reader.Line + " " + v
			}
			vs = append(vs, v)
		}
		return strings.Join(vs, " · ")
	}
	resume := values(func(b checkpoint.Begins) string { return b.Resume })
	early := values(func(b checkpoint.Begins) string { return b.Earliest.Begin })
	first := bs[0]
	why := first.EarliestLabel()
	var rc, ec []string // longest first; the first that fits is shown
	if len(bs) == 1 {
		hudi := "Hudi " + first.Reader.Line
		rc = []string{
			" resume after the latest commit: " + resume + " (" + hudi + ", " + first.Reader.Rule() + ")",
			" resume after the latest commit: " + resume + " (" + hudi + ")",
			" resume after the latest commit: " + resume,
		}
		ec = []string{
			" earliest readable (" + why + "): " + early + " reads from " + first.Earliest.ReadsFrom + " (" + hudi + ")",
			" earliest readable (" + why + "): " + early + " (" + hudi + ")",
			" earliest readable (" + why + "): " + early,
		}
	} else {
		rc = []string{
			" resume after the latest commit: " + resume,
			" resume after latest commit: " + resume,
			" resume: " + resume,
		}
		ec = []string{
			" earliest readable (" + why + "): " + early,
			" earliest readable: " + early,
			" earliest: " + early,
		}
	}
	pickFit := func(cs []string) string {
		for _, c := range cs {
			if cellWidth(c) <= width {
				return c
			}
		}
		return clip(cs[len(cs)-1], width)
	}
	return []string{pickFit(rc), pickFit(ec)}
}

func (t *Timeline) footerLine(width int) string {
	st := t.c.Styles
	g := st.G
	switch {
	case t.listView.filtering:
		return " " + st.Key.Render("/") + " filter (action: state: op: or text): " + inputView(t.listView.input)
	case t.listView.filter != "":
		return clip(fmt.Sprintf(" filter %q: %d of %d instants · %s clears", t.listView.filter, len(t.listView.idx), len(t.byComp), t.c.Keys.Back.Help().Key), width)
	case t.anyLate:
		c := t.km.Checkpoint.Help().Key
		msg := " completed after a later-started instant: a checkpoint taken from _hoodie_commit_time re-reads it; press " + c + " to check one"
		if width < 120 {
			msg = " completed after a later-started instant: checkpoints go wrong here (" + c + ": check)"
		}
		return clip(" "+st.Late.Render(g.Late)+msg, width)
	case t.anyDerived:
		if p := t.coarsest(); p >= time.Second {
			return clip(fmt.Sprintf(" %s completed within %s after the time shown (file time kept to %s)", g.Approx, p, p), width)
		}
		return clip(" "+g.Derived+" completion time derived from the completed file's time (table version < 8)", width)
	}
	return clip(" "+g.Late+" marks instants that completed after a later-started one (none here)", width)
}

// coarsest is the largest precision of the derived completion times listed.
func (t *Timeline) coarsest() time.Duration {
	var p time.Duration
	for _, r := range t.byComp {
		if r.in.CompletionDerived {
			p = max(p, r.in.CompletionPrecision)
		}
	}
	return p
}

// stripView draws the rule with the axis range and the visible instants' spans.
func (t *Timeline) stripView(width, n int) []string {
	st := t.c.Styles
	g := st.G
	lv := t.listView
	end := min(lv.top+lv.page, len(lv.idx))
	var spans []Span
	var first, last *timeline.Instant
	var t0 float64 = math.Inf(1)
	var t1 float64 = math.Inf(-1)
	for i := lv.top; i < end; i++ {
		in := t.row(i).in
		if in.Started.IsZero() {
			continue
		}
		s := float64(in.Started.UnixMilli()) / 1000
		e := s
		open := in.Ended.IsZero()
		if !open {
			e = math.Max(s, float64(in.Ended.UnixMilli())/1000)
		}
		spans = append(spans, Span{Start: s, End: e, Open: open, Selected: i == lv.cursor})
		if s < t0 {
			t0, first = s, in
		}
		if e > t1 {
			t1, last = e, in
		}
	}
	label := g.Rule + " spans "
	if first != nil && last != nil {
		from := first.Started
		to := last.Started
		if !last.Ended.IsZero() && last.Ended.After(to) {
			to = last.Ended
		}
		layout := "15:04:05"
		if from.YearDay() != to.YearDay() || from.Year() != to.Year() {
			layout = "2006-01-02 15:04"
		}
		label += from.Format(layout) + " " + g.Arrow + " " + to.Format(layout) + " (" + shortDur(to.Sub(from).Seconds()) + ") "
	}
	rule := label + strings.Repeat(g.Rule, max(0, width-len([]rune(label))))
	out := []string{st.Dim.Render(clip(rule, width))}
	lanes := SpanStrip(st, spans, width-2, n-1)
	for i := 0; i < n-1; i++ {
		l := ""
		if i < len(lanes) {
			l = "  " + lanes[i]
		}
		out = append(out, l)
	}
	return out
}

// Export renders what the pane shows: the detail, or the (filtered, ordered) timeline.
func (t *Timeline) Export() (string, string) {
	if t.detail != nil {
		return "timeline-" + t.detail.in.RequestedTime, t.detail.markdown()
	}
	var b strings.Builder
	name := "table"
	if t.snap != nil && t.snap.Config != nil {
		name = t.snap.Config.Name
	}
	fmt.Fprintf(&b, "# Timeline: %s\n\n", report.Escape(name))
	if t.snap != nil {
		b.WriteString(report.TableSummary(t.snap))
		b.WriteString("\n")
	}
	b.WriteString(report.IncrementalBeginsMarkdown(t.incrBegins))
	order := "completion order"
	if t.order == byRequested {
		order = "requested-time order"
	}
	fmt.Fprintf(&b, "%d instants, %s", len(t.listView.idx), order)
	if t.listView.filter != "" {
		fmt.Fprintf(&b, ", filter `%s` (of %d)", t.listView.filter, len(t.byComp))
	}
	b.WriteString(".\n\n")
	ins := make([]*timeline.Instant, len(t.listView.idx))
	rows := make([]view.TimelineRow, len(t.listView.idx))
	for i := range t.listView.idx {
		r := t.row(i)
		ins[i], rows[i] = r.in, r.row
	}
	if g := report.TimelineGantt(ins, report.GanttLimit); g != "" {
		b.WriteString(g + "\n")
	}
	b.WriteString(report.TimelineMarkdown(rows))
	return "timeline", b.String()
}

// ---- formatting ----

func dashIf(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func humanDuration(r view.TimelineRow) string {
	switch {
	case r.DurApprox && r.Dur < time.Second:
		// Known to about a second only: the middle of the possible durations.
		return "≈<1s"
	case r.DurApprox:
		return "≈" + shortDur(r.Dur.Seconds())
	case r.Dur <= 0:
		return "-"
	}
	return shortDur(r.Dur.Seconds())
}

// shortDur renders seconds in at most 5 cells.
func shortDur(s float64) string { return units.Seconds(s) }

// Click selects the instant row at body line y (rows start below the incremental-begin line
// and the column header; in the Gantt view, below the axis and its rule as well).
func (t *Timeline) Click(y int) tea.Cmd {
	if t.detail != nil || t.ckpt != nil || t.snap == nil || t.snap.Timeline == nil {
		return nil
	}
	rowsY := timelineHeadN + 1
	if t.gantt {
		rowsY = timelineHeadN + 2
	}
	t.listView.clickRow(y, rowsY)
	t.reflow()
	return nil
}

// CopyValue is the focused instant's requested time (the open instant's in its detail): the
// raw instant string, which is what begin.instanttime, the CLI and the file names take.
func (t *Timeline) CopyValue() (string, string, bool) {
	in := t.Selected()
	switch {
	case t.detail != nil:
		in = t.detail.in
	case t.ckpt != nil:
		return "", "", false
	}
	if in == nil {
		return "", "", false
	}
	return "instant", in.RequestedTime, true
}

// writeRowLead writes a timeline row's first two cells, shared by the table and the Gantt:
// the cursor mark and the late/archived mark.
func writeRowLead(b *strings.Builder, g Glyphs, r tlRow, sel bool) {
	if sel {
		b.WriteString(g.Cursor)
	} else {
		b.WriteByte(' ')
	}
	mark := " "
	switch {
	case r.late:
		mark = g.Late
	case r.in.Archived:
		mark = g.Archived
	}
	b.WriteString(mark)
}
