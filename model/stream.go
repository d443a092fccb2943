package model

import (
	"context"

	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// The streaming reads the commands make (files and timeline JSON) go through the snapshot, so
// no caller holds the table reader itself.

// BasePath is the table's base path as its storage names it; "" before the table is opened.
func (s *Snapshot) BasePath() string {
	if s.table == nil {
		return ""
	}
	return s.table.Store.Root()
}

// CDCMode is the table's change-data-capture logging mode (see CDCMode); "" when the table
// has no CDC or is not opened.
func (s *Snapshot) CDCMode() string {
	if s.table == nil {
		return ""
	}
	return CDCMode(s.table)
}

// EachPartition lists the file view of the loaded timeline as StepFiles would (the metadata
// table unless Options.NoMDT) but hands the partitions to emit one at a time, in path order,
// while later ones are still listed (hudi.Table.ViewFunc): begin gets the listing's source
// first. Nothing is kept on the snapshot.
func (s *Snapshot) EachPartition(ctx context.Context, begin func(source string) error, emit func(*filegroup.Partition) error) error {
	if s.table == nil || s.Timeline == nil {
		return errSkipped(StepTimeline)
	}
	return s.table.ViewFunc(ctx, s.Timeline, s.listing(), begin, emit)
}

// listing is where the file view is listed from: Options.NoMDT forces storage.
func (s *Snapshot) listing() hudi.ListingSource {
	if s.Options.NoMDT {
		return hudi.ListingStorage
	}
	return hudi.ListingAuto
}

// StreamCommits reads the commit metadata of instants in the background (compact: totals
// only, no per-file stats kept); ready(i) blocks until instants[i] has been read. Without a
// table there is nothing to read and ready returns at once.
func (s *Snapshot) StreamCommits(ctx context.Context, instants []*timeline.Instant, compact bool) (ready func(i int)) {
	if s.table == nil {
		return func(int) {}
	}
	return s.table.LoadCommitsStream(ctx, instants, compact)
}

// NewSnapshot is a snapshot over a table the caller opened and read itself (tests and
// benchmarks that feed panes step by step): the table's properties, timeline tl and the steps
// done so far. Every command builds its snapshot with Load instead.
func NewSnapshot(opts Options, t *hudi.Table, tl *timeline.Timeline, done ...Step) *Snapshot {
	s := &Snapshot{Options: opts, table: t, Timeline: tl, Done: done, StepErrors: map[Step]error{}, begins: &beginsMemo{}}
	if t != nil {
		s.Config = t.Config
	}
	return s
}

// WriterSchemas reads the writer schema each of instants recorded (nil without a table): the
// schema text only, identical texts shared, on the reader's bounded workers.
func (s *Snapshot) WriterSchemas(ctx context.Context, instants []*timeline.Instant) []timeline.WriterSchema {
	if s.table == nil {
		return nil
	}
	return s.table.WriterSchemas(ctx, instants)
}

// SchemaHistoryFile reads the newest file of the table's schema-on-read history
// (hudi.Table.SchemaHistoryFile); "" without a table or without such a file.
func (s *Snapshot) SchemaHistoryFile(ctx context.Context) (text, path string, err error) {
	if s.table == nil {
		return "", "", nil
	}
	return s.table.SchemaHistoryFile(ctx)
}
