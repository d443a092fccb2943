package checkpoint_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/checkpoint"
	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// Begin values on the far side of the archive, judged as Spark read them
// (oracle/incremental_probes.json of each fixture, the probe ids below): the verdict and the
// writes covered come from the same plan the record reader uses, archived writes included.
func TestCheckpointArchivedBegins(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		fixture, release, value string
		verdict                 string
		covered, archived       int // writes covered, and how many of them archived
		skipped                 int
		why                     string
	}{
		// p116: Spark 1.2.0 returns the newest archived write's own 2 rows again (40 rows, 14
		// commit times): a re-read, where the active-only check said "safe".
		{"cow-services-1.2.0", "1.2.0", "20261129161754717", checkpoint.VerdictReRead, 14, 1, 0, "p116"},
		// p117: from its completion time the exclusive 1.1+ reader returns only the active
		// writes; but the value is older than the cleaner's retention: not safe.
		{"cow-services-1.2.0", "1.2.0", "20261129161758798", checkpoint.VerdictNotSafe, 13, 0, 0, "p117"},
		// p053: Hudi 0.15 silently skips the archived writes after the value and returns the 13
		// active ones (38 rows): the pipeline never reads the skipped ones.
		{"cow-services-0.15.0", "0.15.0", "20261129165624401", checkpoint.VerdictNotSafe, 13, 0, 0, "p053"},
		// p051: from 000 it skips all 30 archived writes (29 of them still have rows: p055, the
		// full scan, returns 42 commit times), returning the 13 active ones.
		{"cow-services-0.15.0", "0.15.0", "000", checkpoint.VerdictNotSafe, 13, 0, 30, "p051"},
	} {
		tbl, err := hudi.Open(ctx, filepath.Join(fixture(t, c.fixture), "table.zip"), storage.Options{})
		if err != nil {
			t.Fatal(err)
		}
		tl, err := tbl.ActiveTimeline(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := tbl.LoadArchived(ctx, tl); err != nil {
			t.Fatal(err)
		}
		r := checkpoint.Check(ctx, tbl, tl, c.value, mustReader(t, c.release))
		archived := 0
		for _, in := range r.Covered {
			if in.Archived {
				archived++
			}
		}
		if r.Verdict() != c.verdict || len(r.Covered) != c.covered || archived != c.archived {
			t.Errorf("%s %s (%s): verdict %s, %d covered (%d archived); want %s, %d (%d)", c.fixture, c.value, c.why,
				r.Verdict(), len(r.Covered), archived, c.verdict, c.covered, c.archived)
		}
		if len(r.Skipped) != c.skipped {
			t.Errorf("%s %s: %d archived writes skipped, want %d", c.fixture, c.value, len(r.Skipped), c.skipped)
		}
		if r.InActiveTimeline {
			t.Errorf("%s %s: reported inside the active timeline", c.fixture, c.value)
		}
	}
}

// A begin older than every write: 1.x reads the whole table (p114, 77 rows, 42 commit
// times), and PlanRead says so instead of listing the active writes only.
func TestPlanReadWholeTable(t *testing.T) {
	ctx := context.Background()
	tbl, err := hudi.Open(ctx, filepath.Join(fixture(t, "cow-services-1.2.0"), "table.zip"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tl, err := tbl.ActiveTimeline(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := tbl.LoadArchived(ctx, tl); err != nil {
		t.Fatal(err)
	}
	p := checkpoint.PlanRead(tl, checkpoint.Query{Begin: "000"}, mustReader(t, "1.2.0"))
	if !p.WholeTable || p.Unknown != "" || len(p.Skipped) != 0 {
		t.Errorf("1.2.0 from 000: %+v", p)
	}
	on := true
	p = checkpoint.PlanRead(tl, checkpoint.Query{Begin: "000", Fallback: &on}, mustReader(t, "0.15.0"))
	if !p.WholeTable {
		t.Errorf("0.x with the fallback on from 000 scans the whole table: %+v", p)
	}
	p = checkpoint.PlanRead(tl, checkpoint.Query{Begin: "000", MOR: true}, mustReader(t, "1.0.2"))
	if p.Unknown == "" {
		t.Errorf("1.0.x merge-on-read before the active timeline is not reproduced: %+v", p)
	}
	var last *timeline.Instant
	for _, in := range tl.Archived {
		last = in
	}
	if last == nil {
		t.Fatal("cow-services-1.2.0 has archived instants")
	}
}
