package hudi_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// The v6 sample tables were written on a CDT (UTC-5) machine with LOCAL instant times; the
// hoodie.properties header gives the offset, and the completed file's mtime (22:32:14 UTC in
// the zip) renders as 17:32:14 local — one second after the requested time 17:32:13.674.
func TestTableZoneAndDerivedCompletion(t *testing.T) {
	ctx := context.Background()
	tbl, err := hudi.Open(ctx, filepath.Join(corpusDir(t), "sample_table/cow/v6_complexkeygen_hivestyle.zip"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, off := time.Date(2024, 4, 18, 0, 0, 0, 0, tbl.Config.Zone).Zone(); off != -5*3600 {
		t.Errorf("zone offset = %d, want -5h (%s)", off, tbl.Config.ZoneSource)
	}
	if !tbl.Config.ChecksumOK || tbl.Config.KeyGenerator != "org.apache.hudi.keygen.ComplexKeyGenerator" ||
		len(tbl.Config.PartitionKeys) != 2 || tbl.Config.OrderingFields[0] != "longField" {
		t.Errorf("config: %+v", tbl.Config)
	}
	tl, _ := tbl.ActiveTimeline(ctx)
	in := tl.Instants[0]
	if in.RequestedTime != "20240418173213674" || in.CompletionTime != "20240418173214000" || !in.CompletionDerived {
		t.Errorf("first instant %s → %s derived=%v", in.RequestedTime, in.CompletionTime, in.CompletionDerived)
	}
	if d := in.Duration(); d != 326*time.Millisecond {
		t.Errorf("duration = %v, want 326ms", d)
	}
	// v9 tables written in UTC say so in the header.
	tbl, _ = hudi.Open(ctx, filepath.Join(corpusDir(t), "sample_table/mor/avro/v9_nonpartitioned_rollback.zip"), storage.Options{})
	if _, off := time.Now().In(tbl.Config.Zone).Zone(); off != 0 {
		t.Errorf("v9 rollback table zone %s", tbl.Config.ZoneSource)
	}
}

// The v9 MOR rollback table: two deltacommits and a rollback of a failed third write whose
// instant files were deleted; the rollback's plan and metadata name it.
func TestRollbackDetails(t *testing.T) {
	ctx := context.Background()
	tbl, err := hudi.Open(ctx, filepath.Join(corpusDir(t), "sample_table/mor/avro/v9_nonpartitioned_rollback.zip"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tl, _ := tbl.ActiveTimeline(ctx)
	var rb *timeline.Instant
	for _, in := range tl.Instants {
		if in.IsRollback() {
			rb = in
		}
	}
	if rb == nil {
		t.Fatal("no rollback instant")
	}
	d, err := tbl.Details(ctx, rb)
	if err != nil || len(d.Problems) > 0 {
		t.Fatal(err, d.Problems)
	}
	if d.Rollback == nil || len(d.Rollback.CommitsRollback) != 1 || d.RollbackPlan == nil || d.RollbackPlan.InstantToRollback == nil {
		t.Fatalf("rollback details: %+v / %+v", d.Rollback, d.RollbackPlan)
	}
	target := d.Rollback.CommitsRollback[0]
	if d.RollbackPlan.InstantToRollback.CommitTime != target || tl.Find(target) != nil {
		t.Errorf("rolled back %s (plan %s) should be gone from the timeline", target, d.RollbackPlan.InstantToRollback.CommitTime)
	}
	t.Logf("rollback %s → %s of %s", rb.RequestedTime, rb.CompletionTime, target)
}

// Clustering on a v9 COW table completes as replacecommit with op CLUSTER; its plan is in the
// .clustering.requested file, and the replaced file groups are hidden from the view.
func TestClusteringAndReplace(t *testing.T) {
	ctx := context.Background()
	tbl, err := hudi.Open(ctx, filepath.Join(corpusDir(t), "sample_table/cow/v9_txns_simple_meta.zip"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tl, _ := tbl.ActiveTimeline(ctx)
	in := tl.Find("20260307162454799")
	if in == nil || in.Action != timeline.ActionReplaceCommit || in.PlanAction != timeline.ActionClustering || in.Operation != "CLUSTER" {
		t.Fatalf("clustering instant: %+v", in)
	}
	d, _ := tbl.Details(ctx, in)
	if d.Replace == nil || !d.Replace.IsClustering() || len(d.Replace.ClusteringPlan.InputGroups) == 0 {
		t.Errorf("clustering plan: %+v", d.Replace)
	}
	view, _ := tbl.View(ctx, tl, hudi.ListingStorage)
	live, replaced := 0, 0
	for _, p := range view.Partitions {
		live += len(p.FileGroups)
		replaced += len(p.Replaced)
	}
	// 17 parquet files on storage; after INSERT_OVERWRITE of eu and clustering of all three
	// regions, 5 groups are live (one per region from clustering, plus the last insert's 2)
	// and 7 replaced (apac 2, eu 3, us 2).
	if live != 5 || replaced != 7 {
		t.Errorf("live %d replaced %d", live, replaced)
	}
}
