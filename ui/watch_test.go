package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/hudiscope/hudiscope/internal/replay"
	"github.com/hudiscope/hudiscope/model"
)

// watchedApp builds the table of cow-services-1.2.0 up to step `upto` of its replay, loads it
// into an explorer watching with manual ticks, and returns the app and a function applying
// the next replay steps followed by one refresh.
func watchedApp(t *testing.T, w, h, upto int) (*App, func(n int) []string) {
	t.Helper()
	zip := filepath.Join("..", "testdata", "fixtures", "cow-services-1.2.0", "table.zip")
	needFixture(t, zip)
	ctx := context.Background()
	base, steps, err := replay.Plan(ctx, zip)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := replay.ApplyAll(dir, append(base, steps[:upto]...)); err != nil {
		t.Fatal(err)
	}
	s, err := model.Load(ctx, model.Options{Location: dir, Steps: []model.Step{model.StepTimeline}, ClusterDefaults: "-", CountRequests: true,
		Now: func() time.Time { return fixedNow }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rules, _ := model.ParseAlertRules("--alert", "rollback,inflight-older=1h")
	a := newTestApp(w, h, func(o *Options) { o.Watch = &WatchOptions{Interval: 30 * time.Second, Rules: rules, Manual: true} })
	feed(a, s)
	press(a, "z", "z", "z") // raw instant strings
	next := upto
	step := func(n int) []string {
		var notes []string
		for i := 0; i < n; i++ {
			if err := replay.Apply(dir, steps[next]); err != nil {
				t.Fatal(err)
			}
			notes = append(notes, steps[next].Note)
			next++
		}
		_, cmd := a.Update(watchTickMsg{})
		run(a, cmd)
		return notes
	}
	return a, step
}

// TestWatchGolden: frames of a watched table as the replay goes on: a new inflight commit
// (highlighted, its age ticking), its completion (marked), and a pending commit rolled back
// (gone, with the alert in the header); the status line shows the last refresh and requests.
func TestWatchGolden(t *testing.T) {
	for _, sz := range sizes {
		w, h := sz[0], sz[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			// Steps 68–69 request the commit 20261129162014306 and start it; 70–72 run the
			// rollback of it; 73–74 delete its files.
			a, step := watchedApp(t, w, h, 68)
			if got := screen(a); !strings.Contains(got, "every 30s") {
				t.Errorf("status line before the first refresh:\n%s", got)
			}
			step(2)
			press(a, "G", "k") // next to the newest row, so its highlight shows
			t.Run("new-inflight", func(t *testing.T) {
				frame := checkScreen(t, a, w, h)
				if !strings.Contains(frame, "+20261129162014306") || !strings.Contains(frame, "19h39") {
					t.Errorf("new inflight commit not marked with its age:\n%s", frame)
				}
				golden.RequireEqual(t, frame)
			})
			step(3)
			step(2)
			t.Run("rolled-back", func(t *testing.T) {
				frame := checkScreen(t, a, w, h)
				lines := strings.Split(frame, "\n")
				if strings.Contains(strings.Join(lines[3:], "\n"), "20261129162014306") || !strings.Contains(lines[0], "rollback") {
					t.Errorf("rolled-back commit still listed, or no alert in the header:\n%s", frame)
				}
				golden.RequireEqual(t, frame)
			})
			step(3)
			press(a, "G", "k")
			t.Run("completed", func(t *testing.T) {
				frame := checkScreen(t, a, w, h)
				if !strings.Contains(frame, "»20261129162031337") && !strings.Contains(frame, "+20261129162031337") {
					t.Errorf("new commit not marked:\n%s", frame)
				}
				golden.RequireEqual(t, frame)
			})
		})
	}
}
