package filegroup

import (
	"context"
	"errors"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/hudi/problem"
	"github.com/hudiscope/hudiscope/hudi/storage"
)

// slowStore lists some directories late, so partitions finish out of path order.
type slowStore struct {
	storage.Storage
	seed uint32
}

func (s slowStore) List(ctx context.Context, dir string) ([]storage.Entry, error) {
	h := fnv.New32a()
	h.Write([]byte(dir))
	time.Sleep(time.Duration((h.Sum32()^s.seed)%7) * time.Millisecond)
	return s.Storage.List(ctx, dir)
}

// walkOrdered hands out partitions in path order however the listings interleave, nested
// partitions and names that sort around "/" ("a-b" < "a/b" < "a0") included.
func TestWalkOrderedPathOrder(t *testing.T) {
	root := t.TempDir()
	parts := []string{"a", "a-b", "a/b", "a/c/d", "a/c/d/e", "a.x", "a0", "b=1", "b=1/c=2", "b=10", "c", "c/x", "z"}
	for _, p := range parts {
		d := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, ".hoodie_partition_metadata"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A directory that is no partition but holds some, and one that holds nothing.
	for _, d := range []string{"y/q=1", "empty", ".hoodie"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.FromSlash(d)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "y", "q=1", ".hoodie_partition_metadata"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	want := append(slices.Clone(parts), "y/q=1")
	slices.Sort(want)
	local, err := storage.OpenLocal(root)
	if err != nil {
		t.Fatal(err)
	}
	for seed := range uint32(8) {
		var got []string
		var log problem.Log
		err := walkOrdered(context.Background(), slowStore{local, seed * 2654435761}, &log,
			func(dir string, files []storage.Entry) *Partition { return &Partition{Path: dir} },
			func(p *Partition) error { got = append(got, p.Path); return nil })
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("seed %d: %v %v, want %v", seed, got, err, want)
		}
	}
	// emit failing stops emitting and returns its error once the listing is done.
	calls := 0
	var log problem.Log
	err = walkOrdered(context.Background(), slowStore{local, 1}, &log,
		func(dir string, files []storage.Entry) *Partition { return &Partition{Path: dir} },
		func(p *Partition) error { calls++; return errors.New("write failed") })
	if err == nil || err.Error() != "write failed" || calls != 1 {
		t.Errorf("failing emit: %v after %d calls", err, calls)
	}
	// An unlistable root is the walk's error, with nothing emitted.
	err = walkOrdered(context.Background(), failRoot{local}, &log,
		func(dir string, files []storage.Entry) *Partition { return &Partition{Path: dir} },
		func(p *Partition) error { t.Errorf("emitted %s", p.Path); return nil })
	if err == nil || err.Error() != "list : permission denied" {
		t.Errorf("unlistable root: %v", err)
	}
}

type failRoot struct{ storage.Storage }

func (f failRoot) List(ctx context.Context, dir string) ([]storage.Entry, error) {
	if dir == "" {
		return nil, errors.New("list : permission denied")
	}
	return f.Storage.List(ctx, dir)
}
