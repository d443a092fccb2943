package hudi_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// corpusDir is the external hudi-rs test corpus (../shared from the repo root).
func corpusDir(t testing.TB) string {
	t.Helper()
	dir, err := filepath.Abs("../../shared/testdata/hudi-rs/crates/test/data")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("external corpus not present at %s (it lives in ../shared/testdata): %v", dir, err)
	}
	return dir
}

// corpusTable is one table of the external corpus as measured by hand by the people who
// collected it: completed instants by action, data files on storage
// (every version, replaced and uncleaned files included) and partition count.
type corpusTable struct {
	zip        string
	version    int
	typ        string
	name       string
	completed  map[string]int
	baseFiles  int
	logFiles   int
	partitions int
}

var corpus = []corpusTable{
	{"quickstart_trips_table/cow/v9_trips_lance.zip", 9, "COPY_ON_WRITE", "v9_trips_lance_cow", map[string]int{"commit": 5}, 9, 0, 3},
	{"quickstart_trips_table/mor/avro/v6_trips_8i1u.zip", 6, "MERGE_ON_READ", "v6_trips_8i1u", map[string]int{"deltacommit": 2}, 3, 1, 3},
	{"quickstart_trips_table/mor/avro/v6_trips_8i3d.zip", 6, "MERGE_ON_READ", "v6_trips_8i3d", map[string]int{"deltacommit": 2}, 3, 1, 3},
	{"quickstart_trips_table/mor/avro/v9_trips_lance.zip", 9, "MERGE_ON_READ", "v9_trips_lance_mor", map[string]int{"deltacommit": 7}, 5, 1, 3},
	{"sample_table/cow/v6_complexkeygen_hivestyle.zip", 6, "COPY_ON_WRITE", "v6_complexkeygen_hivestyle", map[string]int{"commit": 2}, 4, 0, 3},
	{"sample_table/cow/v6_empty.zip", 6, "COPY_ON_WRITE", "v6_empty", map[string]int{}, 0, 0, 0},
	{"sample_table/cow/v6_nonpartitioned.zip", 6, "COPY_ON_WRITE", "v6_nonpartitioned", map[string]int{"commit": 2}, 2, 0, 1},
	{"sample_table/cow/v6_simplekeygen_hivestyle_no_metafields.zip", 6, "COPY_ON_WRITE", "v6_simplekeygen_hivestyle_no_metafields", map[string]int{"commit": 1}, 3, 0, 3},
	{"sample_table/cow/v6_simplekeygen_nonhivestyle.zip", 6, "COPY_ON_WRITE", "v6_simplekeygen_nonhivestyle", map[string]int{"commit": 2}, 4, 0, 3},
	{"sample_table/cow/v6_simplekeygen_nonhivestyle_overwritetable.zip", 6, "COPY_ON_WRITE", "v6_simplekeygen_nonhivestyle_overwritetable", map[string]int{"commit": 2, "replacecommit": 1}, 5, 0, 3},
	{"sample_table/cow/v8_complexkeygen_hivestyle.zip", 8, "COPY_ON_WRITE", "v8_complexkeygen_hivestyle", map[string]int{"commit": 2}, 4, 0, 3},
	{"sample_table/cow/v8_empty.zip", 8, "COPY_ON_WRITE", "v8_empty", map[string]int{}, 0, 0, 0},
	{"sample_table/cow/v8_nonpartitioned.zip", 8, "COPY_ON_WRITE", "v8_nonpartitioned", map[string]int{"commit": 2}, 2, 0, 1},
	{"sample_table/cow/v8_simplekeygen_hivestyle_no_metafields.zip", 8, "COPY_ON_WRITE", "v8_simplekeygen_hivestyle_no_metafields", map[string]int{"commit": 1}, 3, 0, 3},
	{"sample_table/cow/v8_simplekeygen_nonhivestyle.zip", 8, "COPY_ON_WRITE", "v8_simplekeygen_nonhivestyle", map[string]int{"commit": 2}, 4, 0, 3},
	{"sample_table/cow/v9_lance_nonpartitioned.zip", 9, "COPY_ON_WRITE", "v9_lance_nonpartitioned_cow", map[string]int{"commit": 5}, 5, 0, 1},
	{"sample_table/cow/v9_lance_txns_nonpart.zip", 9, "COPY_ON_WRITE", "v9_lance_txns_nonpart_cow", map[string]int{"commit": 10}, 10, 0, 1},
	{"sample_table/cow/v9_lance_txns_simple.zip", 9, "COPY_ON_WRITE", "v9_lance_txns_simple_cow", map[string]int{"commit": 10}, 12, 0, 3},
	{"sample_table/cow/v9_timebasedkeygen_epochmillis.zip", 9, "COPY_ON_WRITE", "v9_timebasedkeygen_epochmillis_cow", map[string]int{"commit": 4}, 9, 0, 6},
	{"sample_table/cow/v9_timebasedkeygen_nonhivestyle.zip", 9, "COPY_ON_WRITE", "v9_timebasedkeygen_nonhivestyle_cow", map[string]int{"commit": 4}, 8, 0, 5},
	{"sample_table/cow/v9_timebasedkeygen_unixtimestamp.zip", 9, "COPY_ON_WRITE", "v9_timebasedkeygen_unixtimestamp_cow", map[string]int{"commit": 4}, 6, 0, 3},
	{"sample_table/cow/v9_txns_complex_meta.zip", 9, "COPY_ON_WRITE", "v9_txns_cow_complex_meta", map[string]int{"commit": 10, "indexing": 2, "replacecommit": 2}, 17, 0, 3},
	{"sample_table/cow/v9_txns_complex_nometa.zip", 9, "COPY_ON_WRITE", "v9_txns_cow_complex_nometa", map[string]int{"commit": 10, "replacecommit": 2}, 17, 0, 3},
	{"sample_table/cow/v9_txns_nonpart_meta.zip", 9, "COPY_ON_WRITE", "v9_txns_cow_nonpart_meta", map[string]int{"commit": 10, "indexing": 2, "replacecommit": 1}, 11, 0, 1},
	{"sample_table/cow/v9_txns_nonpart_nometa.zip", 9, "COPY_ON_WRITE", "v9_txns_cow_nonpart_nometa", map[string]int{"commit": 10, "replacecommit": 1}, 11, 0, 1},
	{"sample_table/cow/v9_txns_simple_meta.zip", 9, "COPY_ON_WRITE", "v9_txns_cow_simple_meta", map[string]int{"commit": 10, "indexing": 2, "replacecommit": 2}, 17, 0, 3},
	{"sample_table/cow/v9_txns_simple_nometa.zip", 9, "COPY_ON_WRITE", "v9_txns_cow_simple_nometa", map[string]int{"commit": 10, "replacecommit": 2}, 17, 0, 3},
	{"sample_table/mor/avro/v9_lance_nonhivestyle.zip", 9, "MERGE_ON_READ", "v9_lance_nonhivestyle_mor", map[string]int{"deltacommit": 6}, 4, 1, 4},
	{"sample_table/mor/avro/v9_nonpartitioned_rollback.zip", 9, "MERGE_ON_READ", "v9_nonpartitioned_rollback_mor", map[string]int{"deltacommit": 2, "rollback": 1}, 2, 0, 1},
	{"sample_table/mor/avro/v9_timebasedkeygen_nonhivestyle.zip", 9, "MERGE_ON_READ", "v9_timebasedkeygen_nonhivestyle_mor", map[string]int{"deltacommit": 5}, 7, 2, 6},
	{"sample_table/mor/avro/v9_txns_complex_nometa.zip", 9, "MERGE_ON_READ", "v9_txns_mor_complex_nometa", map[string]int{"commit": 1, "deltacommit": 10, "replacecommit": 2}, 14, 5, 3},
	{"sample_table/mor/avro/v9_txns_nonpart_meta.zip", 9, "MERGE_ON_READ", "v9_txns_mor_nonpart_meta", map[string]int{"commit": 1, "deltacommit": 10, "indexing": 2, "replacecommit": 1}, 7, 5, 1},
	{"sample_table/mor/avro/v9_txns_nonpart_nometa.zip", 9, "MERGE_ON_READ", "v9_txns_mor_nonpart_nometa", map[string]int{"commit": 1, "deltacommit": 10, "replacecommit": 1}, 7, 5, 1},
	{"sample_table/mor/avro/v9_txns_simple_meta.zip", 9, "MERGE_ON_READ", "v9_txns_mor_simple_meta", map[string]int{"commit": 1, "deltacommit": 10, "indexing": 2, "replacecommit": 2}, 14, 5, 3},
	{"sample_table/mor/avro/v9_txns_simple_nometa.zip", 9, "MERGE_ON_READ", "v9_txns_mor_simple_nometa", map[string]int{"commit": 1, "deltacommit": 10, "replacecommit": 2}, 14, 5, 3},
	{"sample_table/mor/avro/v9_txns_simple_overwrite.zip", 9, "MERGE_ON_READ", "v9_txns_mor_simple_overwrite", map[string]int{"deltacommit": 2, "replacecommit": 1}, 8, 0, 3},
	{"sample_table/mor/parquet/v6_complexkeygen_hivestyle.zip", 6, "MERGE_ON_READ", "v6_complexkeygen_hivestyle", map[string]int{"deltacommit": 2}, 3, 1, 3},
	{"sample_table/mor/parquet/v6_empty.zip", 6, "MERGE_ON_READ", "v6_empty", map[string]int{}, 0, 0, 0},
	{"sample_table/mor/parquet/v6_nonpartitioned.zip", 6, "MERGE_ON_READ", "v6_nonpartitioned", map[string]int{"deltacommit": 2}, 2, 1, 1},
	{"sample_table/mor/parquet/v6_simplekeygen_hivestyle_no_metafields.zip", 6, "MERGE_ON_READ", "v6_simplekeygen_hivestyle_no_metafields", map[string]int{"deltacommit": 1}, 3, 0, 3},
	{"sample_table/mor/parquet/v6_simplekeygen_nonhivestyle.zip", 6, "MERGE_ON_READ", "v6_simplekeygen_nonhivestyle", map[string]int{"deltacommit": 2}, 3, 1, 3},
	{"sample_table/mor/parquet/v6_simplekeygen_nonhivestyle_overwritetable.zip", 6, "MERGE_ON_READ", "v6_simplekeygen_nonhivestyle_overwritetable", map[string]int{"deltacommit": 2, "replacecommit": 1}, 4, 1, 3},
}

// handChecked: live file groups, replaced (hidden) groups, slices of live groups and log files in
// latest slices, reasoned out by hand from each table's write history and its file
// names: e.g. v6_trips_8i1u inserts 8 trips into 3 cities (3 groups) and one update lands as a
// log on one of them; the overwrite tables replace every earlier group by one new group;
// v6 MOR nonpartitioned (small-file limit 0) writes the re-used key as a log and the new key as
// a second group.
var handChecked = map[string][4]int{
	"quickstart_trips_table/mor/avro/v6_trips_8i1u.zip":                        {3, 0, 3, 1},
	"quickstart_trips_table/mor/avro/v6_trips_8i3d.zip":                        {3, 0, 3, 1},
	"sample_table/cow/v6_complexkeygen_hivestyle.zip":                          {3, 0, 4, 0},
	"sample_table/cow/v6_nonpartitioned.zip":                                   {1, 0, 2, 0},
	"sample_table/cow/v6_simplekeygen_nonhivestyle_overwritetable.zip":         {1, 3, 1, 0},
	"sample_table/mor/parquet/v6_simplekeygen_nonhivestyle_overwritetable.zip": {1, 3, 1, 0},
	"sample_table/mor/parquet/v6_nonpartitioned.zip":                           {2, 0, 2, 1},
	"sample_table/cow/v9_txns_simple_meta.zip":                                 {5, 7, 5, 0},
	"sample_table/mor/avro/v9_nonpartitioned_rollback.zip":                     {2, 0, 2, 0},
	"sample_table/cow/v6_empty.zip":                                            {0, 0, 0, 0},
}

func TestCorpusTables(t *testing.T) {
	dir := corpusDir(t)
	ctx := context.Background()
	for _, c := range corpus {
		t.Run(strings.TrimSuffix(c.zip, ".zip"), func(t *testing.T) {
			tbl, err := hudi.Open(ctx, filepath.Join(dir, c.zip), storage.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if tbl.Config.Name != c.name || tbl.Config.Version != c.version || tbl.Config.Type != c.typ {
				t.Errorf("config = %s v%d %s, want %s v%d %s", tbl.Config.Name, tbl.Config.Version, tbl.Config.Type, c.name, c.version, c.typ)
			}
			tl, err := tbl.ActiveTimeline(ctx)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]int{}
			for _, in := range tl.Instants {
				if in.State != timeline.Completed {
					t.Errorf("instant %s %s is %s; the corpus has no pending instants", in.RequestedTime, in.Action, in.State)
					continue
				}
				got[in.Action]++
				if in.Err != "" {
					t.Errorf("instant %s: %s", in.RequestedTime, in.Err)
				}
				if c.version >= 8 {
					// Completion time must be the second number of the completed file's name.
					want := strings.SplitN(strings.SplitN(filepath.Base(in.CompletedFile()), ".", 2)[0], "_", 2)[1]
					if in.CompletionTime != want || in.CompletionDerived {
						t.Errorf("%s: completion %s (derived %v), file name says %s", in.RequestedTime, in.CompletionTime, in.CompletionDerived, want)
					}
				} else if !in.CompletionDerived {
					t.Errorf("%s: v%d completion time should be derived from mtime", in.RequestedTime, c.version)
				}
			}
			if len(got) != len(c.completed) {
				t.Errorf("completed by action = %v, want %v", got, c.completed)
			}
			for a, n := range c.completed {
				if got[a] != n {
					t.Errorf("completed %s = %d, want %d (all: %v)", a, got[a], n, got)
				}
			}
			view, err := tbl.View(ctx, tl, hudi.ListingStorage)
			if err != nil {
				t.Fatal(err)
			}
			if len(view.Partitions) != c.partitions {
				t.Errorf("partitions = %d, want %d", len(view.Partitions), c.partitions)
			}
			base, logs := countViewFiles(view)
			if base != c.baseFiles || logs != c.logFiles {
				t.Errorf("files on storage: %d base / %d log, want %d / %d", base, logs, c.baseFiles, c.logFiles)
			}
			if want, ok := handChecked[c.zip]; ok {
				var got [4]int
				for _, p := range view.Partitions {
					got[0] += len(p.FileGroups)
					got[1] += len(p.Replaced)
					for _, g := range p.FileGroups {
						got[2] += len(g.Slices)
						got[3] += len(g.Latest().Logs)
					}
				}
				if got != want {
					t.Errorf("live groups, replaced, slices, latest-slice logs = %v, want %v", got, want)
				}
			}
			if p := tbl.Problems(); len(p) > 0 {
				t.Errorf("problems: %v", p)
			}
		})
	}
}

// countViewFiles counts every data file the view accounts for: all slices of live and replaced
// groups, plus uncommitted files.
func countViewFiles(v *filegroup.View) (base, logs int) {
	for _, p := range v.Partitions {
		for _, g := range append(append([]*filegroup.FileGroup{}, p.FileGroups...), p.Replaced...) {
			for _, s := range g.Slices {
				if s.Base != nil {
					base++
				}
				logs += len(s.Logs)
			}
		}
		for _, e := range p.Uncommitted {
			if _, ok := filegroup.ParseBaseFileName(e.Name); ok {
				base++
			} else {
				logs++
			}
		}
	}
	return base, logs
}
