//go:build !(linux || darwin)

package storage

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// readDirStat lists abs with os.ReadDir (names sorted) and describes each child.
func readDirStat(abs, dir string) ([]Entry, error) {
	des, err := os.ReadDir(abs)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", abs, err)
	}
	out := make([]Entry, 0, len(des))
	for _, de := range des {
		var info fs.FileInfo
		if de.Type()&fs.ModeSymlink != 0 {
			info, err = os.Stat(filepath.Join(abs, de.Name()))
			if err != nil {
				out = append(out, Entry{Name: de.Name(), Path: Join(dir, de.Name()), IsDir: true})
				continue
			}
		} else if info, err = de.Info(); err != nil {
			if os.IsNotExist(err) {
				continue
			}
			out = append(out, Entry{Name: de.Name(), Path: Join(dir, de.Name()), IsDir: de.IsDir(), Size: -1,
				Err: fmt.Errorf("stat %s: %w", filepath.Join(abs, de.Name()), err)})
			continue
		}
		out = append(out, Entry{Name: de.Name(), Path: Join(dir, de.Name()), Size: info.Size(),
			ModTime: info.ModTime(), ModTimePrecision: PrecisionLocal, IsDir: info.IsDir()})
	}
	return out, nil
}
