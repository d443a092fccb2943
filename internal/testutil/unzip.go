// Package testutil holds helpers the packages' tests share.
package testutil

import (
	"archive/zip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// UnzipTable extracts a fixture zip (a single top-level folder holding the table) into dst,
// keeping each entry's modification time (derived completion times depend on it), and
// returns the table's directory.
func UnzipTable(t testing.TB, zipPath, dst string) string {
	t.Helper()
	zr, err := zip.OpenReader(zipPath)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	top := ""
	for _, f := range zr.File {
		if top == "" {
			top = strings.SplitN(f.Name, "/", 2)[0]
		}
		p := filepath.Join(dst, filepath.FromSlash(f.Name))
		if f.FileInfo().IsDir() {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		w, err := os.Create(p)
		if err != nil {
			rc.Close()
			t.Fatal(err)
		}
		_, err = io.Copy(w, rc)
		rc.Close()
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, f.Modified, f.Modified); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dst, top)
}
