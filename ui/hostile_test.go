package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/hudiscope/hudiscope/internal/testutil"
)

// TestLayoutHostilePartition draws a partition named with terminal control sequences and a
// bidi override: the pane shows them escaped, never raw.
func TestLayoutHostilePartition(t *testing.T) {
	src := "../testdata/fixtures/cow-v4-0.11.1/table.zip"
	needFixture(t, src)
	root := unzipTo(t, src, t.TempDir())
	const hostile = "x\x1b]0;pwned\x07\x1b[2J\u202ey\nz"
	if err := os.Rename(filepath.Join(root, "2024-01-03"), filepath.Join(root, hostile)); err != nil {
		t.Skip("file system refuses the name:", err)
	}
	a := appWith(t, analysisSnapshot(t, root, "", ""), 120, 40)
	press(a, "3")
	views := []string{a.View().Content}
	for range 3 {
		press(a, "j")
		views = append(views, a.View().Content)
	}
	press(a, "enter")
	views = append(views, a.View().Content)
	seen := false
	for _, v := range views {
		for _, bad := range []string{"\x1b]0;", "\x07", "\x1b[2J", "\u202e", "pwned\n"} {
			if strings.Contains(v, bad) {
				t.Errorf("Layout view contains %q:\n%s", bad, v)
			}
		}
		seen = seen || strings.Contains(ansi.Strip(v), `x\x1b]0;pwned`)
	}
	if !seen {
		t.Errorf("escaped partition name not shown:\n%s", ansi.Strip(views[0]))
	}
}

func unzipTo(t *testing.T, zipPath, dst string) string {
	return testutil.UnzipTable(t, zipPath, dst)
}
