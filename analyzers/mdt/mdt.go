// Package mdt judges a table's metadata table, as hudi-cli's `metadata` commands and the Spark
// procedures show_metadata_table_stats and validate_metadata_table_files do: its file listing
// against storage (Validate), its partitions' file groups and sizes (Stats) and its own timeline
// and compaction state (Timeline). It computes from listings and timelines the caller read; it
// reads nothing itself.
package mdt

import (
	"errors"
	"slices"
	"sort"
	"strings"

	"github.com/hudiscope/hudiscope/analyzers/health"
	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/tableconfig"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// ErrNoMetadataTable is returned for a table without a metadata table.
var ErrNoMetadataTable = errors.New("the table has no metadata table")

// File statuses of Validate.
const (
	StatusOK               = "ok"
	StatusMissingOnStorage = "missing on storage"
	StatusMissingInMDT     = "missing in metadata table"
	StatusSizeDiffers      = "size differs"
	// StatusUncommitted is a file on storage written by an instant the data timeline does not
	// count as committed (a failed or running write): the metadata table rightly lacks it, so
	// it is listed but is no mismatch. Hudi's validate_metadata_table_files lists it as one.
	StatusUncommitted = "uncommitted on storage"
)

// FileCheck is one data file as the metadata table and storage list it.
type FileCheck struct {
	Partition   string `json:"partition"`
	File        string `json:"file"`
	Status      string `json:"status"`
	InMDT       bool   `json:"inMetadataTable"`
	OnStorage   bool   `json:"onStorage"`
	MDTSize     int64  `json:"metadataTableSize"`
	StorageSize int64  `json:"storageSize"`
}

// Mismatch says whether the file counts against the metadata table.
func (f FileCheck) Mismatch() bool { return f.Status != StatusOK && f.Status != StatusUncommitted }

// PartitionCheck sums one partition.
type PartitionCheck struct {
	Partition    string `json:"partition"`
	InMDT        bool   `json:"inMetadataTable"`
	OnStorage    bool   `json:"onStorage"`
	MDTFiles     int    `json:"metadataTableFiles"`
	MDTBytes     int64  `json:"metadataTableBytes"`
	StorageFiles int    `json:"storageFiles"`
	StorageBytes int64  `json:"storageBytes"`
	Uncommitted  int    `json:"uncommittedFiles"`
	Mismatches   int    `json:"mismatches"`
}

// Validation is the whole comparison.
type Validation struct {
	Partitions []PartitionCheck `json:"partitions"`
	// Files are the mismatched and uncommitted files (every file with Options.All), by
	// partition then name.
	Files            []FileCheck `json:"files"`
	FilesCompared    int         `json:"filesCompared"`
	Mismatches       int         `json:"mismatches"`
	MissingOnStorage int         `json:"missingOnStorage"`
	MissingInMDT     int         `json:"missingInMetadataTable"`
	SizeDiffers      int         `json:"sizeDiffers"`
	Uncommitted      int         `json:"uncommittedOnStorage"`
	// Match: no mismatch at all (uncommitted files do not count).
	Match bool `json:"match"`
}

// ValidateInput is what Validate compares: every partition's files as the metadata table's
// `files` partition lists them and as storage does, and which storage files the data
// timeline does not count as committed.
type ValidateInput struct {
	MDT, Storage map[string][]storage.Entry
	// Uncommitted holds, per partition, the names of storage files of uncommitted instants.
	Uncommitted map[string]map[string]bool
	// All keeps every file in Validation.Files, matching ones too (Spark's verbose => true).
	All bool
}

// isDataFile reports whether name is a base or log file name (what both listings hold; a
// partition's .hoodie_partition_metadata is neither).
func isDataFile(name string) bool {
	if _, ok := filegroup.ParseBaseFileName(name); ok {
		return true
	}
	_, ok := filegroup.ParseLogFileName(name)
	return ok
}

// Validate compares, for every partition either side lists, the files of the metadata table
// and of storage by name and size.
func Validate(in ValidateInput) *Validation {
	v := &Validation{Files: []FileCheck{}, Partitions: []PartitionCheck{}}
	parts := map[string]bool{}
	for p := range in.MDT {
		parts[p] = true
	}
	for p := range in.Storage {
		parts[p] = true
	}
	names := make([]string, 0, len(parts))
	for p := range parts {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		mdtFiles, inMDT := in.MDT[p]
		fsFiles, onFS := in.Storage[p]
		pc := PartitionCheck{Partition: p, InMDT: inMDT, OnStorage: onFS}
		type pair struct {
			inM, inS     bool
			mSize, sSize int64
		}
		files := map[string]*pair{}
		get := func(name string) *pair {
			x := files[name]
			if x == nil {
				x = &pair{}
				files[name] = x
			}
			return x
		}
		for _, e := range mdtFiles {
			if e.IsDir || !isDataFile(e.Name) {
				continue
			}
			x := get(e.Name)
			x.inM, x.mSize = true, e.Size
			pc.MDTFiles++
			pc.MDTBytes += e.Size
		}
		for _, e := range fsFiles {
			if e.IsDir || !isDataFile(e.Name) {
				continue
			}
			x := get(e.Name)
			x.inS, x.sSize = true, e.Size
			pc.StorageFiles++
			pc.StorageBytes += e.Size
		}
		fnames := make([]string, 0, len(files))
		for n := range files {
			fnames = append(fnames, n)
		}
		sort.Strings(fnames)
		for _, n := range fnames {
			x := files[n]
			fc := FileCheck{Partition: p, File: n, InMDT: x.inM, OnStorage: x.inS, MDTSize: x.mSize, StorageSize: x.sSize}
			switch {
			case x.inM && x.inS && x.mSize == x.sSize:
				fc.Status = StatusOK
			case x.inM && x.inS:
				fc.Status = StatusSizeDiffers
				v.SizeDiffers++
			case x.inM:
				fc.Status = StatusMissingOnStorage
				v.MissingOnStorage++
			case in.Uncommitted[p][n]:
				fc.Status = StatusUncommitted
				v.Uncommitted++
				pc.Uncommitted++
			default:
				fc.Status = StatusMissingInMDT
				v.MissingInMDT++
			}
			v.FilesCompared++
			if fc.Mismatch() {
				pc.Mismatches++
				v.Mismatches++
			}
			if in.All || fc.Status != StatusOK {
				v.Files = append(v.Files, fc)
			}
		}
		v.Partitions = append(v.Partitions, pc)
	}
	v.Match = v.Mismatches == 0
	return v
}

// Metadata-table partitions (MetadataPartitionType's partition paths).
const (
	PartFiles          = "files"
	PartColumnStats    = "column_stats"
	PartBloomFilters   = "bloom_filters"
	PartRecordIndex    = "record_index"
	PartPartitionStats = "partition_stats"
)

// KnownPartitions are the fixed partitions in the order Stats lists them; secondary
// (secondary_index_*) and expression (expr_index_*) indexes follow by name.
var KnownPartitions = []string{PartFiles, PartColumnStats, PartBloomFilters, PartRecordIndex, PartPartitionStats}

// PartitionKind names what a metadata-table partition indexes.
func PartitionKind(name string) string {
	switch {
	case name == PartFiles:
		return "file listing"
	case name == PartColumnStats:
		return "column statistics"
	case name == PartBloomFilters:
		return "bloom filters"
	case name == PartRecordIndex:
		return "record index"
	case name == PartPartitionStats:
		return "partition statistics"
	case strings.HasPrefix(name, "secondary_index_"):
		return "secondary index"
	case strings.HasPrefix(name, "expr_index_"):
		return "expression index"
	}
	return "unknown"
}

// PartitionStats is one metadata-table partition: what hoodie.properties says of it and
// its file groups' latest slices.
type PartitionStats struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
	// Enabled: listed in hoodie.table.metadata.partitions; Inflight: in
	// hoodie.table.metadata.partitions.inflight (still being built).
	Enabled    bool  `json:"enabled"`
	Inflight   bool  `json:"inflight"`
	OnStorage  bool  `json:"onStorage"`
	FileGroups int   `json:"fileGroups"`
	BaseFiles  int   `json:"baseFiles"`
	BaseBytes  int64 `json:"baseBytes"`
	LogFiles   int   `json:"logFiles"`
	LogBytes   int64 `json:"logBytes"`
	// BaseRecords sums the latest base HFiles' entry counts (their trailers); null when a
	// base file could not be read. Records only in log files are not counted.
	BaseRecords *int64 `json:"baseRecords"`
}

// Stats is the metadata table's partitions.
type Stats struct {
	TableVersion int              `json:"tableVersion"`
	Partitions   []PartitionStats `json:"partitions"`
	FileGroups   int              `json:"fileGroups"`
	BaseFiles    int              `json:"baseFiles"`
	BaseBytes    int64            `json:"baseBytes"`
	LogFiles     int              `json:"logFiles"`
	LogBytes     int64            `json:"logBytes"`
}

// StatsInput is what Stats sums: the data table's hoodie.table.metadata.partitions(.inflight),
// and the metadata table's partitions built as a file-system view against its own timeline.
type StatsInput struct {
	TableVersion      int
	Enabled, Inflight []string
	View              *filegroup.View
	// EntryCount returns a base HFile's record count (ok false when unreadable).
	EntryCount func(path string) (int64, bool)
}

// ComputeStats sums every metadata-table partition the properties name or storage holds.
func ComputeStats(in StatsInput) *Stats {
	st := &Stats{TableVersion: in.TableVersion, Partitions: []PartitionStats{}}
	byName := map[string]*filegroup.Partition{}
	if in.View != nil {
		for _, p := range in.View.Partitions {
			byName[p.Path] = p
		}
	}
	seen := map[string]bool{}
	var names []string
	add := func(n string) {
		if n != "" && !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	var extra []string
	for n := range byName {
		extra = append(extra, n)
	}
	extra = append(extra, in.Enabled...)
	extra = append(extra, in.Inflight...)
	sort.Strings(extra)
	for _, n := range KnownPartitions {
		if slices.Contains(extra, n) {
			add(n)
		}
	}
	for _, n := range extra {
		add(n)
	}
	for _, n := range names {
		ps := PartitionStats{Name: n, Kind: PartitionKind(n), Enabled: slices.Contains(in.Enabled, n), Inflight: slices.Contains(in.Inflight, n)}
		var records int64
		readable := true
		if p := byName[n]; p != nil {
			ps.OnStorage = true
			for _, g := range p.FileGroups {
				s := g.Latest()
				if s == nil {
					continue
				}
				ps.FileGroups++
				if s.Base != nil {
					ps.BaseFiles++
					ps.BaseBytes += s.Base.Size
					if in.EntryCount == nil {
						readable = false
					} else if c, ok := in.EntryCount(s.Base.Path); ok {
						records += c
					} else {
						readable = false
					}
				}
				for _, l := range s.Logs {
					ps.LogFiles++
					ps.LogBytes += l.Size
				}
			}
		}
		if readable && ps.OnStorage {
			ps.BaseRecords = &records
		}
		st.FileGroups += ps.FileGroups
		st.BaseFiles += ps.BaseFiles
		st.BaseBytes += ps.BaseBytes
		st.LogFiles += ps.LogFiles
		st.LogBytes += ps.LogBytes
		st.Partitions = append(st.Partitions, ps)
	}
	return st
}

// Instant is one metadata-table instant.
type Instant struct {
	Action         string `json:"action"`
	State          string `json:"state"`
	RequestedTime  string `json:"requestedTime"`
	CompletionTime string `json:"completionTime"`
}

// TimelineState is the metadata table's own timeline and its compaction and sync state.
type TimelineState struct {
	Instants []Instant `json:"instants"`
	// LastCompaction is the latest completed compaction's requested time ("" when none is on
	// the active timeline); DeltaCommitsSinceCompaction counts the delta commits completed
	// after it was requested (every completed one without it), as the mdt-compaction check does.
	LastCompaction              string `json:"lastCompaction"`
	DeltaCommitsSinceCompaction int    `json:"deltaCommitsSinceCompaction"`
	// MaxDeltaCommits is hoodie.metadata.compact.max.delta.commits (MaxDeltaCommitsSource:
	// where the value came from); compaction is due when DeltaCommitsSinceCompaction reaches it.
	MaxDeltaCommits       int      `json:"maxDeltaCommits"`
	MaxDeltaCommitsSource string   `json:"maxDeltaCommitsSource"`
	CompactionDue         bool     `json:"compactionDue"`
	PendingCompactions    []string `json:"pendingCompactions"`
	// LatestDataInstant is the data table's latest completed write (its commits timeline:
	// commit, deltacommit, replacecommit, clustering); LatestSynced the metadata table's latest completed delta commit.
	LatestDataInstant string `json:"latestDataInstant"`
	LatestSynced      string `json:"latestSynced"`
	// NotSynced are the completed data-table writes after LatestSynced: the metadata table
	// has not applied them. Lagging says there is at least one.
	NotSynced []string `json:"notSynced"`
	Lagging   bool     `json:"lagging"`
}

// TimelineInput is what TimelineOf reads.
type TimelineInput struct {
	Data, MDT             *timeline.Timeline
	MaxDeltaCommits       int
	MaxDeltaCommitsSource string
}

// TimelineOf builds the metadata table's timeline state.
func TimelineOf(in TimelineInput) *TimelineState {
	ts := &TimelineState{Instants: []Instant{}, PendingCompactions: []string{}, NotSynced: []string{},
		MaxDeltaCommits: in.MaxDeltaCommits, MaxDeltaCommitsSource: in.MaxDeltaCommitsSource}
	mall := append([]*timeline.Instant(nil), in.MDT.Instants...)
	sort.SliceStable(mall, func(a, b int) bool {
		return timeline.CompareInstants(mall[a].RequestedTime, mall[b].RequestedTime) < 0
	})
	for _, i := range mall {
		ts.Instants = append(ts.Instants, Instant{Action: i.Action, State: string(i.State), RequestedTime: i.RequestedTime, CompletionTime: i.CompletionTime})
		switch {
		case i.IsCompaction(tableconfig.MergeOnRead) && !i.IsCompleted():
			ts.PendingCompactions = append(ts.PendingCompactions, i.RequestedTime)
		case i.IsDeltaCommit() && i.IsCompleted():
			ts.LatestSynced = i.RequestedTime
		}
	}
	// Counted as the mdt-compaction health check counts: delta commits completed after the
	// last compaction was requested.
	deltas, last := health.DeltaCommitsSinceCompaction(mall)
	ts.DeltaCommitsSinceCompaction = len(deltas)
	if last != nil {
		ts.LastCompaction = last.RequestedTime
	}
	ts.CompactionDue = ts.MaxDeltaCommits > 0 && ts.DeltaCommitsSinceCompaction >= ts.MaxDeltaCommits
	if in.Data != nil {
		for _, i := range in.Data.Instants {
			if !i.IsCompleted() || !i.InCommitsTimeline() {
				continue
			}
			if ts.LatestDataInstant == "" || timeline.CompareInstants(i.RequestedTime, ts.LatestDataInstant) > 0 {
				ts.LatestDataInstant = i.RequestedTime
			}
			if ts.LatestSynced == "" || timeline.CompareInstants(i.RequestedTime, ts.LatestSynced) > 0 {
				ts.NotSynced = append(ts.NotSynced, i.RequestedTime)
			}
		}
	}
	sort.Slice(ts.NotSynced, func(a, b int) bool { return timeline.CompareInstants(ts.NotSynced[a], ts.NotSynced[b]) < 0 })
	ts.Lagging = len(ts.NotSynced) > 0
	return ts
}
