package model

import (
	"context"
	"fmt"
	"strings"

	"github.com/hudiscope/hudiscope/analyzers/checkpoint"
	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/problem"
	"github.com/hudiscope/hudiscope/hudi/records"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// ChangesQuery is a CDC read (`hudi_table_changes(table, 'cdc', begin[, end])`).
type ChangesQuery struct {
	// Begin is "earliest" or an instant time, compared as the reader line's incremental reads
	// compare it (requested or completion time, inclusive or not); End likewise, inclusive.
	Begin, End string
	Reader     checkpoint.Reader
}

// ErrNoCDC says the table does not log changes.
type ErrNoCDC struct{ Table string }

func (e ErrNoCDC) Error() string {
	return fmt.Sprintf("%s is not a CDC table (hoodie.table.cdc.enabled is not true): no change images are logged, so Hudi refuses a CDC query (It isn't a CDC hudi table). The rows an incremental read returns: hudiscope incremental %s --begin VALUE", e.Table, e.Table)
}

// Changes calls fn for every CDC row of the writes in q's range.
func (s *Snapshot) Changes(ctx context.Context, q ChangesQuery, fn func(records.Change) error) (records.Stats, error) {
	if s.table == nil || s.Timeline == nil {
		return records.Stats{}, fmt.Errorf("the table's timeline was not loaded")
	}
	return Changes(ctx, s.table, s.Timeline, q, fn)
}

// CDCMode is the table's supplemental logging mode in the 1.x spelling ("" when the table
// logs no changes); 0.13/0.14's cdc_op_key, cdc_data_before and cdc_data_before_after are
// the same modes.
func CDCMode(t *hudi.Table) string {
	if !t.Config.CDCEnabled {
		return ""
	}
	switch m := strings.ToUpper(t.Config.CDCMode); m {
	case "CDC_OP_KEY", "OP_KEY", records.CDCOpKeyOnly:
		return records.CDCOpKeyOnly
	case "CDC_DATA_BEFORE", records.CDCDataBefore:
		return records.CDCDataBefore
	case "CDC_DATA_BEFORE_AFTER", "":
		return records.CDCDataBeforeAfter
	default:
		return m
	}
}

// Changes reads the CDC rows of the completed data-changing writes (commit, deltacommit,
// replacecommit; not compaction or clustering) of the active timeline in q's range, as Hudi's
// HoodieCDCExtractor does (it reads the active timeline only), one file group at a time.
func Changes(ctx context.Context, t *hudi.Table, tl *timeline.Timeline, q ChangesQuery, fn func(records.Change) error) (records.Stats, error) {
	mode := CDCMode(t)
	if mode == "" {
		return records.Stats{}, ErrNoCDC{Table: t.Store.Root()}
	}
	switch mode {
	case records.CDCOpKeyOnly, records.CDCDataBefore, records.CDCDataBeforeAfter:
	default:
		return records.Stats{}, ErrRowsUnknown{fmt.Sprintf("unknown CDC supplemental logging mode %q (hoodie.table.cdc.supplemental.logging.mode); known: OP_KEY_ONLY, DATA_BEFORE, DATA_BEFORE_AFTER", mode)}
	}
	if q.Begin == "" {
		q.Begin = "earliest"
	}
	if q.Begin != "earliest" {
		if !isInstantTime(q.Begin) {
			return records.Stats{}, ErrRowsUnknown{fmt.Sprintf("--begin %q is neither 'earliest' nor an instant time", q.Begin)}
		}
	}
	if q.Begin != "earliest" {
		// HoodieCDCExtractor: the start must be on the active timeline.
		if a := checkpoint.ArchivedWrites(tl); len(a) > 0 && timeline.CompareInstants(a[len(a)-1].RequestedTime, q.Begin) > 0 {
			return records.Stats{}, ErrRowsUnknown{fmt.Sprintf("Hudi refuses this CDC read: the start instant time %s has to be in the active timeline (writes up to %s are archived); use --begin earliest for the active timeline's changes", q.Begin, a[len(a)-1].RequestedTime)}
		}
	}
	var problems problem.Log
	writes := cdcWrites(ctx, t, tl, q, &problems)
	o := records.CDCOptions{Mode: mode, OrderingFields: t.Config.OrderingFields, MergeMode: records.ModeFor(t.Config)}
	err := records.ReadChanges(ctx, t.Store, writes, o, &problems, fn)
	return records.Stats{Slices: len(writes), Problems: problems.List()}, err
}

// cdcWrites are the writes a CDC read of q returns rows of: completed data-changing writes
// (commit, deltacommit, replacecommit; not compaction or clustering, not operations that
// change no data) in q's range, with their commit metadata; unreadable metadata is a problem.
func cdcWrites(ctx context.Context, t *hudi.Table, tl *timeline.Timeline, q ChangesQuery, problems *problem.Log) []*timeline.Instant {
	var writes []*timeline.Instant
	for _, in := range tl.Instants {
		if in.State != timeline.Completed || !in.IsDataWrite(t.Config.Type) {
			continue
		}
		if q.Begin != "" && q.Begin != "earliest" && !checkpoint.Returns(q.Reader, in, q.Begin) {
			continue
		}
		if !checkpoint.UpTo(q.Reader, in, q.End) {
			continue
		}
		w := in
		if w.Commit == nil {
			d, err := t.Details(ctx, in)
			if err != nil || d.Commit == nil {
				problems.Add(t.Store.Root()+"/"+in.CompletedFile(), fmt.Sprintf("commit metadata: %v", err))
				continue
			}
			c := *in
			c.Commit = d.Commit
			w = &c
		}
		if !dataChange(w.Commit.OperationType) {
			continue
		}
		writes = append(writes, w)
	}
	return writes
}

// dataChange is Hudi's WriteOperationType.isDataChange (yieldChanges in newer releases, which
// counts the *_prepped forms too): the operations whose rows a CDC read returns.
func dataChange(op string) bool {
	switch strings.ToLower(op) {
	case "insert", "upsert", "delete", "bulk_insert", "delete_partition", "insert_overwrite", "insert_overwrite_table", "bootstrap",
		"insert_prepped", "upsert_prepped", "delete_prepped", "bulk_insert_prepped":
		return true
	}
	return false
}
