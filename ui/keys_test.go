package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/hudiscope/hudiscope/hudi/tableconfig"
	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/ui/common"
	timelineui "github.com/hudiscope/hudiscope/ui/timeline"
)

func tl(a *App) *timelineui.Timeline { return a.Pane(1).(*timelineui.Timeline) }

func mustContain(t *testing.T, s, want string) {
	t.Helper()
	if !strings.Contains(s, want) {
		t.Fatalf("screen lacks %q:\n%s", want, s)
	}
}

func mustNotContain(t *testing.T, s, bad string) {
	t.Helper()
	if strings.Contains(s, bad) {
		t.Fatalf("screen has %q:\n%s", bad, s)
	}
}

// TestKeys sends each key once to a loaded 80x24 app and checks Update's effect and the View.
func TestKeys(t *testing.T) {
	cases := []struct {
		name  string
		keys  []string
		check func(t *testing.T, a *App, scr string)
	}{
		{"j", []string{"j"}, func(t *testing.T, a *App, s string) {
			if tl(a).Cursor != 1 {
				t.Fatal("cursor", tl(a).Cursor)
			}
			mustContain(t, s, "▶ 20260307162440672")
		}},
		{"down", []string{"down"}, func(t *testing.T, a *App, s string) { mustContain(t, s, "2/14") }},
		{"k", []string{"j", "j", "k"}, func(t *testing.T, a *App, s string) { mustContain(t, s, "2/14") }},
		{"up", []string{"j", "up"}, func(t *testing.T, a *App, s string) { mustContain(t, s, "1/14") }},
		{"G", []string{"G"}, func(t *testing.T, a *App, s string) { mustContain(t, s, "▶ 20260307162458438") }},
		{"end", []string{"G"}, func(t *testing.T, a *App, s string) { mustContain(t, s, "14/14") }},
		{"g", []string{"G", "g"}, func(t *testing.T, a *App, s string) { mustContain(t, s, "1/14") }},
		{"pgdown", []string{"pgdown"}, func(t *testing.T, a *App, s string) {
			if tl(a).Cursor == 0 {
				t.Fatal("page down did not move")
			}
		}},
		{"pgup", []string{"pgdown", "pgup"}, func(t *testing.T, a *App, s string) { mustContain(t, s, "1/14") }},
		{"enter", []string{"enter"}, func(t *testing.T, a *App, s string) {
			mustContain(t, s, "Timeline › 20260307162434124 commit")
			mustContain(t, s, "files written")
		}},
		{"esc", []string{"enter", "esc"}, func(t *testing.T, a *App, s string) {
			mustContain(t, s, "[2 Timeline]")
			mustNotContain(t, s, "files written")
		}},
		{"s", []string{"enter", "s", "s", "s", "s", "s"}, func(t *testing.T, a *App, s string) {
			// fifth column (writes) sorted descending: region=eu or us (3 writes) first
			mustContain(t, s, "writes▼")
			mustNotContain(t, strings.Split(s, "▶")[1][:20], "apac")
		}},
		{"t", []string{"enter", "t"}, func(t *testing.T, a *App, s string) { mustContain(t, s, "[partitions written]") }},
		{"tab", []string{"tab"}, func(t *testing.T, a *App, s string) {
			if a.ActivePane() != 2 {
				t.Fatal(a.ActivePane())
			}
			mustContain(t, s, "[3 Layout]")
		}},
		{"shift+tab", []string{"shift+tab"}, func(t *testing.T, a *App, s string) { mustContain(t, s, "[1 Overview]") }},
		{"1", []string{"4", "1"}, func(t *testing.T, a *App, s string) { mustContain(t, s, "[1 Overview]") }},
		{"2", []string{"4", "2"}, func(t *testing.T, a *App, s string) { mustContain(t, s, "[2 Timeline]") }},
		{"3", []string{"3"}, func(t *testing.T, a *App, s string) { mustContain(t, s, "[3 Layout]") }},
		{"4", []string{"4"}, func(t *testing.T, a *App, s string) { mustContain(t, s, "[4 Health]") }},
		{"5", []string{"5"}, func(t *testing.T, a *App, s string) { mustContain(t, s, "[5 Event log]") }},
		{"6", []string{"6"}, func(t *testing.T, a *App, s string) { mustContain(t, s, "[6 Findings]") }},
		{"?", []string{"?"}, func(t *testing.T, a *App, s string) {
			if !a.HelpOpen() {
				t.Fatal("help not open")
			}
			for _, g := range a.c.Keys.Groups() {
				for _, b := range g.Keys {
					mustContain(t, s, b.Help().Desc)
				}
			}
		}},
		{"? closes", []string{"?", "?"}, func(t *testing.T, a *App, s string) { mustNotContain(t, s, "Keys  (") }},
		{"/", []string{"/", "c", "l", "u"}, func(t *testing.T, a *App, s string) {
			mustContain(t, s, "filter (action: state: op: or text): clu")
			mustContain(t, s, "1/1 of 14")
		}},
		{"/ esc clears", []string{"/", "x", "esc"}, func(t *testing.T, a *App, s string) {
			mustContain(t, s, "13/14 ") // the selection is kept
			mustNotContain(t, s, "filter \"")
		}},
		{"esc clears kept filter", []string{"/", "x", "enter", "esc"}, func(t *testing.T, a *App, s string) { mustContain(t, s, "13/14 ") }},
		{"/ q is text", []string{"/", "q"}, func(t *testing.T, a *App, s string) {
			mustContain(t, s, "0/14")
			mustContain(t, s, "no instant matches the filter")
		}},
		{"/ backspace", []string{"/", "x", "backspace", "enter"}, func(t *testing.T, a *App, s string) { mustContain(t, s, "13/14 ") }},
		{"o", []string{"o"}, func(t *testing.T, a *App, s string) { mustContain(t, s, "requested ▼") }},
		{"o twice", []string{"o", "o"}, func(t *testing.T, a *App, s string) { mustContain(t, s, "completed ▼") }},
		{"c", []string{"c"}, func(t *testing.T, a *App, s string) {
			mustContain(t, s, "Checkpoint helper")
			if !a.Pane(1).Capturing() {
				t.Fatal("checkpoint input should capture keys")
			}
		}},
		{"c tab enter", []string{"c", "tab", "enter"}, func(t *testing.T, a *App, s string) {
			mustContain(t, s, "RE-READ: 20260307162434124 is an instant time")
		}},
		{"c esc", []string{"c", "esc"}, func(t *testing.T, a *App, s string) { mustContain(t, s, "[2 Timeline]") }},
		{"c q is text", []string{"c", "q"}, func(t *testing.T, a *App, s string) { mustContain(t, s, "value: q") }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := loadedApp(t, fxV9, 80, 24)
			press(a, c.keys...)
			c.check(t, a, checkScreen(t, a, 80, 24))
		})
	}
}

func TestQuitKeys(t *testing.T) {
	for _, k := range []string{"q", "ctrl+c"} {
		a := loadedApp(t, fxV9, 80, 24)
		_, cmd := a.Update(keyMsg(k))
		if cmd == nil {
			t.Fatalf("%s: no command", k)
		}
		if _, ok := cmd().(tea.QuitMsg); !ok {
			t.Fatalf("%s does not quit", k)
		}
	}
	// ctrl+c quits even while typing a filter.
	a := loadedApp(t, fxV9, 80, 24)
	press(a, "/")
	_, cmd := a.Update(keyMsg("ctrl+c"))
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("ctrl+c while filtering does not quit")
	}
}

func TestMouseWheel(t *testing.T) {
	a := loadedApp(t, fxV9, 80, 24)
	a.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if tl(a).Cursor != 3 {
		t.Fatalf("wheel down: cursor %d, want 3", tl(a).Cursor)
	}
	a.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if tl(a).Cursor != 0 {
		t.Fatalf("wheel up: cursor %d", tl(a).Cursor)
	}
	if a.View().MouseMode != tea.MouseModeNone {
		t.Fatal("mouse captured without Options.Mouse")
	}
	b := newTestApp(80, 24, func(o *Options) { o.Mouse = true })
	if b.View().MouseMode != tea.MouseModeCellMotion {
		t.Fatal("Options.Mouse should capture the wheel")
	}
}

func TestExportKeys(t *testing.T) {
	dir := t.TempDir()
	a := loadedApp(t, fxV9, 80, 24, func(o *Options) { o.ExportDir = dir })
	press(a, "e")
	want := filepath.Join(dir, "hudiscope-v9_txns_cow_simple_meta-timeline-20261130-120000.md")
	s := screen(a)
	mustContain(t, s, "exported timeline pane to")
	b, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	md := string(b)
	mustContain(t, md, "| requested | completed | action |")
	mustContain(t, md, "| 20260307162434124 | 20260307162438653 | commit | COMPLETED | INSERT |")
	mustNotContain(t, md, "\x1b")

	press(a, "j", "enter", "e")
	b, err = os.ReadFile(filepath.Join(dir, "hudiscope-v9_txns_cow_simple_meta-timeline-20260307162440672-20261130-120000.md"))
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, string(b), "## files written")

	press(a, "E")
	b, err = os.ReadFile(filepath.Join(dir, "hudiscope-v9_txns_cow_simple_meta-report-20261130-120000.md"))
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, string(b), "# hudiscope report: v9_txns_cow_simple_meta")
	mustContain(t, screen(a), "exported report to")

}

// withPlaceholder replaces the default panes with the Timeline and one placeholder, the way
// another package drops its pane in through Options.Panes.
func withPlaceholder(o *Options) {
	o.Panes = func(c *common.Common) []common.Pane {
		return []common.Pane{timelineui.NewTimeline(c), common.NewPlaceholder(c, "Layout", common.StepReason(model.StepLayout, "layout analysis"))}
	}
}

func TestPlaceholderPane(t *testing.T) {
	dir := t.TempDir()
	a := loadedApp(t, fxV9, 80, 24, withPlaceholder, func(o *Options) { o.ExportDir = dir })
	press(a, "2")
	s := checkScreen(t, a, 80, 24)
	mustContain(t, s, "[2 Layout]")
	mustContain(t, s, "The layout analysis has not been built or loaded yet.")
	press(a, "e")
	b, err := os.ReadFile(filepath.Join(dir, "hudiscope-v9_txns_cow_simple_meta-layout-20261130-120000.md"))
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, string(b), "Nothing is shown here rather than a guess.")
	// After the step has run (or failed) the placeholder says so, still without data.
	snap := *a.Snapshot()
	snap.Done = append(append([]model.Step(nil), snap.Done...), model.StepLayout)
	feed(a, &snap)
	mustContain(t, screen(a), "has run, but its pane has not been built yet")
	press(a, "tab")
	if a.ActivePane() != 0 {
		t.Fatal("tab should wrap around two panes")
	}
}

func TestExportError(t *testing.T) {
	a := loadedApp(t, fxV9, 80, 24, func(o *Options) { o.ExportDir = "/nonexistent/dir" })
	press(a, "e")
	mustContain(t, screen(a), "export failed")
	press(a, "j") // any key clears the message
	mustNotContain(t, screen(a), "export failed")
}

func TestTooSmallOnlyQuits(t *testing.T) {
	a := loadedApp(t, fxV9, 50, 12)
	press(a, "3", "?")
	if a.ActivePane() != 1 || a.HelpOpen() {
		t.Fatal("keys other than q act on a too-small screen")
	}
	mustContain(t, screen(a), "terminal too small")
	a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	mustContain(t, screen(a), "[2 Timeline]")
}

// TestLoadingThenPanesFill feeds the real model.Load progress stream: loading screen first,
// then the Timeline pane, and no step blocks the view.
func TestLoadingThenPanesFill(t *testing.T) {
	needFixture(t, fxV9)
	var events []model.Progress
	_, err := model.Load(t.Context(), model.Options{Location: fxV9}, func(p model.Progress) { events = append(events, p) })
	if err != nil {
		t.Fatal(err)
	}
	a := newTestApp(80, 24)
	sawLoading, sawTimeline := false, false
	for _, p := range events {
		_, cmd := a.Update(ProgressMsg(p))
		run(a, cmd)
		s := checkScreen(t, a, 80, 24)
		if strings.Contains(s, "Reading ") {
			sawLoading = true
		}
		if strings.Contains(s, "▶ 20260307162434124") {
			sawTimeline = true
		}
	}
	if !sawLoading || !sawTimeline {
		t.Fatalf("loading shown %v, timeline shown %v", sawLoading, sawTimeline)
	}
}

// TestLoadViaInit runs the loader through Init like the program does.
func TestLoadViaInit(t *testing.T) {
	needFixture(t, fxV9)
	a := New(Options{Location: fxV9, Load: func(ctx context.Context, progress func(model.Progress)) {
		_, _ = model.Load(ctx, model.Options{Location: fxV9}, progress)
	}})
	a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	run(a, a.Init())
	if !a.finished || a.Snapshot() == nil || a.Snapshot().Timeline == nil {
		t.Fatal("load did not finish")
	}
	mustContain(t, screen(a), "v9_txns_cow_simple_meta")
}

func TestLateMarker(t *testing.T) {
	// b started after a but completed before it: a is marked.
	mk := func(req, comp string) *timeline.Instant {
		return &timeline.Instant{RequestedTime: req, CompletionTime: comp, Action: "commit", State: timeline.Completed}
	}
	ins := []*timeline.Instant{mk("20260101000000100", "20260101000000200"), mk("20260101000000150", "20260101000000300"),
		mk("20260101000000120", "20260101000000400")}
	old := mk("20251231000000000", "20251231000000100")
	old.Archived = true
	s := &model.Snapshot{Timeline: &timeline.Timeline{Instants: ins, Archived: []*timeline.Instant{old}}, Done: []model.Step{model.StepTimeline},
		StepErrors: map[model.Step]error{}, Config: &tableconfig.Config{Name: "t", Type: "COPY_ON_WRITE", Version: 9}}
	a := newTestApp(80, 24)
	a.Update(ProgressMsg{Snapshot: s, Finished: true})
	scr := screen(a)
	mustContain(t, scr, " ↯20260101000000120")
	mustContain(t, scr, "▶a20251231000000000") // archived marker (and the cursor)
	mustContain(t, scr, "completed after a later-started instant")
	press(a, "o")
	mustContain(t, screen(a), " ↯20260101000000120")
	press(a, "/")
	typeText(a, "late")
	mustContain(t, screen(a), "1/1 of 4")
	press(a, "esc", "/")
	typeText(a, "archived")
	mustContain(t, screen(a), "1/1 of 4")
}

// TestASCIIAndNoColor: --ascii draws only ASCII, and without color no color codes are sent.
func TestASCIIAndNoColor(t *testing.T) {
	states := [][]string{{}, {"enter"}, {"?"}, {"c", "tab", "enter"}, {"/", "u"}, {"2"}, {"G", "enter"}}
	for _, keys := range states {
		a := loadedApp(t, fxIncr, 80, 24, withPlaceholder, func(o *Options) { o.ASCII = true })
		press(a, keys...)
		s := screen(a)
		for i, r := range s {
			if r > 127 {
				t.Fatalf("keys %v: non-ASCII %q at %d:\n%s", keys, r, i, s)
			}
		}
		raw := a.View().Content
		if strings.Contains(raw, "\x1b[3") || strings.Contains(raw, "\x1b[4") || strings.Contains(raw, "38;") {
			t.Fatalf("keys %v: color codes without Options.Color: %q", keys, raw)
		}
	}
	a := newTestApp(80, 24, func(o *Options) { o.ASCII = true })
	a.Update(ProgressMsg{Step: model.StepTimeline, Index: 2, Total: 4, Snapshot: &model.Snapshot{StepErrors: map[model.Step]error{}, Done: []model.Step{model.StepProperties}}})
	for _, r := range screen(a) {
		if r > 127 {
			t.Fatalf("loading screen: non-ASCII %q", r)
		}
	}
}
