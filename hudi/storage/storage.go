// Package storage is the read-only file access under every Hudi reader: one small interface
// with backends for local directories and zip archives (S3 and HDFS plug in behind it).
// There is no write method anywhere in this package, by design.
package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// ErrNotExist is returned (wrapped) when a path does not exist.
var ErrNotExist = fs.ErrNotExist

// Entry describes one file or directory. Name is the base name; Path is relative to the root,
// slash-separated.
type Entry struct {
	Name    string
	Path    string
	Size    int64
	ModTime time.Time
	// ModTimePrecision is how finely the source keeps ModTime (truncated, so the true time is
	// in [ModTime, ModTime+precision)): local disk 1ns, HDFS 1ms, S3 1s, zip 2s (DOS field) or
	// 1s (extended timestamp). 0: the backend does not say.
	ModTimePrecision time.Duration
	IsDir            bool
	// Regular: the listing saw a regular file itself (not a link or a special file), so a
	// reader may open it without stat-ing the name first (ReadEntryBuf); it still checks the
	// opened descriptor. False when the listing does not say.
	Regular bool
	// Err is set when the entry was listed but could not be described (Size is then -1).
	Err error
}

// Modification-time precisions the backends report.
const (
	PrecisionLocal  = time.Nanosecond
	PrecisionHDFS   = time.Millisecond
	PrecisionS3     = time.Second
	PrecisionZipDOS = 2 * time.Second
)

// File is an open file that supports ranged reads (parquet footers, log-block headers).
type File interface {
	io.ReaderAt
	io.Closer
	Size() int64
}

// Storage is a read-only view of one table root. Paths are slash-separated and relative to
// the root; "" is the root itself.
type Storage interface {
	// Root names the root for messages (a directory, zip path or URI).
	Root() string
	// List returns the direct children of dir, sorted by name. A missing dir is ErrNotExist.
	List(ctx context.Context, dir string) ([]Entry, error)
	// Stat describes one path.
	Stat(ctx context.Context, p string) (Entry, error)
	// Open opens a file for ranged reads.
	Open(ctx context.Context, p string) (File, error)
	// ReadFile reads a whole file, at most Options.MaxReadBytes (else ErrTooLarge).
	ReadFile(ctx context.Context, p string) ([]byte, error)
}

// Options configure the remote backends. They travel with every Open as a value, so two
// tables (or a table and an event log) opened with different settings never share state.
type Options struct {
	// S3Endpoint is the base URL of an S3-compatible store (MinIO, Ceph, LocalStack); it
	// implies path-style addressing. Empty means AWS (or AWS_ENDPOINT_URL_S3).
	S3Endpoint string
	// S3Region overrides bucket-region discovery.
	S3Region string
	// HadoopConfDir holds core-site.xml and hdfs-site.xml (default: $HADOOP_CONF_DIR,
	// $HADOOP_HOME/etc/hadoop, /etc/hadoop/conf); HadoopUser is the HDFS user for simple
	// authentication (default: $HADOOP_USER_NAME, then the OS user).
	HadoopConfDir string
	HadoopUser    string
	// Log receives SDK and client logs; nil discards them (they would corrupt the TUI).
	Log io.Writer
	// HTTPClient replaces the HTTP client of HTTP-based backends (fault-injecting tests).
	HTTPClient *http.Client
	// MaxBackoff caps the delay between retries (0: the backend's default).
	MaxBackoff time.Duration
	// MaxReadBytes is the ceiling of one ReadFile (instants, properties, plans) and of a
	// zip member decompressed for Open; over it is ErrTooLarge (0: DefaultMaxReadBytes).
	MaxReadBytes int64
	// Timeout is the no-progress deadline of remote calls: connecting, the first byte of
	// an answer, and each wait for more of a body; past it is ErrNoProgress (0:
	// DefaultTimeout).
	Timeout time.Duration
}

// Open picks the backend for a table location: a registered URI scheme, a `.zip` archive or
// a local directory.
func Open(location string, o Options) (Storage, error) {
	if opener, ok := schemeOpener(location); ok {
		return opener(location, o)
	}
	if strings.Contains(location, "://") {
		return nil, fmt.Errorf("open %s: no storage backend for this scheme", location)
	}
	loc := strings.TrimPrefix(location, "file:")
	if strings.HasSuffix(strings.ToLower(loc), ".zip") {
		z, err := OpenZip(loc)
		if err != nil {
			return nil, err
		}
		z.maxRead = o.ReadLimit()
		return z, nil
	}
	l, err := OpenLocal(loc)
	if err != nil {
		return nil, err
	}
	l.maxRead = o.ReadLimit()
	return l, nil
}

// Opener opens a location of one URI scheme.
type Opener func(location string, o Options) (Storage, error)

var openers = map[string]Opener{}

// Register adds a backend for a URI scheme such as "s3"; called from backend packages' init.
func Register(scheme string, o Opener) { openers[scheme] = o }

func schemeOpener(location string) (Opener, bool) {
	i := strings.Index(location, "://")
	if i <= 0 {
		return nil, false
	}
	o, ok := openers[strings.ToLower(location[:i])]
	return o, ok
}

// Join joins slash paths relative to a root, never producing a leading slash.
func Join(elem ...string) string {
	return strings.TrimPrefix(path.Join(elem...), "/")
}

// DirPrefix is what the entries listed in dir have before their names: the cleaned dir and a
// slash, or "" for the root.
func DirPrefix(dir string) string {
	if p := Join(dir); p != "." && p != "" {
		return p + "/"
	}
	return ""
}

// IsNotExist reports whether err means the path is missing.
func IsNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }

// ReadAll reads a whole File; used by backends whose ReadFile is Open + read. The caller
// checks f.Size() against its ceiling first.
func ReadAll(f File) ([]byte, error) {
	buf := make([]byte, f.Size())
	n, err := f.ReadAt(buf, 0)
	if err == io.EOF && int64(n) == f.Size() {
		err = nil
	}
	return buf[:n], err
}

// NameLister is implemented by backends where listing names is much cheaper than listing with
// sizes and times (local disk: one getdents instead of an lstat per file). Entries carry Name,
// Path and IsDir only; callers Stat the few files whose size or time they need.
type NameLister interface {
	ListNames(ctx context.Context, dir string) ([]Entry, error)
}

// ListNames lists a directory through NameLister when the backend has it, else through List.
func ListNames(ctx context.Context, s Storage, dir string) ([]Entry, error) {
	if nl, ok := s.(NameLister); ok {
		return nl.ListNames(ctx, dir)
	}
	return s.List(ctx, dir)
}

// NameBlock is a folder's names, sorted, without sizes or times. The names share a few large
// allocations: a timeline folder of 600k files is ~35 MB this way, ~90 MB as Entries with a
// path string each.
type NameBlock struct {
	// Names are the base names, sorted.
	Names []string
	// Dirs holds the names that are directories (nil when there are none).
	Dirs map[string]bool
	// Irregular holds the names that are neither directories nor regular files — links,
	// special files, types the listing could not tell (nil when there are none). Every other
	// name was listed as a regular file (see Entry.Regular).
	Irregular map[string]bool
}

// BlockLister is implemented by backends that can list a folder's names as a NameBlock; ok is
// false when this one cannot (a wrapper over a backend that has no such listing).
type BlockLister interface {
	ListNameBlock(ctx context.Context, dir string) (b NameBlock, ok bool, err error)
}

// ListNameBlock lists dir as a NameBlock when the backend can (ok), else the caller lists it
// through ListNames. A missing dir is ErrNotExist.
func ListNameBlock(ctx context.Context, s Storage, dir string) (NameBlock, bool, error) {
	if bl, ok := s.(BlockLister); ok {
		return bl.ListNameBlock(ctx, dir)
	}
	return NameBlock{}, false, nil
}

// BufferReader is implemented by backends that can read a whole file into the caller's buffer:
// a reader of many small files (50k instant files of a few KB) reuses one buffer per worker
// instead of allocating each file anew. The result may alias buf; it is only valid until buf
// is used again, so callers copy out what they keep.
type BufferReader interface {
	ReadFileBuf(ctx context.Context, p string, buf []byte) ([]byte, error)
}

// ReadFileBuf reads p through BufferReader when the backend has it, else through ReadFile.
func ReadFileBuf(ctx context.Context, s Storage, p string, buf []byte) ([]byte, error) {
	if br, ok := s.(BufferReader); ok {
		return br.ReadFileBuf(ctx, p, buf)
	}
	return s.ReadFile(ctx, p)
}

// EntryReader is a BufferReader that also takes what a listing said about the file: on local
// disk, a name listed as a regular file is opened without a stat of the name first (a lookup
// in a 150k-entry timeline directory is half the cost of reading a small instant file).
type EntryReader interface {
	ReadEntryBuf(ctx context.Context, e Entry, buf []byte) ([]byte, error)
}

// ReadEntryBuf reads the listed file e through EntryReader when the backend has it, else as
// ReadFileBuf(e.Path).
func ReadEntryBuf(ctx context.Context, s Storage, e Entry, buf []byte) ([]byte, error) {
	if er, ok := s.(EntryReader); ok {
		return er.ReadEntryBuf(ctx, e, buf)
	}
	return ReadFileBuf(ctx, s, e.Path, buf)
}

// DirReader reads listed files of one directory (ReadEntryBuf's contract) until closed.
type DirReader interface {
	ReadEntryBuf(ctx context.Context, e Entry, buf []byte) ([]byte, error)
	Close() error
}

// DirOpener is implemented by backends for which reading many files of one directory through a
// handle on it is cheaper (local disk: each open resolves one name in the open directory, not
// the whole path, and no absolute path is built per file).
type DirOpener interface {
	OpenDir(ctx context.Context, dir string) (DirReader, error)
}

// OpenDir returns a reader of dir's listed files: the backend's when it has one (and dir
// opens), else ReadEntryBuf on s. Entries of other directories are read by path either way.
func OpenDir(ctx context.Context, s Storage, dir string) DirReader {
	if o, ok := s.(DirOpener); ok {
		if d, err := o.OpenDir(ctx, dir); err == nil {
			return d
		}
	}
	return storeDir{s}
}

type storeDir struct{ s Storage }

func (d storeDir) ReadEntryBuf(ctx context.Context, e Entry, buf []byte) ([]byte, error) {
	return ReadEntryBuf(ctx, d.s, e, buf)
}

func (storeDir) Close() error { return nil }

// Escapes says why a root-relative path taken from table files could lead outside the root
// (absolute, a volume, or ".." once cleaned); "" when it cannot.
func Escapes(p string) string {
	if strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) || filepath.IsAbs(p) || filepath.VolumeName(p) != "" {
		return "absolute path"
	}
	if strings.ContainsRune(p, 0) {
		return "NUL in path"
	}
	if !strings.Contains(p, "..") {
		return "" // no ".." element possible: skip the cleaning, which allocates (every local read asks)
	}
	for _, el := range strings.Split(path.Clean(strings.ReplaceAll(p, `\`, "/")), "/") {
		if el == ".." {
			return "leads outside the table root (..)"
		}
	}
	return ""
}

// kind names a non-regular file's type for errors.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeIrregular != 0:
		return "an irregular file"
	}
	return "not a regular file"
}

// ErrNotRegular is returned (wrapped) when a file is expected and something else is there.
var ErrNotRegular = errors.New("not a regular file")

func notRegular(op, p string, m fs.FileMode) error {
	return fmt.Errorf("%s %s: is %s, not a regular file: %w", op, p, kind(m), ErrNotRegular)
}
