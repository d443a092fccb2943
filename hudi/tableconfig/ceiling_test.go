package tableconfig_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/tableconfig"
)

// A hoodie.properties over the ceiling cannot load the table: the error names the file.
func TestPropertiesOverCeiling(t *testing.T) {
	dir := t.TempDir()
	old := tableconfig.MaxPropertiesBytes
	tableconfig.MaxPropertiesBytes = 1 << 20
	defer func() { tableconfig.MaxPropertiesBytes = old }()
	big := append([]byte("hoodie.table.name=t\nhoodie.table.version=6\npad="), bytes.Repeat([]byte("x"), 2<<20)...)
	if err := os.WriteFile(filepath.Join(dir, "hoodie.properties"), big, 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := storage.OpenLocal(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = tableconfig.Read(context.Background(), st, "hoodie.properties")
	want := st.Root() + "/hoodie.properties: 2097199 bytes, more than the 1 MiB a properties file may be (not a hoodie.properties)"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
	tableconfig.MaxPropertiesBytes = 4 << 20
	cfg, err := tableconfig.Read(context.Background(), st, "hoodie.properties")
	if err != nil || cfg.Name != "t" {
		t.Errorf("under the ceiling: %v, %v", cfg, err)
	}
}

// Folder properties that could lead outside the table root are refused with a warning naming
// the key, and the default is used; confined ones are kept, cleaned. Both layouts: 0.x
// (version 6) reads hoodie.archivelog.folder, 1.x (version 8) the timeline and history paths.
func TestFolderPropertiesConfined(t *testing.T) {
	cases := []struct {
		props                      string
		timeline, history, archive string
		warnings                   []string
	}{
		{"hoodie.table.version=6\nhoodie.archivelog.folder=../../etc\n", ".hoodie", "", ".hoodie/archived",
			[]string{`hoodie.archivelog.folder="../../etc" refused: leads outside the table root (..); using the default "archived"`}},
		{"hoodie.table.version=6\nhoodie.archivelog.folder=old/./arch/\n", ".hoodie", "", ".hoodie/old/arch", nil},
		{"hoodie.table.version=8\nhoodie.timeline.path=/abs\nhoodie.timeline.history.path=a/../../h\n",
			".hoodie/timeline", ".hoodie/timeline/history", ".hoodie/archived", []string{
				`hoodie.timeline.path="/abs" refused: absolute path; using the default "timeline"`,
				`hoodie.timeline.history.path="a/../../h" refused: leads outside the table root (..); using the default "history"`}},
		{"hoodie.table.version=8\nhoodie.timeline.path=tl\nhoodie.timeline.history.path=a/../h\n",
			".hoodie/tl", ".hoodie/tl/h", ".hoodie/archived", nil},
	}
	for _, c := range cases {
		cfg, err := tableconfig.Parse([]byte("hoodie.table.name=t\n"+c.props), "hoodie.properties")
		if err != nil {
			t.Fatalf("%q: %v", c.props, err)
		}
		if cfg.TimelineDir != c.timeline || cfg.HistoryDir != c.history || cfg.ArchiveDir != c.archive {
			t.Errorf("%q: dirs %q %q %q, want %q %q %q", c.props, cfg.TimelineDir, cfg.HistoryDir, cfg.ArchiveDir,
				c.timeline, c.history, c.archive)
		}
		if !slices.Equal(cfg.Warnings, c.warnings) {
			t.Errorf("%q: warnings %q, want %q", c.props, cfg.Warnings, c.warnings)
		}
	}
}
