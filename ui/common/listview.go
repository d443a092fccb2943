package common

import (
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"

	"github.com/hudiscope/hudiscope/internal/safetext"
)

// LvCol is one column of a listView.
type LvCol struct {
	Title string
	Width int // fixed width; the flex column gets what is left (at least width)
	Right bool
	Prio  int  // lower stays longer when the pane is narrow (0 always)
	Flex  bool // takes the remaining width (flex columns share it in order, each up to maxW)
	MaxW  int  // a flex column's largest width (0: no limit)
	// sort: numeric columns sort largest first, text columns A→Z; nil = not sortable.
	Num func(i int) float64
	Txt func(i int) string
	// Tie orders items a numeric sort finds equal (nil: natural order).
	Tie func(a, b int) bool
}

// ListView is the virtualized, filterable, sortable list every pane shares (the Timeline
// draws its own rows over it). Items are indices 0..n-1 into the pane's own data; only the
// visible rows are rendered.
type ListView struct {
	Cols   []LvCol
	N      int
	cell   func(i, c int) string
	search func(i int) string // text the filter matches (lower-cased inside)
	Mark   func(i int) string // optional one-cell marker after the cursor column
	// Match replaces the search-text filter: it returns the predicate for a filter string.
	Match func(filter string) func(i int) bool
	// Base is the natural order (nil: 0..n-1).
	Base []int

	SortBy int // -1: natural order; else index into cols
	Idx    []int
	Cursor int
	Top    int
	Page   int

	Filter    string
	Filtering bool
	Input     textinput.Model
}

func NewListView(cols []LvCol, n int, cell func(i, c int) string, search func(i int) string) *ListView {
	l := &ListView{Cols: cols, N: n, cell: cell, search: search, SortBy: -1, Page: 10, Input: NewInput()}
	l.Apply(-1)
	return l
}

// NewInput is a one-line text input with no prompt, no colour (NO_COLOR) and a steady cursor
// (a blinking one runs timers: noisy over SSH).
func NewInput() textinput.Model {
	in := textinput.New()
	in.Prompt = ""
	in.SetStyles(textinput.Styles{})
	in.Focus()
	return in
}

// InputView draws in without the padding textinput adds after the cursor cell.
func InputView(in textinput.Model) string { return strings.TrimRight(in.View(), " ") }

// SizeInput gives the value width-1 cells (the cursor takes one more); the visible part is
// recomputed now so View stays read-only.
func SizeInput(in *textinput.Model, width int) {
	in.SetWidth(width - 1)
	in.SetCursor(in.Position())
}

// Selected is the item under the cursor (-1 if none).
func (l *ListView) Selected() int {
	if l.Cursor >= 0 && l.Cursor < len(l.Idx) {
		return l.Idx[l.Cursor]
	}
	return -1
}

// Apply recomputes the visible order from sort and filter, keeping item keep selected.
func (l *ListView) Apply(keep int) {
	var ok func(i int) bool
	if terms := strings.Fields(strings.ToLower(l.Filter)); len(terms) > 0 {
		if l.Match != nil {
			ok = l.Match(l.Filter)
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
	l.Idx = l.Idx[:0]
	for p := 0; p < l.N; p++ {
		i := p
		if l.Base != nil {
			i = l.Base[p]
		}
		if ok == nil || ok(i) {
			l.Idx = append(l.Idx, i)
		}
	}
	if l.SortBy >= 0 {
		c := l.Cols[l.SortBy]
		if c.Num != nil {
			sort.SliceStable(l.Idx, func(a, b int) bool {
				x, y := c.Num(l.Idx[a]), c.Num(l.Idx[b])
				if x == y && c.Tie != nil {
					return c.Tie(l.Idx[a], l.Idx[b])
				}
				return x > y
			})
		} else if c.Txt != nil {
			sort.SliceStable(l.Idx, func(a, b int) bool { return c.Txt(l.Idx[a]) < c.Txt(l.Idx[b]) })
		}
	}
	l.Cursor = 0
	for p, i := range l.Idx {
		if i == keep {
			l.Cursor = p
			break
		}
	}
	l.clamp()
}

// sortable: some column sorts (s cycles them).
func (l *ListView) sortable() bool {
	for _, c := range l.Cols {
		if c.Num != nil || c.Txt != nil {
			return true
		}
	}
	return false
}

// CycleSort moves to the next sortable column, then back to the natural order.
func (l *ListView) CycleSort() {
	next := -1
	for c := l.SortBy + 1; c < len(l.Cols); c++ {
		if l.Cols[c].Num != nil || l.Cols[c].Txt != nil {
			next = c
			break
		}
	}
	l.SortBy = next
	l.Apply(-1) // a new order starts at its first row
	l.Top = 0
}

// SortName names the current order for status lines and exports.
func (l *ListView) SortName(natural string) string {
	if l.SortBy < 0 {
		return natural
	}
	c := l.Cols[l.SortBy]
	if c.Num != nil {
		return c.Title + ", largest first"
	}
	return c.Title + ", A-Z"
}

func (l *ListView) SetPage(rows int) {
	l.Page = max(1, rows)
	l.clamp()
}

func (l *ListView) clamp() {
	n := len(l.Idx)
	l.Cursor = min(l.Cursor, n-1)
	l.Cursor = max(l.Cursor, 0)
	if l.Cursor < l.Top {
		l.Top = l.Cursor
	}
	if l.Cursor >= l.Top+l.Page {
		l.Top = l.Cursor - l.Page + 1
	}
	l.Top = min(l.Top, n-l.Page)
	l.Top = max(l.Top, 0)
}

func (l *ListView) move(d int) { l.Cursor += d; l.clamp() }

// Visible returns the items in the order shown.
func (l *ListView) Visible() []int { return l.Idx }

// ListKeys are a listView's own keys; the pane adds enter and its letters.
type ListKeys struct {
	NavKeys
	Filter, Sort key.Binding
}

// Keys are the list's keys in its state: movement when there are rows to move over, s only
// when a column sorts.
func (l *ListView) Keys(k KeyMap) ListKeys {
	return ListKeys{NavKeys: k.Nav.When(len(l.Idx) > 1), Filter: k.Filter, Sort: When(k.Sort, l.sortable())}
}

// update handles filter editing, movement and sort; it reports whether it used the message.
func (l *ListView) Handle(k KeyMap, msg tea.Msg) bool {
	if l.Filtering {
		return l.updateFilter(k.FilterKeys(), msg)
	}
	lk := l.Keys(k)
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
			l.move(-l.Page)
		case key.Matches(msg, lk.PageDown):
			l.move(l.Page)
		case key.Matches(msg, lk.Top):
			l.move(-len(l.Idx))
		case key.Matches(msg, lk.Bottom):
			l.move(len(l.Idx))
		case key.Matches(msg, lk.Sort):
			l.CycleSort()
		case key.Matches(msg, lk.Filter):
			l.Filtering = true
			l.Input.SetValue(l.Filter)
			l.Input.CursorEnd()
		default:
			return false
		}
		return true
	}
	return false
}

func (l *ListView) wheel(b key.Binding, msg tea.MouseWheelMsg) bool {
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
func (l *ListView) updateFilter(k FilterKeys, msg tea.Msg) bool {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Keep):
			l.Filtering = false
		case key.Matches(msg, k.Clear):
			l.CloseFilter()
		case key.Matches(msg, k.Up):
			l.move(-1)
		case key.Matches(msg, k.Down):
			l.move(1)
		case key.Matches(msg, k.PageUp):
			l.move(-l.Page)
		case key.Matches(msg, k.PageDown):
			l.move(l.Page)
		default:
			l.Edit(msg)
		}
		return true
	case tea.PasteMsg:
		l.Edit(msg)
		return true
	case tea.MouseWheelMsg:
		return l.wheel(k.Wheel, msg)
	}
	return false
}

func (l *ListView) Edit(msg tea.Msg) {
	l.Input, _ = l.Input.Update(msg)
	if v := l.Input.Value(); v != l.Filter {
		l.Filter = v
		l.Apply(l.Selected())
	}
}

// CloseFilter leaves the filter input or clears an applied filter; false if neither.
func (l *ListView) CloseFilter() bool {
	if !l.Filtering && l.Filter == "" {
		return false
	}
	l.Filtering = false
	l.Filter = ""
	l.Input.SetValue("")
	l.Apply(l.Selected())
	return true
}

// layout picks the columns that fit width (3 cells of gutter: cursor, mark, space) and the flex
// column's width.
func (l *ListView) layout(width int) ([]int, []int) {
	used := 3 - 1
	take := make([]bool, len(l.Cols))
	for p := 0; p <= 20; p++ {
		for i, c := range l.Cols {
			if c.Prio == p && !take[i] && used+1+c.Width <= width {
				take[i] = true
				used += 1 + c.Width
			}
		}
	}
	var cols, widths []int
	spare := max(0, width-used)
	for i, c := range l.Cols {
		if take[i] {
			cols = append(cols, i)
			w := c.Width
			if c.Flex && spare > 0 {
				add := spare
				if c.MaxW > 0 {
					add = min(add, max(0, c.MaxW-c.Width))
				}
				w += add
				spare -= add
			}
			widths = append(widths, w)
		}
	}
	return cols, widths
}

// Header renders the column headings (sorted column marked).
func (l *ListView) Header(st *Styles, width int) string {
	cols, widths := l.layout(width)
	var b strings.Builder
	b.WriteString("   ")
	for j, ci := range cols {
		if j > 0 {
			b.WriteByte(' ')
		}
		c := l.Cols[ci]
		t := c.Title
		if ci == l.SortBy {
			t += " " + st.G.Sorted
			if CellWidth(t) > widths[j] {
				t = Trunc(c.Title, widths[j]-1, "") + st.G.Sorted
			}
		}
		if c.Right {
			b.WriteString(PadLeft(t, widths[j]))
		} else {
			b.WriteString(PadRight(t, widths[j]))
		}
	}
	return st.ColHead.Render(PadRight(strings.TrimRight(b.String(), " "), width))
}

// Rows renders at most page visible rows; focused false draws no cursor highlight.
func (l *ListView) Rows(st *Styles, width int, focused bool) []string {
	cols, widths := l.layout(width)
	g := st.G
	end := min(l.Top+l.Page, len(l.Idx))
	out := make([]string, 0, end-l.Top)
	var b strings.Builder
	for p := l.Top; p < end; p++ {
		i := l.Idx[p]
		b.Reset()
		sel := p == l.Cursor
		if sel {
			b.WriteString(g.Cursor)
		} else {
			b.WriteByte(' ')
		}
		m := " "
		if l.Mark != nil {
			if s := l.Mark(i); s != "" {
				m = s
			}
		}
		b.WriteString(m)
		b.WriteByte(' ')
		for j, ci := range cols {
			if j > 0 {
				b.WriteByte(' ')
			}
			v := Trunc(safetext.Terminal(l.cell(i, ci)), widths[j], g.Ellipsis) // cells are data, never styled
			if l.Cols[ci].Right {
				b.WriteString(PadLeft(v, widths[j]))
			} else {
				b.WriteString(PadRight(v, widths[j]))
			}
		}
		line := strings.TrimRight(b.String(), " ")
		if sel && focused {
			line = st.Cursor.Render(PadRight(line, width))
		}
		out = append(out, line)
	}
	return out
}

// SizeFooter fits the filter input to the footer (see footer).
func (l *ListView) SizeFooter(width int, what string) { SizeInput(&l.Input, width-20-len(what)) }

// Footer is the filter line: the input while typing, the applied filter, or "".
func (l *ListView) Footer(c *Common, width int, what string) string {
	st := c.Styles
	switch {
	case l.Filtering:
		return Clip(" "+st.Key.Render("/")+" filter "+what+": "+InputView(l.Input), width)
	case l.Filter != "":
		return Clip(" filter \""+l.Filter+"\": "+Itoa(len(l.Idx))+" of "+Itoa(l.N)+" "+what+" · "+c.Keys.Back.Help().Key+" clears", width)
	}
	return ""
}

// Status is "cursor/visible[ of total]".
func (l *ListView) Status() string {
	if len(l.Idx) == 0 {
		return "0/" + Itoa(l.N)
	}
	s := Itoa(l.Cursor+1) + "/" + Itoa(len(l.Idx))
	if len(l.Idx) != l.N {
		s += " of " + Itoa(l.N)
	}
	return s
}

func Itoa(n int) string {
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

// Pager is a drill-down text view scrolled by a bubbles viewport. It draws the viewport's
// window itself: viewport.View pads every line to the full width.
type Pager struct {
	Vp    viewport.Model
	Lines []string
}

func NewPager() *Pager { return &Pager{Vp: viewport.New()} }

// Set replaces the text and the view's size, keeping the scroll position where it fits.
func (p *Pager) Set(lines []string, width, height int) {
	for i, l := range lines {
		if sl := SafeLine(l); sl != l {
			lines[i] = Clip(sl, width)
		}
	}
	p.Lines = lines
	p.Vp.SetWidth(max(1, width))
	p.Vp.SetHeight(max(1, height))
	p.Vp.SetContentLines(lines)
	p.Vp.SetYOffset(p.Vp.YOffset())
}

// Keys are the scroll keys, enabled when the text does not fit.
func (p *Pager) Keys(nav NavKeys) PagerKeys {
	return PagerKeys{nav.When(len(p.Lines) > p.Vp.Height())}
}

func (p *Pager) Handle(k NavKeys, msg tea.Msg) bool {
	switch msg := msg.(type) {
	case tea.MouseWheelMsg:
		if !key.Matches(msg, k.Wheel) {
			return false
		}
		if msg.Button == tea.MouseWheelUp {
			p.Vp.ScrollUp(3)
		} else {
			p.Vp.ScrollDown(3)
		}
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Up):
			p.Vp.ScrollUp(1)
		case key.Matches(msg, k.Down):
			p.Vp.ScrollDown(1)
		case key.Matches(msg, k.PageUp):
			p.Vp.PageUp()
		case key.Matches(msg, k.PageDown):
			p.Vp.PageDown()
		case key.Matches(msg, k.Top):
			p.Vp.GotoTop()
		case key.Matches(msg, k.Bottom):
			p.Vp.GotoBottom()
		default:
			return false
		}
	default:
		return false
	}
	return true
}

// view is the visible window of lines.
func (p *Pager) VisibleLines() []string {
	top := min(p.Vp.YOffset(), len(p.Lines))
	return p.Lines[top:min(top+p.Vp.Height(), len(p.Lines))]
}

func (p *Pager) Status() string {
	n, h, top := len(p.Lines), p.Vp.Height(), p.Vp.YOffset()
	if n <= h {
		return ""
	}
	return "lines " + Itoa(top+1) + "-" + Itoa(min(top+h, n)) + " of " + Itoa(n)
}

// ---- shared helpers of the analysis panes ----

// IsASCII reports whether the glyph set is the ASCII one.
func IsASCII(g Glyphs) bool { return g.Full != "█" }

// AsciiText replaces the few non-ASCII characters analyzer texts carry.
func AsciiText(g Glyphs, s string) string {
	if !IsASCII(g) {
		return s
	}
	return strings.NewReplacer("≥", ">=", "≤", "<=", "σ", "sd", "—", "-", "–", "-", "·", "-", "…", "...", "→", "->", "×", "x").Replace(s)
}

// BarRow draws "label  bar  value" with the bar scaled to max.
func BarRow(st *Styles, label string, labelW int, v, maxV float64, barW int, value string) string {
	bar := Bar(st.G, v, maxV, barW)
	return PadRight(label, labelW) + " " + PadRight(bar, barW) + " " + value
}

// NoData renders a pane's plain "nothing here" message.
func NoData(lines []string, width, height int) string {
	out := []string{""}
	for _, l := range lines {
		for _, w := range Wrap(l, width-2) {
			out = append(out, " "+w)
		}
		out = append(out, "")
	}
	return Fit(out, width, height)
}

// FocusItem selects item i, clearing a filter that hides it; false when i is not listed.
func (l *ListView) FocusItem(i int) bool {
	if i < 0 || i >= l.N {
		return false
	}
	for _, hidden := range []bool{false, true} {
		if hidden {
			l.CloseFilter()
		}
		for p, x := range l.Idx {
			if x == i {
				l.Cursor = p
				l.clamp()
				return true
			}
		}
	}
	return false
}

// ClickRow selects the row drawn at line y of a view whose first row is at line rowsY.
func (l *ListView) ClickRow(y, rowsY int) bool {
	p := l.Top + y - rowsY
	if y < rowsY || y-rowsY >= l.Page || p >= len(l.Idx) {
		return false
	}
	l.Cursor = p
	return true
}
