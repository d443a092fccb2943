package ui

import (
	"strings"
	"testing"

	timelineui "github.com/hudiscope/hudiscope/ui/timeline"
)

// The Rows tab holds one page (rowsPage rows) of a 400-row commit; moving past it reads the
// next page, G the last one; / finds a key on another page, and typing in the find input is
// text (q does not quit).
func TestRowsTabPagesAndFind(t *testing.T) {
	fx := "../testdata/fixtures/index-bloom-1.2.0/table.zip"
	needFixture(t, fx)
	a := loadedApp(t, fx, 120, 40)
	press(a, "enter", "r")
	tl := a.Pane(1).(*timelineui.Timeline)
	d := tl.Detail
	if d == nil || d.Rows == nil {
		t.Fatal("no Rows tab on the first commit")
	}
	r := d.Rows
	if r.Total != 400 || len(r.Tbl.Rows) != timelineui.RowsPage || r.Offset != 0 {
		t.Fatalf("first page: total %d, %d rows held, offset %d", r.Total, len(r.Tbl.Rows), r.Offset)
	}
	if got := tl.Status(); got != "[3/3] rows 1/400" {
		t.Fatalf("status %q", got)
	}
	press(a, "G")
	if r.Offset != 200 || len(r.Tbl.Rows) != 200 || d.Cursor != 199 || tl.Status() != "[3/3] rows 400/400" {
		t.Fatalf("after G: offset %d, %d rows, cursor %d, status %q", r.Offset, len(r.Tbl.Rows), d.Cursor, tl.Status())
	}
	if !strings.Contains(screen(a), "[rows 201-400 of 400]") {
		t.Fatalf("title not on screen:\n%s", screen(a))
	}
	press(a, "g")
	press(a, "up")
	if r.Offset != 0 || d.Cursor != 0 {
		t.Fatalf("after g: offset %d, cursor %d", r.Offset, d.Cursor)
	}
	// A key on the second page that no key of the first page contains.
	first := map[string]bool{}
	for _, row := range r.Tbl.Rows {
		first[row[0]] = true
	}
	press(a, "G")
	want := ""
	for _, row := range r.Tbl.Rows {
		clash := false
		for k := range first {
			clash = clash || strings.Contains(k, row[0])
		}
		if !clash && len(row[0]) > len(want) {
			want = row[0]
		}
	}
	if want == "" {
		t.Fatal("no key of the second page is unique to it")
	}
	press(a, "g", "/")
	if !tl.Capturing() {
		t.Fatal("the find input does not capture keys")
	}
	typeText(a, "q"+want[1:]) // q is text here, not quit
	if v := r.Input.Value(); v != "q"+want[1:] {
		t.Fatalf("input %q", v)
	}
	press(a, "backspace")
	for range want {
		press(a, "backspace")
	}
	typeText(a, want)
	press(a, "enter")
	if tl.Capturing() || r.Offset != 200 || !strings.Contains(r.Tbl.Rows[d.Cursor][0], want) {
		t.Fatalf("find %s: offset %d, cursor on %v", want, r.Offset, r.Tbl.Rows[d.Cursor][0])
	}
	press(a, "/")
	press(a, "backspace")
	for range want {
		press(a, "backspace")
	}
	typeText(a, "no-such-key")
	press(a, "enter")
	if !strings.Contains(screen(a), `no record key contains "no-such-key"`) {
		t.Fatalf("a missed find is not said:\n%s", screen(a))
	}
	press(a, "/", "esc")
	if tl.Capturing() || tl.Detail == nil {
		t.Fatal("esc in the find input left the detail or kept capturing")
	}
}

// Instants that write no rows of their own have no Rows tab.
func TestNoRowsTabOnServices(t *testing.T) {
	a := services(t, 80, 24, "action:clean")
	tl := a.Pane(1).(*timelineui.Timeline)
	if tl.Detail == nil || tl.Detail.Rows != nil {
		t.Fatalf("clean detail: %+v", tl.Detail)
	}
	if tl.Detail.Keys(tl.C).Rows.Enabled() {
		t.Fatal("r enabled on a clean")
	}
}
