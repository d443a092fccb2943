package model

import (
	"archive/zip"
	"context"
	"encoding/json"
	"errors"

	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/checkpoint"
	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/records"
	_ "github.com/hudiscope/hudiscope/hudi/storage/s3" // s3://
	"github.com/hudiscope/hudiscope/internal/testutil/s3fake"
)

// sparkRows is an oracle/snapshot_rows.json (or a time-travel rows file): Spark's columns and
// rows with every value.
type sparkRows struct {
	Columns []string `json:"columns"`
	Rows    [][]any  `json:"rows"`
}

func readSparkRows(t *testing.T, path string) sparkRows {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("oracle absent: %v", err)
	}
	var out sparkRows
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// unzipSource extracts a fixture's bootstrap-source.zip (one top-level folder) into a temporary
// directory and returns that folder.
func unzipSource(t *testing.T, zipPath string) string {
	t.Helper()
	zr, err := zip.OpenReader(zipPath)
	if err != nil {
		t.Skipf("bootstrap source absent: %v", err)
	}
	defer zr.Close()
	dir := t.TempDir()
	top := ""
	for _, f := range zr.File {
		name := filepath.FromSlash(f.Name)
		if strings.Contains(f.Name, "..") {
			t.Fatalf("zip entry %q", f.Name)
		}
		if top == "" {
			top = strings.SplitN(f.Name, "/", 2)[0]
		}
		dst := filepath.Join(dir, name)
		if f.FileInfo().IsDir() {
			if err := os.MkdirAll(dst, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, top)
}

// openBootstrapFixture opens a bootstrap fixture with its source unzipped and the recorded
// source root (oracle/summary.json bootstrap_source_root) mapped to it.
func openBootstrapFixture(t *testing.T, fx string) (fixtureTable, string) {
	t.Helper()
	dir := filepath.Join("..", "testdata", "fixtures", fx)
	f := openFixture(t, fx)
	var sum struct {
		Root string `json:"bootstrap_source_root"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "oracle", "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &sum); err != nil || sum.Root == "" {
		t.Fatalf("summary.json bootstrap_source_root: %q %v", sum.Root, err)
	}
	src := unzipSource(t, filepath.Join(dir, "bootstrap-source.zip"))
	f.t.SetBootstrapPrefixes([]hudi.PrefixMap{{Old: sum.Root, New: src}})
	return f, sum.Root
}

// jsonRow is a row as JSON values, for comparing hudiscope's typed values with Spark's.
func jsonRow(t *testing.T, vals []any) string {
	t.Helper()
	b, err := json.Marshal(vals)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// snapshotRowsAs reads the snapshot (as of asOf) and returns each row's values in cols order,
// sorted by the id column as the oracle's query orders them.
func snapshotRowsAs(t *testing.T, f fixtureTable, asOf string, cols []string) ([]string, records.Stats) {
	t.Helper()
	type row struct {
		id  float64
		txt string
	}
	var rows []row
	st, err := SnapshotRows(context.Background(), f.t, f.tl, f.view, true, SnapshotQuery{AsOf: asOf, RowColumns: RowColumns{All: true}}, func(r records.Record) error {
		vals := make([]any, len(cols))
		for i, c := range cols {
			if _, ok := r.Values[c]; !ok {
				vals[i] = "<absent>"
				continue
			}
			vals[i] = records.JSONValue(r.Values[c])
		}
		id, _ := strconv.ParseFloat(records.Text(r.Values["id"]), 64)
		rows = append(rows, row{id, jsonRow(t, vals)})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.SliceStable(rows, func(a, b int) bool { return rows[a].id < rows[b].id })
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.txt
	}
	return out, st
}

// A METADATA_ONLY bootstrap's skeleton rows carry the source file's data columns, row by row:
// every value of every row equals Spark's (10 rows on 1.1.1: ids 0, 3, 6 still in the skeleton
// of dt=2024-01-01 with name src<id>_0, ts 0, dt from the partition path).
func TestBootstrapSnapshotEqualsSpark(t *testing.T) {
	for _, fx := range []string{"bootstrap-1.1.1", "bootstrap-0.14.0"} {
		t.Run(fx, func(t *testing.T) {
			want := readSparkRows(t, filepath.Join("..", "testdata", "fixtures", fx, "oracle", "snapshot_rows.json"))
			f, _ := openBootstrapFixture(t, fx)
			got, st := snapshotRowsAs(t, f, "", want.Columns)
			if len(st.Problems) > 0 || st.FailedSlices > 0 {
				t.Fatalf("problems %v, failed slices %d", st.Problems, st.FailedSlices)
			}
			if len(got) != len(want.Rows) {
				t.Fatalf("%d rows, Spark %d", len(got), len(want.Rows))
			}
			skeleton := 0
			for i, w := range want.Rows {
				if g, ws := got[i], jsonRow(t, w); g != ws {
					t.Errorf("row %d:\n got %s\nwant %s", i, g, ws)
				}
				if strings.HasSuffix(w[4].(string), "_00000000000001.parquet") {
					skeleton++
				}
			}
			if skeleton == 0 {
				t.Error("no row read from a skeleton file: the fixture does not test the merge")
			}
		})
	}
}

// A source file that cannot be reached is a named error for its slice (the other slices
// load), never rows with null data columns.
func TestBootstrapSourceUnreachable(t *testing.T) {
	f := openFixture(t, "bootstrap-1.1.1")
	f.t.SetBootstrapPrefixes([]hudi.PrefixMap{{Old: "/tmp/hudiscope-gen/tables/bootstrap-1.1.1/bootstrap_source", New: filepath.Join(t.TempDir(), "moved")}})
	n := 0
	st, err := SnapshotRows(context.Background(), f.t, f.tl, f.view, true, SnapshotQuery{RowColumns: RowColumns{All: true}}, func(r records.Record) error {
		if r.Values["name"] == nil {
			t.Errorf("row %s has no name: %v", r.Key, r.Values)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// 10 rows, 3 of them (ids 0, 3, 6) in the skeleton whose source is gone.
	if n != 7 || st.FailedSlices != 1 || len(st.Problems) != 1 {
		t.Fatalf("%d rows, %d failed slices, problems %v", n, st.FailedSlices, st.Problems)
	}
	msg := st.Problems[0].Err
	for _, s := range []string{"a564933b-2982-4405-8865-830aa1825568_1-9-11_00000000000001.parquet", "moved/dt=2024-01-01/part-00000-5d03f31a-954f-46fd-a30f-8ba84f22d3a0.c000.snappy.parquet", "bootstrap source file unreadable"} {
		if !strings.Contains(msg, s) {
			t.Errorf("problem %q does not name %q", msg, s)
		}
	}
	// A count reads the skeleton alone, as Hudi's does: all 10 rows, 6 of them still
	// carrying the bootstrap's commit time (3 in the skeleton, 3 copied into rewritten files).
	counts, st, err := snapshotCounts(t, f, SnapshotQuery{})
	if err != nil || st.FailedSlices != 0 {
		t.Fatal(err, st)
	}
	total := 0
	for _, c := range counts {
		total += c
	}
	if total != 10 || counts["00000000000001"] != 6 {
		t.Errorf("count %d by commit %v", total, counts)
	}

}

// The file-system view names each skeleton's source file as Java's getLatestFileSlices does
// (oracle/java_fsview_latest.json bootstrap_base_file: path, name, size), and no other base
// file has one.
func TestBootstrapViewEqualsJava(t *testing.T) {
	for _, fx := range []string{"bootstrap-1.1.1", "bootstrap-0.14.0"} {
		t.Run(fx, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("..", "testdata", "fixtures", fx, "oracle", "java_fsview_latest.json"))
			if err != nil {
				t.Skipf("oracle absent: %v", err)
			}
			var java struct {
				Partitions map[string][]struct {
					FileID   string `json:"file_id"`
					BaseFile *struct {
						Name      string `json:"name"`
						Bootstrap *struct {
							Path string `json:"path"`
							Name string `json:"name"`
							Size int64  `json:"size"`
						} `json:"bootstrap_base_file"`
					} `json:"base_file"`
				} `json:"partitions"`
			}
			if err := json.Unmarshal(b, &java); err != nil {
				t.Fatal(err)
			}
			f := openFixture(t, fx)
			groups, withSource := 0, 0
			for _, p := range f.view.Partitions {
				for _, g := range p.FileGroups {
					groups++
					s := g.Latest()
					var want *struct {
						Path string `json:"path"`
						Name string `json:"name"`
						Size int64  `json:"size"`
					}
					found := false
					for _, jg := range java.Partitions[p.Path] {
						if jg.FileID == g.FileID && jg.BaseFile != nil {
							found = true
							want = jg.BaseFile.Bootstrap
						}
					}
					if !found {
						t.Errorf("%s/%s not in Java's view", p.Path, g.FileID)
						continue
					}
					got := s.Base.Bootstrap
					switch {
					case want == nil && got != nil:
						t.Errorf("%s/%s: bootstrap file %+v, Java none", p.Path, g.FileID, got)
					case want != nil && (got == nil || got.Path != want.Path || got.Name != want.Name || got.Size != want.Size):
						t.Errorf("%s/%s: bootstrap file %+v, Java %+v", p.Path, g.FileID, got, want)
					case want != nil:
						withSource++
					}
				}
			}
			if withSource == 0 {
				t.Error("no skeleton file group: the fixture does not test the index")
			}
			t.Logf("%d file groups, %d with a bootstrap source", groups, withSource)
		})
	}
}

// Time travel on a bootstrapped table equals Spark's at every probe of
// oracle/timetravel_probes.json (13 on 1.1.1), rows and values: as of the bootstrap instant
// 00000000000001 (an instant, though not a date) the 9 source rows, all from skeletons.
//
// The same on schema-evo-mor-1.1.1 (when its probes are there): the reader schema is the one
// as of the instant (no note before dc2 added it), as Spark's columns are.
func TestTimeTravelRowsEqualSpark(t *testing.T) {
	for _, fx := range []string{"bootstrap-1.1.1", "bootstrap-0.14.0", "schema-evo-mor-1.1.1"} {
		t.Run(fx, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("..", "testdata", "fixtures", fx, "oracle", "timetravel_probes.json"))
			if err != nil {
				t.Skipf("oracle absent: %v", err)
			}
			var probes struct {
				Probes []struct {
					ID       string           `json:"id"`
					AsOf     string           `json:"as_of"`
					RowCount int              `json:"row_count"`
					Error    *string          `json:"error"`
					Rows     []map[string]any `json:"rows"`
				} `json:"probes"`
			}
			if err := json.Unmarshal(b, &probes); err != nil {
				t.Fatal(err)
			}
			boot := strings.HasPrefix(fx, "bootstrap-")
			var f fixtureTable
			if boot {
				f, _ = openBootstrapFixture(t, fx)
			} else {
				f = openFixture(t, fx)
			}
			atBootstrap := false
			for _, p := range probes.Probes {
				if p.Error != nil {
					continue
				}
				if hudi.IsBootstrapInstant(p.AsOf) {
					atBootstrap = true
				}
				var cols []string
				if len(p.Rows) > 0 {
					for c := range p.Rows[0] {
						cols = append(cols, c)
					}
					sort.Strings(cols)
				}
				if len(cols) > 0 {
					var schema []string
					if _, err := SnapshotBatches(context.Background(), f.t, f.tl, f.view, true, SnapshotQuery{AsOf: p.AsOf, RowColumns: RowColumns{All: true}}, func(b *records.Batch) error {
						schema = b.Schema
						return nil
					}); err != nil {
						t.Fatal(err)
					}
					var data []string // the probes' rows leave out _hoodie_commit_seqno and _hoodie_file_name
					for _, c := range schema {
						if c != "_hoodie_commit_seqno" && c != "_hoodie_file_name" {
							data = append(data, c)
						}
					}
					sort.Strings(data)
					if !slices.Equal(data, cols) {
						t.Errorf("%s as of %s: reader schema %v, Spark's columns %v", p.ID, p.AsOf, data, cols)
					}
				}
				got, st := snapshotRowsAs(t, f, p.AsOf, cols)
				if len(st.Problems) > 0 || st.FailedSlices > 0 {
					t.Fatalf("%s: problems %v", p.ID, st.Problems)
				}
				if len(got) != p.RowCount {
					t.Errorf("%s as of %s: %d rows, Spark %d", p.ID, p.AsOf, len(got), p.RowCount)
					continue
				}
				want := make([]string, len(p.Rows))
				sort.SliceStable(p.Rows, func(a, b int) bool { return p.Rows[a]["id"].(float64) < p.Rows[b]["id"].(float64) })
				for i, r := range p.Rows {
					vals := make([]any, len(cols))
					for k, c := range cols {
						vals[k] = r[c]
					}
					want[i] = jsonRow(t, vals)
				}
				for i := range want {
					if got[i] != want[i] {
						t.Errorf("%s as of %s row %d:\n got %s\nwant %s", p.ID, p.AsOf, i, got[i], want[i])
					}
				}
			}
			if boot && !atBootstrap {
				t.Error("no probe at a bootstrap instant")
			}
		})
	}
}

// Incremental reads of a bootstrapped table return Spark's rows with their values at every
// probe without an end (oracle/incremental_probes.json: begin 00000000000001 included, whose
// rows come from skeleton files joined with their sources).
//
// The same on schema-evo-mor-1.1.1 (80 probes), where every column of Spark's rows must be one
// of the read's reader schema: records written before note was added have it, null.
func TestIncrementalRowsEqualSpark(t *testing.T) {
	for _, fx := range []string{"bootstrap-1.1.1", "bootstrap-0.14.0", "schema-evo-mor-1.1.1"} {
		t.Run(fx, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("..", "testdata", "fixtures", fx, "oracle", "incremental_probes.json"))
			if err != nil {
				t.Skipf("oracle absent: %v", err)
			}
			var pf struct {
				Reader string `json:"reader"`
				Probes []struct {
					ID       string           `json:"id"`
					Begin    string           `json:"begin"`
					End      *string          `json:"end"`
					Fallback *bool            `json:"fallback_full_table_scan"`
					Error    json.RawMessage  `json:"error"`
					Rows     []map[string]any `json:"rows"`
				} `json:"probes"`
			}
			if err := json.Unmarshal(b, &pf); err != nil {
				t.Fatal(err)
			}
			boot := strings.HasPrefix(fx, "bootstrap-")
			var f fixtureTable
			if boot {
				f, _ = openBootstrapFixture(t, fx)
			} else {
				f = openFixture(t, fx)
			}
			rds, err := checkpoint.ReadersFor(pf.Reader, f.t.Version())
			if err != nil {
				t.Fatal(err)
			}
			compared, fromSkeleton := 0, 0
			for _, p := range pf.Probes {
				if p.End != nil || failed(p.Error) || p.Rows == nil {
					continue
				}
				render := func(r map[string]any) string {
					keys := make([]string, 0, len(r))
					for k := range r {
						keys = append(keys, k)
					}
					sort.Strings(keys)
					vals := make([]any, len(keys))
					for i, k := range keys {
						vals[i] = r[k]
					}
					return jsonRow(t, append([]any{keys}, vals...))
				}
				var want, got []string
				cols := map[string]bool{}
				for _, r := range p.Rows {
					want = append(want, render(r))
					for k := range r {
						cols[k] = true
					}
				}
				_, err := IncrementalBatches(context.Background(), f.t, f.tl, f.view, IncrementalQuery{Begin: p.Begin, Fallback: p.Fallback, Reader: rds[0], RowColumns: RowColumns{All: true}}, func(b *records.Batch) error {
					for i := range b.Len() {
						m := map[string]any{}
						for c := range cols {
							if !slices.Contains(b.Schema, c) {
								t.Errorf("%s: column %s not in the reader schema %v", p.ID, c, b.Schema)
							}
							m[c] = records.JSONValue(b.Get(i, c))
						}
						// through JSON, as Spark's values are
						js, _ := json.Marshal(m)
						var back map[string]any
						_ = json.Unmarshal(js, &back)
						got = append(got, render(back))
						if strings.HasSuffix(records.Text(b.Get(i, "_hoodie_file_name")), "_00000000000001.parquet") {
							fromSkeleton++
						}
					}
					return nil
				})
				var unknown ErrRowsUnknown
				if errors.As(err, &unknown) {
					continue
				}
				if err != nil {
					t.Fatalf("%s: %v", p.ID, err)
				}
				sort.Strings(want)
				sort.Strings(got)
				if strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("%s begin %s: %d rows\n%s\nSpark %d\n%s", p.ID, p.Begin, len(got), strings.Join(got, "\n"), len(want), strings.Join(want, "\n"))
				}
				compared++
			}
			if compared == 0 || boot && fromSkeleton == 0 {
				t.Errorf("%d probes compared, %d rows from skeletons", compared, fromSkeleton)
			}
			t.Logf("%d probes compared", compared)
		})
	}
}

// Source files on S3 are read through the S3 backend with the table's storage options: the
// table on local disk, its source dataset in a bucket (as after `aws s3 sync`), mapped with a
// prefix rewrite to s3://. The rows equal Spark's; a 403 on the source is the named error.
func TestBootstrapSourceOnS3(t *testing.T) {
	fx := "bootstrap-1.1.1"
	dir := filepath.Join("..", "testdata", "fixtures", fx)
	want := readSparkRows(t, filepath.Join(dir, "oracle", "snapshot_rows.json"))
	src := unzipSource(t, filepath.Join(dir, "bootstrap-source.zip"))
	fake := s3fake.New(t, "lake", s3fake.Faults{})
	fake.PutDir(t, src, "raw/src")
	tbl, err := hudi.Open(context.Background(), filepath.Join(dir, "table.zip"), fake.Options())
	if err != nil {
		t.Fatal(err)
	}
	f := openFixture(t, fx)
	f.t = tbl
	tbl.SetBootstrapPrefixes([]hudi.PrefixMap{{Old: "file:/tmp/hudiscope-gen/tables/bootstrap-1.1.1/bootstrap_source", New: "s3://lake/raw/src"}})
	got, st := snapshotRowsAs(t, f, "", want.Columns)
	if len(st.Problems) > 0 || len(got) != len(want.Rows) {
		t.Fatalf("%d rows, problems %v", len(got), st.Problems)
	}
	for i, w := range want.Rows {
		if got[i] != jsonRow(t, w) {
			t.Errorf("row %d: %s, Spark %s", i, got[i], jsonRow(t, w))
		}
	}
	if fake.Requests()["GET"] == 0 {
		t.Errorf("no GET on the bucket: %v", fake.Requests())
	}
	fake.SetFaults(s3fake.Faults{DenyPrefix: "raw/src/dt=2024-01-01"})
	tbl2, _ := hudi.Open(context.Background(), filepath.Join(dir, "table.zip"), fake.Options())
	tbl2.SetBootstrapPrefixes([]hudi.PrefixMap{{Old: "file:/tmp/hudiscope-gen/tables/bootstrap-1.1.1/bootstrap_source", New: "s3://lake/raw/src"}})
	f.t = tbl2
	_, st = snapshotRowsAs(t, f, "", want.Columns)
	if st.FailedSlices != 1 || len(st.Problems) != 1 || !strings.Contains(st.Problems[0].Err, "bootstrap source file unreadable: s3://lake/raw/src/dt=2024-01-01/part-00000-5d03f31a-954f-46fd-a30f-8ba84f22d3a0.c000.snappy.parquet") {
		t.Errorf("denied source: failed %d, problems %v", st.FailedSlices, st.Problems)
	}
}
