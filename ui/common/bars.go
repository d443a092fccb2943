package common

import (
	"math"
	"sort"
	"strings"

	"charm.land/lipgloss/v2"
)

// Bar draws value/max as a left-aligned bar of at most width cells with eighth-block partials
// (or the ASCII set's '=' and '|'). Other panes' histograms and phase bars use it too.
func Bar(g Glyphs, value, max float64, width int) string {
	if width <= 0 || max <= 0 || value <= 0 {
		return ""
	}
	eighths := int(math.Round(value / max * float64(width) * 8))
	if eighths > width*8 {
		eighths = width * 8
	}
	if eighths == 0 {
		eighths = 1 // something non-zero is never drawn as nothing
	}
	s := strings.Repeat(g.Full, eighths/8)
	if r := eighths % 8; r > 0 {
		s += g.Eighths[r-1]
	}
	return s
}

// ProgressBar draws a fixed-width bar for frac in [0,1]; no animation.
func ProgressBar(g Glyphs, frac float64, width int) string {
	if width <= 0 {
		return ""
	}
	frac = math.Max(0, math.Min(1, frac))
	b := Bar(g, frac, 1, width)
	if frac == 0 {
		b = ""
	}
	return b + strings.Repeat(g.ProgressEmpty, width-lipgloss.Width(b))
}

// Span is one instant's requested→completion interval on the strip, in seconds from any
// common origin. Open spans (pending instants) run to the end of the axis.
type Span struct {
	Start, End float64
	Open       bool
	Selected   bool
}

type cell struct {
	glyph string
	sel   bool
}

// SpanStrip draws spans on a shared time axis in at most lanes lines of width cells.
// Overlapping spans go to different lanes (greedy by start), so two instants running at the
// same time are visible as such; when lanes run out, later spans share the last lane.
func SpanStrip(st *Styles, spans []Span, width, lanes int) []string {
	if width <= 0 || lanes <= 0 {
		return nil
	}
	g := st.G
	t0, t1 := math.Inf(1), math.Inf(-1)
	for _, s := range spans {
		t0 = math.Min(t0, s.Start)
		t1 = math.Max(t1, s.Start)
		if !s.Open {
			t1 = math.Max(t1, s.End)
		}
	}
	if len(spans) == 0 {
		return []string{""}
	}
	if t1 <= t0 {
		t1 = t0 + 1
	}
	scale := float64(width) / (t1 - t0)
	grid := make([][]cell, lanes)
	laneEnd := make([]float64, lanes)
	for i := range grid {
		grid[i] = make([]cell, width)
		laneEnd[i] = math.Inf(-1)
	}
	order := make([]int, len(spans))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return spans[order[a]].Start < spans[order[b]].Start })
	used := 0
	for _, i := range order {
		s := spans[i]
		x0 := (s.Start - t0) * scale
		x1 := float64(width)
		if !s.Open {
			x1 = math.Max(x0, (s.End-t0)*scale)
		}
		lane := -1
		for l := 0; l < lanes; l++ {
			if laneEnd[l] <= x0 {
				lane = l
				break
			}
		}
		if lane < 0 {
			lane = lanes - 1
		}
		laneEnd[lane] = math.Max(x1, x0+1.0/8)
		if lane+1 > used {
			used = lane + 1
		}
		drawSpan(g, grid[lane], x0, x1, s.Open, s.Selected)
	}
	out := make([]string, 0, used)
	for l := 0; l < used; l++ {
		out = append(out, renderCells(st, grid[l]))
	}
	return out
}

func drawSpan(g Glyphs, row []cell, x0, x1 float64, open, sel bool) {
	w := len(row)
	put := func(x int, glyph string) {
		if x >= 0 && x < w {
			row[x] = cell{glyph, sel}
		}
	}
	c0 := int(math.Floor(x0))
	if c0 >= w {
		c0 = w - 1
	}
	if open {
		for x := c0; x < w; x++ {
			put(x, g.Open)
		}
		return
	}
	c1 := int(math.Floor(x1))
	if x1-x0 < 1.0/8 || c0 == c1 || (c1 == c0+1 && x1 == float64(c1)) {
		n := int(math.Round((x1 - x0) * 8))
		if n < 1 {
			n = 1
		}
		if n > 8 {
			n = 8
		}
		put(c0, g.Eighths[n-1])
		return
	}
	switch cov := float64(c0+1) - x0; {
	case cov >= 0.75:
		put(c0, g.Full)
	case cov >= 0.375:
		put(c0, g.RightHalf)
	default:
		put(c0, g.RightEighth)
	}
	for x := c0 + 1; x < c1 && x < w; x++ {
		put(x, g.Full)
	}
	if c1 < w {
		if n := int(math.Round((x1 - float64(c1)) * 8)); n > 0 {
			put(c1, g.Eighths[n-1])
		}
	}
}

func renderCells(st *Styles, row []cell) string {
	var b strings.Builder
	var run strings.Builder
	sel := false
	flush := func() {
		if run.Len() == 0 {
			return
		}
		if sel {
			b.WriteString(st.SpanSel.Render(run.String()))
		} else {
			b.WriteString(run.String())
		}
		run.Reset()
	}
	for _, c := range row {
		glyph := c.glyph
		if glyph == "" {
			glyph = " "
		}
		if c.sel != sel {
			flush()
			sel = c.sel
		}
		run.WriteString(glyph)
	}
	flush()
	return strings.TrimRight(b.String(), " ")
}
