package model

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/duplicates"
)

// duplicatesOracle is oracle/duplicates.json: Spark's GROUP BY _hoodie_record_key HAVING
// count(*) > 1 over the snapshot, locations as "partition|_hoodie_file_name|_hoodie_commit_time".
type duplicatesOracle struct {
	DuplicateKeys int     `json:"duplicate_keys"`
	SnapshotRows  int     `json:"snapshot_rows"`
	Rows          [][]any `json:"rows"`
}

func loadDupsFixture(t *testing.T, fx string) *Snapshot {
	t.Helper()
	zip := filepath.Join("..", "testdata", "fixtures", fx, "table.zip")
	s, err := Load(context.Background(), Options{Location: zip, Steps: []Step{StepTimeline, StepFiles}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestDuplicatesMatchSpark: on the dups fixtures (bulk_insert twice with overlapping keys, an
// insert repeating keys without combining, a partition-path change under a non-global index,
// an update of a duplicated key in log files), the duplicated keys and every copy's partition,
// _hoodie_file_name and commit time equal Spark's GROUP BY, key by key; in memory and with a
// budget so small that every few tuples are spilled (the spill directory is gone afterwards).
func TestDuplicatesMatchSpark(t *testing.T) {
	for _, fx := range []string{"dups-1.1.1", "dups-cow-0.14.0"} {
		t.Run(fx, func(t *testing.T) {
			var oracle duplicatesOracle
			b, err := os.ReadFile(filepath.Join("..", "testdata", "fixtures", fx, "oracle", "duplicates.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &oracle); err != nil {
				t.Fatal(err)
			}
			if oracle.DuplicateKeys != 9 || oracle.SnapshotRows != 37 {
				t.Fatalf("oracle: %d duplicated keys of %d rows; the fixture changed", oracle.DuplicateKeys, oracle.SnapshotRows)
			}
			want := map[string][]string{}
			for _, r := range oracle.Rows {
				var locs []string
				for _, l := range r[2].([]any) {
					locs = append(locs, l.(string))
				}
				if int(r[1].(float64)) != len(locs) {
					t.Fatalf("oracle row %v", r)
				}
				want[r[0].(string)] = locs
			}
			s := loadDupsFixture(t, fx)
			for _, budget := range []int64{0, 200} {
				tmp := t.TempDir()
				res, st, err := s.Duplicates(context.Background(), duplicates.Options{MemBudget: budget, TempDir: tmp})
				if err != nil {
					t.Fatal(err)
				}
				if st.FailedSlices != 0 || len(st.Problems) != 0 {
					t.Fatalf("scan: %+v", st)
				}
				got := map[string][]string{}
				for _, d := range res.Duplicates {
					var locs []string
					for _, l := range d.Locations {
						locs = append(locs, l.Partition+"|"+l.FileName+"|"+l.CommitTime)
					}
					sort.Strings(locs)
					got[d.Key] = locs
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("budget %d: duplicates\n got %v\nwant %v", budget, got, want)
				}
				if res.Rows != 37 || res.DistinctKeys != 28 || res.DuplicateKeys != 9 || res.ExtraCopies != 9 {
					t.Errorf("budget %d: rows %d distinct %d duplicated %d extra %d, want 37 28 9 9", budget, res.Rows, res.DistinctKeys, res.DuplicateKeys, res.ExtraCopies)
				}
				// 3 moved partitions; 30 and 31 twice in one file group; 15..20 in two file groups
				wantKinds := map[duplicates.Kind]int64{duplicates.KindPartitions: 1, duplicates.KindFileGroup: 2, duplicates.KindFileGroups: 6}
				if !reflect.DeepEqual(res.ByKind, wantKinds) {
					t.Errorf("budget %d: kinds %v, want %v", budget, res.ByKind, wantKinds)
				}
				if budget == 0 && res.SpilledRuns != 0 || budget > 0 && res.SpilledRuns < 5 {
					t.Errorf("budget %d: %d runs spilled", budget, res.SpilledRuns)
				}
				if left, _ := os.ReadDir(tmp); len(left) != 0 {
					t.Errorf("budget %d: spill directory left behind: %v", budget, left)
				}
			}
		})
	}
}

// TestDuplicatesNone: a merge-on-read table whose keys are updated in log files and compacted
// holds every key once.
func TestDuplicatesNone(t *testing.T) {
	s := loadDupsFixture(t, "mor-compaction-1.2.0")
	res, _, err := s.Duplicates(context.Background(), duplicates.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.DuplicateKeys != 0 || res.Rows != res.DistinctKeys || res.Rows == 0 {
		t.Errorf("rows %d distinct %d duplicated %d", res.Rows, res.DistinctKeys, res.DuplicateKeys)
	}
	t.Logf("rows %d", res.Rows)
}
