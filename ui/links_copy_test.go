package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func click(a *App, y int) {
	_, cmd := a.Update(tea.MouseClickMsg{X: 5, Y: y, Button: tea.MouseLeft})
	run(a, cmd)
}

// TestTimelineClickCopy: a click selects an instant row (list and Gantt view); y copies the
// selected or open instant's requested time.
func TestTimelineClickCopy(t *testing.T) {
	a := loadedApp(t, fxSvc, 80, 24, func(o *Options) { o.Mouse = true })
	tl := a.Pane(1).(*Timeline)
	// Body line 3 is the first row (two begin lines, column header): screen line 5.
	click(a, 2+3+3)
	if tl.listView.cursor != 3 {
		t.Fatalf("click selects row %d, want 3", tl.listView.cursor)
	}
	want := tl.row(3).in.RequestedTime
	if l, v, ok := tl.CopyValue(); !ok || l != "instant" || v != want {
		t.Fatalf("CopyValue = %q %q %v, want instant %s", l, v, ok, want)
	}
	press(a, "y")
	mustContain(t, a.Message(), "copied instant "+want)
	// Clicks on the header lines select nothing.
	click(a, 2+2)
	if tl.listView.cursor != 3 {
		t.Fatalf("click on the column header moved the cursor to %d", tl.listView.cursor)
	}
	// Gantt view: rows start below the axis and its rule.
	press(a, "v")
	click(a, 2+4+1)
	if tl.listView.cursor != 1 {
		t.Fatalf("Gantt click selects row %d, want 1", tl.listView.cursor)
	}
	press(a, "v", "enter")
	if _, v, _ := tl.CopyValue(); v != tl.row(1).in.RequestedTime {
		t.Fatalf("detail copies %q", v)
	}
	// A click in the detail changes nothing.
	click(a, 2+2)
	if tl.listView.cursor != 1 {
		t.Fatalf("click in the detail moved the cursor to %d", tl.listView.cursor)
	}
}

// TestEventLogClickCopy: a click selects a stage row; y copies the stage id, or the phase
// while picking phases.
func TestEventLogClickCopy(t *testing.T) {
	s := loadAll(t, fxServices)
	a := appWith(t, s, 80, 24, func(o *Options) { o.Mouse = true })
	press(a, "5")
	e := a.view().(*EventLogPane)
	rowsY := len(e.top(e.width, e.height)) + 1
	click(a, 2+rowsY+2)
	if e.list.cursor != 2 {
		t.Fatalf("click selects row %d, want 2", e.list.cursor)
	}
	i := e.selected()
	if l, v, ok := e.CopyValue(); !ok || l != "stage" || v != itoa(e.stages[i].StageID)+"."+itoa(e.stages[i].AttemptID) {
		t.Fatalf("CopyValue = %q %q %v", l, v, ok)
	}
	press(a, "y")
	mustContain(t, a.Message(), "copied stage ")
	click(a, 2+rowsY-1) // the column header
	if e.list.cursor != 2 {
		t.Fatalf("click on the header moved the cursor to %d", e.list.cursor)
	}
	press(a, "P", "j")
	if l, v, ok := e.CopyValue(); !ok || l != "phase" || v != e.phases[1].Label {
		t.Fatalf("phase CopyValue = %q %q %v, want %s", l, v, ok, e.phases[1].Label)
	}
	// While picking phases a click does not move the stage cursor.
	click(a, 2+rowsY)
	if e.list.cursor != 2 {
		t.Fatalf("click while picking phases moved the cursor to %d", e.list.cursor)
	}
}

// TestFindingsLinks: a jump selects the finding by id, y copies its change or id, a click
// selects a finding row.
func TestFindingsLinks(t *testing.T) {
	s := loadAll(t, fxServices)
	a := appWith(t, s, 80, 24, func(o *Options) { o.Mouse = true })
	press(a, "6")
	p := a.view().(*Findings)
	if len(p.sel) < 2 {
		t.Skip("fixture has fewer than two findings")
	}
	last := p.lines[p.sel[len(p.sel)-1]].f
	run(a, jumpTo(JumpFinding{ID: strings.ToLower(last.ID)}))
	if p.selected() != last || strings.Contains(a.Message(), "not found") {
		t.Fatalf("jump to %s selects %v (%s)", last.ID, p.selected(), a.Message())
	}
	run(a, jumpTo(JumpFinding{ID: "NO-SUCH"}))
	mustContain(t, a.Message(), "not found in Findings: finding NO-SUCH")

	// CopyValue: key=value lines where the finding sets keys, else the id.
	for si, li := range p.sel {
		p.cursor = si
		f := p.lines[li].f
		l, v, ok := p.CopyValue()
		if !ok {
			t.Fatalf("%s: nothing to copy", f.ID)
		}
		switch l {
		case "change":
			for _, kv := range strings.Split(v, "\n") {
				if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
					t.Errorf("%s: change line %q", f.ID, kv)
				}
			}
		case "finding":
			if v != f.ID {
				t.Errorf("%s: copies %q", f.ID, v)
			}
		default:
			t.Errorf("%s: label %q", f.ID, l)
		}
	}

	// Click: find a finding's screen line, click it.
	press(a, "g")
	p.reflow()
	view := p.listLines(p.width)
	for y := 0; y < p.height && p.top+y < len(view); y++ {
		if v := view[p.top+y]; v.sel > 0 {
			click(a, 2+y)
			if p.cursor != v.sel {
				t.Fatalf("click on line %d selects %d, want %d", y, p.cursor, v.sel)
			}
			break
		}
	}
	// A heading line selects nothing.
	before := p.cursor
	for y := 0; y < p.height && p.top+y < len(view); y++ {
		if view[p.top+y].sel < 0 {
			click(a, 2+y)
			break
		}
	}
	if p.cursor != before {
		t.Fatalf("click on a text line moved the cursor to %d", p.cursor)
	}
}

// TestTimelineClockColumns: at 120 columns the requested and completed columns show times
// through the clock and z changes them; raw mode and 80 columns show the instant strings.
func TestTimelineClockColumns(t *testing.T) {
	a := loadedApp(t, fxSvc, 120, 40)
	tl := a.Pane(1).(*Timeline)
	in := tl.row(0).in
	zone := tableZone(tl.snap)
	clk := a.c.Clock
	writer := clk.Instant(in.RequestedTime, zone)
	if writer == in.RequestedTime {
		t.Fatalf("instant %s does not parse as a time", in.RequestedTime)
	}
	mustContain(t, screen(a), writer)
	header := strings.Split(screen(a), "\n")[3]
	press(a, "z") // UTC
	utc := clk.Instant(in.RequestedTime, zone)
	mustContain(t, screen(a), utc)
	if in.CompletionTime != "" {
		mustContain(t, screen(a), clk.Instant(in.CompletionTime, zone))
	}
	if got := strings.Split(screen(a), "\n")[3]; got != header {
		t.Errorf("column header moves with the zone:\n%s\n%s", header, got)
	}
	press(a, "z", "z") // raw
	s := screen(a)
	mustContain(t, s, " "+in.RequestedTime+" ")
	mustNotContain(t, s, utc)

	// 80 columns: raw instant strings whatever the zone, same columns as before.
	b := loadedApp(t, fxSvc, 80, 24)
	s = screen(b)
	mustContain(t, s, " "+in.RequestedTime+" ")
	mustNotContain(t, s, writer)
	press(b, "z")
	if got := screen(b); got != s {
		mustNotContain(t, got, utc)
	}
	if cols := tl.columns(80); cols[0].width != 17 || cols[1].width != 18 {
		t.Errorf("80-column widths %d %d", cols[0].width, cols[1].width)
	}
}
