package storage

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// Counting counts each call once by price class, and a buffered read still reuses the
// caller's buffer through it.
func TestCountingCounts(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a"), []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	base, err := OpenLocal(dir)
	if err != nil {
		t.Fatal(err)
	}
	c := NewCounting(base)
	if es, err := c.List(ctx, ""); err != nil || len(es) != 1 {
		t.Fatalf("List: %v %v", es, err)
	}
	if _, err := ListNames(ctx, c, ""); err != nil {
		t.Fatal(err)
	}
	if es, err := ListAfter(ctx, c, "", "a"); err != nil || len(es) != 0 {
		t.Fatalf("ListAfter: %v %v", es, err)
	}
	if _, err := c.Stat(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if b, err := c.ReadFile(ctx, "a"); err != nil || string(b) != "hello" {
		t.Fatalf("ReadFile: %q %v", b, err)
	}
	buf := make([]byte, 0, 64)
	b, err := ReadFileBuf(ctx, c, "a", buf)
	if err != nil || string(b) != "hello" {
		t.Fatalf("ReadFileBuf: %q %v", b, err)
	}
	if &b[0] != &buf[:1][0] {
		t.Error("ReadFileBuf through Counting did not reuse the buffer")
	}
	f, err := c.Open(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	p := make([]byte, 2)
	f.ReadAt(p, 0)
	f.ReadAt(p, 2)
	f.Close()
	if _, err := c.Open(ctx, "missing"); err == nil {
		t.Fatal("opened a missing file")
	}
	if b, ok, err := ListNameBlock(ctx, c, ""); err != nil || !ok || len(b.Names) != 1 || b.Names[0] != "a" {
		t.Fatalf("ListNameBlock: %v %v %v", b, ok, err)
	}
	if lists, gets := c.Counts(); lists != 4 || gets != 6 {
		t.Errorf("counts: %d lists, %d gets; want 4, 6", lists, gets)
	}
	// Over a backend without name blocks nothing is listed or counted: the caller lists
	// through ListNames, which counts.
	c2 := NewCounting(struct{ Storage }{base})
	if _, ok, err := ListNameBlock(ctx, c2, ""); ok || err != nil {
		t.Errorf("ListNameBlock without a block lister: ok %v, %v", ok, err)
	}
	if lists, _ := c2.Counts(); lists != 0 {
		t.Errorf("%d lists counted for no listing", lists)
	}
}
