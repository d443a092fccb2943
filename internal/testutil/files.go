package testutil

import (
	"os"
	"path/filepath"
	"testing"
)

// WriteFiles writes files (slash-separated paths relative to the table root → content) into
// a fresh temporary directory and returns it.
func WriteFiles(t testing.TB, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	for p, b := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
