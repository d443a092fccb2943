package hudi_test

import (
	"context"
	"runtime"
	"testing"

	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// retainedTimeline lists dir's timeline, reads every commit (compact: sums only, as the
// explorer's commits step) and returns it with the heap it keeps, in bytes per instant.
func retainedTimeline(tb testing.TB, dir string, compact bool) (*timeline.Timeline, float64) {
	ctx := context.Background()
	t, err := hudi.Open(ctx, dir, storage.Options{})
	must(tb, err)
	var before, after runtime.MemStats
	// Two collections each side: sync.Pool buffers (the decoders') survive one in the victim
	// cache, and at 200 instants a pooled buffer freed or kept moves the figure by kilobytes.
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&before)
	tl, err := t.ActiveTimelineNames(ctx)
	must(tb, err)
	t.LoadCommits(ctx, tl.Instants, compact)
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(t)
	return tl, float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(len(tl.Instants))
}

// A compact timeline (the explorer's) keeps sums, not metadata: every commit's totals and
// per-partition sums equal an eager read's, and it keeps a bounded heap per instant (at 200k
// commits the decoded metadata was 264 MB of 446 MB).
func TestSyntheticCompactTimelineMemory(t *testing.T) {
	dir := synthTable(t, small)
	eager, eagerB := retainedTimeline(t, dir, false)
	compact, compactB := retainedTimeline(t, dir, true)
	if len(compact.Instants) != small.commits || len(eager.Instants) != small.commits {
		t.Fatalf("%d and %d instants, want %d", len(compact.Instants), len(eager.Instants), small.commits)
	}
	for i, in := range compact.Instants {
		e := eager.Instants[i]
		if in.IsCommit() && in.Commit != nil {
			t.Fatalf("%s: compact read kept the metadata", in.RequestedTime)
		}
		w, ok := in.Writes()
		ew, eok := e.Writes()
		if !ok || !eok || len(w) != len(ew) || in.Totals != e.Totals || in.Operation != e.Operation {
			t.Fatalf("%s: compact %v %+v %+v, eager %v %+v %+v", in.RequestedTime, ok, in.Totals, w, eok, e.Totals, ew)
		}
		for k := range w {
			if w[k] != ew[k] {
				t.Fatalf("%s: %+v, eager %+v", in.RequestedTime, w[k], ew[k])
			}
		}
	}
	t.Logf("retained per instant: compact %.0f B, eager %.0f B", compactB, eagerB)
	// ~730 B: the instant (320), its three files (3×40 B) and their names (~110 B, sharing the
	// listing's chunks), the sums. The eager figure moves with the decoder's pooled buffers
	// (1.4 to 2.8 KB): not a ratio.
	if compactB > 850 || compactB >= eagerB {
		t.Errorf("compact timeline keeps %.0f B per instant (eager %.0f B): want at most 850", compactB, eagerB)
	}
}

// BenchmarkCompactTimeline is the explorer's timeline and commits steps: list, read every
// commit compact; reports the heap kept per instant.
func BenchmarkCompactTimeline(b *testing.B) {
	benchSizes(b, func(b *testing.B, dir string) {
		_, per := retainedTimeline(b, dir, true)
		b.ReportMetric(per, "B/instant")
	})
}
