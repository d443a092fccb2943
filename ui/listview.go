package ui

import (
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"

	"github.com/hudiscope/hudiscope/internal/safetext"
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
	// tie orders items a numeric sort finds equal (nil: natural order).
	tie func(a, b int) bool
}

// listView is the virtualized, filterable, sortable list every pane shares (the Timeline
// draws its own rows over it). Items are indices 0..n-1 into the pane's own data; only the
// visible rows are rendered.
type listView struct {
	cols   []lvCol
	n      int
	cell   func(i, c int) string
	search func(i int) string // text the filter matches (lower-cased inside)
	mark   func(i int) string // optional one-cell marker after the cursor column
	// match replaces the search-text filter: it returns the predicate for a filter string.
	match func(filter string) func(i int) bool
	// base is the natural order (nil: 0..n-1).
	base []int

	sortBy int // -1: natural order; else index into cols
	idx    []int
	cursor int
	top    int
	page   int

	filter    string
	filtering bool
	input     textinput.Model
}

func newListView(cols []lvCol, n int, cell func(i, c int) string, search func(i int) string) *listView {
	l := &listView{cols: cols, n: n, cell: cell, search: search, sortBy: -1, page: 10, input: newInput()}
	l.apply(-1)
	return l
}

// newInput is a one-line text input with no prompt, no colour (NO_COLOR) and a steady cursor
// (a blinking one runs timers: noisy over SSH).
func newInput() textinput.Model {
	in := textinput.New()
	in.Prompt = ""
	in.SetStyles(textinput.Styles{})
	in.Focus()
	return in
}

// inputView draws in without the padding textinput adds after the cursor cell.
func inputView(in textinput.Model) string { return strings.TrimRight(in.View(), " ") }

// sizeInput gives the value width-1 cells (the cursor takes one more); the visible part is
// recomputed now so View stays read-only.
func sizeInput(in *textinput.Model, width int) {
	in.SetWidth(width - 1)
	in.SetCursor(in.Position())
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
	var ok func(i int) bool
	if terms := strings.Fields(strings.ToLower(l.filter)); len(terms) > 0 {
		if l.match != nil {
			ok = l.match(l.filter)
		} else {
			ok = func(i int) bool {
				s := strings.ToLower(l.search(i))
				for _, t := range terms {
					if !strings.Contains(s, t) {
						return false
					}
				}
				return true
			}
		}
	}
	l.idx = l.idx[:0]
	for p := 0; p < l.n; p++ {
		i := p
		if l.base != nil {
			i = l.base[p]
		}
		if ok == nil || ok(i) {
			l.idx = append(l.idx, i)
		}
	}
	if l.sortBy >= 0 {
		c := l.cols[l.sortBy]
		if c.num != nil {
			sort.SliceStable(l.idx, func(a, b int) bool {
				x, y := c.num(l.idx[a]), c.num(l.idx[b])
				if x == y && c.tie != nil {
					return c.tie(l.idx[a], l.idx[b])
				}
				return x > y
			})
		} else if c.txt != nil {
			sort.SliceStable(l.idx, func(a, b int) bool { return c.txt(l.idx[a]) < c.txt(l.idx[b]) })
		}
	}
	l.cursor = 0
	for p, i := range l.idx {
		if i == keep {
			l.cursor = p
			break
		}
	}
	l.clamp()
}

// sortable: some column sorts (s cycles them).
func (l *listView) sortable() bool {
	for _, c := range l.cols {
		if c.num != nil || c.txt != nil {
			return true
		}
	}
	return false
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

// listKeys are a listView's own keys; the pane adds enter and its letters.
type listKeys struct {
	navKeys
	Filter, Sort key.Binding
}

// keys are the list's keys in its state: movement when there are rows to move over, s only
// when a column sorts.
func (l *listView) keys(k KeyMap) listKeys {
	return listKeys{navKeys: k.Nav.when(len(l.idx) > 1), Filter: k.Filter, Sort: when(k.Sort, l.sortable())}
}

// update handles filter editing, movement and sort; it reports whether it used the message.
func (l *listView) update(k KeyMap, msg tea.Msg) bool {
	if l.filtering {
		return l.updateFilter(k.filterKeys(), msg)
	}
	lk := l.keys(k)
	switch msg := msg.(type) {
	case tea.MouseWheelMsg:
		return l.wheel(lk.Wheel, msg)
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, lk.Up):
			l.move(-1)
		case key.Matches(msg, lk.Down):
			l.move(1)
		case key.Matches(msg, lk.PageUp):
			l.move(-l.page)
		case key.Matches(msg, lk.PageDown):
			l.move(l.page)
		case key.Matches(msg, lk.Top):
			l.move(-len(l.idx))
		case key.Matches(msg, lk.Bottom):
			l.move(len(l.idx))
		case key.Matches(msg, lk.Sort):
			l.cycleSort()
		case key.Matches(msg, lk.Filter):
			l.filtering = true
			l.input.SetValue(l.filter)
			l.input.CursorEnd()
		default:
			return false
		}
		return true
	}
	return false
}

func (l *listView) wheel(b key.Binding, msg tea.MouseWheelMsg) bool {
	if !key.Matches(msg, b) {
		return false
	}
	if msg.Button == tea.MouseWheelUp {
		l.move(-3)
	} else {
		l.move(3)
	}
	return true
}

// updateFilter: the input has focus; keys other than the filter's own are text.
func (l *listView) updateFilter(k filterKeys, msg tea.Msg) bool {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Keep):
			l.filtering = false
		case key.Matches(msg, k.Clear):
			l.closeFilter()
		case key.Matches(msg, k.Up):
			l.move(-1)
		case key.Matches(msg, k.Down):
			l.move(1)
		case key.Matches(msg, k.PageUp):
			l.move(-l.page)
		case key.Matches(msg, k.PageDown):
			l.move(l.page)
		default:
			l.edit(msg)
		}
		return true
	case tea.PasteMsg:
		l.edit(msg)
		return true
	case tea.MouseWheelMsg:
		return l.wheel(k.Wheel, msg)
	}
	return false
}

func (l *listView) edit(msg tea.Msg) {
	l.input, _ = l.input.Update(msg)
	if v := l.input.Value(); v != l.filter {
		l.filter = v
		l.apply(l.selected())
	}
}

// closeFilter leaves the filter input or clears an applied filter; false if neither.
func (l *listView) closeFilter() bool {
	if !l.filtering && l.filter == "" {
		return false
	}
	l.filtering = false
	l.filter = ""
	l.input.SetValue("")
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
			v := trunc(safetext.Terminal(l.cell(i, ci)), widths[j], g.Ellipsis) // cells are data, never styled
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

// sizeFooter fits the filter input to the footer (see footer).
func (l *listView) sizeFooter(width int, what string) { sizeInput(&l.input, width-20-len(what)) }

// footer is the filter line: the input while typing, the applied filter, or "".
func (l *listView) footer(c *Common, width int, what string) string {
	st := c.Styles
	switch {
	case l.filtering:
		return clip(" "+st.Key.Render("/")+" filter "+what+": "+inputView(l.input), width)
	case l.filter != "":
		return clip(" filter \""+l.filter+"\": "+itoa(len(l.idx))+" of "+itoa(l.n)+" "+what+" · "+c.Keys.Back.Help().Key+" clears", width)
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

// pager is a drill-down text view scrolled by a bubbles viewport. It draws the viewport's
// window itself: viewport.View pads every line to the full width.
type pager struct {
	vp    viewport.Model
	lines []string
}

func newPager() *pager { return &pager{vp: viewport.New()} }

// set replaces the text and the view's size, keeping the scroll position where it fits.
func (p *pager) set(lines []string, width, height int) {
	for i, l := range lines {
		if sl := safeLine(l); sl != l {
			lines[i] = clip(sl, width)
		}
	}
	p.lines = lines
	p.vp.SetWidth(max(1, width))
	p.vp.SetHeight(max(1, height))
	p.vp.SetContentLines(lines)
	p.vp.SetYOffset(p.vp.YOffset())
}

// keys are the scroll keys, enabled when the text does not fit.
func (p *pager) keys(nav navKeys) pagerKeys {
	return pagerKeys{nav.when(len(p.lines) > p.vp.Height())}
}

func (p *pager) update(k navKeys, msg tea.Msg) bool {
	switch msg := msg.(type) {
	case tea.MouseWheelMsg:
		if !key.Matches(msg, k.Wheel) {
			return false
		}
		if msg.Button == tea.MouseWheelUp {
			p.vp.ScrollUp(3)
		} else {
			p.vp.ScrollDown(3)
		}
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Up):
			p.vp.ScrollUp(1)
		case key.Matches(msg, k.Down):
			p.vp.ScrollDown(1)
		case key.Matches(msg, k.PageUp):
			p.vp.PageUp()
		case key.Matches(msg, k.PageDown):
			p.vp.PageDown()
		case key.Matches(msg, k.Top):
			p.vp.GotoTop()
		case key.Matches(msg, k.Bottom):
			p.vp.GotoBottom()
		default:
			return false
		}
	default:
		return false
	}
	return true
}

// view is the visible window of lines.
func (p *pager) view() []string {
	top := min(p.vp.YOffset(), len(p.lines))
	return p.lines[top:min(top+p.vp.Height(), len(p.lines))]
}

func (p *pager) status() string {
	n, h, top := len(p.lines), p.vp.Height(), p.vp.YOffset()
	if n <= h {
		return ""
	}
	return "lines " + itoa(top+1) + "-" + itoa(min(top+h, n)) + " of " + itoa(n)
}

// ---- shared helpers of the analysis panes ----

// isASCII reports whether the glyph set is the ASCII one.
func isASCII(g Glyphs) bool { return g.Full != "█" }

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

// focusItem selects item i, clearing a filter that hides it; false when i is not listed.
func (l *listView) focusItem(i int) bool {
	if i < 0 || i >= l.n {
		return false
	}
	for _, hidden := range []bool{false, true} {
		if hidden {
			l.closeFilter()
		}
		for p, x := range l.idx {
			if x == i {
				l.cursor = p
				l.clamp()
				return true
			}
		}
	}
	return false
}

// clickRow selects the row drawn at line y of a view whose first row is at line rowsY.
func (l *listView) clickRow(y, rowsY int) bool {
	p := l.top + y - rowsY
	if y < rowsY || y-rowsY >= l.page || p >= len(l.idx) {
		return false
	}
	l.cursor = p
	return true
}
