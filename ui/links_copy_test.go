package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/hudiscope/hudiscope/ui/common"
	eventlogui "github.com/hudiscope/hudiscope/ui/eventlog"
	findingsui "github.com/hudiscope/hudiscope/ui/findings"
	timelineui "github.com/hudiscope/hudiscope/ui/timeline"
)

func click(a *App, y int) {
	_, cmd := a.Update(tea.MouseClickMsg{X: 5, Y: y, Button: tea.MouseLeft})
	run(a, cmd)
}

// TestTimelineClickCopy: a click selects an instant row (list and Gantt view); y copies the
// selected or open instant's requested time.
func TestTimelineClickCopy(t *testing.T) {
	a := loadedApp(t, fxSvc, 80, 24, func(o *Options) { o.Mouse = true })
	tl := a.Pane(1).(*timelineui.Timeline)
	// Body line 3 is the first row (two begin lines, column header): screen line 5.
	click(a, 2+3+3)
	if tl.ListView.Cursor != 3 {
		t.Fatalf("click selects row %d, want 3", tl.ListView.Cursor)
	}
	want := tl.Row(3).In.RequestedTime
	if l, v, ok := tl.CopyValue(); !ok || l != "instant" || v != want {
		t.Fatalf("CopyValue = %q %q %v, want instant %s", l, v, ok, want)
	}
	press(a, "y")
	mustContain(t, a.Message(), "copied instant "+want)
	// Clicks on the header lines select nothing.
	click(a, 2+2)
	if tl.ListView.Cursor != 3 {
		t.Fatalf("click on the column header moved the cursor to %d", tl.ListView.Cursor)
	}
	// Gantt view: rows start below the axis and its rule.
	press(a, "v")
	click(a, 2+4+1)
	if tl.ListView.Cursor != 1 {
		t.Fatalf("Gantt click selects row %d, want 1", tl.ListView.Cursor)
	}
	press(a, "v", "enter")
	if _, v, _ := tl.CopyValue(); v != tl.Row(1).In.RequestedTime {
		t.Fatalf("detail copies %q", v)
	}
	// A click in the detail changes nothing.
	click(a, 2+2)
	if tl.ListView.Cursor != 1 {
		t.Fatalf("click in the detail moved the cursor to %d", tl.ListView.Cursor)
	}
}

// TestEventLogClickCopy: a click selects a stage row; y copies the stage id, or the phase
// while picking phases.
func TestEventLogClickCopy(t *testing.T) {
	s := loadAll(t, fxServices)
	a := appWith(t, s, 80, 24, func(o *Options) { o.Mouse = true })
	press(a, "5")
	e := a.view().(*eventlogui.EventLogPane)
	rowsY := len(e.Top(e.Width, e.Height)) + 1
	click(a, 2+rowsY+2)
	if e.List.Cursor != 2 {
		t.Fatalf("click selects row %d, want 2", e.List.Cursor)
	}
	i := e.Selected()
	if l, v, ok := e.CopyValue(); !ok || l != "stage" || v != common.Itoa(e.Stages[i].StageID)+"."+common.Itoa(e.Stages[i].AttemptID) {
		t.Fatalf("CopyValue = %q %q %v", l, v, ok)
	}
	press(a, "y")
	mustContain(t, a.Message(), "copied stage ")
	click(a, 2+rowsY-1) // the column header
	if e.List.Cursor != 2 {
		t.Fatalf("click on the header moved the cursor to %d", e.List.Cursor)
	}
	press(a, "P", "j")
	if l, v, ok := e.CopyValue(); !ok || l != "phase" || v != e.Phases[1].Label {
		t.Fatalf("phase CopyValue = %q %q %v, want %s", l, v, ok, e.Phases[1].Label)
	}
	// While picking phases a click does not move the stage cursor.
	click(a, 2+rowsY)
	if e.List.Cursor != 2 {
		t.Fatalf("click while picking phases moved the cursor to %d", e.List.Cursor)
	}
}

// TestFindingsLinks: a jump selects the finding by id, y copies its change or id, a click
// selects a finding row.
func TestFindingsLinks(t *testing.T) {
	s := loadAll(t, fxServices)
	a := appWith(t, s, 80, 24, func(o *Options) { o.Mouse = true })
	press(a, "6")
	p := a.view().(*findingsui.Findings)
	if len(p.Sel) < 2 {
		t.Skip("fixture has fewer than two findings")
	}
	last := p.Lines[p.Sel[len(p.Sel)-1]].F
	run(a, common.JumpTo(common.JumpFinding{ID: strings.ToLower(last.ID)}))
	if p.Selected() != last || strings.Contains(a.Message(), "not found") {
		t.Fatalf("jump to %s selects %v (%s)", last.ID, p.Selected(), a.Message())
	}
	run(a, common.JumpTo(common.JumpFinding{ID: "NO-SUCH"}))
	mustContain(t, a.Message(), "not found in Findings: finding NO-SUCH")

	// CopyValue: key=value lines where the finding sets keys, else the id.
	for si, li := range p.Sel {
		p.Cursor = si
		f := p.Lines[li].F
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
	p.Reflow()
	view := p.ListLines(p.Width)
	for y := 0; y < p.Height && p.Top+y < len(view); y++ {
		if v := view[p.Top+y]; v.Sel > 0 {
			click(a, 2+y)
			if p.Cursor != v.Sel {
				t.Fatalf("click on line %d selects %d, want %d", y, p.Cursor, v.Sel)
			}
			break
		}
	}
	// A heading line selects nothing.
	before := p.Cursor
	for y := 0; y < p.Height && p.Top+y < len(view); y++ {
		if view[p.Top+y].Sel < 0 {
			click(a, 2+y)
			break
		}
	}
	if p.Cursor != before {
		t.Fatalf("click on a text line moved the cursor to %d", p.Cursor)
	}
}

// TestTimelineClockColumns: at 120 columns the requested and completed columns show times
// through the clock and z changes them; raw mode and 80 columns show the instant strings.
func TestTimelineClockColumns(t *testing.T) {
	a := loadedApp(t, fxSvc, 120, 40)
	tl := a.Pane(1).(*timelineui.Timeline)
	in := tl.Row(0).In
	zone := common.TableZone(tl.Snap)
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
	if cols := tl.Columns(80); cols[0].Width != 17 || cols[1].Width != 18 {
		t.Errorf("80-column widths %d %d", cols[0].Width, cols[1].Width)
	}
}
