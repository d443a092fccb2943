// Package checkpoint answers "what does an incremental read from this begin time read?" for
// a Hudi table: which instant the value names, whether the read still has the timeline and
// the files it needs, and which writes it returns.
package checkpoint

import (
	"context"

	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// Match says what a checkpoint value is on the timeline.
type Match string

const (
	MatchRequested  Match = "requested"  // an instant's requested (instant) time
	MatchCompletion Match = "completion" // an instant's completion time
	MatchNone       Match = "none"
)

// Report answers "what does an incremental read from this value read?".
type Report struct {
	Value string `json:"value"`
	Match Match  `json:"match"`
	// Instant is the instant VALUE names (by requested or completion time), if any.
	Instant *timeline.Instant `json:"-"`
	// CompletionOrdered is true for table version ≥ 8, where begin.instanttime is compared with
	// completion times; older versions compare requested times.
	CompletionOrdered bool `json:"completionOrdered"`
	// InActiveTimeline is false when VALUE is older than the active timeline's first instant:
	// the instants between it and the timeline start are archived and Hudi falls back to a
	// full scan (or fails, depending on hoodie.datasource.read.incr.fallback.fulltablescan.enable).
	InActiveTimeline bool   `json:"inActiveTimeline"`
	ActiveStart      string `json:"activeTimelineStart"`
	// InCleanerRetention is false when VALUE is older than the last clean's
	// earliestCommitToRetain: files the read needs may already be deleted.
	InCleanerRetention     bool   `json:"inCleanerRetention"`
	EarliestCommitToRetain string `json:"earliestCommitToRetain,omitempty"`
	// Covered are the completed write instants the read returns, in completion order.
	Covered []*timeline.Instant `json:"-"`
	// ReRead is true when VALUE is the requested time of an instant that the read covers
	// again: the checkpoint came from _hoodie_commit_time and the batch is read twice.
	ReRead bool `json:"reRead"`
}

// Table is the table a begin time is checked against; *hudi.Table is one. Details is read
// for the last clean only.
type Table interface {
	Version() int
	Details(ctx context.Context, in *timeline.Instant) (*timeline.Details, error)
}

// Check evaluates an incremental-read begin time against tl, t's timeline.
func Check(ctx context.Context, t Table, tl *timeline.Timeline, value string) *Report {
	r := &Report{Value: value, Match: MatchNone, CompletionOrdered: t.Version() >= 8}
	var writes []*timeline.Instant
	for _, in := range tl.Instants {
		if in.State == timeline.Completed && timeline.IsWriteAction(in.Action) {
			writes = append(writes, in)
		}
	}
	for _, in := range tl.Instants {
		switch value {
		case in.RequestedTime:
			r.Match, r.Instant = MatchRequested, in
		case in.CompletionTime:
			if r.Match == MatchNone && !in.CompletionDerived {
				r.Match, r.Instant = MatchCompletion, in
			}
		}
	}
	if r.Match == MatchNone {
		for _, in := range tl.Archived {
			if value == in.RequestedTime {
				r.Match, r.Instant = MatchRequested, in
			} else if value == in.CompletionTime && r.Match == MatchNone {
				r.Match, r.Instant = MatchCompletion, in
			}
		}
	}
	if len(writes) > 0 {
		first := writes[0]
		for _, w := range writes {
			if timeline.CompareInstants(w.RequestedTime, first.RequestedTime) < 0 {
				first = w
			}
		}
		r.ActiveStart = first.RequestedTime
		// Anything at or after the first active write's requested time is still answerable
		// from the active timeline.
		r.InActiveTimeline = timeline.CompareInstants(value, first.RequestedTime) >= 0
	}
	r.InCleanerRetention = true
	if ect := lastCleanRetain(ctx, t, tl); ect != "" {
		r.EarliestCommitToRetain = ect
		r.InCleanerRetention = timeline.CompareInstants(value, ect) >= 0
	}
	for _, w := range writes {
		key := w.RequestedTime
		if r.CompletionOrdered {
			key = w.CompletionTime
		}
		if timeline.CompareInstants(key, value) > 0 {
			r.Covered = append(r.Covered, w)
			if r.Match == MatchRequested && w == r.Instant {
				r.ReRead = true
			}
		}
	}
	return r
}

// lastCleanRetain returns earliestCommitToRetain of the newest completed clean.
func lastCleanRetain(ctx context.Context, t Table, tl *timeline.Timeline) string {
	for i := len(tl.Instants) - 1; i >= 0; i-- {
		in := tl.Instants[i]
		if in.Action != timeline.ActionClean || in.State != timeline.Completed {
			continue
		}
		d, err := t.Details(ctx, in)
		if err == nil && d.Clean != nil && d.Clean.EarliestCommitToRetain != "" {
			return d.Clean.EarliestCommitToRetain
		}
	}
	return ""
}
