package model

import (
	"context"
	"sort"
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
	type w = lateWrite
	var ws []w
	for i, in := range instants {
		if in.CompletionTime == "" || !timeline.IsWriteAction(in.Action) {
			continue
		}
		lo, hi := in.CompletionBounds()
		ws = append(ws, w{i, lo, hi, in.CompletionTime})
	}
	// byLo: candidates in order of earliest completion; byHi: possible predecessors in order of
	// latest completion. Sweep: every write whose latest completion is ≤ x's earliest finished
	// before x; x is late if one of them was requested after x.
	byLo := append([]w(nil), ws...)
	sort.SliceStable(byLo, func(a, b int) bool { return before(byLo[a].lo, byLo[a].ct, byLo[b].lo, byLo[b].ct) })
	byHi := append([]w(nil), ws...)
	sort.SliceStable(byHi, func(a, b int) bool { return before(byHi[a].hi, byHi[a].ct, byHi[b].hi, byHi[b].ct) })
	maxReq, j := "", 0
	for _, x := range byLo {
		for j < len(byHi) && finishedBefore(byHi[j], x.lo, x.ct) {
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

// before orders completion times; strings decide when a time does not parse (MDT-style).
func before(a time.Time, as string, b time.Time, bs string) bool {
	if !a.IsZero() && !b.IsZero() && !a.Equal(b) {
		return a.Before(b)
	}
	return timeline.CompareInstants(as, bs) < 0
}

// lateWrite is one completed write: its index, completion bounds and completion string.
type lateWrite struct {
	i      int
	lo, hi time.Time
	ct     string
}

// finishedBefore: y certainly completed before a write whose earliest completion is lo (ct).
func finishedBefore(y lateWrite, lo time.Time, ct string) bool {
	if y.hi.IsZero() || lo.IsZero() {
		return timeline.CompareInstants(y.ct, ct) < 0
	}
	return !y.hi.After(lo)
}

// CheckCheckpoint evaluates an incremental-read begin value against the snapshot's timeline
// (what `hudiscope checkpoint` prints), one verdict per reader line (see Readers). It may
// read the last clean's metadata. nil before the timeline step has run.
func (s *Snapshot) CheckCheckpoint(ctx context.Context, value string) []*checkpoint.Report {
	if s == nil || s.Table == nil || s.Timeline == nil {
		return nil
	}
	rds, _ := s.Readers()
	return checkpoint.CheckAll(ctx, s.Table, s.Timeline, value, rds)
}

// InstantDetails reads one instant's plan and metadata (it may read storage).
func (s *Snapshot) InstantDetails(ctx context.Context, in *timeline.Instant) (*timeline.Details, error) {
	if s == nil || s.Table == nil {
		return nil, errSkipped(StepProperties)
	}
	return s.Table.Details(ctx, in)
}
