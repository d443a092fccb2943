package model

import (
	"context"

	"github.com/hudiscope/hudiscope/analyzers/eventlog"
	"github.com/hudiscope/hudiscope/hudi/storage"
)

// EventLogReport is the event-log analyzer's report (Snapshot.EventLog).
type EventLogReport = eventlog.Report

// AnalyzeEventLog runs the event-log analyzer the way the explorer and `hudiscope report` do:
// with p25/p75/p99 task durations, which the Event log pane's stage view draws; tune adjusts
// the options (nil keeps them).
func AnalyzeEventLog(ctx context.Context, path string, so storage.Options, tune func(*eventlog.Options)) (*eventlog.Report, error) {
	opt := eventlog.Options{IncludeTasks: true}
	if tune != nil {
		tune(&opt)
	}
	opt, err := EventLogOptions(ctx, path, so, opt)
	if err != nil {
		return nil, err
	}
	return eventlog.Analyze(ctx, path, opt)
}
