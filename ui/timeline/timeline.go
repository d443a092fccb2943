// Package timeline is the explorer's Timeline pane: the instant list and its Gantt view, an
// instant's detail and rows, and the checkpoint helper.
package timeline

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
	"github.com/hudiscope/hudiscope/ui/common"
	"github.com/hudiscope/hudiscope/view"
)

type timelineOrder int

const (
	byCompletion timelineOrder = iota
	byRequested
)

// tlRow is the view layer's row (instant, late mark, derived mark, duration), laid out.
type tlRow struct {
	view.TimelineRow
}

// Timeline is pane 1: the instant table in completion (or requested) order, the span strip,
// drill-down into one instant, and the checkpoint helper. Its cursor, filter and scrolling are
// the shared listView's; items are indices into byComp.
type Timeline struct {
	C    *common.Common
	km   timelineKeys
	Snap *model.Snapshot
	Tl   *timeline.Timeline // the timeline rows were built from

	byComp           []tlRow
	byReq            []int // byComp indices in requested order (built on first use)
	*common.ListView       // embedded: cursor, filter and scrolling are the shared list's; View draws the rows
	order            timelineOrder
	orderSet         bool // the first timeline picked the opening order
	anyLate          bool
	anyDerived       bool
	lower            map[string]string

	incrBegins []checkpoint.Begins // per reader line: resume after the latest write, earliest readable
	incrKnown  bool

	Detail *InstantDetail
	ckpt   *checkpointHelper

	// The Gantt view (v): zoom halves the window per level, pan shifts it a quarter per step.
	gantt     bool
	zoom, pan int
	latest    time.Time // the latest time on the timeline: where pending bars end

	width, height int
}

// timelineKeys are the Timeline list's keys (the shared list's, without sort).
type timelineKeys struct {
	common.ListKeys
	Open, Order, Checkpoint, Stages, Gantt key.Binding
	ZoomIn, ZoomOut, Pan                   key.Binding
	panLeft                                key.Binding // the earlier half of Pan
}

func (k timelineKeys) ShortHelp() []key.Binding {
	return common.Enabled(k.Filter, k.Open, k.Gantt, k.Checkpoint)
}

func (k timelineKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.All(), {k.Open, k.Filter, k.Order, k.Checkpoint, k.Gantt, k.Stages},
		{k.ZoomIn, k.ZoomOut, k.Pan}}
}

func (k timelineKeys) HelpTitles() []string { return []string{"Move", "Timeline", "Gantt chart"} }

// NewTimeline makes the Timeline pane.
func NewTimeline(c *common.Common) *Timeline {
	t := &Timeline{C: c, km: timelineKeys{
		Open:       c.Keys.Open,
		Order:      common.Bind("o", "order: requested", "o"),
		Checkpoint: common.Bind("c", "checkpoint helper", "c"),
		Stages:     common.Bind("S", "Spark stages", "S"),
		Gantt:      common.Bind("v", "view: Gantt", "v"),
		ZoomIn:     common.Bind("+", "zoom in", "+", "="),
		ZoomOut:    common.Bind("-", "zoom out", "-"),
		Pan:        common.Bind("←/→", "pan", "left", "h", "right", "l"),
		panLeft:    common.Bind("←", "pan earlier", "left", "h"),
	}}
	t.ListView = common.NewListView(nil, 0, nil, nil)
	t.ListView.Match = func(f string) func(int) bool {
		terms := parseFilter(f)
		if t.lower == nil {
			t.lower = map[string]string{}
		}
		return func(i int) bool { return matchRow(t.byComp[i], terms, t.lower) }
	}
	return t
}

// Keys are the list keys enabled in the current state.
func (t *Timeline) Keys() timelineKeys {
	k := t.km
	k.ListKeys = t.ListView.Keys(t.C.Keys)
	k.Open = common.When(k.Open, t.Selected() != nil && t.Snap != nil)
	k.Checkpoint = common.When(k.Checkpoint, t.Snap != nil && t.Snap.Timeline != nil)
	k.Stages = common.When(k.Stages, t.Selected() != nil && t.Snap != nil && t.Snap.EventLog != nil)
	k.Gantt = common.When(k.Gantt, t.Snap != nil && t.Snap.Timeline != nil)
	k.ZoomIn = common.When(k.ZoomIn, t.gantt && t.zoom < 16)
	k.ZoomOut = common.When(k.ZoomOut, t.gantt && t.zoom > 0)
	k.Pan = common.When(k.Pan, t.gantt)
	return k
}

// KeyMap is the focused view's keys: the checkpoint helper, an instant, the filter or the list.
func (t *Timeline) KeyMap() help.KeyMap {
	switch {
	case t.ckpt != nil:
		return t.ckpt.Keys(t)
	case t.Detail != nil:
		return t.Detail.Keys(t.C)
	case t.ListView.Filtering:
		return t.C.Keys.FilterKeys()
	}
	return t.Keys()
}

type incrStartMsg struct {
	tl     *timeline.Timeline
	begins []checkpoint.Begins
}

// timelineHeadN is the header's height: the two incremental begin values, one line each.
const timelineHeadN = 2

func (t *Timeline) Title() string { return "Timeline" }

func (t *Timeline) SetSize(w, h int) { t.width, t.height = w, h; t.Reflow() }

// Reflow fits scroll positions and input widths to the size and state, so View only reads.
func (t *Timeline) Reflow() {
	t.ListView.SetPage(t.listRows())
	common.SizeInput(&t.ListView.Input, t.width-45)
	if t.Detail != nil {
		t.Detail.Reflow(t.C, t.width, t.height)
	}
	if t.ckpt != nil {
		t.ckpt.Reflow(t, t.width, t.height)
	}
}

// SetSnapshot rebuilds the rows when the snapshot carries a new timeline, keeping the
// selected instant.
func (t *Timeline) SetSnapshot(s *model.Snapshot) tea.Cmd {
	t.Snap = s
	if s == nil || s.Timeline == nil || s.Timeline == t.Tl {
		return nil
	}
	keep := t.Selected()
	t.Tl = s.Timeline
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
		t.byComp[i] = tlRow{rows[i]}
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
	t.ListView.N = len(t.byComp)
	t.applyOrder(k)
	t.Reflow()
	tl := s.Timeline
	return func() tea.Msg {
		return incrStartMsg{tl: tl, begins: s.IncrementalBegins(context.Background())}
	}
}

// Selected is the instant under the cursor, or nil.
func (t *Timeline) Selected() *timeline.Instant {
	if i := t.ListView.Selected(); i >= 0 {
		return t.byComp[i].In
	}
	return nil
}

// Row is the p-th row shown.
func (t *Timeline) Row(p int) tlRow { return t.byComp[t.ListView.Idx[p]] }

// applyOrder sets the list's natural order from t.order and re-filters, keeping item keep.
func (t *Timeline) applyOrder(keep int) {
	t.ListView.Base = nil
	if t.order == byRequested {
		if t.byReq == nil {
			t.byReq = requestedOrder(t.byComp)
		}
		t.ListView.Base = t.byReq
	}
	t.ListView.Apply(keep)
}

// requestedOrder is the byComp indices sorted as hudi sorts by requested time.
func requestedOrder(rows []tlRow) []int {
	ins := make([]*timeline.Instant, len(rows))
	pos := make(map[*timeline.Instant]int, len(rows))
	for i, r := range rows {
		ins[i] = r.In
		pos[r.In] = i
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
	in := r.In
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
				(in.Archived && t.text == "archived") || (r.Late && t.text == "late")
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
	return t.ListView.Filtering || (t.ckpt != nil && t.Detail == nil) || (t.ckpt == nil && t.Detail != nil && t.Detail.Capturing())
}

func (t *Timeline) Back() bool {
	switch {
	case t.ckpt != nil:
		t.ckpt = nil
	case t.Detail != nil:
		t.Detail = nil
	case t.ListView.CloseFilter():
	default:
		return false
	}
	t.Reflow()
	return true
}

func (t *Timeline) Update(msg tea.Msg) tea.Cmd {
	cmd := t.Handle(msg)
	t.Reflow()
	return cmd
}

func (t *Timeline) Handle(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case incrStartMsg:
		if msg.tl == t.Tl {
			t.incrBegins, t.incrKnown = msg.begins, true
		}
		return nil
	case DetailMsg:
		if t.Detail != nil && t.Detail.In == msg.In {
			t.Detail.Set(msg)
		}
		return nil
	case checkpointMsg:
		if t.ckpt != nil {
			return t.ckpt.Set(msg)
		}
		return nil
	}
	switch {
	case t.ckpt != nil:
		return t.ckpt.Handle(t, msg)
	case t.Detail != nil:
		return t.Detail.Handle(t.C, msg)
	case t.ListView.Filtering:
		t.ListView.Handle(t.C.Keys, msg)
		return nil
	}
	k := t.Keys()
	if km, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(km, k.Order):
			t.orderSet = true
			if t.order == byCompletion {
				t.order = byRequested
			} else {
				t.order = byCompletion
			}
			t.applyOrder(t.ListView.Selected())
			return nil
		case key.Matches(km, k.Open):
			return t.openDetail()
		case key.Matches(km, k.Checkpoint):
			t.ckpt = newCheckpointHelper(t.C)
			return nil
		case key.Matches(km, k.Stages):
			return common.JumpTo(common.JumpInstantStages{Requested: t.Selected().RequestedTime})
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
	t.ListView.Handle(t.C.Keys, msg)
	return nil
}

func (t *Timeline) Breadcrumb() []string {
	var out []string
	if t.Detail != nil {
		out = append(out, t.Detail.crumb())
	}
	if t.ckpt != nil {
		out = append(out, "checkpoint helper")
	}
	return out
}

// Help is the focused view's hint-bar keys.
func (t *Timeline) Help() []key.Binding { return t.KeyMap().ShortHelp() }

func (t *Timeline) Status() string {
	if t.Detail != nil {
		return t.Detail.Status()
	}
	return t.ListView.Status()
}

// ---- view ----

type tlColumn struct {
	title string
	Width int
	right bool
	prio  int
	cell  func(g common.Glyphs, r tlRow) string
}

var tlColumns = []tlColumn{
	{"requested", 17, false, 0, func(_ common.Glyphs, r tlRow) string { return r.In.RequestedTime }},
	{"completed", 18, false, 1, func(g common.Glyphs, r tlRow) string {
		if r.In.CompletionTime == "" {
			return "(" + strings.ToLower(string(r.In.State)) + ")"
		}
		switch r.Mark {
		case view.Approx:
			return r.In.CompletionTime + g.Approx
		case view.Derived:
			return r.In.CompletionTime + g.Derived
		}
		return r.In.CompletionTime
	}},
	{"action", 13, false, 2, func(_ common.Glyphs, r tlRow) string { return r.In.Action }},
	{"state", 9, false, 7, func(_ common.Glyphs, r tlRow) string { return strings.ToLower(string(r.In.State)) }},
	{"op", 8, false, 3, func(_ common.Glyphs, r tlRow) string { return common.DashIf(r.In.Operation) }},
	{"writes", 6, true, 4, writeCell(func(c timeline.CommitTotals) int64 { return c.NumWrites }, units.Count)},
	{"ins", 5, true, 8, writeCell(func(c timeline.CommitTotals) int64 { return c.NumInserts }, units.Count)},
	{"upd", 5, true, 9, writeCell(func(c timeline.CommitTotals) int64 { return c.NumUpdateWrites }, units.Count)},
	{"del", 5, true, 10, writeCell(func(c timeline.CommitTotals) int64 { return c.NumDeletes }, units.Count)},
	{"bytes", 5, true, 5, writeCell(func(c timeline.CommitTotals) int64 { return c.TotalBytesWritten }, units.BytesCompact)},
	{"files", 5, true, 11, writeCell(func(c timeline.CommitTotals) int64 { return int64(c.Files) }, units.Count)},
	{"parts", 5, true, 12, writeCell(func(c timeline.CommitTotals) int64 { return int64(c.Partitions) }, units.Count)},
	{"dur", 5, true, 6, func(_ common.Glyphs, r tlRow) string { return humanDuration(r.TimelineRow) }},
}

func writeCell(get func(timeline.CommitTotals) int64, f func(int64) string) func(common.Glyphs, tlRow) string {
	return func(_ common.Glyphs, r tlRow) string {
		if r.In.Commit == nil && r.In.Totals == (timeline.CommitTotals{}) {
			return "-"
		}
		return f(get(r.In.Totals))
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

// Columns are the table's columns at width: tlColumns, with the requested and completed times
// rendered by the clock when the pane is wide enough and the clock is not in raw mode.
func (t *Timeline) Columns(width int) []tlColumn {
	clk := t.C.Clock
	if width < tlClockWidth || clk == nil || clk.Mode == common.TimeRaw {
		return columnsFor(tlColumns, width)
	}
	zone := common.TableZone(t.Snap)
	cols := append([]tlColumn(nil), tlColumns...)
	for i, c := range cols {
		switch c.title {
		case "requested":
			cols[i].Width = tlTimeW
			cols[i].cell = func(_ common.Glyphs, r tlRow) string { return clk.Instant(r.In.RequestedTime, zone) }
		case "completed":
			cols[i].Width = tlTimeW + 1 // the approximate or derived mark
			raw := c.cell
			cols[i].cell = func(g common.Glyphs, r tlRow) string {
				v := raw(g, r)
				if ct := r.In.CompletionTime; ct != "" && strings.HasPrefix(v, ct) {
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
			if c.prio == p && used+1+c.Width <= width {
				take[i] = true
				used += 1 + c.Width
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
		return t.ckpt.View(t, width, height)
	}
	if t.Detail != nil {
		return t.Detail.View(t.C, width, height)
	}
	st := t.C.Styles
	g := st.G
	lines := make([]string, 0, height)
	lines = append(lines, t.HeaderLines(width)...)
	if t.gantt && t.Snap != nil && t.Snap.Timeline != nil {
		lines = append(lines, t.ganttView(width, height-1-timelineHeadN)...)
		return common.Fit(append(lines, t.footerLine(width)), width, height)
	}
	if t.Snap == nil || t.Snap.Timeline == nil {
		msg := "The timeline has not been read yet."
		if t.Snap != nil {
			if err := t.Snap.StepErrors[model.StepTimeline]; err != nil {
				msg = "The timeline could not be read: " + err.Error()
			}
		}
		for _, l := range common.Wrap(msg, width-2) {
			lines = append(lines, " "+l)
		}
		return common.Fit(lines, width, height)
	}
	cols := t.Columns(width)
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
			hb.WriteString(common.PadLeft(title, c.Width))
		} else {
			hb.WriteString(common.PadRight(title, c.Width))
		}
	}
	lines = append(lines, st.ColHead.Render(common.PadRight(hb.String(), width)))
	lv := t.ListView
	end := min(lv.Top+lv.Page, len(lv.Idx))
	if len(lv.Idx) == 0 {
		if lv.Filter != "" {
			lines = append(lines, "  no instant matches the filter")
		} else {
			lines = append(lines, "  the timeline has no instants")
		}
	}
	var b strings.Builder
	for i := lv.Top; i < end; i++ {
		r := t.Row(i)
		b.Reset()
		sel := i == lv.Cursor
		writeRowLead(&b, g, r, sel)
		for j, c := range cols {
			if j > 0 {
				b.WriteByte(' ')
			}
			cell := c.cell(g, r)
			if c.title == "dur" {
				if e := t.C.WatchElapsed(r.In); e != "" {
					cell = e // a pending instant's age, ticking while watching
				}
			}
			v := common.Trunc(safetext.Terminal(cell), c.Width, g.Ellipsis)
			if c.right {
				b.WriteString(common.PadLeft(v, c.Width))
			} else {
				b.WriteString(common.PadRight(v, c.Width))
			}
		}
		line := b.String()
		mark := t.C.Watch.Mark(r.In, g.Cursor == ">")
		switch {
		case sel:
			line = st.Cursor.Render(common.PadRight(line, width))
		case r.Late:
			line = " " + st.Late.Render(g.Late) + line[1+len(g.Late):]
		case mark != "" && !r.In.Archived:
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
	return common.Fit(lines, width, height)
}

// HeaderLines are the two incremental begin values per reader line, each labelled with the
// question it answers: what a pipeline stores after the latest write, and how far back the
// cleaner still serves. Both come from the model (checkpoint.Begins); `checkpoint` accepts
// each for its reader line.
func (t *Timeline) HeaderLines(width int) []string {
	st := t.C.Styles
	switch {
	case t.Snap == nil || t.Snap.Timeline == nil:
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
			if common.CellWidth(c) <= width {
				return c
			}
		}
		return common.Clip(cs[len(cs)-1], width)
	}
	return []string{pickFit(rc), pickFit(ec)}
}

func (t *Timeline) footerLine(width int) string {
	st := t.C.Styles
	g := st.G
	switch {
	case t.ListView.Filtering:
		return " " + st.Key.Render("/") + " filter (action: state: op: or text): " + common.InputView(t.ListView.Input)
	case t.ListView.Filter != "":
		return common.Clip(fmt.Sprintf(" filter %q: %d of %d instants · %s clears", t.ListView.Filter, len(t.ListView.Idx), len(t.byComp), t.C.Keys.Back.Help().Key), width)
	case t.anyLate:
		c := t.km.Checkpoint.Help().Key
		msg := " completed after a later-started instant: a checkpoint taken from _hoodie_commit_time re-reads it; press " + c + " to check one"
		if width < 120 {
			msg = " completed after a later-started instant: checkpoints go wrong here (" + c + ": check)"
		}
		return common.Clip(" "+st.Late.Render(g.Late)+msg, width)
	case t.anyDerived:
		if p := t.coarsest(); p >= time.Second {
			return common.Clip(fmt.Sprintf(" %s completed within %s after the time shown (file time kept to %s)", g.Approx, p, p), width)
		}
		return common.Clip(" "+g.Derived+" completion time derived from the completed file's time (table version < 8)", width)
	}
	return common.Clip(" "+g.Late+" marks instants that completed after a later-started one (none here)", width)
}

// coarsest is the largest precision of the derived completion times listed.
func (t *Timeline) coarsest() time.Duration {
	var p time.Duration
	for _, r := range t.byComp {
		if r.In.CompletionDerived {
			p = max(p, r.In.CompletionPrecision)
		}
	}
	return p
}

// stripView draws the rule with the axis range and the visible instants' spans.
func (t *Timeline) stripView(width, n int) []string {
	st := t.C.Styles
	g := st.G
	lv := t.ListView
	end := min(lv.Top+lv.Page, len(lv.Idx))
	var spans []common.Span
	var first, last *timeline.Instant
	var t0 float64 = math.Inf(1)
	var t1 float64 = math.Inf(-1)
	for i := lv.Top; i < end; i++ {
		in := t.Row(i).In
		if in.Started.IsZero() {
			continue
		}
		s := float64(in.Started.UnixMilli()) / 1000
		e := s
		open := in.Ended.IsZero()
		if !open {
			e = math.Max(s, float64(in.Ended.UnixMilli())/1000)
		}
		spans = append(spans, common.Span{Start: s, End: e, Open: open, Selected: i == lv.Cursor})
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
		label += from.Format(layout) + " " + g.Arrow + " " + to.Format(layout) + " (" + units.Seconds(to.Sub(from).Seconds()) + ") "
	}
	rule := label + strings.Repeat(g.Rule, max(0, width-len([]rune(label))))
	out := []string{st.Dim.Render(common.Clip(rule, width))}
	lanes := common.SpanStrip(st, spans, width-2, n-1)
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
	if t.Detail != nil {
		return "timeline-" + t.Detail.In.RequestedTime, t.Detail.markdown()
	}
	var b strings.Builder
	name := "table"
	if t.Snap != nil && t.Snap.Config != nil {
		name = t.Snap.Config.Name
	}
	fmt.Fprintf(&b, "# Timeline: %s\n\n", report.Escape(name))
	if t.Snap != nil {
		b.WriteString(report.TableSummary(t.Snap))
		b.WriteString("\n")
	}
	b.WriteString(report.IncrementalBeginsMarkdown(t.incrBegins))
	order := "completion order"
	if t.order == byRequested {
		order = "requested-time order"
	}
	fmt.Fprintf(&b, "%d instants, %s", len(t.ListView.Idx), order)
	if t.ListView.Filter != "" {
		fmt.Fprintf(&b, ", filter `%s` (of %d)", t.ListView.Filter, len(t.byComp))
	}
	b.WriteString(".\n\n")
	ins := make([]*timeline.Instant, len(t.ListView.Idx))
	rows := make([]view.TimelineRow, len(t.ListView.Idx))
	for i := range t.ListView.Idx {
		r := t.Row(i)
		ins[i], rows[i] = r.In, r.TimelineRow
	}
	if g := report.TimelineGantt(ins, report.GanttLimit); g != "" {
		b.WriteString(g + "\n")
	}
	b.WriteString(report.TimelineMarkdown(rows))
	return "timeline", b.String()
}

// ---- formatting ----

func humanDuration(r view.TimelineRow) string {
	switch {
	case r.DurApprox && r.Dur < time.Second:
		// Known to about a second only: the middle of the possible durations.
		return "≈<1s"
	case r.DurApprox:
		return "≈" + units.Seconds(r.Dur.Seconds())
	case r.Dur <= 0:
		return "-"
	}
	return units.Seconds(r.Dur.Seconds())
}

// Click selects the instant row at body line y (rows start below the incremental-begin line
// and the column header; in the Gantt view, below the axis and its rule as well).
func (t *Timeline) Click(y int) tea.Cmd {
	if t.Detail != nil || t.ckpt != nil || t.Snap == nil || t.Snap.Timeline == nil {
		return nil
	}
	rowsY := timelineHeadN + 1
	if t.gantt {
		rowsY = timelineHeadN + 2
	}
	t.ListView.ClickRow(y, rowsY)
	t.Reflow()
	return nil
}

// CopyValue is the focused instant's requested time (the open instant's in its detail): the
// raw instant string, which is what begin.instanttime, the CLI and the file names take.
func (t *Timeline) CopyValue() (string, string, bool) {
	in := t.Selected()
	switch {
	case t.Detail != nil:
		in = t.Detail.In
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
func writeRowLead(b *strings.Builder, g common.Glyphs, r tlRow, sel bool) {
	if sel {
		b.WriteString(g.Cursor)
	} else {
		b.WriteByte(' ')
	}
	mark := " "
	switch {
	case r.Late:
		mark = g.Late
	case r.In.Archived:
		mark = g.Archived
	}
	b.WriteString(mark)
}

// openDetail opens the selected instant's detail; the Cmd reads it.
func (t *Timeline) openDetail() tea.Cmd {
	in := t.Selected()
	t.Detail = NewInstantDetail(in)
	t.Detail.hasLayout = t.Snap.Layout != nil
	t.Detail.hasEventLog = t.Snap.EventLog != nil
	return loadDetail(t.Snap, in)
}
