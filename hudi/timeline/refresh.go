package timeline

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/hudiscope/hudiscope/hudi/problem"
	"github.com/hudiscope/hudiscope/hudi/storage"
)

// Refresher re-reads a watched active timeline, listing only what can have changed.
//
// Timeline file names start with the requested time, in both layouts:
//
//	0.x (.hoodie/):          <ts>.<action>.requested  <ts>.<action>.inflight  <ts>.<action>
//	1.x (.hoodie/timeline/): <ts>.<action>.requested  <ts>.<action>.inflight  <ts>_<completion>.<action>
//
// so every file of one instant sorts together, and newer instants after older ones. A state
// change of a pending instant (requested → inflight → completed) writes a new name that can
// sort before the newest name already seen, so the listing does not start after the last key
// but before the oldest instant that can still change: the oldest pending instant, or, if
// older, the newest requested time minus Lookback (a second writer's instant time is taken
// before its requested file lands, so a newer one may appear first). Files named before that
// key belong to completed instants, which never change name; they are carried over.
//
// What the cheap listing cannot see is caught by a full listing every FullEvery refreshes and
// right after a rollback or restore appears (they delete completed files anywhere): archival
// of old instants, a savepoint written under an old commit's time.
type Refresher struct {
	r  *Reader
	mu sync.Mutex
	// prev is the timeline of the last refresh (or the initial load).
	prev *Timeline
	// FullEvery: every this many refreshes the whole folder is listed (0: never).
	FullEvery int
	// Lookback is how far before the newest requested time a listing starts.
	Lookback time.Duration
	n        int
	// cache holds the bytes of immutable files ActiveNames reads (replacecommit plans and
	// metadata), so a refresh does not fetch them again.
	cache map[string][]byte
}

// RefreshStats say what one refresh read.
type RefreshStats struct {
	Full     bool   // the whole folder was listed
	After    string // the listing started after this name ("" for a full listing)
	Listed   int    // entries the listing returned
	Carried  int    // instant files carried over from the previous listing
	Reused   int    // instants whose decoded metadata was carried over
	Requests int    // storage calls made (a LIST page, a GET, a HEAD each count one)
	// Lists and Gets split Requests by price class (S3 bills LIST ten times a GET; a HEAD is
	// billed as a GET).
	Lists, Gets int
}

// NewRefresher starts watching from tl, the timeline loaded through r (it is not modified).
func NewRefresher(r *Reader, tl *Timeline) *Refresher {
	return &Refresher{r: r, prev: tl, FullEvery: 20, Lookback: 10 * time.Minute, cache: map[string][]byte{}}
}

// Previous is the timeline of the last refresh.
func (f *Refresher) Previous() *Timeline {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.prev
}

// StartAfter is the name the next incremental listing starts after: just before the oldest
// instant that can still change ("" when everything must be listed).
func (f *Refresher) StartAfter() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return startAfter(f.prev, f.r.Config.Zone, f.Lookback)
}

func startAfter(tl *Timeline, zone *time.Location, lookback time.Duration) string {
	if tl == nil || len(tl.Instants) == 0 {
		return ""
	}
	oldestPending, newest := "", ""
	for _, in := range tl.Instants {
		if in.State != Completed && (oldestPending == "" || in.RequestedTime < oldestPending) {
			oldestPending = in.RequestedTime
		}
		if in.RequestedTime > newest {
			newest = in.RequestedTime
		}
	}
	key := newest
	if t, ok := ParseInstantTime(newest, zone); ok {
		key = FormatInstantTime(t.Add(-lookback), zone)
	}
	if oldestPending != "" && oldestPending < key {
		key = oldestPending
	}
	// Names of key's instant are "<key>." or "<key>_…": the bare key sorts just before them.
	// A 14-digit time (older writers) sorts before 17-digit ones of the same second, so the
	// key is cut to 14 digits to take those too.
	if len(key) > 14 {
		key = key[:14]
	}
	return key
}

// Refresh lists what can have changed and returns the new timeline (the previous one is left
// as it was: holders of an older snapshot keep their view). Metadata decoded on the previous
// timeline is carried over for instants whose completed file did not change.
func (f *Refresher) Refresh(ctx context.Context, full bool) (*Timeline, RefreshStats, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n++
	if f.FullEvery > 0 && f.n%f.FullEvery == 0 {
		full = true
	}
	tl, st, err := f.refresh(ctx, full)
	if err != nil {
		return nil, st, err
	}
	if !full && hasNewUndo(f.prev, tl) {
		// A rollback or restore deletes files anywhere on the timeline: list it all.
		tl2, st2, err := f.refresh(ctx, true)
		if err != nil {
			return nil, st, err
		}
		st2.Requests += st.Requests
		st2.Lists += st.Lists
		st2.Gets += st.Gets
		tl, st = tl2, st2
	}
	f.prev = tl
	return tl, st, nil
}

func (f *Refresher) refresh(ctx context.Context, full bool) (*Timeline, RefreshStats, error) {
	dir := f.r.Config.TimelineDir
	st := RefreshStats{Full: full}
	if !full {
		st.After = startAfter(f.prev, f.r.Config.Zone, f.Lookback)
		st.Full = st.After == ""
	}
	cs := &cachedStore{Storage: f.r.Store, dir: dir, cache: f.cache, used: map[string][]byte{}}
	fresh, err := storage.ListAfter(ctx, f.r.Store, dir, st.After)
	cs.lists++
	if err != nil {
		return nil, st, fmt.Errorf("list timeline %s: %w", f.r.path(dir), err)
	}
	st.Listed = len(fresh)
	merged := fresh
	if st.After != "" && f.prev != nil {
		var kept []storage.Entry
		for _, in := range f.prev.Instants {
			for _, e := range in.Files {
				if e.Name <= st.After {
					kept = append(kept, in.entry(e))
				}
			}
		}
		st.Carried = len(kept)
		merged = append(kept, fresh...)
		sort.Slice(merged, func(i, j int) bool { return merged[i].Name < merged[j].Name })
	}
	cs.entries = merged
	cs.byPath = make(map[string]storage.Entry, len(merged))
	for _, e := range merged {
		cs.byPath[e.Path] = e
	}
	cs.stub = carriedFiles(f.prev, cs.byPath)
	r := *f.r
	r.Store = cs
	// Problems go to a log of this refresh first, then into the table's once each: the same
	// damaged file is met again by every refresh.
	r.Problems = &problem.Log{}
	tl, err := r.ActiveNames(ctx)
	for _, p := range r.Problems.List() {
		f.r.Problems.AddOnce(p.File, p.Err)
	}
	if err != nil {
		return nil, st, err
	}
	f.cache = cs.used // files no longer read (archived, rolled back) drop out
	st.Reused = carryDecoded(f.prev, tl)
	st.Lists, st.Gets = cs.lists, cs.gets
	st.Requests = st.Lists + st.Gets
	return tl, st, nil
}

// carriedFiles are the files of instants whose decoded metadata carryDecoded will copy: their
// completed file is still listed, unchanged. ActiveNames is served stubs for them instead of
// reading them again (their decoded fields are then overwritten).
func carriedFiles(prev *Timeline, listed map[string]storage.Entry) map[string]bool {
	out := map[string]bool{}
	if prev == nil {
		return out
	}
	for _, in := range prev.Instants {
		if !in.decoded || in.State != Completed {
			continue
		}
		old, ok := completedEntry(in)
		if !ok {
			continue
		}
		if e, ok := listed[old.Path]; ok && sameEntry(old, e) {
			for _, f := range in.Files {
				out[in.FilePath(f)] = true
			}
		}
	}
	return out
}

// carryDecoded copies decoded commit metadata from the previous timeline's instants whose
// completed file is the same, so LoadCommits reads only new ones.
func carryDecoded(prev, tl *Timeline) int {
	if prev == nil {
		return 0
	}
	old := map[string]*Instant{}
	for _, in := range prev.Instants {
		if in.decoded && in.State == Completed {
			old[in.Key()] = in
		}
	}
	n := 0
	for _, in := range tl.Instants {
		o := old[in.Key()]
		if o == nil || in.State != Completed || !sameFile(o, in) {
			continue
		}
		in.Operation, in.Totals, in.ReplacedFileIDs, in.Commit = o.Operation, o.Totals, o.ReplacedFileIDs, o.Commit
		if in.PlanAction == "" {
			in.PlanAction = o.PlanAction
		}
		in.Err, in.decoded = o.Err, true
		in.writes, in.summarized = o.writes, o.summarized
		n++
	}
	return n
}

func sameFile(a, b *Instant) bool {
	ea, okA := completedEntry(a)
	eb, okB := completedEntry(b)
	return okA && okB && ea.Path == eb.Path && sameEntry(ea, eb)
}

// completedEntry is the listing entry of the instant's completed file (CompletedFile's).
func completedEntry(in *Instant) (storage.Entry, bool) {
	if f, ok := in.fileIn(Completed); ok {
		return in.entry(f), true
	}
	return storage.Entry{}, false
}

// sameEntry: a completed file is written once; size and time are compared when both listings
// had them (a name-only listing has neither), so a file replaced in place is read again.
func sameEntry(a, b storage.Entry) bool {
	if a.Size >= 0 && b.Size >= 0 && a.Size != b.Size {
		return false
	}
	return a.ModTime.IsZero() || b.ModTime.IsZero() || a.ModTime.Equal(b.ModTime)
}

// hasNewUndo reports whether a rollback or restore appeared or changed state since prev.
func hasNewUndo(prev, tl *Timeline) bool {
	old := map[string]State{}
	if prev != nil {
		for _, in := range prev.Instants {
			old[in.Key()] = in.State
		}
	}
	for _, in := range tl.Instants {
		if in.Action != ActionRollback && in.Action != ActionRestore {
			continue
		}
		if s, ok := old[in.Key()]; !ok || s != in.State {
			return true
		}
	}
	return false
}

// Key identifies an instant across refreshes: its requested time and action family (a
// compaction plan and the commit it completes as share one key).
func (i *Instant) Key() string { return i.RequestedTime + "." + family(i.Action) }

// cachedStore serves the merged listing for the timeline folder and caches immutable instant
// files (completed and requested ones) that ActiveNames reads; everything else passes through.
type cachedStore struct {
	storage.Storage
	dir     string
	entries []storage.Entry
	byPath  map[string]storage.Entry
	stub    map[string]bool // files of carried instants: not read again

	mu          sync.Mutex // LoadCommits reads in parallel
	cache       map[string][]byte
	used        map[string][]byte // what this refresh read: the next refresh's cache
	lists, gets int
}

func (c *cachedStore) count(list bool) {
	c.mu.Lock()
	if list {
		c.lists++
	} else {
		c.gets++
	}
	c.mu.Unlock()
}

func (c *cachedStore) List(ctx context.Context, dir string) ([]storage.Entry, error) {
	if dir == c.dir {
		return c.entries, nil
	}
	c.count(true)
	return c.Storage.List(ctx, dir)
}

func (c *cachedStore) Stat(ctx context.Context, p string) (storage.Entry, error) {
	c.count(false)
	return c.Storage.Stat(ctx, p)
}

func (c *cachedStore) ReadFile(ctx context.Context, p string) ([]byte, error) {
	if c.stub[p] {
		if f, ok := ParseInstantFileName(p[strings.LastIndex(p, "/")+1:]); ok && f.State == Completed {
			return []byte("{}"), nil // decodes as empty metadata, replaced by the carried one
		}
		return nil, nil // an empty plan is not looked into
	}
	key := p
	if e, ok := c.byPath[p]; ok {
		key = fmt.Sprintf("%s\x00%d\x00%d", p, e.Size, e.ModTime.UnixNano())
	}
	c.mu.Lock()
	b, ok := c.cache[key]
	if ok {
		c.used[key] = b
	}
	if !ok {
		c.gets++
	}
	c.mu.Unlock()
	if ok {
		return b, nil
	}
	b, err := c.Storage.ReadFile(ctx, p)
	if err == nil && immutable(p) {
		c.mu.Lock()
		c.used[key] = b
		c.mu.Unlock()
	}
	return b, err
}

// immutable: completed and requested instant files are written once; an inflight file can be
// rewritten (0.x writes the inflight commit metadata).
func immutable(p string) bool {
	f, ok := ParseInstantFileName(p[strings.LastIndex(p, "/")+1:])
	return ok && f.State != Inflight
}
