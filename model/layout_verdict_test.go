package model

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/layout"
)

func explorerLayoutOf(t *testing.T, fixture string) *layout.Result {
	t.Helper()
	dir := ownFixture(t, fixture)
	s, err := Load(context.Background(), Options{Location: filepath.Join(dir, "table.zip"), Props: filepath.Join(dir, "writer.properties"),
		ClusterDefaults: "-", Steps: []Step{StepLayout}}, nil)
	if err != nil || s.Layout == nil || s.Layout.Hudiscope == nil {
		t.Fatalf("load %s: %v %v", fixture, err, s.StepErrors)
	}
	return s.Layout
}

func band(t *testing.T, r *layout.Result, name string) layout.DetectorBand {
	t.Helper()
	for _, b := range r.Hudiscope.Detectors {
		if b.Name == name {
			return b
		}
	}
	t.Fatalf("no %s band", name)
	return layout.DetectorBand{}
}

// Issue 28 item 7: every detector verdict carries its reason, and a share of a population
// too small to mean anything says so. The Java statuses (tableCharacteristics) stay Java's.
func TestLayoutDetectorVerdictsAndReasons(t *testing.T) {
	// cow-services-1.2.0: 3 partitions, none with the 5 base files small-files averages over
	// (Java: CLEAN, "0 of 0 partitions"), while small% says 100% of its base files are small;
	// all 3 partitions written by at least 7 of the last 13 ingest commits (Java: FLAGGED).
	r := explorerLayoutOf(t, "cow-services-1.2.0")
	c := r.TableCharacteristics
	if c.Detector(layout.SmallFiles).Status != layout.Clean || c.Detector(layout.HotPartitions).Status != layout.Flagged || c.OverallStatus != layout.Flagged {
		t.Errorf("Java statuses changed: %s %s %s", c.Detector(layout.SmallFiles).Status, c.Detector(layout.HotPartitions).Status, c.OverallStatus)
	}
	if b := band(t, r, layout.SmallFiles); b.Verdict != layout.TooFew || b.Reason != "0 of 3 partitions have 5+ base files to average" {
		t.Errorf("small-files %q: %q", b.Verdict, b.Reason)
	}
	if b := band(t, r, layout.HotPartitions); b.Verdict != layout.Clean ||
		b.Reason != "all 3 partitions hot in the last 13 ingest commits: writes spread, not concentrated" {
		t.Errorf("hot-partitions %q: %q", b.Verdict, b.Reason)
	}
	if v := r.Hudiscope.Verdict(); v != "CLEAN · 1 of 3 not judged" {
		t.Errorf("roll-up %q", v)
	}
	// cow-services-0.12.2: flagged for real, each with its reason.
	r = explorerLayoutOf(t, "cow-services-0.12.2")
	if b := band(t, r, layout.MicroPartition); b.Verdict != layout.Flagged ||
		b.Reason != "3 partitions (count threshold 10000); 2 partition(s) hold 25+ base files averaging under 50 MiB" {
		t.Errorf("micro-partition %q: %q", b.Verdict, b.Reason)
	}
	if b := band(t, r, layout.SmallFiles); b.Verdict != layout.Severe || b.Reason != "3 of 3 qualifying partitions average under 50 MiB (100%; MODERATE at 10%)" {
		t.Errorf("small-files %q: %q", b.Verdict, b.Reason)
	}
	if v := r.Hudiscope.Verdict(); v != "FLAGGED" {
		t.Errorf("0.12.2 roll-up %q", v)
	}
	// index-bloom-1.2.0: 8 partitions, 4 ingest commits — a 50% commit share of 4 commits flags
	// whatever two commits wrote (Java: FLAGGED); too few to judge.
	r = explorerLayoutOf(t, "index-bloom-1.2.0")
	if b := band(t, r, layout.HotPartitions); r.TableCharacteristics.Detector(layout.HotPartitions).Status != layout.Flagged ||
		b.Verdict != layout.TooFew || b.Reason != "only 4 ingest commits in the window (a commit share needs 5)" {
		t.Errorf("hot-partitions %q: %q", b.Verdict, b.Reason)
	}
	if v := r.Hudiscope.Verdict(); v != "CLEAN · 2 of 3 not judged" {
		t.Errorf("index-bloom roll-up %q", v)
	}
	// mor-compaction-1.2.0 is not partitioned: hot-partitions has nothing to judge and is not
	// counted as not judged; small-files waits for 10 ingest commits (5).
	r = explorerLayoutOf(t, "mor-compaction-1.2.0")
	if b := band(t, r, layout.HotPartitions); !b.NotApplicable {
		t.Errorf("hot-partitions on a non-partitioned table: %+v", b)
	}
	if v := r.Hudiscope.Verdict(); v != "CLEAN · 1 of 3 not judged" {
		t.Errorf("mor-compaction roll-up %q", v)
	}
}
