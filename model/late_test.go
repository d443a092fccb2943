package model

import (
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/hudi/timeline"
)

func lateIn(req, ct string, p time.Duration) *timeline.Instant {
	in := &timeline.Instant{RequestedTime: req, CompletionTime: ct, Action: timeline.ActionCommit, State: timeline.Completed,
		CompletionDerived: p > 0, CompletionPrecision: p}
	in.Started, _ = timeline.ParseInstantTime(req, time.UTC)
	in.Ended, _ = timeline.ParseInstantTime(ct, time.UTC)
	return in
}

// ↯ marks do not depend on the order instants are given in, and a completion time known only
// to 2 s marks an instant late only when it certainly completed after the later-started one.
func TestLateCompletionsOrderAndPrecision(t *testing.T) {
	a := lateIn("20260101000000100", "20260101000010000", 0) // started first, completed last
	b := lateIn("20260101000001000", "20260101000005000", 0)
	for _, in := range [][]*timeline.Instant{{a, b}, {b, a}} {
		late := LateCompletions(in)
		for i, x := range in {
			if late[i] != (x == a) {
				t.Errorf("order %s,%s: late %v", in[0].RequestedTime, in[1].RequestedTime, late)
			}
		}
	}
	// Same files from a zip (2 s): a at [10 s, 12 s), c at [10 s, 12 s): unknown, not marked.
	a2 := lateIn("20260101000000100", "20260101000010000", 2*time.Second)
	c2 := lateIn("20260101000001000", "20260101000010000", 2*time.Second)
	if late := LateCompletions([]*timeline.Instant{a2, c2}); late[0] || late[1] {
		t.Errorf("overlapping intervals marked: %v", late)
	}
	// b2 certainly ended (before 7 s) before a2 began ending (10 s): a2 is late.
	b2 := lateIn("20260101000001000", "20260101000005000", 2*time.Second)
	if late := LateCompletions([]*timeline.Instant{b2, a2}); !late[1] || late[0] {
		t.Errorf("certain order not marked: %v", late)
	}
}
