package timeline

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/hudiscope/hudiscope/hudi/records"
	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/internal/safetext"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/ui/common"
	"github.com/hudiscope/hudiscope/view"
)

// RowsPage is how many rows the Rows tab holds: one page, read by a fresh scan (never the
// whole table).
const RowsPage = 200

// rowsMsg carries a page of a commit's rows read in a Cmd.
type rowsMsg struct {
	in   *timeline.Instant
	gen  int
	want int // the row to put the cursor on (-1: the found row)
	page model.RowPage
	err  error
}

// rowsTab is the instant detail's Rows tab: the records the write left, a page at a time,
// with / to find a record key.
type rowsTab struct {
	src     *model.CommitRows
	in      *timeline.Instant
	Tbl     *Dtable
	Offset  int
	Total   int // -1 until the first page arrives
	loading bool
	err     error
	gen     int
	notes   []string
	finding bool
	Input   textinput.Model
	last    string // the last key searched
	missed  string // a find that matched nothing
}

func newRowsTab(s *model.Snapshot, in *timeline.Instant) *rowsTab {
	return &rowsTab{src: s.CommitRows(in), in: in, Total: -1, Input: common.NewInput(),
		Tbl: &Dtable{Name: "rows", partCol: 2, Headers: []string{"record key", "partition"}, Right: []bool{false, false}}}
}

// load reads the page holding row want (or, with find set, the first match at or after from).
func (r *rowsTab) load(want int, find string) tea.Cmd {
	r.gen++
	r.loading, r.err, r.missed = true, nil, ""
	gen, src, in := r.gen, r.src, r.in
	off := max(0, want) / RowsPage * RowsPage
	from := want
	return func() tea.Msg {
		var p model.RowPage
		var err error
		if find != "" {
			p, err = src.Page(context.Background(), from, RowsPage, find)
			return rowsMsg{in: in, gen: gen, want: -1, page: p, err: err}
		}
		p, err = src.Page(context.Background(), off, RowsPage, "")
		return rowsMsg{in: in, gen: gen, want: want, page: p, err: err}
	}
}

// Set shows a page; the cursor goes to the wanted (or found) row.
func (r *rowsTab) Set(d *InstantDetail, m rowsMsg) {
	if m.gen != r.gen {
		return // a stale page
	}
	r.loading, r.err = false, m.err
	if m.err != nil {
		return
	}
	p := m.page
	r.Offset, r.Total = p.Offset, p.Total
	r.notes = r.notes[:0]
	r.notes = append(r.notes, p.Stats.Notes...)
	for _, pr := range p.Stats.Problems {
		r.notes = append(r.notes, "could not read "+pr.String())
	}
	fillRows(r.Tbl, p.Rows)
	want := m.want
	if m.want < 0 {
		want = p.Found
		if p.Found < 0 {
			r.missed = r.last
			want = r.Offset
		}
	}
	d.Cursor = max(0, min(len(r.Tbl.Rows)-1, want-r.Offset))
	d.top = max(0, min(d.top, d.Cursor))
}

// fillRows puts a page into t (view.RecordTable), keeping t itself: the detail's table list
// holds it.
func fillRows(t *Dtable, recs []records.Record) {
	v := fromView(view.RecordTable(recs))
	// Keys, values and column names are the table's data: a value's ESC/OSC sequence would
	// recolour or retitle the terminal (issue 31), so they are escaped as the text form does.
	for i, h := range v.Headers {
		v.Headers[i] = safetext.Terminal(h)
	}
	for _, row := range v.Rows {
		for j, c := range row {
			row[j] = safetext.Terminal(c)
		}
	}
	t.Headers, t.Right, t.Rows, t.nums, t.keep = v.Headers, v.Right, v.Rows, v.nums, v.keep
}

// abs is the index of the row under the cursor among all the commit's rows.
func (r *rowsTab) abs(d *InstantDetail) int { return r.Offset + d.Cursor }

// move puts the cursor on row to (clamped), reading its page when it is not the one held.
func (r *rowsTab) move(d *InstantDetail, to int) tea.Cmd {
	if r.Total <= 0 || r.loading {
		return nil
	}
	to = max(0, min(r.Total-1, to))
	if to >= r.Offset && to < r.Offset+len(r.Tbl.Rows) {
		d.Cursor = to - r.Offset
		return nil
	}
	return r.load(to, "")
}

// update handles a key on the Rows tab; handled is false for keys the detail handles itself.
func (r *rowsTab) Handle(d *InstantDetail, k detailKeys, msg tea.Msg) (cmd tea.Cmd, handled bool) {
	if r.finding {
		switch msg := msg.(type) {
		case tea.KeyPressMsg:
			switch {
			case key.Matches(msg, k.FindGo):
				r.finding = false
				v := strings.TrimSpace(r.Input.Value())
				if v == "" {
					return nil, true
				}
				from := 0
				if r.Total > 0 {
					from = r.abs(d)
					if v == r.last {
						from++ // again: the next match
					}
				}
				r.last = v
				return r.load(from, v), true
			case key.Matches(msg, k.FindCancel):
				r.finding = false
				return nil, true
			}
			r.Input, _ = r.Input.Update(msg)
		case tea.PasteMsg:
			r.Input, _ = r.Input.Update(msg)
		}
		return nil, true
	}
	at := r.abs(d)
	switch msg := msg.(type) {
	case tea.MouseWheelMsg:
		if key.Matches(msg, k.Wheel) {
			if msg.Button == tea.MouseWheelUp {
				return r.move(d, at-3), true
			}
			return r.move(d, at+3), true
		}
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Find):
			r.finding = true
			r.Input.SetValue(r.last)
			r.Input.CursorEnd()
			return nil, true
		case key.Matches(msg, k.Up):
			return r.move(d, at-1), true
		case key.Matches(msg, k.Down):
			return r.move(d, at+1), true
		case key.Matches(msg, k.PageUp):
			return r.move(d, at-d.Page), true
		case key.Matches(msg, k.PageDown):
			return r.move(d, at+d.Page), true
		case key.Matches(msg, k.Top):
			return r.move(d, 0), true
		case key.Matches(msg, k.Bottom):
			return r.move(d, r.Total-1), true
		}
	}
	return nil, false
}

// title is the tab's name with where the page is: "rows 201-400 of 1,250".
func (r *rowsTab) title() string {
	switch {
	case r.err != nil:
		return "rows (unreadable)"
	case r.Total < 0:
		return "rows"
	case r.Total == 0:
		return "rows (none)"
	}
	return fmt.Sprintf("rows %d-%d of %d", r.Offset+1, r.Offset+len(r.Tbl.Rows), r.Total)
}

// lines are shown above the page: the find input, a missed find, the scan's notes, the state.
func (r *rowsTab) lines(st *common.Styles, width int) []string {
	var out []string
	if r.finding {
		out = append(out, common.Clip(" find key: "+common.InputView(r.Input), width))
	}
	if r.missed != "" {
		out = append(out, common.Clip(" "+st.Warn.Render("no record key contains "+strconv.Quote(r.missed)), width))
	}
	for _, n := range r.notes {
		out = append(out, common.Clip(" "+st.Warn.Render(st.G.Warn+" "+n), width))
	}
	switch {
	case r.loading:
		out = append(out, " reading the rows this write left...")
	case r.err != nil:
		out = append(out, " "+st.Bad.Render("could not read rows: "+r.err.Error()))
	}
	return out
}
