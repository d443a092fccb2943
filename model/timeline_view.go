package model

import (
	"context"
	"slices"
	"time"

	"github.com/hudiscope/hudiscope/analyzers/checkpoint"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// Read-only helpers the Timeline pane and the report share. None of them change the snapshot.

// TimelineInstants returns the instants a timeline view lists, in the table's order: the active
// timeline, plus the archived one when it was loaded. nil before the timeline step has run.
func (s *Snapshot) TimelineInstants() []*timeline.Instant {
	if s == nil || s.Timeline == nil {
		return nil
	}
	if len(s.Timeline.Archived) > 0 {
		return s.Timeline.All()
	}
	return s.Timeline.Instants
}

// LateCompletions marks, for instants in any order, each completed write (commit,
// deltacommit, replacecommit) that started (was requested) before a write that certainly
// completed ahead of it. These are the places where completion order and requested order
// disagree: a checkpoint taken from the largest _hoodie_commit_time seen so far skips or
// re-reads them. Pending instants and table services without data (clean, savepoint, rollback;
// a savepoint even carries its commit's time) are never marked and never mark others. A
// completion time derived from a coarse file time is an interval (Instant.CompletionBounds):
// an instant is marked only when its earliest completion is at or after the other's latest.
func LateCompletions(instants []*timeline.Instant) []bool {
	late := make([]bool, len(instants))
	// Compact rows (24 bytes: index and bounds as Unix nanoseconds, 0 for none): the sweep
	// sorts two copies, and at 200k writes rows of time.Time and strings cost 43 MB per call.
	n := 0
	for _, in := range instants {
		if in.CompletionTime != "" && timeline.IsWriteAction(in.Action) {
			n++
		}
	}
	ws := make([]lateWrite, 0, n)
	for i, in := range instants {
		if in.CompletionTime == "" || !timeline.IsWriteAction(in.Action) {
			continue
		}
		lo, hi := in.CompletionBounds()
		ws = append(ws, lateWrite{int32(i), nanos(lo), nanos(hi)})
	}
	ct := func(w lateWrite) string { return instants[w.i].CompletionTime }
	order := func(at func(lateWrite) int64) func(a, b lateWrite) int {
		return func(a, b lateWrite) int {
			switch {
			case before(at(a), ct(a), at(b), ct(b)):
				return -1
			case before(at(b), ct(b), at(a), ct(a)):
				return 1
			}
			return 0
		}
	}
	// byLo: candidates in order of earliest completion; byHi: possible predecessors in order of
	// latest completion. Sweep: every write whose latest completion is ≤ x's earliest finished
	// before x; x is late if one of them was requested after x.
	byLo := slices.Clone(ws)
	slices.SortStableFunc(byLo, order(func(w lateWrite) int64 { return w.lo }))
	byHi := ws // ws is not read again
	slices.SortStableFunc(byHi, order(func(w lateWrite) int64 { return w.hi }))
	maxReq, j := "", 0
	for _, x := range byLo {
		for j < len(byHi) && finishedBefore(byHi[j], ct(byHi[j]), x.lo, ct(x)) {
			if r := instants[byHi[j].i].RequestedTime; maxReq == "" || timeline.CompareInstants(r, maxReq) > 0 {
				maxReq = r
			}
			j++
		}
		if maxReq != "" && timeline.CompareInstants(instants[x.i].RequestedTime, maxReq) < 0 {
			late[x.i] = true
		}
	}
	return late
}

// nanos is t in Unix nanoseconds, 0 for the zero time (instant times are after 1970).
func nanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// before orders completion times (Unix ns, 0 for none); strings decide when a time does not
// parse (MDT-style) or the times are equal.
func before(a int64, as string, b int64, bs string) bool {
	if a != 0 && b != 0 && a != b {
		return a < b
	}
	return timeline.CompareInstants(as, bs) < 0
}

// lateWrite is one completed write: its index and completion bounds (Unix ns, 0 for none).
type lateWrite struct {
	i      int32
	lo, hi int64
}

// finishedBefore: y (completion string yct) certainly completed before a write whose earliest
// completion is lo (ct).
func finishedBefore(y lateWrite, yct string, lo int64, ct string) bool {
	if y.hi == 0 || lo == 0 {
		return timeline.CompareInstants(yct, ct) < 0
	}
	return y.hi <= lo
}

// CheckCheckpoint evaluates an incremental-read begin value against the snapshot's timeline
// (what `hudiscope checkpoint` prints), one verdict per reader line (see Readers). It may
// read the last clean's metadata. nil before the timeline step has run.
func (s *Snapshot) CheckCheckpoint(ctx context.Context, value string) []*checkpoint.Report {
	if s == nil || s.table == nil || s.Timeline == nil {
		return nil
	}
	rds, _ := s.Readers()
	return checkpoint.CheckAll(ctx, s.table, s.Timeline, value, rds)
}

// CountCheckpointRows fills each verdict's Rows with what the incremental read from its value
// returns, read by the record reader `incremental` uses (it reads data files).
func (s *Snapshot) CountCheckpointRows(ctx context.Context, rs []*checkpoint.Report) {
	for _, r := range rs {
		reread := map[string]bool{}
		if r.Instant != nil {
			reread[r.Instant.RequestedTime] = true
		}
		total, again, _, err := s.CountRowsFrom(ctx, IncrementalQuery{Begin: r.Value, Reader: r.Reader, NoMDT: s.Options.NoMDT}, reread)
		r.Rows = &checkpoint.Rows{Total: total, ReRead: again}
		if err != nil {
			r.Rows = &checkpoint.Rows{Error: err.Error()}
		}
	}
}

// InstantDetails reads one instant's plan and metadata (it may read storage).
func (s *Snapshot) InstantDetails(ctx context.Context, in *timeline.Instant) (*timeline.Details, error) {
	if s == nil || s.table == nil {
		return nil, errSkipped(StepProperties)
	}
	return s.table.Details(ctx, in)
}

// LastCommit is the completed write that completed last on the active timeline (nil: none):
// the Overview's "last commit" and the fleet row's, one rule (before table version 8 the
// completion times are derived from file modification times).
func LastCommit(tl *timeline.Timeline) *timeline.Instant {
	var last *timeline.Instant
	for _, in := range tl.Instants {
		if in.IsCompleted() && timeline.IsWriteAction(in.Action) &&
			(last == nil || timeline.CompareInstants(in.CompletionTime, last.CompletionTime) > 0) {
			last = in
		}
	}
	return last
}
