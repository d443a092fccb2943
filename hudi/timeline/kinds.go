package timeline

import (
	"strings"

	"github.com/hudiscope/hudiscope/hudi/tableconfig"
)

// What an instant is. Every "is this a compaction / clustering / data write / table service?"
// in hudiscope is answered here, after Hudi's own classification (HoodieTimeline's action sets,
// ClusteringUtils.isClusteringInstant, WriteOperationType), so that health, findings, the Gantt
// and the model cannot give two answers to one question:
//
//   - compaction plans (`compaction`) complete as `commit`, in 0.x and 1.x; a MERGE_ON_READ
//     table writes data as delta commits, so on MOR a completed commit is a compaction, unless
//     its metadata names a data write: Hudi 1.1's first bulk_insert into a MOR table completes
//     as a `commit` with operation type BULK_INSERT (fixture dups-1.1.1);
//   - log compaction plans (`logcompaction`) complete as `deltacommit`;
//   - a `replacecommit` is clustering when its requested plan holds a clustering plan (reading
//     the timeline sets PlanAction then) or its metadata says CLUSTER; otherwise it is
//     insert_overwrite(_table) or delete_partition, by its operation type; 1.x plans
//     clustering as `clustering`, which completes as `replacecommit`.
//
// Operation types are WriteOperationType names; older writers and archived entries have been
// seen in other cases, so they are compared without case.

// Operation types (WriteOperationType) the kinds below read.
const (
	OpCompact              = "COMPACT"
	OpLogCompact           = "LOG_COMPACT"
	OpCluster              = "CLUSTER"
	OpInsertOverwrite      = "INSERT_OVERWRITE"
	OpInsertOverwriteTable = "INSERT_OVERWRITE_TABLE"
	OpDeletePartition      = "DELETE_PARTITION"
)

func (i *Instant) opIs(op string) bool { return strings.EqualFold(i.Operation, op) }

// dataOps are the WriteOperationType names of data writes a MERGE_ON_READ table can complete
// as a `commit` (a bulk_insert, e.g.).
var dataOps = map[string]bool{"INSERT": true, "INSERT_PREPPED": true, "UPSERT": true, "UPSERT_PREPPED": true,
	"BULK_INSERT": true, "BULK_INSERT_PREPPED": true, "DELETE": true, "DELETE_PREPPED": true}

func (i *Instant) isDataOp() bool { return dataOps[strings.ToUpper(i.Operation)] }

// IsCompaction: a compaction, pending (its plan) or completed (a commit). tableType is the
// timeline's table's hoodie.table.type (a metadata table is MERGE_ON_READ); on any other table,
// or "" when the type is not known, a commit is a compaction only when it started from a
// compaction plan or its metadata says COMPACT.
func (i *Instant) IsCompaction(tableType string) bool {
	switch i.Action {
	case ActionCompaction:
		return true
	case ActionCommit:
		return i.PlanAction == ActionCompaction || i.opIs(OpCompact) ||
			(tableType == tableconfig.MergeOnRead && i.State == Completed && !i.isDataOp())
	}
	return false
}

// IsLogCompaction: a log compaction, pending (its plan) or completed (a delta commit).
func (i *Instant) IsLogCompaction() bool {
	switch i.Action {
	case ActionLogCompaction:
		return true
	case ActionDeltaCommit:
		return i.PlanAction == ActionLogCompaction || i.opIs(OpLogCompact)
	}
	return false
}

// IsClustering: a clustering, pending or completed (ClusteringUtils.isClusteringInstant: the
// 1.x clustering action, or a replacecommit whose requested plan is a clustering plan; its
// CLUSTER operation type when the plan was not read, e.g. archived).
func (i *Instant) IsClustering() bool {
	switch i.Action {
	case ActionClustering:
		return true
	case ActionReplaceCommit:
		return i.PlanAction == ActionClustering || i.opIs(OpCluster)
	}
	return false
}

// IsInsertOverwrite: a replacecommit that wrote insert_overwrite or insert_overwrite_table.
func (i *Instant) IsInsertOverwrite() bool {
	return i.Action == ActionReplaceCommit && !i.IsClustering() &&
		(i.opIs(OpInsertOverwrite) || i.opIs(OpInsertOverwriteTable))
}

// IsDeletePartition: a replacecommit that dropped partitions.
func (i *Instant) IsDeletePartition() bool {
	return i.Action == ActionReplaceCommit && !i.IsClustering() && i.opIs(OpDeletePartition)
}

// IsDataWrite: a writer's commit (commit, deltacommit, or a replacecommit that is not
// clustering: insert_overwrite, delete_partition), in any state; not a compaction, log
// compaction or clustering.
func (i *Instant) IsDataWrite(tableType string) bool {
	return IsWriteAction(i.Action) && !i.IsCompaction(tableType) && !i.IsLogCompaction() && !i.IsClustering()
}

// IsPlannedService: a table service that runs from a plan: compaction, log compaction,
// clustering.
func (i *Instant) IsPlannedService(tableType string) bool {
	return i.IsCompaction(tableType) || i.IsLogCompaction() || i.IsClustering()
}

// IsTableService: a table service (Hudi's TableServiceType: compaction, log compaction,
// clustering, clean; archival leaves no instant).
func (i *Instant) IsTableService(tableType string) bool {
	return i.IsPlannedService(tableType) || i.IsClean()
}

// IsCommit: the action is `commit` (a COW write or a completed compaction).
func (i *Instant) IsCommit() bool { return i.Action == ActionCommit }

// IsDeltaCommit: the action is `deltacommit` (a MOR write or a completed log compaction).
func (i *Instant) IsDeltaCommit() bool { return i.Action == ActionDeltaCommit }

// IsReplaceCommit: the action is `replacecommit` (clustering, insert_overwrite, delete_partition).
func (i *Instant) IsReplaceCommit() bool { return i.Action == ActionReplaceCommit }

// IsClean: a clean.
func (i *Instant) IsClean() bool { return i.Action == ActionClean }

// IsRollback: a rollback.
func (i *Instant) IsRollback() bool { return i.Action == ActionRollback }

// IsRestore: a restore.
func (i *Instant) IsRestore() bool { return i.Action == ActionRestore }

// IsSavepoint: a savepoint.
func (i *Instant) IsSavepoint() bool { return i.Action == ActionSavepoint }

// IsIndexing: an async indexing (metadata table index build).
func (i *Instant) IsIndexing() bool { return i.Action == ActionIndexing }

// HasPlan: the instant started from a plan whose action differs from the action it shows now
// (a compaction completed as commit, a clustering as replacecommit).
func (i *Instant) HasPlan() bool { return i.PlanAction != "" && i.PlanAction != i.Action }

// Hudi's timeline views by action (HoodieDefaultTimeline), any state.

// InCommitTimeline: getCommitTimeline (commit, replacecommit, clustering).
func (i *Instant) InCommitTimeline() bool {
	return i.Action == ActionCommit || i.Action == ActionReplaceCommit || i.Action == ActionClustering
}

// InCommitsTimeline: getCommitsTimeline (commit, deltacommit, replacecommit, clustering).
func (i *Instant) InCommitsTimeline() bool {
	return i.InCommitTimeline() || i.Action == ActionDeltaCommit
}

// InWriteTimeline: getWriteTimeline (the commits timeline, compaction, logcompaction).
func (i *Instant) InWriteTimeline() bool {
	return i.InCommitsTimeline() || i.Action == ActionCompaction || i.Action == ActionLogCompaction
}
