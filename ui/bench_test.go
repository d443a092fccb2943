package ui

// Measured 2026-11-29 on the shared 2-core AMD EPYC machine, other builds running
// (go test ./ui -run '^$' -bench . -benchmem -benchtime 2s):
//
//	BenchmarkTimelineView100k/80x24-2     6632    437953 ns/op   21708 B/op   381 allocs/op
//	BenchmarkTimelineView100k/120x40-2    4699    644751 ns/op   50814 B/op   830 allocs/op
//	BenchmarkTimelineFilter100k-2          226  14324770 ns/op  475283 B/op   369 allocs/op
//	BenchmarkTimeToFirstFrame-2          21805    198418 ns/op   19842 B/op   149 allocs/op
//	BenchmarkTimeToTimelineFrame-2         492   4541597 ns/op  731010 B/op  3018 allocs/op
//
// Targets: a Timeline frame over 100,000 instants under 5 ms (0.44-0.64 ms, including the
// key press that moves the cursor, the header, strip and status line); time to first frame
// under 300 ms (0.2 ms for the loading frame; 4.5 ms to open the 14-instant v9 fixture zip,
// read its timeline and draw the Timeline frame). One filter keystroke re-filters all 100,000
// instants in about 14 ms. Runs vary by up to 2x with the machine's load.

import (
	"context"
	"fmt"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/model"
)

// synthetic100k repeats a real fixture's instants 100,000 times over with shifted times; one in
// fifty completes after a later-started instant.
func synthetic100k(b *testing.B) *model.Snapshot { return synthetic(b, 100_000) }

func synthetic(b testing.TB, n int) *model.Snapshot {
	s := snapshotFor(b, fxV9, false)
	src := s.Timeline.Instants
	out := make([]*timeline.Instant, 0, n)
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < n; i++ {
		in := *src[i%len(src)]
		start := base.Add(time.Duration(i) * 2 * time.Second)
		end := start.Add(1500 * time.Millisecond)
		if i%50 == 7 {
			start = start.Add(-3 * time.Second) // started before its predecessor, completes after it
		}
		in.Started, in.Ended = start, end
		in.RequestedTime = timeline.FormatInstantTime(start, time.UTC)
		in.CompletionTime = timeline.FormatInstantTime(end, time.UTC)
		out = append(out, &in)
	}
	timeline.SortByCompletion(out)
	c := *s
	c.Timeline = &timeline.Timeline{Instants: out}
	return &c
}

func BenchmarkTimelineView100k(b *testing.B) {
	s := synthetic100k(b)
	for _, sz := range sizes {
		b.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(b *testing.B) {
			a := newTestApp(sz[0], sz[1])
			a.Update(ProgressMsg{Snapshot: s, Finished: true})
			press(a, "G") // deep in the list
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				// move, then draw a full frame
				if i%2 == 0 {
					a.Update(keyMsg("k"))
				} else {
					a.Update(keyMsg("pgup"))
				}
				_ = a.View()
			}
		})
	}
}

// BenchmarkTimelineFilter100k is one keystroke of the / filter over 100,000 instants.
func BenchmarkTimelineFilter100k(b *testing.B) {
	s := synthetic100k(b)
	a := newTestApp(80, 24)
	a.Update(ProgressMsg{Snapshot: s, Finished: true})
	press(a, "/")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%2 == 0 {
			a.Update(keyMsg("u"))
		} else {
			a.Update(keyMsg("backspace"))
		}
		_ = a.View()
	}
}

// BenchmarkTimeToFirstFrame: a new App draws its first (loading) frame.
func BenchmarkTimeToFirstFrame(b *testing.B) {
	for i := 0; i < b.N; i++ {
		a := New(Options{Location: fxV9})
		a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		a.Update(ProgressMsg{Step: model.StepProperties, Index: 1, Total: 4, Snapshot: &model.Snapshot{StepErrors: map[model.Step]error{}}})
		_ = a.View()
	}
}

// BenchmarkTimeToTimelineFrame: open the fixture zip, read properties and the timeline, and
// draw the first Timeline frame (what the user waits for).
func BenchmarkTimeToTimelineFrame(b *testing.B) {
	needFixture(b, fxV9)
	for i := 0; i < b.N; i++ {
		ctx := context.Background()
		t, err := hudi.Open(ctx, fxV9, storage.Options{})
		if err != nil {
			b.Fatal(err)
		}
		tl, err := t.ActiveTimeline(ctx)
		if err != nil {
			b.Fatal(err)
		}
		s := model.NewSnapshot(model.Options{}, t, tl, model.StepProperties, model.StepTimeline)
		a := New(Options{Location: fxV9})
		a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		a.Update(ProgressMsg{Step: model.StepFiles, Index: 3, Total: 4, Snapshot: s})
		_ = a.View()
	}
}
