package timeline

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/internal/safetext"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
	"github.com/hudiscope/hudiscope/ui/common"
	"github.com/hudiscope/hudiscope/view"
)

// DetailMsg carries an instant's details read in a Cmd.
type DetailMsg struct {
	In  *timeline.Instant
	D   *timeline.Details
	err error
	// snap reads the rows of a write (the Rows tab).
	snap *model.Snapshot
}

func loadDetail(s *model.Snapshot, in *timeline.Instant) tea.Cmd {
	return func() tea.Msg {
		d, err := s.InstantDetails(context.Background(), in)
		return DetailMsg{In: in, D: d, err: err, snap: s}
	}
}

// Dtable is one table of the detail as the pane lays it out: a view.DetailTable's texts and
// sort keys (fromView), sorted in place; the pane computes none of its cells.
type Dtable struct {
	Name    string
	Headers []string
	Right   []bool
	Rows    [][]string
	nums    [][]float64 // numeric sort key per cell; NaN for text cells
	mid     []bool      // columns cut in the middle (long ids keep their ends)
	keep    []bool      // columns never shrunk to fit (a row's record key)
	// partCol is 1 + the column holding a partition (rows link to Layout); 0: none.
	partCol int
	// GroupCol is 1 + the column holding a file id (rows link to the file group); 0: none.
	GroupCol int
	// raw is the JSON a key/value fallback table was flattened from (the export keeps it).
	raw []string
}

// fromView is a view table as the detail lays it out: its cells' texts, and the number each
// sorts by (NaN for text).
func fromView(v view.DetailTable) *Dtable {
	t := &Dtable{Name: v.Title, Headers: v.Columns, Right: v.Right, mid: v.Mid, keep: v.Keep, partCol: v.PartCol, GroupCol: v.GroupCol, raw: v.Raw}
	for i, r := range v.Rows {
		num := make([]float64, len(r))
		for j, c := range r {
			num[j] = math.NaN()
			if c.Numeric {
				num[j] = c.Num
			}
		}
		t.Rows = append(t.Rows, v.Texts(i))
		t.nums = append(t.nums, num)
	}
	return t
}

// InstantDetail is the drill-down view of one instant.
type InstantDetail struct {
	In      *timeline.Instant
	loading bool
	Err     error
	Info    [][2]string
	Notes   []string
	Tables  []*Dtable
	table   int // shown table
	SortCol int // -1: stored order
	Cursor  int
	top     int
	Page    int // rows shown (reflow)
	km      detailKeys
	// hasLayout, hasEventLog: the snapshot has the pane a link goes to.
	hasLayout, hasEventLog bool
	// Rows is the Rows tab of a write (nil for other instants).
	Rows *rowsTab
}

// detailKeys are an instant's keys: move in the shown table, sort it, switch tables.
type detailKeys struct {
	common.NavKeys
	Sort, Table, Layout, Stages key.Binding
	// Rows opens the Rows tab; Find looks for a record key there (FindGo runs it, FindCancel
	// closes the input).
	Rows, Find, FindGo, FindCancel key.Binding
}

func (k detailKeys) ShortHelp() []key.Binding {
	return common.Enabled(k.FindGo, k.FindCancel, k.Sort, k.Table, k.Rows, k.Find, k.Layout, k.Stages)
}
func (k detailKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.All(), {k.Sort, k.Table, k.Rows, k.Find, k.FindGo, k.FindCancel, k.Layout, k.Stages}}
}
func (k detailKeys) HelpTitles() []string { return []string{"Move", "Instant"} }

// Keys are the keys that act on what is shown: more than one row to move over or sort, more
// than one table to switch.
func (d *InstantDetail) Keys(c *common.Common) detailKeys {
	k := d.km
	t := d.Shown()
	onRows := d.Rows != nil && t == d.Rows.Tbl
	if onRows && d.Rows.finding {
		// The find input has focus: every other key is text.
		k.NavKeys = c.Keys.Nav.When(false)
		for _, b := range []*key.Binding{&k.Sort, &k.Table, &k.Layout, &k.Stages, &k.Rows, &k.Find} {
			b.SetEnabled(false)
		}
		return k
	}
	k.FindGo.SetEnabled(false)
	k.FindCancel.SetEnabled(false)
	k.NavKeys = c.Keys.Nav.When(t != nil && (len(t.Rows) > 1 || onRows && d.Rows.Total > 1))
	k.Sort = common.When(c.Keys.Sort, t != nil && len(t.Rows) > 1 && !onRows)
	k.Rows = common.When(k.Rows, t != nil && d.Rows != nil && !onRows)
	k.Find = common.When(k.Find, onRows && d.Rows.Total > 0 && !d.Rows.loading)
	k.Table = common.When(k.Table, t != nil && len(d.Tables) > 1)
	k.Layout = common.When(k.Layout, t != nil && t.partCol > 0 && len(t.Rows) > 0 && d.hasLayout)
	if t != nil && t.GroupCol > 0 {
		k.Layout.SetHelp("enter", "file group of the row (Layout)")
	}
	k.Stages = common.When(k.Stages, d.hasEventLog)
	return k
}

// Shown is the table on screen (nil while loading or after an error).
func (d *InstantDetail) Shown() *Dtable {
	if d.loading || d.Err != nil {
		return nil
	}
	return d.cur()
}

func NewInstantDetail(in *timeline.Instant) *InstantDetail {
	d := &InstantDetail{In: in, loading: true, SortCol: -1, Page: 1,
		km: detailKeys{Table: common.Bind("t", "next table", "t"), Layout: common.Bind("enter", "partition of the row (Layout)", "enter"),
			Stages: common.Bind("S", "Spark stages", "S"), Rows: common.Bind("r", "rows this write left", "r"),
			Find: common.Bind("/", "find a record key", "/"), FindGo: common.Bind("enter", "find", "enter"), FindCancel: common.Bind("esc", "cancel", "esc")}}
	d.Info = view.InstantInfo(in)
	return d
}

func (d *InstantDetail) crumb() string {
	return d.In.RequestedTime + " " + d.In.Action
}

// Set shows the details read; a write gets its Rows tab after the view's tables.
func (d *InstantDetail) Set(m DetailMsg) {
	d.loading = false
	d.Err = m.err
	if m.D == nil {
		return
	}
	v := view.InstantDetail(d.In, m.D)
	d.Info, d.Notes = v.Info, v.Notes
	for _, t := range v.Tables {
		d.Tables = append(d.Tables, fromView(t))
	}
	if m.snap != nil && model.ReturnsRows(d.In) {
		d.Rows = newRowsTab(m.snap, d.In)
		d.Tables = append(d.Tables, d.Rows.Tbl)
	}
}

func (d *InstantDetail) cur() *Dtable {
	if d.table < len(d.Tables) {
		return d.Tables[d.table]
	}
	return nil
}

// Capturing is true while the Rows tab's find input has focus.
func (d *InstantDetail) Capturing() bool {
	return d.Rows != nil && d.Rows.finding && d.Shown() == d.Rows.Tbl
}

// openRows shows the Rows tab, reading its first page the first time.
func (d *InstantDetail) openRows() tea.Cmd {
	for i, t := range d.Tables {
		if t == d.Rows.Tbl {
			d.table = i
		}
	}
	d.Cursor, d.top, d.SortCol = 0, 0, -1
	if d.Rows.Total < 0 && !d.Rows.loading {
		return d.Rows.load(0, "")
	}
	return nil
}

func (d *InstantDetail) Handle(c *common.Common, msg tea.Msg) tea.Cmd {
	k := d.Keys(c)
	t := d.Shown()
	if m, ok := msg.(rowsMsg); ok {
		if d.Rows != nil && m.in == d.In {
			d.Rows.Set(d, m)
		}
		return nil
	}
	if d.Rows != nil && t == d.Rows.Tbl {
		if cmd, handled := d.Rows.Handle(d, k, msg); handled {
			return cmd
		}
	}
	n := 0
	if t != nil {
		n = len(t.Rows)
	}
	move := func(delta int) {
		d.Cursor = max(0, min(n-1, d.Cursor+delta))
	}
	switch msg := msg.(type) {
	case tea.MouseWheelMsg:
		if key.Matches(msg, k.Wheel) {
			if msg.Button == tea.MouseWheelUp {
				move(-3)
			} else {
				move(3)
			}
		}
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Up):
			move(-1)
		case key.Matches(msg, k.Down):
			move(1)
		case key.Matches(msg, k.PageUp):
			move(-d.Page)
		case key.Matches(msg, k.PageDown):
			move(d.Page)
		case key.Matches(msg, k.Top):
			move(-n)
		case key.Matches(msg, k.Bottom):
			move(n)
		case key.Matches(msg, k.Layout):
			p := t.Rows[d.Cursor][t.partCol-1]
			if p == view.PartName("") {
				p = ""
			}
			j := common.JumpPartition{Path: p}
			if t.GroupCol > 0 {
				j.FileGroup = t.Rows[d.Cursor][t.GroupCol-1]
			}
			return common.JumpTo(j)
		case key.Matches(msg, k.Stages):
			return common.JumpTo(common.JumpInstantStages{Requested: d.In.RequestedTime})
		case key.Matches(msg, k.Rows):
			return d.openRows()
		case key.Matches(msg, k.Table):
			d.table = (d.table + 1) % len(d.Tables)
			d.Cursor, d.top, d.SortCol = 0, 0, -1
			if d.Rows != nil && d.cur() == d.Rows.Tbl {
				return d.openRows()
			}
		case key.Matches(msg, k.Sort):
			d.SortCol++
			if d.SortCol >= len(t.Headers) {
				d.SortCol = 0
			}
			d.sortBy(t, d.SortCol)
			d.Cursor, d.top = 0, 0
		}
	}
	return nil
}

// sortBy orders rows by column c: numbers descending (largest first), text ascending.
func (d *InstantDetail) sortBy(t *Dtable, c int) {
	idx := make([]int, len(t.Rows))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		x, y := t.nums[idx[a]][c], t.nums[idx[b]][c]
		if !math.IsNaN(x) && !math.IsNaN(y) {
			return x > y
		}
		return t.Rows[idx[a]][c] < t.Rows[idx[b]][c]
	})
	rows := make([][]string, len(idx))
	nums := make([][]float64, len(idx))
	for i, j := range idx {
		rows[i], nums[i] = t.Rows[j], t.nums[j]
	}
	t.Rows, t.nums = rows, nums
}

func (d *InstantDetail) Status() string {
	t := d.cur()
	if d.Rows != nil && t == d.Rows.Tbl {
		if d.Rows.Total <= 0 || len(t.Rows) == 0 {
			return ""
		}
		return fmt.Sprintf("[%d/%d] rows %d/%d", d.table+1, len(d.Tables), d.Rows.abs(d)+1, d.Rows.Total)
	}
	if t == nil || len(t.Rows) == 0 {
		return ""
	}
	s := fmt.Sprintf("%s %d/%d", t.Name, d.Cursor+1, len(t.Rows))
	if len(d.Tables) > 1 {
		s = fmt.Sprintf("[%d/%d] ", d.table+1, len(d.Tables)) + s
	}
	return s
}

// Head is the lines above the table's rows: info, notes, the table names and headers; done
// is true when there is no table to show under them.
func (d *InstantDetail) Head(c *common.Common, width, height int) (lines []string, done bool) {
	st := c.Styles
	for _, kv := range d.Info {
		for i, l := range common.Wrap(kv[0]+": "+safetext.Terminal(kv[1]), width-3) {
			if i == 0 {
				l = st.Dim.Render(kv[0]+":") + strings.TrimPrefix(l, kv[0]+":")
				lines = append(lines, " "+l)
			} else {
				lines = append(lines, "   "+l)
			}
		}
	}
	for _, n := range d.Notes {
		lines = append(lines, common.Clip(" "+st.Warn.Render(st.G.Warn+" "+safetext.Terminal(n)), width))
	}
	switch {
	case d.loading:
		return append(lines, "", " reading the instant's plan and metadata..."), true
	case d.Err != nil:
		return append(lines, "", " "+st.Bad.Render("could not read details: "+safetext.Terminal(d.Err.Error()))), true
	}
	t := d.cur()
	if t == nil {
		return lines, true
	}
	// Keep at least a third of the height for rows when info is long.
	if maxInfo := height - 4; len(lines) > maxInfo && maxInfo > 0 {
		lines = lines[:maxInfo]
	}
	name := func(o *Dtable) string {
		if d.Rows != nil && o == d.Rows.Tbl {
			return d.Rows.title()
		}
		return o.Name
	}
	title := name(t)
	if len(d.Tables) > 1 {
		var names []string
		for i, o := range d.Tables {
			if i == d.table {
				names = append(names, "["+name(o)+"]")
			} else {
				names = append(names, name(o))
			}
		}
		title = strings.Join(names, "  ") + "   (" + d.km.Table.Help().Key + ": next table)"
	}
	lines = append(lines, "", " "+st.ColHead.Render(common.Clip(title, width-1)))
	if d.Rows != nil && t == d.Rows.Tbl {
		lines = append(lines, d.Rows.lines(st, width)...)
	}
	widths := colWidths(t, width-2)
	hdr := make([]string, len(t.Headers))
	for i, h := range t.Headers {
		if i == d.SortCol {
			h += st.G.Sorted
		}
		hdr[i] = h
	}
	return append(lines, st.ColHead.Render(common.PadRight("  "+JoinCells(hdr, widths, t.Right, nil, st.G), width))), false
}

// Reflow sets the page and scrolls the cursor into it.
func (d *InstantDetail) Reflow(c *common.Common, width, height int) {
	lines, _ := d.Head(c, width, height)
	d.Page = max(1, height-len(lines))
	if d.Cursor < d.top {
		d.top = d.Cursor
	}
	if d.Cursor >= d.top+d.Page {
		d.top = d.Cursor - d.Page + 1
	}
}

func (d *InstantDetail) View(c *common.Common, width, height int) string {
	st := c.Styles
	lines, done := d.Head(c, width, height)
	if done {
		return common.Fit(lines, width, height)
	}
	t := d.cur()
	widths := colWidths(t, width-2)
	if len(t.Rows) == 0 && (d.Rows == nil || t != d.Rows.Tbl || !d.Rows.loading && d.Rows.err == nil) {
		lines = append(lines, "  (none)")
	}
	for i := d.top; i < len(t.Rows) && i < d.top+d.Page; i++ {
		l := "  " + JoinCells(t.Rows[i], widths, t.Right, t.mid, st.G)
		if i == d.Cursor {
			l = st.Cursor.Render(common.PadRight(st.G.Cursor+l[1:], width))
		}
		lines = append(lines, l)
	}
	return common.Fit(lines, width, height)
}

// colWidths sizes columns to their content, shrinking the widest text columns to fit.
func colWidths(t *Dtable, width int) []int {
	w := make([]int, len(t.Headers))
	for i, h := range t.Headers {
		w[i] = len([]rune(h)) + 1
	}
	for _, r := range t.Rows {
		for i, c := range r {
			if l := len([]rune(c)); l > w[i] {
				w[i] = l
			}
		}
	}
	total := func() int {
		s := len(w) - 1
		for _, x := range w {
			s += x
		}
		return s
	}
	for total() > width {
		wi := -1
		for i := range w {
			if !t.Right[i] && (i >= len(t.keep) || !t.keep[i]) && (wi < 0 || w[i] > w[wi]) {
				wi = i
			}
		}
		if wi < 0 || w[wi] <= 6 {
			break
		}
		w[wi]--
	}
	return w
}

func JoinCells(cells []string, widths []int, right, mid []bool, g common.Glyphs) string {
	var b strings.Builder
	for i, c := range cells {
		if i >= len(widths) {
			break
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		c = common.SafeLine(c) // cells are data; a styled cell keeps its styles
		if i < len(mid) && mid[i] && common.CellWidth(c) > widths[i] && widths[i] > 4 {
			keep := widths[i] - 1
			c = ansi.Truncate(c, keep-keep/3, "") + g.Ellipsis + ansi.TruncateLeft(c, common.CellWidth(c)-keep/3, "")
		}
		c = common.Trunc(c, widths[i], g.Ellipsis)
		if right[i] {
			b.WriteString(common.PadLeft(c, widths[i]))
		} else {
			b.WriteString(common.PadRight(c, widths[i]))
		}
	}
	return strings.TrimRight(b.String(), " ")
}

// markdown renders the detail: info, then every table.
func (d *InstantDetail) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s %s\n\n", d.In.Action, d.In.RequestedTime)
	b.WriteString(report.KeyValues(d.Info))
	for _, n := range d.Notes {
		fmt.Fprintf(&b, "- %s\n", report.Escape(n))
	}
	if d.loading {
		b.WriteString("\nDetails were still being read when this was exported.\n")
	}
	if d.Err != nil {
		fmt.Fprintf(&b, "\nDetails could not be read: %s\n", report.Escape(d.Err.Error()))
	}
	for _, t := range d.Tables {
		fmt.Fprintf(&b, "\n## %s\n\n", t.Name)
		align := ""
		for _, r := range t.Right {
			if r {
				align += "r"
			} else {
				align += "l"
			}
		}
		if t.raw != nil {
			b.WriteString("```json\n")
			for _, r := range t.raw {
				b.WriteString(r + "\n")
			}
			b.WriteString("```\n")
			continue
		}
		b.WriteString(report.Table(t.Headers, align, t.Rows))
	}
	return b.String()
}
