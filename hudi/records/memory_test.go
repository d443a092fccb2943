package records

import (
	"context"
	"os"
	"runtime"
	"testing"

	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/internal/synth"
	"github.com/hudiscope/hudiscope/hudi/storage"
)

// scanPeakHeap scans every column of the snapshot of a table whose grown slice has rows base
// records and updates log records, and returns the rows read and the peak live heap above
// what it was before the scan (sampled every 16 batches, and after the scan).
func scanPeakHeap(t *testing.T, rows, updates int) (n int, peak uint64) {
	t.Helper()
	spec := benchSpec
	spec.Rows, spec.Updates = rows, updates
	dir, err := synth.WriteMOR(t.TempDir(), spec)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tb, err := hudi.Open(ctx, dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tl, err := tb.ActiveTimeline(ctx)
	if err != nil {
		t.Fatal(err)
	}
	view, err := tb.View(ctx, tl, hudi.ListingStorage)
	if err != nil {
		t.Fatal(err)
	}
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	before := ms.HeapAlloc
	sample := func() {
		runtime.ReadMemStats(&ms)
		if ms.HeapAlloc > before && ms.HeapAlloc-before > peak {
			peak = ms.HeapAlloc - before
		}
	}
	batches := 0
	st, err := ScanBatches(ctx, tb, tl, view, Options{AllColumns: true, OrderingFields: tb.Config.OrderingFields, Mode: ModeFor(tb.Config)}, func(b *Batch) error {
		n += b.Len()
		if batches++; batches%16 == 0 {
			sample()
		}
		return nil
	})
	if err != nil || len(st.Problems) > 0 {
		t.Fatalf("scan: %v %v", err, st.Problems)
	}
	sample()
	return n, peak
}

// TestScanMemoryBoundedBySlice checks the memory bound ScanBatches states: a slice's log
// records plus one batch of base rows. The same log (2,000 updates) over a base file ten
// times larger must not raise the peak live heap by more than a few MiB (parquet-go's page
// buffers); holding the slice's rows as Records, as the whole-slice reader did, costs about
// 1 KiB a row (measured: 309 MiB for the 300,000).
func TestScanMemoryBoundedBySlice(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two tables of 30,000 and 300,000 rows")
	}
	if _, err := os.Stat(benchSpec.Zip); err != nil {
		t.Skipf("fixture absent: %v", err)
	}
	smallN, small := scanPeakHeap(t, 30_000, 2_000)
	bigN, big := scanPeakHeap(t, 300_000, 2_000)
	if smallN < 30_000 || bigN < 300_000 {
		t.Fatalf("rows read: %d and %d, want at least 30,000 and 300,000", smallN, bigN)
	}
	t.Logf("peak live heap above the start: %d KiB for 30,000 base rows, %d KiB for 300,000", small>>10, big>>10)
	if big > small+16<<20 {
		t.Errorf("peak heap %d KiB for 300,000 base rows vs %d KiB for 30,000: grows with the base file, want at most 16 MiB more", big>>10, small>>10)
	}
}
