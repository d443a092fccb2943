package view

import (
	"strings"

	"github.com/hudiscope/hudiscope/hudi/filegroup"
)

// FileGroupRow is one file group as every listing of a partition's file groups shows it (the
// Layout pane's partition level, the report's partition files): its slices, latest base file,
// the log files a snapshot read merges and the pending services that take it as input.
//
// The partition rows themselves need no view row: both surfaces lay out the layout analyzer's
// per-partition numbers (layout.ExtraPartition) as they are.
type FileGroupRow struct {
	Group  *filegroup.FileGroup
	Slices int
	// LatestBase is the newest slice's base file that has one (nil: no base file yet).
	LatestBase *filegroup.BaseFile
	// ReadLogs and ReadLogBytes are the log files a snapshot read merges with the base file:
	// across a pending compaction those of both slices (filegroup.Merged), not only the latest
	// slice's; Merged says two slices were merged.
	ReadLogs     int
	ReadLogBytes int64
	Merged       bool
	// Pending names the pending table services that take the group as input ("" for none).
	Pending string
}

// FileGroupRows are the rows of groups, in their order.
func FileGroupRows(groups []*filegroup.FileGroup) []FileGroupRow {
	out := make([]FileGroupRow, len(groups))
	for i, g := range groups {
		out[i] = FileGroupRowOf(g)
	}
	return out
}

// FileGroupRowOf is one group's row.
func FileGroupRowOf(g *filegroup.FileGroup) FileGroupRow {
	r := FileGroupRow{Group: g, Slices: len(g.Slices), Pending: Pending(g)}
	for i := len(g.Slices) - 1; i >= 0; i-- {
		if b := g.Slices[i].Base; b != nil {
			r.LatestBase = b
			break
		}
	}
	s, merged := g.Merged()
	r.Merged = merged
	if s != nil {
		r.ReadLogs = len(s.Logs)
		for _, l := range s.Logs {
			r.ReadLogBytes += l.Size
		}
	}
	return r
}

// Pending names the pending table services that take a file group as input.
func Pending(g *filegroup.FileGroup) string {
	var n []string
	if g.PendingCompaction != "" {
		n = append(n, "compaction "+g.PendingCompaction)
	}
	if g.PendingClustering != "" {
		n = append(n, "clustering "+g.PendingClustering)
	}
	return strings.Join(n, ", ")
}
