// Package records reads the records of a file slice: the base file (Parquet, with column
// projection and row-group pruning by _hoodie_commit_time) merged with the slice's log files
// (Avro data blocks, delete blocks, rollback command blocks). One slice is held in memory at
// a time.
package records

import (
	"context"
	"fmt"
	"strings"

	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/problem"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/tableconfig"
)

// Hudi's meta columns every record carries.
const (
	CommitTime    = "_hoodie_commit_time"
	RecordKey     = "_hoodie_record_key"
	PartitionPath = "_hoodie_partition_path"
)

// MergeMode says which of two versions of a record survives a merge.
type MergeMode string

const (
	// EventTime keeps the version with the greater ordering value (ties: the later write).
	EventTime MergeMode = "EVENT_TIME_ORDERING"
	// CommitTimeOrdering keeps the later write.
	CommitTimeOrdering MergeMode = "COMMIT_TIME_ORDERING"
)

// Options say what to read.
type Options struct {
	// Columns are projected beside the three meta columns; nil projects the meta columns only.
	Columns []string
	// AllColumns reads every column of the records (Columns is then ignored).
	AllColumns bool
	// OrderingFields decide merges under EventTime (the table's precombine/ordering fields).
	OrderingFields []string
	Mode           MergeMode
	// Committed says whether a log block's instant completed; nil accepts every block.
	Committed func(instant string) bool
	// CommitTimes, when set, keeps only records whose _hoodie_commit_time is in it (after
	// merging) and lets a slice without logs skip row groups whose statistics exclude them.
	CommitTimes map[string]bool
	// CommitAfter and CommitUpTo, when set, keep only records whose _hoodie_commit_time is
	// after CommitAfter and at or before CommitUpTo (string order, after merging): Hudi 0.x's
	// merge-on-read incremental span filter, which is a range rather than a set of commits.
	CommitAfter, CommitUpTo string
	// KeyFields are the record key fields of a table that does not populate meta fields
	// (hoodie.populate.meta.fields=false): its _hoodie_record_key is null, so records are told
	// apart, and merged, by these fields' values.
	KeyFields []string
	// OpenSource opens a skeleton base file's bootstrap source (hudi.Table.OpenBootstrapSource);
	// nil refuses skeleton base files.
	OpenSource func(context.Context, *filegroup.BaseFile) (storage.File, error)
	// ReaderColumns are the reader schema's columns (the table's latest schema, meta columns
	// first), handed on with every batch (Batch.Schema): a record written with an older
	// schema lacks a column added since, and a reader returns it as null. nil: unknown.
	ReaderColumns []string
	// ReaderTypes are the reader schema's long, float and double columns ("long", "float",
	// "double"): values a file holds in a narrower type (written before the column was
	// widened) are returned in the wider one.
	ReaderTypes map[string]string
	// PartitionFields are the table's partition fields: a bootstrap source file written
	// Hive-style lacks them, and its rows take them from the partition path.
	PartitionFields []string
}

// KeyFieldsFor are the fields a reader keys records by when the table leaves meta fields
// empty; nil when it populates them.
func KeyFieldsFor(cfg *tableconfig.Config) []string {
	if NoMetaFields(cfg) {
		return cfg.RecordKeys
	}
	return nil
}

// NoMetaFields reports whether the table leaves its meta fields empty
// (hoodie.populate.meta.fields=false).
func NoMetaFields(cfg *tableconfig.Config) bool {
	return strings.EqualFold(cfg.Props["hoodie.populate.meta.fields"], "false")
}

// deriveKey is a record's key from its key fields, as Hudi's key generators write it: the
// value alone for one field, "field:value" pairs joined by commas for several.
func deriveKey(r Record, fields []string) string {
	if len(fields) == 1 {
		return str(r.Values[fields[0]])
	}
	parts := make([]string, len(fields))
	for i, f := range fields {
		parts[i] = f + ":" + str(r.Values[f])
	}
	return strings.Join(parts, ",")
}

// ModeFor is the merge mode a table's configuration implies: hoodie.record.merge.mode,
// else the payload class, else event-time ordering when an ordering field is set.
func ModeFor(cfg *tableconfig.Config) MergeMode {
	switch m := strings.ToUpper(cfg.Props["hoodie.record.merge.mode"]); m {
	case string(EventTime), string(CommitTimeOrdering):
		return MergeMode(m)
	}
	payload := cfg.Props["hoodie.compaction.payload.class"]
	if payload == "" {
		payload = cfg.Props["hoodie.table.payload.class"]
	}
	if strings.Contains(payload, "OverwriteWithLatest") {
		return CommitTimeOrdering
	}
	if len(cfg.OrderingFields) == 0 {
		return CommitTimeOrdering
	}
	return EventTime
}

// Payload classes and merge strategies whose merge this reader reproduces.
var (
	knownPayloads = map[string]MergeMode{
		"org.apache.hudi.common.model.OverwriteWithLatestAvroPayload": CommitTimeOrdering,
		"org.apache.hudi.common.model.DefaultHoodieRecordPayload":     EventTime,
		"org.apache.hudi.common.model.EventTimeAvroPayload":           EventTime,
	}
	// hoodie.record.merge.strategy.id values (HoodieRecordMerger): event-time, commit-time and
	// payload-based (the payload class decides).
	knownStrategies = map[string]bool{
		"eeb8d96f-b1e4-49fd-bbf8-28ac514178e5": true,
		"ce9acb64-bde0-424c-9b91-f6ebba25356d": true,
		"00000000-0000-0000-0000-000000000000": true,
	}
)

// MergeNote says, for a table whose log records must be merged, when its payload class,
// record merger or merge mode is one this reader does not reproduce: rows merged from log
// files then follow ModeFor's ordering and may differ from Hudi's. "" when the merge is known.
func MergeNote(cfg *tableconfig.Config) string {
	payload := cfg.Props["hoodie.compaction.payload.class"]
	if payload == "" {
		payload = cfg.Props["hoodie.table.payload.class"]
	}
	how := "keeps the later write"
	if ModeFor(cfg) == EventTime {
		how = "keeps the greater " + strings.Join(cfg.OrderingFields, ",")
	}
	mode := strings.ToUpper(cfg.Props["hoodie.record.merge.mode"])
	strategy := cfg.Props["hoodie.record.merge.strategy.id"]
	if strategy == "" {
		strategy = cfg.Props["hoodie.compaction.record.merger.strategy"]
	}
	switch {
	case mode != "" && mode != string(EventTime) && mode != string(CommitTimeOrdering) && mode != "CUSTOM":
		return fmt.Sprintf("unknown record merge mode %s (hoodie.record.merge.mode): log records are merged as hudiscope's default (%s), which may differ from Hudi's", mode, how)
	case mode == "CUSTOM" && (strategy == "" || !knownStrategies[strategy] || payload != "" && knownPayloads[payload] == ""):
		return fmt.Sprintf("custom record merger (hoodie.record.merge.mode=CUSTOM, strategy %s, payload %s): its merge is not reproduced; log records are merged as hudiscope's default (%s), which may differ from Hudi's", orNone(strategy), orNone(payload), how)
	case strategy != "" && !knownStrategies[strategy]:
		return fmt.Sprintf("unknown record merger strategy %s: its merge is not reproduced; log records are merged as hudiscope's default (%s), which may differ from Hudi's", strategy, how)
	case payload != "" && knownPayloads[payload] == "":
		return fmt.Sprintf("payload class %s is not one hudiscope reproduces (it may combine or drop records its own way); log records are merged as hudiscope's default (%s), which may differ from Hudi's", payload, how)
	}
	return ""
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// Record is one record: its key, partition, commit time and projected values (meta columns
// included).
type Record struct {
	Key        string
	Partition  string
	CommitTime string
	Values     map[string]any
	// Fields are the record's columns in its file's schema order (shared between records).
	Fields   []string
	ordering []any
	deleted  bool
}

// Result is what one slice read produced.
type Result struct {
	Records []Record
	// UndecodedDeletes counts delete blocks in a serialisation this reader does not decode
	// (0.x writes Java-serialised deletes): their records may still be in Records.
	UndecodedDeletes int
	// SkippedRowGroups counts base-file row groups pruned by commit-time statistics.
	SkippedRowGroups int
}

// ReadSlice reads and merges one file slice. Bad blocks and pages are recorded in problems
// (naming the file and block) and the rest of the slice is still read; an error means the
// base file could not be read at all.
func ReadSlice(ctx context.Context, store storage.Storage, s *filegroup.FileSlice, o Options, problems *problem.Log) (*Result, error) {
	return readSliceWith(ctx, store, s, o, problems, nil)
}

// readSliceWith is ReadSlice, also calling onDelete (when set) with each record a delete
// removed from the result.
func readSliceWith(ctx context.Context, store storage.Storage, s *filegroup.FileSlice, o Options, problems *problem.Log, onDelete func(Record)) (*Result, error) {
	res := &Result{}
	st, err := readSliceBatches(ctx, store, s, o, problems, onDelete, func(b *Batch) error {
		for i := range b.Len() {
			res.Records = append(res.Records, b.Record(i))
		}
		return nil
	})
	res.UndecodedDeletes, res.SkippedRowGroups = st.undecodedDeletes, st.skippedRowGroups
	if err != nil && ctx.Err() == nil {
		return nil, err
	}
	return res, ctx.Err()
}

// projection is the columns to read: meta columns, ordering fields, requested columns.
func projection(o Options) []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range append(append(append([]string{CommitTime, RecordKey, PartitionPath}, o.OrderingFields...), o.KeyFields...), o.Columns...) {
		if c != "" && !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}

// wins says whether incoming (a later write) replaces existing.
func (o Options) wins(incoming, existing Record) bool {
	if o.Mode != EventTime || incoming.deleted && incoming.ordering == nil {
		return true
	}
	// A delete whose ordering value is of another type than the record's wins (Hudi's
	// doProcessNextDeletedRecord keeps the record only for the same class and a greater value).
	if incoming.deleted && len(existing.ordering) > 0 && fmt.Sprintf("%T", incoming.ordering[0]) != fmt.Sprintf("%T", existing.ordering[0]) {
		return true
	}
	return compareOrdering(incoming.ordering, existing.ordering) >= 0
}

// compareOrdering compares ordering values field by field; values of unknown or mixed types
// compare equal (the later write wins).
func compareOrdering(a, b []any) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if c := compareValue(a[i], b[i]); c != 0 {
			return c
		}
	}
	return 0
}

func compareValue(a, b any) int {
	if fa, ok := number(a); ok {
		if fb, ok := number(b); ok {
			switch {
			case fa < fb:
				return -1
			case fa > fb:
				return 1
			}
			return 0
		}
	}
	sa, oka := a.(string)
	sb, okb := b.(string)
	if oka && okb {
		return strings.Compare(sa, sb)
	}
	return 0
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case int32:
		return float64(n), true
	case int64:
		return float64(n), true
	case int:
		return float64(n), true
	case float32:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}

func str(v any) string {
	switch s := v.(type) {
	case nil:
		return ""
	case string:
		return s
	case []byte:
		return string(s)
	}
	return fmt.Sprint(v)
}

// keepCommit applies CommitTimes and the commit range to a merged record's commit time.
func (o *Options) keepCommit(ct string) bool {
	if o.CommitTimes != nil && !o.CommitTimes[ct] {
		return false
	}
	if o.CommitAfter != "" && ct <= o.CommitAfter {
		return false
	}
	return o.CommitUpTo == "" || ct <= o.CommitUpTo
}
