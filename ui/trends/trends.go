// Package trends is the explorer's Trends view (T): the view layer's per-instant series drawn
// as a column chart, one series at a time, with a cursor on a point (enter opens its detail in
// the Timeline) and the change points marked.
package trends

import (
	"math"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/hudiscope/hudiscope/internal/safetext"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
	"github.com/hudiscope/hudiscope/ui/common"
	"github.com/hudiscope/hudiscope/view"
)

// TrendsView draws view.Trends of the snapshot. It is a Pane the root shows over the active
// one; T or esc closes it. Every published snapshot rebuilds the series: the first frame is
// the active timeline's, the archived instants join when the archived step publishes, and
// writes whose metadata is still being read join as it arrives.
type TrendsView struct {
	c    *common.Common
	snap *model.Snapshot
	t    *view.TrendSet
	// series is the shown series; cursor the value under the cursor (an index into its
	// Values); first the first value drawn.
	series, cursor, first int
	// at is the point (TrendSet.Points index) under the cursor, kept across rebuilds and
	// series changes.
	at            int
	width, height int
}

// trendsKeys are the view's own keys; esc and T (the root's) close it.
type trendsKeys struct {
	PrevSeries, NextSeries, Earlier, Later, First, Last, PageEarlier, PageLater, Open key.Binding
}

func (k trendsKeys) ShortHelp() []key.Binding {
	return common.Enabled(k.NextSeries, k.Later, k.Open)
}
func (k trendsKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{common.Enabled(k.PrevSeries, k.NextSeries),
		common.Enabled(k.Earlier, k.Later, k.PageEarlier, k.PageLater, k.First, k.Last, k.Open)}
}
func (k trendsKeys) HelpTitles() []string { return []string{"Series", "Points"} }

// NewTrendsView builds the view over s; the Cmd builds its series.
func NewTrendsView(c *common.Common, s *model.Snapshot) (*TrendsView, tea.Cmd) {
	v := &TrendsView{c: c, at: -1}
	return v, v.SetSnapshot(s)
}

func (v *TrendsView) Title() string { return "Trends" }

// builtMsg carries the series built for a snapshot in a Cmd (200k points take a few tenths
// of a second: not on the UI goroutine).
type builtMsg struct {
	snap *model.Snapshot
	t    *view.TrendSet
}

// SetSnapshot starts building the series of s; the view shows the last ones built until they
// arrive ("building" before the first).
func (v *TrendsView) SetSnapshot(s *model.Snapshot) tea.Cmd {
	v.snap = s
	return func() tea.Msg { return builtMsg{snap: s, t: view.Trends(s, view.TrendOptions{})} }
}

// set shows series built for the current snapshot, the cursor on the instant it was on.
func (v *TrendsView) set(t *view.TrendSet) {
	req := ""
	if v.at >= 0 && v.t != nil && v.at < len(v.t.Points) {
		req = v.t.Points[v.at].Requested
	}
	v.t = t
	v.series = min(v.series, max(0, len(v.t.Series)-1))
	// The points were rebuilt (archived ones may have joined before): find the cursor's
	// instant again by its requested time.
	v.at = -1
	for i := range v.t.Points {
		if req != "" && v.t.Points[i].Requested == req {
			v.at = i
			break
		}
	}
	v.place()
}

// place puts the cursor on the point it was on, else the series' first one after it (another
// series may not have that point), else the newest.
func (v *TrendsView) place() {
	sr := v.current()
	if sr == nil {
		v.cursor = 0
		return
	}
	v.cursor = len(sr.Values) - 1
	if v.at >= 0 {
		for i, p := range sr.Points {
			if int(p) >= v.at {
				v.cursor = i
				break
			}
		}
	}
	v.at = int(sr.Points[v.cursor])
}

func (v *TrendsView) current() *view.TrendSeries {
	if v.t == nil || v.series >= len(v.t.Series) {
		return nil
	}
	return &v.t.Series[v.series]
}

func (v *TrendsView) SetSize(w, h int)     { v.width, v.height = w, h }
func (v *TrendsView) Back() bool           { return false }
func (v *TrendsView) Capturing() bool      { return false }
func (v *TrendsView) Breadcrumb() []string { return nil }
func (v *TrendsView) Help() []key.Binding  { return v.keys().ShortHelp() }

func (v *TrendsView) KeyMap() help.KeyMap { return v.keys() }

func (v *TrendsView) keys() trendsKeys {
	sr := v.current()
	many := sr != nil && len(sr.Values) > 1
	series := v.t != nil && len(v.t.Series) > 1
	return trendsKeys{
		PrevSeries:  common.When(common.Bind("↑/k", "previous series", "up", "k"), series),
		NextSeries:  common.When(common.Bind("↓/j", "next series", "down", "j"), series),
		Earlier:     common.When(common.Bind("←/h", "earlier point", "left", "h"), many),
		Later:       common.When(common.Bind("→/l", "later point", "right", "l"), many),
		PageEarlier: common.When(common.Bind("pgup", "a screen earlier", "pgup", "b"), many),
		PageLater:   common.When(common.Bind("pgdn", "a screen later", "pgdown", "f", "space"), many),
		First:       common.When(common.Bind("g/home", "first point", "home", "g"), many),
		Last:        common.When(common.Bind("G/end", "last point", "end", "G"), many),
		Open:        common.When(common.Bind("enter", "instant detail (Timeline)", "enter"), sr != nil),
	}
}

func (v *TrendsView) Status() string {
	sr := v.current()
	if sr == nil {
		return ""
	}
	return common.Itoa(v.cursor+1) + "/" + common.Itoa(len(sr.Values))
}

func (v *TrendsView) Update(msg tea.Msg) tea.Cmd {
	if b, ok := msg.(builtMsg); ok {
		if b.snap == v.snap {
			v.set(b.t)
		}
		return nil
	}
	km, ok := msg.(tea.KeyPressMsg)
	sr := v.current()
	if !ok || sr == nil {
		return nil
	}
	k := v.keys()
	switch {
	case key.Matches(km, k.PrevSeries):
		v.series = (v.series + len(v.t.Series) - 1) % len(v.t.Series)
		v.place()
	case key.Matches(km, k.NextSeries):
		v.series = (v.series + 1) % len(v.t.Series)
		v.place()
	case key.Matches(km, k.Earlier):
		v.move(-1)
	case key.Matches(km, k.Later):
		v.move(1)
	case key.Matches(km, k.PageEarlier):
		v.move(-max(1, v.chartWidth(v.width)))
	case key.Matches(km, k.PageLater):
		v.move(max(1, v.chartWidth(v.width)))
	case key.Matches(km, k.First):
		v.move(-len(sr.Values))
	case key.Matches(km, k.Last):
		v.move(len(sr.Values))
	case key.Matches(km, k.Open):
		return common.JumpTo(common.JumpInstantDetail{Requested: v.t.Points[v.at].Requested})
	}
	return nil
}

func (v *TrendsView) move(d int) {
	sr := v.current()
	v.cursor = max(0, min(len(sr.Values)-1, v.cursor+d))
	v.at = int(sr.Points[v.cursor])
}

// CopyValue is the requested time of the point under the cursor.
func (v *TrendsView) CopyValue() (string, string, bool) {
	if v.current() == nil {
		return "", "", false
	}
	return "instant", v.t.Points[v.at].Requested, true
}

// axis is the width of the y-axis labels and their rule.
func (v *TrendsView) axis() int {
	sr := v.current()
	return max(common.CellWidth(report.TrendValue(sr.Max, sr.Unit)), common.CellWidth(report.TrendValue(sr.Min, sr.Unit))) + 3
}

func (v *TrendsView) chartWidth(width int) int {
	if v.current() == nil {
		return 0
	}
	return max(1, width-v.axis()-1)
}

func (v *TrendsView) View(width, height int) string {
	st := v.c.Styles
	g := st.G
	if v.t == nil {
		return common.Fit([]string{" " + st.Header.Render("Trends"), "", " Building the series…"}, width, height)
	}
	lines := []string{" " + st.Header.Render("Trends") + st.Dim.Render(g.Sep+report.TrendsHeadline(v.t))}
	if v.t.Archived {
		lines = append(lines, " "+st.Dim.Render("archival: "+report.ArchivalLine(&v.t.Archival)))
	}
	sr := v.current()
	if sr == nil {
		lines = append(lines, "", " No completed instant with the measures to draw yet.")
		return common.Fit(lines, width, height)
	}
	lines = append(lines, " "+st.ColHead.Render(common.Itoa(v.series+1)+"/"+common.Itoa(len(v.t.Series))+" "+report.SeriesTitle(sr))+
		st.Dim.Render(g.Sep+common.Itoa(len(sr.Values))+" values"+g.Sep+"median "+report.TrendValue(sr.Median, sr.Unit)))
	// Below the chart: the x axis, its labels, the point, its change (or the rule).
	rows := max(2, height-len(lines)-5)
	cw := v.chartWidth(width)
	if v.cursor < v.first {
		v.first = v.cursor
	}
	if v.cursor >= v.first+cw {
		v.first = v.cursor - cw + 1
	}
	v.first = max(0, min(v.first, len(sr.Values)-cw))
	end := min(len(sr.Values), v.first+cw)
	ax := v.axis()
	hi, lo := report.TrendValue(sr.Max, sr.Unit), report.TrendValue(sr.Min, sr.Unit)
	// Column heights in eighths of a cell: the minimum is one eighth, the maximum the full
	// chart (a flat series draws at half height).
	heights := make([]int, end-v.first)
	for i := range heights {
		val := sr.Values[v.first+i]
		switch {
		case sr.Max == sr.Min:
			heights[i] = rows * 4
		default:
			heights[i] = 1 + int(math.Round((val-sr.Min)/(sr.Max-sr.Min)*float64(rows*8-1)))
		}
	}
	for r := 0; r < rows; r++ {
		label := ""
		switch r {
		case 0:
			label = hi
		case rows - 1:
			label = lo
		}
		var b strings.Builder
		b.WriteString(common.PadLeft(label, ax-2) + " |")
		floor := (rows - 1 - r) * 8 // eighths below this row
		for i, h := range heights {
			cell := " "
			switch {
			case h >= floor+8:
				cell = g.Lower[7]
			case h > floor:
				cell = g.Lower[h-floor-1]
			}
			if v.first+i == v.cursor {
				cell = st.Cursor.Render(cell)
			}
			b.WriteString(cell)
		}
		lines = append(lines, b.String())
	}
	// The x axis: ^ under the cursor, * under a change point's first value.
	marks := []byte(strings.Repeat("-", len(heights)))
	for _, c := range sr.Changes {
		if c.Index >= v.first && c.Index < end {
			marks[c.Index-v.first] = '*'
		}
	}
	marks[v.cursor-v.first] = '^'
	lines = append(lines, strings.Repeat(" ", ax-1)+"+"+string(marks))
	from, to := v.t.Points[sr.Points[v.first]].Requested, v.t.Points[sr.Points[end-1]].Requested
	gap := max(1, len(heights)-len(from)-len(to))
	lines = append(lines, strings.Repeat(" ", ax)+from+strings.Repeat(" ", gap)+to)
	p := &v.t.Points[v.at]
	where := ""
	if p.Archived {
		where = g.Sep + "archived"
	}
	lines = append(lines, " "+g.Cursor+" "+safetext.Terminal(p.Action+" "+p.Requested+" "+g.Arrow+" "+p.Completed)+g.Sep+
		st.ColHead.Render(report.TrendValue(sr.Values[v.cursor], sr.Unit))+where)
	note := ""
	for _, c := range sr.Changes {
		if c.Index <= v.cursor {
			note = "* " + c.Note
		}
	}
	if note == "" && len(sr.Changes) > 0 {
		note = "* " + sr.Changes[0].Note
	}
	if note == "" {
		note = "no change point (" + common.Itoa(v.t.Window) + " values each side, ratio " + report.TrendValue(v.t.Ratio, "") + ")"
	}
	lines = append(lines, " "+st.Dim.Render(note))
	if common.IsASCII(g) {
		// The view layer's ratios and the × unit: ASCII surfaces draw an x.
		for i, l := range lines {
			lines[i] = strings.ReplaceAll(l, "×", "x")
		}
	}
	return common.Fit(lines, width, height)
}

// Export is the trends as Markdown (the same as `hudiscope trends -o md`).
func (v *TrendsView) Export() (string, string) {
	if v.t == nil {
		return "trends", "# Trends\n\nThe series are still being built.\n"
	}
	name := ""
	if v.snap != nil && v.snap.Config != nil {
		name = v.snap.Config.Name
	}
	return "trends", report.TrendsMarkdown(name, v.t)
}
