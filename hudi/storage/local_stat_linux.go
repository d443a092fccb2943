//go:build linux && (amd64 || arm64)

package storage

import (
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// pathNUL says whether readDirPaths places a NUL byte after each path, which fstatatPath
// needs.
const pathNUL = true

// fstatatPath stats the name path[pl:] relative to the open directory fd. path must come from
// readDirPaths, which leaves a NUL byte right after it: the kernel then reads the name in
// place, without the NUL-terminated copy unix.Fstatat allocates (a million of them for a
// million-file table, a tenth of the listing's own CPU time).
func fstatatPath(fd int, path string, pl int, st *unix.Stat_t, flags int) error {
	if pl >= len(path) {
		return fstatat(fd, path[pl:], st, flags)
	}
	for {
		_, _, e := unix.Syscall6(unix.SYS_NEWFSTATAT, uintptr(fd), uintptr(unsafe.Pointer(unsafe.StringData(path[pl:]))),
			uintptr(unsafe.Pointer(st)), uintptr(flags), 0, 0)
		switch e {
		case 0:
			return nil
		case unix.EINTR:
			continue // Go's runtime signals (preemption) can interrupt it
		}
		return e
	}
}

// openatName opens name relative to the open directory dirfd, NUL-terminating it in a stack
// buffer instead of the copy unix.Openat allocates (one per commit file of a timeline read).
// Longer names (no Linux file name is) take unix.Openat.
func openatName(dirfd int, name string, flags int) (int, error) {
	var b [256]byte
	if len(name) >= len(b) || strings.IndexByte(name, 0) >= 0 {
		var fd int
		err := retryEINTR(func() (err error) {
			fd, err = unix.Openat(dirfd, name, flags, 0)
			return err
		})
		return fd, err
	}
	copy(b[:], name)
	for {
		fd, _, e := unix.Syscall6(unix.SYS_OPENAT, uintptr(dirfd), uintptr(unsafe.Pointer(&b[0])), uintptr(flags), 0, 0, 0)
		switch e {
		case 0:
			return int(fd), nil
		case unix.EINTR:
			continue // Go's runtime signals (preemption) can interrupt it
		}
		return -1, e
	}
}
