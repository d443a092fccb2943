package testutil

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// WriteErrorsTable is a copy of cow-services-0.15.0 (repoRoot is the relative path to the
// repository) with commit 20261129165634001 (14 records written) edited to count 3 failed
// records in each of its first two write stats, as Hudi 0.14.0 completes a commit whose
// records failed, and an inflight commit 20261129165700000 left behind completed instants
// (what a killed writer leaves). It returns the table directory; the tests that read write
// errors and stalled instants share it.
func WriteErrorsTable(t testing.TB, repoRoot string) string {
	t.Helper()
	zip := filepath.Join(repoRoot, "testdata", "fixtures", "cow-services-0.15.0", "table.zip")
	if _, err := os.Stat(zip); err != nil {
		t.Skipf("fixture %s not present: %v", zip, err)
	}
	dir := UnzipTable(t, zip, t.TempDir())
	hd := filepath.Join(dir, ".hoodie")
	c := filepath.Join(hd, "20261129165634001.commit")
	b, err := os.ReadFile(c)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(c)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(c, []byte(strings.Replace(string(b), `"totalWriteErrors" : 0`, `"totalWriteErrors" : 3`, 2)), 0o644); err != nil {
		t.Fatal(err)
	}
	// The completion time of a 0.x commit is its file's mtime: keep it.
	if err := os.Chtimes(c, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"20261129165700000.commit.requested", "20261129165700000.inflight"} {
		if err := os.WriteFile(filepath.Join(hd, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
