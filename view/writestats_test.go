package view

import (
	"math"
	"testing"

	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// Hudi's stats wa: numWrites / numUpdateWrites as a float, "#.00" half-even, "0" without
// updates. 77/3 and 268/26 are cow-services-1.2.0's latest commit and stats_wa Total row.
func TestWriteAmplification(t *testing.T) {
	commit := func(writes, updates []int64) *timeline.CommitMetadata {
		c := &timeline.CommitMetadata{PartitionToWriteStats: map[string][]timeline.WriteStat{}}
		for i := range writes {
			p := []string{"a", "b"}[i%2]
			c.PartitionToWriteStats[p] = append(c.PartitionToWriteStats[p], timeline.WriteStat{NumWrites: writes[i], NumUpdateWrites: updates[i]})
		}
		return c
	}
	for _, c := range []struct {
		w, u   int64
		text   string
		factor float64
	}{
		{77, 3, "25.67", 25.67}, {268, 26, "10.31", 10.31}, {9, 8, "1.12", 1.12}, {3, 3, "1.00", 1}, {1, 2, ".50", 0.5}, {75, 0, "0", 0},
	} {
		wa := WriteAmplification(commit([]int64{c.w - c.w/2, c.w / 2}, []int64{c.u - c.u/2, c.u / 2}))
		if wa.Written != c.w || wa.Updated != c.u || wa.Text() != c.text || wa.Factor != c.factor || wa.OK != (c.u > 0) {
			t.Errorf("%d/%d: %+v %q, want %q %v", c.w, c.u, wa, wa.Text(), c.text, c.factor)
		}
	}
	if wa := WriteAmplification(nil); wa.OK || wa.Text() != "0" {
		t.Errorf("nil: %+v", wa)
	}
}

// Codahale's UniformSnapshot: quantile q interpolated at q·(n+1), sample standard deviation.
// The first set is cow-services-1.2.0's latest commit, whose stats_file_sizes row is
// 10796 10796.0 11249.0 11159.4 11507.0 11507 5 344.3244109847572.
func TestFileSizeStats(t *testing.T) {
	for _, c := range []struct {
		sizes                   []int64
		p10, p50, mean, p95, sd float64
	}{
		{[]int64{10796, 11507, 11249, 11447, 10798}, 10796, 11249, 11159.4, 11507, 344.3244109847572},
		{[]int64{4, 3, 2, 1}, 1, 2.5, 2.5, 4, math.Sqrt(5.0 / 3)},
		{[]int64{10, 20, 30, 40, 50, 60, 70, 80, 90, 100}, 11, 55, 55, 100, 30.276503540974915},
		{[]int64{842}, 842, 842, 842, 842, 0},
	} {
		fs := FileSizeStats(c.sizes)
		near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
		if fs.N != len(c.sizes) || !near(fs.P10, c.p10) || !near(fs.P50, c.p50) || !near(fs.Mean, c.mean) || !near(fs.P95, c.p95) || !near(fs.StdDv, c.sd) {
			t.Errorf("%v: %+v", c.sizes, fs)
		}
	}
	if fs := FileSizeStats(nil); fs != (FileSizes{}) {
		t.Errorf("none: %+v", fs)
	}
}

// Files added are the write stats without a previous commit; a partition's updated records
// count the updated files only (show_commit_partitions), the total every write stat.
func TestCommitWriteStats(t *testing.T) {
	c := &timeline.CommitMetadata{PartitionToWriteStats: map[string][]timeline.WriteStat{
		"p1": {{FileID: "f1", PrevCommit: "null", NumWrites: 4, NumInserts: 3, NumUpdateWrites: 1, TotalWriteBytes: 100, FileSizeInBytes: 100},
			{FileID: "f2", PrevCommit: "20240101000000000", NumWrites: 10, NumUpdateWrites: 2, NumDeletes: 1, TotalWriteBytes: 301, TotalWriteErrors: 2, FileSizeInBytes: 301}},
		"p0": {{FileID: "f3", PrevCommit: "", NumWrites: 1, NumInserts: 1, TotalWriteBytes: 50, FileSizeInBytes: 50}},
	}}
	w := CommitWriteStats(c)
	if len(w.Partitions) != 2 || w.Partitions[0].Partition != "p0" || w.Partitions[0].FilesAdded != 1 {
		t.Fatalf("%+v", w.Partitions)
	}
	p1 := w.Partitions[1]
	if p1.FilesAdded != 1 || p1.FilesUpdated != 1 || p1.RecordsUpdated != 2 || p1.RecordsInserted != 3 || p1.RecordsDeleted != 1 || p1.BytesWritten != 401 || p1.Errors != 2 {
		t.Errorf("p1 %+v", p1)
	}
	if w.RecordsUpdated != 3 || w.RecordsWritten != 15 || w.BytesWritten != 451 || w.AvgRecordSize != 31 || w.FilesAdded != 2 || w.FilesUpdated != 1 ||
		w.WriteAmplification.Text() != "5.00" || w.FileSizes.N != 3 || w.FileSizes.Max != 301 || len(w.Files) != 3 || w.Files[0].FileID != "f3" {
		t.Errorf("%+v", w)
	}
}
