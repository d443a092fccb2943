//go:build !linux

package storage

import (
	"fmt"
	"os"
)

// listNames lists abs with os.ReadDir (sorted by name), without stat-ing the entries.
func listNames(abs, dir string) ([]Entry, error) {
	des, err := os.ReadDir(abs)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", abs, err)
	}
	out := make([]Entry, len(des))
	for i, de := range des {
		out[i] = Entry{Name: de.Name(), Path: Join(dir, de.Name()), IsDir: de.IsDir(), Size: -1}
	}
	return out, nil
}

// readDirPaths lists prefix+name for every name in the open directory f (unsorted).
func readDirPaths(f *os.File, prefix string) ([]string, error) {
	names, err := f.Readdirnames(-1)
	for i, n := range names {
		names[i] = prefix + n
	}
	return names, err
}

// listNameBlock lists abs with os.ReadDir (sorted by name).
func listNameBlock(abs string) (NameBlock, error) {
	des, err := os.ReadDir(abs)
	if err != nil {
		return NameBlock{}, fmt.Errorf("list %s: %w", abs, err)
	}
	b := NameBlock{Names: make([]string, len(des))}
	for i, de := range des {
		b.Names[i] = de.Name()
		switch {
		case de.IsDir():
			if b.Dirs == nil {
				b.Dirs = map[string]bool{}
			}
			b.Dirs[de.Name()] = true
		case !de.Type().IsRegular():
			if b.Irregular == nil {
				b.Irregular = map[string]bool{}
			}
			b.Irregular[de.Name()] = true
		}
	}
	return b, nil
}
