package storage

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// Local reads a table from a directory on local disk.
type Local struct {
	dir     string
	maxRead int64 // ReadFile ceiling (Options.MaxReadBytes)
}

// OpenLocal opens a local directory as a table root.
func OpenLocal(dir string) (*Local, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", dir, err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("open %s: not a directory or .zip archive", dir)
	}
	return &Local{dir: filepath.Clean(dir), maxRead: DefaultMaxReadBytes}, nil
}

func (l *Local) Root() string { return l.dir }

func (l *Local) abs(p string) string { return filepath.Join(l.dir, filepath.FromSlash(p)) }

// resolve is abs for a path that must stay under the root.
func (l *Local) resolve(op, p string) (string, error) {
	if why := Escapes(p); why != "" {
		return "", fmt.Errorf("%s %s: refused: %s", op, p, why)
	}
	return l.abs(p), nil
}

func (l *Local) List(_ context.Context, dir string) ([]Entry, error) {
	a, err := l.resolve("list", dir)
	if err != nil {
		return nil, err
	}
	return readDirStat(a, dir)
}

func (l *Local) Stat(_ context.Context, p string) (Entry, error) {
	a, err := l.resolve("stat", p)
	if err != nil {
		return Entry{}, err
	}
	info, err := os.Stat(a)
	if err != nil {
		return Entry{}, fmt.Errorf("stat %s: %w", a, err)
	}
	return Entry{Name: info.Name(), Path: p, Size: info.Size(), ModTime: info.ModTime(), ModTimePrecision: PrecisionLocal, IsDir: info.IsDir()}, nil
}

type localFile struct {
	*os.File
	size int64
}

func (f localFile) Size() int64 { return f.size }

// Open opens a regular file.
func (l *Local) Open(_ context.Context, p string) (File, error) {
	a, err := l.resolve("open", p)
	if err != nil {
		return nil, err
	}
	f, err := openRegular(a)
	if err != nil {
		return nil, wrapOpen(a, err)
	}
	return f, nil
}

// wrapOpen names the path in an openRegular error (ErrNotRegular errors already do).
func wrapOpen(a string, err error) error {
	if errors.Is(err, ErrNotRegular) {
		return err
	}
	return fmt.Errorf("open %s: %w", a, err)
}

// openRegular checks the type before opening (a FIFO would block, a device never ends) and
// again on the descriptor, opened non-blocking, in case it changed between.
func openRegular(a string) (localFile, error) {
	st, err := os.Stat(a) // follows links, as Hadoop's local file system does
	if err != nil {
		return localFile{}, &fs.PathError{Op: "open", Path: a, Err: errors.Unwrap(err)}
	}
	if !st.Mode().IsRegular() {
		return localFile{}, notRegular("open", a, st.Mode())
	}
	f, err := os.OpenFile(a, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return localFile{}, err
	}
	if st, err = f.Stat(); err != nil {
		f.Close()
		return localFile{}, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return localFile{}, notRegular("open", a, st.Mode())
	}
	return localFile{f, st.Size()}, nil
}

func (l *Local) ReadFile(_ context.Context, p string) ([]byte, error) {
	a, err := l.resolve("read", p)
	if err != nil {
		return nil, err
	}
	return readRegular(a, l.maxRead, nil, false)
}

// ReadFileBuf is ReadFile reading into buf when it is large enough (see BufferReader).
func (l *Local) ReadFileBuf(_ context.Context, p string, buf []byte) ([]byte, error) {
	a, err := l.resolve("read", p)
	if err != nil {
		return nil, err
	}
	return readRegular(a, l.maxRead, buf, false)
}

// ReadEntryBuf is ReadFileBuf for a listed file: one the listing saw as a regular file
// (Entry.Regular) is opened without stat-ing its name first (see readRegular).
func (l *Local) ReadEntryBuf(_ context.Context, e Entry, buf []byte) ([]byte, error) {
	a, err := l.resolve("read", e.Path)
	if err != nil {
		return nil, err
	}
	return readRegular(a, l.maxRead, buf, e.Regular)
}

// ListNameBlock lists a directory's names as one block (see NameBlock).
func (l *Local) ListNameBlock(_ context.Context, dir string) (NameBlock, bool, error) {
	a, err := l.resolve("list", dir)
	if err != nil {
		return NameBlock{}, true, err
	}
	b, err := listNameBlock(a)
	return b, true, err
}

// ListNames lists a directory without stat-ing its entries.
func (l *Local) ListNames(_ context.Context, dir string) ([]Entry, error) {
	a, err := l.resolve("list", dir)
	if err != nil {
		return nil, err
	}
	return listNames(a, dir)
}
