package ui

import (
	"strings"
	"testing"
)

// The Rows tab holds one page (rowsPage rows) of a 400-row commit; moving past it reads the
// next page, G the last one; / finds a key on another page, and typing in the find input is
// text (q does not quit).
func TestRowsTabPagesAndFind(t *testing.T) {
	fx := "../testdata/fixtures/index-bloom-1.2.0/table.zip"
	needFixture(t, fx)
	a := loadedApp(t, fx, 120, 40)
	press(a, "enter", "r")
	tl := a.Pane(1).(*Timeline)
	d := tl.detail
	if d == nil || d.rows == nil {
		t.Fatal("no Rows tab on the first commit")
	}
	r := d.rows
	if r.total != 400 || len(r.tbl.rows) != rowsPage || r.offset != 0 {
		t.Fatalf("first page: total %d, %d rows held, offset %d", r.total, len(r.tbl.rows), r.offset)
	}
	if got := tl.Status(); got != "[3/3] rows 1/400" {
		t.Fatalf("status %q", got)
	}
	press(a, "G")
	if r.offset != 200 || len(r.tbl.rows) != 200 || d.cursor != 199 || tl.Status() != "[3/3] rows 400/400" {
		t.Fatalf("after G: offset %d, %d rows, cursor %d, status %q", r.offset, len(r.tbl.rows), d.cursor, tl.Status())
	}
	if !strings.Contains(screen(a), "[rows 201-400 of 400]") {
		t.Fatalf("title not on screen:\n%s", screen(a))
	}
	press(a, "g")
	press(a, "up")
	if r.offset != 0 || d.cursor != 0 {
		t.Fatalf("after g: offset %d, cursor %d", r.offset, d.cursor)
	}
	// A key on the second page that no key of the first page contains.
	first := map[string]bool{}
	for _, row := range r.tbl.rows {
		first[row[0]] = true
	}
	press(a, "G")
	want := ""
	for _, row := range r.tbl.rows {
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
	if v := r.input.Value(); v != "q"+want[1:] {
		t.Fatalf("input %q", v)
	}
	press(a, "backspace")
	for range want {
		press(a, "backspace")
	}
	typeText(a, want)
	press(a, "enter")
	if tl.Capturing() || r.offset != 200 || !strings.Contains(r.tbl.rows[d.cursor][0], want) {
		t.Fatalf("find %s: offset %d, cursor on %v", want, r.offset, r.tbl.rows[d.cursor][0])
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
	if tl.Capturing() || tl.detail == nil {
		t.Fatal("esc in the find input left the detail or kept capturing")
	}
}

// Instants that write no rows of their own have no Rows tab.
func TestNoRowsTabOnServices(t *testing.T) {
	a := services(t, 80, 24, "action:clean")
	tl := a.Pane(1).(*Timeline)
	if tl.detail == nil || tl.detail.rows != nil {
		t.Fatalf("clean detail: %+v", tl.detail)
	}
	if tl.detail.keys(tl.c).Rows.Enabled() {
		t.Fatal("r enabled on a clean")
	}
}
