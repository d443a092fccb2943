// Package timeline reads a Hudi table's timeline: instant file names and times, the active
// timeline, the archived one (0.x archive logs and the 1.x LSM history), commit metadata and
// the decoded details of every instant (plans, clean, rollback, restore, savepoint, indexing).
package timeline

import (
	"context"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"
	"unique"

	"github.com/hudiscope/hudiscope/hudi/problem"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/tableconfig"
)

// Reader reads one table's timeline files. Bad input is recorded in Problems and reading goes
// on with what can be read.
type Reader struct {
	Store    storage.Storage
	Config   *tableconfig.Config
	Problems *problem.Log
	// Compact keeps only Totals, Operation, ReplacedFileIDs and the per-partition sums
	// (Instant.Writes) of decoded commits: Commit stays nil, and Details or Reader.Commit
	// decode it again on demand. A 200k-commit timeline then holds ~100 bytes of metadata per
	// instant instead of ~1.3 KB.
	Compact bool
	// OnArchived, when set, hears each archived instant LoadArchived decodes (a progress count);
	// the LSM history files are decoded in parallel, so it may be called from several goroutines.
	OnArchived func(instants int)
}

// archivedOne counts one decoded archived instant.
func (r *Reader) archivedOne() {
	if r.OnArchived != nil {
		r.OnArchived(1)
	}
}

// path names a table-relative path for messages, prefixed with the table root.
func (r *Reader) path(p string) string { return r.Store.Root() + "/" + p }

// Instant is one action on the timeline with everything the panes show about it.
type Instant struct {
	RequestedTime  string `json:"requestedTime"`
	CompletionTime string `json:"completionTime"`
	// CompletionDerived is true when the completion time comes from the completed file's
	// modification time (table versions < 8 and legacy files), not from the file name.
	CompletionDerived bool `json:"completionTimeDerived"`
	// decoded: LoadCommits has read this instant's metadata (or it needs none).
	// summarized: writes holds the per-partition sums of metadata read in Compact mode,
	// which keeps them instead of Commit. (Next to CompletionDerived: one word for three.)
	decoded, summarized bool
	// CompletionPrecision is, for a derived completion time, how coarse its source is: the true
	// completion lies in [CompletionTime, CompletionTime+CompletionPrecision), and never before
	// the request (see clampDerived). 0 when the time is stored (file name, LSM history).
	CompletionPrecision time.Duration `json:"-"`
	// Action is the completed file's action, or the pending plan's action.
	Action string `json:"action"`
	// PlanAction is the plan a write service started from (compaction, logcompaction,
	// clustering), also after it completed as commit/deltacommit/replacecommit.
	PlanAction string `json:"planAction,omitempty"`
	State      State  `json:"state"`
	Archived   bool   `json:"archived"`
	Operation  string `json:"operation"`

	Totals CommitTotals `json:"-"`
	// ReplacedFileIDs (partition → file ids) are a completed replacecommit's replaced groups.
	ReplacedFileIDs map[string][]string `json:"-"`
	// Files are this instant's timeline files (requested, inflight, completed); FilePath
	// gives their table-relative paths.
	Files []File `json:"-"`
	// dir is the folder Files were listed in (shared by every instant of a listing).
	dir *string
	// Commit holds decoded commit metadata for completed write instants.
	Commit *CommitMetadata `json:"-"`
	// Err says why the instant's content could not be read; the instant is still listed.
	Err string `json:"error,omitempty"`
	// Started is the requested time parsed in the table zone (zero if not a date).
	Started time.Time `json:"-"`
	// Ended is the completion time parsed in the table zone (zero if pending or not a date).
	Ended  time.Time `json:"-"`
	writes []PartitionWrites
	// stored holds the metadata an archived entry carries as JSON; nil for active instants
	// (Details reads their files on demand). A pointer: two slices per instant were 48 of its
	// 360 bytes, kept twice over while the explorer's commits step copies 200k instants.
	stored *storedJSON
	// lsm is the LSM history file an archived write came from (shared by its rows): Details
	// reads its metadata there again, as it is not kept.
	lsm *string
}

// storedJSON is an instant's metadata as JSON, already in hand (archived entries).
type storedJSON struct {
	content, plan []byte
}

// content is the completed (or, for archived entries, stored) metadata as JSON, when the
// reader already had it in hand; otherwise Details reads it on demand.
func (i *Instant) content() []byte {
	if i.stored == nil {
		return nil
	}
	return i.stored.content
}

// plan is the requested plan as JSON when already read (archived entries).
func (i *Instant) plan() []byte {
	if i.stored == nil {
		return nil
	}
	return i.stored.plan
}

// setContent and setPlan replace the stored JSON without writing into a storedJSON another
// copy of the instant may share.
func (i *Instant) setContent(b []byte) {
	var s storedJSON
	if i.stored != nil {
		s = *i.stored
	}
	s.content = b
	i.stored = &s
}

func (i *Instant) setPlan(b []byte) {
	var s storedJSON
	if i.stored != nil {
		s = *i.stored
	}
	s.plan = b
	i.stored = &s
}

// Writes returns the per-partition sums of the instant's commit metadata, from Commit when it
// is kept, else from the sums Compact reading kept; false when the metadata was not read or
// could not be (as Commit == nil says for an eagerly read timeline).
func (i *Instant) Writes() ([]PartitionWrites, bool) {
	if i.Commit != nil {
		return i.Commit.PartitionWrites(), true
	}
	return i.writes, i.summarized
}

// HasWrites is Writes' second result without summing anything.
func (i *Instant) HasWrites() bool { return i.Commit != nil || i.summarized }

// CommitOperation is the operation type of the instant's commit metadata ("" when not read).
func (i *Instant) CommitOperation() string {
	if i.Commit != nil {
		return i.Commit.OperationType
	}
	if i.summarized {
		return i.Operation
	}
	return ""
}

// MetadataLoaded reports whether the instant's commit metadata (Totals, Operation, Commit)
// has been read; see Reader.LoadCommits.
func (i *Instant) MetadataLoaded() bool { return i.decoded || i.Archived || !needsDecode(i) }

// Duration is completion minus request, when both are dates.
// A savepoint has none: its file carries the requested time of the commit it pins.
func (i *Instant) Duration() time.Duration {
	if i.Started.IsZero() || i.Ended.IsZero() || i.Action == ActionSavepoint {
		return 0
	}
	return i.Ended.Sub(i.Started)
}

// CoarseCompletion reports whether the completion time is derived from a time kept to 1 s or
// coarser (zip, S3), so it is only known to about a second: text marks it `≈`.
func (i *Instant) CoarseCompletion() bool {
	return i.CompletionDerived && i.CompletionPrecision >= time.Second
}

// MidDuration is the middle of the possible durations, for showing a coarse one as `≈`.
func (i *Instant) MidDuration() time.Duration {
	lo, hi := i.CompletionBounds()
	if lo.IsZero() || i.Started.IsZero() || i.Action == ActionSavepoint {
		return 0
	}
	return lo.Add(hi.Sub(lo) / 2).Sub(i.Started)
}

// CompletionBounds are the earliest and latest (exclusive) possible completion times; for a
// stored or fine time the latest is a millisecond after the earliest. Zero when not completed.
func (i *Instant) CompletionBounds() (lo, hi time.Time) {
	if i.Ended.IsZero() {
		return time.Time{}, time.Time{}
	}
	p := i.CompletionPrecision
	if p < time.Millisecond {
		p = time.Millisecond
	}
	return i.Ended, i.Ended.Add(p)
}

// clampDerived sets Ended from a derived completion time kept to precision p: a truncated
// modification time can fall before the request, but the instant cannot complete before it
// was requested, so the earliest possible completion is the later of the two.
func (i *Instant) clampDerived(p time.Duration, zone *time.Location) {
	i.CompletionPrecision = p
	i.Ended, _ = ParseInstantTime(i.CompletionTime, zone)
	if i.Ended.IsZero() || i.Started.IsZero() || i.Action == ActionSavepoint || !i.Ended.Before(i.Started) {
		return
	}
	i.Ended = i.Started
	i.CompletionTime = FormatInstantTime(i.Started, zone)
}

// IsCompleted reports whether the instant has completed.
func (i *Instant) IsCompleted() bool { return i.State == Completed }

// file returns the table-relative path of the instant's file in a given state.
func (i *Instant) file(state State) string {
	if f, ok := i.fileIn(state); ok {
		return i.FilePath(f)
	}
	return ""
}

// fileIn is the instant's file in state, if listed.
func (i *Instant) fileIn(state State) (File, bool) {
	for _, f := range i.Files {
		if fileState(f.Name) == state {
			return f, true
		}
	}
	return File{}, false
}

// fileState is the state of an instant file name that ParseInstantFileName accepted (Files
// holds no other), told from its suffix without parsing it again: `.requested`, `.inflight`
// (also the bare `<ts>.inflight` of a commit), else completed.
func fileState(name string) State {
	switch {
	case strings.HasSuffix(name, ".requested"):
		return Requested
	case strings.HasSuffix(name, ".inflight"):
		return Inflight
	}
	return Completed
}

// CompletedFile is the path of the completed instant file ("" when pending or archived).
func (i *Instant) CompletedFile() string { return i.file(Completed) }

// requestedFile is the path of the requested instant file, if present.
func (i *Instant) requestedFile() string { return i.file(Requested) }

// inflightFile is the path of the inflight instant file, if present.
func (i *Instant) inflightFile() string { return i.file(Inflight) }

// Timeline is the active timeline, with the archived one when loaded.
type Timeline struct {
	// Instants in the table's own order. Table version ≥ 8 (1.x orders by completion):
	// completed instants by completion time (ties by requested time), then pending instants by
	// requested time. Version < 8 (0.x orders by instant time): by requested time.
	Instants []*Instant
	// Archived instants (oldest first, same order), loaded on request.
	Archived []*Instant
	// ArchivalRuns are the archiver's runs the archived files show, oldest first (read with
	// Archived; ArchivalRule).
	ArchivalRuns []ArchivalRun
	// ByRequested is true when the table orders its timeline by requested time (version < 8).
	ByRequested bool
}

// Sort orders instants as this timeline's table does (see Instants).
func (tl *Timeline) Sort(in []*Instant) {
	if tl.ByRequested {
		SortByRequested(in)
		return
	}
	SortByCompletion(in)
}

// Completed returns the completed active instants in completion order.
func (tl *Timeline) Completed() []*Instant {
	var out []*Instant
	for _, i := range tl.Instants {
		if i.IsCompleted() {
			out = append(out, i)
		}
	}
	return out
}

// Find returns the active instant with this requested time, or nil.
func (tl *Timeline) Find(requested string) *Instant {
	for _, i := range tl.Instants {
		if i.RequestedTime == requested {
			return i
		}
	}
	return nil
}

// All returns archived and active instants together, in completion order.
func (tl *Timeline) All() []*Instant {
	out := make([]*Instant, 0, len(tl.Archived)+len(tl.Instants))
	out = append(out, tl.Archived...)
	out = append(out, tl.Instants...)
	tl.Sort(out)
	return out
}

// SortByCompletion orders instants by completion time, then requested time; pending last.
func SortByCompletion(in []*Instant) {
	sort.SliceStable(in, func(a, b int) bool {
		x, y := in[a], in[b]
		xc, yc := x.CompletionTime != "", y.CompletionTime != ""
		if xc != yc {
			return xc
		}
		if xc {
			if c := CompareInstants(x.CompletionTime, y.CompletionTime); c != 0 {
				return c < 0
			}
		}
		return CompareInstants(x.RequestedTime, y.RequestedTime) < 0
	})
}

// SortByRequested orders instants by requested (instant) time; an instant time shared by
// two actions (a commit and its savepoint) keeps completion order.
func SortByRequested(in []*Instant) {
	sort.SliceStable(in, func(a, b int) bool {
		x, y := in[a], in[b]
		if c := CompareInstants(x.RequestedTime, y.RequestedTime); c != 0 {
			return c < 0
		}
		xc, yc := x.CompletionTime != "", y.CompletionTime != ""
		if xc != yc {
			return xc
		}
		return CompareInstants(x.CompletionTime, y.CompletionTime) < 0
	})
}

// family groups a plan action with the action it completes as.
func family(action string) string {
	switch action { // completedAs, without a map lookup per listed file
	case ActionCompaction:
		return ActionCommit
	case ActionLogCompaction:
		return ActionDeltaCommit
	case ActionClustering:
		return ActionReplaceCommit
	}
	return action
}

// Active lists and reads the active timeline. Completed write instants have their commit
// metadata decoded (in parallel); other contents are read on demand by Details.
func (r *Reader) Active(ctx context.Context) (*Timeline, error) {
	tl, err := r.ActiveNames(ctx)
	if err != nil {
		return nil, err
	}
	r.LoadCommits(ctx, tl.Instants)
	return tl, nil
}

// ActiveNames lists the active timeline from file names. Only replacecommits are read (their
// plan tells clustering apart, their metadata names replaced file groups); LoadCommits reads
// the other instants' metadata when a consumer needs it.
func (r *Reader) ActiveNames(ctx context.Context) (*Timeline, error) {
	ls, err := r.listTimeline(ctx)
	if err != nil && (r.Config.TimelineDir == ".hoodie" || !storage.IsNotExist(err)) {
		return nil, fmt.Errorf("list timeline %s: %w", r.path(r.Config.TimelineDir), err)
	}
	// A missing .hoodie/timeline (table version 8+) is read as an empty timeline, with a
	// warning: a table created but never written whose folder marker was not copied (aws s3 sync
	// drops empty folders; S3 without markers has no key to make it exist), or a damaged copy.
	if err != nil {
		r.Problems.Add(r.path(r.Config.TimelineDir), "does not exist: read as an empty timeline (a table never written, or a copy that dropped the folder)")
	}
	type key struct{ ts, fam string }
	// An instant is usually three files (requested, inflight, completed).
	byKey := make(map[key]int32, ls.len()/3+1)
	ins := make([]*Instant, 0, ls.len()/3+1)
	// spans[j] is the range of entries instant j's files lie in, and how many there are: the
	// listing is sorted by name, so they are usually adjacent and Files can be a window on
	// entries instead of an array of its own (at 200k instants, 51 MB kept and copied).
	type span struct{ lo, hi, n int32 }
	spans := make([]span, 0, ls.len()/3+1)
	// precision of each derived completion time's source, and whether every such time is a
	// whole second (an unzipped or copied table keeps the coarse times on a fine file system).
	precision := map[*Instant]time.Duration{}
	wholeSeconds, evenSeconds, nDerived := true, true, 0
	last, lastKey := int32(-1), key{}
	for idx := range ls.len() {
		f, ok := ParseInstantFileName(ls.name(idx))
		if !ok {
			continue
		}
		e := ls.entry(idx) // Path left out: derived where a message or a Stat needs it
		if e.Err != nil {
			r.Problems.Add(r.path(ls.path(idx)), e.Err.Error())
			continue
		}
		if e.IsDir {
			// Still counted, so a completed instant does not read as inflight; reading it fails.
			r.Problems.Add(r.path(ls.path(idx)), "is a directory where an instant file is expected")
		}
		k := key{f.RequestedTime, family(f.Action)}
		// The listing is sorted: an instant's files usually follow one another, so the
		// previous file's instant is checked before the map.
		j, seen := last, last >= 0 && lastKey == k
		if !seen {
			j, seen = byKey[k]
		}
		if !seen {
			j = int32(len(ins))
			ins = append(ins, &Instant{RequestedTime: f.RequestedTime, Action: canonAction(f.Action), State: f.State})
			spans = append(spans, span{lo: int32(idx)})
			byKey[k] = j
		}
		last, lastKey = j, k
		in, sp := ins[j], &spans[j]
		sp.hi, sp.n = int32(idx), sp.n+1
		if family(f.Action) != f.Action { // a plan action (completedAs)
			in.PlanAction = canonAction(f.Action)
		}
		if stateRank(f.State) >= stateRank(in.State) {
			in.State = f.State
			in.Action = canonAction(f.Action)
		}
		if f.State == Completed {
			if f.CompletionTime != "" {
				in.CompletionTime = f.CompletionTime
			} else {
				if e.ModTime.IsZero() {
					// Name-only listing: the completion time needs this file's modification time.
					if st, err := r.Store.Stat(ctx, ls.path(idx)); err == nil {
						e.ModTime, e.Size = st.ModTime, st.Size
						ls.set(idx, e)
					} else {
						r.Problems.Add(r.path(ls.path(idx)), err.Error())
					}
				}
				in.CompletionTime = FormatInstantTime(e.ModTime, r.Config.Zone)
				in.CompletionDerived = true
				precision[in] = e.ModTimePrecision
				nDerived++
				wholeSeconds = wholeSeconds && e.ModTime.Nanosecond() == 0
				evenSeconds = evenSeconds && e.ModTime.Nanosecond() == 0 && e.ModTime.Second()%2 == 0
			}
		}
	}
	keepFiles(ins, ls, func(j int) (lo, hi, n int32) { sp := spans[j]; return sp.lo, sp.hi, sp.n })
	inferred := time.Duration(0)
	switch {
	case evenSeconds && nDerived >= 4:
		inferred = 2 * time.Second
	case wholeSeconds && nDerived >= 2:
		inferred = time.Second
	}
	tl := &Timeline{Instants: ins, ByRequested: r.Config.Version < 8}
	for _, in := range ins {
		in.Started, _ = ParseInstantTime(in.RequestedTime, r.Config.Zone)
		if in.CompletionDerived {
			in.clampDerived(max(precision[in], inferred, time.Millisecond), r.Config.Zone)
		} else if in.CompletionTime != "" {
			in.Ended, _ = ParseInstantTime(in.CompletionTime, r.Config.Zone)
		}
	}
	var replaces []*Instant
	for _, in := range tl.Instants {
		if in.Action == ActionReplaceCommit {
			replaces = append(replaces, in)
		}
	}
	r.LoadCommits(ctx, replaces)
	tl.Sort(tl.Instants)
	return tl, nil
}

func stateRank(s State) int {
	switch s {
	case Requested:
		return 0
	case Inflight:
		return 1
	}
	return 2
}

// needsDecode: completed writes have metadata; pending replacecommits and clusterings a plan
// (to tell clustering from insert_overwrite).
func needsDecode(in *Instant) bool {
	return (in.State == Completed && IsWriteAction(in.Action)) || in.Action == ActionReplaceCommit || in.PlanAction == ActionClustering
}

// LoadCommits reads the metadata of those instants not read yet, with bounded parallelism,
// and caches it on each instant. Not safe to run concurrently on the same instants.
func (r *Reader) LoadCommits(ctx context.Context, instants []*Instant) {
	ready := r.LoadCommitsStream(ctx, instants)
	for i := range instants {
		ready(i)
	}
}

// LoadCommitsStream is LoadCommits in the background: it returns ready(i), which blocks until
// instants[i]'s metadata has been read, so a writer can stream rows in order while later rows
// are still being decoded (the JSON of a 50k-commit timeline then costs no wall time of its
// own). Instants go to the workers in consecutive chunks, in order; every instant is read
// whether or not ready is called for it. The instants must not be touched before ready says so.
func (r *Reader) LoadCommitsStream(ctx context.Context, instants []*Instant) (ready func(i int)) {
	return r.decodeEach(ctx, instants, func(_ int, in *Instant, dir storage.DirReader, buf []byte) []byte {
		if !in.decoded && !in.Archived && needsDecode(in) {
			d := decodedOf(in)
			buf = r.decodeInstant(ctx, dir, in, &d, buf)
			d.applyTo(in)
		}
		return buf
	})
}

// Decoded is what reading an instant's metadata sets on it, read by Reader.Decode without
// writing to the instant: Instant.WithDecoded puts it on a copy. 200k of them are live while
// a long timeline is read, so what is seldom set (a plan action, an error, the metadata kept
// whole) is behind a pointer: 120 bytes each instead of 152.
type Decoded struct {
	totals          CommitTotals
	operation       string
	writes          []PartitionWrites
	replaced        map[string][]string
	rare            *decodedRare
	summarized, set bool
}

type decodedRare struct {
	planAction, err string
	commit          *CommitMetadata
}

// decodedOf starts a Decoded from what the instant already has.
func decodedOf(in *Instant) Decoded {
	d := Decoded{operation: in.Operation, totals: in.Totals, replaced: in.ReplacedFileIDs, writes: in.writes,
		summarized: in.summarized, set: true}
	if in.PlanAction != "" || in.Err != "" || in.Commit != nil {
		d.rare = &decodedRare{planAction: in.PlanAction, err: in.Err, commit: in.Commit}
	}
	return d
}

// more is d's seldom set part, allocated on first use.
func (d *Decoded) more() *decodedRare {
	if d.rare == nil {
		d.rare = &decodedRare{}
	}
	return d.rare
}

func (d *Decoded) planAction() string {
	if d.rare == nil {
		return ""
	}
	return d.rare.planAction
}

func (d *Decoded) applyTo(in *Instant) {
	in.Operation, in.Totals, in.ReplacedFileIDs, in.writes, in.summarized = d.operation, d.totals, d.replaced, d.writes, d.summarized
	in.PlanAction, in.Err, in.Commit = "", "", nil
	if r := d.rare; r != nil {
		in.PlanAction, in.Err, in.Commit = r.planAction, r.err, r.commit
	}
	in.decoded = true
}

// Decode reads the metadata of those instants not read yet, as LoadCommits does, but leaves
// the instants as they are (they may be on screen): out[i] is instants[i]'s, for
// WithDecoded. What it keeps is the metadata alone, not a copy of each instant (at 200k
// instants the copies were 64 MB, live beside the originals for the whole read).
func (r *Reader) Decode(ctx context.Context, instants []*Instant) []Decoded {
	out := make([]Decoded, len(instants))
	ready := r.decodeEach(ctx, instants, func(i int, in *Instant, dir storage.DirReader, buf []byte) []byte {
		if !in.decoded && !in.Archived && needsDecode(in) {
			out[i] = decodedOf(in)
			buf = r.decodeInstant(ctx, dir, in, &out[i], buf)
		}
		return buf
	})
	for i := range instants {
		ready(i)
	}
	return out
}

// WithDecoded is the instant with d (from Decode) on it: a copy, or the instant itself when
// d holds nothing (it needed no reading).
func (i *Instant) WithDecoded(d *Decoded) *Instant {
	if !d.set {
		return i
	}
	c := *i
	d.applyTo(&c)
	return &c
}

// decodeEach runs each on every instant with bounded parallelism; ready(i) blocks until
// instants[i] is done. Instants go to the workers in consecutive chunks, in order; each gets
// the worker's read buffer and returns it (grown) for the next call.
func (r *Reader) decodeEach(ctx context.Context, instants []*Instant, each func(i int, in *Instant, dir storage.DirReader, buf []byte) []byte) (ready func(i int)) {
	n := runtime.GOMAXPROCS(0) * 4
	// Chunks small enough that a short list still spreads over every worker, large enough
	// that a long one needs few channels.
	chunk := max(16, min(256, len(instants)/(n*4)))
	done := make([]chan struct{}, (len(instants)+chunk-1)/chunk)
	for k := range done {
		done[k] = make(chan struct{})
	}
	work := make(chan int)
	workers := min(n, len(done))
	var dir storage.DirReader // the timeline directory, open while the workers read its files
	var wg sync.WaitGroup
	if workers > 0 {
		dir = storage.OpenDir(ctx, r.Store, r.Config.TimelineDir)
		wg.Add(workers)
		go func() {
			wg.Wait()
			dir.Close()
		}()
	}
	for range workers {
		go func() {
			defer wg.Done()
			var buf []byte // reused across this worker's files; decoders copy what they keep
			for k := range work {
				for i := k * chunk; i < min((k+1)*chunk, len(instants)); i++ {
					buf = each(i, instants[i], dir, buf)
				}
				close(done[k])
			}
		}()
	}
	go func() {
		for k := range done {
			work <- k
		}
		close(work)
	}()
	return func(i int) { <-done[i/chunk] }
}

// decodeInstant reads and decodes one instant into d, reading only the instant's names (it
// may be shared) and its completed file through dir; buf is a read buffer to reuse, returned
// (grown) for the next call.
func (r *Reader) decodeInstant(ctx context.Context, dir storage.DirReader, in *Instant, d *Decoded, buf []byte) []byte {
	var plan *RequestedReplaceMetadata // a replacecommit's clustering plan, when it has one
	if in.Action == ActionReplaceCommit && (d.planAction() == "" || in.State == Completed) {
		if rf := in.requestedFile(); rf != "" {
			if b, err := r.Store.ReadFile(ctx, rf); err == nil && len(b) > 0 {
				var p RequestedReplaceMetadata
				if decodeInto(b, r.path(rf), &p) == nil && p.IsClustering() {
					plan = &p
					d.more().planAction = ActionClustering
					if in.State != Completed {
						d.operation = "CLUSTER"
					}
				}
			}
		}
	}
	if in.State != Completed {
		return buf
	}
	ce, _ := completedEntry(in)
	cf := ce.Path
	// Nothing decoded keeps the worker's buffer, which is reused for the next file: the Avro
	// library copies strings unless told to alias, JSON always does, and the names the
	// compact summary reads in place are interned (copied) below. The listing entry lets
	// local disk skip a stat of the name (Entry.Regular).
	b, err := dir.ReadEntryBuf(ctx, ce, buf)
	if cap(b) > cap(buf) && cap(b) <= maxReusedBuffer {
		buf = b[:0]
	}
	if err != nil {
		d.more().err = err.Error()
		r.Problems.Add(r.path(cf), err.Error())
		return buf
	}
	if len(b) == 0 && IsWriteAction(in.Action) {
		r.emptyCompleted(in, cf, plan, d)
		return buf
	}
	if r.Compact {
		sum, err := decodeCommitSummary(b)
		if err != nil {
			d.more().err = fmt.Sprintf("decode %s: %v", r.path(cf), err)
			r.Problems.Add(r.path(cf), err.Error())
			return buf
		}
		// The decoder carves strings out of shared slabs: one kept string keeps its slab
		// (~100 bytes an instant at 200k). Operation and partition names repeat: keep
		// canonical copies instead.
		for i := range sum.writes {
			sum.writes[i].Partition = unique.Make(sum.writes[i].Partition).Value()
		}
		d.setSummary(unique.Make(sum.op).Value(), sum.totals, sum.replaced)
		d.writes, d.summarized = sum.writes, true
		return buf
	}
	cm, err := decodeCommitMetadata(b)
	if err != nil {
		d.more().err = fmt.Sprintf("decode %s: %v", r.path(cf), err)
		r.Problems.Add(r.path(cf), err.Error())
		return buf
	}
	d.setCommit(cm)
	return buf
}

// ErrEmptyCompleted starts the Err of a completed write whose completed file is 0 bytes
// (Instant.EmptyCompleted).
const ErrEmptyCompleted = "completed file is empty (0 bytes)"

// EmptyCompleted reports whether the instant's completed file was 0 bytes when read: Spark
// writes that file non-atomically (local disk, HDFS), so the write was still finishing, or
// died finishing. Its data files count as committed, as Hudi's reader counts them.
func (i *Instant) EmptyCompleted() bool { return strings.HasPrefix(i.Err, ErrEmptyCompleted) }

// emptyCompleted records a 0-byte completed write file. A clustering replacecommit's replaced
// file groups come from its plan (the requested file), so a snapshot does not read the
// replaced groups beside their rewrite (107 rows counted 214); other writes' metadata is
// unknown and said to be.
func (r *Reader) emptyCompleted(in *Instant, cf string, plan *RequestedReplaceMetadata, d *Decoded) {
	msg := ErrEmptyCompleted + ": the write had not finished writing it (Spark writes it non-atomically) or died doing so; its counts are unknown"
	if in.Action == ActionReplaceCommit {
		if plan != nil && plan.ClusteringPlan != nil {
			d.operation = "CLUSTER"
			d.replaced = plan.ReplacedFileIDs()
			msg += "; the file groups it replaces are read from its clustering plan (" + in.requestedFile() + ")"
		} else {
			msg += "; the file groups it replaces are unknown, so a snapshot may read them beside their rewrite"
		}
	}
	d.more().err = msg
	r.Problems.Add(r.path(cf), msg)
}

// maxReusedBuffer bounds the read buffer a decode worker keeps: one huge instant file is read
// into its own allocation rather than pinning that much memory per worker.
const maxReusedBuffer = 1 << 20

// setCommit puts decoded metadata on an instant that has no file to read (an archived one).
func setCommit(in *Instant, cm *CommitMetadata) {
	d := decodedOf(in)
	d.setCommit(cm)
	decoded := in.decoded
	d.applyTo(in)
	in.decoded = decoded
}

func (d *Decoded) setCommit(cm *CommitMetadata) {
	d.more().commit = cm
	d.setSummary(cm.OperationType, cm.Totals(), cm.PartitionToReplaceFileIDs)
}

// setSummary sets what the timeline rows show of commit metadata.
func (d *Decoded) setSummary(op string, totals CommitTotals, replaced map[string][]string) {
	d.operation = op
	d.totals = totals
	d.replaced = replaced
	if op == "CLUSTER" && d.planAction() == "" {
		d.more().planAction = ActionClustering
	}
	if op == "COMPACT" && d.planAction() == "" {
		d.more().planAction = ActionCompaction
	}
}

// Commit returns the instant's commit metadata: Commit when kept, else read and decoded again
// from the completed file (a timeline read in Compact mode keeps only sums). Nothing is
// cached on the instant, which may be shared with readers on other goroutines.
func (r *Reader) Commit(ctx context.Context, in *Instant) (*CommitMetadata, error) {
	if in.Commit != nil {
		return in.Commit, nil
	}
	if in.State != Completed || !IsWriteAction(in.Action) {
		return nil, fmt.Errorf("%s %s: no commit metadata", in.RequestedTime, in.Action)
	}
	cf := in.CompletedFile()
	if cf == "" {
		return nil, fmt.Errorf("%s %s: no completed file", in.RequestedTime, in.Action)
	}
	b, err := r.Store.ReadFile(ctx, cf)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", r.path(cf), err)
	}
	cm, err := decodeCommitMetadata(b)
	if err != nil {
		return nil, fmt.Errorf("decode %s: %w", r.path(cf), err)
	}
	return cm, nil
}
