package storage

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"time"
)

// Zip reads a table packed in a zip archive whose single top-level folder is the table
// (the layout of the shared fixtures); `__MACOSX/` and `.DS_Store` are ignored. Stored
// (uncompressed) members are read in place; compressed members are decompressed into memory
// on open, which suits the small metadata files and fixtures it is meant for, and never past
// the read ceiling whatever size the archive declares (a zip bomb is ErrTooLarge).
type Zip struct {
	path     string
	f        *os.File
	size     int64                // of the archive
	maxRead  int64                // decompression ceiling (Options.MaxReadBytes)
	entries  map[string]Entry     // by relative path
	children map[string][]Entry   // dir → sorted children
	files    map[string]*zip.File // by relative path
}

// OpenZip opens a zip archive as a table root.
func OpenZip(p string) (*Zip, error) {
	lf, err := openRegular(p)
	if err != nil {
		return nil, wrapOpen(p, err)
	}
	f := lf.File
	zr, err := zip.NewReader(f, lf.size)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("read zip %s: %w", p, err)
	}
	z := &Zip{path: p, f: f, size: lf.size, maxRead: DefaultMaxReadBytes, entries: map[string]Entry{}, children: map[string][]Entry{}, files: map[string]*zip.File{}}
	prefix := zipPrefix(zr.File)
	for _, zf := range zr.File {
		name := strings.TrimPrefix(zf.Name, "./")
		if skipZipName(name) || !strings.HasPrefix(name, prefix) {
			continue
		}
		rel := strings.TrimSuffix(strings.TrimPrefix(name, prefix), "/")
		if rel == "" {
			continue
		}
		isDir := strings.HasSuffix(zf.Name, "/")
		z.add(Entry{Name: path.Base(rel), Path: rel, Size: int64(zf.UncompressedSize64), ModTime: zf.Modified,
			ModTimePrecision: zipTimePrecision(zf.Extra), IsDir: isDir})
		if !isDir {
			z.files[rel] = zf
		}
	}
	for d := range z.children {
		c := z.children[d]
		sort.Slice(c, func(i, j int) bool { return c[i].Name < c[j].Name })
	}
	return z, nil
}

// zipPrefix finds the single top-level folder, if the archive has one.
func zipPrefix(files []*zip.File) string {
	top := ""
	for _, zf := range files {
		name := strings.TrimPrefix(zf.Name, "./")
		if skipZipName(name) {
			continue
		}
		i := strings.Index(name, "/")
		if i < 0 {
			return "" // a file at top level: the archive root is the table
		}
		if top == "" {
			top = name[:i]
		} else if top != name[:i] {
			return ""
		}
	}
	if top == "" || top == ".hoodie" {
		return ""
	}
	return top + "/"
}

// zipTimePrecision is the precision of the time archive/zip reports for a member: the
// extra field it takes the time from (NTFS 100ns; extended timestamp and Info-ZIP Unix 1s),
// else the DOS field, kept to 2 s.
func zipTimePrecision(extra []byte) time.Duration {
	best := PrecisionZipDOS
	for len(extra) >= 4 {
		id := binary.LittleEndian.Uint16(extra)
		n := int(binary.LittleEndian.Uint16(extra[2:]))
		if 4+n > len(extra) {
			break
		}
		switch id {
		case 0x000a: // NTFS
			best = min(best, 100*time.Nanosecond)
		case 0x5455, 0x5855, 0x000d: // extended timestamp, Info-ZIP Unix, PKWARE Unix
			best = min(best, time.Second)
		}
		extra = extra[4+n:]
	}
	return best
}

func skipZipName(name string) bool {
	return strings.HasPrefix(name, "__MACOSX/") || path.Base(strings.TrimSuffix(name, "/")) == ".DS_Store"
}

// add records an entry and every parent directory implied by its path.
func (z *Zip) add(e Entry) {
	if old, ok := z.entries[e.Path]; ok {
		if old.IsDir && e.IsDir {
			return
		}
	}
	_, existed := z.entries[e.Path]
	z.entries[e.Path] = e
	if existed {
		return
	}
	parent := path.Dir(e.Path)
	if parent == "." {
		parent = ""
	}
	z.children[parent] = append(z.children[parent], e)
	if parent != "" {
		if _, ok := z.entries[parent]; !ok {
			z.add(Entry{Name: path.Base(parent), Path: parent, IsDir: true, ModTime: e.ModTime, ModTimePrecision: e.ModTimePrecision})
		}
	}
}

func (z *Zip) Root() string { return z.path }

func (z *Zip) List(_ context.Context, dir string) ([]Entry, error) {
	dir = strings.Trim(dir, "/")
	if dir != "" {
		if e, ok := z.entries[dir]; !ok || !e.IsDir {
			return nil, fmt.Errorf("list %s!/%s: %w", z.path, dir, ErrNotExist)
		}
	}
	c := z.children[dir]
	out := make([]Entry, len(c))
	for i, e := range c {
		out[i] = z.entries[e.Path] // the map holds the final form of a re-added dir
	}
	return out, nil
}

func (z *Zip) Stat(_ context.Context, p string) (Entry, error) {
	e, ok := z.entries[strings.Trim(p, "/")]
	if !ok {
		return Entry{}, fmt.Errorf("stat %s!/%s: %w", z.path, p, ErrNotExist)
	}
	return e, nil
}

type memFile struct{ *bytes.Reader }

func (memFile) Close() error { return nil }

// sectionFile is a stored member read in place from the archive.
type sectionFile struct{ *io.SectionReader }

func (sectionFile) Close() error { return nil }

// Open serves a stored member straight from the archive (no copy, any size) and decompresses
// a compressed one into memory under the read ceiling, as ReadFile does: ranged readers of
// a member bigger than --max-read-size need it raised (or the table unzipped).
func (z *Zip) Open(ctx context.Context, p string) (File, error) {
	zf, err := z.member("open", p)
	if err != nil {
		return nil, err
	}
	if zf.Method == zip.Store && zf.CompressedSize64 == zf.UncompressedSize64 {
		if off, err := zf.DataOffset(); err == nil && off >= 0 && zf.CompressedSize64 <= uint64(z.size-off) {
			return sectionFile{io.NewSectionReader(z.f, off, int64(zf.CompressedSize64))}, nil
		}
	}
	b, err := z.ReadFile(ctx, p)
	if err != nil {
		return nil, err
	}
	return memFile{bytes.NewReader(b)}, nil
}

func (z *Zip) member(op, p string) (*zip.File, error) {
	zf, ok := z.files[strings.Trim(p, "/")]
	if !ok {
		if e, ok := z.entries[strings.Trim(p, "/")]; ok && e.IsDir {
			return nil, notRegular(op, z.path+"!/"+p, fs.ModeDir)
		}
		return nil, fmt.Errorf("%s %s!/%s: %w", op, z.path, p, ErrNotExist)
	}
	if m := zf.Mode(); !m.IsRegular() {
		return nil, notRegular(op, z.path+"!/"+p, m)
	}
	return zf, nil
}

// ReadFile decompresses a member. The declared size only refuses early; the limited read
// is what bounds memory, since a header can understate what its stream inflates to.
func (z *Zip) ReadFile(_ context.Context, p string) ([]byte, error) {
	zf, err := z.member("read", p)
	if err != nil {
		return nil, err
	}
	name := z.path + "!/" + strings.Trim(p, "/")
	if zf.UncompressedSize64 > uint64(z.maxRead) {
		return nil, TooLarge(name, int64(min(zf.UncompressedSize64, 1<<62)), z.maxRead)
	}
	rc, err := zf.Open()
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	defer rc.Close()
	b, err := ReadLimited(rc, name, 0, z.maxRead)
	switch {
	case err == nil || errors.Is(err, ErrTooLarge):
		return b, err
	case errors.Is(err, zip.ErrFormat):
		// Mid-stream, archive/zip means this only when a member inflates past its declared
		// size, where it stops: say so, not just "not a valid zip file".
		return nil, fmt.Errorf("read %s: inflates past its declared size of %d bytes (corrupt or hostile archive): %w",
			name, zf.UncompressedSize64, err)
	}
	return nil, fmt.Errorf("read %s: %w", name, err)
}

// Close releases the archive.
func (z *Zip) Close() error { return z.f.Close() }
