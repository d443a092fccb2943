//go:build !(linux || darwin)

package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
)

// readRegular reads a whole local file through openRegular's checks.
func readRegular(a string, max int64, _ []byte, _ bool) ([]byte, error) {
	f, err := openRegular(a)
	if err != nil {
		if errors.Is(err, ErrNotRegular) {
			return nil, err
		}
		return nil, fmt.Errorf("read %s: %w", a, err)
	}
	defer f.Close()
	// The size at open decides before anything is allocated (a sparse 2 GB instant costs
	// no disk but would cost 2 GB of memory); the limited read covers a file still growing.
	if f.Size() > max {
		return nil, TooLarge(a, f.Size(), max)
	}
	b, err := ReadLimited(io.NewSectionReader(f, 0, 1<<62), a, f.Size(), max)
	if err != nil && !errors.Is(err, ErrTooLarge) {
		return nil, fmt.Errorf("read %s: %w", a, err)
	}
	return b, err
}

// OpenDir is not offered here: files are read by path (ReadEntryBuf).
func (l *Local) OpenDir(_ context.Context, dir string) (DirReader, error) {
	return nil, fmt.Errorf("open %s: no directory reader on this system", dir)
}
