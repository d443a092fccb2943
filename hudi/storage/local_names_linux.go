package storage

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// listNames lists abs by reading the kernel's directory records in 256 KiB batches (os.ReadDir
// reads 8 KiB at a time and builds a DirEntry per name, then sorts them as interfaces; the
// timeline directory of a long timeline holds 150k names). The paths share one allocation and
// each name is its path's tail. Names come back sorted; types are the records' (lstat only
// where the file system does not give one), so links are not followed, as with os.ReadDir;
// Entry.Regular marks the regular files.
func listNames(abs, dir string) ([]Entry, error) {
	fd, err := openFD(abs, unix.O_RDONLY|unix.O_DIRECTORY)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", abs, err)
	}
	defer unix.Close(fd)
	prefix := DirPrefix(dir)
	// Names go to scratch space (each followed by a NUL), then every path is carved out of one
	// allocation: 150k separate path strings were a quarter of a timeline read's allocations.
	np := nameBufs.Get().(*[]byte)
	defer nameBufs.Put(np)
	names := (*np)[:0]
	const isDir, isRegular = 1, 2
	var kinds []uint8
	var offs []int32 // where each name starts in names
	// A directory's size (ext4: its records' bytes) bounds its names: growing a 5 MB list by
	// appends (1.25× a step) allocated five times that.
	var st unix.Stat_t
	if unix.Fstat(fd, &st) == nil && st.Size > int64(cap(names)) && st.Size <= 64<<20 {
		names = make([]byte, 0, st.Size)
		offs, kinds = make([]int32, 0, st.Size/64), make([]uint8, 0, st.Size/64)
	}
	err = eachDirent(fd, abs, func(name []byte, typ uint8) {
		k := uint8(0)
		switch typ {
		case unix.DT_DIR:
			k = isDir
		case unix.DT_REG:
			k = isRegular
		case unix.DT_UNKNOWN:
			var st unix.Stat_t
			if err := fstatat(fd, string(name), &st, unix.AT_SYMLINK_NOFOLLOW); err == nil {
				switch st.Mode & unix.S_IFMT {
				case unix.S_IFDIR:
					k = isDir
				case unix.S_IFREG:
					k = isRegular
				}
			} else if err == unix.ENOENT {
				return // vanished since it was listed
			}
		}
		offs = append(offs, int32(len(names)))
		names = append(append(names, name...), 0)
		kinds = append(kinds, k)
	})
	if cap(names) <= maxPooledNames {
		*np = names
	}
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", abs, err)
	}
	n := len(kinds)
	offs = append(offs, int32(len(names))) // the end of the last name (and its NUL)
	name := func(i int) []byte { return names[offs[i] : offs[i+1]-1] }
	keys := sortKeys(n, func(i int) string { b := name(i); return unsafe.String(unsafe.SliceData(b), len(b)) })
	// The paths are laid out in sorted order: the timeline reads them in that order (a name
	// parse each), and names in listing (hash) order made each a cache miss.
	block := make([]byte, n*len(prefix)+len(names)-n)
	out := make([]Entry, n)
	// fill lays out keys' paths from block[off:] and describes them in out.
	fill := func(keys []nameKey, off int, out []Entry) {
		for j, k := range keys {
			start := off
			off += copy(block[off:], prefix)
			off += copy(block[off:], name(int(k.i)))
			p := unsafe.String(&block[start], off-start)
			out[j] = Entry{Name: p[len(prefix):], Path: p, IsDir: kinds[k.i] == isDir, Regular: kinds[k.i] == isRegular, Size: -1}
		}
	}
	if n < parallelBuildMin {
		fill(keys, 0, out)
		return out, nil
	}
	// A long timeline's directory (150k names at 50k commits): each name is a cache miss to
	// fetch, so the halves are laid out on two cores, the second from where the first ends.
	half, off := n/2, 0
	for _, k := range keys[:half] {
		off += len(prefix) + int(offs[k.i+1]-offs[k.i]-1)
	}
	var wg sync.WaitGroup
	wg.Go(func() { fill(keys[half:], off, out[half:]) })
	fill(keys[:half], 0, out[:half])
	wg.Wait()
	return out, nil
}

// parallelBuildMin is the entry count from which listNames lays out the paths on two cores.
var parallelBuildMin = 1 << 16

// nameKey is a name's sort key: the 16 bytes after the prefix every name shares, as two
// big-endian numbers (zero past the name's end), and the name's index.
type nameKey struct {
	hi, lo uint64
	i      int32
}

// sortKeys orders n names (name(i)) as strings.Compare does. The names of a timeline
// directory share a long prefix ("2026…") and differ in the next few bytes (the instant time),
// so a radix sort of the first number orders nearly every name; equal keys (one instant's
// files, or names alike for 16 more bytes) compare the names. Sorting 150k names as strings
// was a third of listing them.
func sortKeys(n int, name func(i int) string) []nameKey {
	common := -1
	var first string
	for i := range n {
		nm := name(i)
		if common < 0 {
			first, common = nm, len(nm)
			continue
		}
		common = min(common, len(nm))
		if nm[:common] != first[:common] {
			j := 0
			for j < common && nm[j] == first[j] {
				j++
			}
			common = j
		}
	}
	common = max(common, 0)
	word := func(s string, off int) uint64 {
		var w uint64
		for k := range 8 {
			w <<= 8
			if off+k < len(s) {
				w |= uint64(s[off+k])
			}
		}
		return w
	}
	keys := make([]nameKey, n)
	for i := range keys {
		nm := name(i)
		keys[i] = nameKey{word(nm, common), word(nm, common+8), int32(i)}
	}
	keys = radixByHi(keys)
	// Runs of equal hi (one instant's files, names alike for 8 more bytes) by lo, then name.
	for i := 0; i < len(keys); {
		j := i + 1
		for j < len(keys) && keys[j].hi == keys[i].hi {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(keys[i:j], func(a, b nameKey) int {
				if a.lo != b.lo {
					return cmp.Compare(a.lo, b.lo)
				}
				return strings.Compare(name(int(a.i)), name(int(b.i)))
			})
		}
		i = j
	}
	return keys
}

// radixByHi sorts keys by hi, least significant byte first (stable), skipping the bytes every
// key shares; it may return the scratch copy. Eight linear passes at most, against 2.5M
// comparisons for 150k names.
func radixByHi(keys []nameKey) []nameKey {
	if len(keys) < 64 {
		slices.SortStableFunc(keys, func(a, b nameKey) int { return cmp.Compare(a.hi, b.hi) })
		return keys
	}
	tmp := make([]nameKey, len(keys))
	for shift := uint(0); shift < 64; shift += 8 {
		var count [256]int
		for i := range keys {
			count[byte(keys[i].hi>>shift)]++
		}
		if count[byte(keys[0].hi>>shift)] == len(keys) {
			continue // one value for this byte: already in order
		}
		pos := 0
		for b := range count {
			c := count[b]
			count[b] = pos
			pos += c
		}
		for _, k := range keys {
			b := byte(k.hi >> shift)
			tmp[count[b]] = k
			count[b]++
		}
		keys, tmp = tmp, keys
	}
	return keys
}

// listNameBlock lists abs as a NameBlock: the names are copied into chunks of up to 1 MiB (a
// string each is a third of a timeline listing's memory, and one growing block would be
// copied as it grows), and sorted by sortKeys. Types are the records', as listNames'.
func listNameBlock(abs string) (NameBlock, error) {
	fd, err := openFD(abs, unix.O_RDONLY|unix.O_DIRECTORY)
	if err != nil {
		return NameBlock{}, fmt.Errorf("list %s: %w", abs, err)
	}
	defer unix.Close(fd)
	var b NameBlock
	var chunk []byte
	// The names are gathered in parts and copied into one slice of the right length at the
	// end: appending to one slice (growing by a quarter past 256 entries) allocated five
	// times its final size on the way (48 MB for 600k names).
	var parts [][]string
	part, total := make([]string, 0, 1<<10), 0
	err = eachDirent(fd, abs, func(name []byte, typ uint8) {
		isDir, isRegular := typ == unix.DT_DIR, typ == unix.DT_REG
		if typ == unix.DT_UNKNOWN {
			var st unix.Stat_t
			if err := fstatat(fd, string(name), &st, unix.AT_SYMLINK_NOFOLLOW); err == nil {
				isDir, isRegular = st.Mode&unix.S_IFMT == unix.S_IFDIR, st.Mode&unix.S_IFMT == unix.S_IFREG
			} else if err == unix.ENOENT {
				return // vanished since it was listed
			}
		}
		if len(chunk)+len(name) > cap(chunk) {
			// Doubling from 4 KiB: a small folder does not keep a mostly empty chunk.
			chunk = make([]byte, 0, max(min(2*cap(chunk), nameChunk), min(4<<10, nameChunk), len(name)))
		}
		// The chunk never grows past its capacity, so its bytes never move: the string
		// stays valid while later names are appended.
		start := len(chunk)
		chunk = append(chunk, name...)
		n := unsafe.String(&chunk[start], len(name))
		if len(part) == cap(part) {
			parts, part = append(parts, part), make([]string, 0, min(2*cap(part), 1<<16))
		}
		part, total = append(part, n), total+1
		if isDir {
			if b.Dirs == nil {
				b.Dirs = map[string]bool{}
			}
			b.Dirs[n] = true
		} else if !isRegular {
			if b.Irregular == nil {
				b.Irregular = map[string]bool{}
			}
			b.Irregular[n] = true
		}
	})
	if err != nil {
		return NameBlock{}, fmt.Errorf("list %s: %w", abs, err)
	}
	names := make([]string, 0, total)
	for _, p := range append(parts, part) {
		names = append(names, p...)
	}
	b.Names = make([]string, len(names))
	for j, k := range sortKeys(len(names), func(i int) string { return names[i] }) {
		b.Names[j] = names[k.i]
	}
	return b, nil
}

// nameChunk is the size of listNameBlock's name chunks (a variable for tests).
var nameChunk = 1 << 20

// direntBufs recycles eachDirent's buffers: a fresh zeroed 256 KiB per directory was a third
// of the bytes a 1000-partition listing allocated.
var direntBufs = sync.Pool{New: func() any { b := make([]byte, 256<<10); return &b }}

// eachDirent calls f with every name (but . and ..) and its d_type in the open directory fd,
// reading the kernel's records in 256 KiB batches.
func eachDirent(fd int, abs string, f func(name []byte, typ uint8)) error {
	bp := direntBufs.Get().(*[]byte)
	defer direntBufs.Put(bp)
	buf := *bp
	for {
		n, err := unix.Getdents(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return &os.PathError{Op: "readdirent", Path: abs, Err: err}
		}
		if n <= 0 {
			return nil
		}
		for rec := buf[:n]; len(rec) >= 19; {
			// struct linux_dirent64: ino u64, off s64, reclen u16, type u8, name NUL-terminated.
			reclen := int(binary.NativeEndian.Uint16(rec[16:18]))
			if reclen < 19 || reclen > len(rec) {
				return &os.PathError{Op: "readdirent", Path: abs, Err: errors.New("malformed directory record")}
			}
			typ, name := rec[18], rec[19:reclen]
			rec = rec[reclen:]
			if i := slices.Index(name, 0); i >= 0 {
				name = name[:i]
			}
			if len(name) == 0 || string(name) == "." || string(name) == ".." {
				continue
			}
			f(name, typ)
		}
	}
}

// readDirPaths lists prefix+name for every name in the open directory f (unsorted), 256 KiB
// of records a call (os.File.Readdirnames reads 8 KiB: 25k calls for a million-file table).
// All the paths share one allocation, each followed by a NUL byte (for fstatatPath): a
// million-file view keeps every path, and a million small strings were a fifth of the
// listing's own CPU time (allocation and marking).
func readDirPaths(f *os.File, prefix string) ([]string, error) {
	np := nameBufs.Get().(*[]byte)
	defer nameBufs.Put(np)
	names, n := (*np)[:0], 0 // each name and a NUL
	err := eachDirent(int(f.Fd()), f.Name(), func(name []byte, _ uint8) {
		names = append(append(names, name...), 0)
		n++
	})
	if cap(names) <= maxPooledNames {
		*np = names
	}
	if n == 0 {
		return nil, err
	}
	return joinAll(prefix, names, n), err
}

// joinAll returns prefix+name for each of the n NUL-terminated names, all carved out of one
// allocation in which each path is followed by a NUL byte (for fstatatPath).
func joinAll(prefix string, names []byte, n int) []string {
	block := make([]byte, n*len(prefix)+len(names)) // zeroed: the NULs are in place
	paths := make([]string, 0, n)
	off := 0
	for rest := names; len(rest) > 0; {
		i := bytes.IndexByte(rest, 0)
		start := off
		off += copy(block[off:], prefix)
		off += copy(block[off:], rest[:i])
		paths = append(paths, unsafe.String(&block[start], off-start))
		off++ // the NUL
		rest = rest[i+1:]
	}
	return paths
}

// maxPooledNames: a larger name scratch (a timeline directory's, megabytes) is left to the
// collector rather than kept for the next listing.
const maxPooledNames = 1 << 20

// nameBufs recycles listNames' and readDirPaths' scratch space.
var nameBufs = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}
