package ui

import (
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/findings"
	"github.com/hudiscope/hudiscope/ui/common"
	eventlogui "github.com/hudiscope/hudiscope/ui/eventlog"
	findingsui "github.com/hudiscope/hudiscope/ui/findings"
	healthui "github.com/hudiscope/hudiscope/ui/health"
	layoutui "github.com/hudiscope/hudiscope/ui/layout"
	timelineui "github.com/hudiscope/hudiscope/ui/timeline"
	"github.com/hudiscope/hudiscope/view"
)

// openEvidence shows the Findings pane with f's evidence open, as Enter on it would.
func openEvidence(t *testing.T, a *App, f *findings.Finding) *findingsui.Findings {
	t.Helper()
	press(a, "6")
	p := a.view().(*findingsui.Findings)
	p.Open(f)
	p.Reflow()
	return p
}

// followLink selects the evidence link to pane (n) and presses enter.
func followLink(t *testing.T, a *App, p *findingsui.Findings, pane string) {
	t.Helper()
	for i := 0; i < len(p.Links) && p.Links[p.Link].J.Pane() != pane; i++ {
		press(a, "n")
	}
	if p.Link >= len(p.Links) || p.Links[p.Link].J.Pane() != pane {
		t.Fatalf("no link to %s in %+v", pane, p.Targets)
	}
	press(a, "enter")
	if got := a.view().Title(); got != pane || a.msgBad {
		t.Fatalf("enter on the link shows %s (%q), want %s", got, a.Message(), pane)
	}
}

func findingByID(t *testing.T, a *App, id string) *findings.Finding {
	t.Helper()
	for _, f := range a.snap.Findings.Observations() {
		if f.ID == id {
			return f
		}
	}
	for _, f := range a.snap.Findings.Capabilities() {
		if f.ID == id {
			return f
		}
	}
	t.Fatalf("no finding %s", id)
	return nil
}

// TestFindingLinkInstantAndCheck: OBS-020's savepoint rows go to the savepoint instant and the
// savepoint health check, pressing enter in the evidence view.
func TestFindingLinkInstantAndCheck(t *testing.T) {
	s := fullSnapshot(t)
	a := appWith(t, s, 80, 24)
	press(a, "6")
	run(a, common.JumpTo(common.JumpFinding{ID: "OBS-020"}))
	press(a, "enter")
	p := a.view().(*findingsui.Findings)
	if p.Detail == nil || p.Detail.ID != "OBS-020" || len(p.Links) != 2 {
		t.Fatalf("evidence open: %v, links %+v", p.Detail, p.Links)
	}
	followLink(t, a, p, "Timeline")
	tl := a.view().(*timelineui.Timeline)
	// A savepoint's requested time is the commit's it keeps.
	want := p.Links[p.Link].J.(common.JumpInstant).Requested
	if in := tl.Selected(); in == nil || in.RequestedTime != want {
		t.Fatalf("Timeline selects %v, want %s", in, want)
	}

	press(a, "6")
	followLink(t, a, p, "Health")
	h := a.view().(*healthui.HealthPane)
	if i := h.List.Selected(); i < 0 || h.Res.Checks[i].Name != "savepoint" {
		t.Fatalf("Health selects %d, want savepoint", i)
	}
}

// TestFindingLinkStage: a subject naming stage 0 and an eventlog.stages signal go to their
// stages in the Event log (stage 0 is a target, not "no stage").
func TestFindingLinkStage(t *testing.T) {
	s := fullSnapshot(t)
	a := appWith(t, s, 120, 40)
	stages := findingsui.EventStages(s)
	phase := ""
	for _, st := range stages {
		if ph, _ := st.(map[string]any)["phase"].(string); ph != "" && phase == "" {
			phase = ph
		}
	}
	if phase == "" {
		t.Fatal("no stage with a phase")
	}
	want, ok := findingsui.PickStage(stages, "[phase="+phase+"].observed.durationMillis")
	if !ok {
		t.Fatal("no stage picked")
	}
	f := &findings.Finding{ID: "T-1", Title: "test", Subject: "stage 0 (TEST)", Signals: []findings.Evidence{
		{Path: "eventlog.stages[phase=" + phase + "].observed.durationMillis", Input: "eventlog", Known: true, Holds: true}}}
	p := openEvidence(t, a, f)
	if len(p.Links) != 2 {
		t.Fatalf("links %+v", p.Targets)
	}
	press(a, "enter") // the subject line is the first link
	e := a.view().(*eventlogui.EventLogPane)
	if i := e.Selected(); a.view().Title() != "Event log" || i < 0 || e.Stages[i].StageID != 0 {
		t.Fatalf("pane %s selects %d (%s), want stage 0", a.view().Title(), i, a.Message())
	}
	press(a, "6", "n", "enter")
	if i := e.Selected(); i < 0 || e.Stages[i].StageID != want {
		t.Fatalf("selects %d, want stage %d (%s)", i, want, a.Message())
	}
}

// TestFindingLinkPartition: a layout.skew signal goes to the largest partition in Layout.
func TestFindingLinkPartition(t *testing.T) {
	s := fullSnapshot(t)
	a := appWith(t, s, 80, 24)
	f := &findings.Finding{ID: "T-2", Title: "test", Signals: []findings.Evidence{
		{Path: "layout.skew.largestPartitionShare", Input: "table", Known: true, Holds: true}}}
	p := openEvidence(t, a, f)
	followLink(t, a, p, "Layout")
	l := a.view().(*layoutui.LayoutPane)
	if i := l.List.Selected(); l.Part != nil || i < 0 || l.Parts[i].Partition != s.Layout.Rows[0].Partition {
		t.Fatalf("Layout selects %d, want %s", i, s.Layout.Rows[0].Partition)
	}
}

// TestFindingNoLinks: a finding whose evidence names nothing linkable says so; enter is off.
func TestFindingNoLinks(t *testing.T) {
	s := fullSnapshot(t)
	a := appWith(t, s, 80, 24)
	p := openEvidence(t, a, findingByID(t, a, "CAP-007"))
	if len(p.Links) != 0 || !strings.Contains(screen(a), "Links: none") {
		t.Fatalf("links %+v\n%s", p.Links, screen(a))
	}
	if p.EvKeys().Follow.Enabled() {
		t.Fatal("enter enabled without a link")
	}
	press(a, "enter")
	if a.view().Title() != "Findings" || p.Detail == nil {
		t.Fatal("enter without a link left the evidence")
	}
}

// TestInstantFileGroupLink: enter on a "files written" row opens its partition in Layout with
// the row's file group selected.
func TestInstantFileGroupLink(t *testing.T) {
	s := fullSnapshot(t)
	a := appWith(t, s, 80, 24)
	press(a, "2")
	tl := a.view().(*timelineui.Timeline)
	live := map[string]bool{} // file groups of the latest view
	for _, p := range s.View.Partitions {
		for _, g := range p.FileGroups {
			live[g.FileID] = true
		}
	}
	// The first row (newest instants first) whose file group is still in the view.
	var row []string
	press(a, "G")
	for i := 0; i < 200 && row == nil; i++ {
		if in := tl.Selected(); in != nil && in.Commit != nil && len(in.Commit.PartitionToWriteStats) > 0 {
			press(a, "enter")
			if d := tl.Detail; d.Shown() != nil && d.Shown().GroupCol > 0 {
				for r, cells := range d.Shown().Rows {
					if live[cells[1]] {
						d.Cursor, row = r, cells
						break
					}
				}
			}
			if row != nil {
				break
			}
			press(a, "esc")
		}
		press(a, "up")
	}
	if row == nil {
		t.Fatal("no instant wrote a file group still in the view")
	}
	press(a, "enter")
	l, ok := a.view().(*layoutui.LayoutPane)
	if !ok || l.Part == nil {
		t.Fatalf("enter shows %s (%s), want a partition in Layout", a.view().Title(), a.Message())
	}
	if view.PartitionName(l.Part.P.Path) != view.PartitionName(row[0]) && view.PartName(l.Part.P.Path) != row[0] {
		t.Errorf("Layout opens %q, want %q", l.Part.P.Path, row[0])
	}
	if i := l.Part.List.Selected(); i < 0 || l.Part.Groups[i].FileID != row[1] {
		t.Errorf("Layout selects group %d, want %s", i, row[1])
	}
	if got := (common.JumpPartition{FileGroup: "g1", Path: "p"}).Target(); got != "file group g1 in partition p" {
		t.Errorf("JumpPartition.Target: %q", got)
	}
	if got := (common.JumpStage{ID: 0}).Target(); got != "stage 0" {
		t.Errorf("JumpStage.Target: %q", got)
	}
}
