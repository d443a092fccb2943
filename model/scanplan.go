package model

import (
	"context"
	"fmt"

	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/problem"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// ScanSize is how much a read would touch: files and bytes on storage. Commands compare it
// with a limit and hand reads past it to Spark instead of scanning on one machine.
type ScanSize struct {
	Files int
	Bytes int64
}

// Over names the limit s exceeds ("--max-scan-files 2000"; "" when neither; a limit <= 0 is off).
func (s ScanSize) Over(maxBytes int64, maxFiles int) string {
	switch {
	case maxFiles > 0 && s.Files > maxFiles:
		return fmt.Sprintf("--max-scan-files %d", maxFiles)
	case maxBytes > 0 && s.Bytes > maxBytes:
		return fmt.Sprintf("--max-scan-bytes %d", maxBytes)
	}
	return ""
}

// SliceScanSize is what records.Scan reads for a snapshot or incremental read of view: the
// merged slice (base file and log files) of every live file group. Commit-time pruning skips
// row groups, not files, so every slice counts.
func SliceScanSize(view *filegroup.View) ScanSize {
	var out ScanSize
	if view == nil {
		return out
	}
	for _, p := range view.Partitions {
		for _, g := range p.FileGroups {
			s, _ := g.Merged()
			if s == nil {
				continue
			}
			if s.Base != nil {
				out.Files++
			}
			out.Files += len(s.Logs)
			out.Bytes += s.Size()
		}
	}
	return out
}

// ChangesScanSize is what a CDC read of q touches, from the commit metadata of the writes it
// returns rows of (cdcWrites: compaction, clustering and non-data operations excluded): each
// written file and its .cdc log files (images looked up in base files are among the written
// files' previous versions and are not counted).
func (s *Snapshot) ChangesScanSize(ctx context.Context, q ChangesQuery) (ScanSize, error) {
	if s.table == nil || s.Timeline == nil {
		return ScanSize{}, fmt.Errorf("the table's timeline was not loaded")
	}
	return changesScanSize(ctx, s.table, s.Timeline, q), nil
}

// changesScanSize is ChangesScanSize on t and tl.
func changesScanSize(ctx context.Context, t *hudi.Table, tl *timeline.Timeline, q ChangesQuery) ScanSize {
	var out ScanSize
	var ignored problem.Log // Changes reports unreadable metadata
	for _, in := range cdcWrites(ctx, t, tl, q, &ignored) {
		for _, stats := range in.Commit.PartitionToWriteStats {
			for _, w := range stats {
				out.Files++
				out.Bytes += w.FileSizeInBytes
				for _, n := range w.CDCStats {
					out.Files++
					out.Bytes += n
				}
			}
		}
	}
	return out
}
