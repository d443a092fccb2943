package health_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/analyzers/config"
	"github.com/hudiscope/hudiscope/analyzers/health"
	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/storage"
)

// The Hudi 0.11.1 fixtures at their steady state (keep.max.commits=6). In the 2026-11-30
// generation mor-v4 holds 7 completed commits (6 delta commits and a compaction commit) plus a
// pending compaction plan, which the 0.11 archiver does not count, and cow-v4 holds 5: both
// HEALTHY, where counting the plan and allowing only keep.max called mor-v4 UNHEALTHY.
func TestArchivalV4FixturesSteadyState(t *testing.T) {
	for _, c := range []struct{ name string }{{"mor-v4-0.11.1"}, {"cow-v4-0.11.1"}} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join("..", "..", "testdata", "fixtures", c.name)
			props, err := os.ReadFile(filepath.Join(dir, "writer.properties"))
			if err != nil {
				t.Skipf("fixture not present yet: %v", err)
			}
			ctx := context.Background()
			tb, err := hudi.Open(ctx, filepath.Join(dir, "table.zip"), storage.Options{})
			if err != nil {
				t.Fatal(err)
			}
			tl, err := tb.ActiveTimeline(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var kv []string
			for _, l := range strings.Split(string(props), "\n") {
				if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
					kv = append(kv, l)
				}
			}
			r := health.Run(health.Input{BasePath: dir, TableType: tb.Config.Type, TableVersion: tb.Config.Version, Timeline: tl, Now: time.Now(), Zone: time.UTC},
				health.Options{Checks: []string{"archival"}, Config: config.New(config.Input{HoodieConf: kv})})
			ch := r.Check("archival")
			if ch.Status != health.Healthy || ch.EffectiveConfigs.Get("effective.steady.state.max.completed.commits") != "7" ||
				!strings.HasPrefix(ch.EffectiveConfigs.Get("effective.archival.release.line"), "0.11.x") {
				t.Errorf("%s: %s %s %v", c.name, ch.Status, ch.Summary, ch.EffectiveConfigs)
			}
		})
	}
}
