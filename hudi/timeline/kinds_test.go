package timeline_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/hudiscope/hudiscope/hudi/problem"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/tableconfig"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// kindCounts is one timeline's instants by kind: every instant has exactly one kind.
func kindCounts(t *testing.T, where, tableType string, instants []*timeline.Instant) string {
	t.Helper()
	var writes, compactions, pendingCompactions, logCompactions, clustering, overwrites, dropped, cleans, rollbacks, savepoints, restores, services int
	for _, in := range instants {
		kinds := 0
		count := func(ok bool, n *int) {
			if ok {
				kinds++
				*n++
			}
		}
		count(in.IsDataWrite(tableType), &writes)
		count(in.IsCompaction(tableType) && in.IsCompleted(), &compactions)
		count(in.IsCompaction(tableType) && !in.IsCompleted(), &pendingCompactions)
		count(in.IsLogCompaction(), &logCompactions)
		count(in.IsClustering(), &clustering)
		count(in.IsClean(), &cleans)
		count(in.IsRollback(), &rollbacks)
		count(in.IsSavepoint(), &savepoints)
		count(in.IsRestore(), &restores)
		if kinds != 1 {
			t.Errorf("%s: %s %s (plan %q, op %q) has %d kinds", where, in.Action, in.RequestedTime, in.PlanAction, in.Operation, kinds)
		}
		if in.IsInsertOverwrite() {
			overwrites++
		}
		if in.IsDeletePartition() {
			dropped++
		}
		if in.IsTableService(tableType) {
			services++
		}
	}
	out := fmt.Sprintf("writes=%d compactions=%d+%d pending logcompactions=%d clustering=%d (overwrite=%d deletepartition=%d) cleans=%d rollbacks=%d savepoints=%d services=%d",
		writes, compactions, pendingCompactions, logCompactions, clustering, overwrites, dropped, cleans, rollbacks, savepoints, services)
	if restores > 0 {
		out += fmt.Sprintf(" restores=%d", restores)
	}
	return out
}

// The kinds of every fixture instant, data table and metadata table, against what each
// instant's files say (checked by hand): the replacecommits of cow-services-* are an
// INSERT_OVERWRITE (its requested plan has a null clusteringPlan) and, from 0.15.0 on, a
// CLUSTER one (0.15.0: replacecommit.requested with a plan; 1.x: clustering.requested);
// compactions complete as commit with operationType COMPACT (mor-compaction-*, mor-v4-0.11.1)
// or are pending as compaction.requested (mor-services-*, mor-v4-0.11.1's second one); every
// metadata-table commit is a compaction.
// plainW is the classification of n plain writes.
func plainW(n int) string {
	return fmt.Sprintf("writes=%d compactions=0+0 pending logcompactions=0 clustering=0 (overwrite=0 deletepartition=0) cleans=0 rollbacks=0 savepoints=0 services=0", n)
}

func TestKindsOnFixtures(t *testing.T) {
	cow12 := "writes=13 compactions=0+0 pending logcompactions=0 clustering=0 (overwrite=1 deletepartition=0) cleans=6 rollbacks=1 savepoints=1 services=6"
	cowServices := func(cleans int) string {
		return fmt.Sprintf("writes=13 compactions=0+0 pending logcompactions=0 clustering=1 (overwrite=1 deletepartition=0) cleans=%d rollbacks=1 savepoints=1 services=%d", cleans, cleans+1)
	}
	morCompaction := "writes=4 compactions=1+0 pending logcompactions=0 clustering=0 (overwrite=0 deletepartition=0) cleans=0 rollbacks=0 savepoints=0 services=1"
	morServices := "writes=6 compactions=0+1 pending logcompactions=0 clustering=0 (overwrite=0 deletepartition=0) cleans=1 rollbacks=0 savepoints=0 services=2"
	want := map[string]string{
		"cow-services-0.12.2":   cow12,
		"cow-services-0.15.0":   cowServices(5),
		"cow-services-1.0.2":    cowServices(12),
		"cow-services-1.2.0":    cowServices(12),
		"cow-v4-0.11.1":         "writes=5 compactions=0+0 pending logcompactions=0 clustering=0 (overwrite=0 deletepartition=0) cleans=4 rollbacks=1 savepoints=1 services=4",
		"mor-compaction-0.15.0": morCompaction,
		"mor-compaction-1.0.2":  morCompaction,
		"mor-compaction-1.2.0":  morCompaction,
		"mor-services-1.0.2":    morServices,
		"mor-services-1.2.0":    morServices,
		"mor-v4-0.11.1":         "writes=6 compactions=1+1 pending logcompactions=0 clustering=0 (overwrite=0 deletepartition=0) cleans=3 rollbacks=0 savepoints=0 services=5",
		"cdc-ops-1.2.0":         "writes=4 compactions=0+0 pending logcompactions=0 clustering=0 (overwrite=1 deletepartition=0) cleans=0 rollbacks=0 savepoints=0 services=0",
		"types-1.2.0":           "writes=2 compactions=0+0 pending logcompactions=0 clustering=0 (overwrite=0 deletepartition=0) cleans=0 rollbacks=0 savepoints=0 services=0",
		// Issue 29's edge fixtures, from their write logs (testdata/README.md): the killed
		// writer's inflight commit is a write and its clean.requested a clean; the restore
		// stays first on the active timeline while later writes are archived.
		"killed-writer-0.14.0": "writes=5 compactions=0+0 pending logcompactions=0 clustering=0 (overwrite=0 deletepartition=0) cleans=1 rollbacks=0 savepoints=0 services=1",
		"mor-archived-0.14.0":  "writes=4 compactions=1+0 pending logcompactions=0 clustering=0 (overwrite=0 deletepartition=0) cleans=4 rollbacks=0 savepoints=0 services=5",
		"mor-archived-1.1.1":   "writes=4 compactions=1+0 pending logcompactions=0 clustering=0 (overwrite=0 deletepartition=0) cleans=1 rollbacks=0 savepoints=0 services=2",
		"restore-cow-1.1.1":    "writes=3 compactions=0+0 pending logcompactions=0 clustering=0 (overwrite=0 deletepartition=0) cleans=4 rollbacks=0 savepoints=0 services=4 restores=1",
		"restore-mor-1.1.1":    "writes=3 compactions=1+0 pending logcompactions=0 clustering=0 (overwrite=0 deletepartition=0) cleans=3 rollbacks=0 savepoints=0 services=4 restores=1",
		"tt-archive-1.1.1":     "writes=3 compactions=1+0 pending logcompactions=0 clustering=0 (overwrite=0 deletepartition=0) cleans=0 rollbacks=0 savepoints=0 services=1",
		"tt-archive-0.14.0":    "writes=3 compactions=1+0 pending logcompactions=0 clustering=0 (overwrite=0 deletepartition=0) cleans=0 rollbacks=0 savepoints=0 services=1",
		// Issue 32's duplicates fixtures: bulk_insert twice, an insert, two upserts. On MOR
		// (1.1.1) the first bulk_insert completed as a commit (operation BULK_INSERT), not a
		// compaction; the later writes are delta commits.
		"dups-1.1.1":                  plainW(5),
		"dups-cow-0.14.0":             plainW(5),
		"cow-services-1.2.0/metadata": "writes=25 compactions=4+0 pending logcompactions=0 clustering=0 (overwrite=0 deletepartition=0) cleans=2 rollbacks=0 savepoints=0 services=6",
	}
	// The other fixtures write three or four plain commits (COW) or delta commits (MOR).
	plain := plainW
	for _, fx := range []string{"cdc-0.15.0", "cdc-1.2.0", "cdc-before-1.2.0", "cdc-mor-1.2.0", "cdc-morlog-1.2.0", "cdc-opkey-1.2.0",
		"incr-0.12.2", "incr-0.15.0", "incr-1.0.2", "incr-1.2.0", "incr-1.2.0-lz4", "incr-1.2.0-snappy", "incr-1.2.0-zstd"} {
		want[fx] = plain(3)
	}
	for _, fx := range []string{"index-bloom-1.2.0", "index-rli-1.2.0", "index-rli-nostream-1.2.0", "index-simple-1.2.0",
		"eventlog-pair-before-1.2.0", "eventlog-pair-after-1.2.0"} {
		want[fx] = plain(4)
	}
	// Issue 32's bucket-index table: an insert, three upserts and a delete (delta commits).
	want["index-bucket-1.2.0"] = plain(5)
	// Issue 29's: the bootstrap commit (00000000000001) and two upserts; one FULL_RECORD
	// bootstrap commit (00000000000002); four delta commits of the schema evolution.
	want["bootstrap-0.14.0"], want["bootstrap-1.1.1"] = plain(3), plain(3)
	want["bootstrap-full-0.14.0"] = plain(1)
	want["schema-evo-mor-1.1.1"] = plain(4)
	zips, _ := filepath.Glob("../../testdata/fixtures/*/table.zip")
	if len(zips) < 30 {
		t.Fatalf("%d fixture tables, want the 30 of testdata/fixtures", len(zips))
	}
	ctx := context.Background()
	mdtCompactions := 0
	for _, z := range zips {
		name := filepath.Base(filepath.Dir(z))
		st, cfg := openFixture(t, name)
		read := func(s storage.Storage, cfg *tableconfig.Config) []*timeline.Instant {
			r := &timeline.Reader{Store: s, Config: cfg, Problems: &problem.Log{}}
			tl, err := r.Active(ctx)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			r.LoadCommits(ctx, tl.Instants)
			return tl.Instants
		}
		got := kindCounts(t, name, cfg.Type, read(st, cfg))
		if w, ok := want[name]; !ok {
			t.Errorf("%s: no hand classification for %s", name, got)
		} else if got != w {
			t.Errorf("%s:\n got %s\nwant %s", name, got, w)
		}
		mst := storage.NewPrefixed(st, ".hoodie/metadata")
		mcfg, err := tableconfig.Read(ctx, mst, ".hoodie/hoodie.properties")
		if err != nil {
			continue // no metadata table
		}
		for _, in := range read(mst, mcfg) {
			// Every metadata-table commit is a compaction (plan compaction, op COMPACT), and
			// that still holds for a commit whose plan and metadata were not read.
			if in.IsCommit() {
				bare := &timeline.Instant{Action: in.Action, State: in.State}
				if !in.IsCompaction(mcfg.Type) || !bare.IsCompaction(tableconfig.MergeOnRead) || in.Operation != timeline.OpCompact {
					t.Errorf("%s metadata: commit %s (plan %q, op %q) is not a compaction", name, in.RequestedTime, in.PlanAction, in.Operation)
				}
				mdtCompactions++
			}
		}
		if name == "cow-services-1.2.0" {
			if got, w := kindCounts(t, name+"/metadata", mcfg.Type, read(mst, mcfg)), want[name+"/metadata"]; got != w {
				t.Errorf("%s metadata:\n got %s\nwant %s", name, got, w)
			}
		}
	}
	// 20 in cow-services-* (5, 5, 4, 4) and mor-services-* (1, 1); 7 more in the issue-29
	// fixtures (mor-archived-* 1 each, restore-cow-1.1.1 2, restore-mor-1.1.1 1,
	// tt-archive-* 1 each), counted from the .commit files under .hoodie/metadata in each zip.
	if mdtCompactions != 27 {
		t.Errorf("%d metadata-table compactions over the fixtures, want 27", mdtCompactions)
	}
}

// The kinds of instants whose plan or metadata were not read, or that no fixture has.
func TestKindsWithoutMetadata(t *testing.T) {
	mor, cow := tableconfig.MergeOnRead, tableconfig.CopyOnWrite
	in := func(action string, state timeline.State, plan, op string) *timeline.Instant {
		return &timeline.Instant{Action: action, State: state, PlanAction: plan, Operation: op}
	}
	for _, c := range []struct {
		in                                                      *timeline.Instant
		table                                                   string
		compaction, logCompaction, clustering, overwrite, write bool
	}{
		// An archived MOR commit: no plan, no metadata; a MOR table writes delta commits.
		{in(timeline.ActionCommit, timeline.Completed, "", ""), mor, true, false, false, false, false},
		{in(timeline.ActionCommit, timeline.Completed, "", ""), cow, false, false, false, false, true},
		// Hudi 1.1's first bulk_insert into a MOR table completes as a commit (dups-1.1.1).
		{in(timeline.ActionCommit, timeline.Completed, "", "BULK_INSERT"), mor, false, false, false, false, true},
		{in(timeline.ActionCommit, timeline.Completed, "", "COMPACT"), mor, true, false, false, false, false},
		{in(timeline.ActionCommit, timeline.Completed, "", "compact"), cow, true, false, false, false, false},
		{in(timeline.ActionCommit, timeline.Inflight, "", ""), mor, false, false, false, false, true},
		{in(timeline.ActionCompaction, timeline.Inflight, timeline.ActionCompaction, ""), mor, true, false, false, false, false},
		{in(timeline.ActionLogCompaction, timeline.Requested, timeline.ActionLogCompaction, ""), mor, false, true, false, false, false},
		{in(timeline.ActionDeltaCommit, timeline.Completed, timeline.ActionLogCompaction, "LOG_COMPACT"), mor, false, true, false, false, false},
		{in(timeline.ActionDeltaCommit, timeline.Completed, "", "UPSERT"), mor, false, false, false, false, true},
		// 1.x pending clustering; a 0.x replacecommit whose plan is a clustering plan; an
		// archived one that only says CLUSTER.
		{in(timeline.ActionClustering, timeline.Requested, timeline.ActionClustering, ""), cow, false, false, true, false, false},
		{in(timeline.ActionReplaceCommit, timeline.Inflight, timeline.ActionClustering, "CLUSTER"), cow, false, false, true, false, false},
		{in(timeline.ActionReplaceCommit, timeline.Completed, "", "CLUSTER"), mor, false, false, true, false, false},
		// A pending replacecommit without a clustering plan is an insert_overwrite under way.
		{in(timeline.ActionReplaceCommit, timeline.Requested, "", ""), cow, false, false, false, false, true},
		{in(timeline.ActionReplaceCommit, timeline.Completed, "", "INSERT_OVERWRITE_TABLE"), mor, false, false, false, true, true},
	} {
		got := [5]bool{c.in.IsCompaction(c.table), c.in.IsLogCompaction(), c.in.IsClustering(), c.in.IsInsertOverwrite(), c.in.IsDataWrite(c.table)}
		if w := [5]bool{c.compaction, c.logCompaction, c.clustering, c.overwrite, c.write}; got != w {
			t.Errorf("%s %s plan %q op %q on %s: compaction, logcompaction, clustering, overwrite, write = %v, want %v",
				c.in.Action, c.in.State, c.in.PlanAction, c.in.Operation, c.table, got, w)
		}
	}
	dp := in(timeline.ActionReplaceCommit, timeline.Completed, "", "DELETE_PARTITION")
	if !dp.IsDeletePartition() || dp.IsInsertOverwrite() || !dp.IsDataWrite(cow) || dp.IsTableService(cow) {
		t.Errorf("delete_partition replacecommit: delete partition %v, overwrite %v, write %v, service %v",
			dp.IsDeletePartition(), dp.IsInsertOverwrite(), dp.IsDataWrite(cow), dp.IsTableService(cow))
	}
}
