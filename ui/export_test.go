package ui

import (
	"os"
	"path/filepath"
	"testing"
)

// A link planted at the predictable export name is not followed: its target is untouched and
// the export goes to a fresh name.
func TestExportDoesNotFollowPlantedLink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(target, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	name := "hudiscope-v9_txns_cow_simple_meta-timeline-20261130-120000.md"
	if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
		t.Skip("no symlinks:", err)
	}
	a := loadedApp(t, fxV9, 80, 24, func(o *Options) { o.ExportDir = dir })
	press(a, "e")
	mustContain(t, screen(a), "exported timeline pane to")
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Fatalf("link target was written: %q", b)
	}
	b, err := os.ReadFile(filepath.Join(dir, "hudiscope-v9_txns_cow_simple_meta-timeline-20261130-120000-2.md"))
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, string(b), "| requested | completed | action |")
	// A second export neither overwrites the first nor leaves a temp file behind.
	press(a, "e")
	if _, err := os.Stat(filepath.Join(dir, "hudiscope-v9_txns_cow_simple_meta-timeline-20261130-120000-3.md")); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 3 {
		t.Fatalf("want link and two exports, got %d entries", len(ents))
	}
}

func TestExportRefusedInsideTable(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := writeExport(sub, "x.md", []byte("x"), root); err == nil {
		t.Fatal("export inside the table root was not refused")
	}
	if _, err := os.Stat(filepath.Join(sub, "x.md")); err == nil {
		t.Fatal("file written inside the table")
	}
	if _, err := writeExport(t.TempDir(), "x.md", []byte("x"), root); err != nil {
		t.Fatal(err)
	}
}
