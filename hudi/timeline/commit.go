package timeline

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/hudiscope/hudiscope/hudi/internal/avro"
)

// WriteStat is one file written by a commit (same field names in 0.x JSON and 1.x Avro).
type WriteStat struct {
	FileID                       string           `json:"fileId" avro:"fileId"`
	Path                         string           `json:"path" avro:"path"`
	PrevCommit                   string           `json:"prevCommit" avro:"prevCommit"`
	PartitionPath                string           `json:"partitionPath" avro:"partitionPath"`
	NumWrites                    int64            `json:"numWrites" avro:"numWrites"`
	NumDeletes                   int64            `json:"numDeletes" avro:"numDeletes"`
	NumUpdateWrites              int64            `json:"numUpdateWrites" avro:"numUpdateWrites"`
	NumInserts                   int64            `json:"numInserts" avro:"numInserts"`
	TotalWriteBytes              int64            `json:"totalWriteBytes" avro:"totalWriteBytes"`
	TotalWriteErrors             int64            `json:"totalWriteErrors" avro:"totalWriteErrors"`
	FileSizeInBytes              int64            `json:"fileSizeInBytes" avro:"fileSizeInBytes"`
	TotalLogRecords              int64            `json:"totalLogRecords" avro:"totalLogRecords"`
	TotalLogFilesCompacted       int64            `json:"totalLogFilesCompacted" avro:"totalLogFilesCompacted"`
	TotalLogSizeCompacted        int64            `json:"totalLogSizeCompacted" avro:"totalLogSizeCompacted"`
	TotalUpdatedRecordsCompacted int64            `json:"totalUpdatedRecordsCompacted" avro:"totalUpdatedRecordsCompacted"`
	TotalLogBlocks               int64            `json:"totalLogBlocks" avro:"totalLogBlocks"`
	TotalCorruptLogBlock         int64            `json:"totalCorruptLogBlock" avro:"totalCorruptLogBlock"`
	TotalRollbackBlocks          int64            `json:"totalRollbackBlocks" avro:"totalRollbackBlocks"`
	MinEventTime                 *int64           `json:"minEventTime,omitempty" avro:"minEventTime"`
	MaxEventTime                 *int64           `json:"maxEventTime,omitempty" avro:"maxEventTime"`
	BaseFile                     string           `json:"baseFile,omitempty" avro:"baseFile"`
	LogFiles                     []string         `json:"logFiles,omitempty" avro:"logFiles"`
	LogVersion                   int64            `json:"logVersion,omitempty" avro:"logVersion"`
	LogOffset                    int64            `json:"logOffset,omitempty" avro:"logOffset"`
	CDCStats                     map[string]int64 `json:"cdcStats,omitempty" avro:"cdcStats"`
	RuntimeStats                 *RuntimeStats    `json:"runtimeStats,omitempty" avro:"runtimeStats"`
}

// RuntimeStats are a write stat's timings in milliseconds.
type RuntimeStats struct {
	TotalScanTime   int64 `json:"totalScanTime" avro:"totalScanTime"`
	TotalUpsertTime int64 `json:"totalUpsertTime" avro:"totalUpsertTime"`
	TotalCreateTime int64 `json:"totalCreateTime" avro:"totalCreateTime"`
}

// CommitMetadata is the content of completed commit, deltacommit and replacecommit instants.
type CommitMetadata struct {
	PartitionToWriteStats     map[string][]WriteStat `json:"partitionToWriteStats" avro:"partitionToWriteStats"`
	Compacted                 bool                   `json:"compacted" avro:"compacted"`
	ExtraMetadata             map[string]string      `json:"extraMetadata" avro:"extraMetadata"`
	OperationType             string                 `json:"operationType" avro:"operationType"`
	PartitionToReplaceFileIDs map[string][]string    `json:"partitionToReplaceFileIds,omitempty" avro:"partitionToReplaceFileIds"`
}

// CommitTotals sums a commit's write stats.
type CommitTotals struct {
	NumWrites, NumInserts, NumUpdateWrites, NumDeletes, TotalBytesWritten int64
	// TotalWriteErrors sums the write stats' totalWriteErrors: records the writer failed to
	// write in a commit it still completed (0.14.0 completes a commit with 29 of 30 failed).
	TotalWriteErrors  int64
	Files, Partitions int
	// FilesAdded and FilesUpdated count write stats as Hudi's show_commits does
	// (HoodieCommitMetadata.fetchTotalFilesInsert / fetchTotalFilesUpdated): a stat whose
	// prevCommit is the string "null" adds a file, one naming a commit updates one (a stat
	// without prevCommit counts as neither).
	FilesAdded, FilesUpdated int
}

// Totals adds up the write stats of every partition.
func (m *CommitMetadata) Totals() CommitTotals {
	var t CommitTotals
	files := map[string]bool{}
	for part, stats := range m.PartitionToWriteStats {
		if len(stats) > 0 {
			t.Partitions++
		}
		for _, s := range stats {
			t.NumWrites += s.NumWrites
			t.NumInserts += s.NumInserts
			t.NumUpdateWrites += s.NumUpdateWrites
			t.NumDeletes += s.NumDeletes
			t.TotalBytesWritten += s.TotalWriteBytes
			t.TotalWriteErrors += s.TotalWriteErrors
			added, updated := prevCommitKind(s.PrevCommit)
			t.FilesAdded += added
			t.FilesUpdated += updated
			key := s.Path
			if key == "" {
				key = part + "/" + s.FileID
			}
			files[key] = true
		}
	}
	t.Files = len(files)
	return t
}

// PartitionWrites sums one partition's write stats in one commit: what the analyzers read of
// commit metadata, small enough to keep for every instant of a 200k-commit timeline when the
// metadata itself is not kept (Reader.Compact).
type PartitionWrites struct {
	Partition string
	// Files counts write stats; UpdatedFiles those with updates; NewFiles those that wrote
	// only inserts into a new file group (no previous commit).
	Files, UpdatedFiles, NewFiles                                       int
	NumWrites, NumInserts, NumUpdateWrites, NumDeletes, TotalWriteBytes int64
	// WriteErrors sums the stats' totalWriteErrors (records that failed to write).
	WriteErrors int64
	// FilesAdded and FilesUpdated count stats as CommitTotals' fields of the same names.
	FilesAdded, FilesUpdated int
}

// prevCommitKind is (1, 0) for a stat that added a file (prevCommit "null", any case, as
// Hudi compares it), (0, 1) for one that updated a file, (0, 0) without a prevCommit.
func prevCommitKind(prev string) (added, updated int) {
	switch {
	case prev == "":
		return 0, 0
	case strings.EqualFold(prev, "null"):
		return 1, 0
	}
	return 0, 1
}

// add counts one file's write stat into w; the full and the compact decode count alike.
func (w *PartitionWrites) add(writes, inserts, updates, deletes, bytes, errs int64, prevCommit string) {
	w.Files++
	if updates > 0 {
		w.UpdatedFiles++
	}
	if writes == inserts && (prevCommit == "" || prevCommit == "null") {
		w.NewFiles++ // every record an insert, no previous version: a new file group
	}
	w.NumWrites += writes
	w.NumInserts += inserts
	w.NumUpdateWrites += updates
	w.NumDeletes += deletes
	w.TotalWriteBytes += bytes
	w.WriteErrors += errs
	added, updated := prevCommitKind(prevCommit)
	w.FilesAdded += added
	w.FilesUpdated += updated
}

// PartitionWrites sums the write stats of each partition, sorted by partition path (a
// partition listed with no stats has a zero row).
func (m *CommitMetadata) PartitionWrites() []PartitionWrites {
	if len(m.PartitionToWriteStats) == 0 {
		return nil
	}
	out := make([]PartitionWrites, 0, len(m.PartitionToWriteStats))
	for _, p := range m.Partitions() {
		w := PartitionWrites{Partition: p}
		for _, s := range m.PartitionToWriteStats[p] {
			w.add(s.NumWrites, s.NumInserts, s.NumUpdateWrites, s.NumDeletes, s.TotalWriteBytes, s.TotalWriteErrors, s.PrevCommit)
		}
		out = append(out, w)
	}
	return out
}

// Partitions returns the partition paths with write stats, sorted.
func (m *CommitMetadata) Partitions() []string {
	out := make([]string, 0, len(m.PartitionToWriteStats))
	for p := range m.PartitionToWriteStats {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// Checkpoint returns the streamer checkpoint stored in extraMetadata, if any (1.x key first).
func (m *CommitMetadata) Checkpoint() (key, value string) {
	for _, k := range []string{"streamer.checkpoint.key.v2", "deltastreamer.checkpoint.key"} {
		if v := m.ExtraMetadata[k]; v != "" {
			return k, v
		}
	}
	return "", ""
}

// InstantRef names an instant inside table-service metadata.
type InstantRef struct {
	Timestamp  string `json:"timestamp"`
	CommitTime string `json:"commitTime"`
	Action     string `json:"action"`
	State      string `json:"state"`
}

// CleanPartition is one partition of a clean.
type CleanPartition struct {
	PartitionPath      string   `json:"partitionPath"`
	Policy             string   `json:"policy"`
	DeletePathPatterns []string `json:"deletePathPatterns"`
	SuccessDeleteFiles []string `json:"successDeleteFiles"`
	FailedDeleteFiles  []string `json:"failedDeleteFiles"`
	IsPartitionDeleted bool     `json:"isPartitionDeleted"`
}

// CleanMetadata is a completed clean.
type CleanMetadata struct {
	StartCleanTime               string                    `json:"startCleanTime"`
	TimeTakenInMillis            int64                     `json:"timeTakenInMillis"`
	TotalFilesDeleted            int64                     `json:"totalFilesDeleted"`
	EarliestCommitToRetain       string                    `json:"earliestCommitToRetain"`
	LastCompletedCommitTimestamp string                    `json:"lastCompletedCommitTimestamp"`
	Policy                       string                    `json:"policy"`
	PartitionMetadata            map[string]CleanPartition `json:"partitionMetadata"`
}

// CleanerPlan is a requested clean.
type CleanerPlan struct {
	EarliestInstantToRetain          *InstantRef `json:"earliestInstantToRetain"`
	LastCompletedCommitTimestamp     string      `json:"lastCompletedCommitTimestamp"`
	Policy                           string      `json:"policy"`
	FilePathsToBeDeletedPerPartition map[string][]struct {
		FilePath string `json:"filePath"`
	} `json:"filePathsToBeDeletedPerPartition"`
	FilesToBeDeletedPerPartition map[string][]string `json:"filesToBeDeletedPerPartition"`
	PartitionsToBeDeleted        []string            `json:"partitionsToBeDeleted"`
}

// RollbackPartition is one partition of a rollback.
type RollbackPartition struct {
	PartitionPath            string           `json:"partitionPath"`
	SuccessDeleteFiles       []string         `json:"successDeleteFiles"`
	FailedDeleteFiles        []string         `json:"failedDeleteFiles"`
	RollbackLogFiles         map[string]int64 `json:"rollbackLogFiles"`
	LogFilesFromFailedCommit map[string]int64 `json:"logFilesFromFailedCommit"`
}

// RollbackMetadata is a completed rollback.
type RollbackMetadata struct {
	StartRollbackTime string                       `json:"startRollbackTime"`
	TimeTakenInMillis int64                        `json:"timeTakenInMillis"`
	TotalFilesDeleted int64                        `json:"totalFilesDeleted"`
	CommitsRollback   []string                     `json:"commitsRollback"`
	InstantsRollback  []InstantRef                 `json:"instantsRollback"`
	PartitionMetadata map[string]RollbackPartition `json:"partitionMetadata"`
}

// RollbackPlan is a requested rollback.
type RollbackPlan struct {
	InstantToRollback *InstantRef `json:"instantToRollback"`
	RollbackRequests  []struct {
		PartitionPath        string           `json:"partitionPath"`
		FileID               string           `json:"fileId"`
		LatestBaseInstant    string           `json:"latestBaseInstant"`
		FilesToBeDeleted     []string         `json:"filesToBeDeleted"`
		LogBlocksToBeDeleted map[string]int64 `json:"logBlocksToBeDeleted"`
	} `json:"RollbackRequests"`
}

// RestoreMetadata is a completed restore.
type RestoreMetadata struct {
	StartRestoreTime      string                        `json:"startRestoreTime"`
	TimeTakenInMillis     int64                         `json:"timeTakenInMillis"`
	InstantsToRollback    []string                      `json:"instantsToRollback"`
	HoodieRestoreMetadata map[string][]RollbackMetadata `json:"hoodieRestoreMetadata"`
	RestoreInstantInfo    []InstantRef                  `json:"restoreInstantInfo"`
}

// SavepointMetadata is a completed savepoint.
type SavepointMetadata struct {
	SavepointedBy     string `json:"savepointedBy"`
	SavepointedAt     int64  `json:"savepointedAt"`
	Comments          string `json:"comments"`
	PartitionMetadata map[string]struct {
		PartitionPath     string   `json:"partitionPath"`
		SavepointDataFile []string `json:"savepointDataFile"`
	} `json:"partitionMetadata"`
}

// CompactionOperation is one file group in a compaction plan.
type CompactionOperation struct {
	BaseInstantTime string             `json:"baseInstantTime"`
	DataFilePath    string             `json:"dataFilePath"`
	DeltaFilePaths  []string           `json:"deltaFilePaths"`
	FileID          string             `json:"fileId"`
	PartitionPath   string             `json:"partitionPath"`
	Metrics         map[string]float64 `json:"metrics"`
}

// CompactionPlan is a requested compaction or log compaction.
type CompactionPlan struct {
	Operations    []CompactionOperation `json:"operations"`
	ExtraMetadata map[string]string     `json:"extraMetadata"`
}

// ClusteringSlice is one input file slice of a clustering group.
type ClusteringSlice struct {
	DataFilePath   string   `json:"dataFilePath"`
	DeltaFilePaths []string `json:"deltaFilePaths"`
	FileID         string   `json:"fileId"`
	PartitionPath  string   `json:"partitionPath"`
}

// RequestedReplaceMetadata is a requested replacecommit or clustering instant.
type RequestedReplaceMetadata struct {
	OperationType  string `json:"operationType"`
	ClusteringPlan *struct {
		InputGroups []struct {
			Slices              []ClusteringSlice  `json:"slices"`
			Metrics             map[string]float64 `json:"metrics"`
			NumOutputFileGroups int                `json:"numOutputFileGroups"`
		} `json:"inputGroups"`
		Strategy *struct {
			StrategyClassName string            `json:"strategyClassName"`
			StrategyParams    map[string]string `json:"strategyParams"`
		} `json:"strategy"`
	} `json:"clusteringPlan"`
}

// ReplacedFileIDs are the file groups the plan's input slices name (partition → file ids, in
// plan order): what the clustering replaces once it completes.
func (r *RequestedReplaceMetadata) ReplacedFileIDs() map[string][]string {
	if r == nil || r.ClusteringPlan == nil {
		return nil
	}
	out := map[string][]string{}
	for _, g := range r.ClusteringPlan.InputGroups {
		for _, s := range g.Slices {
			out[s.PartitionPath] = append(out[s.PartitionPath], s.FileID)
		}
	}
	return out
}

// IsClustering reports whether a requested replace is a clustering plan.
func (r *RequestedReplaceMetadata) IsClustering() bool {
	return r != nil && (r.ClusteringPlan != nil || strings.EqualFold(r.OperationType, "CLUSTER"))
}

// IndexMetadata is an indexing plan or commit.
type IndexMetadata struct {
	OperationType       string `json:"operationType"`
	IndexPartitionInfos []struct {
		MetadataPartitionPath string `json:"metadataPartitionPath"`
		IndexUptoInstant      string `json:"indexUptoInstant"`
	} `json:"indexPartitionInfos"`
}

// decodeInto decodes instant content (JSON or Avro OCF) into v, naming the file on error.
func decodeInto(content []byte, file string, v any) error {
	js, err := avro.ContentJSON(content)
	if err != nil {
		return fmt.Errorf("decode %s: %w", file, err)
	}
	if err := json.Unmarshal(js, v); err != nil {
		return fmt.Errorf("decode %s: %w", file, err)
	}
	return nil
}
