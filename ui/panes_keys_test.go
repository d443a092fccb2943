package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/model"
	eventlogui "github.com/hudiscope/hudiscope/ui/eventlog"
	healthui "github.com/hudiscope/hudiscope/ui/health"
	layoutui "github.com/hudiscope/hudiscope/ui/layout"
)

func noANSI(t *testing.T, md string) {
	t.Helper()
	if strings.Contains(md, "\x1b") {
		t.Fatal("ANSI escape in exported Markdown")
	}
}

func TestLayoutPaneKeys(t *testing.T) {
	a := appWith(t, morSnapshot(t), 80, 24)
	press(a, "3")
	p := a.Pane(2).(*layoutui.LayoutPane)
	if got := p.Status(); got != "1/3" {
		t.Fatalf("status %q", got)
	}
	first := func() string { return p.Parts[p.List.Selected()].Partition }
	if first() != "region=apac" {
		t.Fatalf("natural order starts at %s", first())
	}
	press(a, "s") // files, largest first
	if first() != "region=eu" || p.List.SortBy != 1 {
		t.Fatalf("sort by files: %s (col %d)", first(), p.List.SortBy)
	}
	for i := 0; i < 7; i++ {
		press(a, "s")
	}
	if p.List.SortBy != -1 {
		t.Fatalf("s cycles back to name order, at col %d", p.List.SortBy)
	}
	press(a, "/")
	if !p.Capturing() {
		t.Fatal("/ opens the filter input")
	}
	typeText(a, "us")
	press(a, "enter")
	if p.Capturing() || p.Status() != "1/1 of 3" || first() != "region=us" {
		t.Fatalf("filter: capturing %v status %q", p.Capturing(), p.Status())
	}
	press(a, "esc")
	if p.List.Filter != "" || p.Status() != "3/3" {
		t.Fatalf("esc clears the filter, keeping the selection: %q %q", p.List.Filter, p.Status())
	}
	press(a, "h")
	if !p.HistPart {
		t.Fatal("h switches the histogram to the partition")
	}
	press(a, "enter")
	if got := p.Breadcrumb(); len(got) != 1 || got[0] != "region=us" {
		t.Fatalf("breadcrumb %v", got)
	}
	slug, md := p.Export()
	noANSI(t, md)
	if slug != "layout-region=us" || !strings.Contains(md, "# Layout: v9_txns_mor_simple_meta, partition region=us") {
		t.Fatalf("partition export %s:\n%s", slug, md)
	}
	press(a, "enter")
	if len(p.Breadcrumb()) != 2 || !strings.Contains(screen(a), "base") {
		t.Fatalf("file group level: %v", p.Breadcrumb())
	}
	_, md = p.Export()
	if !strings.Contains(md, "| slice | kind | file | bytes |") {
		t.Fatalf("file group export:\n%s", md)
	}
	press(a, "esc", "esc")
	if len(p.Breadcrumb()) != 0 {
		t.Fatal("esc twice returns to the partitions")
	}
	if p.Back() {
		t.Fatal("Back at the top level reports nothing done")
	}
	_, md = p.Export()
	noANSI(t, md)
	for _, want := range []string{"### Partitions", "### File sizes", "### Skew", "### Detectors", "| region=eu |"} {
		if !strings.Contains(md, want) {
			t.Errorf("layout export lacks %q", want)
		}
	}
}

func TestHealthPaneKeys(t *testing.T) {
	a := appWith(t, morDefaultsSnapshot(t), 80, 24)
	press(a, "4")
	p := a.Pane(3).(*healthui.HealthPane)
	if p.Status() != "1/7" {
		t.Fatalf("status %q", p.Status())
	}
	press(a, "s", "s", "s", "s") // check, status, observed, state: worst first
	if got := p.Res.Checks[p.List.Selected()].Name; got != "cleaner" || p.List.SortBy != 5 {
		t.Fatalf("sorted by state: %s first (col %d)", got, p.List.SortBy)
	}
	press(a, "/")
	typeText(a, "mdt")
	if p.Status() != "1/2 of 7" {
		t.Fatalf("filter mdt: %q", p.Status())
	}
	press(a, "enter", "enter")
	if got := p.Breadcrumb(); len(got) != 1 || !strings.HasPrefix(got[0], "mdt-") {
		t.Fatalf("breadcrumb %v", got)
	}
	slug, md := p.Export()
	noANSI(t, md)
	if !strings.HasPrefix(slug, "health-mdt-") || !strings.Contains(md, "| writer property | value | source |") {
		t.Fatalf("check export %s:\n%s", slug, md)
	}
	press(a, "esc")
	if p.Detail != nil || p.List.Filter != "mdt" {
		t.Fatal("esc leaves the check, keeping the filter")
	}
	press(a, "esc")
	if p.List.Filter != "" {
		t.Fatal("second esc clears the filter")
	}
	_, md = p.Export()
	if !strings.Contains(md, "| cleaner | UNHEALTHY |") || !strings.Contains(md, "behind, not stopped") {
		t.Fatalf("health export:\n%s", md)
	}
}

func TestEventLogPaneKeys(t *testing.T) {
	a := appWith(t, incrSnapshot(t), 80, 24)
	press(a, "5")
	p := a.Pane(4).(*eventlogui.EventLogPane)
	n := len(p.Rep.Stages)
	press(a, "s", "s", "s") // phase, tasks, duration
	if p.List.SortBy != 4 {
		t.Fatalf("third s sorts by duration, got col %d", p.List.SortBy)
	}
	top := p.Rep.Stages[p.List.Selected()]
	for _, s := range p.Rep.Stages {
		if s.Observed.DurationMillis > top.Observed.DurationMillis {
			t.Fatalf("stage %d is longer than the first row", s.StageID)
		}
	}
	press(a, "enter")
	if got := p.Breadcrumb(); len(got) != 1 || !strings.HasPrefix(got[0], "stage ") {
		t.Fatalf("breadcrumb %v", got)
	}
	if !strings.Contains(screen(a), "task durations") {
		t.Fatal("stage view shows task durations")
	}
	slug, md := p.Export()
	noANSI(t, md)
	if !strings.HasPrefix(slug, "event-log-stage-") || !strings.Contains(md, "| percentile | task duration |") {
		t.Fatalf("stage export %s:\n%s", slug, md)
	}
	press(a, "esc", "w")
	if len(p.Breadcrumb()) != 1 || !strings.Contains(screen(a), "Spark properties relevant to Hudi") && !strings.Contains(screen(a), "Caveats") {
		t.Fatal("w opens caveats & properties")
	}
	press(a, "esc", "/")
	typeText(a, "tagging")
	press(a, "enter")
	if p.List.Filter != "tagging" || len(p.List.Visible()) == 0 || len(p.List.Visible()) == n {
		t.Fatalf("filter tagging: %d of %d", len(p.List.Visible()), n)
	}
	if !strings.Contains(screen(a), "caveats:") {
		t.Fatal("caveats stay visible")
	}
	_, md = p.Export()
	noANSI(t, md)
	for _, want := range []string{"### Phases", "### Operations", "### Stages", "### Caveats", "### Spark properties relevant to Hudi", "filter `tagging`"} {
		if !strings.Contains(md, want) {
			t.Errorf("event log export lacks %q", want)
		}
	}
}

func TestEventLogPaneAbsent(t *testing.T) {
	a := appWith(t, morSnapshot(t), 80, 24)
	press(a, "5")
	if !strings.Contains(screen(a), "No event log given: start with --event-log PATH") {
		t.Fatal(screen(a))
	}
	s := morSnapshot(t)
	s.Options.EventLog = "missing.log"
	s.StepErrors = map[model.Step]error{model.StepEventLog: os.ErrNotExist}
	s.Done = append(s.Done, model.StepEventLog)
	a = appWith(t, s, 80, 24)
	press(a, "5")
	if !strings.Contains(screen(a), "could not be analysed") {
		t.Fatal(screen(a))
	}
}

// The e key writes the active pane's Markdown to the export directory.
func TestAnalysisPaneExportKey(t *testing.T) {
	dir := t.TempDir()
	a := appWith(t, incrSnapshot(t), 80, 24, func(o *Options) { o.ExportDir = dir })
	for _, pane := range []string{"3", "4", "5"} {
		press(a, pane, "e")
		if !strings.HasPrefix(a.Message(), "exported ") {
			t.Fatalf("pane %s: %q", pane, a.Message())
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.md"))
	if len(files) != 3 {
		t.Fatalf("exports %v", files)
	}
	for _, f := range files {
		b, _ := os.ReadFile(f)
		noANSI(t, string(b))
	}
}
