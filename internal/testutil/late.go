package testutil

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// LateTable copies the bad-input corpus table instant-invalid-json (three commits, the second
// neither JSON nor Avro) from repoRoot into a temporary directory with the first commit
// completing at 20261129155632000: after the second commit (requested 20261129155626253) completed, so
// requested and completion order disagree at 20261129155610512. It skips when the corpus is
// absent.
func LateTable(t testing.TB, repoRoot string) string {
	t.Helper()
	src := filepath.Join(repoRoot, "testdata", "bad", "instant-invalid-json", "table")
	if _, err := os.Stat(src); err != nil {
		t.Skipf("bad-input corpus not present: %v", err)
	}
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel = strings.Replace(rel, "20261129155610512_20261129155625814.commit", "20261129155610512_20261129155632000.commit", 1)
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}
