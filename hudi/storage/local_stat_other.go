//go:build (linux && !amd64 && !arm64) || darwin

package storage

import "golang.org/x/sys/unix"

// pathNUL: readDirPaths leaves no NUL byte after each path here.
const pathNUL = false

// fstatatPath stats the name path[pl:] relative to the open directory fd.
func fstatatPath(fd int, path string, pl int, st *unix.Stat_t, flags int) error {
	return fstatat(fd, path[pl:], st, flags)
}
