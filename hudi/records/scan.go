package records

import (
	"context"
	"errors"

	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/problem"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// Stats describe a table scan.
type Stats struct {
	Slices           int
	FailedSlices     int
	SkippedRowGroups int
	UndecodedDeletes int
	// Problems are the bad files and blocks met; the other slices were still read.
	Problems []problem.Problem
	// Notes qualify the result (a merge this reader does not reproduce).
	Notes []string
}

// Committed returns the test a log block's instant must pass: completed on tl, or older
// than its first write (archived instants count as committed, as in Java, whose
// CompletionTimeQueryView.isCompleted takes every instant before the active write timeline's
// first non-savepoint write for archived). Writes only: a restore or clean left first on the
// active timeline while later writes were archived must not hide those writes' log blocks.
func Committed(tl *timeline.Timeline) func(string) bool {
	done := map[string]bool{}
	saved := map[string]bool{}
	for _, in := range tl.Instants {
		if in.Action == timeline.ActionSavepoint {
			saved[in.RequestedTime] = true
		}
	}
	first := ""
	for _, in := range tl.Instants {
		switch in.Action {
		case timeline.ActionCommit, timeline.ActionDeltaCommit, timeline.ActionReplaceCommit,
			timeline.ActionCompaction, timeline.ActionLogCompaction, timeline.ActionClustering:
			if !saved[in.RequestedTime] && (first == "" || timeline.CompareInstants(in.RequestedTime, first) < 0) {
				first = in.RequestedTime
			}
		}
		if in.State == timeline.Completed {
			done[in.RequestedTime] = true
		}
	}
	return func(instant string) bool {
		return done[instant] || first != "" && timeline.CompareInstants(instant, first) < 0
	}
}

// Scan reads the slice a snapshot read merges of every live file group in view, one slice at
// a time, calling fn for each record kept. A slice that cannot be read is recorded in Stats
// and the scan goes on; an error from fn or the context stops it.
func Scan(ctx context.Context, t *hudi.Table, tl *timeline.Timeline, view *filegroup.View, o Options, fn func(Record) error) (Stats, error) {
	return ScanBatches(ctx, t, tl, view, o, PerRecord(fn))
}

// PerRecord hands a batch's rows to fn one Record at a time: a row-at-a-time caller of a
// function that reads batches.
func PerRecord(fn func(Record) error) func(*Batch) error {
	return func(b *Batch) error {
		for i := range b.Len() {
			if err := fn(b.Record(i)); err != nil {
				return err
			}
		}
		return nil
	}
}

// ScanBatches is Scan handing rows over a batch at a time, without converting values the
// caller does not ask for. Memory is bounded by one file slice: its log records and one
// batch of base rows. A slice whose base file fails part way has its earlier batches
// already handed over; it is counted in Stats.FailedSlices.
func ScanBatches(ctx context.Context, t *hudi.Table, tl *timeline.Timeline, view *filegroup.View, o Options, fn func(*Batch) error) (Stats, error) {
	var st Stats
	var problems problem.Log
	if o.Committed == nil {
		o.Committed = Committed(tl)
	}
	if o.OpenSource == nil {
		o.OpenSource = t.OpenBootstrapSource
	}
	if o.PartitionFields == nil && t.Config != nil {
		o.PartitionFields = t.Config.PartitionFieldNames()
	}
	if t.IsMOR() {
		if n := MergeNote(t.Config); n != "" {
			st.Notes = append(st.Notes, n)
		}
	}
	for _, p := range view.Partitions {
		for _, g := range p.FileGroups {
			s, _ := g.Merged()
			if s == nil {
				continue
			}
			if err := ctx.Err(); err != nil {
				return st, err
			}
			st.Slices++
			res, err := readSliceBatches(ctx, t.Store, s, o, &problems, nil, func(b *Batch) error {
				b.FileGroup = g
				return fn(b)
			})
			var stop consumerError
			switch {
			case errors.As(err, &stop):
				return st, stop.err
			case err != nil:
				if ctx.Err() != nil {
					return st, ctx.Err()
				}
				st.FailedSlices++
				problems.Add(t.Store.Root()+"/"+p.Path+" file group "+g.FileID, err.Error())
			default:
				st.SkippedRowGroups += res.skippedRowGroups
				st.UndecodedDeletes += res.undecodedDeletes
			}
		}
	}
	st.Problems = problems.List()
	return st, nil
}
