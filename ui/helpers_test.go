package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/model"
)

// corpus is the external hudi-rs test-table corpus, relative to this package.
const corpus = "../../shared/testdata/hudi-rs/crates/test/data/"

const (
	fxV9   = corpus + "sample_table/cow/v9_txns_simple_meta.zip"
	fxV6   = corpus + "sample_table/mor/parquet/v6_simplekeygen_nonhivestyle_overwritetable.zip"
	fxIncr = "../testdata/fixtures/incr-1.2.0/table.zip"
	fxCDC  = "../testdata/fixtures/cdc-1.2.0/table.zip"
	fxSvc  = "../testdata/fixtures/cow-services-1.2.0/table.zip"
)

var fixedNow = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func needFixture(tb testing.TB, path string) {
	tb.Helper()
	if _, err := os.Stat(path); err != nil {
		tb.Skipf("fixture %s not present (external corpus at ../shared/testdata or testdata/fixtures): %v", path, err)
	}
}

// snapshotFor reads properties and the timeline (the steps the Timeline pane needs) the way
// model.Load does, without the later analysis steps, so goldens do not change when those do.
func snapshotFor(tb testing.TB, path string, archived bool) *model.Snapshot {
	tb.Helper()
	s, _ := openSnapshot(tb, path, archived)
	return s
}

// openSnapshot is snapshotFor with the table it read, for tests that run analysis steps themselves.
func openSnapshot(tb testing.TB, path string, archived bool) (*model.Snapshot, *hudi.Table) {
	tb.Helper()
	needFixture(tb, path)
	ctx := context.Background()
	t, err := hudi.Open(ctx, path, storage.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tl, err := t.ActiveTimeline(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	done := []model.Step{model.StepProperties, model.StepTimeline}
	if archived {
		if err := t.LoadArchived(ctx, tl); err != nil {
			tb.Fatal(err)
		}
		done = append(done, model.StepArchived)
	}
	return model.NewSnapshot(model.Options{Location: filepath.Base(path), Archived: archived}, t, tl, done...), t
}

func newTestApp(w, h int, mod ...func(*Options)) *App {
	// Most tests start on the Timeline, as the explorer did before the Overview; no job control.
	o := Options{Location: "table.zip", ExportDir: os.TempDir(), Now: func() time.Time { return fixedNow }, Start: "Timeline",
		JobControl: func() (bool, string) { return true, "" }, Getenv: func(string) string { return "" }, Local: time.UTC}
	for _, m := range mod {
		m(&o)
	}
	a := New(o)
	a.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return a
}

// run executes a Cmd and feeds its messages back, like the runtime does (no quit handling).
func run(a *App, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	msg := cmd()
	switch m := msg.(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range m {
			run(a, c)
		}
	case tea.QuitMsg:
	default:
		_, next := a.Update(m)
		run(a, next)
	}
}

// feed publishes a snapshot as the final load event.
func feed(a *App, s *model.Snapshot) {
	_, cmd := a.Update(ProgressMsg{Index: len(s.Done), Total: len(s.Done), Snapshot: s, Finished: true})
	run(a, cmd)
}

func loadedApp(tb testing.TB, path string, w, h int, mod ...func(*Options)) *App {
	tb.Helper()
	s := snapshotFor(tb, path, false)
	a := newTestApp(w, h, mod...)
	feed(a, s)
	return a
}

func press(a *App, keys ...string) {
	for _, k := range keys {
		_, cmd := a.Update(keyMsg(k))
		run(a, cmd)
	}
}

func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	}
	r := []rune(k)
	if len(r) != 1 {
		panic("unknown key " + k)
	}
	return tea.KeyPressMsg{Code: r[0], Text: k}
}

func typeText(a *App, s string) {
	for _, r := range s {
		press(a, string(r))
	}
}

// screen is what a user sees: the view without styling.
func screen(a *App) string { return ansi.Strip(a.View().Content) }

func checkScreen(tb testing.TB, a *App, w, h int) string {
	tb.Helper()
	s := screen(a)
	lines := strings.Split(s, "\n")
	if len(lines) != h {
		tb.Fatalf("view has %d lines, want %d:\n%s", len(lines), h, s)
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n > w {
			tb.Fatalf("line %d is %d cells wide, want <= %d: %q", i, n, w, l)
		}
	}
	return s
}
