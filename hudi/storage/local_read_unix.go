//go:build linux || darwin

package storage

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"golang.org/x/sys/unix"
)

// readRegular reads a whole local file with raw system calls: the same checks as openRegular
// (type before opening, again on the open descriptor, size ceiling before allocating) without an
// os.File, whose poller registration and finalizer cost a system call and an allocation per
// file — a 50k-commit timeline opens 50k instant files. A read that fills exactly the size seen
// at open is the end of the file; anything else reads on until the kernel says so, so a file
// that grows or a file system that returns short reads is still read whole (up to max).
//
// listedRegular: a directory listing saw a regular file under this name (d_type, which does not
// follow links). The stat before opening is then skipped — the name lookup in a 150k-entry
// timeline directory is about half of a small file's read — and the file is opened O_NOFOLLOW, so
// only the regular file listed (or whatever replaced it since, as between a stat and an open)
// is opened; a link in its place fails with ELOOP and takes the stat-first path, which follows
// it. The descriptor's type is checked either way, and O_NONBLOCK keeps a FIFO swapped in from
// blocking the open.
//
// buf is reused when it holds the file (ReadFileBuf); the result may alias it.
func readRegular(a string, max int64, buf []byte, listedRegular bool) ([]byte, error) {
	var st unix.Stat_t
	fd := -1
	if listedRegular {
		var err error
		if fd, err = openFD(a, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOFOLLOW); err != nil {
			if !errors.Is(err, unix.ELOOP) {
				return nil, fmt.Errorf("read %s: %w", a, err)
			}
			fd = -1 // a link now: stat it (following it) as any unlisted file
		}
	}
	if fd < 0 {
		if err := retryEINTR(func() error { return unix.Stat(a, &st) }); err != nil {
			return nil, fmt.Errorf("read %s: %w", a, &fs.PathError{Op: "open", Path: a, Err: err})
		}
		if st.Mode&unix.S_IFMT != unix.S_IFREG {
			return nil, notRegularPath(a)
		}
		var err error
		if fd, err = openFD(a, unix.O_RDONLY|unix.O_NONBLOCK); err != nil {
			return nil, fmt.Errorf("read %s: %w", a, err)
		}
	}
	return readFD(fd, func() string { return a }, max, buf)
}

// readFD reads the file open as fd whole and closes it: its type and size are checked on the
// descriptor first. name() names it in errors (built only then).
func readFD(fd int, name func() string, max int64, buf []byte) ([]byte, error) {
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := retryEINTR(func() error { return unix.Fstat(fd, &st) }); err != nil {
		a := name()
		return nil, fmt.Errorf("read %s: %w", a, &fs.PathError{Op: "stat", Path: a, Err: err})
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, notRegularPath(name())
	}
	size := st.Size
	if size > max {
		return nil, TooLarge(name(), size, max)
	}
	// +1: a file grown since the stat shows as a full buffer.
	if int64(cap(buf)) >= size+1 {
		buf = buf[:size+1]
	} else {
		buf = make([]byte, size+1)
	}
	n := 0
	for {
		var m int
		err := retryEINTR(func() (err error) {
			m, err = unix.Pread(fd, buf[n:], int64(n))
			return err
		})
		if err != nil {
			a := name()
			return nil, fmt.Errorf("read %s: %w", a, &fs.PathError{Op: "read", Path: a, Err: err})
		}
		n += m
		if m == 0 || int64(n) == size {
			return buf[:n], nil
		}
		if n == len(buf) {
			if int64(n) > max {
				return nil, TooLarge(name(), -1, max)
			}
			buf = append(buf, make([]byte, min(int64(len(buf)), max+1-int64(len(buf))))...)
			buf = buf[:cap(buf)]
		}
	}
}

// openFD opens a without an os.File (close-on-exec, retried on EINTR); the error is an
// *fs.PathError naming a.
func openFD(a string, flags int) (int, error) {
	var fd int
	err := retryEINTR(func() (err error) {
		fd, err = unix.Open(a, flags|unix.O_CLOEXEC, 0)
		return err
	})
	if err != nil {
		return -1, &fs.PathError{Op: "open", Path: a, Err: err}
	}
	return fd, nil
}

func retryEINTR(f func() error) error {
	for {
		if err := f(); !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}

// notRegularPath names what is there instead of a regular file (rare: stat again for the mode).
func notRegularPath(a string) error {
	st, err := os.Stat(a)
	if err != nil {
		return fmt.Errorf("read %s: %w", a, err)
	}
	return notRegular("open", a, st.Mode())
}

// OpenDir opens dir for reading its listed files relative to it (see localDir).
func (l *Local) OpenDir(_ context.Context, dir string) (DirReader, error) {
	a, err := l.resolve("open", dir)
	if err != nil {
		return nil, err
	}
	fd, err := openFD(a, unix.O_RDONLY|unix.O_DIRECTORY)
	if err != nil {
		return nil, err
	}
	// The prefix listNames gives the entries' paths.
	prefix := DirPrefix(dir)
	return &localDir{l: l, fd: fd, prefix: prefix}, nil
}

// localDir reads the entries of one listed directory with openat on the open directory: the
// kernel resolves the one name instead of the table root's whole path, and no absolute path is
// built unless an error names it (a 50k-commit timeline reads 50k files of one directory).
// The entry must be listed as a regular file (Entry.Regular) and be a plain name in the
// directory; anything else is read by path, as Local.ReadEntryBuf reads it.
type localDir struct {
	l      *Local
	fd     int
	prefix string
}

func (d *localDir) ReadEntryBuf(ctx context.Context, e Entry, buf []byte) ([]byte, error) {
	name, ok := strings.CutPrefix(e.Path, d.prefix)
	if !e.Regular || !ok || name == "" || name == "." || name == ".." || strings.IndexByte(name, '/') >= 0 {
		return d.l.ReadEntryBuf(ctx, e, buf)
	}
	fd, err := openatName(d.fd, name, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOFOLLOW|unix.O_CLOEXEC)
	switch {
	case errors.Is(err, unix.ELOOP):
		e.Regular = false // a link now: stat it (following it) as any unlisted file
		return d.l.ReadEntryBuf(ctx, e, buf)
	case err != nil:
		a := d.l.abs(e.Path)
		return nil, fmt.Errorf("read %s: %w", a, &fs.PathError{Op: "open", Path: a, Err: err})
	}
	return readFD(fd, func() string { return d.l.abs(e.Path) }, d.l.maxRead, buf)
}

func (d *localDir) Close() error { return unix.Close(d.fd) }
