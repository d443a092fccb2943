package view

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// WriteStats are one write's statistics as Hudi's own tools count them: hudi-cli `commit
// showpartitions` / `commit showfiles` / `stats wa` and the Spark procedures
// show_commit_partitions, show_commit_files, show_commit_write_stats and stats_wa, computed
// from the commit metadata's write stats (docs/show.md says where each number comes from).
type WriteStats struct {
	Partitions []PartitionStats
	Files      []FileStats
	// Totals over every write stat of the commit.
	FilesAdded, FilesUpdated                                        int64
	RecordsWritten, RecordsInserted, RecordsUpdated, RecordsDeleted int64
	BytesWritten, Errors                                            int64
	// PartitionCount and FileCount are the commit's partitions and distinct files
	// (timeline.CommitMetadata.Totals).
	PartitionCount, FileCount int
	// AvgRecordSize is show_commit_write_stats' avg_record_size: ceil(bytes / records); 0
	// when the commit wrote no record (Hudi divides by zero there).
	AvgRecordSize int64
	// WriteAmplification is WriteAmplification of the commit.
	WriteAmplification WA
	// FileSizes summarises the sizes of the files the commit wrote (FileSizeStats).
	FileSizes FileSizes
}

// PartitionStats is one partition of a write, as show_commit_partitions counts it.
type PartitionStats struct {
	Partition string
	// FilesAdded counts the write stats without a previous commit (a new file group);
	// FilesUpdated the others. RecordsUpdated sums numUpdateWrites over the updated files
	// only, as Hudi does.
	FilesAdded, FilesUpdated                        int64
	RecordsInserted, RecordsUpdated, RecordsDeleted int64
	RecordsWritten, BytesWritten, Errors            int64
}

// FileStats is one write stat (one file written), as show_commit_files lists it.
type FileStats struct {
	Partition, FileID, Path, PrevCommit string
	RecordsWritten, RecordsInserted     int64
	RecordsUpdated, RecordsDeleted      int64
	BytesWritten, Errors, FileSize      int64
}

// WA is a write amplification factor: records written per record updated.
type WA struct {
	// Written and Updated are the sums of numWrites and numUpdateWrites.
	Written, Updated int64
	// Factor is Written / Updated in Hudi's float arithmetic, rounded to two decimals as
	// Hudi prints it ("#.00", half-even); valid only when OK.
	Factor float64
	// OK is false when no record was updated (Hudi prints "0" then).
	OK bool
}

// Text is the factor as hudi-cli `stats wa` and stats_wa print it: "0" when no record was
// updated, else two decimals ("#.00": "1.50", ".50" below one).
func (w WA) Text() string {
	if !w.OK {
		return "0"
	}
	s := strconv.FormatFloat(float64(float32(w.Written)/float32(w.Updated)), 'f', 2, 64)
	if strings.HasPrefix(s, "0.") {
		s = s[1:]
	}
	return s
}

// WriteAmplification is a commit's write amplification exactly as hudi-cli `stats wa`
// (StatsCommand.writeAmplificationStats) and the Spark procedure stats_wa
// (StatsWriteAmplificationProcedure) define it: HoodieCommitMetadata's
// fetchTotalRecordsWritten (the sum of numWrites over every write stat) divided, as a float,
// by fetchTotalUpdateRecordsWritten (the sum of numUpdateWrites); no factor (Hudi's "0") when
// no record was updated. A commit that rewrote 12 records to update 3 has 4.00. Hudi applies
// it to the completed commits and replacecommits of the commit timeline (deltacommits are
// not in its list, compaction commits are); this function takes any write's metadata.
func WriteAmplification(c *timeline.CommitMetadata) WA {
	var written, updated int64
	if c != nil {
		for _, stats := range c.PartitionToWriteStats {
			for _, s := range stats {
				written += s.NumWrites
				updated += s.NumUpdateWrites
			}
		}
	}
	return WriteAmplificationOf(written, updated)
}

// WriteAmplificationOf is WriteAmplification from the two sums (a commit's totals, which an
// archived instant keeps when its metadata is not kept: `trends` reads them). It is a ratio of
// record counts, not of bytes: a copy-on-write upsert that rewrites a 1,000-record file to
// update 10 of them has a factor of 100.
func WriteAmplificationOf(written, updated int64) WA {
	w := WA{Written: written, Updated: updated}
	if w.Updated > 0 {
		w.OK = true
		w.Factor, _ = strconv.ParseFloat(strconv.FormatFloat(float64(float32(w.Written)/float32(w.Updated)), 'f', 2, 64), 64)
	}
	return w
}

// FileSizes are summary statistics of file sizes in bytes, as hudi-cli `stats filesizes`
// and the Spark procedure stats_file_sizes compute them (a Codahale UniformSnapshot: the
// quantile at q interpolates between the sorted sizes at position q·(n+1); the standard
// deviation is the sample one, 0 for fewer than two files).
type FileSizes struct {
	N                          int
	Min, Max                   int64
	P10, P50, Mean, P95, StdDv float64
}

// FileSizeStats summarises sizes (bytes) as Hudi's `stats filesizes` does; zero for none.
func FileSizeStats(sizes []int64) FileSizes {
	v := slices.Clone(sizes)
	slices.Sort(v)
	n := len(v)
	out := FileSizes{N: n}
	if n == 0 {
		return out
	}
	q := func(p float64) float64 {
		pos := p * float64(n+1)
		i := int(pos)
		if i < 1 {
			return float64(v[0])
		}
		if i >= n {
			return float64(v[n-1])
		}
		lo, hi := float64(v[i-1]), float64(v[i])
		return lo + (pos-math.Floor(pos))*(hi-lo)
	}
	var sum float64
	for _, x := range v {
		sum += float64(x)
	}
	out.Min, out.Max = v[0], v[n-1]
	out.P10, out.P50, out.P95 = q(0.1), q(0.5), q(0.95)
	out.Mean = sum / float64(n)
	if n > 1 {
		var ss float64
		for _, x := range v {
			d := float64(x) - out.Mean
			ss += d * d
		}
		out.StdDv = math.Sqrt(ss / float64(n-1))
	}
	return out
}

// newFile reports whether a write stat started a new file group (Hudi's NULL_COMMIT "null"
// previous commit; older writers leave it empty).
func newFile(s *timeline.WriteStat) bool { return s.PrevCommit == "" || s.PrevCommit == "null" }

// CommitWriteStats are the write statistics of commit metadata c, partitions and files in
// partition order, files as listed in the metadata.
func CommitWriteStats(c *timeline.CommitMetadata) *WriteStats {
	if c == nil {
		return nil
	}
	tot := c.Totals()
	out := &WriteStats{PartitionCount: tot.Partitions, FileCount: tot.Files}
	var sizes []int64
	for _, p := range c.Partitions() {
		ps := PartitionStats{Partition: p}
		for i := range c.PartitionToWriteStats[p] {
			s := &c.PartitionToWriteStats[p][i]
			if newFile(s) {
				ps.FilesAdded++
			} else {
				ps.FilesUpdated++
				ps.RecordsUpdated += s.NumUpdateWrites
			}
			ps.RecordsInserted += s.NumInserts
			ps.RecordsDeleted += s.NumDeletes
			ps.RecordsWritten += s.NumWrites
			ps.BytesWritten += s.TotalWriteBytes
			ps.Errors += s.TotalWriteErrors
			out.Files = append(out.Files, FileStats{Partition: p, FileID: s.FileID, Path: s.Path, PrevCommit: s.PrevCommit,
				RecordsWritten: s.NumWrites, RecordsInserted: s.NumInserts, RecordsUpdated: s.NumUpdateWrites,
				RecordsDeleted: s.NumDeletes, BytesWritten: s.TotalWriteBytes, Errors: s.TotalWriteErrors, FileSize: s.FileSizeInBytes})
			sizes = append(sizes, s.FileSizeInBytes)
			out.RecordsUpdated += s.NumUpdateWrites
		}
		out.FilesAdded += ps.FilesAdded
		out.FilesUpdated += ps.FilesUpdated
		out.RecordsInserted += ps.RecordsInserted
		out.RecordsDeleted += ps.RecordsDeleted
		out.RecordsWritten += ps.RecordsWritten
		out.BytesWritten += ps.BytesWritten
		out.Errors += ps.Errors
		out.Partitions = append(out.Partitions, ps)
	}
	if out.RecordsWritten > 0 {
		out.AvgRecordSize = int64(math.Ceil(float64(out.BytesWritten) / float64(out.RecordsWritten)))
	}
	out.FileSizes = FileSizeStats(sizes)
	// The same sums WriteAmplification(c) takes, already added up above.
	out.WriteAmplification = WriteAmplificationOf(out.RecordsWritten, out.RecordsUpdated)
	return out
}
