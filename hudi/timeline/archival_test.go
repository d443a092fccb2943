package timeline_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/hudi/problem"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// TestArchivalRuns: the archiver's runs as the fixtures' files show them. The LSM counts are
// the layer-0 files' rows as Spark reads them (spark.read.parquet(file).count(): mor-archived-1.1.1
// 4, 1, 1; tt-archive-1.1.1 2, 2, 2; cow-services-1.2.0 6, 6); the L1/L2 files that merged the
// earlier runs are not runs. The 0.x counts are the distinct instants of each
// .commits_.archive.N file; they add up to the archived instants (15, 12, 63, 63), one block
// per file for one batch, two where a run moved more than the archiver's batch.
func TestArchivalRuns(t *testing.T) {
	for _, c := range []struct {
		name, counts, blocks string
		first                string // the first run's "time first..last"
		archived             int
	}{
		{"mor-archived-1.1.1", "4 1 1", "0 0 0", "23:14:26 20261201231230754..20261201231320769", 18},
		{"tt-archive-1.1.1", "2 2 2", "0 0 0", "23:55:26 20261201235433984..20261201235446275", 12},
		{"cow-services-1.2.0", "6 6", "0 0", "16:18:08 20261129161724115..20261129161736306", 56},
		{"cow-services-1.0.2", "6 6", "0 0", "19:44:00 20261130194235653..20261130194259935", 56},
		{"mor-archived-0.14.0", "3 1 1 3 1 1 3 1 1", "1 1 1 1 1 1 1 1 1", "23:14:54 20261201231157259..20261201231344884", 15},
		{"tt-archive-0.14.0", "2 2 2 2 2 2", "1 1 1 1 1 1", "00:06:14 20261202000235864..20261202000358343", 12},
		{"cow-services-0.15.0", "3 6 6 6 6 6 6 6 6 3 3 3 3", "1 2 2 2 2 2 2 2 2 1 1 1 1", "16:54:46 20261129165340793..20261129165419812", 63},
		{"cow-services-0.12.2", "3 6 6 6 6 6 6 6 6 3 3 3 3", "1 2 2 2 2 2 2 2 2 1 1 1 1", "17:45:06 20261129174402063..20261129174424825", 63},
		{"incr-1.2.0", "", "", "", 0},
	} {
		st, cfg := openFixture(t, c.name)
		r := &timeline.Reader{Store: st, Config: cfg, Problems: &problem.Log{}}
		ctx := context.Background()
		tl, err := r.Active(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.LoadArchived(ctx, tl); err != nil {
			t.Fatal(err)
		}
		var counts, blocks []string
		sum := 0
		for _, run := range tl.ArchivalRuns {
			counts = append(counts, fmt.Sprint(run.Instants))
			blocks = append(blocks, fmt.Sprint(run.Blocks))
			sum += run.Instants
		}
		if got := strings.Join(counts, " "); got != c.counts {
			t.Errorf("%s: instants per run %q, want %q", c.name, got, c.counts)
		}
		if got := strings.Join(blocks, " "); got != c.blocks {
			t.Errorf("%s: blocks per run %q, want %q", c.name, got, c.blocks)
		}
		if len(tl.Archived) != c.archived {
			t.Errorf("%s: %d archived instants, want %d", c.name, len(tl.Archived), c.archived)
		}
		if strings.HasSuffix(c.name, "0.14.0") || strings.HasSuffix(c.name, "0.15.0") || strings.HasSuffix(c.name, "0.12.2") {
			if sum != c.archived {
				t.Errorf("%s: runs move %d instants, the archive holds %d", c.name, sum, c.archived)
			}
		}
		if len(tl.ArchivalRuns) > 0 {
			r0 := tl.ArchivalRuns[0]
			if got := r0.Time.UTC().Format("15:04:05") + " " + r0.First + ".." + r0.Last; got != c.first {
				t.Errorf("%s: first run %q, want %q", c.name, got, c.first)
			}
		}
		if p := len(r.Problems.List()); p != 0 {
			t.Errorf("%s: %d problems", c.name, p)
		}
	}
}
