package findings

import (
	"testing"

	"github.com/hudiscope/hudiscope/hudi/tableconfig"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// On a MERGE_ON_READ table a completed commit is a compaction even when its plan and metadata
// were not read (an archived one): the facts counted it as a write while their cadence counted
// it as the last compaction. A replacecommit that is not clustering (insert_overwrite) is a
// write, as the Gantt now draws it.
func TestFactsKindsOneAnswer(t *testing.T) {
	// Archived instants carry their metadata in the archive (MetadataLoaded), so the facts
	// drawn from the writes are measured, not unknown.
	at := func(action, ts, op string) *timeline.Instant {
		return &timeline.Instant{Action: action, RequestedTime: ts, CompletionTime: ts, State: timeline.Completed, Operation: op, Archived: true}
	}
	tl := &timeline.Timeline{Archived: []*timeline.Instant{
		at(timeline.ActionDeltaCommit, "20260101000000000", "UPSERT"),
		at(timeline.ActionCommit, "20260101000100000", ""), // compaction, plan not read
		at(timeline.ActionDeltaCommit, "20260101000200000", "UPSERT"),
		at(timeline.ActionReplaceCommit, "20260101000300000", "INSERT_OVERWRITE"),
		at(timeline.ActionDeltaCommit, "20260101000400000", "UPSERT"),
	}}
	f := DeriveTableFacts(&tableconfig.Config{Type: tableconfig.MergeOnRead, Version: 6}, tl, nil)
	if got := *f.Compactions.Completed; got != 1 {
		t.Errorf("completed compactions = %d, want 1 (the commit)", got)
	}
	if got := *f.Commits.Count; got != 4 {
		t.Errorf("writes = %d, want 4 (three delta commits and the insert_overwrite)", got)
	}
	if got := *f.Clustering.Completed; got != 0 {
		t.Errorf("completed clusterings = %d, want 0 (the replacecommit is an insert_overwrite)", got)
	}
	if got := *f.Compactions.DeltaCommitsSince; got != 2 {
		t.Errorf("delta commits since the compaction = %d, want 2", got)
	}
}
