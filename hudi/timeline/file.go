package timeline

import (
	"context"
	"math"
	"strings"
	"time"

	"github.com/hudiscope/hudiscope/hudi/storage"
)

// File is one of an instant's timeline files as the listing described it. It keeps what
// readers need in 40 bytes; the path is derived (Instant.FilePath). A storage.Entry is 96
// bytes and its path a string of its own: at 200k instants (600k files) the entries and paths
// were ~90 MB of the explorer's live heap.
type File struct {
	// Name is the base name. The names of one timeline share one allocation.
	Name string
	// Size is the listed size, -1 when the listing did not say (a name-only listing).
	Size int64
	// sec and nsec are the modification time; nsec also holds the flags below.
	sec  int64
	nsec uint32
	// prec is the modification time's precision in ns, or, when negative, in -seconds.
	prec int32
	// regular: the listing saw a regular file (storage.Entry.Regular), so a local read may
	// open it without a stat first.
	regular bool
}

const (
	fileHasTime = 1 << 31 // the listing gave a modification time
	fileIsDir   = 1 << 30 // the entry is a directory (read as a problem)
	fileNsMask  = fileIsDir - 1
)

// newFile keeps what File holds of a listing entry, with its name as given.
func newFile(e storage.Entry, name string) File {
	f := File{Name: name, Size: e.Size, regular: e.Regular}
	if !e.ModTime.IsZero() {
		f.sec, f.nsec = e.ModTime.Unix(), uint32(e.ModTime.Nanosecond())|fileHasTime
	}
	if e.IsDir {
		f.nsec |= fileIsDir
	}
	switch p := e.ModTimePrecision; {
	case p <= math.MaxInt32:
		f.prec = int32(p)
	case p/time.Second < math.MaxInt32:
		f.prec = -int32(p / time.Second) // every precision past 2.1 s is whole seconds (zip: 2 s)
	default:
		f.prec = math.MinInt32
	}
	return f
}

// ModTime is the listed modification time (zero when the listing did not say).
func (f File) ModTime() time.Time {
	if f.nsec&fileHasTime == 0 {
		return time.Time{}
	}
	return time.Unix(f.sec, int64(f.nsec&fileNsMask))
}

// ModTimePrecision is storage.Entry.ModTimePrecision of the listed entry.
func (f File) ModTimePrecision() time.Duration {
	if f.prec < 0 {
		return time.Duration(-int64(f.prec)) * time.Second
	}
	return time.Duration(f.prec)
}

// IsDir reports whether the listed entry was a directory.
func (f File) IsDir() bool { return f.nsec&fileIsDir != 0 }

// FilePath is the table-relative path of one of the instant's Files.
func (i *Instant) FilePath(f File) string {
	if i.dir == nil || *i.dir == "" {
		return f.Name
	}
	return *i.dir + "/" + f.Name
}

// entry is f as a listing entry again (a refresh merges carried files into a new listing).
func (i *Instant) entry(f File) storage.Entry {
	return storage.Entry{Name: f.Name, Path: i.FilePath(f), Size: f.Size, ModTime: f.ModTime(),
		ModTimePrecision: f.ModTimePrecision(), IsDir: f.IsDir(), Regular: f.regular}
}

// canonAction is a known action as its constant, so an instant does not keep the listed name
// it was cut from alive.
func canonAction(a string) string {
	switch a {
	case ActionCommit:
		return ActionCommit
	case ActionDeltaCommit:
		return ActionDeltaCommit
	case ActionReplaceCommit:
		return ActionReplaceCommit
	case ActionClustering:
		return ActionClustering
	case ActionCompaction:
		return ActionCompaction
	case ActionLogCompaction:
		return ActionLogCompaction
	case ActionClean:
		return ActionClean
	case ActionRollback:
		return ActionRollback
	case ActionRestore:
		return ActionRestore
	case ActionSavepoint:
		return ActionSavepoint
	case ActionIndexing:
		return ActionIndexing
	case ActionSchemaCommit:
		return ActionSchemaCommit
	}
	return a
}

// listing is the timeline folder as listed: a NameBlock where the backend has one (local
// disk), else entries.
type listing struct {
	entries []storage.Entry
	block   *storage.NameBlock
	dir     string
	// stat holds entries of block names that were stat-ed (derived completion times).
	stat map[int]storage.Entry
}

// listTimeline lists the timeline folder, as names alone where the backend can.
func (r *Reader) listTimeline(ctx context.Context) (*listing, error) {
	dir := r.Config.TimelineDir
	b, ok, err := storage.ListNameBlock(ctx, r.Store, dir)
	if ok {
		d := strings.TrimSuffix(storage.DirPrefix(dir), "/") // as the backends make paths
		return &listing{block: &b, dir: d}, err
	}
	entries, err := storage.ListNames(ctx, r.Store, dir)
	return &listing{entries: entries}, err
}

func (l *listing) len() int {
	if l.block != nil {
		return len(l.block.Names)
	}
	return len(l.entries)
}

func (l *listing) name(i int) string {
	if l.block != nil {
		return l.block.Names[i]
	}
	return l.entries[i].Name
}

// entry is entry i; for a name block its Path is left empty (see path).
func (l *listing) entry(i int) storage.Entry {
	if l.block == nil {
		return l.entries[i]
	}
	if e, ok := l.stat[i]; ok {
		return e
	}
	n := l.block.Names[i]
	dir := l.block.Dirs[n]
	return storage.Entry{Name: n, Size: -1, IsDir: dir, Regular: !dir && !l.block.Irregular[n]}
}

// path is entry i's table-relative path.
func (l *listing) path(i int) string {
	if l.block == nil {
		return l.entries[i].Path
	}
	return joinDir(l.dir, l.block.Names[i])
}

// set replaces entry i (after a Stat).
func (l *listing) set(i int, e storage.Entry) {
	if l.block == nil {
		l.entries[i] = e
		return
	}
	if l.stat == nil {
		l.stat = map[int]storage.Entry{}
	}
	l.stat[i] = e
}

// entryDir is the folder of entry i: its path without the name.
func (l *listing) entryDir(i int) string {
	if l.block != nil {
		return l.dir
	}
	e := l.entries[i]
	if len(e.Path) > len(e.Name) && strings.HasSuffix(e.Path, e.Name) {
		return strings.TrimSuffix(e.Path[:len(e.Path)-len(e.Name)], "/")
	}
	return ""
}

func joinDir(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// keepFiles sets each instant's Files from the listing: span(j) is the range of entries
// instant j's files lie in and how many there are. The listing is sorted by name, so they are
// usually adjacent; when another instant's file falls between (two actions at one instant
// time), the instant's own are picked, in listing order. Names of a name block are kept as
// they are (they share its chunks); names of listed entries are copied into one block, and the
// instants' requested and completion times are re-pointed into it, so nothing keeps the
// listing (an Entry and a path string per file) alive.
func keepFiles(ins []*Instant, ls *listing, span func(j int) (lo, hi, n int32)) {
	nFiles, nBytes := 0, 0
	for j, in := range ins {
		lo, hi, n := span(j)
		for i := int(lo); i <= int(hi); i++ {
			if hi-lo+1 == n || ownFile(in, ls, i) {
				nFiles, nBytes = nFiles+1, nBytes+len(ls.name(i))
			}
		}
	}
	files := make([]File, 0, nFiles)
	// Grown once to the full size, the builder never moves its bytes: a name taken from
	// String() stays valid while later names are appended.
	var names strings.Builder
	if ls.block == nil {
		names.Grow(nBytes)
	}
	var dir *string
	for j, in := range ins {
		lo, hi, n := span(j)
		start := len(files)
		for i := int(lo); i <= int(hi); i++ {
			if hi-lo+1 != n && !ownFile(in, ls, i) {
				continue
			}
			name := ls.name(i)
			if ls.block == nil {
				names.WriteString(name)
				all := names.String()
				name = all[len(all)-len(name):]
			}
			files = append(files, newFile(ls.entry(i), name))
			if d := ls.entryDir(i); dir == nil || d != *dir {
				nd := strings.Clone(d) // not a slice of the path
				dir = &nd
			}
		}
		in.Files = files[start:len(files):len(files)] // full capacity: an append copies
		in.dir = dir
		ts, ct := in.RequestedTime, in.CompletionTime
		for _, f := range in.Files {
			in.RequestedTime = f.Name[:len(ts)] // every file of the instant starts with it
			if !in.CompletionDerived && ct != "" && len(f.Name) > len(ts)+len(ct) && f.Name[len(ts)] == '_' && f.Name[len(ts)+1:len(ts)+1+len(ct)] == ct {
				in.CompletionTime = f.Name[len(ts)+1 : len(ts)+1+len(ct)]
			}
		}
	}
}

// ownFile reports whether listed file i, within the span of in's files, is one of them: an
// instant file of the same requested time and action family.
func ownFile(in *Instant, ls *listing, i int) bool {
	f, ok := ParseInstantFileName(ls.name(i))
	return ok && ls.entry(i).Err == nil && f.RequestedTime == in.RequestedTime && family(f.Action) == family(in.Action)
}
