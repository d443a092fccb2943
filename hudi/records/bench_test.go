package records

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/internal/synth"
	"github.com/hudiscope/hudiscope/hudi/storage"
)

// benchSpec is the 1M-row table: mor-services-1.2.0 (table version 9, merge-on-read, event-time
// ordering on ts, record key id) with the file group of partition 2024-01-01 grown to 1,000,000
// records in its base file (Parquet, one row group, plain-encoded, gzip-compressed pages as the
// fixture's columns declare; the fixture's schema: 5 meta columns, id, name, ts, dt) and
// 100,000 updates in its newest log file (one Avro data block); the fixture's other four log
// files of that slice and its other file groups stay as Spark wrote them.
var benchSpec = synth.MORSpec{Zip: filepath.Join("..", "..", "testdata", "fixtures", "mor-services-1.2.0", "table.zip"),
	Partition: "2024-01-01", Rows: 1_000_000, Updates: 100_000, KeyField: "id", OrderingField: "ts"}

var (
	benchOnce sync.Once
	benchDir  string
	benchErr  error
)

// benchTable builds the table once per process, in HUDISCOPE_BENCH_KEEP when set (kept for
// scripts/compare-hudi-rs.sh to time hudi-rs on the same files), else in a temporary directory.
func benchTable(b *testing.B) string {
	if _, err := os.Stat(benchSpec.Zip); err != nil {
		b.Skipf("fixture absent: %v", err)
	}
	benchOnce.Do(func() {
		dir := os.Getenv("HUDISCOPE_BENCH_KEEP")
		if dir == "" {
			dir, benchErr = os.MkdirTemp("", "hudiscope-bench-")
			if benchErr != nil {
				return
			}
		} else if os.Getenv("HUDISCOPE_BENCH_REUSE") != "" {
			// A table an earlier run kept (profiling without rebuilding it).
			if m, _ := filepath.Glob(filepath.Join(dir, "*", ".hoodie")); len(m) == 1 {
				benchDir = filepath.Dir(m[0])
				return
			}
		} else if benchErr = os.RemoveAll(dir); benchErr != nil {
			return
		}
		benchDir, benchErr = synth.WriteMOR(dir, benchSpec)
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchDir
}

// BenchmarkSnapshotScan1M reads every column of every row of the 1M-row table's snapshot (the
// grown slice: 1,000,000 base records merged with 100,000 log updates; listing from storage)
// in batches, values decoded but not converted to Go values (what hudi-rs's Arrow record
// batches are), and reports rows/s: go test -run XXX -bench SnapshotScan1M ./hudi/records/
// (HUDISCOPE_BENCH_KEEP=DIR keeps the table; with HUDISCOPE_BENCH_REUSE=1 too, reuses it).
func BenchmarkSnapshotScan1M(b *testing.B) {
	benchScan(b, func(sc scanFunc) (int, int, error) {
		n, updated := 0, 0
		err := sc(func(bt *Batch) error {
			ts := slices.Index(bt.Fields, "ts")
			for i := range bt.Len() {
				if v, ok := bt.Int64(i, ts); ok && v == 2 {
					updated++
				}
			}
			n += bt.Len()
			return nil
		})
		return n, updated, err
	})
}

// BenchmarkSnapshotScan1MRecords is BenchmarkSnapshotScan1M with every row converted to a
// Record (a map of Go values): what the JSON/CSV output and the TUI read.
func BenchmarkSnapshotScan1MRecords(b *testing.B) {
	benchScan(b, func(sc scanFunc) (int, int, error) {
		n, updated := 0, 0
		err := sc(func(bt *Batch) error {
			for i := range bt.Len() {
				r := bt.Record(i)
				n++
				if v, ok := r.Values["ts"].(int64); ok && v == 2 {
					updated++
				}
			}
			return nil
		})
		return n, updated, err
	})
}

type scanFunc func(func(*Batch) error) error

func benchScan(b *testing.B, consume func(scanFunc) (int, int, error)) {
	dir := benchTable(b)
	ctx := context.Background()
	rows := 0
	cpu0 := cpuSeconds()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t, err := hudi.Open(ctx, dir, storage.Options{})
		if err != nil {
			b.Fatal(err)
		}
		tl, err := t.ActiveTimeline(ctx)
		if err != nil {
			b.Fatal(err)
		}
		view, err := t.View(ctx, tl, hudi.ListingStorage)
		if err != nil {
			b.Fatal(err)
		}
		var st Stats
		n, updated, err := consume(func(fn func(*Batch) error) error {
			var err error
			st, err = ScanBatches(ctx, t, tl, view, Options{AllColumns: true, OrderingFields: t.Config.OrderingFields, Mode: ModeFor(t.Config)}, fn)
			return err
		})
		if err != nil || len(st.Problems) > 0 {
			b.Fatalf("scan: %v %v", err, st.Problems)
		}
		// Key 0 is also in an older log with a greater ts (event-time ordering keeps that one).
		if n < benchSpec.Rows || updated != benchSpec.Updates-1 {
			b.Fatalf("%d rows (%d with the log's ordering value), want at least %d and %d", n, updated, benchSpec.Rows, benchSpec.Updates)
		}
		rows += n
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
	// CPU time (user+sys, every thread: GC and the read-ahead goroutine included), comparable
	// across a loaded machine where wall time is not.
	b.ReportMetric((cpuSeconds()-cpu0)/float64(b.N), "cpu-s/op")
}
