package eventlog

import (
	"path/filepath"
	"testing"
)

// pairPath is the event log of one eventlog-pair fixture (issue 33): the same partitioned
// upsert job (insert 2000 rows, then 3 upserts of 400) with hoodie.upsert.shuffle.parallelism
// 200 ("before") and 2 ("after"), Hudi 1.2.0 on local[2].
func pairPath(t testing.TB, side string) string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(repoRoot(t), "testdata", "fixtures", "eventlog-pair-"+side+"-1.2.0", "local-*"))
	if len(m) != 1 {
		t.Fatalf("eventlog-pair-%s-1.2.0: want one event log, found %v", side, m)
	}
	return m[0]
}

// The figures were checked against the logs decoded with zstd -dc and counted in Python
// (TaskEnd events: 1274 and 86; StageCompleted: 46 and 46; JobStart: 26 and 26;
// ApplicationEnd - ApplicationStart: 104172 and 78904 ms).
func TestCompareRealPair(t *testing.T) {
	c := Compare(analyzePath(t, pairPath(t, "before")), analyzePath(t, pairPath(t, "after")))
	app := map[string][3]float64{
		"durationMillis":        {104172, 78904, -25268},
		"criticalPathMillis":    {53860, 35945, -17915},
		"offCriticalPathMillis": {50312, 42959, -7353},
		"uncoveredMillis":       {41703, 35054, -6649},
		"uncoveredShare":        {0.4, 0.444, 0.044},
		"jobCount":              {26, 26, 0},
		"stageCount":            {46, 46, 0},
		"taskCount":             {1274, 86, -1188},
	}
	for m, w := range app {
		d := c.Find(m)
		if d == nil || !d.Known || d.Before != w[0] || d.After != w[1] || d.Delta != w[2] {
			t.Errorf("%s: %+v, want before %v after %v delta %v", m, d, w[0], w[1], w[2])
		}
	}
	if d := c.Find("taskCount"); d.Relative == nil || *d.Relative != -0.932 {
		t.Errorf("taskCount relative %v, want -0.932", d.Relative)
	}
	if d := c.Find("spilledBytes"); d.Relative != nil || d.Delta != 0 {
		t.Errorf("spill 0 -> 0: relative %v (want nil: no base), delta %v", d.Relative, d.Delta)
	}
	find := func(rows []GroupDelta, l string) GroupDelta {
		for _, g := range rows {
			if g.Label == l {
				return g
			}
		}
		t.Fatalf("no group %s", l)
		return GroupDelta{}
	}
	// Only the stages the shuffle parallelism governs changed their task count.
	tag := find(c.Phases, PhaseDedupTagging)
	if tag.Tasks.Before != 1234 || tag.Tasks.After != 46 || tag.WallClockMillis.Before != 57142 || tag.WallClockMillis.After != 21986 ||
		tag.Share.Before != 0.769 || !tag.InBefore || !tag.InAfter {
		t.Errorf("DEDUP_AND_INDEX_TAGGING: %+v", tag)
	}
	if w := find(c.Phases, PhaseDataWrite); w.Tasks.Before != 18 || w.Tasks.After != 18 {
		t.Errorf("DATA_TABLE_WRITE tasks %v -> %v, want 18 -> 18 (bucket-shaped)", w.Tasks.Before, w.Tasks.After)
	}
	if k := find(c.StageKinds, "DEDUP_AND_INDEX_TAGGING/tagging"); k.Tasks.Before != 612 || k.Tasks.After != 18 || k.WallClockMillis.Before != 20730 || k.WallClockMillis.After != 4318 {
		t.Errorf("tagging stage kind: %+v", k)
	}
	if len(c.StageKinds) != 6 || len(c.Phases) != 3 || len(c.Operations) != 2 {
		t.Errorf("groups: %d stage kinds, %d phases, %d operations; want 6, 3, 2", len(c.StageKinds), len(c.Phases), len(c.Operations))
	}
	// Moved most: the tagging phase first, by |delta|; sorted throughout.
	if len(c.MovedMost) == 0 || c.MovedMost[0].Label != PhaseDedupTagging || c.MovedMost[0].DeltaMillis != -35156 {
		t.Fatalf("moved most: %+v", c.MovedMost)
	}
	for i := 1; i < len(c.MovedMost); i++ {
		if abs64(c.MovedMost[i].DeltaMillis) > abs64(c.MovedMost[i-1].DeltaMillis) {
			t.Errorf("moved most not sorted by |delta| at %d: %+v", i, c.MovedMost)
		}
	}
}

// A measure one log cannot derive (-1) is unknown, with no delta, and stays out of "moved most".
func TestCompareUnknown(t *testing.T) {
	a, b := &Report{}, &Report{}
	a.Hudiscope.Application.UncoveredMillis, a.Hudiscope.Application.UncoveredShare = -1, -1
	b.Hudiscope.Application.UncoveredMillis, b.Hudiscope.Application.UncoveredShare = 5000, 0.5
	b.Hudiscope.PhaseSummary = []GroupSummary{{Label: PhaseDataWrite, StageCount: 1, StageWallClockMillis: 700, ShareOfStageWallClock: 1}}
	c := Compare(a, b)
	if d := c.Find("uncoveredMillis"); d.Known || d.Delta != 0 || d.Relative != nil {
		t.Errorf("unknown before: %+v", d)
	}
	if len(c.Phases) != 1 || c.Phases[0].InBefore || !c.Phases[0].InAfter || c.Phases[0].WallClockMillis.Delta != 700 {
		t.Errorf("a phase only after: %+v", c.Phases)
	}
	if len(c.MovedMost) != 1 || c.MovedMost[0].DeltaMillis != 700 {
		t.Errorf("moved most: %+v", c.MovedMost)
	}
}
