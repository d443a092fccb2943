package model

import (
	"context"

	"github.com/hudiscope/hudiscope/analyzers/eventlog"
)

// StepEventLog analyses the Spark event log given with --event-log.
const StepEventLog Step = "event log"

// EventLogReport is the event-log analyzer's report (Snapshot.EventLog).
type EventLogReport = eventlog.Report

// The event-log step runs after the table analyses (this file sorts after analyzers.go, so its
// init appends later) and only when an event log was given.
func init() {
	steps = append(steps, step{StepEventLog, func(o Options) bool { return o.EventLog != "" },
		func(ctx context.Context, s *Snapshot) error {
			r, err := AnalyzeEventLog(ctx, s.Options.EventLog)
			if err != nil {
				return err
			}
			s.EventLog = r
			return nil
		}})
}

// AnalyzeEventLog runs the event-log analyzer the way the explorer and `hudiscope report` do:
// with p25/p75/p99 task durations, which the Event log pane's stage view draws.
func AnalyzeEventLog(ctx context.Context, path string) (*eventlog.Report, error) {
	opt, err := EventLogOptions(ctx, path, eventlog.Options{IncludeTasks: true})
	if err != nil {
		return nil, err
	}
	return eventlog.Analyze(ctx, path, opt)
}
