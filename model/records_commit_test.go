package model

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/checkpoint"
	"github.com/hudiscope/hudiscope/hudi/records"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// A commit's rows, read a page at a time, are the rows an incremental read of that commit alone
// returns (as of its completion), in the same order as one full read; find lands on the page
// that holds the key.
func TestCommitRowsPages(t *testing.T) {
	for fx, want := range map[string]map[string]int{
		"incr-1.2.0":         {"20261129155610512": 3, "20261129155626253": 2, "20261129155632267": 1},
		"index-bloom-1.2.0":  {"20261129164509513": 400, "20261129164607971": 400, "20261129164627434": 400, "20261129164643272": 200},
		"mor-services-1.2.0": {"20261129163018347": 3, "20261129163023496": 3, "20261129163038266": 3, "20261129163053642": 3, "20261129163107502": 3, "20261129163127401": 3},
	} {
		t.Run(fx, func(t *testing.T) {
			if got := commitRowsPages(t, fx); !reflect.DeepEqual(got, want) {
				t.Errorf("rows per commit %v, want %v", got, want)
			}
		})
	}
}

func commitRowsPages(t *testing.T, fx string) map[string]int {
	f := openFixture(t, fx)
	s := &Snapshot{table: f.t, Timeline: f.tl, View: f.view, Options: Options{NoMDT: true}}
	ctx := context.Background()
	got := map[string]int{}
	for _, in := range f.tl.Instants {
		if !ReturnsRows(in) {
			continue
		}
		cr := s.CommitRows(in)
		all, err := cr.Page(ctx, 0, 1<<30, "")
		if err != nil {
			t.Fatalf("%s: %v", in.RequestedTime, err)
		}
		got[in.RequestedTime] = all.Total
		if len(all.Rows) != all.Total {
			t.Fatalf("%s: %d rows in a page of all, total %d", in.RequestedTime, len(all.Rows), all.Total)
		}
		for _, r := range all.Rows {
			if r.CommitTime != in.RequestedTime {
				t.Fatalf("%s: row %s has commit time %s", in.RequestedTime, r.Key, r.CommitTime)
			}
		}
		const limit = 97
		for off := 0; off < all.Total; off += limit {
			p, err := cr.Page(ctx, off, limit, "")
			if err != nil {
				t.Fatal(err)
			}
			if p.Total != all.Total || p.Offset != off || len(p.Rows) != min(limit, all.Total-off) {
				t.Fatalf("%s page at %d: offset %d, %d rows, total %d", in.RequestedTime, off, p.Offset, len(p.Rows), p.Total)
			}
			for i, r := range p.Rows {
				if r.Key != all.Rows[off+i].Key {
					t.Fatalf("%s page at %d row %d: key %s, full read %s", in.RequestedTime, off, i, r.Key, all.Rows[off+i].Key)
				}
			}
		}
		if all.Total > limit {
			want := all.Rows[all.Total-1].Key
			p, err := cr.Page(ctx, 0, limit, want)
			if err != nil {
				t.Fatal(err)
			}
			if p.Found < 0 || p.Rows[p.Found-p.Offset].Key != want || p.Offset != p.Found/limit*limit {
				t.Fatalf("%s find %s: found %d, page at %d", in.RequestedTime, want, p.Found, p.Offset)
			}
		}
		if p, _ := cr.Page(ctx, 0, limit, "no such key anywhere"); p.Found != -1 || p.Offset != 0 {
			t.Fatalf("find of an absent key: found %d at %d", p.Found, p.Offset)
		}
	}

	// Each commit's rows equal the incremental read of it alone (begin: the previous write's
	// completion, end: its own), as Spark's oracle-checked reader returns them.
	var prev *timeline.Instant
	for _, in := range f.tl.Instants {
		if !ReturnsRows(in) {
			continue
		}
		if prev != nil {
			rd, err := checkpoint.ReaderFor("1.2.0")
			if err != nil {
				t.Fatal(err)
			}
			n, _, _, err := s.CountRowsFrom(ctx, IncrementalQuery{Begin: prev.CompletionTime, End: in.CompletionTime, Reader: rd, NoMDT: true}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if n != got[in.RequestedTime] {
				t.Errorf("%s: %d rows, the incremental read of it alone %d", in.RequestedTime, got[in.RequestedTime], n)
			}
		}
		prev = in
	}
	return got
}

// Instants that write no rows of their own are refused with a reason.
func TestCommitRowsRefusesNonWrites(t *testing.T) {
	f := openFixture(t, "cow-services-1.2.0")
	s := &Snapshot{table: f.t, Timeline: f.tl, View: f.view}
	for _, in := range f.tl.Instants {
		if ReturnsRows(in) || in.State != timeline.Completed {
			continue
		}
		_, err := s.CommitRows(in).Page(context.Background(), 0, 10, "")
		var u ErrRowsUnknown
		if !errors.As(err, &u) {
			t.Fatalf("%s %s: %v, want ErrRowsUnknown", in.RequestedTime, in.Action, err)
		}
		return
	}
	t.Fatal("no completed non-write instant in cow-services-1.2.0")
}

// A table that does not populate meta fields (hoodie.populate.meta.fields=false) has null
// _hoodie_record_key values: its records are keyed by the record key fields, not collapsed
// into one (hudi-rs reads 4 rows, as the table holds; hudiscope read 3 before).
func TestNoMetaFieldsKeyedByKeyFields(t *testing.T) {
	for _, z := range []string{"cow/v6_simplekeygen_hivestyle_no_metafields.zip", "mor/parquet/v6_simplekeygen_hivestyle_no_metafields.zip", "cow/v8_simplekeygen_hivestyle_no_metafields.zip"} {
		path := filepath.Join("..", "..", "shared", "testdata", "hudi-rs", "crates", "test", "data", "sample_table", z)
		if _, err := os.Stat(path); err != nil {
			t.Skipf("shared hudi-rs tables absent: %v", err)
		}
		ctx := context.Background()
		f := openTable(t, path, false)
		keys := map[string]bool{}
		rows := 0
		if _, err := SnapshotRows(ctx, f.t, f.tl, f.view, true, SnapshotQuery{}, func(r records.Record) error {
			keys[r.Key] = true
			rows++
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		// 4 rows, not only 4 keys: a log update not merged into its base row is a fifth row.
		if len(keys) != 4 || keys[""] || rows != 4 {
			t.Errorf("%s: %d rows, keys %v, want 4 rows of distinct non-empty keys", z, rows, keys)
		}
		// An incremental read is refused, as Hudi refuses it, instead of returning 0 rows.
		_, err := IncrementalRows(ctx, f.t, f.tl, f.view, IncrementalQuery{Begin: "000"}, func(records.Record) error { return nil })
		var unknown ErrRowsUnknown
		if !errors.As(err, &unknown) || !strings.Contains(err.Error(), "meta fields are disabled") {
			t.Errorf("%s: incremental read: %v, want Hudi's refusal", z, err)
		}
	}
}

// Lance base files are not decoded: each slice fails with that reason (not "corrupt parquet").
func TestLanceBaseFilesNamed(t *testing.T) {
	path := filepath.Join("..", "..", "shared", "testdata", "hudi-rs", "crates", "test", "data", "sample_table", "cow", "v9_lance_nonpartitioned.zip")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("shared hudi-rs tables absent: %v", err)
	}
	f := openTable(t, path, false)
	st, err := SnapshotRows(context.Background(), f.t, f.tl, f.view, true, SnapshotQuery{}, func(records.Record) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if st.FailedSlices != 2 || len(st.Problems) != 2 || !strings.Contains(st.Problems[0].String(), "LANCE base files are not read (hudiscope reads Parquet base files only)") {
		t.Fatalf("failed %d, problems %v", st.FailedSlices, st.Problems)
	}
}
