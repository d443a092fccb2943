package model

import (
	"context"

	"github.com/hudiscope/hudiscope/analyzers/checkpoint"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// Read-only helpers the Timeline pane and the report share. None of them change the snapshot.

// TimelineInstants returns the instants a timeline view lists, in completion order: the active
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

// LateCompletions marks, for instants given in completion order, each completed write
// (commit, deltacommit, replacecommit) that started (was requested) before a write that
// completed ahead of it. These are the places where completion order and requested order
// disagree: a checkpoint taken from the largest _hoodie_commit_time seen so far skips or
// re-reads them. Pending instants and table services without data (clean, savepoint, rollback;
// a savepoint even carries its commit's time) are never marked and never mark others.
func LateCompletions(inCompletionOrder []*timeline.Instant) []bool {
	late := make([]bool, len(inCompletionOrder))
	maxReq := ""
	for i, in := range inCompletionOrder {
		if in.CompletionTime == "" || !timeline.IsWriteAction(in.Action) {
			continue
		}
		if maxReq != "" && timeline.CompareInstants(in.RequestedTime, maxReq) < 0 {
			late[i] = true
		}
		if maxReq == "" || timeline.CompareInstants(in.RequestedTime, maxReq) > 0 {
			maxReq = in.RequestedTime
		}
	}
	return late
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
