package ui

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/ui/common"
	findingsui "github.com/hudiscope/hudiscope/ui/findings"
)

func TestFindingsPane(t *testing.T) {
	dir := "../testdata/fixtures/cow-services-1.2.0"
	logs, _ := filepath.Glob(filepath.Join(dir, "eventlog_v2_*"))
	if len(logs) == 0 {
		t.Skip("fixture not present")
	}
	s, err := model.Load(context.Background(), model.Options{Location: filepath.Join(dir, "table.zip"),
		Props: filepath.Join(dir, "writer.properties"), EventLog: logs[0]}, nil)
	if err != nil || s.Findings == nil {
		t.Skipf("fixture: %v", err)
	}
	p := findingsui.NewFindings(&common.Common{Styles: common.NewStyles(false, false), Keys: common.DefaultKeyMap()})
	p.SetSize(100, 30)
	p.SetSnapshot(s)
	v := ansi.Strip(p.View(100, 30))
	for _, want := range []string{"Inputs and confidence", "Observations, by payoff", "OBS-020"} {
		if !strings.Contains(v, want) {
			t.Fatalf("list view lacks %q:\n%s", want, v)
		}
	}
	p.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if len(p.Breadcrumb()) != 1 {
		t.Fatal("enter did not open the evidence view")
	}
	d := ansi.Strip(p.View(100, 30))
	if !strings.Contains(d, "inputs that agreed") || !strings.Contains(d, "table.") {
		t.Fatalf("evidence view:\n%s", d)
	}
	if slug, md := p.Export(); !strings.HasPrefix(slug, "finding-") || !strings.Contains(md, "Verify") {
		t.Fatalf("export %s", slug)
	}
	if !p.Back() || p.Back() {
		t.Fatal("esc should leave the evidence view once")
	}
	for _, l := range strings.Split(p.View(100, 30), "\n") {
		if ansi.StringWidth(l) > 100 {
			t.Fatalf("line wider than the pane: %q", l)
		}
	}
}

// TestFindingsPaneIsText: every finding's evidence, at 80 columns, on cow-services-1.2.0 with
// all inputs and bare, and mor-services-1.2.0 with its writer properties, is text: no Markdown
// emphasis or code marks, no heading or quote markers, no escaped pipes, and no reference a
// reader cannot look up (internal incident ids, an internal role's name).
func TestFindingsPaneIsText(t *testing.T) {
	snaps := map[string]*model.Snapshot{"cow-services all inputs": loadAll(t, fxServices), "cow-services bare": loadTableOnly(t, fxServices)}
	needFixture(t, fxMORServices+"/table.zip")
	s, err := model.Load(context.Background(), model.Options{Location: fxMORServices + "/table.zip", Props: fxMORServices + "/writer.properties",
		ClusterDefaults: "-", Now: func() time.Time { return fixedNow }}, nil)
	if err != nil || s.Findings == nil {
		t.Fatalf("load: %v", err)
	}
	snaps["mor-services props"] = s
	bad := []string{"**", "`", `\|`, "HUDI-RCA", "hudi-architect", "hudi-cli", " ADR"}
	for name, s := range snaps {
		p := findingsui.NewFindings(&common.Common{Styles: common.NewStyles(false, false), Keys: common.DefaultKeyMap()})
		p.SetSize(80, 24)
		p.SetSnapshot(s)
		if len(p.All) < 8 {
			t.Fatalf("%s: %d findings listed", name, len(p.All))
		}
		sawTable := false
		for _, f := range p.All {
			p.Open(f)
			lines := p.DetailLines(80)
			if !strings.HasPrefix(lines[0], " "+f.ID+" — ") {
				t.Errorf("%s %s: heading %q, want the id and title without #", name, f.ID, lines[0])
			}
			for _, l := range lines {
				l = ansi.Strip(l)
				for _, b := range bad {
					if strings.Contains(l, b) {
						t.Errorf("%s %s: %q in %q", name, f.ID, b, l)
					}
				}
				if tl := strings.TrimSpace(l); strings.HasPrefix(tl, "#") || strings.HasPrefix(tl, "> ") {
					t.Errorf("%s %s: Markdown marker in %q", name, f.ID, l)
				}
				sawTable = sawTable || strings.Contains(l, " · ")
			}
		}
		if !sawTable {
			t.Errorf("%s: no evidence row rendered", name)
		}
	}
	// Values keep their text: a code span's content, a pipe inside a cell.
	for in, want := range map[string]string{
		"- `hoodie.clean.async` on (now false)": "- hoodie.clean.async on (now false)",
		"**Change:** raise it":                  "Change: raise it",
		`| for | props | a\|b | 1 |`:            "  for · props · a|b · 1",
		"> Caveat: partial":                     "Caveat: partial",
		"# OBS-001 — Base files":                "OBS-001 — Base files",
	} {
		if got := findingsui.TerminalText(in); got != want {
			t.Errorf("terminalText(%q) = %q, want %q", in, got, want)
		}
	}
}
