package records_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/duplicates"
	"github.com/hudiscope/hudiscope/hudi/internal/synth"
	"github.com/hudiscope/hudiscope/hudi/records"
	"github.com/hudiscope/hudiscope/internal/testutil"
	"github.com/hudiscope/hudiscope/model"
)

// BenchmarkDuplicates1M times `hudiscope duplicates` (model.Snapshot.Duplicates) on a
// synthesized million-key merge-on-read table: mor-services-1.2.0 with the file group of
// partition 2024-01-01 grown to 1,000,000 base records (keys 0..999999) and 100,000 log
// updates of them (one copy each after the merge), beside the fixture's other file groups,
// whose keys 1..12 are also among the grown group's: duplicates across partitions. In memory
// (256 MiB budget) and with an 8 MiB budget that forces spilled runs and their merge; reports
// the peak heap growth (sampled every 2 ms), runs and bytes spilled. The table is built in a
// temporary directory (not committed):
//
//	HUDISCOPE_NOW=+8760h go test -run '^$' -bench Duplicates1M -benchtime 3x ./hudi/records/
func BenchmarkDuplicates1M(b *testing.B) {
	spec := synth.MORSpec{Zip: filepath.Join("..", "..", "testdata", "fixtures", "mor-services-1.2.0", "table.zip"),
		Partition: "2024-01-01", Rows: 1_000_000, Updates: 100_000, KeyField: "id", OrderingField: "ts"}
	if _, err := os.Stat(spec.Zip); err != nil {
		b.Skipf("fixture absent: %v", err)
	}
	dir, err := synth.WriteMOR(b.TempDir(), spec)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	s, err := model.Load(ctx, model.Options{Location: dir, Steps: []model.Step{model.StepTimeline, model.StepFiles}}, nil)
	if err != nil {
		b.Fatal(err)
	}
	// The read alone (same projection, no tuples kept): what the scan's own buffers cost.
	b.Run("scan-only", func(b *testing.B) {
		var peak uint64
		rows := 0
		for range b.N {
			peak = max(peak, testutil.PeakHeapGrowth(func() {
				q := model.SnapshotQuery{RowColumns: model.RowColumns{Columns: []string{model.FileNameColumn}}}
				_, err = s.SnapshotBatches(ctx, q, func(bt *records.Batch) error {
					for i := range bt.Len() {
						_ = bt.Key(i)
					}
					rows += bt.Len()
					return nil
				})
			}))
			if err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
		b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	})
	var want *duplicates.Result
	for _, c := range []struct {
		name   string
		budget int64
	}{{"memory", duplicates.DefaultMemBudget}, {"spill-8MiB", 8 << 20}} {
		b.Run(c.name, func(b *testing.B) {
			var res *duplicates.Result
			var peak uint64
			b.ResetTimer()
			for range b.N {
				tmp := b.TempDir()
				peak = max(peak, testutil.PeakHeapGrowth(func() {
					res, _, err = s.Duplicates(ctx, duplicates.Options{MemBudget: c.budget, TempDir: tmp, Limit: 100})
				}))
				if err != nil {
					b.Fatal(err)
				}
				if left, _ := os.ReadDir(tmp); len(left) != 0 {
					b.Fatalf("spill directory left: %v", left)
				}
			}
			b.StopTimer()
			if res.Rows < int64(spec.Rows) || res.DuplicateKeys == 0 || (c.budget < 64<<20) != (res.SpilledRuns > 0) {
				b.Fatalf("%d rows, %d duplicated keys, %d runs", res.Rows, res.DuplicateKeys, res.SpilledRuns)
			}
			if want == nil {
				want = res
			} else if res.Rows != want.Rows || res.DistinctKeys != want.DistinctKeys || res.DuplicateKeys != want.DuplicateKeys || len(res.Duplicates) != len(want.Duplicates) {
				b.Fatalf("spilled answer differs: %+v vs %+v", res, want)
			}
			b.ReportMetric(float64(res.Rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
			b.ReportMetric(float64(res.SpilledRuns), "runs")
			b.ReportMetric(float64(res.SpilledBytes)/(1<<20), "spilled-MiB")
			b.ReportMetric(float64(res.DuplicateKeys), "dup-keys")
		})
	}
}
