package model

import (
	"math/rand/v2"
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

// The sweep agrees with the definition, checked pair by pair, on random timelines with ties,
// coarse (derived) completion times and MDT-style times that do not parse.
func TestLateCompletionsMatchesPairwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 1))
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for round := 0; round < 300; round++ {
		n := 1 + rng.IntN(12)
		var ins []*timeline.Instant
		for k := 0; k < n; k++ {
			req := base.Add(time.Duration(rng.IntN(20)) * 500 * time.Millisecond)
			done := req.Add(time.Duration(rng.IntN(12)) * 500 * time.Millisecond)
			p := []time.Duration{0, 0, time.Second, 2 * time.Second}[rng.IntN(4)]
			ct := timeline.FormatInstantTime(done, time.UTC)
			if rng.IntN(10) == 0 {
				ct = "00000000000000" + ct[14:] // does not parse: strings decide
			}
			in := lateIn(timeline.FormatInstantTime(req, time.UTC), ct, p)
			switch rng.IntN(8) {
			case 0:
				in.CompletionTime, in.State, in.Ended = "", timeline.Inflight, time.Time{}
			case 1:
				in.Action = timeline.ActionClean
			}
			ins = append(ins, in)
		}
		got := LateCompletions(ins)
		for i, x := range ins {
			want := false
			xw := x.CompletionTime != "" && timeline.IsWriteAction(x.Action)
			xlo, _ := x.CompletionBounds()
			for _, y := range ins {
				if !xw || y.CompletionTime == "" || !timeline.IsWriteAction(y.Action) {
					continue
				}
				_, yhi := y.CompletionBounds()
				var done bool
				if yhi.IsZero() || xlo.IsZero() {
					done = timeline.CompareInstants(y.CompletionTime, x.CompletionTime) < 0
				} else {
					done = !yhi.After(xlo)
				}
				if done && timeline.CompareInstants(y.RequestedTime, x.RequestedTime) > 0 {
					want = true
				}
			}
			if got[i] != want {
				t.Fatalf("round %d instant %d (%s → %s, %v): late %v, pairwise %v", round, i, x.RequestedTime, x.CompletionTime, x.CompletionPrecision, got[i], want)
			}
		}
	}
}
