package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/hudiscope/hudiscope/model"
	timelineui "github.com/hudiscope/hudiscope/ui/timeline"
	trendsui "github.com/hudiscope/hudiscope/ui/trends"
	"github.com/hudiscope/hudiscope/view"
)

// archivedApp is the explorer on cow-services-1.2.0 with its archived timeline read.
func archivedApp(t *testing.T, w, h int, mod ...func(*Options)) *App {
	s := snapshotFor(t, fxSvc, true)
	a := newTestApp(w, h, mod...)
	feed(a, s)
	return a
}

// TestTrendsGolden renders the Trends view (T) at 80x24 and 120x40: the first series
// (writes' duration) with the cursor on the newest write, another series with the cursor
// moved, and the ASCII glyphs. Refresh with -update.
func TestTrendsGolden(t *testing.T) {
	cases := []struct {
		name  string
		build func(t *testing.T, w, h int) *App
	}{
		{"trends", func(t *testing.T, w, h int) *App {
			a := archivedApp(t, w, h)
			press(a, "T")
			return a
		}},
		{"trends-clean-interval", func(t *testing.T, w, h int) *App {
			a := archivedApp(t, w, h)
			press(a, "T", "k", "h", "h", "h")
			return a
		}},
		{"trends-ascii", func(t *testing.T, w, h int) *App {
			a := archivedApp(t, w, h, func(o *Options) { o.ASCII = true })
			press(a, "T", "g")
			return a
		}},
	}
	for _, c := range cases {
		for _, sz := range sizes {
			w, h := sz[0], sz[1]
			t.Run(fmt.Sprintf("%s/%dx%d", c.name, w, h), func(t *testing.T) {
				a := c.build(t, w, h)
				golden.RequireEqual(t, checkScreen(t, a, w, h))
			})
		}
	}
}

// T opens the view over any pane and closes it again; enter on a point opens that instant's
// detail in the Timeline, as enter on its row does.
func TestTrendsOpensDetail(t *testing.T) {
	a := archivedApp(t, 120, 40)
	press(a, "1", "T")
	if !a.TrendsOpen() {
		t.Fatal("T did not open the trends view")
	}
	tv := a.view().(*trendsui.TrendsView)
	if got := tv.Status(); got != "43/43" {
		t.Errorf("status %q, want the newest of 43 writes' durations", got)
	}
	_, want, _ := tv.CopyValue()
	press(a, "h", "h")
	_, moved, _ := tv.CopyValue()
	if moved == want || moved == "" {
		t.Errorf("h h left the cursor on %s", moved)
	}
	press(a, "enter")
	if a.TrendsOpen() || a.ActivePane() != 1 {
		t.Fatalf("enter: trends open %v, pane %d", a.TrendsOpen(), a.ActivePane())
	}
	tl := a.Pane(1).(*timelineui.Timeline)
	if tl.Detail == nil || tl.Detail.In.RequestedTime != moved {
		t.Fatalf("detail %+v, want instant %s", tl.Detail, moved)
	}
	if !strings.Contains(screen(a), moved) {
		t.Errorf("the detail screen does not name %s", moved)
	}
	press(a, "esc", "T", "T")
	if a.TrendsOpen() {
		t.Error("T T left the view open")
	}
}

// The view draws what each published snapshot holds: the active timeline's 28 completed
// instants first, then all 84 when the archived step publishes, the cursor staying on its
// point.
func TestTrendsStreamsArchived(t *testing.T) {
	full := snapshotFor(t, fxSvc, true)
	active := *full
	tlCopy := *full.Timeline
	tlCopy.Archived = nil
	active.Timeline = &tlCopy
	active.Done = []model.Step{model.StepProperties, model.StepTimeline}
	a := newTestApp(120, 40)
	_, cmd := a.Update(ProgressMsg{Step: model.StepArchived, Index: 2, Total: 3, Snapshot: &active})
	run(a, cmd)
	press(a, "T")
	first := screen(a)
	if !strings.Contains(first, "28 completed instants (active timeline only") {
		t.Errorf("first frame:\n%s", first)
	}
	tv := a.view().(*trendsui.TrendsView)
	_, at, _ := tv.CopyValue()
	feed(a, full)
	if got := screen(a); !strings.Contains(got, "84 completed instants (56 archived)") {
		t.Errorf("after the archived step:\n%s", got)
	}
	if _, now, _ := tv.CopyValue(); now != at {
		t.Errorf("cursor moved from %s to %s", at, now)
	}
	if n := len(view.Trends(full, view.TrendOptions{}).Points); n != 84 {
		t.Errorf("%d points", n)
	}
}

// The series are built in a Cmd, not on the UI goroutine: until it returns the view says so,
// then draws them.
func TestTrendsBuildOffTheUIGoroutine(t *testing.T) {
	a := archivedApp(t, 80, 24)
	_, cmd := a.Update(keyMsg("T"))
	if s := screen(a); !a.TrendsOpen() || !strings.Contains(s, "Building the series") {
		t.Fatalf("before the build:\n%s", s)
	}
	run(a, cmd)
	if s := screen(a); !strings.Contains(s, "84 completed instants (56 archived)") {
		t.Errorf("after the build:\n%s", s)
	}
}

// --ascii draws the view in ASCII only: columns, axis, the × of ratios and units.
func TestTrendsASCII(t *testing.T) {
	a := archivedApp(t, 120, 40, func(o *Options) { o.ASCII = true })
	press(a, "T")
	for _, keys := range [][]string{nil, {"k", "k", "k", "k", "k"}} { // writes' duration, then write amplification (×)
		press(a, keys...)
		s := screen(a)
		for i, r := range s {
			if r > 127 {
				t.Fatalf("keys %v: non-ASCII %q at %d:\n%s", keys, r, i, s)
			}
		}
	}
	if !strings.Contains(screen(a), "write amplification (x)") {
		t.Errorf("series:\n%s", screen(a))
	}
}
