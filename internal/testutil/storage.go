package testutil

import (
	"context"
	"testing"

	"github.com/hudiscope/hudiscope/hudi/storage"
)

// EachFile calls fn with the path (relative to src's root) and bytes of every file under src,
// depth first in listing order: the copy of a fixture table into another backend.
func EachFile(t testing.TB, src storage.Storage, fn func(path string, data []byte)) {
	t.Helper()
	ctx := context.Background()
	var walk func(dir string)
	walk = func(dir string) {
		es, err := src.List(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range es {
			if e.IsDir {
				walk(e.Path)
				continue
			}
			b, err := src.ReadFile(ctx, e.Path)
			if err != nil {
				t.Fatal(err)
			}
			fn(e.Path, b)
		}
	}
	walk("")
}
