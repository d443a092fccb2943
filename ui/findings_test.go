package ui

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/hudiscope/hudiscope/model"
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
	p := NewFindings(&Common{Styles: NewStyles(false, false), Keys: DefaultKeyMap()})
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
