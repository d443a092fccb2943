package model

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/health"
	"github.com/hudiscope/hudiscope/analyzers/layout"
	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/internal/clock"
)

func ownFixture(t *testing.T, name string) string {
	_, file, _, _ := runtime.Caller(0)
	p := filepath.Join(filepath.Dir(file), "../testdata/fixtures", name)
	if _, err := os.Stat(filepath.Join(p, "table.zip")); err != nil {
		t.Skipf("fixture %s not generated yet: %v", name, err)
	}
	return p
}

// cow-services-1.2.0 (regenerated 2026-11-29 16:22): the active timeline (`hudiscope timeline
// testdata/fixtures/cow-services-1.2.0/table.zip`) holds 28 completed instants — 12 commit
// (UPSERT; 20261129161800076 is savepointed), 2 replacecommit (20261129161835394
// INSERT_OVERWRITE, 20261129162054490 CLUSTER), 12 clean, 1 rollback (20261129162030948),
// 1 savepoint — matching oracle/summary.json completed_by_action. Writer keep.max.commits=6.
// Values checked by hand against that listing and `hudiscope files`.
func TestHealthCowServicesFixture(t *testing.T) {
	dir := ownFixture(t, "cow-services-1.2.0")
	ctx := context.Background()
	tb, err := hudi.Open(ctx, filepath.Join(dir, "table.zip"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tl, err := tb.ActiveTimeline(ctx)
	if err != nil {
		t.Fatal(err)
	}
	eff, err := LoadConfig(filepath.Join(dir, "writer.properties"), nil, "spark", tb.Config)
	if err != nil {
		t.Fatal(err)
	}
	r := health.Run(HealthInput(ctx, tb, tl, clock.Now()), health.Options{Config: eff})
	arch := r.Check("archival")
	// write instants (commits timeline + compaction) = 12 commit + 2 replacecommit = 14;
	// completed = 12 commit + 2 replacecommit + 12 clean + 1 rollback + 1 savepoint = 28;
	// threshold ceil(1.1 × 6) = ceil(6.6) = 7, and 14 ≥ 7 → UNHEALTHY.
	if arch.Status != health.Unhealthy || arch.EffectiveConfigs.Get("observed.write.instants") != "14" ||
		arch.EffectiveConfigs.Get("observed.completed.instants") != "28" ||
		arch.EffectiveConfigs.Get("effective.unhealthy.threshold.write.instants") != "7" {
		t.Errorf("archival %+v", arch)
	}
	if sp := r.Check("savepoint"); sp.Status != health.Unhealthy || sp.EffectiveConfigs.Get("observed.savepoint.count") != "1" {
		t.Errorf("savepoint %+v", sp)
	}
	// hoodie.clean.trigger.max.commits is not in writer.properties → SKIPPED naming it.
	if c := r.Check("cleaner"); c.Status != health.Skipped {
		t.Errorf("cleaner %s", c.Status)
	}
	if c := r.Check("mdt-sync"); c.Status != health.Healthy || c.EffectiveConfigs.Get("observed.data.table.writes.behind") != "0" {
		t.Errorf("mdt-sync %+v", c)
	}
	if r.ExitCode() != health.ExitUnhealthy {
		t.Errorf("exit %d", r.ExitCode())
	}

	v, err := tb.View(ctx, tl, hudi.ListingStorage)
	if err != nil {
		t.Fatal(err)
	}
	opt := LayoutOptions(eff)
	if opt.SmallFileLimit != 0 || opt.SmallFileLimitSource == "declared default" {
		t.Errorf("small.file.limit from writer.properties: %d (%s)", opt.SmallFileLimit, opt.SmallFileLimitSource)
	}
	opt.Characteristics = true
	in, _ := LayoutInput(ctx, tb, tl, v, opt, clock.Now())
	lr := layout.Analyze(in, opt)
	// `hudiscope files`: 3 date partitions (2024-01-01..03); 5 live file groups after the
	// clustering at 20261129162054490 (2 + 1 + 2), each with its latest base file written by the
	// last commit 20261129162134323 → 5 base files; slices not yet cleaned away 1+2 + 2 + 1+2 = 8.
	if lr.NumPartitions != 3 || lr.TotalFiles != 5 || lr.Hudiscope.FileSlices != 8 {
		t.Errorf("layout partitions %d files %d slices %d", lr.NumPartitions, lr.TotalFiles, lr.Hudiscope.FileSlices)
	}
	// Hot window (analyzers.md §5.4): completed commit/deltacommit/replacecommit minus COMPACT and
	// CLUSTER operations = 12 UPSERT commits + 1 INSERT_OVERWRITE replacecommit = 13 (< the
	// default window of 50, so all are kept).
	if h := lr.TableCharacteristics.Detector(layout.HotPartitions); h.EffectiveConfigs.Get("observed.hot.window.effective.commits") != 13 {
		t.Errorf("hot window %v", h.EffectiveConfigs.Get("observed.hot.window.effective.commits"))
	}
}
