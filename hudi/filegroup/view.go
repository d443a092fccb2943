// Package filegroup builds the file-system view of a table: base and log file names, file
// groups and their slices per partition, as of the timeline's completed instants; and the
// storage listing it is built from.
package filegroup

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/hudiscope/hudiscope/hudi/problem"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/internal/ordered"
)

// BaseFile is one base file of a slice.
type BaseFile struct {
	Name    string `json:"name"`
	Path    string `json:"-"`
	Size    int64  `json:"size"`
	Instant string `json:"instant"`
	// Bootstrap is the source file a METADATA_ONLY bootstrap's skeleton base file (meta
	// columns only) takes its data columns from, row by row; nil for other base files.
	Bootstrap *BootstrapFile `json:"bootstrapFile,omitempty"`
}

// BootstrapFile is a skeleton base file's bootstrap source (Java's BaseFile.getBootstrapBaseFile).
type BootstrapFile struct {
	// Path is the file as the bootstrap index records it: an absolute path or URI outside
	// the table (file:/…, s3://…).
	Path string `json:"path"`
	Name string `json:"name"`
	Size int64  `json:"size"`
	// Partition is the source dataset's partition path the file is in.
	Partition string `json:"-"`
}

// LogFile is one log file of a slice.
type LogFile struct {
	Name string      `json:"name"`
	Path string      `json:"-"`
	Size int64       `json:"size"`
	Meta LogFileName `json:"-"`
}

// FileSlice is a base file (optional) plus the log files written on top of it.
type FileSlice struct {
	BaseInstant string
	Base        *BaseFile
	Logs        []LogFile
}

// Size is the slice's bytes on storage.
func (s *FileSlice) Size() int64 {
	var n int64
	if s.Base != nil {
		n = s.Base.Size
	}
	for _, l := range s.Logs {
		n += l.Size
	}
	return n
}

// FileGroup is every slice of one file id in one partition, oldest slice first.
type FileGroup struct {
	Partition string
	FileID    string
	Slices    []*FileSlice
	// PendingCompaction / PendingClustering name the pending plan's instant that takes this
	// group as input.
	PendingCompaction string
	PendingClustering string
}

// Latest returns the newest slice.
func (g *FileGroup) Latest() *FileSlice {
	if len(g.Slices) == 0 {
		return nil
	}
	return g.Slices[len(g.Slices)-1]
}

// Merged is the slice a snapshot read merges (Java's merged file slice): across a pending
// compaction the latest slice has no base file yet, so a reader takes the previous slice's
// base file and merges the logs of both slices. Otherwise it is the latest slice itself.
// Merged reports whether two slices were merged.
func (g *FileGroup) Merged() (*FileSlice, bool) {
	n := len(g.Slices)
	if n < 2 {
		return g.Latest(), false
	}
	last, prev := g.Slices[n-1], g.Slices[n-2]
	if last.Base != nil || g.PendingCompaction == "" || last.BaseInstant != g.PendingCompaction {
		return last, false
	}
	logs := make([]LogFile, 0, len(prev.Logs)+len(last.Logs))
	logs = append(append(logs, prev.Logs...), last.Logs...)
	return &FileSlice{BaseInstant: prev.BaseInstant, Base: prev.Base, Logs: logs}, true
}

// Partition is one partition directory and its live file groups.
type Partition struct {
	Path       string
	FileGroups []*FileGroup
	// Replaced file groups are hidden from FileGroups; their files stay until a clean.
	Replaced []*FileGroup
	// Uncommitted counts files written by instants that never completed.
	Uncommitted []storage.Entry
}

// View is the table's partitions and file groups as of the latest completed instant.
type View struct {
	Partitions []*Partition
	Source     string // SourceStorage, SourceMetadata or another description of the listing
}

// Listing sources as View.Source and the JSON `listingSource` spell them.
const (
	SourceStorage  = "storage listing"
	SourceMetadata = "metadata table"
)

// NumFiles counts the data files the partition holds: every slice's base and log files, of
// the live and the replaced file groups.
func (p *Partition) NumFiles() int {
	n := 0
	for _, groups := range [][]*FileGroup{p.FileGroups, p.Replaced} {
		for _, g := range groups {
			for _, s := range g.Slices {
				if s.Base != nil {
					n++
				}
				n += len(s.Logs)
			}
		}
	}
	return n
}

// NumFileGroups counts live file groups.
func (v *View) NumFileGroups() int {
	n := 0
	for _, p := range v.Partitions {
		n += len(p.FileGroups)
	}
	return n
}

// ListPartitions finds partition directories: every directory under the base path (outside
// .hoodie) that holds a `.hoodie_partition_metadata` file. It returns each partition with
// its files. Listing runs concurrently, bounded, so remote stores stay fast.
func ListPartitions(ctx context.Context, store storage.Storage, problems *problem.Log) (map[string][]storage.Entry, error) {
	return ListPartitionsFunc(ctx, store, problems, nil)
}

// ListPartitionsFunc is ListPartitions telling listed (when set, one call at a time) the
// number of files of each partition as it is listed (a progress count).
func ListPartitionsFunc(ctx context.Context, store storage.Storage, problems *problem.Log, listed func(files int)) (map[string][]storage.Entry, error) {
	out := map[string][]storage.Entry{}
	var mu sync.Mutex
	err := walkPartitions(ctx, store, problems, func(dir string, files []storage.Entry) {
		mu.Lock()
		out[dir] = files
		if listed != nil {
			listed(len(files))
		}
		mu.Unlock()
	})
	return out, err
}

// listWorkers bounds the directory listings in flight: remote stores answer a listing in tens
// of milliseconds, and on local disk the runtime runs the stat calls on every core anyway.
const listWorkers = 16

// walkPartitions lists the table as ListPartitions describes, calling found (concurrently, on
// the listing goroutines) with each partition and its files as soon as it is listed.
func walkPartitions(ctx context.Context, store storage.Storage, problems *problem.Log, found func(dir string, files []storage.Entry)) error {
	return walkPartitionsTracked(ctx, store, problems, found, nil)
}

// walkTracker hears which directories are still to be listed: spawned before a directory's
// walk starts (by its parent, before the parent's own listed), listed after found ran for it.
type walkTracker interface {
	spawned(dir string)
	listed(dir string)
	// wait blocks a listing from starting while its consumer is behind.
	wait()
}

func walkPartitionsTracked(ctx context.Context, store storage.Storage, problems *problem.Log, found func(dir string, files []storage.Entry), tr walkTracker) error {
	var mu sync.Mutex
	var firstErr error
	sem := make(chan struct{}, listWorkers)
	var wg sync.WaitGroup
	var walk func(dir string)
	walk = func(dir string) {
		defer wg.Done()
		entries, err := store.List(ctx, dir) // the spawner took this listing's slot
		<-sem
		if err != nil {
			problems.Add(store.Root()+"/"+dir, err.Error())
			mu.Lock()
			if dir == "" && firstErr == nil {
				firstErr = err
			}
			mu.Unlock()
			if tr != nil {
				tr.listed(dir)
			}
			return
		}
		isPartition := false
		var children []string
		// Keep the files in entries' own backing array: a million-file table would otherwise
		// copy every Entry once more while the slice grows.
		files := entries[:0]
		for _, e := range entries {
			if e.Err != nil {
				problems.Add(store.Root()+"/"+e.Path, e.Err.Error())
				continue
			}
			if e.IsDir {
				if isDataFileName(e.Name) {
					problems.Add(store.Root()+"/"+e.Path, "is a directory where a data file is expected; skipped")
					continue
				}
				if strings.HasPrefix(e.Name, ".") || (dir == "" && e.Name == ".hoodie") {
					continue
				}
				children = append(children, e.Path)
				continue
			}
			if isPartitionMetadata(e.Name) {
				isPartition = true
			}
			files = append(files, e)
		}
		if tr != nil {
			// Every child is known before this directory counts as listed: a partition
			// under an earlier child ("a/x") can sort after a later one ("a-b").
			for _, c := range children {
				tr.spawned(c)
			}
		}
		if isPartition {
			found(dir, files)
		}
		if tr != nil {
			tr.listed(dir)
		}
		for _, c := range children {
			wg.Add(1)
			if tr != nil {
				tr.wait()
			}
			// Take the slot before starting the child: children start in name order
			// (goroutines racing for it would finish in any order, and ListViewFunc holds
			// every partition that finished before an earlier one).
			sem <- struct{}{}
			go walk(c)
		}
	}
	wg.Add(1)
	if tr != nil {
		tr.spawned("")
	}
	sem <- struct{}{}
	walk("")
	wg.Wait()
	return firstErr
}

// isDataFileName reports whether name is a base or log file name.
func isDataFileName(name string) bool {
	if _, ok := ParseBaseFileName(name); ok {
		return true
	}
	_, ok := ParseLogFileName(name)
	return ok
}

// fgKey names a file group without building a string.
type fgKey struct{ partition, fileID string }

// viewState is what slicing needs from the timeline.
type viewState struct {
	committed   map[string]string // requested → completion time, completed write instants
	firstActive string            // oldest active completed write instant
	// firstInstant is the oldest instant on the active timeline, any action: Hudi 1.x's
	// CompletionTimeQueryView cursor. An archived instant requested at or after it has no
	// completion time Java can find, so Java takes it for pending and slices its log files
	// after every base file (the latest slice).
	firstInstant       string
	pendingCompaction  map[fgKey]string // → compaction instant
	pendingClustering  map[fgKey]string // → clustering instant
	compactionInstants map[string]bool
	replaced           map[fgKey]bool
}

func newViewState(ctx context.Context, r *timeline.Reader, tl *timeline.Timeline) *viewState {
	vs := &viewState{committed: map[string]string{}, pendingCompaction: map[fgKey]string{},
		pendingClustering: map[fgKey]string{}, compactionInstants: map[string]bool{}, replaced: map[fgKey]bool{}}
	for _, in := range tl.Instants {
		if vs.firstInstant == "" || timeline.CompareInstants(in.RequestedTime, vs.firstInstant) < 0 {
			vs.firstInstant = in.RequestedTime
		}
		if in.State == timeline.Completed && timeline.IsWriteAction(in.Action) {
			vs.committed[in.RequestedTime] = in.CompletionTime
			if vs.firstActive == "" || timeline.CompareInstants(in.RequestedTime, vs.firstActive) < 0 {
				vs.firstActive = in.RequestedTime
			}
			if in.IsReplaceCommit() {
				for p, ids := range in.ReplacedFileIDs {
					for _, id := range ids {
						vs.replaced[fgKey{p, id}] = true
					}
				}
			}
			continue
		}
		if in.State == timeline.Completed {
			continue
		}
		switch compaction := in.IsCompaction(r.Config.Type); {
		case compaction || in.IsLogCompaction():
			if compaction {
				vs.compactionInstants[in.RequestedTime] = true
			}
			d, _ := r.Details(ctx, in)
			if d != nil && d.Compaction != nil {
				for _, op := range d.Compaction.Operations {
					vs.pendingCompaction[fgKey{op.PartitionPath, op.FileID}] = in.RequestedTime
				}
			}
		case in.IsClustering():
			d, _ := r.Details(ctx, in)
			if d != nil && d.Replace != nil && d.Replace.ClusteringPlan != nil {
				for _, g := range d.Replace.ClusteringPlan.InputGroups {
					for _, s := range g.Slices {
						vs.pendingClustering[fgKey{s.PartitionPath, s.FileID}] = in.RequestedTime
					}
				}
			}
		}
	}
	return vs
}

// isCommitted says whether a file written at instant is visible: its instant completed, or it
// predates the active timeline (archived instants count as committed, as in Java).
func (vs *viewState) isCommitted(instant string) bool {
	if _, ok := vs.committed[instant]; ok {
		return true
	}
	return vs.firstActive != "" && timeline.CompareInstants(instant, vs.firstActive) < 0
}

// partitionBuilder builds one partition's file groups as of tl, reading pending compaction
// and clustering plans through r once; it may be called from several goroutines at once.
func partitionBuilder(ctx context.Context, r *timeline.Reader, tl *timeline.Timeline) func(pp string, files []storage.Entry) *Partition {
	vs := newViewState(ctx, r, tl)
	v1 := r.Config.Version < 8
	return func(pp string, files []storage.Entry) *Partition { return vs.buildPartition(pp, files, v1) }
}

// BuildView groups listed files (partition → files) into file groups and slices, reading
// pending compaction and clustering plans through r. source names the listing (SourceStorage,
// SourceMetadata or another description).
func BuildView(ctx context.Context, r *timeline.Reader, tl *timeline.Timeline, parts map[string][]storage.Entry, source string) *View {
	build := partitionBuilder(ctx, r, tl)
	view := &View{Source: source}
	names := make([]string, 0, len(parts))
	for p := range parts {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, pp := range names {
		view.Partitions = append(view.Partitions, build(pp, parts[pp]))
	}
	return view
}

// ListViewFunc is ListPartitions then BuildView, handing the partitions to emit in path order.
// Each is built on the goroutine that listed it (building runs on every core alongside the
// listing, and a partition's listing is dropped once built: a million Entry values are 100 MB)
// and emitted as soon as it and every partition that sorts before it are built — a caller can
// write one partition while later ones are listed, and need not hold the whole view. emit runs
// on the calling goroutine; once it fails it is not called again, the listing finishes and its
// error is returned.
func ListViewFunc(ctx context.Context, store storage.Storage, problems *problem.Log, r *timeline.Reader, tl *timeline.Timeline, emit func(*Partition) error) error {
	return walkOrdered(ctx, store, problems, partitionBuilder(ctx, r, tl), emit)
}

// groupSlab hands out file groups, slices and base files from arrays sized for one partition:
// a million-file view is otherwise four million small allocations for the GC to trace.
type groupSlab struct {
	groups []FileGroup
	slices []FileSlice
	ptrs   []*FileSlice
	bases  []BaseFile
}

func newGroupSlab(n int) *groupSlab {
	return &groupSlab{groups: make([]FileGroup, 0, n), slices: make([]FileSlice, 0, n),
		ptrs: make([]*FileSlice, 0, n), bases: make([]BaseFile, 0, n)}
}

func (a *groupSlab) group(pp, id string) *FileGroup {
	if len(a.groups) == cap(a.groups) {
		return &FileGroup{Partition: pp, FileID: id}
	}
	a.groups = append(a.groups, FileGroup{Partition: pp, FileID: id})
	return &a.groups[len(a.groups)-1]
}

// firstSlice gives g (which has no slices yet) its first slice; later ones are appended as
// usual (the one-element Slices array then moves to the heap).
func (a *groupSlab) firstSlice(g *FileGroup, instant string) *FileSlice {
	if len(a.slices) == cap(a.slices) || len(a.ptrs) == cap(a.ptrs) {
		return g.slice(instant)
	}
	a.slices = append(a.slices, FileSlice{BaseInstant: instant})
	s := &a.slices[len(a.slices)-1]
	a.ptrs = append(a.ptrs, s)
	g.Slices = a.ptrs[len(a.ptrs)-1 : len(a.ptrs) : len(a.ptrs)]
	return s
}

// base returns a zero base file to fill in (taking one by value would move every argument
// to the heap, for the full-slab case).
func (a *groupSlab) base() *BaseFile {
	if len(a.bases) == cap(a.bases) {
		return new(BaseFile)
	}
	a.bases = append(a.bases, BaseFile{})
	return &a.bases[len(a.bases)-1]
}

// buildPartition groups one partition's listed files into file groups and slices.
func (vs *viewState) buildPartition(pp string, files []storage.Entry, v1 bool) *Partition {
	part := &Partition{Path: pp}
	slab := newGroupSlab(len(files))
	// order is the groups as first met. A sorted listing (storage listings are) meets them
	// sorted by file id, a group's base files one after the other (they share the prefix
	// "<fileId>_"), so no map is needed until a log file or an out-of-order id comes.
	order := make([]*FileGroup, 0, len(files))
	var groups map[string]*FileGroup
	group := func(id string) *FileGroup {
		if groups == nil {
			if n := len(order); n > 0 && order[n-1].FileID == id {
				return order[n-1]
			} else if n == 0 || order[n-1].FileID < id {
				g := slab.group(pp, id)
				order = append(order, g)
				return g
			}
			groups = make(map[string]*FileGroup, len(files))
			for _, g := range order {
				groups[g.FileID] = g
			}
		}
		g := groups[id]
		if g == nil {
			g = slab.group(pp, id)
			groups[id] = g
			order = append(order, g)
		}
		return g
	}
	// A partition's base files are mostly from few instants: remember the last answer.
	lastInstant, lastCommitted := "", false
	committed := func(instant string) bool {
		if instant != lastInstant || lastInstant == "" {
			lastInstant, lastCommitted = instant, vs.isCommitted(instant)
		}
		return lastCommitted
	}
	type pendingLog struct {
		lf  LogFile
		key string // the instant used to find its slice
	}
	var logs []pendingLog
	for _, e := range files {
		if bn, ok := ParseBaseFileName(e.Name); ok {
			if !committed(bn.Instant) {
				part.Uncommitted = append(part.Uncommitted, e)
				continue
			}
			g := group(bn.FileID)
			var s *FileSlice
			if len(g.Slices) == 0 {
				s = slab.firstSlice(g, bn.Instant)
			} else {
				s = g.slice(bn.Instant)
			}
			b := slab.base()
			*b = BaseFile{Name: e.Name, Path: e.Path, Size: e.Size, Instant: bn.Instant}
			s.Base = b
			continue
		}
		if !strings.HasPrefix(e.Name, ".") {
			continue // not a log file (those are dot files): skip the regular expression
		}
		ln, ok := ParseLogFileName(e.Name)
		if !ok {
			continue
		}
		// CDC logs (.cdc) stay in their slice, as Java's file-system view keeps them;
		// LogFile.Meta.CDC tells them apart from record logs.
		lf := LogFile{Name: e.Name, Path: e.Path, Size: e.Size, Meta: ln}
		if v1 {
			if !vs.isCommitted(ln.Instant) && !vs.compactionInstants[ln.Instant] {
				part.Uncommitted = append(part.Uncommitted, e)
				continue
			}
			logs = append(logs, pendingLog{lf, ln.Instant})
			continue
		}
		if !vs.isCommitted(ln.Instant) {
			part.Uncommitted = append(part.Uncommitted, e)
			continue
		}
		key := vs.committed[ln.Instant]
		switch {
		case key != "":
		case vs.firstInstant != "" && timeline.CompareInstants(ln.Instant, vs.firstInstant) >= 0:
			// Archived after the active timeline's first instant (a restore left there while
			// later writes were archived): no completion time for Java, sliced last.
			key = "\xff"
		default:
			key = ln.Instant // archived: its completion time is not known here
		}
		logs = append(logs, pendingLog{lf, key})
	}
	// Pending compactions open a new slice with no base file.
	if len(vs.pendingCompaction) > 0 {
		for _, g := range order {
			if inst, ok := vs.pendingCompaction[fgKey{pp, g.FileID}]; ok {
				g.slice(inst)
			}
		}
	}
	for _, pl := range logs {
		g := group(pl.lf.Meta.FileID)
		var s *FileSlice
		if v1 {
			s = g.slice(pl.key)
		} else {
			s = g.sliceAtOrBefore(pl.key)
		}
		s.Logs = append(s.Logs, pl.lf)
	}
	byID := func(a, b *FileGroup) int { return strings.Compare(a.FileID, b.FileID) }
	if !slices.IsSortedFunc(order, byID) {
		slices.SortFunc(order, byID)
	}
	if len(vs.replaced) == 0 && len(order) > 0 {
		part.FileGroups = make([]*FileGroup, 0, len(order))
	}
	for _, g := range order {
		id := g.FileID
		g.sortSlices()
		if inst, ok := vs.pendingClustering[fgKey{pp, id}]; ok {
			g.PendingClustering = inst
		}
		if inst, ok := vs.pendingCompaction[fgKey{pp, id}]; ok {
			g.PendingCompaction = inst
		}
		if vs.replaced[fgKey{pp, id}] {
			part.Replaced = append(part.Replaced, g)
			continue
		}
		part.FileGroups = append(part.FileGroups, g)
	}
	return part
}

// slice returns the slice keyed by base instant, creating it.
func (g *FileGroup) slice(instant string) *FileSlice {
	for _, s := range g.Slices {
		if s.BaseInstant == instant {
			return s
		}
	}
	s := &FileSlice{BaseInstant: instant}
	g.Slices = append(g.Slices, s)
	return s
}

// sliceAtOrBefore returns the slice with the greatest base instant ≤ t (table version ≥ 8
// assigns logs by their completion time), or the oldest slice / a new log-only slice.
func (g *FileGroup) sliceAtOrBefore(t string) *FileSlice {
	var best *FileSlice
	for _, s := range g.Slices {
		if timeline.CompareInstants(s.BaseInstant, t) <= 0 && (best == nil || timeline.CompareInstants(s.BaseInstant, best.BaseInstant) > 0) {
			best = s
		}
	}
	if best != nil {
		return best
	}
	// A log-only group (Flink, bucket index): the slice is keyed by the log's own instant.
	return g.slice(t)
}

func (g *FileGroup) sortSlices() {
	// slices.SortFunc, not sort.Slice: this runs per file group, and sort.Slice allocates.
	if len(g.Slices) > 1 {
		slices.SortFunc(g.Slices, func(a, b *FileSlice) int { return timeline.CompareInstants(a.BaseInstant, b.BaseInstant) })
	}
	for _, s := range g.Slices {
		if len(s.Logs) > 1 {
			slices.SortFunc(s.Logs, func(a, b LogFile) int { return CompareLogFiles(a.Meta, b.Meta) })
		}
	}
}

// String describes a view briefly, for logs and tests.
func (v *View) String() string {
	return fmt.Sprintf("%d partitions, %d file groups (%s)", len(v.Partitions), v.NumFileGroups(), v.Source)
}

// BuildViewFunc is BuildView for a listing held elsewhere (the metadata table's): partition i
// of n is fetched with part(i) — in path order — built, and handed to emit in that order on
// the calling goroutine. Partitions are built on every core a few ahead of emit, so at most a
// handful of listings and built partitions are held at once. Once emit fails it is not called
// again and its error is returned.
func BuildViewFunc(ctx context.Context, r *timeline.Reader, tl *timeline.Timeline, n int, part func(i int) (string, []storage.Entry), emit func(*Partition) error) error {
	build := partitionBuilder(ctx, r, tl)
	return ordered.Range(n, runtime.GOMAXPROCS(0), func(i int) *Partition {
		return build(part(i))
	}, func(p *Partition) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		return emit(p)
	})
}
