package model

import (
	"context"
	"fmt"

	"github.com/hudiscope/hudiscope/analyzers/eventlog"
	"github.com/hudiscope/hudiscope/hudi/storage"
)

// EventLogReport is the event-log analyzer's report (Snapshot.EventLog).
type EventLogReport = eventlog.Report

// AnalyzeEventLog runs the event-log analyzer the way the explorer and `hudiscope report` do:
// with p25/p75/p99 task durations, which the Event log pane's stage view draws; tune adjusts
// the options (nil keeps them).
func AnalyzeEventLog(ctx context.Context, path string, so storage.Options, tune func(*eventlog.Options)) (*eventlog.Report, error) {
	opt, err := tunedEventLogOptions(ctx, path, so, tune)
	if err != nil {
		return nil, err
	}
	return eventlog.Analyze(ctx, path, opt)
}

// tunedEventLogOptions are the explorer's event-log options (task percentiles on), adjusted
// by tune (nil keeps them), with the opener for path.
func tunedEventLogOptions(ctx context.Context, path string, so storage.Options, tune func(*eventlog.Options)) (eventlog.Options, error) {
	opt := eventlog.Options{IncludeTasks: true}
	if tune != nil {
		tune(&opt)
	}
	return EventLogOptions(ctx, path, so, opt)
}

// followEventLog reads the event log through a Follower (Options.FollowEventLog): the same
// analysis, and later polls read only what the running application appended.
func followEventLog(ctx context.Context, s *Snapshot) error {
	opt, err := tunedEventLogOptions(ctx, s.Options.EventLog, s.Options.Storage, s.Options.EventLogTune)
	if err != nil {
		return err
	}
	f, err := eventlog.NewFollower(s.Options.EventLog, opt)
	if err != nil {
		return err
	}
	if _, err := f.Poll(ctx); err != nil {
		return err
	}
	r := f.Report()
	if r == nil {
		return fmt.Errorf("%s: %w; is this a Spark event log?", s.Options.EventLog, eventlog.ErrNoEvents)
	}
	s.EventLog, s.follower = r, f
	return nil
}

// FollowEventLog polls a followed event log (see Options.FollowEventLog) and returns a new
// snapshot when the application wrote new events; the same snapshot and false otherwise.
func (s *Snapshot) FollowEventLog(ctx context.Context) (*Snapshot, bool, error) {
	if s.follower == nil {
		return s, false, nil
	}
	grew, err := s.follower.Poll(ctx)
	if err != nil || !grew {
		return s, false, err
	}
	next := s.clone()
	next.EventLog = s.follower.Report()
	return next, true, nil
}

// Following reports whether the snapshot's event log is followed and still in progress.
func (s *Snapshot) Following() bool {
	return s != nil && s.follower != nil && s.EventLog != nil && s.EventLog.Hudiscope.Source.InProgress
}

// CurrentStage is the latest submitted stage of the event log (by hudiscope's attribution),
// with whether it is still running; nil without stages.
func CurrentStage(r *EventLogReport) (*eventlog.Stage, bool) {
	if r == nil {
		return nil, false
	}
	stages := r.HudiscopeStages()
	var cur *eventlog.Stage
	for i := range stages {
		if cur == nil || stages[i].SubmissionTimeEpochMillis > cur.SubmissionTimeEpochMillis ||
			(stages[i].SubmissionTimeEpochMillis == cur.SubmissionTimeEpochMillis && stages[i].StageID > cur.StageID) {
			cur = &stages[i]
		}
	}
	if cur == nil {
		return nil, false
	}
	return cur, cur.CompletionTimeEpochMillis <= 0
}
