package model

import (
	"context"
	"fmt"

	"github.com/hudiscope/hudiscope/analyzers/duplicates"
	"github.com/hudiscope/hudiscope/hudi/records"
)

// FileNameColumn is the meta column naming the file a record was written to.
const FileNameColumn = "_hoodie_file_name"

// Duplicates finds the record keys the latest snapshot holds more than once: it reads only the
// meta columns (and the ordering fields a log merge compares) of every file group's latest
// slice, log blocks merged into their base file first (a key updated in a log file is one copy),
// and hands (key, location) tuples to a duplicates.Finder, which spills sorted runs to a
// temporary directory past o.MemBudget and removes it before returning, also when ctx is
// cancelled.
func (s *Snapshot) Duplicates(ctx context.Context, o duplicates.Options) (*duplicates.Result, records.Stats, error) {
	f := duplicates.NewFinder(o)
	defer f.Close()
	q := SnapshotQuery{RowColumns: RowColumns{Columns: []string{FileNameColumn}}}
	st, err := s.SnapshotBatches(ctx, q, func(b *records.Batch) error {
		var fileID, baseName, partition string
		if g := b.FileGroup; g != nil {
			fileID, partition = g.FileID, g.Partition
			if sl, _ := g.Merged(); sl != nil && sl.Base != nil {
				baseName = sl.Base.Name
			}
		}
		for i := range b.Len() {
			name, _ := b.Get(i, FileNameColumn).(string)
			if name == "" {
				name = baseName // a table that leaves meta fields empty
			}
			part := b.Partition(i)
			if part == "" {
				part = partition // a table that leaves meta fields empty: the file group's
			}
			loc := duplicates.Location{Partition: part, FileID: fileID, FileName: name, CommitTime: b.CommitTime(i)}
			if err := f.Add(b.Key(i), loc); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, st, err
	}
	res, err := f.Finish()
	if err != nil {
		return nil, st, err
	}
	if err := f.Close(); err != nil {
		return nil, st, fmt.Errorf("remove the spill directory: %w", err)
	}
	return res, st, nil
}
