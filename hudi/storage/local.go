package storage

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// Local reads a table from a directory on local disk.
type Local struct{ dir string }

// OpenLocal opens a local directory as a table root.
func OpenLocal(dir string) (*Local, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", dir, err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("open %s: not a directory or .zip archive", dir)
	}
	return &Local{dir: filepath.Clean(dir)}, nil
}

func (l *Local) Root() string { return l.dir }

func (l *Local) abs(p string) string { return filepath.Join(l.dir, filepath.FromSlash(p)) }

func (l *Local) List(_ context.Context, dir string) ([]Entry, error) {
	des, err := os.ReadDir(l.abs(dir))
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", l.abs(dir), err)
	}
	out := make([]Entry, 0, len(des))
	for _, de := range des {
		var info fs.FileInfo
		if de.Type()&fs.ModeSymlink != 0 {
			// Follow links as Hadoop's local file system does. A link that cannot be followed
			// (dangling, a loop) is listed as a directory so that reading it reports the error
			// with its path instead of the entry silently disappearing.
			info, err = os.Stat(filepath.Join(l.abs(dir), de.Name()))
			if err != nil {
				out = append(out, Entry{Name: de.Name(), Path: Join(dir, de.Name()), IsDir: true})
				continue
			}
		} else if info, err = de.Info(); err != nil {
			continue // vanished between ReadDir and Info
		}
		out = append(out, Entry{Name: de.Name(), Path: Join(dir, de.Name()), Size: info.Size(),
			ModTime: info.ModTime(), ModTimePrecision: PrecisionLocal, IsDir: de.IsDir()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

func (l *Local) Stat(_ context.Context, p string) (Entry, error) {
	info, err := os.Stat(l.abs(p))
	if err != nil {
		return Entry{}, fmt.Errorf("stat %s: %w", l.abs(p), err)
	}
	return Entry{Name: info.Name(), Path: p, Size: info.Size(), ModTime: info.ModTime(), ModTimePrecision: PrecisionLocal, IsDir: info.IsDir()}, nil
}

type localFile struct {
	*os.File
	size int64
}

func (f localFile) Size() int64 { return f.size }

func (l *Local) Open(_ context.Context, p string) (File, error) {
	f, err := os.Open(l.abs(p)) // read-only open
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", l.abs(p), err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("stat %s: %w", l.abs(p), err)
	}
	return localFile{f, st.Size()}, nil
}

func (l *Local) ReadFile(_ context.Context, p string) ([]byte, error) {
	b, err := os.ReadFile(l.abs(p))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", l.abs(p), err)
	}
	return b, nil
}

// ListNames lists a directory without stat-ing its entries.
func (l *Local) ListNames(_ context.Context, dir string) ([]Entry, error) {
	des, err := os.ReadDir(l.abs(dir))
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", l.abs(dir), err)
	}
	out := make([]Entry, len(des))
	for i, de := range des {
		out[i] = Entry{Name: de.Name(), Path: Join(dir, de.Name()), IsDir: de.IsDir(), Size: -1}
	}
	return out, nil // os.ReadDir sorts by name
}
