package ui

import (
	"testing"

	"github.com/hudiscope/hudiscope/ui/common"
	timelineui "github.com/hudiscope/hudiscope/ui/timeline"
	"github.com/hudiscope/hudiscope/view"
)

// TestLinkJump: each view.Link becomes the message of the pane that owns its row; a Link
// naming no row only shows its pane.
func TestLinkJump(t *testing.T) {
	for _, c := range []struct {
		l    view.Link
		want common.Jump
	}{
		{view.Link{Pane: "Timeline", Instant: "20261129100130000"}, common.JumpInstant{Requested: "20261129100130000"}},
		{view.Link{Pane: "Timeline", Partition: "us"}, common.JumpPartitionWrites{Path: "us"}},
		{view.Link{Pane: "Event log", Instant: "20261129100130000"}, common.JumpInstantStages{Requested: "20261129100130000"}},
		{view.Link{Pane: "Layout", Partition: "us"}, common.JumpPartition{Path: "us"}},
		{view.Link{Pane: "Health", Check: "timeline"}, common.JumpCheck{Name: "timeline"}},
		{view.Link{Pane: "Findings", Finding: "OBS-020"}, common.JumpFinding{ID: "OBS-020"}},
		{view.Link{Pane: view.ProblemsPane}, common.JumpProblems{}},
		{view.Link{Pane: "Timeline"}, common.JumpPane{Title: "Timeline"}},
		{view.Link{Pane: "Health", Instant: "20261129100130000"}, common.JumpPane{Title: "Health"}},
	} {
		got := common.LinkJump(c.l)
		if got != c.want || got.Pane() != c.l.Pane {
			t.Errorf("linkJump(%+v) = %#v (pane %s), want %#v", c.l, got, got.Pane(), c.want)
		}
	}
	for j, want := range map[common.Jump]string{
		common.JumpInstant{}:                            "the row",
		common.JumpPartition{Path: ""}:                  "the row",
		common.JumpPartition{Path: "", FileGroup: "g1"}: "file group g1 in partition " + common.PartLabel(""),
		common.JumpInstantStages{Requested: "2026"}:     "instant 2026",
		common.JumpCheck{Name: "timeline"}:              "check timeline",
	} {
		if got := j.Target(); got != want {
			t.Errorf("%#v.Target() = %q, want %q", j, got, want)
		}
	}
}

// TestJumpRouting: the App shows the pane a jump's type names and that pane's Focus finds the
// row (or says what it did not find).
func TestJumpRouting(t *testing.T) {
	a := newTestApp(80, 24)
	feed(a, overlapSnapshot(t))
	run(a, common.JumpTo(common.JumpPartitionWrites{Path: "us"}))
	tl, ok := a.view().(*timelineui.Timeline)
	if !ok || len(tl.ListView.Idx) != 3 || a.msgBad {
		t.Fatalf("partition jump shows %s (%q), want the 3 Timeline instants that wrote us", a.view().Title(), a.Message())
	}
	run(a, common.JumpTo(common.JumpInstant{Requested: "20261129100130000"}))
	if in := tl.Selected(); in == nil || in.RequestedTime != "20261129100130000" || a.msgBad {
		t.Fatalf("instant jump selects %v (%q)", in, a.Message())
	}
	run(a, common.JumpTo(common.JumpInstant{Requested: "20990101000000000"}))
	if got := a.Message(); got != "not found in Timeline: instant 20990101000000000" || !a.msgBad {
		t.Errorf("unknown instant: %q", got)
	}
	run(a, common.JumpTo(common.JumpPane{Title: "Layout"}))
	if got := a.view().Title(); got != "Layout" {
		t.Errorf("pane jump shows %s", got)
	}
}
