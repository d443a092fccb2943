//go:build (linux && !amd64 && !arm64) || darwin

package storage

import "golang.org/x/sys/unix"

// pathNUL: readDirPaths leaves no NUL byte after each path here.
const pathNUL = false

// fstatatPath stats the name path[pl:] relative to the open directory fd.
func fstatatPath(fd int, path string, pl int, st *unix.Stat_t, flags int) error {
	return fstatat(fd, path[pl:], st, flags)
}

// openatName opens name relative to the open directory dirfd.
func openatName(dirfd int, name string, flags int) (int, error) {
	var fd int
	err := retryEINTR(func() (err error) {
		fd, err = unix.Openat(dirfd, name, flags, 0)
		return err
	})
	return fd, err
}
