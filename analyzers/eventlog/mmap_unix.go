//go:build unix

package eventlog

import (
	"errors"
	"math"
	"os"

	"golang.org/x/sys/unix"
)

// mapFile maps a regular file read-only. Reading a plain log through the
// mapping saves the kernel's copy into our buffers, a sixth of the CPU a
// gigabyte log costs; see readPart for what guards against a file that
// shrinks while mapped.
func mapFile(f *os.File) ([]byte, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() || st.Size() <= 0 || st.Size() > math.MaxInt {
		return nil, errors.New("not mappable")
	}
	b, err := unix.Mmap(int(f.Fd()), 0, int(st.Size()), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return nil, err
	}
	_ = unix.Madvise(b, unix.MADV_SEQUENTIAL) // a hint only
	return b, nil
}

func unmapFile(b []byte) { _ = unix.Munmap(b) }

// dropPages lets the kernel take back the mapped pages of b (page aligned),
// already parsed: without it they would count in the resident set until the
// whole file is, a gigabyte. The page cache keeps them.
func dropPages(b []byte) { _ = unix.Madvise(b, unix.MADV_DONTNEED) }
