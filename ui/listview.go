package ui

import (
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// lvCol is one column of a listView.
type lvCol struct {
	title string
	width int // fixed width; the flex column gets what is left (at least width)
	right bool
	prio  int  // lower stays longer when the pane is narrow (0 always)
	flex  bool // takes the remaining width (flex columns share it in order, each up to maxW)
	maxW  int  // a flex column's largest width (0: no limit)
	// sort: numeric columns sort largest first, text columns A→Z; nil = not sortable.
	num func(i int) float64
	txt func(i int) string
}

// listView is the virtualized, filterable, sortable table the analysis panes share. Items are
// indices 0..n-1 into the pane's own data; only the visible rows are rendered.
type listView struct {
	cols   []lvCol
	n      int
	cell   func(i, c int) string
	search func(i int) string // text the filter matches (lower-cased inside)
	mark   func(i int) string // optional one-cell marker after the cursor column

	sortBy int // -1: natural order; else index into cols
	idx    []int
	cursor int
	top    int
	page   int

	filter    string
	filtering bool
	edit      lineInput
}

func newListView(cols []lvCol, n int, cell func(i, c int) string, search func(i int) string) *listView {
	l := &listView{cols: cols, n: n, cell: cell, search: search, sortBy: -1, page: 10}
	l.apply(-1)
	return l
}

// selected is the item under the cursor (-1 if none).
func (l *listView) selected() int {
	if l.cursor >= 0 && l.cursor < len(l.idx) {
		return l.idx[l.cursor]
	}
	return -1
}

// apply recomputes the visible order from sort and filter, keeping item keep selected.
func (l *listView) apply(keep int) {
	terms := strings.Fields(strings.ToLower(l.filter))
	l.idx = l.idx[:0]
	for i := 0; i < l.n; i++ {
		if len(terms) > 0 {
			s := strings.ToLower(l.search(i))
			ok := true
			for _, t := range terms {
				if !strings.Contains(s, t) {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
		}
		l.idx = append(l.idx, i)
	}
	if l.sortBy >= 0 {
		c := l.cols[l.sortBy]
		if c.num != nil {
			sort.SliceStable(l.idx, func(a, b int) bool { return c.num(l.idx[a]) > c.num(l.idx[b]) })
		} else if c.txt != nil {
			sort.SliceStable(l.idx, func(a, b int) bool { return c.txt(l.idx[a]) < c.txt(l.idx[b]) })
		}
	}
	l.cursor = 0
	for p, i := range l.idx {
		if i == keep {
			l.cursor = p
		}
	}
	l.clamp()
}

// cycleSort moves to the next sortable column, then back to the natural order.
func (l *listView) cycleSort() {
	next := -1
	for c := l.sortBy + 1; c < len(l.cols); c++ {
		if l.cols[c].num != nil || l.cols[c].txt != nil {
			next = c
			break
		}
	}
	l.sortBy = next
	l.apply(-1) // a new order starts at its first row
	l.top = 0
}

// sortName names the current order for status lines and exports.
func (l *listView) sortName(natural string) string {
	if l.sortBy < 0 {
		return natural
	}
	c := l.cols[l.sortBy]
	if c.num != nil {
		return c.title + ", largest first"
	}
	return c.title + ", A-Z"
}

func (l *listView) setPage(rows int) {
	l.page = max(1, rows)
	l.clamp()
}

func (l *listView) clamp() {
	n := len(l.idx)
	l.cursor = min(l.cursor, n-1)
	l.cursor = max(l.cursor, 0)
	if l.cursor < l.top {
		l.top = l.cursor
	}
	if l.cursor >= l.top+l.page {
		l.top = l.cursor - l.page + 1
	}
	l.top = min(l.top, n-l.page)
	l.top = max(l.top, 0)
}

func (l *listView) move(d int) { l.cursor += d; l.clamp() }

// visible returns the items in the order shown.
func (l *listView) visible() []int { return l.idx }

// update handles filter editing, movement and sort; it reports whether it used the message.
func (l *listView) update(k KeyMap, msg tea.Msg) bool {
	if l.filtering {
		if km, ok := msg.(tea.KeyPressMsg); ok {
			switch km.String() {
			case "enter":
				l.filtering = false
				return true
			case "esc":
				l.closeFilter()
				return true
			case "up", "down", "pgup", "pgdown":
			default:
				if l.edit.Update(msg) {
					l.filter = l.edit.Value()
					l.apply(l.selected())
				}
				return true
			}
		} else if l.edit.Update(msg) {
			l.filter = l.edit.Value()
			l.apply(l.selected())
			return true
		}
	}
	switch msg := msg.(type) {
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			l.move(-3)
		case tea.MouseWheelDown:
			l.move(3)
		}
		return true
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Up):
			l.move(-1)
		case key.Matches(msg, k.Down):
			l.move(1)
		case key.Matches(msg, k.PageUp):
			l.move(-l.page)
		case key.Matches(msg, k.PageDown):
			l.move(l.page)
		case key.Matches(msg, k.Top):
			l.move(-len(l.idx))
		case key.Matches(msg, k.Bottom):
			l.move(len(l.idx))
		case key.Matches(msg, k.Sort):
			l.cycleSort()
		case key.Matches(msg, k.Filter):
			l.filtering = true
			l.edit.Set(l.filter)
		default:
			return false
		}
		return true
	}
	return false
}

// closeFilter leaves the filter input or clears an applied filter; false if neither.
func (l *listView) closeFilter() bool {
	if !l.filtering && l.filter == "" {
		return false
	}
	l.filtering = false
	l.filter = ""
	l.edit.Set("")
	l.apply(l.selected())
	return true
}

// layout picks the columns that fit width (3 cells of gutter: cursor, mark, space) and the flex
// column's width.
func (l *listView) layout(width int) ([]int, []int) {
	used := 3 - 1
	take := make([]bool, len(l.cols))
	for p := 0; p <= 20; p++ {
		for i, c := range l.cols {
			if c.prio == p && !take[i] && used+1+c.width <= width {
				take[i] = true
				used += 1 + c.width
			}
		}
	}
	var cols, widths []int
	spare := max(0, width-used)
	for i, c := range l.cols {
		if take[i] {
			cols = append(cols, i)
			w := c.width
			if c.flex && spare > 0 {
				add := spare
				if c.maxW > 0 {
					add = min(add, max(0, c.maxW-c.width))
				}
				w += add
				spare -= add
			}
			widths = append(widths, w)
		}
	}
	return cols, widths
}

// header renders the column headings (sorted column marked).
func (l *listView) header(st *Styles, width int) string {
	cols, widths := l.layout(width)
	var b strings.Builder
	b.WriteString("   ")
	for j, ci := range cols {
		if j > 0 {
			b.WriteByte(' ')
		}
		c := l.cols[ci]
		t := c.title
		if ci == l.sortBy {
			t += " " + st.G.Sorted
			if cellWidth(t) > widths[j] {
				t = trunc(c.title, widths[j]-1, "") + st.G.Sorted
			}
		}
		if c.right {
			b.WriteString(padLeft(t, widths[j]))
		} else {
			b.WriteString(padRight(t, widths[j]))
		}
	}
	return st.ColHead.Render(padRight(strings.TrimRight(b.String(), " "), width))
}

// rows renders at most page visible rows; focused false draws no cursor highlight.
func (l *listView) rows(st *Styles, width int, focused bool) []string {
	cols, widths := l.layout(width)
	g := st.G
	end := min(l.top+l.page, len(l.idx))
	out := make([]string, 0, end-l.top)
	var b strings.Builder
	for p := l.top; p < end; p++ {
		i := l.idx[p]
		b.Reset()
		sel := p == l.cursor
		if sel {
			b.WriteString(g.Cursor)
		} else {
			b.WriteByte(' ')
		}
		m := " "
		if l.mark != nil {
			if s := l.mark(i); s != "" {
				m = s
			}
		}
		b.WriteString(m)
		b.WriteByte(' ')
		for j, ci := range cols {
			if j > 0 {
				b.WriteByte(' ')
			}
			v := trunc(l.cell(i, ci), widths[j], g.Ellipsis)
			if l.cols[ci].right {
				b.WriteString(padLeft(v, widths[j]))
			} else {
				b.WriteString(padRight(v, widths[j]))
			}
		}
		line := strings.TrimRight(b.String(), " ")
		if sel && focused {
			line = st.Cursor.Render(padRight(line, width))
		}
		out = append(out, line)
	}
	return out
}

// footer is the filter line: the input while typing, the applied filter, or "".
func (l *listView) footer(st *Styles, width int, what string) string {
	switch {
	case l.filtering:
		return clip(" "+st.Key.Render("/")+" filter "+what+": "+l.edit.View(st, width-20-len(what)), width)
	case l.filter != "":
		return clip(" filter \""+l.filter+"\": "+itoa(len(l.idx))+" of "+itoa(l.n)+" "+what+" · esc clears", width)
	}
	return ""
}

// status is "cursor/visible[ of total]".
func (l *listView) status() string {
	if len(l.idx) == 0 {
		return "0/" + itoa(l.n)
	}
	s := itoa(l.cursor+1) + "/" + itoa(len(l.idx))
	if len(l.idx) != l.n {
		s += " of " + itoa(l.n)
	}
	return s
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

// textView is a scrollable block of pre-rendered lines (drill-down detail views).
type textView struct {
	lines []string
	top   int
	page  int
}

func (t *textView) set(lines []string) { t.lines = lines; t.clamp() }

func (t *textView) clamp() {
	t.top = min(t.top, len(t.lines)-t.page)
	t.top = max(t.top, 0)
}

func (t *textView) update(k KeyMap, msg tea.Msg) bool {
	switch msg := msg.(type) {
	case tea.MouseWheelMsg:
		if msg.Button == tea.MouseWheelUp {
			t.top -= 3
		} else if msg.Button == tea.MouseWheelDown {
			t.top += 3
		}
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Up):
			t.top--
		case key.Matches(msg, k.Down):
			t.top++
		case key.Matches(msg, k.PageUp):
			t.top -= t.page
		case key.Matches(msg, k.PageDown):
			t.top += t.page
		case key.Matches(msg, k.Top):
			t.top = 0
		case key.Matches(msg, k.Bottom):
			t.top = len(t.lines)
		default:
			return false
		}
	default:
		return false
	}
	t.clamp()
	return true
}

// view renders page lines from top.
func (t *textView) view(page int) []string {
	t.page = max(1, page)
	t.clamp()
	end := min(t.top+t.page, len(t.lines))
	return t.lines[t.top:end]
}

func (t *textView) status() string {
	if len(t.lines) <= t.page {
		return ""
	}
	return "lines " + itoa(t.top+1) + "-" + itoa(min(t.top+t.page, len(t.lines))) + " of " + itoa(len(t.lines))
}

// ---- shared helpers of the analysis panes ----

// isASCII reports whether the glyph set is the ASCII one.
func isASCII(g Glyphs) bool { return g.Full != "█" }

// geSign is "≥", or ">=" with the ASCII set.
func geSign(g Glyphs) string {
	if isASCII(g) {
		return ">="
	}
	return "≥"
}

// asciiText replaces the few non-ASCII characters analyzer texts carry.
func asciiText(g Glyphs, s string) string {
	if !isASCII(g) {
		return s
	}
	return strings.NewReplacer("≥", ">=", "≤", "<=", "σ", "sd", "—", "-", "–", "-", "·", "-", "…", "...", "→", "->", "×", "x").Replace(s)
}

// barRow draws "label  bar  value" with the bar scaled to max.
func barRow(st *Styles, label string, labelW int, v, maxV float64, barW int, value string) string {
	bar := Bar(st.G, v, maxV, barW)
	return padRight(label, labelW) + " " + padRight(bar, barW) + " " + value
}

// noData renders a pane's plain "nothing here" message.
func noData(lines []string, width, height int) string {
	out := []string{""}
	for _, l := range lines {
		for _, w := range wrap(l, width-2) {
			out = append(out, " "+w)
		}
		out = append(out, "")
	}
	return fit(out, width, height)
}
