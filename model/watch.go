package model

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// ChangeKind says how an instant changed between two refreshes of a watched timeline.
type ChangeKind string

const (
	ChangeNew        ChangeKind = "new"         // an instant appeared
	ChangeState      ChangeKind = "state"       // requested → inflight → completed
	ChangeRolledBack ChangeKind = "rolled-back" // a pending instant vanished as a rollback ran
	ChangeRemoved    ChangeKind = "removed"     // a completed instant left the active timeline (archived, restored)
)

// Change is one difference between two refreshes.
type Change struct {
	Kind    ChangeKind
	Instant *timeline.Instant // the instant now (for removed and rolled-back: as last seen)
	From    timeline.State    // the state before a state change
}

// String is the change as text mode prints it.
func (c Change) String() string {
	in := c.Instant
	what := in.Action
	if in.HasPlan() {
		what = in.PlanAction + "→" + in.Action
	}
	switch c.Kind {
	case ChangeNew:
		return fmt.Sprintf("new %s %s %s", what, in.RequestedTime, in.State)
	case ChangeState:
		s := fmt.Sprintf("%s %s %s → %s", what, in.RequestedTime, c.From, in.State)
		if in.State == timeline.Completed && in.CompletionTime != "" {
			s += " at " + in.CompletionTime
		}
		return s
	case ChangeRolledBack:
		return fmt.Sprintf("rolled back %s %s (was %s)", what, in.RequestedTime, in.State)
	}
	return fmt.Sprintf("removed %s %s from the active timeline (archived or restored)", what, in.RequestedTime)
}

// DiffTimelines lists what changed from prev to next, in next's order, then removals.
func DiffTimelines(prev, next *timeline.Timeline) []Change {
	old := map[string]*timeline.Instant{}
	if prev != nil {
		for _, in := range prev.Instants {
			old[in.Key()] = in
		}
	}
	var out []Change
	seen := map[string]bool{}
	for _, in := range next.Instants {
		k := in.Key()
		seen[k] = true
		o := old[k]
		switch {
		case o == nil:
			out = append(out, Change{Kind: ChangeNew, Instant: in})
		case o.State != in.State:
			out = append(out, Change{Kind: ChangeState, Instant: in, From: o.State})
		}
	}
	if prev != nil {
		for _, in := range prev.Instants {
			if seen[in.Key()] {
				continue
			}
			kind := ChangeRemoved
			if in.State != timeline.Completed {
				// Pending files only go when a rollback deletes them (or a writer aborts
				// before it started writing: Hudi rolls those back too).
				kind = ChangeRolledBack
			}
			out = append(out, Change{Kind: kind, Instant: in})
		}
	}
	return out
}

// Refresh is the outcome of one watch refresh.
type Refresh struct {
	At      time.Time
	Changes []Change
	Stats   timeline.RefreshStats
	// Requests is the number of storage calls of this refresh (LIST pages, GETs, HEADs).
	Requests int
	// Reanalyze: a new instant completed, so the file view and analyzers are stale; the
	// caller runs Watcher.Reanalyze (off the UI goroutine) when it shows them.
	Reanalyze bool
	// Seq numbers the watcher's snapshots (refreshes and reanalyses) in the order made, so a
	// UI never replaces a newer one with an older one that arrived late.
	Seq int
	// EventLogGrew: the followed event log had new events (Snapshot.EventLog is new).
	EventLogGrew bool
	// Lists and Gets count every request of the refresh by price class when the snapshot was
	// loaded with Options.CountRequests (else 0; Stats has the timeline listing's own).
	Lists, Gets int
}

// Watcher refreshes a loaded snapshot's timeline. Refresh is meant to run off the UI
// goroutine; one refresh at a time.
type Watcher struct {
	mu      sync.Mutex
	snap    *Snapshot
	rf      *timeline.Refresher
	history string
	seq     int
	// Total counts the storage calls of every refresh so far.
	Total int
}

// NewWatcher starts watching from a loaded snapshot (its timeline step must have run).
func NewWatcher(ctx context.Context, s *Snapshot) (*Watcher, error) {
	if s.table == nil || s.Timeline == nil {
		return nil, fmt.Errorf("watch: the timeline could not be read")
	}
	w := &Watcher{snap: s, rf: s.table.NewRefresher(s.Timeline)}
	if s.HasRun(StepArchived) {
		w.history = s.table.HistoryVersion(ctx)
	}
	return w, nil
}

// Snapshot is the latest snapshot.
func (w *Watcher) Snapshot() *Snapshot {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.snap
}

// reanalyzed are the steps run again after a new completed instant, when they had run.
var reanalyzed = []Step{StepFiles, StepLayout, StepHealth, StepFindings}

// Refresh re-reads what can have changed and returns a new snapshot (the previous one is
// untouched) with the changes. full lists the whole timeline folder.
func (w *Watcher) Refresh(ctx context.Context, full bool) (_ *Snapshot, res Refresh, _ error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	res = Refresh{At: w.snap.Options.now()}
	prev := w.snap
	// With a counting store every request of the refresh is counted (archived timeline and
	// the re-run file view included); else the refresher's own count.
	cnt, _ := prev.table.Store.(*storage.Counting)
	var l0, g0 int64
	if cnt != nil {
		l0, g0 = cnt.Counts()
	}
	defer func() {
		if cnt != nil {
			l1, g1 := cnt.Counts()
			res.Lists, res.Gets = int(l1-l0), int(g1-g0)
		}
	}()
	tl, stats, err := w.rf.Refresh(ctx, full)
	res.Stats, res.Requests = stats, stats.Requests
	if err != nil {
		w.Total += res.Requests
		return prev, res, err
	}
	if !prev.Options.LazyCommits {
		prev.table.LoadCommits(ctx, tl.Instants, false)
	}
	next := prev.clone()
	res.Changes = DiffTimelines(prev.Timeline, tl)
	if prev.HasRun(StepArchived) {
		tl.Archived, tl.ArchivalRuns = prev.Timeline.Archived, prev.Timeline.ArchivalRuns
		v := prev.table.HistoryVersion(ctx)
		if prev.table.Config.HistoryDir != "" {
			res.Requests++
			res.Stats.Gets++
		}
		removed := false
		for _, c := range res.Changes {
			removed = removed || c.Kind == ChangeRemoved
		}
		if v != w.history || removed {
			w.history = v
			tl.Archived = nil
			if err := prev.table.LoadArchived(ctx, tl); err != nil {
				next.StepErrors[StepArchived] = err
			}
		}
	}
	next.Timeline = tl
	if prev.follower != nil {
		// A running application's event log: read what it appended since the last poll.
		grew, err := prev.follower.Poll(ctx)
		switch {
		case err != nil:
			next.StepErrors[StepEventLog] = err
		case grew:
			next.EventLog = prev.follower.Report()
			res.EventLogGrew = true
		}
	}
	for _, c := range res.Changes {
		if c.Instant.State == timeline.Completed && c.Kind != ChangeRemoved {
			res.Reanalyze = true
		}
	}
	// Until Reanalyze runs, the file view and analyzers are those of the previous timeline.
	next.LoadedAt = w.snap.Options.now()
	w.Total += res.Requests
	w.seq++
	res.Seq = w.seq
	w.snap = next
	return next, res, nil
}

// Reanalyze runs the file view and the analyzers that had run (layout, health, findings)
// again on the latest snapshot, after a refresh saw a new completed instant; it returns the
// new snapshot and its sequence number (see Refresh.Seq). Apart from Refresh so the timeline
// shows at once and the slower re-listing of the table follows.
func (w *Watcher) Reanalyze(ctx context.Context) (*Snapshot, int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	prev := w.snap
	next := prev.clone()
	for _, name := range reanalyzed {
		if !prev.HasRun(name) {
			continue
		}
		for _, st := range steps {
			if st.name == name {
				delete(next.StepErrors, name)
				if err := st.run(ctx, next); err != nil {
					next.StepErrors[name] = err
				}
			}
		}
	}
	next.LoadedAt = w.snap.Options.now()
	w.seq++
	w.snap = next
	return next, w.seq
}

// NextWait is the wait before the next refresh after one that ended with err: doubled, up
// to 8× the interval, while the store throttles (S3 503 SlowDown); back to the interval after
// a good refresh; unchanged after another error.
func NextWait(interval, current time.Duration, err error) time.Duration {
	switch {
	case err != nil && storage.IsThrottled(err):
		return min(max(current, interval)*2, 8*interval)
	case err == nil:
		return interval
	}
	return max(current, interval)
}
