package model

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/records"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// CommitRows reads, page by page, the records one write left as of its completion: the rows
// an incremental read of exactly that write returns (its _hoodie_commit_time). Each page is
// a fresh scan that keeps only the page's rows, so memory is one file slice plus one page,
// whatever the table's size; the file view as of the write is built once and shared.
type CommitRows struct {
	s  *Snapshot
	in *timeline.Instant

	mu   sync.Mutex
	tl   *timeline.Timeline
	view *filegroup.View
}

// RowPage is one page of a commit's rows.
type RowPage struct {
	// Offset is the index of Rows[0] among the commit's rows (in scan order: partition, file
	// group, then the slice's order).
	Offset int
	Rows   []records.Record
	// Total is how many rows the commit left.
	Total int
	// Found is the index of the row a find matched (-1: none matched).
	Found int
	Stats records.Stats
}

// ReturnsRows says whether an instant's own records can be read back by commit time: completed
// writes; clustering and compaction keep the commit times of the records they rewrite.
func ReturnsRows(in *timeline.Instant) bool {
	// The table type is not known here: services are told by their plan or metadata.
	return in != nil && in.State == timeline.Completed && in.IsDataWrite("")
}

// CommitRows returns the paged reader of the rows instant in wrote.
func (s *Snapshot) CommitRows(in *timeline.Instant) *CommitRows {
	return &CommitRows{s: s, in: in}
}

// prepare builds (once) the timeline and file view as of the write: instants completed by its
// completion (requested by its request when completion times are unknown).
func (c *CommitRows) prepare(ctx context.Context) (*timeline.Timeline, *filegroup.View, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.view != nil {
		return c.tl, c.view, nil
	}
	s := c.s
	if s == nil || s.table == nil || s.Timeline == nil {
		return nil, nil, fmt.Errorf("the table's timeline was not loaded")
	}
	if !ReturnsRows(c.in) {
		return nil, nil, ErrRowsUnknown{fmt.Sprintf("%s %s writes no rows of its own (only completed commits and delta commits do)", c.in.RequestedTime, c.in.Action)}
	}
	end := c.in.CompletionTime
	tl := &timeline.Timeline{Archived: s.Timeline.Archived, ByRequested: s.Timeline.ByRequested}
	for _, in := range s.Timeline.Instants {
		keep := timeline.CompareInstants(in.RequestedTime, c.in.RequestedTime) <= 0
		if end != "" && in.State == timeline.Completed && in.CompletionTime != "" {
			keep = timeline.CompareInstants(in.CompletionTime, end) <= 0
		}
		if keep {
			tl.Instants = append(tl.Instants, in)
		}
	}
	src := hudi.ListingAuto
	if s.Options.NoMDT {
		src = hudi.ListingStorage
	}
	parts, err := s.table.ListPartitions(ctx, tl, src)
	if err != nil {
		return nil, nil, err
	}
	c.tl, c.view = tl, s.table.BuildView(ctx, tl, parts, filegroup.SourceStorage)
	return c.tl, c.view, nil
}

func (c *CommitRows) scan(ctx context.Context, fn func(records.Record) error) (records.Stats, error) {
	tl, view, err := c.prepare(ctx)
	if err != nil {
		return records.Stats{}, err
	}
	o := RowColumns{All: true}.options(c.s.table)
	o.CommitTimes = map[string]bool{c.in.RequestedTime: true}
	return records.Scan(ctx, c.s.table, tl, view, o, fn)
}

// Page reads the rows [offset, offset+limit). With find set it first looks for the first row
// at or after offset whose record key contains find (case-insensitive; wrapping to the start),
// and returns the page that holds it, Found set to its index.
func (c *CommitRows) Page(ctx context.Context, offset, limit int, find string) (RowPage, error) {
	limit = max(1, limit)
	offset = max(0, offset)
	p := RowPage{Found: -1}
	if find != "" {
		needle := strings.ToLower(find)
		first := -1
		i := 0
		_, err := c.scan(ctx, func(r records.Record) error {
			if strings.Contains(strings.ToLower(r.Key), needle) {
				if first < 0 {
					first = i
				}
				if i >= offset {
					p.Found = i
					return errStopScan
				}
			}
			i++
			return nil
		})
		if err != nil && err != errStopScan {
			return p, err
		}
		if p.Found < 0 {
			p.Found = first
		}
		if p.Found >= 0 {
			offset = p.Found / limit * limit
		}
	}
	p.Offset = offset
	i := 0
	st, err := c.scan(ctx, func(r records.Record) error {
		if i >= offset && i < offset+limit {
			p.Rows = append(p.Rows, r)
		}
		i++
		return nil
	})
	p.Total, p.Stats = i, st
	return p, err
}

// errStopScan ends a scan early from its callback.
var errStopScan = fmt.Errorf("scan stopped")

// CountRowsFrom counts the rows an incremental read from begin returns (by the reader line of
// rep) and how many of them the instants named in reread wrote: the rows read again.
func (s *Snapshot) CountRowsFrom(ctx context.Context, q IncrementalQuery, reread map[string]bool) (total, again int, st records.Stats, err error) {
	if s == nil || s.table == nil || s.Timeline == nil {
		return 0, 0, st, fmt.Errorf("the table's timeline was not loaded")
	}
	view := s.View
	if view == nil {
		// Loads that skip the layout step have no view: list the partitions for this read.
		src := hudi.ListingAuto
		if q.NoMDT {
			src = hudi.ListingStorage
		}
		parts, lerr := s.table.ListPartitions(ctx, s.Timeline, src)
		if lerr != nil {
			return 0, 0, st, lerr
		}
		view = s.table.BuildView(ctx, s.Timeline, parts, filegroup.SourceStorage)
	}
	st, err = IncrementalRows(ctx, s.table, s.Timeline, view, q, func(r records.Record) error {
		total++
		if reread[r.CommitTime] {
			again++
		}
		return nil
	})
	return total, again, st, err
}
