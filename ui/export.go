package ui

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxExportTries bounds the search for a free export name.
const maxExportTries = 100

// writeExport writes data to a fresh file named after name in dir and returns its path. It
// never follows a link planted at the name and never overwrites: the data goes to an
// O_EXCL temp file, which is hard-linked to the first free name (name, name-2, ...).
func writeExport(dir, name string, data []byte, tableRoot string) (string, error) {
	if dir == "" {
		dir = "."
	}
	if inside(dir, tableRoot) {
		return "", fmt.Errorf("export directory %s is inside the table %s; hudiscope never writes there (use --export-dir)", dir, tableRoot)
	}
	tmp, err := os.CreateTemp(dir, ".hudiscope-export-*.tmp") // O_CREATE|O_EXCL
	if err != nil {
		return "", err
	}
	tmpName := tmp.Name()
	defer os.Remove(tmpName)
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	ext := filepath.Ext(name)
	base := strings.TrimSuffix(name, ext)
	for i := 1; i <= maxExportTries; i++ {
		cand := name
		if i > 1 {
			cand = fmt.Sprintf("%s-%d%s", base, i, ext)
		}
		p := filepath.Join(dir, cand)
		err := os.Link(tmpName, p) // fails on any existing name, link or not
		if err == nil {
			return p, nil
		}
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		// No hard links here: create the name itself exclusively.
		if err := createExclusive(p, data); err == nil {
			return p, nil
		} else if !errors.Is(err, fs.ErrExist) {
			return "", err
		}
	}
	return "", fmt.Errorf("no free export name for %s in %s after %d tries", name, dir, maxExportTries)
}

// createExclusive creates p (never an existing file or link) and writes data to it.
func createExclusive(p string, data []byte) error {
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(p)
		return err
	}
	return f.Close()
}

// inside reports whether dir is root or below it, links resolved; false when root is not a
// local directory (zip, remote URI).
func inside(dir, root string) bool {
	if root == "" || strings.Contains(root, "://") {
		return false
	}
	r, err := realDir(strings.TrimPrefix(root, "file:"))
	if err != nil {
		return false
	}
	if st, err := os.Stat(r); err != nil || !st.IsDir() {
		return false
	}
	d, err := realDir(dir)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(r, d)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

func realDir(p string) (string, error) {
	a, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(a)
}
