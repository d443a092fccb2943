package model

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/hudiscope/hudiscope/analyzers/checkpoint"
	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/records"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// Record-level reads: the rows a snapshot, time-travel or incremental query returns, read file
// slice by file slice (hudi/records holds one slice's records in memory at a time; rows reach
// the caller's function as each slice is done, so memory is bounded by the largest slice).

// RowColumns says which columns a read returns.
type RowColumns struct {
	// Columns are returned beside the three meta columns; nil with All unset returns the meta
	// columns only (what counting needs).
	Columns []string
	// All returns every column of the table.
	All bool
}

func (c RowColumns) options(t *hudi.Table) records.Options {
	return records.Options{Columns: c.Columns, AllColumns: c.All && len(c.Columns) == 0, OrderingFields: t.Config.OrderingFields, Mode: records.ModeFor(t.Config),
		KeyFields: records.KeyFieldsFor(t.Config)}
}

// SnapshotQuery is a snapshot read, optionally as of an instant (Hudi's time travel,
// `as.of.instant`).
type SnapshotQuery struct {
	// AsOf is an instant time (yyyyMMddHHmmss[SSS]); "" reads the latest snapshot.
	AsOf string
	// Where keeps the rows every predicate matches (ANDed), pruning partitions and, through
	// the record key's index, file groups first.
	Where []Predicate
	RowColumns
}

// IncrementalQuery is one incremental read: its options and the reading release line.
type IncrementalQuery struct {
	Begin, End string
	Fallback   *bool // nil: option unset
	Reader     checkpoint.Reader
	NoMDT      bool
	RowColumns
}

// ErrRowsUnknown marks reads whose result the reader line does not define well enough to
// reproduce, and time-travel values Hudi refuses.
type ErrRowsUnknown struct{ Why string }

func (e ErrRowsUnknown) Error() string { return e.Why }

// SnapshotRows calls fn for every row of the snapshot (as of q.AsOf when set).
func (s *Snapshot) SnapshotRows(ctx context.Context, q SnapshotQuery, fn func(records.Record) error) (records.Stats, error) {
	return s.SnapshotBatches(ctx, q, records.PerRecord(fn))
}

// SnapshotBatches is SnapshotRows a batch of rows at a time (values converted only when asked).
func (s *Snapshot) SnapshotBatches(ctx context.Context, q SnapshotQuery, fn func(*records.Batch) error) (records.Stats, error) {
	if s.table == nil || s.Timeline == nil || s.View == nil {
		return records.Stats{}, fmt.Errorf("the table's timeline and file view were not loaded")
	}
	return SnapshotBatches(ctx, s.table, s.Timeline, s.View, s.Options.NoMDT, q, s.countSlices(fn))
}

// countSlices passes each batch to fn and tells Options.OnSlices of each file slice begun
// (its batches come one slice at a time).
func (s *Snapshot) countSlices(fn func(*records.Batch) error) func(*records.Batch) error {
	on := s.Options.OnSlices
	if on == nil {
		return fn
	}
	var last *filegroup.FileGroup
	return func(b *records.Batch) error {
		if b.FileGroup != last || last == nil {
			last = b.FileGroup
			on(1)
		}
		return fn(b)
	}
}

// SnapshotRows reads the snapshot of t (as of q.AsOf when set), one file slice at a time.
//
// Time travel follows Hudi's file index, the same in 0.x and 1.x (BaseHoodieTableFileIndex,
// TimelineUtils.validateTimestampAsOf): the value is compared with **requested** (instant)
// times, also on 1.x tables whose timeline is ordered by completion time. The read takes each
// file group's latest slice whose base instant is at or before it, skips log blocks of later
// instants, and is refused when an incomplete write (other than clustering) was requested at
// or before it.
func SnapshotRows(ctx context.Context, t *hudi.Table, tl *timeline.Timeline, view *filegroup.View, noMDT bool, q SnapshotQuery, fn func(records.Record) error) (records.Stats, error) {
	return SnapshotBatches(ctx, t, tl, view, noMDT, q, records.PerRecord(fn))
}

// SnapshotBatches is SnapshotRows a batch of rows at a time.
func SnapshotBatches(ctx context.Context, t *hudi.Table, tl *timeline.Timeline, view *filegroup.View, noMDT bool, q SnapshotQuery, fn func(*records.Batch) error) (records.Stats, error) {
	if q.AsOf != "" {
		var err error
		if tl, view, err = asOfRequested(ctx, t, tl, q.AsOf, noMDT); err != nil {
			var empty errBeforeFirstWrite
			if errors.As(err, &empty) {
				// Spark returns no rows here; the note says why.
				return records.Stats{Notes: []string{empty.why}}, nil
			}
			return records.Stats{}, err
		}
	}
	o := q.options(t)
	o.ReaderColumns, o.ReaderTypes = q.readerSchema(ctx, t, tl)
	if len(q.Where) > 0 {
		var err error
		if view, _, err = whereView(ctx, t, tl, view, noMDT, q.AsOf == "", q.Where); err != nil {
			return records.Stats{}, err
		}
		if !o.AllColumns {
			for _, p := range q.Where {
				if !slices.Contains(o.Columns, p.Column) {
					o.Columns = append(slices.Clip(o.Columns), p.Column)
				}
			}
		}
		fn = whereFilter(q.Where, fn)
	}
	return records.ScanBatches(ctx, t, tl, view, o, fn)
}

// readerSchema is the reader schema's columns when every column is read, and its long, float
// and double columns (values written narrower are widened to them): the schema of the
// newest completed write on tl that records one (Hudi's TableSchemaResolver reads the latest
// commit metadata's schema), meta columns first. nil when none of the newest
// maxSchemaLookback writes records a schema: rows then carry their own files' columns.
func (c RowColumns) readerSchema(ctx context.Context, t *hudi.Table, tl *timeline.Timeline) ([]string, map[string]string) {
	if !c.All || len(c.Columns) > 0 {
		return nil, nil
	}
	writes := make([]*timeline.Instant, 0, len(tl.Instants))
	for _, in := range tl.Instants {
		if in.State == timeline.Completed && timeline.IsWriteAction(in.Action) {
			writes = append(writes, in)
		}
	}
	sort.SliceStable(writes, func(a, b int) bool {
		return timeline.CompareInstants(writes[a].RequestedTime, writes[b].RequestedTime) > 0
	})
	// Writes that record no schema (a delete, some 0.x writers) are passed over, but only so
	// many: on a timeline of a hundred thousand such writes this would read every commit.
	if len(writes) > maxSchemaLookback {
		writes = writes[:maxSchemaLookback]
	}
	for _, in := range writes {
		cm := in.Commit
		if cm == nil || cm.ExtraMetadata["schema"] == "" {
			var err error
			if cm, err = t.Commit(ctx, in); err != nil {
				continue
			}
		}
		if cols, types := schemaColumns(cm.ExtraMetadata["schema"]); cols != nil {
			return withMetaColumns(t, cols), types
		}
	}
	return nil, nil
}

// maxSchemaLookback bounds the writes readerColumns reads looking for a schema.
const maxSchemaLookback = 50

// schemaColumns are the top-level field names of an Avro record schema (nil when it is not
// one) and the fields of type long, float or double (alone or in a union with null).
func schemaColumns(text string) ([]string, map[string]string) {
	if text == "" {
		return nil, nil
	}
	var sch struct {
		Fields []struct {
			Name string          `json:"name"`
			Type json.RawMessage `json:"type"`
		} `json:"fields"`
	}
	if json.Unmarshal([]byte(text), &sch) != nil || len(sch.Fields) == 0 {
		return nil, nil
	}
	out := make([]string, len(sch.Fields))
	var types map[string]string
	for i, f := range sch.Fields {
		out[i] = f.Name
		var one string
		var union []json.RawMessage
		if json.Unmarshal(f.Type, &union) == nil {
			for _, u := range union {
				var s string
				if json.Unmarshal(u, &s) == nil && s != "null" {
					one = s
				}
			}
		} else {
			_ = json.Unmarshal(f.Type, &one)
		}
		switch one {
		case "long", "float", "double":
			if types == nil {
				types = map[string]string{}
			}
			types[f.Name] = one
		}
	}
	return out, types
}

// metaColumns are the meta columns every record of a table that populates them carries, in
// Hudi's order (HoodieRecord.HOODIE_META_COLUMNS).
var metaColumns = []string{records.CommitTime, "_hoodie_commit_seqno", records.RecordKey, records.PartitionPath, "_hoodie_file_name"}

// withMetaColumns puts the meta columns before a writer schema's data columns, as Hudi's
// reader schema does (the commit metadata's schema usually has none; a table that does not
// populate them still returns them, null).
func withMetaColumns(t *hudi.Table, cols []string) []string {
	meta := metaColumns
	if strings.EqualFold(t.Config.Props["hoodie.allow.operation.metadata.field"], "true") {
		meta = append(meta[:len(meta):len(meta)], "_hoodie_operation")
	}
	out := make([]string, 0, len(cols)+len(meta))
	for _, m := range meta {
		if !slices.Contains(cols, m) {
			out = append(out, m)
		}
	}
	return append(out, cols...)
}

// asOfRequested is the timeline and file view a time-travel read as of asOf sees.
func asOfRequested(ctx context.Context, t *hudi.Table, tl *timeline.Timeline, asOf string, noMDT bool) (*timeline.Timeline, *filegroup.View, error) {
	if !isInstantTime(asOf) {
		return nil, nil, ErrRowsUnknown{fmt.Sprintf("--as-of %q is not an instant time (yyyyMMddHHmmss or yyyyMMddHHmmssSSS)", asOf)}
	}
	var first *timeline.Instant
	out := &timeline.Timeline{Archived: tl.Archived, ByRequested: tl.ByRequested}
	for _, in := range tl.Instants {
		if timeline.CompareInstants(in.RequestedTime, asOf) > 0 {
			continue
		}
		if in.State != timeline.Completed && isCommitAction(in) {
			return nil, nil, ErrRowsUnknown{fmt.Sprintf("Hudi refuses time travel to %s: the %s requested at %s has not completed (Time travel's timestamp must be earlier than the first incomplete commit timestamp)", asOf, in.Action, in.RequestedTime)}
		}
		if in.State == timeline.Completed && timeline.IsWriteAction(in.Action) && (first == nil || timeline.CompareInstants(in.RequestedTime, first.RequestedTime) < 0) {
			first = in
		}
		out.Instants = append(out.Instants, in)
	}
	// Hudi validates against the cleaner before it lists anything, so a value the cleaner has
	// passed is refused even where the table had no rows yet.
	if err := validateAsOfClean(ctx, t, tl, asOf); err != nil {
		return nil, nil, err
	}
	if first == nil {
		earliest := ""
		for _, in := range tl.Instants {
			if in.State == timeline.Completed && timeline.IsWriteAction(in.Action) && (earliest == "" || timeline.CompareInstants(in.RequestedTime, earliest) < 0) {
				earliest = in.RequestedTime
			}
		}
		// Hudi bounds time travel by the cleaner (checked above), not by the archive: a value
		// older than the active timeline reads the files the archived writes up to it left,
		// which are still there while the cleaner retains them.
		// Compactions and clustering count: the base files they wrote are visible too.
		var before []*timeline.Instant
		for _, in := range tl.Archived {
			if in.State == timeline.Completed && timeline.IsWriteAction(in.Action) && timeline.CompareInstants(in.RequestedTime, asOf) <= 0 {
				before = append(before, in)
			}
		}
		sort.Slice(before, func(a, b int) bool {
			return timeline.CompareInstants(before[a].RequestedTime, before[b].RequestedTime) < 0
		})
		if len(before) == 0 {
			why := fmt.Sprintf("--as-of %s is before the first write on the active timeline", asOf)
			if earliest != "" {
				why += fmt.Sprintf(" (requested at %s)", earliest)
			}
			if len(checkpoint.ArchivedWrites(tl)) > 0 {
				why += " and before every archived write"
			}
			return nil, nil, errBeforeFirstWrite{why + ": the table had no rows then"}
		}
		// The archived writes up to asOf stand in for the active timeline: files and log
		// blocks they wrote are committed, later archived ones are not.
		out.Instants = append(before, out.Instants...)
	}
	src := hudi.ListingAuto
	if noMDT {
		src = hudi.ListingStorage
	}
	parts, err := t.ListPartitions(ctx, tl, src)
	if err != nil {
		return nil, nil, err
	}
	return out, t.BuildView(ctx, out, parts, filegroup.SourceStorage), nil
}

// isInstantTime says whether s is an instant time: a date (yyyyMMddHHmmss[SSS]) or one of the
// bootstrap instants (00000000000001 METADATA_ONLY, 00000000000002 FULL_RECORD), which Hudi
// keeps apart as not parsable as dates but reads as instants.
func isInstantTime(s string) bool {
	if _, ok := timeline.ParseInstantTime(s, time.UTC); ok {
		return true
	}
	return hudi.IsBootstrapInstant(s)
}

// validateAsOfClean is the second half of TimelineUtils.validateTimestampAsOf (the same from
// 0.12 to 1.2): the newest completed clean bounds time travel. With an earliest commit to
// retain (KEEP_LATEST_COMMITS, KEEP_LATEST_BY_HOURS) the value must be at or after it; without
// one (KEEP_LATEST_FILE_VERSIONS records none) it must be at or after the first completed
// write on the active timeline; and clean metadata Hudi cannot read refuses the read too.
func validateAsOfClean(ctx context.Context, t *hudi.Table, tl *timeline.Timeline, asOf string) error {
	var clean *timeline.Instant
	for i := len(tl.Instants) - 1; i >= 0; i-- {
		if in := tl.Instants[i]; in.IsClean() && in.State == timeline.Completed &&
			(clean == nil || timeline.CompareInstants(in.RequestedTime, clean.RequestedTime) > 0) {
			clean = in
		}
	}
	if clean == nil {
		return nil
	}
	d, err := t.Details(ctx, clean)
	switch {
	case err != nil:
	case len(d.Problems) > 0:
		err = fmt.Errorf("%s: %s", d.Problems[0].File, d.Problems[0].Err)
	case d.Clean == nil:
		err = fmt.Errorf("no clean metadata")
	}
	if err != nil {
		return ErrRowsUnknown{fmt.Sprintf("Hudi refuses time travel to %s: it reads the newest clean (%s) to check what the cleaner retained, and its metadata cannot be read (%v)", asOf, clean.RequestedTime, err)}
	}
	if ect := d.Clean.EarliestCommitToRetain; ect != "" {
		if timeline.CompareInstants(ect, asOf) > 0 {
			return ErrRowsUnknown{fmt.Sprintf("Hudi refuses time travel to %s: the cleaner (clean %s) retains commits from %s on, so the files of that state may be deleted (Cleaner cleaned up the timestamp of interest)", asOf, clean.RequestedTime, ect)}
		}
		return nil
	}
	earliest := ""
	for _, in := range tl.Instants {
		if in.State == timeline.Completed && timeline.IsWriteAction(in.Action) && (earliest == "" || timeline.CompareInstants(in.RequestedTime, earliest) < 0) {
			earliest = in.RequestedTime
		}
	}
	if earliest != "" && timeline.CompareInstants(earliest, asOf) > 0 {
		return ErrRowsUnknown{fmt.Sprintf("Hudi refuses time travel to %s: the newest clean (%s) keeps file versions rather than commits and records no earliest commit to retain, and the first completed write on the active timeline was requested at %s (Please ensure sufficient commits are retained (uncleaned and un-archived))", asOf, clean.RequestedTime, earliest)}
	}
	return nil
}

// errBeforeFirstWrite: a time-travel value older than every write of a table that archived
// none; the read returns no rows (as Spark's does) and why is a note.
type errBeforeFirstWrite struct{ why string }

func (e errBeforeFirstWrite) Error() string { return e.why }

// isCommitAction: the instants Hudi's getCommitsTimeline holds, clustering excluded (a pending
// clustering does not stop time travel).
func isCommitAction(in *timeline.Instant) bool {
	return timeline.IsWriteAction(in.Action) && !in.IsClustering()
}

// IncrementalRows calls fn for every row the incremental read q returns.
func (s *Snapshot) IncrementalRows(ctx context.Context, q IncrementalQuery, fn func(records.Record) error) (records.Stats, error) {
	return s.IncrementalBatches(ctx, q, records.PerRecord(fn))
}

// IncrementalBatches is IncrementalRows a batch of rows at a time.
func (s *Snapshot) IncrementalBatches(ctx context.Context, q IncrementalQuery, fn func(*records.Batch) error) (records.Stats, error) {
	if s.table == nil || s.Timeline == nil || s.View == nil {
		return records.Stats{}, fmt.Errorf("the table's timeline and file view were not loaded")
	}
	return IncrementalBatches(ctx, s.table, s.Timeline, s.View, q, s.countSlices(fn))
}

// IncrementalRows calls fn for every record the incremental read q returns: the latest
// version (as of q.End) of each record whose latest write is among the returned writes.
func IncrementalRows(ctx context.Context, t *hudi.Table, tl *timeline.Timeline, view *filegroup.View, q IncrementalQuery, fn func(records.Record) error) (records.Stats, error) {
	return IncrementalBatches(ctx, t, tl, view, q, records.PerRecord(fn))
}

// IncrementalBatches is IncrementalRows a batch of rows at a time.
func IncrementalBatches(ctx context.Context, t *hudi.Table, tl *timeline.Timeline, view *filegroup.View, q IncrementalQuery, fn func(*records.Batch) error) (records.Stats, error) {
	// Without meta fields no row carries the commit time an incremental read filters on;
	// every Hudi release refuses the read (IncrementalRelation) rather than return nothing.
	if t.Config != nil && records.NoMetaFields(t.Config) {
		return records.Stats{}, ErrRowsUnknown{"Hudi refuses incremental reads of a table that does not populate meta fields " +
			"(hoodie.populate.meta.fields=false): \"Incremental queries are not supported when meta fields are disabled\"; " +
			"read a snapshot (hudiscope snapshot) instead"}
	}
	if t.IsMOR() && q.Reader.Line == "0.x" {
		return incremental0xMOR(ctx, t, tl, view, q, fn)
	}
	commits, err := incrementalCommits(ctx, t, tl, q)
	if err != nil {
		return records.Stats{}, err
	}
	// Hudi 1.1+ reads the slices as of the latest completion time among the active writes in
	// range; when every write in range is archived, as of the latest active completion
	// (IncrementalQueryAnalyzer.getMaxCompletionTime: "these files already got cleaned"):
	// the latest slices, filtered by the commits.
	if q.End != "" && !(q.Reader.Line == "1.1+" && onlyArchived(tl, commits)) {
		src := hudi.ListingAuto
		if q.NoMDT {
			src = hudi.ListingStorage
		}
		parts, err := t.ListPartitions(ctx, tl, src)
		if err != nil {
			return records.Stats{}, err
		}
		tl = asOfReader(tl, q.End, q.Reader)
		view = t.BuildView(ctx, tl, parts, filegroup.SourceStorage)
	}
	o := q.options(t)
	o.CommitTimes = commits
	o.ReaderColumns, o.ReaderTypes = q.readerSchema(ctx, t, tl)
	if commits != nil && len(commits) == 0 {
		return records.Stats{}, nil
	}
	return records.ScanBatches(ctx, t, tl, view, o, fn)
}

// CountRows counts rows by commit time (the --count --by commit answer, and the tests').
func CountRows(read func(fn func(records.Record) error) (records.Stats, error)) (map[string]int, records.Stats, error) {
	out := map[string]int{}
	st, err := read(func(r records.Record) error {
		out[r.CommitTime]++
		return nil
	})
	return out, st, err
}

// incrementalCommits returns the commit times whose records the read returns (nil: every
// record, a full table scan), by the same plan `checkpoint` judges a value with.
func incrementalCommits(_ context.Context, t *hudi.Table, tl *timeline.Timeline, q IncrementalQuery) (map[string]bool, error) {
	p := checkpoint.PlanRead(tl, checkpoint.Query{Begin: q.Begin, End: q.End, Fallback: q.Fallback, MOR: t.IsMOR()}, q.Reader)
	if p.Unknown != "" {
		return nil, ErrRowsUnknown{p.Unknown}
	}
	if p.WholeTable {
		return nil, nil
	}
	out := map[string]bool{}
	for _, w := range p.Writes {
		out[w.RequestedTime] = true
	}
	return out, nil
}

// onlyArchived: commits (non-nil) name at least one write and none of the active timeline's.
func onlyArchived(tl *timeline.Timeline, commits map[string]bool) bool {
	if len(commits) == 0 {
		return false
	}
	for _, in := range tl.Instants {
		if commits[in.RequestedTime] {
			return false
		}
	}
	return true
}

// asOfReader is the timeline as of end: instants the reader sees completed by then.
func asOfReader(tl *timeline.Timeline, end string, rd checkpoint.Reader) *timeline.Timeline {
	out := &timeline.Timeline{Archived: tl.Archived, ByRequested: tl.ByRequested}
	for _, in := range tl.Instants {
		key := in.RequestedTime
		if rd.CompletionOrdered() && in.State == timeline.Completed {
			key = in.CompletionTime
		}
		if timeline.CompareInstants(key, end) <= 0 {
			out.Instants = append(out.Instants, in)
		}
	}
	return out
}
