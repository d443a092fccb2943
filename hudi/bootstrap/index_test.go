package bootstrap

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/hudi/internal/synth"
	"github.com/hudiscope/hudiscope/hudi/storage"
)

func fixtureStore(t testing.TB, fx string) storage.Storage {
	t.Helper()
	zip := filepath.Join("..", "..", "testdata", "fixtures", fx, "table.zip")
	if _, err := os.Stat(zip); err != nil {
		t.Skipf("fixture %s absent: %v", fx, err)
	}
	st, err := storage.Open(zip, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// The index Hudi 1.1.1 wrote for a bootstrap of three Hive-style partitions: one skeleton file
// group per partition, each mapped to its source file (path, size as recorded at bootstrap).
func TestReadIndex(t *testing.T) {
	st := fixtureStore(t, "bootstrap-1.1.1")
	x, err := Read(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	if x.BasePath != "/tmp/hudiscope-gen/tables/bootstrap-1.1.1/bootstrap_source" {
		t.Errorf("base path %q", x.BasePath)
	}
	if x.File != ".hoodie/.aux/.bootstrap/.fileids/00000000-0000-0000-0000-000000000000-0_1-0-1_00000000000001.hfile" {
		t.Errorf("file %q", x.File)
	}
	if x.Len() != 3 {
		t.Errorf("%d file groups", x.Len())
	}
	s, ok := x.Lookup("dt=2024-01-01", "a564933b-2982-4405-8865-830aa1825568")
	want := Source{Path: "file:/tmp/hudiscope-gen/tables/bootstrap-1.1.1/bootstrap_source/dt=2024-01-01/part-00000-5d03f31a-954f-46fd-a30f-8ba84f22d3a0.c000.snappy.parquet",
		Size: 973, Partition: "dt=2024-01-01", SourcePartition: "dt=2024-01-01"}
	if !ok || s != want {
		t.Errorf("lookup = %+v %v", s, ok)
	}
	if s.Name() != "part-00000-5d03f31a-954f-46fd-a30f-8ba84f22d3a0.c000.snappy.parquet" {
		t.Errorf("name %q", s.Name())
	}
	if _, ok := x.Lookup("dt=2024-01-02", "a564933b-2982-4405-8865-830aa1825568"); ok {
		t.Error("found in the wrong partition")
	}
}

// A table without the index folders has no index (not an error).
func TestReadNoIndex(t *testing.T) {
	st, err := storage.Open(t.TempDir(), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	x, err := Read(context.Background(), st)
	if x != nil || err != nil {
		t.Errorf("%v %v", x, err)
	}
}

func TestParseKey(t *testing.T) {
	for _, c := range []struct {
		k, p, id string
		ok       bool
	}{
		{"part=dt=2024-01-01;fileid=abc-0", "dt=2024-01-01", "abc-0", true},
		{"part=;fileid=abc", "", "abc", true}, // non-partitioned
		{"part=a/b;fileid=x;y", "a/b", "x;y", true},
		{"part=a", "", "", false},
		{"fileid=x;part=a", "", "", false},
		{"part=a;fileid=", "", "", false},
	} {
		p, id, ok := parseKey(c.k)
		if ok != c.ok || ok && (p != c.p || id != c.id) {
			t.Errorf("parseKey(%q) = %q %q %v", c.k, p, id, ok)
		}
	}
}

// A cell whose key is not a file-group key, or whose value is not an Avro container, is an
// error naming the key (a partial index would leave skeleton rows without data).
func TestDecodeBadCells(t *testing.T) {
	if _, err := Decode(synth.HFile(map[string][]byte{"nokey": []byte("x")}, nil)); err == nil || !contains(err.Error(), `"nokey"`) {
		t.Errorf("bad key: %v", err)
	}
	if _, err := Decode(synth.HFile(map[string][]byte{"part=p;fileid=f": []byte("not avro")}, nil)); err == nil || !contains(err.Error(), `"part=p;fileid=f"`) {
		t.Errorf("bad value: %v", err)
	}
	if _, err := Decode([]byte("short")); err == nil {
		t.Error("not an HFile: no error")
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// FuzzDecode: any bytes as a .fileids HFile decode or fail, never panic. Seeds: the real index
// of the 1.1.1 fixture (when present) and a synthetic one-cell file.
func FuzzDecode(f *testing.F) {
	if st := fixtureStoreOrNil("bootstrap-1.1.1"); st != nil {
		if b, err := st.ReadFile(context.Background(), ".hoodie/.aux/.bootstrap/.fileids/00000000-0000-0000-0000-000000000000-0_1-0-1_00000000000001.hfile"); err == nil {
			f.Add(b)
		}
	}
	f.Add(synth.HFile(map[string][]byte{"part=p;fileid=f": []byte("Obj\x01")}, map[string][]byte{"INDEX_INFO": []byte("Obj\x01")}))
	f.Fuzz(func(t *testing.T, b []byte) {
		x, err := Decode(b)
		if err == nil && x == nil {
			t.Fatal("nil index without error")
		}
	})
}

func fixtureStoreOrNil(fx string) storage.Storage {
	st, err := storage.Open(filepath.Join("..", "..", "testdata", "fixtures", fx, "table.zip"), storage.Options{})
	if err != nil {
		return nil
	}
	return st
}
