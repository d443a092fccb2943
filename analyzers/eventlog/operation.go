package eventlog

import (
	"sort"
	"strings"
)

// Operations (HoodieSparkEventLogAnalyzer vocabulary).
const (
	OpWrite         = "WRITE_OPERATION"
	OpCompaction    = "COMPACTION"
	OpLogCompaction = "LOG_COMPACTION"
	OpClustering    = "CLUSTERING"
	OpCleaning      = "CLEANING"
	OpArchival      = "ARCHIVAL"
	OpRollback      = "ROLLBACK"
	OpRestore       = "RESTORE"
	OpSavepoint     = "SAVEPOINT"
	OpBootstrap     = "BOOTSTRAP"
	OpIndexing      = "INDEXING"
	OpStreamerSync  = "STREAMER_SYNC"
	OpUnknown       = "UNKNOWN"

	SourceModule   = "module"
	SourceSequence = "sequence"
	SourceNone     = "none"
)

type rule struct{ substr, op string }

// moduleRules: case-insensitive substrings of the module, first hit wins. The
// order is the Java tool's except that "logcompaction" is checked before the
// compaction rules (HoodieLogCompactionPlanGenerator is log compaction).
var moduleRules = []rule{
	{"insertoverwritetablecommitactionexecutor", OpWrite},
	{"insertoverwritecommitactionexecutor", OpWrite},
	{"deletepartitioncommitactionexecutor", OpWrite},
	{"logcompaction", OpLogCompaction},
	{"schedulecompactionactionexecutor", OpCompaction},
	{"compactionplangenerator", OpCompaction},
	{"runcompactionactionexecutor", OpCompaction},
	{"compactionadminclient", OpCompaction},
	{"hoodiecompactor", OpCompaction},
	{"clusteringcommitactionexecutor", OpClustering},
	{"clusteringexecutionstrategy", OpClustering},
	{"executionstrategy", OpClustering},
	{"cleanplanactionexecutor", OpCleaning},
	{"cleanactionexecutor", OpCleaning},
	{"restoreactionexecutor", OpRestore},
	{"listingbasedrollbackstrategy", OpRollback},
	{"rollbackhelper", OpRollback},
	{"savepointactionexecutor", OpSavepoint},
	{"bootstrapcommitactionexecutor", OpBootstrap},
	{"timelinearchiver", OpArchival},
	{"streamsync", OpStreamerSync},
	{"recordindexer", OpIndexing},
	{"secondaryindex", OpIndexing},
	{"filesindexer", OpIndexing},
	{"metadatawriteclient", OpIndexing},
	{"backedtablemetadatawriter", OpIndexing},
	{"upsertpartitioner", OpWrite},
	{"commitactionexecutor", OpWrite},
	{"writehelper", OpWrite},
	{"writeclient", OpWrite},
}

// javaModuleRules is the Java tool's order, kept to report what it would say.
var javaModuleRules = func() []rule {
	r := append([]rule{}, moduleRules[:3]...)
	r = append(r, moduleRules[4:7]...)
	r = append(r, moduleRules[3])
	return append(r, moduleRules[7:]...)
}()

// subPhaseRules decide PLANNING/EXECUTION jobs without a module. Ours checks
// clusteringUpdateHandling first: it is a step of a write, not a clustering.
var subPhaseRules = []rule{
	{"clusteringupdatehandling", OpWrite},
	{"recordindexlookup", OpWrite},
	{"metadatalisting", OpIndexing},
	{"logcompaction", OpLogCompaction},
	{"compaction", OpCompaction},
	{"clustering", OpClustering},
	{"clean", OpCleaning},
	{"rollback", OpRollback},
	{"savepoint", OpSavepoint},
	{"bootstrap", OpBootstrap},
}

var javaSubPhaseRules = subPhaseRules[1:]

func matchRules(s string, rules []rule) string {
	if s == "" {
		return OpUnknown
	}
	lower := strings.ToLower(s)
	for _, r := range rules {
		if strings.Contains(lower, r.substr) {
			return r.op
		}
	}
	return OpUnknown
}

// resolveOperation decides a job's operation from its module, then from the
// sub-phases and phases of its stages (in stage order).
func resolveOperation(module string, phases, subPhases []string, java bool) (string, string) {
	mr, sr := moduleRules, subPhaseRules
	if java {
		mr, sr = javaModuleRules, javaSubPhaseRules
	}
	if op := matchRules(module, mr); op != OpUnknown {
		return op, SourceModule
	}
	if len(phases) == 0 {
		return OpUnknown, SourceNone
	}
	for _, sp := range subPhases {
		if op := matchRules(sp, sr); op != OpUnknown {
			return op, SourceSequence
		}
	}
	for _, p := range phases {
		switch p {
		case PhaseArchival:
			return OpArchival, SourceSequence
		case PhaseMetadataWrite:
			return OpIndexing, SourceSequence
		case PhaseSourceRead:
			return OpStreamerSync, SourceSequence
		case PhaseDedupTagging, PhaseDataWrite, PhaseMarkers:
			return OpWrite, SourceSequence
		}
	}
	return OpUnknown, SourceNone
}

// writeOperationTypes names the Hudi write operation from the commit executor class.
var writeOperationTypes = []struct{ substr, op string }{
	{"insertoverwritetable", "insert_overwrite_table"},
	{"insertoverwrite", "insert_overwrite"},
	{"deletepartition", "delete_partition"},
	{"bulkinsertprepped", "bulk_insert_prepped"},
	{"bulkinsert", "bulk_insert"},
	{"upsertprepped", "upsert_prepped"},
	{"insertprepped", "insert_prepped"},
	{"deleteprepped", "delete_prepped"},
	{"upsert", "upsert"},
	{"insert", "insert"},
	{"delete", "delete"},
}

// WriteOperationType returns upsert/insert/bulk_insert/… for a commit
// action executor module, "" otherwise.
func WriteOperationType(module string) string {
	lower := strings.ToLower(module)
	if !strings.Contains(lower, "commitactionexecutor") {
		return ""
	}
	for _, w := range writeOperationTypes {
		if strings.Contains(lower, w.substr) {
			return w.op
		}
	}
	return ""
}

// jobView is what operation resolution needs per job.
type jobView struct {
	id        int
	order     int // submission order
	module    string
	phases    []string
	subPhases []string
	tables    []string
	op, src   string
	javaOp    string
	javaSrc   string
	// mdtOnly: every stage is metadata-table work of an ordinary commit (not an
	// index build), so the operation is the data-table operation it is part of.
	mdtOnly, hasMDT bool
	// markerOnly: every stage lists a marker directory, of instant.
	markerOnly bool
	instant    string
}

// onMetadataTable: every table the job names is a metadata table (and it names one).
func (j *jobView) onMetadataTable() bool {
	n := 0
	for _, t := range j.tables {
		if t == "" {
			continue
		}
		if !isMetadataTable(t) {
			return false
		}
		n++
	}
	return n > 0
}

// resolveOperations assigns operations to jobs: the Java rules (kept as
// javaOp), then hudiscope's corrections:
//   - metadata-table writes that are part of a commit take the operation of the
//     preceding data-table job instead of INDEXING/WRITE_OPERATION;
//   - restore = a run of ≥ restoreExecutions rollback executions (a "Perform
//     rollback actions" job on the data table), not ≥ 3 rollback jobs.
func resolveOperations(jobs []*jobView) (rollbackExecutions int) {
	sort.Slice(jobs, func(i, j int) bool { return jobs[i].order < jobs[j].order })
	var javaRollbacks []*jobView
	for _, j := range jobs {
		j.javaOp, j.javaSrc = resolveOperation(j.module, j.phases, j.subPhases, true)
		if j.javaOp == OpRollback {
			javaRollbacks = append(javaRollbacks, j)
		}
		j.op, j.src = resolveOperation(j.module, j.phases, j.subPhases, false)
	}
	if len(javaRollbacks) >= 3 {
		for _, j := range javaRollbacks {
			j.javaOp, j.javaSrc = OpRestore, SourceSequence
		}
	}

	// Metadata-table writes inherit the operation of the job before them (the
	// commit they are part of, or the index build they finish). Marker-directory
	// listings end a commit: the first listing of an instant takes the operation
	// of the last data-table job whose module named one (that write's executor;
	// the metadata table's own services may run in between), later ones the same.
	last, lastWrite := "", ""
	instOp := map[string]string{}
	for _, j := range jobs {
		switch {
		case j.markerOnly:
			op, ok := instOp[j.instant]
			if !ok {
				op = lastWrite
				instOp[j.instant] = op
			}
			if op != "" {
				j.op, j.src = op, SourceSequence
			}
		case j.mdtOnly && !isIndexerModule(j.module) && last != "" && (j.op == OpIndexing || j.op == OpWrite || j.op == OpUnknown):
			j.op, j.src = last, SourceSequence
		}
		if j.op != OpUnknown {
			last = j.op
		}
		if j.src == SourceModule && !j.mdtOnly && !j.onMetadataTable() {
			lastWrite = j.op
		}
	}

	// Restore: count rollback executions in runs of consecutive rollback jobs.
	var run []*jobView
	flush := func() {
		execs, plans := 0, 0
		for _, j := range run {
			for i, sp := range j.subPhases {
				if sp == "rollback" && !isMetadataTable(j.tables[i]) {
					execs++
					break
				}
				if sp == "rollbackInstantListing" && !isMetadataTable(j.tables[i]) {
					plans++
					break
				}
			}
		}
		if execs == 0 {
			execs = plans
		}
		rollbackExecutions += execs
		if execs >= restoreExecutions {
			for _, j := range run {
				if j.op == OpRollback {
					j.op, j.src = OpRestore, SourceSequence
				}
			}
		}
		run = run[:0]
	}
	for _, j := range jobs {
		switch j.op {
		case OpRollback:
			run = append(run, j)
		case OpUnknown:
		default:
			if len(run) > 0 {
				flush()
			}
		}
	}
	if len(run) > 0 {
		flush()
	}
	return rollbackExecutions
}

// restoreExecutions is how many rollback executions in one uninterrupted run
// make it a restore (the Java tool's constant, applied to executions, not jobs).
const restoreExecutions = 3

func isIndexerModule(m string) bool {
	l := strings.ToLower(m)
	return strings.Contains(l, "recordindexer") || strings.Contains(l, "secondaryindex") || strings.Contains(l, "filesindexer")
}
