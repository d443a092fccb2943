package ui

import (
	"context"
	"os"
	"runtime"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/hudiscope/hudiscope/model"
)

// BenchmarkTimelineFrameTable is the explorer's wait for its first Timeline frame on a table
// directory named by HUDISCOPE_BENCH_TABLE (e.g. a 200k-commit table from
// `go run ./hudi/internal/synth/cmd/synthtable -commits 200000 -files 10000 /tmp/hs-200k-10k`):
// the load as the explorer runs it (every step, early timeline) until the timeline is published,
// then the frame. Reports the frame's wait (firstFrameMs), the whole load (loadMs) and the live
// heap after it (liveMB).
//
//	HUDISCOPE_BENCH_TABLE=/tmp/hs-200k-10k go test ./ui -run '^$' -bench TimelineFrameTable -benchtime 1x
func BenchmarkTimelineFrameTable(b *testing.B) {
	dir := os.Getenv("HUDISCOPE_BENCH_TABLE")
	if dir == "" {
		b.Skip("HUDISCOPE_BENCH_TABLE not set")
	}
	for i := 0; i < b.N; i++ {
		start := time.Now()
		a := New(Options{Location: dir})
		a.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		var first time.Duration
		final, err := model.Load(context.Background(), model.Options{Location: dir, EarlyTimeline: true, ClusterDefaults: "-"},
			func(p model.Progress) {
				if first == 0 && p.Snapshot.HasRun(model.StepTimeline) {
					a.Update(ProgressMsg(p))
					if v := a.View(); v.Content == "" {
						b.Fatal("empty frame")
					}
					first = time.Since(start)
				}
			})
		if err != nil {
			b.Fatal(err)
		}
		a.Update(ProgressMsg{Snapshot: final, Finished: true})
		_ = a.View()
		load := time.Since(start)
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(first.Milliseconds()), "firstFrameMs")
		b.ReportMetric(float64(load.Milliseconds()), "loadMs")
		b.ReportMetric(float64(ms.HeapAlloc>>20), "liveMB")
		runtime.KeepAlive(a)
	}
}
