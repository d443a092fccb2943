package checkpoint

import (
	"testing"

	"github.com/hudiscope/hudiscope/hudi/timeline"
)

func write(req, done string, archived bool) *timeline.Instant {
	return &timeline.Instant{Action: timeline.ActionDeltaCommit, State: timeline.Completed, RequestedTime: req, CompletionTime: done, Archived: archived}
}

// Archival on 1.x goes by completion time, so a write requested early that completed late
// can stay active while later-requested writes are archived. Hudi's CompletionTimeQueryView
// knows completion times of archived instants only before its cursor, the first active
// instant: the others are taken for pending and not returned. The plan reports them as skipped (a not-safe verdict), not as covered.
func TestPlanReadArchiveHole(t *testing.T) {
	tl := &timeline.Timeline{
		Archived: []*timeline.Instant{
			write("20260101000001000", "20260101000002000", true),
			write("20260101000004000", "20260101000005000", true), // requested after the active 3000
			write("20260101000006000", "20260101000007000", true),
		},
		Instants: []*timeline.Instant{
			write("20260101000003000", "20260101000009000", false), // completed last
			write("20260101000010000", "20260101000011000", false),
		},
	}
	rd, _ := ReaderFor("1.1.1")
	p := PlanRead(tl, Query{Begin: "000", MOR: true}, rd)
	var got []string
	for _, w := range p.Writes {
		got = append(got, w.RequestedTime)
	}
	want := []string{"20260101000001000", "20260101000003000", "20260101000010000"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("returned %v, want %v", got, want)
	}
	if len(p.Skipped) != 2 || p.WholeTable || p.SkipReason == "" {
		t.Errorf("skipped %d (%q), whole table %v; want the 2 archived writes in the hole", len(p.Skipped), p.SkipReason, p.WholeTable)
	}
	// A savepoint left at the start of the active timeline is the cursor too: archived
	// writes requested after it are pending to Java.
	tl.Instants[0].CompletionTime = "20260101000003500"
	tl.Instants = append(tl.Instants, &timeline.Instant{Action: timeline.ActionSavepoint, State: timeline.Completed, RequestedTime: "20260101000003000"})
	tl.Instants[1].RequestedTime = "20260101000008000"
	p = PlanRead(tl, Query{Begin: "000"}, rd)
	if len(p.Skipped) != 2 || p.WholeTable {
		t.Errorf("with a savepoint first on the active timeline: skipped %d, whole table %v; want the 2 archived after it", len(p.Skipped), p.WholeTable)
	}
}

// With nothing archived the active timeline answers every value, 1.0.x merge-on-read
// included (mor-compaction-1.0.2's windows from 000 with an end were left unreproduced
// when this was missed).
func TestPlanReadNothingArchived(t *testing.T) {
	tl := &timeline.Timeline{Instants: []*timeline.Instant{
		write("20260101000001000", "20260101000002000", false),
		write("20260101000003000", "20260101000004000", false),
	}}
	rd, _ := ReaderFor("1.0.2")
	p := PlanRead(tl, Query{Begin: "000", End: "20260101000002000", MOR: true}, rd)
	if p.Unknown != "" || len(p.Writes) != 1 || p.Writes[0].RequestedTime != "20260101000001000" {
		t.Errorf("1.0.x MOR from 000 to the first completion: %+v", p)
	}
}
