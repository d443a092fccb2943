package ui

import (
	"fmt"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/model"
	timelineui "github.com/hudiscope/hudiscope/ui/timeline"
)

var sizes = [][2]int{{80, 24}, {120, 40}}

// TestGolden renders every main state at 80x24 and 120x40. Refresh with -update.
func TestGolden(t *testing.T) {
	cases := []struct {
		name  string
		build func(t *testing.T, w, h int) *App
	}{
		{"loading-start", func(t *testing.T, w, h int) *App {
			a := newTestApp(w, h)
			a.Update(ProgressMsg{Step: model.StepProperties, Index: 1, Total: 4,
				Snapshot: &model.Snapshot{Options: model.Options{Location: "table.zip"}, StepErrors: map[model.Step]error{}}})
			return a
		}},
		{"loading-timeline", func(t *testing.T, w, h int) *App {
			s := snapshotFor(t, fxV9, false)
			s1 := *s
			s1.Timeline, s1.Done = nil, []model.Step{model.StepProperties}
			a := newTestApp(w, h)
			a.Update(ProgressMsg{Step: model.StepTimeline, Index: 2, Total: 4, Snapshot: &s1})
			return a
		}},
		{"timeline-v9", func(t *testing.T, w, h int) *App { return loadedApp(t, fxV9, w, h) }},
		{"timeline-v6-derived", func(t *testing.T, w, h int) *App { return loadedApp(t, fxV6, w, h) }},
		{"timeline-requested-order", func(t *testing.T, w, h int) *App {
			a := loadedApp(t, fxV9, w, h)
			press(a, "o", "j", "j")
			return a
		}},
		{"timeline-ascii", func(t *testing.T, w, h int) *App {
			return loadedApp(t, fxV9, w, h, func(o *Options) { o.ASCII = true })
		}},
		{"detail-commit", func(t *testing.T, w, h int) *App {
			a := loadedApp(t, fxV9, w, h)
			press(a, "enter")
			return a
		}},
		{"detail-rows", func(t *testing.T, w, h int) *App {
			a := loadedApp(t, fxV9, w, h)
			press(a, "enter", "r", "j")
			return a
		}},
		{"detail-rows-find", func(t *testing.T, w, h int) *App {
			a := loadedApp(t, fxV9, w, h)
			press(a, "enter", "r", "/")
			typeText(a, "005")
			return a
		}},
		{"detail-clustering-partitions", func(t *testing.T, w, h int) *App {
			a := loadedApp(t, fxV9, w, h)
			press(a, "/")
			typeText(a, "cluster")
			press(a, "enter", "enter", "t", "s", "s")
			return a
		}},
		{"detail-indexing-json", func(t *testing.T, w, h int) *App {
			a := loadedApp(t, fxV9, w, h)
			press(a, "G", "enter")
			return a
		}},
		{"detail-json-fallback", func(t *testing.T, w, h int) *App {
			// An instant whose metadata no table reads: its JSON as key/value rows.
			a := loadedApp(t, fxV9, w, h)
			press(a, "G", "enter")
			tl := a.Pane(1).(*timelineui.Timeline)
			tl.Detail = timelineui.NewInstantDetail(tl.Detail.In)
			a.Update(timelineui.DetailMsg{In: tl.Detail.In, D: &timeline.Details{Content: []byte(`{"version":1,"operationType":"UNKNOWN",` +
				`"extraMetadata":{"schema":""},"stats":{"totalBytesWritten":41938845,"avgRecordSize":41938845.696,` +
				`"timeTakenInMillis":1303,"ratio":0.0024089,"numWrites":12345,"lastInstant":20260307162456179,"ok":true,` +
				`"partitions":["region=eu","region=us"],"empty":[]}}`)}})
			return a
		}},
		{"timeline-cdc", func(t *testing.T, w, h int) *App { return loadedApp(t, fxCDC, w, h) }},
		{"detail-cdc", func(t *testing.T, w, h int) *App {
			a := loadedApp(t, fxCDC, w, h)
			press(a, "j", "enter", "t", "t")
			return a
		}},
		{"timeline-late-synthetic", func(t *testing.T, w, h int) *App {
			a := newTestApp(w, h)
			feed(a, synthetic(t, 60))
			press(a, "j", "j", "j", "j", "j", "j")
			return a
		}},
		{"timeline-services", func(t *testing.T, w, h int) *App { return loadedApp(t, fxSvc, w, h) }},
		{"detail-clean", func(t *testing.T, w, h int) *App { return services(t, w, h, "action:clean") }},
		{"detail-rollback", func(t *testing.T, w, h int) *App { return services(t, w, h, "action:rollback") }},
		{"detail-savepoint", func(t *testing.T, w, h int) *App { return services(t, w, h, "action:savepoint") }},
		{"help", func(t *testing.T, w, h int) *App {
			a := loadedApp(t, fxV9, w, h)
			press(a, "?")
			return a
		}},
		{"filter-typing", func(t *testing.T, w, h int) *App {
			a := loadedApp(t, fxV9, w, h)
			press(a, "/")
			typeText(a, "op:upsert")
			return a
		}},
		{"filter-applied", func(t *testing.T, w, h int) *App {
			a := loadedApp(t, fxV9, w, h)
			press(a, "/")
			typeText(a, "action:replace")
			press(a, "enter")
			return a
		}},
		{"checkpoint-reread", func(t *testing.T, w, h int) *App {
			a := loadedApp(t, fxIncr, w, h)
			press(a, "c", "tab", "enter")
			return a
		}},
		{"checkpoint-completion", func(t *testing.T, w, h int) *App {
			a := loadedApp(t, fxIncr, w, h)
			press(a, "c", "tab", "tab", "enter")
			return a
		}},
		{"checkpoint-typed", func(t *testing.T, w, h int) *App {
			a := loadedApp(t, fxV9, w, h)
			press(a, "c")
			typeText(a, "20200101000000000")
			press(a, "enter")
			return a
		}},
		{"pane-placeholder", func(t *testing.T, w, h int) *App {
			a := loadedApp(t, fxV9, w, h, withPlaceholder)
			press(a, "2")
			return a
		}},
	}
	for _, c := range cases {
		for _, sz := range sizes {
			w, h := sz[0], sz[1]
			t.Run(fmt.Sprintf("%s/%dx%d", c.name, w, h), func(t *testing.T) {
				a := c.build(t, w, h)
				golden.RequireEqual(t, checkScreen(t, a, w, h))
			})
		}
	}
	// 20x5 and 12x4: the message takes a shorter wording, never a cut number.
	for _, sz := range [][2]int{{59, 24}, {80, 14}, {40, 10}, {20, 5}, {12, 4}} {
		t.Run(fmt.Sprintf("too-small/%dx%d", sz[0], sz[1]), func(t *testing.T) {
			a := newTestApp(sz[0], sz[1])
			golden.RequireEqual(t, checkScreen(t, a, sz[0], sz[1]))
		})
	}
}

// services opens the first instant matching filter on the table-services fixture.
func services(t *testing.T, w, h int, filter string) *App {
	a := loadedApp(t, fxSvc, w, h)
	press(a, "/")
	typeText(a, filter)
	press(a, "enter", "enter")
	return a
}
