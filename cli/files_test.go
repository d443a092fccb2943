package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// files --json streams partitions while listing; --output-file gets the same bytes as
// stdout, an unwritable one is an "output file" error (exit 1), and a table that cannot be
// read leaves the output file uncreated.
func TestFilesJSONOutputFile(t *testing.T) {
	table := fixture("mor-compaction-1.2.0")
	if _, err := os.Stat(table); err != nil {
		t.Skip(err)
	}
	stdout, stderr, code := runCLI(t, "files", "--json", table)
	if code != 0 || !strings.Contains(stdout, `"listingSource": `) || !strings.Contains(stdout, `"fileGroups": [`) {
		t.Fatalf("exit %d, stderr %s, stdout %.200s", code, stderr, stdout)
	}
	out := filepath.Join(t.TempDir(), "files.json")
	if _, stderr, code := runCLI(t, "files", "--json", table, "--output-file", out); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if b, _ := os.ReadFile(out); string(b) != stdout {
		t.Errorf("--output-file: %d bytes, stdout %d", len(b), len(stdout))
	}
	_, stderr, code = runCLI(t, "files", "--json", table, "--output-file", "/nonexistent/dir/files.json")
	if code != 1 || !strings.Contains(stderr, "output file: open /nonexistent/dir/files.json") {
		t.Errorf("unwritable output: exit %d, %s", code, stderr)
	}
	missing := filepath.Join(t.TempDir(), "never.json")
	_, stderr, code = runCLI(t, "files", "--json", "/nonexistent/input", "--output-file", missing)
	if _, err := os.Stat(missing); code != 1 || !strings.Contains(stderr, "/nonexistent/input") || err == nil {
		t.Errorf("missing table: exit %d, %s, output file %v", code, stderr, err)
	}
}
