package model

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"weak"

	"github.com/hudiscope/hudiscope/hudi/records"
	"github.com/hudiscope/hudiscope/internal/testutil"
)

func openDir(t *testing.T, dir string) fixtureTable {
	t.Helper()
	return openTable(t, dir, false)
}

func unzipFixture(t *testing.T, fx string) string {
	t.Helper()
	zip := filepath.Join("..", "testdata", "fixtures", fx, "table.zip")
	if _, err := os.Stat(zip); err != nil {
		t.Skipf("fixture %s absent", fx)
	}
	return testutil.UnzipTable(t, zip, t.TempDir())
}

// A base file whose first page header is garbage fails its own slice, naming the file and
// the row group; every other slice is still read (index-bloom-1.2.0: 104 slices, 1,250 rows).
func TestCorruptParquetPageCostsOneSlice(t *testing.T) {
	dir := unzipFixture(t, "index-bloom-1.2.0")
	f := openDir(t, dir)
	perFile := map[string]int{}
	_, err := SnapshotRows(context.Background(), f.t, f.tl, f.view, true, SnapshotQuery{RowColumns: RowColumns{Columns: []string{"_hoodie_file_name"}}}, func(r records.Record) error {
		perFile[r.Values["_hoodie_file_name"].(string)]++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var victim string
	for _, p := range f.view.Partitions {
		for _, g := range p.FileGroups {
			if s := g.Latest(); s != nil && s.Base != nil && victim == "" {
				victim = s.Base.Path
			}
		}
	}
	full := filepath.Join(dir, victim)
	b, err := os.ReadFile(full)
	if err != nil {
		t.Fatal(err)
	}
	for i := 4; i < 40; i++ { // the first column chunk's page header
		b[i] = 0xff
	}
	if err := os.WriteFile(full, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, all := range []bool{false, true} {
		f := openDir(t, dir)
		got, st, err := CountRows(func(fn func(records.Record) error) (records.Stats, error) {
			return SnapshotRows(context.Background(), f.t, f.tl, f.view, true, SnapshotQuery{RowColumns: RowColumns{All: all}}, fn)
		})
		if err != nil {
			t.Fatal(err)
		}
		want := 1250 - perFile[filepath.Base(victim)]
		if total(got) != want || st.FailedSlices != 1 || st.Slices != 104 {
			t.Errorf("all=%v: %d rows (want %d), %d of %d slices failed", all, total(got), want, st.FailedSlices, st.Slices)
		}
		if len(st.Problems) != 1 || !strings.Contains(st.Problems[0].Err, victim) || !strings.Contains(st.Problems[0].Err, "row group 0") {
			t.Errorf("all=%v: problems %v, want one naming %s and its row group", all, st.Problems, victim)
		}
	}
}

// A corrupt log block is named with its file and byte offset; the slice's other blocks and
// the other slices are still read.
func TestCorruptLogBlockNamed(t *testing.T) {
	dir := unzipFixture(t, "mor-services-1.2.0")
	f := openDir(t, dir)
	var victim string
	for _, p := range f.view.Partitions {
		for _, g := range p.FileGroups {
			if s, _ := g.Merged(); s != nil && victim == "" {
				for _, l := range s.Logs {
					if !l.Meta.CDC && l.Size > 200 {
						victim = l.Path
						break
					}
				}
			}
		}
	}
	if victim == "" {
		t.Skip("no log file in the merged slices")
	}
	full := filepath.Join(dir, victim)
	b, _ := os.ReadFile(full)
	for i := 30; i < 60; i++ { // inside the first block's header
		b[i] = 0xee
	}
	if err := os.WriteFile(full, b, 0o644); err != nil {
		t.Fatal(err)
	}
	f = openDir(t, dir)
	got, st, err := snapshotCounts(t, f, SnapshotQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if st.FailedSlices != 0 || total(got) != 12 {
		t.Errorf("%d rows, %d failed slices; want 12 rows (a key's older version stays), none failed", total(got), st.FailedSlices)
	}
	found := false
	for _, p := range st.Problems {
		if strings.HasSuffix(p.File, victim) && strings.Contains(p.Err, "block at byte 0") {
			found = true
		}
	}
	if !found {
		t.Errorf("problems %v: none names %s and the block's offset", st.Problems, victim)
	}
}

// Memory is bounded by one file slice: once a slice's rows have been handed on, the reader
// keeps none of them. Each slice's rows share their file's column list; a weak pointer to it
// must be collectable two slices later (the current and the previous slice may be alive).
func TestScanHoldsOneSliceAtATime(t *testing.T) {
	f := openFixture(t, "index-bloom-1.2.0")
	var ptrs []weak.Pointer[string]
	last := ""
	maxAlive := 0
	_, err := SnapshotRows(context.Background(), f.t, f.tl, f.view, true, SnapshotQuery{RowColumns: RowColumns{All: true}}, func(r records.Record) error {
		name, _ := r.Values["_hoodie_file_name"].(string)
		if name == last {
			return nil
		}
		last = name
		ptrs = append(ptrs, weak.Make(&r.Fields[0]))
		if len(ptrs)%10 == 0 {
			runtime.GC()
			alive := 0
			for _, p := range ptrs {
				if p.Value() != nil {
					alive++
				}
			}
			maxAlive = max(maxAlive, alive)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(ptrs) < 100 {
		t.Fatalf("%d slices seen, want 104", len(ptrs))
	}
	if maxAlive > 2 {
		t.Errorf("up to %d slices' rows alive at once; the reader must hold one slice at a time", maxAlive)
	}
	t.Logf("%d slices read, at most %d alive at a GC", len(ptrs), maxAlive)
}
