package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
	"github.com/hudiscope/hudiscope/ui/common"
	timelineui "github.com/hudiscope/hudiscope/ui/timeline"
)

// overlapSnapshot is a synthetic timeline with overlapping instants: a clustering spanning
// three commits, a commit completing after a later-started one, a compaction, a clean, a
// rollback and a pending commit.
func overlapSnapshot(tb testing.TB) *model.Snapshot {
	s := snapshotFor(tb, fxV9, false)
	base := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	at := func(sec float64) time.Time { return base.Add(time.Duration(sec * float64(time.Second))) }
	mk := func(action, plan, op string, from, to float64, parts ...string) *timeline.Instant {
		in := &timeline.Instant{Action: action, PlanAction: plan, Operation: op, State: timeline.Completed,
			Started: at(from), RequestedTime: timeline.FormatInstantTime(at(from), time.UTC)}
		if to < 0 {
			in.State = timeline.Inflight
		} else {
			in.Ended = at(to)
			in.CompletionTime = timeline.FormatInstantTime(at(to), time.UTC)
		}
		if len(parts) > 0 {
			c := &timeline.CommitMetadata{PartitionToWriteStats: map[string][]timeline.WriteStat{}, OperationType: op}
			for _, p := range parts {
				c.PartitionToWriteStats[p] = []timeline.WriteStat{{FileID: "fg-" + p, PartitionPath: p, NumWrites: 10, NumInserts: 10, TotalWriteBytes: 4096}}
			}
			in.Commit, in.Totals = c, c.Totals()
		}
		return in
	}
	ins := []*timeline.Instant{
		mk("commit", "", "UPSERT", 0, 20, "eu", "us"),
		mk("replacecommit", "clustering", "CLUSTER", 25, 190, "eu"),
		mk("commit", "", "UPSERT", 40, 60, "us"),
		mk("commit", "", "UPSERT", 70, 150, "eu"),
		mk("commit", "", "UPSERT", 90, 110, "us"),
		mk("commit", "compaction", "", 120, 170),
		mk("clean", "", "", 160, 165),
		mk("rollback", "", "", 200, 202),
		mk("commit", "", "UPSERT", 210, -1),
	}
	c := *s
	c.Timeline = &timeline.Timeline{Instants: ins}
	return &c
}

func TestGanttGolden(t *testing.T) {
	cases := []struct {
		name string
		keys []string
		mod  func(*Options)
	}{
		{"gantt-overlap", []string{"v", "j", "j", "j"}, nil},
		{"gantt-overlap-zoom", []string{"v", "j", "j", "j", "+", "l"}, nil},
		{"gantt-overlap-ascii", []string{"v", "j"}, func(o *Options) { o.ASCII = true }},
	}
	for _, c := range cases {
		for _, sz := range sizes {
			w, h := sz[0], sz[1]
			t.Run(fmt.Sprintf("%s/%dx%d", c.name, w, h), func(t *testing.T) {
				var mods []func(*Options)
				if c.mod != nil {
					mods = append(mods, c.mod)
				}
				a := newTestApp(w, h, mods...)
				feed(a, overlapSnapshot(t))
				showPane(a, "Timeline")
				press(a, c.keys...)
				golden.RequireEqual(t, checkScreen(t, a, w, h))
			})
		}
	}
}

// TestGanttCursorRow: the cursor row is one line carrying both the table cells and the bar.
func TestGanttCursorRow(t *testing.T) {
	a := newTestApp(80, 24)
	feed(a, overlapSnapshot(t))
	showPane(a, "Timeline")
	press(a, "v")
	tl := paneTitled(a, "Timeline").(*timelineui.Timeline)
	sel := tl.Selected()
	var row string
	for _, l := range strings.Split(screen(a), "\n") {
		if strings.Contains(l, sel.RequestedTime) {
			row = l
		}
	}
	if !strings.Contains(row, "█") || !strings.HasPrefix(row, "▶") {
		t.Fatalf("cursor row lacks its bar: %q", row)
	}
}

func TestTimelinePartitionFocus(t *testing.T) {
	a := newTestApp(80, 24)
	feed(a, overlapSnapshot(t))
	tl := paneTitled(a, "Timeline").(*timelineui.Timeline)
	if !tl.Focus(common.JumpPartitionWrites{Path: "us"}) {
		t.Fatal("no focus")
	}
	if got := len(tl.ListView.Idx); got != 3 {
		t.Fatalf("instants that wrote us: %d, want 3", got)
	}
	tl.Back()
	if !tl.Focus(common.JumpInstant{Requested: "20261129100130000"}) {
		t.Fatal("instant not found")
	}
	if tl.Selected().RequestedTime != "20261129100130000" {
		t.Fatalf("selected %s", tl.Selected().RequestedTime)
	}
}

func TestMermaidGantt(t *testing.T) {
	s := overlapSnapshot(t)
	md := report.TimelineGantt(s.Timeline.Instants, 50)
	for _, want := range []string{"```mermaid", "gantt", "dateFormat x", "section clustering", ":active,"} {
		if !strings.Contains(md, want) {
			t.Errorf("missing %q in\n%s", want, md)
		}
	}
	md = report.TimelineGantt(s.Timeline.Instants, 4)
	if !strings.Contains(md, "last 4 of 9") {
		t.Errorf("bound not stated:\n%s", md)
	}
}

// paneTitled is the App's pane with that title (panes are renumbered as they are added).
func paneTitled(a *App, title string) common.Pane {
	for i := range a.panes {
		if a.panes[i].Title() == title {
			return a.panes[i]
		}
	}
	return nil
}

// showPane presses the digit of the pane with that title.
func showPane(a *App, title string) {
	for i := range a.panes {
		if a.panes[i].Title() == title {
			press(a, common.Itoa(i+1))
		}
	}
}

// TestLinkedViewsGolden: the event-log header and a phase's stages, an instant's stages
// reached from the Timeline, a stage's instant, and MOR write stats by log version.
func TestLinkedViewsGolden(t *testing.T) {
	cases := []struct {
		name  string
		snap  func(testing.TB) *model.Snapshot
		pane  string
		keys  []string
		typed string
		more  []string
	}{
		{name: "eventlog-services-phase", snap: servicesSnapshot, pane: "Event log", keys: []string{"P", "j", "j", "enter"}},
		{name: "eventlog-services-picking", snap: servicesSnapshot, pane: "Event log", keys: []string{"P", "j"}},
		{name: "eventlog-services-skew", snap: servicesSnapshot, pane: "Event log", keys: []string{"s", "s", "s", "s"}},
		{name: "timeline-services-stages", snap: servicesSnapshot, pane: "Timeline", keys: []string{"G", "S"}},
		{name: "timeline-services-gantt", snap: servicesSnapshot, pane: "Timeline", keys: []string{"v", "G"}},
		{name: "eventlog-services-stage-instant", snap: servicesSnapshot, pane: "Timeline", keys: []string{"G", "S", "enter"}},
		{name: "detail-mor-logs", snap: morSnapshot, pane: "Timeline", keys: []string{"/"}, typed: "action:deltacommit", more: []string{"enter", "G", "enter"}},
		{name: "layout-services-instants", snap: servicesSnapshot, pane: "Layout", keys: []string{"i"}},
	}
	snaps := map[string]*model.Snapshot{}
	for _, c := range cases {
		for _, sz := range sizes {
			w, h := sz[0], sz[1]
			t.Run(fmt.Sprintf("%s/%dx%d", c.name, w, h), func(t *testing.T) {
				key := fmt.Sprintf("%p", c.snap)
				s := snaps[key]
				if s == nil {
					s = c.snap(t)
					snaps[key] = s
				}
				a := appWith(t, s, w, h)
				showPane(a, c.pane)
				press(a, c.keys...)
				typeText(a, c.typed)
				press(a, c.more...)
				golden.RequireEqual(t, checkScreen(t, a, w, h))
			})
		}
	}
}
