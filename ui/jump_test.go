package ui

import (
	"testing"

	"github.com/hudiscope/hudiscope/view"
)

// TestLinkJump: each view.Link becomes the message of the pane that owns its row; a Link
// naming no row only shows its pane.
func TestLinkJump(t *testing.T) {
	for _, c := range []struct {
		l    view.Link
		want Jump
	}{
		{view.Link{Pane: "Timeline", Instant: "20261129100130000"}, JumpInstant{Requested: "20261129100130000"}},
		{view.Link{Pane: "Timeline", Partition: "us"}, JumpPartitionWrites{Path: "us"}},
		{view.Link{Pane: "Event log", Instant: "20261129100130000"}, JumpInstantStages{Requested: "20261129100130000"}},
		{view.Link{Pane: "Layout", Partition: "us"}, JumpPartition{Path: "us"}},
		{view.Link{Pane: "Health", Check: "timeline"}, JumpCheck{Name: "timeline"}},
		{view.Link{Pane: "Findings", Finding: "OBS-020"}, JumpFinding{ID: "OBS-020"}},
		{view.Link{Pane: view.ProblemsPane}, JumpProblems{}},
		{view.Link{Pane: "Timeline"}, JumpPane{Title: "Timeline"}},
		{view.Link{Pane: "Health", Instant: "20261129100130000"}, JumpPane{Title: "Health"}},
	} {
		got := linkJump(c.l)
		if got != c.want || got.Pane() != c.l.Pane {
			t.Errorf("linkJump(%+v) = %#v (pane %s), want %#v", c.l, got, got.Pane(), c.want)
		}
	}
	for j, want := range map[Jump]string{
		JumpInstant{}:                            "the row",
		JumpPartition{Path: ""}:                  "the row",
		JumpPartition{Path: "", FileGroup: "g1"}: "file group g1 in partition " + partLabel(""),
		JumpInstantStages{Requested: "2026"}:     "instant 2026",
		JumpCheck{Name: "timeline"}:              "check timeline",
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
	run(a, jumpTo(JumpPartitionWrites{Path: "us"}))
	tl, ok := a.view().(*Timeline)
	if !ok || len(tl.listView.idx) != 3 || a.msgBad {
		t.Fatalf("partition jump shows %s (%q), want the 3 Timeline instants that wrote us", a.view().Title(), a.Message())
	}
	run(a, jumpTo(JumpInstant{Requested: "20261129100130000"}))
	if in := tl.Selected(); in == nil || in.RequestedTime != "20261129100130000" || a.msgBad {
		t.Fatalf("instant jump selects %v (%q)", in, a.Message())
	}
	run(a, jumpTo(JumpInstant{Requested: "20990101000000000"}))
	if got := a.Message(); got != "not found in Timeline: instant 20990101000000000" || !a.msgBad {
		t.Errorf("unknown instant: %q", got)
	}
	run(a, jumpTo(JumpPane{Title: "Layout"}))
	if got := a.view().Title(); got != "Layout" {
		t.Errorf("pane jump shows %s", got)
	}
}
