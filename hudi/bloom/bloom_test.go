package bloom

import (
	"archive/zip"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/hudi/storage"
)

// unzipFixture unpacks a committed fixture table into a temporary directory.
func unzipFixture(t *testing.T, name string) string {
	t.Helper()
	zr, err := zip.OpenReader(filepath.Join("..", "..", "testdata", "fixtures", name, "table.zip"))
	if err != nil {
		t.Skip(err)
	}
	defer zr.Close()
	dir := t.TempDir()
	for _, f := range zr.File {
		if f.FileInfo().IsDir() {
			continue
		}
		p := filepath.Join(dir, f.Name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b := make([]byte, f.UncompressedSize64)
		if _, err := readFull(rc, b); err != nil {
			t.Fatal(err)
		}
		rc.Close()
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func readFull(r interface{ Read([]byte) (int, error) }, b []byte) (int, error) {
	n := 0
	for n < len(b) {
		m, err := r.Read(b[n:])
		n += m
		if err != nil {
			if n == len(b) {
				return n, nil
			}
			return n, err
		}
	}
	return n, nil
}

// TestFixtureFilters: in index-bloom-1.2.0 (ids 0..1249 written by Hudi 1.2.0, 8 partitions,
// 2024-01-0(k%8+1)), every base file's footer filter passes every key the file's writer put in
// its key range, and the filters (1000 entries at Hudi's default 1e-9 false-positive rate) turn
// down keys that are in no file.
func TestFixtureFilters(t *testing.T) {
	dir := unzipFixture(t, "index-bloom-1.2.0")
	root := filepath.Join(dir, "idx_bloom")
	st, err := storage.Open(root, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(root, "2024-01-0*", "*.parquet"))
	if len(files) < 20 {
		t.Fatalf("%d base files, want >= 20", len(files))
	}
	ctx := context.Background()
	types := map[string]int{}
	for _, f := range files {
		rel, _ := filepath.Rel(root, f)
		ft, err := ReadFooter(ctx, st, filepath.ToSlash(rel))
		if err != nil {
			t.Fatal(err)
		}
		if ft.Filter == nil || !ft.HasRange {
			t.Fatalf("%s: no filter or key range in the footer", rel)
		}
		types[ft.Filter.Type]++
		// The partition 2024-01-0d holds ids k with k%8 == d-1: the min and max keys are two
		// of them, and both pass the filter.
		d, _ := strconv.Atoi(strings.TrimPrefix(filepath.Base(filepath.Dir(f)), "2024-01-0"))
		for _, k := range []string{ft.MinKey, ft.MaxKey} {
			n, err := strconv.Atoi(k)
			if err != nil || n%8 != d-1 {
				t.Errorf("%s: key %q is not one of partition %d's ids", rel, k, d)
			}
			if !ft.Filter.MightContain(k) {
				t.Errorf("%s: filter turns down its own key %s", rel, k)
			}
		}
		for _, k := range []string{"100000", "-1", "abc", "x1249"} {
			if ft.Filter.MightContain(k) {
				t.Errorf("%s: filter passes %q, in no file", rel, k)
			}
		}
	}
	if types["DYNAMIC_V0"] != len(files) {
		t.Errorf("filter types %v, want every one DYNAMIC_V0 (Hudi's default)", types)
	}
}

// TestMurmur: values Hudi 1.2.0's org.apache.hudi.common.util.hash.MurmurHash returns
// (Hash.getInstance(1).hash(bytes, seed), run with the bundle jar).
func TestMurmur(t *testing.T) {
	for _, c := range []struct {
		s    string
		seed int32
		want int32
	}{{"799", 0, -164748459}, {"12345678", 7, -467483166}} {
		if got := murmur([]byte(c.s), c.seed); got != c.want {
			t.Errorf("murmur(%q, %d) = %d, want %d", c.s, c.seed, got, c.want)
		}
	}
}

// FuzzParse: no footer text panics the filter decoder or the test.
func FuzzParse(f *testing.F) {
	f.Add("DYNAMIC_V0", "/////wAAAB4BAACofQAAA+gAAAAKAAAAAf////8AAAAeAQAAqH0=")
	f.Add("SIMPLE", "/////wAAAAIBAAAACP8=")
	f.Add("", "")
	f.Fuzz(func(t *testing.T, code, text string) {
		if flt, err := Parse(code, text); err == nil {
			flt.MightContain("key")
		}
	})
}
