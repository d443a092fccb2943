//go:build linux || darwin

package storage

import (
	"fmt"
	"os"
	"slices"
	"time"

	"golang.org/x/sys/unix"
)

// readDirStat lists abs and describes each child with fstatat relative to the open directory:
// no per-entry FileInfo or joined path is allocated, and the kernel resolves one name instead of
// the whole path — what makes listing a million-file table cheap. Names come back sorted.
func readDirStat(abs, dir string) ([]Entry, error) {
	f, err := os.Open(abs)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", abs, err)
	}
	defer f.Close()
	prefix := dir + "/"
	if dir == "" {
		prefix = ""
	}
	// Each entry's path is one allocation and its name the path's tail: a million-file view
	// keeps both (BaseFile.Name and .Path), and separate strings cost 85 MB more.
	paths, err := readDirPaths(f, prefix)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", abs, err)
	}
	pl := len(prefix)
	slices.Sort(paths) // every path has the prefix: sorted paths are sorted names
	fd := int(f.Fd())
	out := make([]Entry, 0, len(paths))
	var st unix.Stat_t
	for _, path := range paths {
		name := path[pl:]
		if err := fstatatPath(fd, path, pl, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			if err == unix.ENOENT {
				continue // vanished between listing and stat
			}
			// Listed but not describable (a name too long for the OS): keep it, with the error.
			out = append(out, Entry{Name: name, Path: path, Size: -1,
				Err: fmt.Errorf("stat %s/%s: %w", abs, name, err)})
			continue
		}
		if st.Mode&unix.S_IFMT == unix.S_IFLNK {
			// Follow links as Hadoop's local file system does. A link that cannot be followed
			// (dangling, a loop) is listed as a directory so that reading it reports the error
			// with its path instead of the entry silently disappearing.
			if err := fstatatPath(fd, path, pl, &st, 0); err != nil {
				out = append(out, Entry{Name: name, Path: path, IsDir: true})
				continue
			}
		}
		out = append(out, Entry{Name: name, Path: path, Size: st.Size,
			ModTime:          time.Unix(int64(st.Mtim.Sec), int64(st.Mtim.Nsec)),
			ModTimePrecision: PrecisionLocal, IsDir: st.Mode&unix.S_IFMT == unix.S_IFDIR})
	}
	return out, nil
}

// fstatat retries on EINTR, which Go's runtime signals (preemption) can cause.
func fstatat(fd int, name string, st *unix.Stat_t, flags int) error {
	return retryEINTR(func() error { return unix.Fstatat(fd, name, st, flags) })
}
