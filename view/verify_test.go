package view

import (
	"context"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/model"
)

func loadWithArchive(t *testing.T, fixture string) *model.Snapshot {
	t.Helper()
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	s, err := model.Load(context.Background(), model.Options{Location: "../testdata/fixtures/" + fixture + "/table.zip", ClusterDefaults: "-",
		Steps: []model.Step{model.StepTimeline}, Archived: true, LazyCommits: true, Now: func() time.Time { return now }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The measures verify reads at an instant, against hudiscope show / timeline / layout of the
// same fixtures: cow-services-1.2.0's CLUSTER replacecommit 20261129162054490 (requested
// 20261129162054490, completed 20261129162133656: 39166 ms; 3 files of 75 records, median
// 10829 bytes; it replaces 62 file groups, the writes through the UPSERT before it created 62;
// 5 after the next UPSERT, the 5 file groups `layout` lists at the latest).
func TestInstantMeasureOf(t *testing.T) {
	ctx := context.Background()
	cow := loadWithArchive(t, "cow-services-1.2.0")
	m := InstantMeasureOf(ctx, cow, "20261129162054490")
	want := map[string]float64{"instant.durationMillis": 39166, "instant.filesWritten": 3, "instant.recordsWritten": 75,
		"instant.fileSizeP50": 10829, "instant.fileGroups": 3, "instant.cleanRetainedFromEpochMillis": 1795969187920}
	if m.Unknown != "" || m.Instant != "20261129162054490.replacecommit" || len(m.Values) != len(want) {
		t.Fatalf("%+v", m)
	}
	for k, v := range want {
		if m.Values[k] != v {
			t.Errorf("%s = %v, want %v", k, m.Values[k], v)
		}
	}
	if m.Why["instant.writeAmplification"] != "20261129162054490.replacecommit updated no record (write amplification is undefined)" ||
		m.Why["instant.deltaCommitsSinceCompaction"] != "a copy-on-write table has no delta commits" {
		t.Errorf("why: %v", m.Why)
	}
	for arg, groups := range map[string]float64{"20261129162031337": 62, "latest": 5} {
		if g := InstantMeasureOf(ctx, cow, arg).Values["instant.fileGroups"]; g != groups {
			t.Errorf("%s: %v file groups, want %v", arg, g, groups)
		}
	}
	// an UPSERT: 14 writes, 3 updates (timeline) → write amplification 4.67 as stats wa prints it
	if wa := InstantMeasureOf(ctx, cow, "20261129161800076.commit").Values["instant.writeAmplification"]; wa != 4.67 {
		t.Errorf("write amplification %v, want 4.67", wa)
	}
	// a clean is not a write: its duration only
	cl := InstantMeasureOf(ctx, cow, "20261129162049827")
	if cl.Values["instant.durationMillis"] != 4481 || cl.Why["instant.filesWritten"] != "20261129162049827.clean is a clean, not a write" {
		t.Errorf("clean: %+v", cl)
	}
	// the last clean through the UPSERT 20261129161810138 is 20261129161805411 (earliest commit
	// to retain 20261129161754717, show); through the latest, 20261129162049827
	// (20261129161947920): 113203 ms later
	for arg, ms := range map[string]float64{"20261129161810138": 1795969074717, "latest": 1795969187920} {
		if got := InstantMeasureOf(ctx, cow, arg).Values["instant.cleanRetainedFromEpochMillis"]; got != ms {
			t.Errorf("%s: clean retains from %v, want %v", arg, got, ms)
		}
	}
	for arg, why := range map[string]string{
		"20261130200000000": "no instant 20261130200000000 on the timeline",
		"20261129161800076": "20261129161800076 matches 2 instants (20261129161800076.commit, 20261129161800076.savepoint): name one as TIME.ACTION",
	} {
		if m := InstantMeasureOf(ctx, cow, arg); m.Unknown != why || len(m.Values) != 0 {
			t.Errorf("%s: %q %v, want %q", arg, m.Unknown, m.Values, why)
		}
	}

	// mor-compaction-1.2.0, inline compaction every 3 delta commits: 3 delta commits before it,
	// 0 at the compaction, 1 after.
	mor := loadWithArchive(t, "mor-compaction-1.2.0")
	for arg, n := range map[string]float64{"20261130200217275": 3, "20261130200222808": 0, "20261130200226754": 1} {
		if got := InstantMeasureOf(ctx, mor, arg).Values["instant.deltaCommitsSinceCompaction"]; got != n {
			t.Errorf("mor %s: %v delta commits since compaction, want %v", arg, got, n)
		}
	}
	// mor-services-1.2.0's compaction is requested, never completed
	svc := loadWithArchive(t, "mor-services-1.2.0")
	if m := InstantMeasureOf(ctx, svc, "20261129163053361"); m.Unknown != "20261129163053361.compaction is requested, not completed" {
		t.Errorf("pending compaction: %q", m.Unknown)
	}
	if got := InstantMeasureOf(ctx, svc, "latest").Values["instant.deltaCommitsSinceCompaction"]; got != 6 {
		t.Errorf("mor-services latest: %v delta commits, want 6", got)
	}
}

// The file groups the timeline replay counts at the latest instant are the file groups
// `hudiscope layout` lists from storage (its "N file groups" line), on fixtures with archived
// timelines, compaction and clustering alike.
func TestInstantFileGroupsMatchLayout(t *testing.T) {
	for fixture, groups := range map[string]float64{"mor-archived-0.14.0": 2, "mor-archived-1.1.1": 2, "tt-archive-1.1.1": 3,
		"tt-archive-0.14.0": 3, "mor-compaction-1.2.0": 1, "cow-services-0.15.0": 5, "cow-services-1.2.0": 5, "incr-1.2.0": 1} {
		m := InstantMeasureOf(context.Background(), loadWithArchive(t, fixture), "latest")
		if got, ok := m.Values["instant.fileGroups"]; !ok || got != groups {
			t.Errorf("%s: %v file groups (%q), layout lists %v", fixture, got, m.Why["instant.fileGroups"], groups)
		}
	}
}
