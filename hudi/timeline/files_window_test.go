package timeline_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/hudi/problem"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/tableconfig"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// An instant's Files are its own timeline files in listing order, whether they lie adjacent in
// the sorted listing (a window on it) or another instant's file or a side file falls between.
func TestActiveNamesFiles(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".hoodie", "timeline")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	names := []string{
		// 001: commit files with an indexing plan sorted between them
		"20261130100000001.commit.requested", "20261130100000001.indexing.requested",
		"20261130100000001.inflight", "20261130100000001_20261130100000002.commit",
		// 003: adjacent, but for a .crc side file (not an instant file) among them
		"20261130100000003.deltacommit.requested", "20261130100000003.deltacommit.requested.crc",
		"20261130100000003.deltacommit.inflight", "20261130100000003_20261130100000004.deltacommit",
		// 005: adjacent
		"20261130100000005.clean.requested", "20261130100000005.clean.inflight", "20261130100000005_20261130100000006.clean",
	}
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st, err := storage.OpenLocal(root)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &tableconfig.Config{Version: 9, Zone: time.UTC, TimelineDir: ".hoodie/timeline"}
	tl, err := (&timeline.Reader{Store: st, Config: cfg, Problems: &problem.Log{}}).ActiveNames(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, in := range tl.Instants {
		for _, f := range in.Files {
			got[in.RequestedTime+" "+in.Action] = append(got[in.RequestedTime+" "+in.Action], f.Name)
			if p := in.FilePath(f); p != ".hoodie/timeline/"+f.Name {
				t.Errorf("%s: path %s", f.Name, p)
			}
			if f.Size != -1 || !f.ModTime().IsZero() || f.IsDir() {
				t.Errorf("%s: a name-only listing gave size %d, time %v, dir %v", f.Name, f.Size, f.ModTime(), f.IsDir())
			}
		}
	}
	want := map[string][]string{
		"20261130100000001 commit": {"20261130100000001.commit.requested", "20261130100000001.inflight",
			"20261130100000001_20261130100000002.commit"},
		"20261130100000001 indexing": {"20261130100000001.indexing.requested"},
		"20261130100000003 deltacommit": {"20261130100000003.deltacommit.inflight", "20261130100000003.deltacommit.requested",
			"20261130100000003_20261130100000004.deltacommit"},
		"20261130100000005 clean": {"20261130100000005.clean.inflight", "20261130100000005.clean.requested",
			"20261130100000005_20261130100000006.clean"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("files:\n%v\nwant\n%v", got, want)
	}
	// Appending to one instant's Files never writes into its neighbour's.
	first := tl.Instants[0]
	next := tl.Instants[1].Files[0]
	_ = append(first.Files, timeline.File{Name: "x"})
	if tl.Instants[1].Files[0] != next {
		t.Error("an append to Files overwrote the next instant's file")
	}
}
