package records

import (
	"context"

	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/problem"
	"github.com/hudiscope/hudiscope/hudi/storage"
)

// Version is one stored version of a record in a file slice: its row in the base file, or
// its record (or delete) in a committed log block.
type Version struct {
	// File is the base or log file's name; InLog says which.
	File  string
	InLog bool
	// Instant is the write that stored it: the row's _hoodie_commit_time in a base file, the
	// block's instant in a log file.
	Instant string
	// Deleted marks a delete-block entry (Record then holds the key and partition only).
	Deleted bool
	Record  Record
}

// KeyVersions reads every version of key stored in slice s, oldest first: the base file's row,
// then the records and deletes of its log blocks in log order (blocks of instants o.Committed
// rejects and blocks a rollback cancelled are left out, as a reader leaves them). Bad blocks are
// recorded in problems; an error means the base file could not be read.
func KeyVersions(ctx context.Context, store storage.Storage, s *filegroup.FileSlice, key string, o Options, problems *problem.Log) ([]Version, error) {
	var out []Version
	if s.Base != nil {
		base := &filegroup.FileSlice{BaseInstant: s.BaseInstant, Base: s.Base}
		_, err := readSliceBatches(ctx, store, base, o, problems, nil, func(b *Batch) error {
			for i := range b.Len() {
				if b.Key(i) == key {
					r := b.Record(i)
					out = append(out, Version{File: s.Base.Name, Instant: r.CommitTime, Record: r})
				}
			}
			return nil
		})
		if err != nil {
			return out, err
		}
	}
	for _, blk := range readLogs(ctx, store, s.Logs, o, problems) {
		for _, r := range blk.records {
			if r.Key == "" && len(o.KeyFields) > 0 && !r.deleted {
				r.Key = deriveKey(r, o.KeyFields)
			}
			if r.Key != key {
				continue
			}
			out = append(out, Version{File: blk.file, InLog: true, Instant: blk.instant, Deleted: r.deleted, Record: r})
		}
	}
	return out, ctx.Err()
}
