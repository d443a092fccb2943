package timeline

import (
	"math"
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/ui/common"
)

// The Timeline's Gantt view: one bar per listed instant from requested to completed on a
// shared time axis, drawn beside a compact table so the cursor row is one line in both.

// ganttKind is how a bar is drawn: one glyph (and colour) per kind of action, indexed by the
// view layer's view.Kind.
type ganttKind struct {
	Name, glyph, ascii string
	color              string
}

var GanttKinds = []ganttKind{
	{"commit", "█", "#", "6"},
	{"deltacommit", "▓", "=", "4"},
	{"clustering", "▒", "%", "5"},
	{"compaction", "▚", "&", "2"},
	{"clean", "━", "-", "8"},
	{"rollback", "╳", "x", "1"},
	{"savepoint", "◆", "*", "3"},
	{"other", "▪", "+", "7"},
}

func (k ganttKind) glyphFor(g common.Glyphs) string {
	if common.IsASCII(g) {
		return k.ascii
	}
	return k.glyph
}

func (k ganttKind) style(st *common.Styles) lipgloss.Style {
	if !st.Color {
		return lipgloss.NewStyle()
	}
	return lipgloss.NewStyle().Foreground(lipgloss.Color(k.color))
}

// ganttLabelW is the table part's width: cursor, mark, requested time, action, duration.
func ganttLabelW(width int) (labelW int, withDur bool) {
	if width >= 100 {
		return 2 + 17 + 1 + 12 + 1 + 5 + 1, true
	}
	return 2 + 17 + 1 + 10 + 1, false
}

// ganttRows is how many instant rows fit under the axis and above the legend and footer.
func (t *Timeline) ganttRows() int { return max(1, t.height-timelineHeadN-2-1-1) }

// ganttWindow is the time window shown, in Unix seconds: the listed page's span (pending
// instants run to the timeline's latest time), halved per zoom level around the cursor
// instant and shifted a quarter window per pan step.
func (t *Timeline) ganttWindow() (ws, we float64) {
	lv := t.ListView
	end := min(lv.Top+lv.Page, len(lv.Idx))
	t0, t1 := math.Inf(1), math.Inf(-1)
	for i := lv.Top; i < end; i++ {
		s, e, ok := t.spanOf(t.Row(i).In)
		if !ok {
			continue
		}
		t0, t1 = math.Min(t0, s), math.Max(t1, e)
	}
	if math.IsInf(t0, 0) {
		return 0, 1
	}
	if t1 >= unixSec(t.latest) {
		t1 += (t1 - t0) / 12 // room for pending bars to show they run on
	}
	if t1-t0 < 0.001 {
		t1 = t0 + 0.001
	}
	span := (t1 - t0) / math.Pow(2, float64(t.zoom))
	ws = t0
	if t.zoom > 0 {
		if c := t.Selected(); c != nil {
			if s, _, ok := t.spanOf(c); ok {
				ws = s - span/10
			}
		}
	}
	ws += float64(t.pan) * span / 4
	return ws, ws + span
}

// spanOf is an instant's bar in Unix seconds; a pending one ends at the latest time known.
func (t *Timeline) spanOf(in *timeline.Instant) (s, e float64, ok bool) {
	if in.Started.IsZero() {
		return 0, 0, false
	}
	s = unixSec(in.Started)
	switch {
	case !in.Ended.IsZero():
		e = math.Max(s, unixSec(in.Ended))
	case in.IsCompleted():
		e = s
	default:
		e = math.Max(s, unixSec(t.latest))
	}
	return s, e, true
}

func unixSec(t time.Time) float64 { return float64(t.UnixNano()) / 1e9 }

// ganttSteps are the tick intervals, in seconds.
var ganttSteps = []float64{0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30,
	60, 120, 300, 600, 900, 1800, 3600, 7200, 3 * 3600, 6 * 3600, 12 * 3600, 86400, 2 * 86400, 7 * 86400}

// ganttTicks picks a tick step that leaves room for labels and returns the tick times.
func ganttTicks(ws, we float64, w int, loc *time.Location) (ticks []float64, layout string) {
	scale := float64(w) / (we - ws)
	step := ganttSteps[len(ganttSteps)-1]
	for _, s := range ganttSteps {
		lay := tickLayout(s)
		if s*scale >= float64(len(lay)+3) {
			step = s
			break
		}
	}
	layout = tickLayout(step)
	_, off := time.Unix(int64(ws), 0).In(loc).Zone()
	first := math.Ceil((ws+float64(off))/step)*step - float64(off)
	for x := first; x <= we && len(ticks) < 200; x += step {
		ticks = append(ticks, x)
	}
	return ticks, layout
}

func tickLayout(step float64) string {
	switch {
	case step < 1:
		return "04:05.000"
	case step < 60:
		return "15:04:05"
	case step < 86400:
		return "15:04"
	}
	return "01-02"
}

// ganttView draws the Gantt view's lines under the header line.
func (t *Timeline) ganttView(width, height int) []string {
	st := t.C.Styles
	g := st.G
	labelW, withDur := ganttLabelW(width)
	chartW := max(8, width-labelW-1)
	ws, we := t.ganttWindow()
	scale := float64(chartW) / (we - ws)
	loc := time.UTC
	if sel := t.Selected(); sel != nil && !sel.Started.IsZero() {
		loc = sel.Started.Location()
	} else if len(t.byComp) > 0 && !t.byComp[0].In.Started.IsZero() {
		loc = t.byComp[0].In.Started.Location()
	}
	ticks, layout := ganttTicks(ws, we, chartW, loc)

	// Axis: the date and zoom in the table part, tick labels over the chart, then a rule.
	day := time.Unix(0, int64(ws*1e9)).In(loc)
	left := " " + day.Format("2006-01-02 MST")
	if t.zoom > 0 {
		left += " zoom " + common.Itoa(1<<t.zoom) + "x"
	}
	labels := []byte(strings.Repeat(" ", chartW))
	rule := make([]string, chartW)
	for i := range rule {
		rule[i] = g.Rule
	}
	nextFree := 0
	for _, x := range ticks {
		c := int((x - ws) * scale)
		if c < 0 || c >= chartW {
			continue
		}
		rule[c] = tickGlyph(g)
		l := time.Unix(0, int64(x*1e9)).In(loc).Format(layout)
		if c >= nextFree && c+len(l) <= chartW {
			copy(labels[c:], l)
			nextFree = c + len(l) + 2
		}
	}
	out := []string{
		st.ColHead.Render(common.PadRight(left, labelW)) + " " + st.Dim.Render(string(labels)),
		st.Dim.Render(common.PadRight(" requested         action", labelW) + " " + strings.Join(rule, "")),
	}

	lv := t.ListView
	end := min(lv.Top+lv.Page, len(lv.Idx))
	used := map[int]bool{}
	cells := make([]string, chartW)
	for i := lv.Top; i < end; i++ {
		r := t.Row(i)
		sel := i == lv.Cursor
		kind := int(r.Kind)
		used[kind] = true
		var b strings.Builder
		writeRowLead(&b, g, r, sel)
		b.WriteString(common.PadRight(r.In.RequestedTime, 17))
		b.WriteByte(' ')
		if withDur {
			b.WriteString(common.PadRight(common.Trunc(ganttAction(r.In), 12, g.Ellipsis), 12) + " " + common.PadLeft(humanDuration(r.TimelineRow), 5) + " ")
		} else {
			b.WriteString(common.PadRight(common.Trunc(ganttAction(r.In), 10, g.Ellipsis), 10) + " ")
		}
		label := common.PadRight(b.String(), labelW)
		bar := t.ganttBar(r.In, kind, ws, scale, cells)
		if sel {
			out = append(out, st.Cursor.Render(label+" "+bar))
			continue
		}
		if r.Late {
			label = " " + st.Late.Render(g.Late) + label[1+len(g.Late):]
		}
		out = append(out, label+" "+GanttKinds[kind].style(st).Render(bar))
	}
	if len(lv.Idx) == 0 {
		out = append(out, "  no instant matches the filter")
	}
	for len(out) < height-1 {
		out = append(out, "")
	}
	return append(out[:height-1], t.ganttLegend(width, used))
}

func tickGlyph(g common.Glyphs) string {
	if common.IsASCII(g) {
		return "+"
	}
	return "┬"
}

// ganttBar draws one instant's bar over chartW cells (cells is scratch space): the action's
// glyph from requested to completed, at least one cell; a pending instant runs to the edge in
// the open glyph; a bar outside the window leaves an arrow at the side it lies on.
func (t *Timeline) ganttBar(in *timeline.Instant, kind int, ws, scale float64, cells []string) string {
	g := t.C.Styles.G
	w := len(cells)
	for i := range cells {
		cells[i] = " "
	}
	s, e, ok := t.spanOf(in)
	if !ok {
		return strings.TrimRight(strings.Join(cells, ""), " ")
	}
	x0, x1 := (s-ws)*scale, (e-ws)*scale
	open := !in.IsCompleted() && in.Ended.IsZero()
	glyph := GanttKinds[kind].glyphFor(g)
	left, right := "◂", "▸"
	if common.IsASCII(g) {
		left, right = "<", ">"
	}
	switch {
	case x0 >= float64(w):
		cells[w-1] = right
	case open:
		c0 := max(0, int(math.Floor(x0)))
		if x0 >= 0 {
			cells[c0] = glyph
			c0++
		}
		for c := c0; c < w; c++ {
			cells[c] = g.Open
		}
		cells[w-1] = right
	case x1 < 0:
		cells[0] = left
	default:
		c0 := max(0, int(math.Floor(x0)))
		c1 := min(w, max(c0+1, int(math.Ceil(x1))))
		for c := c0; c < c1; c++ {
			cells[c] = glyph
		}
	}
	return strings.TrimRight(strings.Join(cells, ""), " ")
}

// ganttLegend names the glyphs of the kinds on screen, the open glyph and the zoom keys.
func (t *Timeline) ganttLegend(width int, used map[int]bool) string {
	st := t.C.Styles
	g := st.G
	var parts []string
	for i, k := range GanttKinds {
		if used[i] {
			parts = append(parts, k.style(st).Render(k.glyphFor(g))+" "+k.Name)
		}
	}
	parts = append(parts, g.Open+" pending")
	s := " " + strings.Join(parts, "  ")
	km := t.km
	keys := st.Dim.Render("  " + km.ZoomIn.Help().Key + "/" + km.ZoomOut.Help().Key + " zoom  " + km.Pan.Help().Key + " pan")
	if common.CellWidth(s)+common.CellWidth(keys) <= width {
		s += keys
	}
	return common.Clip(s, width)
}

// ganttAction names a write service by its plan (clustering, compaction), else the action.
func ganttAction(in *timeline.Instant) string {
	if in.HasPlan() {
		return in.PlanAction
	}
	return in.Action
}
