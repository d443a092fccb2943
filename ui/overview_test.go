package ui

import (
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/hudiscope/hudiscope/internal/units"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
	"github.com/hudiscope/hudiscope/ui/common"
	healthui "github.com/hudiscope/hudiscope/ui/health"
	layoutui "github.com/hudiscope/hudiscope/ui/layout"
	overviewui "github.com/hudiscope/hudiscope/ui/overview"
	timelineui "github.com/hudiscope/hudiscope/ui/timeline"
)

// loadAll loads a fixture table with every input, at the fixed clock.
func loadAll(tb testing.TB, dir string) *model.Snapshot {
	tb.Helper()
	needFixture(tb, dir+"/table.zip")
	s, err := model.Load(context.Background(), model.Options{Location: dir + "/table.zip", Props: dir + "/writer.properties",
		EventLog: eventLogIn(tb, dir), ClusterDefaults: "-", Now: func() time.Time { return fixedNow }}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// loadTableOnly loads a fixture table without writer properties or event log, at the fixed
// clock: the explorer opened on a bare table.
func loadTableOnly(tb testing.TB, dir string) *model.Snapshot {
	tb.Helper()
	needFixture(tb, dir+"/table.zip")
	s, err := model.Load(context.Background(), model.Options{Location: dir + "/table.zip", ClusterDefaults: "-",
		Now: func() time.Time { return fixedNow }}, nil)
	if err != nil || s.Findings == nil {
		tb.Fatalf("load: %v %v", err, s.StepErrors)
	}
	return s
}

// TestOverviewTopFindingIsAnObservation: cow-services-1.2.0 opened without writer properties or
// event log has no corroborated observation, only hypotheses (OBS-008, 010, 020, 023, 026 — the
// highest-ranked of them, OBS-020 at 0.3, used to be shown as the top finding). The Overview and
// the report both say "none (5 hypotheses)"; with all three inputs both name OBS-020. (OBS-010
// is a hypothesis because its batch-bound condition is unknown without writer properties, not
// "no"; OBS-016 is not observed: the commit after the last clean is a clustering replacecommit
// and one write, which the clean trigger does not trail.)
func TestOverviewTopFindingIsAnObservation(t *testing.T) {
	s := loadTableOnly(t, fxServices)
	if obs := s.Findings.Observations(); len(obs) != 5 || obs[0].ID != "OBS-020" || obs[0].Status != "hypothesis" {
		t.Fatalf("ranked observation rows: %d, first %s %s; want 5, OBS-020 a hypothesis", len(obs), obs[0].ID, obs[0].Status)
	}
	const want = "none (5 hypotheses)"
	if got := s.Findings.TopFinding().Says; got != want {
		t.Errorf("TopFinding = %q, want %q", got, want)
	}
	screen := checkScreen(t, overviewApp(t, s, 80, 24), 80, 24)
	if !strings.Contains(screen, "top finding") || !strings.Contains(screen, want) || strings.Contains(screen, "OBS-0") {
		t.Errorf("Overview does not say %q:\n%s", want, screen)
	}
	if md := report.FindingsMarkdown(s.Findings); !strings.Contains(md, "**Top finding:** "+want+":") {
		t.Errorf("report does not say %q", want)
	}
	all := loadAll(t, fxServices)
	if top := all.Findings.TopFinding(); top.ID != "OBS-020" {
		t.Errorf("all inputs: top %q, want OBS-020", top.Says)
	}
	screen = checkScreen(t, overviewApp(t, all, 80, 24), 80, 24)
	if !strings.Contains(screen, "OBS-020 A savepoint") {
		t.Errorf("Overview with all inputs does not name OBS-020:\n%s", screen)
	}
}

// badSnapshot is a table with a damaged instant file: the reader reports a problem.
func badSnapshot(tb testing.TB) *model.Snapshot {
	tb.Helper()
	path := "../testdata/bad/instant-invalid-json/table"
	needFixture(tb, path)
	s, err := model.Load(context.Background(), model.Options{Location: path, ClusterDefaults: "-", Now: func() time.Time { return fixedNow }}, nil)
	if err != nil || len(s.Problems()) == 0 {
		tb.Fatalf("want problems: %v %v", err, s.Problems())
	}
	return s
}

// overviewApp starts on the Overview, as the explorer does.
func overviewApp(tb testing.TB, s *model.Snapshot, w, h int, mod ...func(*Options)) *App {
	a := appWith(tb, s, w, h, append([]func(*Options){func(o *Options) { o.Start = "" }}, mod...)...)
	return a
}

// TestOverviewGolden: the Overview and the problems view at 80x24 and 120x40. Refresh with -update.
func TestOverviewGolden(t *testing.T) {
	cases := []struct {
		name string
		snap func(testing.TB) *model.Snapshot
		keys []string
		mod  func(*Options)
	}{
		{"overview-mor-services", func(tb testing.TB) *model.Snapshot { return loadAll(tb, fxMORServices) }, nil, nil},
		{"overview-cow-services", func(tb testing.TB) *model.Snapshot { return loadAll(tb, fxServices) }, []string{"j", "j", "j", "j", "j"}, nil},
		{"overview-utc-zone-raw", func(tb testing.TB) *model.Snapshot { return loadAll(tb, fxServices) }, []string{"z", "z", "z", "j"}, nil},
		{"overview-ascii", func(tb testing.TB) *model.Snapshot { return loadAll(tb, fxServices) }, nil, func(o *Options) { o.ASCII = true }},
		{"overview-table-only", func(tb testing.TB) *model.Snapshot { return loadTableOnly(tb, fxServices) }, nil, nil},
		{"overview-bad", badSnapshot, nil, nil},
		{"problems-bad", badSnapshot, []string{"p"}, nil},
		// Table only: the writer properties set a key Hudi 1.x ignores, which is a problem.
		{"problems-none", func(tb testing.TB) *model.Snapshot { return loadTableOnly(tb, fxServices) }, []string{"p"}, nil},
	}
	for _, c := range cases {
		for _, sz := range sizes {
			w, h := sz[0], sz[1]
			t.Run(fmt.Sprintf("%s/%dx%d", c.name, w, h), func(t *testing.T) {
				var mods []func(*Options)
				if c.mod != nil {
					mods = append(mods, c.mod)
				}
				a := overviewApp(t, c.snap(t), w, h, mods...)
				press(a, c.keys...)
				golden.RequireEqual(t, checkScreen(t, a, w, h))
			})
		}
	}
}

// TestOverviewLinks: Enter on every overview line shows the pane and the row behind it.
func TestOverviewLinks(t *testing.T) {
	s := loadAll(t, fxMORServices)
	a := overviewApp(t, s, 80, 24)
	ov := a.Pane(0).(*overviewui.Overview)
	rows := ov.Rows()
	if len(rows) < 10 {
		t.Fatalf("only %d overview lines", len(rows))
	}
	for i, r := range rows {
		a := overviewApp(t, s, 80, 24)
		for j := 0; j < i; j++ {
			press(a, "j")
		}
		press(a, "enter")
		want := r.Link.Pane
		got := a.view().Title()
		if got != want {
			t.Errorf("line %d %q: Enter shows %s, want %s", i, r.Label, got, want)
			continue
		}
		if strings.Contains(a.Message(), "not found") {
			t.Errorf("line %d %q: %s", i, r.Label, a.Message())
		}
		switch p := a.view().(type) {
		case *timelineui.Timeline:
			if r.Link.Instant != "" && (p.Selected() == nil || p.Selected().RequestedTime != r.Link.Instant) {
				t.Errorf("line %d %q: Timeline shows %v, want instant %s", i, r.Label, p.Selected(), r.Link.Instant)
			}
		case *layoutui.LayoutPane:
			if r.Link.Partition != "" {
				if _, v, _ := p.CopyValue(); v != r.Link.Partition {
					t.Errorf("line %d %q: Layout selects %q, want %q", i, r.Label, v, r.Link.Partition)
				}
			}
		case *healthui.HealthPane:
			if r.Link.Check != "" {
				if _, v, _ := p.CopyValue(); !strings.HasPrefix(v, r.Link.Check+"=") {
					t.Errorf("line %d %q: Health selects %q, want %q", i, r.Label, v, r.Link.Check)
				}
			}
		}
	}
	// Every kind of line is there.
	var labels []string
	for _, r := range rows {
		labels = append(labels, r.Label)
	}
	for _, want := range []string{"table", "version", "size", "partitions", "files", "last commit", "pending", "health", "top finding", "incr. 1.1+", "problems"} {
		if !strings.Contains(strings.Join(labels, "|"), want) {
			t.Errorf("no %q line: %v", want, labels)
		}
	}
}

func TestClock(t *testing.T) {
	writer := time.FixedZone("CET", 3600)
	c := &common.Clock{Now: func() time.Time { return fixedNow }, Local: time.FixedZone("PST", -8*3600)}
	raw := "20261130120000123" // 11:00:00.123 UTC
	for mode, want := range map[common.TimeMode]string{common.TimeWriter: "2026-11-30 12:00:00.123 CET", common.TimeUTC: "2026-11-30 11:00:00.123 UTC",
		common.TimeLocal: "2026-11-30 03:00:00.123 PST", common.TimeRaw: raw} {
		c.Mode = mode
		if got := c.Instant(raw, writer); got != want {
			t.Errorf("%v: %q, want %q", mode, got, want)
		}
	}
	c.Mode = common.TimeUTC
	if got := c.Instant("00000000000000000", writer); got != "00000000000000000" {
		t.Errorf("non-date instant: %q", got)
	}
	for d, want := range map[time.Duration]string{3 * time.Hour: "3h ago", 90 * time.Second: "1m ago", 72 * time.Hour: "3d ago", 0: "just now", -5 * time.Minute: "in 5m"} {
		if got := c.Age(fixedNow.Add(-d)); got != want {
			t.Errorf("age %v: %q, want %q", d, got, want)
		}
	}
	for d, want := range map[time.Duration]string{850 * time.Millisecond: "850ms", 4200 * time.Millisecond: "4.2s", 185 * time.Second: "3m05s", 133 * time.Minute: "2h13m", 76 * time.Hour: "3d4h"} {
		if got := units.Duration(d); got != want {
			t.Errorf("dur %v: %q, want %q", d, got, want)
		}
	}
}

// TestOSC52: the exact clipboard sequences, plain, inside tmux (plain and passthrough) and
// inside GNU screen (DCS chunks).
func TestOSC52(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	v := "20261129155610512"
	b64 := base64.StdEncoding.EncodeToString([]byte(v))
	plain := "\x1b]52;c;" + b64 + "\a"
	if got := common.Osc52(v, env()); got != plain {
		t.Errorf("plain: %q", got)
	}
	tmux := plain + "\x1bPtmux;\x1b\x1b]52;c;" + b64 + "\a\x1b\\"
	if got := common.Osc52(v, env("TMUX", "/tmp/tmux-0/default,1,0", "TERM", "screen-256color")); got != tmux {
		t.Errorf("tmux: %q", got)
	}
	screenSeq := "\x1bP" + plain + "\x1b\\"
	if got := common.Osc52(v, env("STY", "123.pts-0", "TERM", "screen")); got != screenSeq {
		t.Errorf("screen: %q", got)
	}
	long := strings.Repeat("x", 200)
	got := common.Osc52(long, env("STY", "1"))
	if n := strings.Count(got, "\x1bP"); n < 2 {
		t.Errorf("screen: %d DCS chunks for a long value", n)
	}
	if strings.ReplaceAll(strings.ReplaceAll(got, "\x1bP", ""), "\x1b\\", "") != common.Osc52(long, env()) {
		t.Error("screen chunks do not join to the sequence")
	}
}

// TestCopyKey: y on an overview line writes the sequence through bubbletea and says what.
func TestCopyKey(t *testing.T) {
	s := loadAll(t, fxServices)
	a := overviewApp(t, s, 80, 24, func(o *Options) {
		o.Getenv = func(k string) string {
			if k == "TMUX" {
				return "x"
			}
			return ""
		}
	})
	ov := a.Pane(0).(*overviewui.Overview)
	for i, r := range ov.Rows() {
		if r.Label == "last commit" {
			ov.Cursor = i
		}
	}
	_, want, ok := ov.CopyValue()
	if !ok || len(want) != 17 {
		t.Fatalf("last commit copies %q", want)
	}
	_, cmd := a.Update(keyMsg("y"))
	if cmd == nil {
		t.Fatal("y: no command")
	}
	raw, ok := cmd().(tea.RawMsg)
	if !ok {
		t.Fatalf("y: %T, want tea.RawMsg", cmd())
	}
	if raw.Msg != common.Osc52(want, a.opts.Getenv) || !strings.Contains(fmt.Sprint(raw.Msg), "\x1bPtmux;") {
		t.Errorf("sequence %q", raw.Msg)
	}
	mustContain(t, screen(a), "copied instant "+want)
	// Nothing to copy on a pane without a value.
	press(a, "6")
	if _, isCopier := a.view().(common.Copier); !isCopier {
		_, cmd = a.Update(keyMsg("y"))
		if cmd != nil || !strings.Contains(a.Message(), "nothing to copy") {
			t.Errorf("y on %s: %q", a.view().Title(), a.Message())
		}
	}
}

func TestProblemsView(t *testing.T) {
	a := overviewApp(t, badSnapshot(t), 80, 24, func(o *Options) { o.Mouse = true })
	press(a, "p")
	if !a.ProblemsOpen() {
		t.Fatal("p does not open the problems view")
	}
	mustContain(t, screen(a), "neither valid JSON nor an Avro object container file")
	press(a, "esc")
	if a.ProblemsOpen() {
		t.Fatal("esc does not close it")
	}
	// A click on the badge opens it.
	x0, x1 := a.badgeSpan()
	if x0 < 0 || !strings.Contains(strings.Split(screen(a), "\n")[23], "problem(s)") {
		t.Fatalf("no badge: %d %q", x0, strings.Split(screen(a), "\n")[23])
	}
	line := []rune(strings.Split(screen(a), "\n")[23])
	if got := string(line[x0:x1]); !strings.Contains(got, "problem(s)") {
		t.Fatalf("badge span %d-%d is %q", x0, x1, got)
	}
	a.Update(tea.MouseClickMsg{X: x0 + 2, Y: 23, Button: tea.MouseLeft})
	if !a.ProblemsOpen() {
		t.Fatal("a click on the badge does not open the problems view")
	}
	_, _, ok := a.probs.CopyValue()
	if !ok {
		t.Fatal("no file to copy")
	}
}

func TestMouseClicks(t *testing.T) {
	s := loadAll(t, fxServices)
	a := overviewApp(t, s, 80, 24, func(o *Options) { o.Mouse = true })
	if a.View().MouseMode != tea.MouseModeCellMotion {
		t.Fatal("Options.Mouse does not capture the mouse")
	}
	tabs := strings.Split(screen(a), "\n")[1]
	for i, title := range []string{"Overview", "Timeline", "Layout", "Health", "Event log", "Findings"} {
		x := strings.Index(tabs, title)
		a.Update(tea.MouseClickMsg{X: len([]rune(tabs[:x])), Y: 1, Button: tea.MouseLeft})
		if a.ActivePane() != i {
			t.Errorf("click on %s: pane %d", title, a.ActivePane())
		}
	}
	// Overview rows: a click selects, a second click opens.
	a.Update(tea.MouseClickMsg{X: 5, Y: 1, Button: tea.MouseLeft})
	a.Update(tea.MouseClickMsg{X: 5, Y: 2 + 1 + 3, Button: tea.MouseLeft})
	ov := a.Pane(0).(*overviewui.Overview)
	if ov.Cursor != 3 {
		t.Fatalf("click selects row %d, want 3", ov.Cursor)
	}
	_, cmd := a.Update(tea.MouseClickMsg{X: 5, Y: 6, Button: tea.MouseLeft})
	run(a, cmd)
	if a.view().Title() != ov.Rows()[3].Link.Pane {
		t.Errorf("second click shows %s", a.view().Title())
	}
	// Layout and Health rows.
	press(a, "3")
	lp := a.Pane(2).(*layoutui.LayoutPane)
	a.Update(tea.MouseClickMsg{X: 5, Y: 2 + len(lp.TopSummary(lp.Width)) + 1 + 1, Button: tea.MouseLeft})
	if l := lp; l.List.Cursor != 1 {
		t.Errorf("layout click: cursor %d", l.List.Cursor)
	}
	press(a, "4")
	a.Update(tea.MouseClickMsg{X: 5, Y: 2 + 2 + 2, Button: tea.MouseLeft})
	if h := a.Pane(3).(*healthui.HealthPane); h.List.Cursor != 2 {
		t.Errorf("health click: cursor %d", h.List.Cursor)
	}
}

// TestSuspendNeedsJobControl: without job control ctrl+z does nothing but say so.
func TestSuspendNeedsJobControl(t *testing.T) {
	a := newTestApp(80, 24, func(o *Options) {
		o.JobControl = func() (bool, string) { return false, "the shell has no job control" }
	})
	_, cmd := a.Update(tea.KeyPressMsg{Code: 'z', Mod: tea.ModCtrl})
	if cmd != nil {
		t.Fatal("ctrl+z suspends without job control")
	}
	mustContain(t, screen(a), "ctrl+z ignored: the shell has no job control (q quits)")
	b := newTestApp(80, 24)
	_, cmd = b.Update(tea.KeyPressMsg{Code: 'z', Mod: tea.ModCtrl})
	if cmd == nil {
		t.Fatal("ctrl+z does not suspend with job control")
	}
}

// TestExportFits: E on the largest fixture writes under report.ExportLimit and the status line
// names the file, not its directory; --full-export writes everything.
func TestExportFits(t *testing.T) {
	s := loadAll(t, fxMORServices)
	for _, full := range []bool{false, true} {
		dir := t.TempDir()
		a := overviewApp(t, s, 80, 24, func(o *Options) { o.ExportDir = dir; o.FullExport = full })
		press(a, "E")
		files, _ := filepath.Glob(filepath.Join(dir, "*.md"))
		if len(files) != 1 {
			t.Fatalf("%d files", len(files))
		}
		b, _ := os.ReadFile(files[0])
		full0 := report.Markdown(context.Background(), s)
		switch {
		case !full && len(b) > report.ExportLimit:
			t.Errorf("E wrote %d bytes", len(b))
		case full && string(b) != full0:
			t.Errorf("--full-export wrote %d bytes, want %d", len(b), len(full0))
		}
		msg := strings.Split(screen(a), "\n")[23]
		if !strings.Contains(msg, filepath.Base(files[0])) || strings.Contains(msg, dir) {
			t.Errorf("status %q", msg)
		}
	}
}

// The Overview and the Timeline header show, per reader line, the value to resume after the
// latest commit and the earliest readable one, labelled; each shown value is one the
// checkpoint analyzer accepts: the resume value reads nothing (no re-read of the last
// batch), the earliest one reads every retained write. cow-services-1.2.0 (v9, Hudi 1.1+:
// completion time > begin): the latest commit 20261129162134323 completed at
// 20261129162151912; the last clean retains from 20261129161947920, whose commit completed
// at 20261129162008756, so the earliest value is one millisecond before it (values checked by
// hand against the timeline file names).
func TestOverviewIncrementalBegins(t *testing.T) {
	s := loadAll(t, fxServices)
	a := overviewApp(t, s, 80, 24)
	ov := a.Pane(0).(*overviewui.Overview)
	got := map[string]overviewui.OvRow{}
	for _, r := range ov.Rows() {
		if r.CopyLabel == "begin.instanttime" {
			got[r.Value] = r
		}
	}
	resume := "resume after the latest commit: 20261129162151912"
	early := "earliest readable (cleaner retention): 20261129162008755"
	if len(got) != 2 || got[resume].Label != "incr. 1.1+" || got[early].CopyValue == "" {
		t.Fatalf("overview begin rows %v, want %q (labelled incr. 1.1+) and %q", got, resume, early)
	}
	if got[resume].Link.Instant != "20261129162134323" || got[early].Link.Instant != "20261129161947920" {
		t.Errorf("jumps %s / %s", got[resume].Link.Instant, got[early].Link.Instant)
	}
	check := func(v string) (covered int, reRead, retained bool) {
		// The first reader line's verdict (s.Readers()[0]), the line the rows are labelled with.
		r := s.CheckCheckpoint(context.Background(), strings.TrimPrefix(v, "hoodie.datasource.read.begin.instanttime="))[0]
		return len(r.Covered), r.ReRead, r.InCleanerRetention && r.InActiveTimeline
	}
	if n, rr, _ := check(got[resume].CopyValue); n != 0 || rr {
		t.Errorf("resume value covers %d, re-read %v; want nothing read again", n, rr)
	}
	// The three commits from 20261129161947920 on (…1947920, …2031337, …2134323).
	if n, rr, ok := check(got[early].CopyValue); n != 3 || rr || !ok {
		t.Errorf("earliest value covers %d, re-read %v, readable %v; want 3 writes, no re-read, readable", n, rr, ok)
	}
	tl := a.Pane(1).(*timelineui.Timeline)
	tl.Tl = nil // rebuild from s and compute the begins in line
	if cmd := tl.SetSnapshot(s); cmd != nil {
		tl.Update(cmd())
	}
	head := ansi.Strip(strings.Join(tl.HeaderLines(80), "\n"))
	for _, want := range []string{" resume after the latest commit: 20261129162151912 (Hudi 1.1+)", " earliest readable (cleaner retention): 20261129162008755 (Hudi 1.1+)"} {
		if !strings.Contains(head, want) {
			t.Errorf("timeline header lacks %q:\n%s", want, head)
		}
	}
}
