// Package source finds the files that make up one Spark application's event
// log: a single file, a rolling eventlog_v2_* directory, a Databricks rolled
// folder, or a Spark History Server download. Storage is behind Opener so the
// S3 and HDFS backends can plug in.
package source

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
)

// Entry is one directory entry or stat result.
type Entry struct {
	Name  string // base name
	Size  int64
	IsDir bool
}

// Opener is the storage an event log is read from.
type Opener interface {
	Open(path string) (io.ReadCloser, error)
	// List returns the direct children of dir.
	List(dir string) ([]Entry, error)
	Stat(path string) (Entry, error)
	// Join builds a child path (storage-specific separator).
	Join(dir, name string) string
}

// Local reads from the local file system.
type Local struct{}

// Open implements Opener. Only regular files are opened: a FIFO would block the open
// until a writer appears (no ctrl+c could end it) and a device never ends. The type is
// checked before opening and again on the descriptor, opened non-blocking, in case the
// path changed between.
func (Local) Open(p string) (io.ReadCloser, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, notRegular(p, st.Mode())
	}
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if st, err = f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = notRegular(p, st.Mode())
		}
		return nil, err
	}
	return f, nil
}

// ErrNotRegular is returned (wrapped) for an event log path that is neither a regular file
// nor a directory.
var ErrNotRegular = errors.New("not a regular file")

func notRegular(p string, m fs.FileMode) error {
	what := "not a regular file"
	switch {
	case m.IsDir():
		what = "a directory"
	case m&fs.ModeNamedPipe != 0:
		what = "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		what = "a socket"
	case m&fs.ModeCharDevice != 0:
		what = "a character device"
	case m&fs.ModeDevice != 0:
		what = "a block device"
	}
	return fmt.Errorf("%s is %s; an event log must be a regular file or a directory of them (copy a stream to a file first): %w", p, what, ErrNotRegular)
}

// Join implements Opener.
func (Local) Join(dir, name string) string { return filepath.Join(dir, name) }

// Stat implements Opener.
func (Local) Stat(p string) (Entry, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return Entry{}, err
	}
	if !fi.IsDir() && !fi.Mode().IsRegular() {
		return Entry{}, notRegular(p, fi.Mode())
	}
	return Entry{Name: fi.Name(), Size: fi.Size(), IsDir: fi.IsDir()}, nil
}

// List implements Opener.
func (Local) List(dir string) ([]Entry, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := make([]Entry, 0, len(des))
	for _, d := range des {
		e := Entry{Name: d.Name(), IsDir: d.IsDir()}
		if fi, err := d.Info(); err == nil {
			e.Size = fi.Size()
			e.IsDir = fi.IsDir()
		}
		out = append(out, e)
	}
	return out, nil
}

// Part is one file of an event log, in reading order.
type Part struct {
	Path  string
	Name  string
	Size  int64
	Index int64 // rolling index (events_<N>_…), 0 for single files
}

// Layout names how the parts were found.
type Layout string

// Layouts.
const (
	LayoutFile       Layout = "file"
	LayoutRolling    Layout = "rolling"    // eventlog_v2_<app>/events_<N>_<app>
	LayoutDatabricks Layout = "databricks" // eventlog-YYYY-MM-DD--HH-MM.gz … + eventlog
)

// Log is a resolved event log.
type Log struct {
	Path   string
	Layout Layout
	Parts  []Part
	// InProgress is true when the name or the rolling appstatus file says the
	// application was still running (or died) when the log was copied.
	InProgress bool
	// Compacted is true when reading starts at a History Server .compact file:
	// task-level detail for the jobs inside it is gone.
	Compacted bool
	Notes     []string
}

// ErrNoLog is returned when a path holds no event log.
var ErrNoLog = errors.New("no event log files found")

// MultipleLogsError is returned for a directory holding several applications'
// logs (HoodieSparkEventLogAnalyzer would merge them into one analysis).
type MultipleLogsError struct {
	Dir   string
	Names []string
}

func (e *MultipleLogsError) Error() string {
	names := e.Names
	more := ""
	if len(names) > 8 {
		more = fmt.Sprintf(" and %d more", len(names)-8)
		names = names[:8]
	}
	return fmt.Sprintf("%s holds %d separate event logs (%s%s); pass one of them", e.Dir, len(e.Names), strings.Join(names, ", "), more)
}

// rollingIndex extracts N from events_<N>_<app>; ok false otherwise.
func rollingIndex(name string) (int64, bool) {
	if !strings.HasPrefix(name, "events_") {
		return 0, false
	}
	rest := name[len("events_"):]
	end := strings.IndexByte(rest, '_')
	if end <= 0 {
		return 0, false
	}
	n, err := strconv.ParseInt(rest[:end], 10, 64)
	return n, err == nil
}

func isCompact(name string) bool {
	return strings.HasSuffix(strings.TrimSuffix(name, ".inprogress"), ".compact")
}

// Resolve finds the parts of the event log at p.
func Resolve(op Opener, p string) (*Log, error) {
	st, err := op.Stat(p)
	if err != nil {
		return nil, err
	}
	if !st.IsDir {
		return &Log{Path: p, Layout: LayoutFile, Parts: []Part{{Path: p, Name: st.Name, Size: st.Size}},
			InProgress: strings.HasSuffix(st.Name, ".inprogress")}, nil
	}
	entries, err := op.List(p)
	if err != nil {
		return nil, err
	}
	return resolveDir(op, p, entries)
}

func resolveDir(op Opener, dir string, entries []Entry) (*Log, error) {
	log := &Log{Path: dir}
	var rolling, databricks, others []Entry
	for _, e := range entries {
		if e.IsDir || strings.HasPrefix(e.Name, ".") {
			continue
		}
		switch {
		case strings.HasPrefix(e.Name, "appstatus"):
			if strings.HasSuffix(e.Name, ".inprogress") {
				log.InProgress = true
			}
		case strings.HasPrefix(e.Name, "events_"):
			if _, ok := rollingIndex(e.Name); ok {
				rolling = append(rolling, e)
			} else {
				others = append(others, e)
			}
		case e.Name == "eventlog" || strings.HasPrefix(e.Name, "eventlog-"):
			databricks = append(databricks, e)
		default:
			others = append(others, e)
		}
	}
	switch {
	case len(rolling) > 0:
		log.Layout = LayoutRolling
		sort.SliceStable(rolling, func(i, j int) bool {
			a, _ := rollingIndex(rolling[i].Name)
			b, _ := rollingIndex(rolling[j].Name)
			if a != b {
				return a < b
			}
			return rolling[i].Name < rolling[j].Name
		})
		// Start from the newest compact file: everything before it is inside it.
		start := 0
		for i, e := range rolling {
			if isCompact(e.Name) {
				start = i
			}
		}
		if isCompact(rolling[start].Name) {
			log.Compacted = true
			log.Notes = append(log.Notes, fmt.Sprintf("reading from compacted part %s: older task-level events were dropped by the History Server", rolling[start].Name))
		}
		for _, e := range rolling[start:] {
			n, _ := rollingIndex(e.Name)
			log.Parts = append(log.Parts, Part{Path: op.Join(dir, e.Name), Name: e.Name, Size: e.Size, Index: n})
		}
		if len(others)+len(databricks) > 0 {
			log.Notes = append(log.Notes, fmt.Sprintf("ignored %d file(s) that are not rolling parts", len(others)+len(databricks)))
		}
	case len(databricks) > 0 && len(others) == 0:
		log.Layout = LayoutDatabricks
		// Rolled segments carry their start time in the name; the live "eventlog" is last.
		sort.SliceStable(databricks, func(i, j int) bool {
			a, b := databricks[i].Name, databricks[j].Name
			if (a == "eventlog") != (b == "eventlog") {
				return b == "eventlog"
			}
			return a < b
		})
		for i, e := range databricks {
			log.Parts = append(log.Parts, Part{Path: op.Join(dir, e.Name), Name: e.Name, Size: e.Size, Index: int64(i + 1)})
		}
	case len(others)+len(databricks) == 1:
		e := append(others, databricks...)[0]
		log.Layout = LayoutFile
		log.Parts = []Part{{Path: op.Join(dir, e.Name), Name: e.Name, Size: e.Size}}
		log.InProgress = strings.HasSuffix(e.Name, ".inprogress")
	case len(others)+len(databricks) > 1:
		var names []string
		for _, e := range append(others, databricks...) {
			names = append(names, e.Name)
		}
		sort.Strings(names)
		return nil, &MultipleLogsError{Dir: dir, Names: names}
	default:
		return nil, fmt.Errorf("%s: %w", dir, ErrNoLog)
	}
	return log, nil
}

// fsOpener serves an fs.FS (used for History Server zips).
type fsOpener struct{ fsys fs.FS }

func (o fsOpener) clean(p string) string {
	p = strings.TrimPrefix(path.Clean("/"+p), "/")
	if p == "" {
		return "."
	}
	return p
}

func (o fsOpener) Open(p string) (io.ReadCloser, error) { return o.fsys.Open(o.clean(p)) }
func (o fsOpener) Join(dir, name string) string         { return path.Join(dir, name) }
func (o fsOpener) Stat(p string) (Entry, error) {
	fi, err := fs.Stat(o.fsys, o.clean(p))
	if err != nil {
		return Entry{}, err
	}
	return Entry{Name: fi.Name(), Size: fi.Size(), IsDir: fi.IsDir()}, nil
}
func (o fsOpener) List(dir string) ([]Entry, error) {
	des, err := fs.ReadDir(o.fsys, o.clean(dir))
	if err != nil {
		return nil, err
	}
	out := make([]Entry, 0, len(des))
	for _, d := range des {
		e := Entry{Name: d.Name(), IsDir: d.IsDir()}
		if fi, err := d.Info(); err == nil {
			e.Size = fi.Size()
		}
		out = append(out, e)
	}
	return out, nil
}

// FSOpener adapts an fs.FS (paths are slash-separated, relative to its root).
func FSOpener(fsys fs.FS) Opener { return fsOpener{fsys} }
