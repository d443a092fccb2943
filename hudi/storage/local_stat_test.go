//go:build linux || darwin

package storage

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"unsafe"
)

// readDirPaths leaves a NUL byte after every path where fstatatPath relies on it.
func TestReadDirPathsNULTerminated(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a", "bb", "ccc.parquet", "dx"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	paths, err := readDirPaths(f, "p=1/")
	if err != nil || len(paths) != 4 {
		t.Fatalf("%v %v", paths, err)
	}
	if !pathNUL {
		t.Skip("paths are not NUL-terminated on this platform")
	}
	for _, p := range paths {
		if after := *(*byte)(unsafe.Add(unsafe.Pointer(unsafe.StringData(p)), len(p))); after != 0 {
			t.Errorf("%q is followed by %#x, want NUL", p, after)
		}
	}
}

// List describes every entry through fstatatPath: sizes, modification times, directories,
// links followed, dangling links listed as directories, in name order.
func TestLocalListStats(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "p=1")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "sub"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "b.parquet"), make([]byte, 1234), 0o644))
	must(os.WriteFile(filepath.Join(dir, "a.parquet"), make([]byte, 7), 0o644))
	must(os.Symlink("b.parquet", filepath.Join(dir, "c-link")))
	must(os.Symlink("missing", filepath.Join(dir, "d-dangling")))
	st, err := os.Stat(filepath.Join(dir, "b.parquet"))
	must(err)
	l, err := OpenLocal(root)
	must(err)
	es, err := l.List(context.Background(), "p=1")
	must(err)
	type row struct {
		name, path string
		size       int64
		dir        bool
	}
	want := []row{{"a.parquet", "p=1/a.parquet", 7, false}, {"b.parquet", "p=1/b.parquet", 1234, false},
		{"c-link", "p=1/c-link", 1234, false}, {"d-dangling", "p=1/d-dangling", 0, true}, {"sub", "p=1/sub", -2, true}}
	if len(es) != len(want) {
		t.Fatalf("%d entries: %+v", len(es), es)
	}
	for i, w := range want {
		e := es[i]
		if e.Name != w.name || e.Path != w.path || e.IsDir != w.dir || (w.size != -2 && e.Size != w.size) || e.Err != nil {
			t.Errorf("entry %d: %+v, want %+v", i, e, w)
		}
	}
	if !es[1].ModTime.Equal(st.ModTime()) {
		t.Errorf("b.parquet modified %v, want %v", es[1].ModTime, st.ModTime())
	}
}
