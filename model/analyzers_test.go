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
)

func ownFixture(t *testing.T, name string) string {
	_, file, _, _ := runtime.Caller(0)
	p := filepath.Join(filepath.Dir(file), "../testdata/fixtures", name)
	if _, err := os.Stat(filepath.Join(p, "table.zip")); err != nil {
		t.Skipf("fixture %s not generated yet: %v", name, err)
	}
	return p
}

// cow-services-1.2.0: 13 commits (one savepointed), 2 replacecommits (one INSERT_OVERWRITE, one
// CLUSTER: hot window = 13 + 1 = 14), 13 cleans,
// writer keep.max.commits=6. Values checked by hand against the timeline listing.
func TestHealthCowServicesFixture(t *testing.T) {
	dir := ownFixture(t, "cow-services-1.2.0")
	ctx := context.Background()
	tb, err := hudi.Open(ctx, filepath.Join(dir, "table.zip"))
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
	r := health.Run(HealthInput(ctx, tb, tl), health.Options{Config: eff})
	arch := r.Check("archival")
	// write instants = 13 commit + 2 replacecommit; completed = 13 + 2 + 13 clean + 1 savepoint;
	// threshold ceil(1.1 × 6) = 7.
	if arch.Status != health.Unhealthy || arch.EffectiveConfigs.Get("observed.write.instants") != "15" ||
		arch.EffectiveConfigs.Get("observed.completed.instants") != "29" ||
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

	v, err := tb.FileSystemView(ctx, tl)
	if err != nil {
		t.Fatal(err)
	}
	opt := LayoutOptions(eff)
	if opt.SmallFileLimit != 0 || opt.SmallFileLimitSource == "declared default" {
		t.Errorf("small.file.limit from writer.properties: %d (%s)", opt.SmallFileLimit, opt.SmallFileLimitSource)
	}
	opt.Characteristics = true
	in, _ := LayoutInput(ctx, tb, tl, v, opt)
	lr := layout.Analyze(in, opt)
	// 3 date partitions, 7 live file groups (after clustering), 13 slices not yet cleaned away.
	if lr.NumPartitions != 3 || lr.TotalFiles != 7 || lr.Hudiscope.FileSlices != 13 {
		t.Errorf("layout partitions %d files %d slices %d", lr.NumPartitions, lr.TotalFiles, lr.Hudiscope.FileSlices)
	}
	if h := lr.TableCharacteristics.Detector(layout.HotPartitions); h.EffectiveConfigs.Get("observed.hot.window.effective.commits") != 14 {
		t.Errorf("hot window %v", h.EffectiveConfigs.Get("observed.hot.window.effective.commits"))
	}
}
