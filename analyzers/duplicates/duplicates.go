// Package duplicates finds record keys held more than once in a table's latest snapshot: in
// two partitions (a non-global index after a partition-path change), in two file groups of one
// partition (bulk_insert or insert of keys already written), or twice in one file group's slice
// (an insert batch that repeated a key with hoodie.combine.before.insert=false).
//
// Memory is bounded: (key, location) tuples are collected up to a budget, then sorted by key
// and spilled to a run file in a temporary directory; at the end the sorted runs are merged
// (k-way) and keys seen more than once are reported. Locations (partition, file group, file,
// commit) are few and stay in memory, interned; a tuple on disk is its key and a location index.
package duplicates

import (
	"bufio"
	"cmp"
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
)

// Location is where one copy of a record is: its partition path, file group, the file the
// latest slice holds it in as _hoodie_file_name names it (a log record names its file group's
// id), and its _hoodie_commit_time.
type Location struct {
	Partition  string `json:"partition"`
	FileID     string `json:"fileId"`
	FileName   string `json:"fileName"`
	CommitTime string `json:"commitTime"`
}

// Kind says how a key's copies are spread.
type Kind string

const (
	// KindPartitions: copies in more than one partition (a non-global index after a
	// partition-path change, Hudi issue #4311).
	KindPartitions Kind = "partitions"
	// KindFileGroups: one partition, more than one file group (bulk_insert or insert of keys
	// already in the table, Hudi issue #2214).
	KindFileGroups Kind = "file-groups"
	// KindFileGroup: every copy in one file group's latest slice (an insert batch that
	// repeated the key without combining).
	KindFileGroup Kind = "file-group"
)

// Duplicate is one key and every copy of it, locations sorted.
type Duplicate struct {
	Key       string     `json:"key"`
	Copies    int        `json:"copies"`
	Kind      Kind       `json:"kind"`
	Locations []Location `json:"locations"`
}

// Result is what Finish found.
type Result struct {
	Rows          int64 // tuples added
	DistinctKeys  int64
	DuplicateKeys int64
	// ExtraCopies is the rows a deduplication would drop: the copies beyond the first of each
	// duplicated key.
	ExtraCopies int64
	ByKind      map[Kind]int64
	// Duplicates are the first Limit duplicated keys in key order (all when Limit is 0).
	Duplicates []Duplicate
	Truncated  bool // more duplicated keys than Duplicates holds
	// Spill: runs written to the temporary directory and their bytes (0: all in memory).
	SpilledRuns  int
	SpilledBytes int64
}

// Options configure a Finder.
type Options struct {
	// MemBudget bounds the bytes the collected tuples take before a run is spilled (<= 0:
	// DefaultMemBudget).
	MemBudget int64
	// TempDir is where the spill directory is made ("": os.TempDir()).
	TempDir string
	// Limit is how many duplicated keys Result lists (0: all).
	Limit int
}

// DefaultMemBudget is the default tuple budget (256 MiB).
const DefaultMemBudget = 256 << 20

// tupleOverhead is the in-memory cost of one tuple beside its key's bytes: the string header
// and location index, and the sort's share.
const tupleOverhead = 32

// locOverhead is one interned location's cost beside its strings' bytes: four string
// headers, its slot in the table and in the index map.
const locOverhead = 4*16 + 64

// MaxKeyLen is the longest record key the search takes (a run file's reader trusts no
// longer length).
const MaxKeyLen = 1 << 20

// maxRuns is how many runs are merged at once: past it the runs are merged into one first, so
// a small budget on a large table does not open thousands of files.
const maxRuns = 64

type tuple struct {
	key string
	loc int32
}

// Finder collects tuples and finds the duplicated keys. Close removes its spill directory;
// call it (deferred) whatever happens.
type Finder struct {
	o       Options
	locs    []Location
	locIdx  map[Location]int32
	buf     []tuple
	bufSize int64
	locSize int64
	dir     string
	runs    []string
	merges  int
	written int // runs spilled
	rows    int64
	spilled int64
}

// NewFinder returns an empty Finder.
func NewFinder(o Options) *Finder {
	if o.MemBudget <= 0 {
		o.MemBudget = DefaultMemBudget
	}
	return &Finder{o: o, locIdx: map[Location]int32{}}
}

// Add records one copy of key at loc.
func (f *Finder) Add(key string, loc Location) error {
	if len(key) > MaxKeyLen {
		return fmt.Errorf("duplicates: a record key of %d bytes in %s/%s (file group %s): longer than the %d the search takes", len(key), loc.Partition, loc.FileName, loc.FileID, MaxKeyLen)
	}
	i, ok := f.locIdx[loc]
	if !ok {
		if len(f.locs) >= 1<<31-1 {
			return errors.New("duplicates: more than 2^31 distinct locations")
		}
		i = int32(len(f.locs))
		f.locs = append(f.locs, loc)
		f.locIdx[loc] = i
		f.locSize += int64(len(loc.Partition)+len(loc.FileID)+len(loc.FileName)+len(loc.CommitTime)) + locOverhead
	}
	f.buf = append(f.buf, tuple{key, i})
	f.bufSize += int64(len(key)) + tupleOverhead
	f.rows++
	// The locations stay in memory (they are few: files times commits); the tuples get the
	// rest of the budget, at least a quarter of it.
	if f.bufSize >= max(f.o.MemBudget-f.locSize, f.o.MemBudget/4) {
		return f.spill()
	}
	return nil
}

func sortTuples(ts []tuple) {
	slices.SortFunc(ts, func(a, b tuple) int {
		if c := cmp.Compare(a.key, b.key); c != 0 {
			return c
		}
		return cmp.Compare(a.loc, b.loc)
	})
}

// spill sorts the buffer and writes it as one run: per tuple, uvarint key length, key,
// uvarint location index.
func (f *Finder) spill() error {
	if len(f.buf) == 0 {
		return nil
	}
	if f.dir == "" {
		d, err := os.MkdirTemp(f.o.TempDir, "hudiscope-duplicates-")
		if err != nil {
			return fmt.Errorf("duplicates: spill directory: %w", err)
		}
		f.dir = d
	}
	sortTuples(f.buf)
	name := filepath.Join(f.dir, fmt.Sprintf("run-%06d", len(f.runs)))
	file, err := os.Create(name)
	if err != nil {
		return fmt.Errorf("duplicates: spill: %w", err)
	}
	w := bufio.NewWriterSize(file, 1<<16)
	var n [2 * binary.MaxVarintLen64]byte
	var size int64
	for _, t := range f.buf {
		k := binary.PutUvarint(n[:], uint64(len(t.key)))
		w.Write(n[:k])
		w.WriteString(t.key)
		l := binary.PutUvarint(n[k:], uint64(t.loc))
		w.Write(n[k : k+l])
		size += int64(k + len(t.key) + l)
	}
	err = w.Flush()
	if cerr := file.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("duplicates: spill %s: %w", name, err)
	}
	f.runs = append(f.runs, name)
	f.written++
	f.spilled += size
	clear(f.buf)
	f.buf = f.buf[:0]
	f.bufSize = 0
	if len(f.runs) >= maxRuns {
		return f.compact()
	}
	return nil
}

// compact merges every run into one.
func (f *Finder) compact() error {
	srcs, closeAll, err := f.openRuns()
	if err != nil {
		return err
	}
	defer closeAll()
	name := filepath.Join(f.dir, fmt.Sprintf("merged-%06d", f.merges))
	f.merges++
	file, err := os.Create(name)
	if err != nil {
		return fmt.Errorf("duplicates: spill: %w", err)
	}
	w := bufio.NewWriterSize(file, 1<<16)
	var n [2 * binary.MaxVarintLen64]byte
	err = merge(srcs, func(t tuple) {
		k := binary.PutUvarint(n[:], uint64(len(t.key)))
		w.Write(n[:k])
		w.WriteString(t.key)
		l := binary.PutUvarint(n[k:], uint64(t.loc))
		w.Write(n[k : k+l])
	})
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if cerr := file.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("duplicates: merge runs: %w", err)
	}
	closeAll()
	for _, r := range f.runs {
		if err := os.Remove(r); err != nil {
			return fmt.Errorf("duplicates: %w", err)
		}
	}
	f.runs = []string{name}
	return nil
}

// openRuns opens every run for reading; closeAll closes them (more than once is harmless).
func (f *Finder) openRuns() ([]source, func(), error) {
	var files []*os.File
	closeAll := func() {
		for _, file := range files {
			file.Close()
		}
		files = nil
	}
	var srcs []source
	for _, name := range f.runs {
		file, err := os.Open(name)
		if err != nil {
			closeAll()
			return nil, nil, fmt.Errorf("duplicates: %w", err)
		}
		files = append(files, file)
		srcs = append(srcs, &runSource{name: name, r: bufio.NewReaderSize(file, 1<<16), nloc: len(f.locs)})
	}
	return srcs, closeAll, nil
}

// Close removes the spill directory.
func (f *Finder) Close() error {
	if f.dir == "" {
		return nil
	}
	err := os.RemoveAll(f.dir)
	f.dir = ""
	return err
}

// source is one sorted stream of tuples: a run file or the in-memory buffer.
type source interface {
	next() (tuple, bool, error)
}

type memSource struct {
	ts []tuple
	i  int
}

func (m *memSource) next() (tuple, bool, error) {
	if m.i >= len(m.ts) {
		return tuple{}, false, nil
	}
	m.i++
	return m.ts[m.i-1], true, nil
}

type runSource struct {
	name string
	r    *bufio.Reader
	nloc int
	buf  []byte
}

func (s *runSource) next() (tuple, bool, error) {
	n, err := binary.ReadUvarint(s.r)
	if err == io.EOF {
		return tuple{}, false, nil
	}
	if err != nil || n > MaxKeyLen {
		return tuple{}, false, fmt.Errorf("duplicates: run %s: bad key length", s.name)
	}
	if cap(s.buf) < int(n) {
		s.buf = make([]byte, n)
	}
	b := s.buf[:n]
	if _, err := io.ReadFull(s.r, b); err != nil {
		return tuple{}, false, fmt.Errorf("duplicates: run %s: %w", s.name, err)
	}
	l, err := binary.ReadUvarint(s.r)
	if err != nil || l >= uint64(s.nloc) {
		return tuple{}, false, fmt.Errorf("duplicates: run %s: bad location", s.name)
	}
	return tuple{string(b), int32(l)}, true, nil
}

type head struct {
	t   tuple
	src source
}

type mergeHeap []head

func (h mergeHeap) Len() int { return len(h) }
func (h mergeHeap) Less(i, j int) bool {
	if h[i].t.key != h[j].t.key {
		return h[i].t.key < h[j].t.key
	}
	return h[i].t.loc < h[j].t.loc
}
func (h mergeHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *mergeHeap) Push(x any)   { *h = append(*h, x.(head)) }
func (h *mergeHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// merge calls fn with every tuple of srcs (each sorted) in order.
func merge(srcs []source, fn func(tuple)) error {
	h := make(mergeHeap, 0, len(srcs))
	for _, s := range srcs {
		t, ok, err := s.next()
		if err != nil {
			return err
		}
		if ok {
			h = append(h, head{t, s})
		}
	}
	heap.Init(&h)
	for h.Len() > 0 {
		top := h[0]
		fn(top.t)
		t, ok, err := top.src.next()
		if err != nil {
			return err
		}
		if ok {
			h[0].t = t
			heap.Fix(&h, 0)
		} else {
			heap.Pop(&h)
		}
	}
	return nil
}

// Finish merges the runs and the buffer and returns the duplicated keys.
func (f *Finder) Finish() (*Result, error) {
	res := &Result{Rows: f.rows, ByKind: map[Kind]int64{}}
	var srcs []source
	if len(f.runs) > 0 {
		// The rest is spilled too, so the buffer's memory is not held during the merge.
		if err := f.spill(); err != nil {
			return nil, err
		}
		var closeAll func()
		var err error
		if srcs, closeAll, err = f.openRuns(); err != nil {
			return nil, err
		}
		defer closeAll()
	} else {
		sortTuples(f.buf)
		srcs = append(srcs, &memSource{ts: f.buf})
	}
	res.SpilledRuns, res.SpilledBytes = f.written, f.spilled
	var cur string
	var group []int32
	emit := func() {
		if len(group) == 0 {
			return
		}
		res.DistinctKeys++
		if len(group) < 2 {
			return
		}
		res.DuplicateKeys++
		res.ExtraCopies += int64(len(group) - 1)
		d := Duplicate{Key: cur, Copies: len(group), Locations: make([]Location, len(group))}
		for i, l := range group {
			d.Locations[i] = f.locs[l]
		}
		slices.SortFunc(d.Locations, compareLocations)
		d.Kind = kindOf(d.Locations)
		res.ByKind[d.Kind]++
		if f.o.Limit == 0 || len(res.Duplicates) < f.o.Limit {
			res.Duplicates = append(res.Duplicates, d)
		} else {
			res.Truncated = true
		}
	}
	err := merge(srcs, func(t tuple) {
		if len(group) == 0 || t.key != cur {
			emit()
			cur, group = t.key, group[:0]
		}
		group = append(group, t.loc)
	})
	if err != nil {
		return nil, err
	}
	emit()
	return res, nil
}

func compareLocations(a, b Location) int {
	return cmp.Or(cmp.Compare(a.Partition, b.Partition), cmp.Compare(a.FileID, b.FileID),
		cmp.Compare(a.FileName, b.FileName), cmp.Compare(a.CommitTime, b.CommitTime))
}

// kindOf classifies a key's sorted copies.
func kindOf(locs []Location) Kind {
	first := locs[0]
	same := true
	for _, l := range locs[1:] {
		if l.Partition != first.Partition {
			return KindPartitions
		}
		if l.FileID != first.FileID {
			same = false
		}
	}
	if same {
		return KindFileGroup
	}
	return KindFileGroups
}
