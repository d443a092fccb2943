package model

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// oracleRowCount is Spark's snapshot row count of a fixture (oracle/summary.json row_count).
func oracleRowCount(t *testing.T, fx string) int {
	t.Helper()
	var sum struct {
		RowCount *int `json:"row_count"`
	}
	b, err := os.ReadFile(filepath.Join("..", "testdata", "fixtures", fx, "oracle", "summary.json"))
	if err != nil {
		t.Skipf("fixture %s: %v", fx, err)
	}
	if err := json.Unmarshal(b, &sum); err != nil || sum.RowCount == nil {
		t.Fatalf("%s: no row_count in summary.json: %v", fx, err)
	}
	return *sum.RowCount
}

// A completed clustering replacecommit whose completed file is still 0 bytes (Spark writes it
// non-atomically; seen live while a writer clustered) counted both the replaced file groups and
// their rewrite: 152 rows for cow-services-1.2.0's 77. The replaced groups now come from the
// clustering plan in the requested file (.replacecommit.requested on 0.x, .clustering.requested
// on 1.x), so the count is Spark's of the finished table, and the instant is named as
// incomplete.
func TestEmptyCompletedReplaceCommitUsesClusteringPlan(t *testing.T) {
	for _, fx := range []string{"cow-services-0.15.0", "cow-services-1.0.2", "cow-services-1.2.0"} {
		t.Run(fx, func(t *testing.T) {
			want := oracleRowCount(t, fx)
			dir := unzipFixture(t, fx)
			f := openDir(t, dir)
			var emptied []string
			for _, in := range f.tl.Instants {
				if in.IsReplaceCommit() && in.IsCompleted() && in.IsClustering() {
					var n int
					for _, ids := range in.ReplacedFileIDs {
						n += len(ids)
					}
					if n == 0 {
						t.Fatalf("%s: clustering replaces no file group before the edit", in.RequestedTime)
					}
					p := filepath.Join(dir, in.CompletedFile())
					if !strings.Contains(filepath.Base(p), ".replacecommit") || strings.Contains(filepath.Base(p), ".requested") || strings.Contains(filepath.Base(p), ".inflight") {
						t.Fatalf("%s: last file %s is not the completed one", in.RequestedTime, p)
					}
					if err := os.Truncate(p, 0); err != nil {
						t.Fatal(err)
					}
					emptied = append(emptied, in.RequestedTime)
				}
			}
			if len(emptied) == 0 {
				t.Fatalf("%s has no completed clustering replacecommit", fx)
			}
			f = openDir(t, dir)
			got, _, err := snapshotCounts(t, f, SnapshotQuery{})
			if err != nil {
				t.Fatal(err)
			}
			if total(got) != want {
				t.Errorf("snapshot rows with %v emptied = %d, oracle %d", emptied, total(got), want)
			}
			for _, in := range f.tl.Instants {
				for _, e := range emptied {
					if in.RequestedTime == e && (!in.EmptyCompleted() || in.PlanAction != timeline.ActionClustering || !strings.Contains(in.Err, "clustering plan")) {
						t.Errorf("%s: err %q, plan %q: want it named incomplete, replaced groups from the plan", e, in.Err, in.PlanAction)
					}
				}
			}
			t.Logf("%s: emptied %v, %d rows", fx, emptied, total(got))
		})
	}
}
