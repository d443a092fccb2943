package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/hudiscope/hudiscope/analyzers/config"
	"github.com/hudiscope/hudiscope/analyzers/health"
	"github.com/hudiscope/hudiscope/analyzers/layout"
	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/model"
)

// Analysis-pane fixtures: the hudi-rs MOR table (3 partitions), and our Hudi 1.2.0 tables with
// their writer properties and event logs.
const (
	fxMOR      = corpus + "sample_table/mor/avro/v9_txns_simple_meta.zip"
	fxServices = "../testdata/fixtures/cow-services-1.2.0"
	fxIncrDir  = "../testdata/fixtures/incr-1.2.0"
	// fxMORServices: MOR, Hudi 1.2.0, every compaction archived.
	fxMORServices = "../testdata/fixtures/mor-services-1.2.0"
)

// eventLogIn finds the event log beside a fixture table (a local-* file or eventlog_v2_* dir).
func eventLogIn(tb testing.TB, dir string) string {
	tb.Helper()
	for _, pat := range []string{"local-*", "eventlog_v2_*"} {
		if m, _ := filepath.Glob(filepath.Join(dir, pat)); len(m) > 0 {
			return m[0]
		}
	}
	tb.Skipf("no event log in %s (fixture not generated yet)", dir)
	return ""
}

// analysisSnapshot loads a table with every analysis the way model.Load does, but with a fixed
// clock, no cluster defaults and relative paths, so views are deterministic.
func analysisSnapshot(tb testing.TB, table, props, evlog string) *model.Snapshot {
	tb.Helper()
	s, t := openSnapshot(tb, table, false)
	ctx := context.Background()
	view, err := t.View(ctx, s.Timeline, hudi.ListingStorage)
	if err != nil {
		tb.Fatal(err)
	}
	var tprops map[string]string
	if s.Config != nil {
		tprops = s.Config.Props
	}
	eff, err := config.Load(config.Files{Engine: "spark", PropsFile: props, ClusterDefaults: "-", Table: tprops})
	if err != nil {
		tb.Fatal(err)
	}
	opt := model.LayoutOptions(eff)
	opt.PartitionStats, opt.Characteristics, opt.PrintTopK = true, true, 10
	in, err := model.LayoutInput(ctx, t, s.Timeline, view, opt, fixedNow)
	if err != nil {
		tb.Fatal(err)
	}
	in.Now, in.Zone = fixedNow, time.UTC
	hin := model.HealthInput(ctx, t, s.Timeline, fixedNow)
	hin.Zone = time.UTC
	s.View, s.Effective = view, eff
	s.Layout = layout.Analyze(in, opt)
	s.HealthIn = &hin
	s.Options.Props = props
	// As the health step judges: with the writer properties, unset keys at the release's default.
	s.Health = s.RunHealth(false)
	s.Done = append(s.Done, model.StepFiles, model.StepConfig, model.StepLayout, model.StepHealth)
	if evlog != "" {
		r, err := model.AnalyzeEventLog(ctx, evlog, storage.Options{}, nil)
		if err != nil {
			tb.Fatal(err)
		}
		s.EventLog = r
		s.Options.EventLog = evlog
		s.Done = append(s.Done, model.StepEventLog)
	}
	return s
}

func morSnapshot(tb testing.TB) *model.Snapshot { return analysisSnapshot(tb, fxMOR, "", "") }

// morDefaultsSnapshot judges the MOR table against Hudi's defaults (--apply-all-defaults), so
// the cadence checks have observed numbers, triggers and thresholds.
func morDefaultsSnapshot(tb testing.TB) *model.Snapshot {
	s := morSnapshot(tb)
	hin := *s.HealthIn // the health step's input, read at fixedNow in UTC
	c := *s
	c.Health = health.Run(hin, health.Options{Config: s.Effective, ApplyAllDefaults: true})
	return &c
}

// morServicesSnapshot is the MOR table whose compactions are all archived, with its writer
// properties (which leave the compaction trigger strategy unset).
func morServicesSnapshot(tb testing.TB) *model.Snapshot {
	needFixture(tb, fxMORServices+"/table.zip")
	return analysisSnapshot(tb, fxMORServices+"/table.zip", fxMORServices+"/writer.properties", "")
}

// badEventLogSnapshot is the incr table given an event log that is not a Spark log.
func badEventLogSnapshot(tb testing.TB) *model.Snapshot {
	needFixture(tb, fxIncrDir+"/table.zip")
	s := analysisSnapshot(tb, fxIncrDir+"/table.zip", fxIncrDir+"/writer.properties", "")
	bad := fxIncrDir + "/writer.properties"
	_, err := model.AnalyzeEventLog(context.Background(), bad, storage.Options{}, nil)
	if err == nil {
		tb.Fatal("writer.properties parsed as an event log")
	}
	s.Options.EventLog = "writer.properties"
	s.StepErrors = map[model.Step]error{model.StepEventLog: err}
	s.Done = append(s.Done, model.StepEventLog)
	return s
}

func incrSnapshot(tb testing.TB) *model.Snapshot {
	needFixture(tb, fxIncrDir+"/table.zip")
	return analysisSnapshot(tb, fxIncrDir+"/table.zip", fxIncrDir+"/writer.properties", eventLogIn(tb, fxIncrDir))
}

func servicesSnapshot(tb testing.TB) *model.Snapshot {
	needFixture(tb, fxServices+"/table.zip")
	needFixture(tb, fxServices+"/writer.properties")
	return analysisSnapshot(tb, fxServices+"/table.zip", fxServices+"/writer.properties", eventLogIn(tb, fxServices))
}

func appWith(tb testing.TB, s *model.Snapshot, w, h int, mod ...func(*Options)) *App {
	a := newTestApp(w, h, mod...)
	feed(a, s)
	return a
}

// TestAnalysisPanesGolden renders the Layout, Health and Event log panes at every drill-down
// level at 80x24 and 120x40. Refresh with -update.
func TestAnalysisPanesGolden(t *testing.T) {
	cases := []struct {
		name  string
		snap  func(testing.TB) *model.Snapshot
		keys  []string
		typed string // typed after keys, then more
		more  []string
		mod   func(*Options)
	}{
		{name: "layout-mor", snap: morSnapshot, keys: []string{"3"}},
		{name: "layout-mor-sorted-partition-hist", snap: morSnapshot, keys: []string{"3", "s", "s", "j", "h"}},
		{name: "layout-mor-partition", snap: morSnapshot, keys: []string{"3", "enter"}},
		{name: "layout-mor-filegroup", snap: morSnapshot, keys: []string{"3", "enter", "enter"}},
		{name: "layout-mor-filter", snap: morSnapshot, keys: []string{"3", "/"}, typed: "eu", more: []string{"enter"}},
		{name: "layout-mor-ascii", snap: morSnapshot, keys: []string{"3"}, mod: func(o *Options) { o.ASCII = true }},
		{name: "layout-incr", snap: incrSnapshot, keys: []string{"3"}},
		{name: "layout-incr-filegroup", snap: incrSnapshot, keys: []string{"3", "enter", "enter"}},
		{name: "health-mor-noprops", snap: morSnapshot, keys: []string{"4"}},
		{name: "health-mor-defaults", snap: morDefaultsSnapshot, keys: []string{"4"}},
		{name: "health-mor-defaults-sorted", snap: morDefaultsSnapshot, keys: []string{"4", "s", "s", "s", "s"}},
		{name: "health-mor-defaults-check", snap: morDefaultsSnapshot, keys: []string{"4", "enter"}},
		{name: "health-incr", snap: incrSnapshot, keys: []string{"4"}},
		{name: "health-incr-check", snap: incrSnapshot, keys: []string{"4", "j", "enter"}},
		{name: "eventlog-absent", snap: morSnapshot, keys: []string{"5"}},
		{name: "eventlog-incr", snap: incrSnapshot, keys: []string{"5"}},
		{name: "eventlog-incr-sorted", snap: incrSnapshot, keys: []string{"5", "s", "s", "s"}},
		{name: "eventlog-incr-stage", snap: incrSnapshot, keys: []string{"5", "s", "s", "s", "enter"}},
		{name: "eventlog-incr-caveats", snap: incrSnapshot, keys: []string{"5", "w"}},
		{name: "eventlog-incr-filter", snap: incrSnapshot, keys: []string{"5", "/"}, typed: "tagging"},
		{name: "eventlog-incr-ascii", snap: incrSnapshot, keys: []string{"5"}, mod: func(o *Options) { o.ASCII = true }},
		{name: "layout-services", snap: servicesSnapshot, keys: []string{"3"}},
		{name: "layout-services-partition", snap: servicesSnapshot, keys: []string{"3", "enter"}},
		{name: "layout-services-filegroup", snap: servicesSnapshot, keys: []string{"3", "enter", "enter"}},
		{name: "health-services", snap: servicesSnapshot, keys: []string{"4"}},
		{name: "health-services-check", snap: servicesSnapshot, keys: []string{"4", "j", "j", "j", "enter"}},
		{name: "eventlog-services", snap: servicesSnapshot, keys: []string{"5"}},
		{name: "eventlog-services-stage", snap: servicesSnapshot, keys: []string{"5", "s", "s", "s", "enter"}},
		{name: "layout-morsvc", snap: morServicesSnapshot, keys: []string{"3"}},
		{name: "layout-morsvc-filegroup", snap: morServicesSnapshot, keys: []string{"3", "enter", "enter"}},
		{name: "health-morsvc-defaults-toggled", snap: morServicesSnapshot, keys: []string{"4", "d"}},
		{name: "health-morsvc-defaults-toggled-check", snap: morServicesSnapshot, keys: []string{"4", "d", "enter"}},
		{name: "eventlog-failed", snap: badEventLogSnapshot, keys: []string{"5"}},
	}
	snaps := map[string]*model.Snapshot{}
	for _, c := range cases {
		for _, sz := range sizes {
			w, h := sz[0], sz[1]
			t.Run(fmt.Sprintf("%s/%dx%d", c.name, w, h), func(t *testing.T) {
				key := fmt.Sprintf("%p", c.snap)
				s := snaps[key]
				if s == nil {
					s = c.snap(t)
					snaps[key] = s
				}
				var mods []func(*Options)
				if c.mod != nil {
					mods = append(mods, c.mod)
				}
				a := appWith(t, s, w, h, mods...)
				press(a, c.keys...)
				typeText(a, c.typed)
				press(a, c.more...)
				golden.RequireEqual(t, checkScreen(t, a, w, h))
			})
		}
	}
}
