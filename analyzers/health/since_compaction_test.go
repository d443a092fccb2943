package health

import (
	"testing"

	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// Before table version 8 the completion time is the file's modification time (derived, to the
// second) and Hudi 0.x counts the delta commits requested after the compaction: the MDT of
// cow-services-0.15.0, where 20261129165722837 was requested before compaction
// 20261129165722837001 but its file was written in the compaction's second.
func TestDeltaCommitsSinceCompactionByRelease(t *testing.T) {
	inst := func(req, action, ct string, derived bool) *timeline.Instant {
		return &timeline.Instant{RequestedTime: req, Action: action, State: timeline.Completed, CompletionTime: ct, CompletionDerived: derived}
	}
	derived := []*timeline.Instant{
		inst("20261129165722837", timeline.ActionDeltaCommit, "20261129165726000", true),
		inst("20261129165722837001", timeline.ActionCommit, "20261129165725000", true),
		inst("20261129165727052", timeline.ActionDeltaCommit, "20261129165730000", true),
	}
	ds, c := DeltaCommitsSinceCompaction(derived)
	if c == nil || c.RequestedTime != "20261129165722837001" || len(ds) != 1 || ds[0].RequestedTime != "20261129165727052" {
		t.Errorf("0.x: compaction %v, deltas %v; want 20261129165722837001 and [20261129165727052]", c, ds)
	}
	// Table version 8+: completion times are written by Hudi; a delta commit requested before
	// the compaction but completed after it counts (Hudi 1.x orders by completion time).
	exact := []*timeline.Instant{
		inst("20261129162010000", timeline.ActionDeltaCommit, "20261129162017000", false),
		inst("20261129162016144", timeline.ActionCommit, "20261129162016900", false),
		inst("20261129162020000", timeline.ActionDeltaCommit, "20261129162021000", false),
	}
	if ds, _ := DeltaCommitsSinceCompaction(exact); len(ds) != 2 {
		t.Errorf("1.x: %d deltas since the compaction, want 2", len(ds))
	}
}
