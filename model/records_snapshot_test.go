package model

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/checkpoint"
	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/records"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/internal/testutil"
)

type fixtureTable struct {
	t    *hudi.Table
	tl   *timeline.Timeline
	view *filegroup.View
}

func openFixture(t testing.TB, fx string) fixtureTable {
	t.Helper()
	zip := filepath.Join("..", "testdata", "fixtures", fx, "table.zip")
	if _, err := os.Stat(zip); err != nil {
		t.Skipf("fixture %s absent: %v", fx, err)
	}
	return openTable(t, zip, true)
}

// openTable opens the table at path with its active (and, with archived, archived) timeline
// and its file view listed from storage.
func openTable(t testing.TB, path string, archived bool) fixtureTable {
	t.Helper()
	ctx := context.Background()
	tbl, err := hudi.Open(ctx, path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tl, err := tbl.ActiveTimeline(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if archived {
		if err := tbl.LoadArchived(ctx, tl); err != nil {
			t.Fatal(err)
		}
	}
	view, err := tbl.View(ctx, tl, hudi.ListingStorage)
	if err != nil {
		t.Fatal(err)
	}
	return fixtureTable{tbl, tl, view}
}

func fixtureNames(t *testing.T) []string {
	dirs, _ := filepath.Glob(filepath.Join("..", "testdata", "fixtures", "*", "table.zip"))
	if len(dirs) == 0 {
		t.Skip("no fixtures in testdata/fixtures")
	}
	var out []string
	for _, d := range dirs {
		out = append(out, filepath.Base(filepath.Dir(d)))
	}
	return out
}

func snapshotCounts(t *testing.T, f fixtureTable, q SnapshotQuery) (map[string]int, records.Stats, error) {
	t.Helper()
	return CountRows(func(fn func(records.Record) error) (records.Stats, error) {
		return SnapshotRows(context.Background(), f.t, f.tl, f.view, true, q, fn)
	})
}

func total(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// The snapshot row count equals Spark's (or, for the 0.11.1 Java-client fixtures, the Java
// merged-slice reader's) on every fixture, counting meta columns only and reading every column.
func TestSnapshotRowCountsAgreeWithOracles(t *testing.T) {
	for _, fx := range fixtureNames(t) {
		t.Run(fx, func(t *testing.T) {
			var sum struct {
				RowCount *int `json:"row_count"`
			}
			b, err := os.ReadFile(filepath.Join("..", "testdata", "fixtures", fx, "oracle", "summary.json"))
			if err != nil {
				t.Skip(err)
			}
			if err := json.Unmarshal(b, &sum); err != nil || sum.RowCount == nil {
				t.Skipf("no row_count in summary.json: %v", err)
			}
			f := openFixture(t, fx)
			if _, err := os.Stat(filepath.Join("..", "testdata", "fixtures", fx, "bootstrap-source.zip")); err == nil {
				// The source files live outside the table, at the writer's path: the
				// fixture's bootstrap-source.zip, unzipped and mapped there (a clean machine
				// has nothing at the recorded path).
				f, _ = openBootstrapFixture(t, fx)
			}
			got, st, err := snapshotCounts(t, f, SnapshotQuery{})
			if err != nil {
				t.Fatal(err)
			}
			if total(got) != *sum.RowCount {
				t.Errorf("snapshot rows = %d (%v), oracle %d", total(got), got, *sum.RowCount)
			}
			all, _, err := snapshotCounts(t, f, SnapshotQuery{RowColumns: RowColumns{All: true}})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(all, got) {
				t.Errorf("every column: %v, meta columns only: %v", all, got)
			}
			if len(st.Problems) > 0 || st.FailedSlices > 0 {
				t.Errorf("problems reading a good fixture: %v (failed slices %d)", st.Problems, st.FailedSlices)
			}
			t.Logf("%s: %d rows in %d slices", fx, total(got), st.Slices)
		})
	}
}

// Time travel as of each write's requested time equals Spark's point-in-time read of the same
// state: the incremental probe from 000 to that write (its completion time on 1.x readers,
// which compare completion times; its requested time on 0.x), on every fixture whose writes
// are all on the active timeline.
func TestSnapshotAsOfAgreesWithSparkPointInTimeProbes(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "fixtures", "*", "oracle", "incremental_probes.json"))
	if len(files) == 0 {
		t.Skip("no probe oracles")
	}
	checked := 0
	for _, file := range files {
		fx := filepath.Base(filepath.Dir(filepath.Dir(file)))
		var pf struct {
			TableVersion int `json:"tableVersion"`
			Archived     int `json:"archived_write_instants"`
			Probes       []struct {
				ID       string         `json:"id"`
				Kind     string         `json:"kind"`
				Begin    string         `json:"begin"`
				End      *string        `json:"end"`
				RowCount *int           `json:"row_count"`
				Counts   map[string]int `json:"rows_per_commit_time"`
				Instant  struct {
					Requested string `json:"requested_time"`
				} `json:"instant"`
			} `json:"probes"`
		}
		b, _ := os.ReadFile(file)
		if err := json.Unmarshal(b, &pf); err != nil {
			t.Fatal(err)
		}
		if pf.Archived > 0 {
			// With archived writes, a read from 000 is no point-in-time read (it returns the
			// active writes only, docs/incremental-semantics.md): no oracle for time travel.
			continue
		}
		kind := "end=requested (begin 000)"
		if pf.TableVersion >= 8 {
			kind = "end=completion (begin 000)"
		}
		var f *fixtureTable
		for _, p := range pf.Probes {
			if p.Kind != kind || p.RowCount == nil {
				continue
			}
			if f == nil {
				ft := openFixture(t, fx)
				f = &ft
			}
			got, _, err := snapshotCounts(t, *f, SnapshotQuery{AsOf: p.Instant.Requested})
			if err != nil {
				t.Errorf("%s %s as of %s: %v", fx, p.ID, p.Instant.Requested, err)
				continue
			}
			want := p.Counts
			if want == nil {
				want = map[string]int{}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s as of %s: %v, Spark (%s %s) %v", fx, p.Instant.Requested, got, p.ID, p.Kind, want)
				continue
			}
			checked++
		}
	}
	if checked < 40 {
		t.Errorf("only %d time-travel reads checked", checked)
	}
	t.Logf("%d time-travel reads agree with Spark", checked)
}

// --as-of before the first write reads nothing and says why; an unparsable value, a value
// before archived writes or the cleaner's retention are refused with a message that says why.
func TestSnapshotAsOfRefusals(t *testing.T) {
	f := openFixture(t, "incr-1.2.0")
	// Before the first write of a table that archived none: no rows (as Spark), and a note.
	none, st, err := snapshotCounts(t, f, SnapshotQuery{AsOf: "20200101000000000"})
	if err != nil || len(none) != 0 || len(st.Notes) != 1 || !strings.Contains(st.Notes[0], "before the first write on the active timeline (requested at 20261129155610512): the table had no rows then") {
		t.Errorf("as of 2020: %v rows, notes %q, %v", none, st.Notes, err)
	}
	var unknown ErrRowsUnknown
	_, _, err = snapshotCounts(t, f, SnapshotQuery{AsOf: "yesterday"})
	if !errors.As(err, &unknown) || !strings.Contains(err.Error(), "not an instant time") {
		t.Errorf("as of yesterday: %v", err)
	}
	got, _, err := snapshotCounts(t, f, SnapshotQuery{AsOf: "20261129155610512"})
	if err != nil || total(got) != 3 {
		t.Errorf("as of c1's requested time: %v rows, %v; want c1's 3 inserts", got, err)
	}
	// cow-services has archived writes and a clean: a value before the active timeline is
	// refused as Hudi does, by the cleaner check it makes before anything else.
	cs := openFixture(t, "cow-services-1.2.0")
	_, _, err = snapshotCounts(t, cs, SnapshotQuery{AsOf: "20200101000000000"})
	if !errors.As(err, &unknown) || !strings.Contains(err.Error(), "retains commits from 20261129161947920 on") {
		t.Errorf("cow-services as of 2020: %v", err)
	}
	// ... and one inside the active timeline but before the cleaner's earliest retained commit.
	_, _, err = snapshotCounts(t, cs, SnapshotQuery{AsOf: "20261129161819211"})
	if !errors.As(err, &unknown) || !strings.Contains(err.Error(), "retains commits from 20261129161947920 on") {
		t.Errorf("cow-services as of its third write: %v", err)
	}
	got, _, err = snapshotCounts(t, cs, SnapshotQuery{AsOf: "20261129161947920"})
	if err != nil || total(got) == 0 {
		t.Errorf("cow-services as of the earliest retained commit: %v rows, %v", got, err)
	}
}

// Every column's values equal the rows Spark returned: cdc-1.2.0's latest_state (a full
// snapshot with meta columns) and incr's incremental rows.
func TestRowValuesAgreeWithSparkRows(t *testing.T) {
	var cdc struct {
		Latest struct {
			Columns []string `json:"columns"`
			Rows    [][]any  `json:"rows"`
		} `json:"latest_state"`
	}
	b, err := os.ReadFile(filepath.Join("..", "testdata", "fixtures", "cdc-1.2.0", "oracle", "cdc.json"))
	if err != nil {
		t.Skip(err)
	}
	if err := json.Unmarshal(b, &cdc); err != nil {
		t.Fatal(err)
	}
	f := openFixture(t, "cdc-1.2.0")
	var got []string
	_, err = SnapshotRows(context.Background(), f.t, f.tl, f.view, true, SnapshotQuery{RowColumns: RowColumns{All: true}}, func(r records.Record) error {
		if !reflect.DeepEqual(r.Fields, cdc.Latest.Columns) {
			t.Errorf("columns %v, Spark %v", r.Fields, cdc.Latest.Columns)
		}
		got = append(got, rowKey(r.Fields, r.Values))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, row := range cdc.Latest.Rows {
		m := map[string]any{}
		for i, c := range cdc.Latest.Columns {
			m[c] = row[i]
		}
		want = append(want, rowKey(cdc.Latest.Columns, m))
	}
	sort.Strings(got)
	sort.Strings(want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("snapshot rows\n%v\nSpark latest_state\n%v", got, want)
	}
}

// rowKey renders a row's values by column, numbers without their Go type (Spark's JSON
// numbers and Parquet's int32/int64 compare equal).
func rowKey(cols []string, vals map[string]any) string {
	var b strings.Builder
	for _, c := range cols {
		fmt.Fprintf(&b, "%s=%v;", c, vals[c])
	}
	return b.String()
}

// BenchmarkSnapshotScan reads every column of index-bloom-1.2.0 (104 slices, 1,250 rows) and
// reports rows per second (go test -run XXX -bench SnapshotScan ./model/).
func BenchmarkSnapshotScan(b *testing.B) {
	f := openFixture(b, "index-bloom-1.2.0")
	rows := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, err := SnapshotRows(context.Background(), f.t, f.tl, f.view, true, SnapshotQuery{RowColumns: RowColumns{All: true}}, func(records.Record) error {
			rows++
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
}

// Time travel equals Spark's `as.of.instant` reads (oracle/timetravel_probes*.json, made by
// testdata/gen/probe_timetravel.py): for every write, as of its requested time ±1 ms and its
// completion time (−1 ms), the rows per commit time, or a refusal where Spark failed.
func TestSnapshotAsOfAgreesWithSparkTimeTravel(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "fixtures", "*", "oracle", "timetravel_probes*.json"))
	if len(files) == 0 {
		t.Skip("no time-travel oracles")
	}
	agree := 0
	for _, file := range files {
		fx := filepath.Base(filepath.Dir(filepath.Dir(file)))
		var pf struct {
			Reader string    `json:"reader"`
			Probes []ttProbe `json:"probes"`
		}
		b, _ := os.ReadFile(file)
		if err := json.Unmarshal(b, &pf); err != nil {
			t.Fatal(err)
		}
		// A reader that cannot load the table at all (Hudi 1.1.1 on a 0.14.0 bootstrap table:
		// ClassNotFoundException for the HFileBootstrapIndex class 0.14's hoodie.properties
		// names) says nothing about time travel: that file is reported, not judged.
		if len(pf.Probes) > 0 && allFailedLoadingClasses(pf.Probes) {
			t.Logf("%s %s: every probe failed loading a class (%d probes): the reader cannot read this table", fx, filepath.Base(file), len(pf.Probes))
			continue
		}
		f := openFixture(t, fx)
		for _, p := range pf.Probes {
			got, _, err := snapshotCounts(t, f, SnapshotQuery{AsOf: p.AsOf})
			sparkFailed := len(p.Error) > 0 && string(p.Error) != "null"
			switch {
			case sparkFailed && err == nil:
				t.Errorf("%s %s %s as of %s: %v rows, Spark failed: %s", fx, p.ID, p.Kind, p.AsOf, got, p.Error)
			case !sparkFailed && err != nil:
				t.Errorf("%s %s %s as of %s: %v, Spark %v", fx, p.ID, p.Kind, p.AsOf, err, p.Counts)
			case !sparkFailed && !reflect.DeepEqual(got, orEmpty(p.Counts)):
				t.Errorf("%s %s %s as of %s (Hudi %s): %v, Spark %v", fx, p.ID, p.Kind, p.AsOf, pf.Reader, got, p.Counts)
			default:
				agree++
			}
		}
	}
	t.Logf("%d time-travel reads agree with Spark's as.of.instant", agree)
}

// ttProbe is one time-travel probe of oracle/timetravel_probes*.json.
type ttProbe struct {
	ID     string          `json:"id"`
	Kind   string          `json:"kind"`
	AsOf   string          `json:"as_of"`
	Counts map[string]int  `json:"rows_per_commit_time"`
	Error  json.RawMessage `json:"error"`
}

// allFailedLoadingClasses: every probe failed with a ClassNotFoundException.
func allFailedLoadingClasses(probes []ttProbe) bool {
	for _, p := range probes {
		var e struct {
			RootClass string `json:"root_class"`
		}
		if json.Unmarshal(p.Error, &e) != nil || e.RootClass != "java.lang.ClassNotFoundException" {
			return false
		}
	}
	return true
}

func orEmpty(m map[string]int) map[string]int {
	if m == nil {
		return map[string]int{}
	}
	return m
}

// The cleaner bound of TimelineUtils.validateTimestampAsOf, beyond the fixture's own
// KEEP_LATEST_COMMITS clean: a clean that records no earliest commit to retain
// (KEEP_LATEST_FILE_VERSIONS) bounds time travel by the first completed write on the active
// timeline, and clean metadata that cannot be read refuses the read (Hudi's IOException).
func TestSnapshotAsOfCleanWithoutRetainedCommit(t *testing.T) {
	withClean := func(t *testing.T, edit func(m map[string]any) []byte) fixtureTable {
		zip := filepath.Join("..", "testdata", "fixtures", "cow-services-1.2.0", "table.zip")
		if _, err := os.Stat(zip); err != nil {
			t.Skip(err)
		}
		dir := testutil.UnzipTable(t, zip, t.TempDir())
		cs := openTable(t, dir, true)
		var clean *timeline.Instant
		for _, in := range cs.tl.Instants {
			if in.IsClean() && in.State == timeline.Completed {
				clean = in
			}
		}
		d, err := cs.t.Details(context.Background(), clean)
		if err != nil || d.Clean == nil || d.Clean.EarliestCommitToRetain != "20261129161947920" {
			t.Fatalf("newest clean %s: %v %+v", clean.RequestedTime, err, d)
		}
		var m map[string]any
		if err := json.Unmarshal(d.Content, &m); err != nil {
			t.Fatal(err)
		}
		// The clean's file rewritten as JSON (instant files are read as Avro or JSON alike).
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(clean.CompletedFile())), edit(m), 0o644); err != nil {
			t.Fatal(err)
		}
		return openTable(t, dir, true)
	}
	var unknown ErrRowsUnknown
	byVersions := withClean(t, func(m map[string]any) []byte {
		m["earliestCommitToRetain"] = ""
		b, _ := json.Marshal(m)
		return b
	})
	// Before the first completed write on the active timeline (requested at
	// 20261129161800076): refused with Hudi's reason.
	_, _, err := snapshotCounts(t, byVersions, SnapshotQuery{AsOf: "20261129161800000"})
	if !errors.As(err, &unknown) || !strings.Contains(err.Error(), "keeps file versions rather than commits") ||
		!strings.Contains(err.Error(), "first completed write on the active timeline was requested at 20261129161800076") {
		t.Errorf("file-versions clean, before the first write: %v", err)
	}
	// The value the fixture's own clean refuses (before its earliest retained commit) is read:
	// without a retained commit only the first write bounds it.
	got, _, err := snapshotCounts(t, byVersions, SnapshotQuery{AsOf: "20261129161819211"})
	// Read as of that write: no row is newer than it, and its own 2 rows are there.
	newest := ""
	for c := range got {
		newest = max(newest, c)
	}
	if err != nil || newest != "20261129161819211" || got[newest] != 2 {
		t.Errorf("file-versions clean, as of the third write: %v rows, %v", got, err)
	}
	garbled := withClean(t, func(map[string]any) []byte { return []byte(`{"earliestCommitToRetain": 42`) })
	_, _, err = snapshotCounts(t, garbled, SnapshotQuery{AsOf: "20261129161947920"})
	if !errors.As(err, &unknown) || !strings.Contains(err.Error(), "its metadata cannot be read") {
		t.Errorf("unreadable clean: %v", err)
	}
}

// Parquet log blocks (hoodie.logfile.data.block.format=parquet): hudi-rs's v6 MOR table writes
// key 1's update of its second deltacommit into a Parquet data block of the first file group.
// The snapshot carries the update (values as hudi-rs 0.5.0 reads them: commit time, the log
// record's file name, isActive false, intField 15000) and the incremental read from the first
// commit returns both rows the second wrote (hudi-rs: 2; before: 1, the block was skipped).
func TestParquetLogBlocks(t *testing.T) {
	f := openTable(t, corpusTable(t, "sample_table/mor/parquet/v6_nonpartitioned.zip"), false)
	var got []string
	st, err := SnapshotRows(context.Background(), f.t, f.tl, f.view, true, SnapshotQuery{RowColumns: RowColumns{All: true}}, func(r records.Record) error {
		got = append(got, fmt.Sprintf("%s %s %v %v %v", r.Key, r.CommitTime, r.Values["_hoodie_file_name"], r.Values["isActive"], r.Values["intField"]))
		return nil
	})
	if err != nil || len(st.Problems) > 0 {
		t.Fatalf("snapshot: %v %v", err, st.Problems)
	}
	sort.Strings(got)
	want := []string{
		"1 20250117083136333 d206069c-22c8-4532-b9ea-3cf4282342c4-0 false 15000",
		"2 20250117083125837 d206069c-22c8-4532-b9ea-3cf4282342c4-0_0-13-23_20250117083125837.parquet false 25000",
		"3 20250117083125837 d206069c-22c8-4532-b9ea-3cf4282342c4-0_0-13-23_20250117083125837.parquet true 35000",
		"4 20250117083136333 d5c0b12d-088d-48e8-9683-3f0c1eabcaf0-0_1-33-44_20250117083136333.parquet true 45000",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("snapshot rows:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	rd, err := checkpoint.ReaderFor("0.15.0")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	st, err = IncrementalRows(context.Background(), f.t, f.tl, f.view, IncrementalQuery{Begin: "20250117083125837", Reader: rd}, func(records.Record) error {
		n++
		return nil
	})
	if err != nil || n != 2 || len(st.Problems) > 0 {
		t.Errorf("incremental from the first commit: %d rows, %v %v; want 2", n, err, st.Problems)
	}
}
