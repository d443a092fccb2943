package hudi_test

// Benchmarks on a synthetic table built from the incr fixture's real files (table version 9):
// 10,000 completed commits, each a copy of the fixture's Avro commit metadata, and 100,000
// base files (hard links to the fixture's parquet file) in 100 partitions.
//
// Run: go test -run XXX -bench . -benchtime 3x ./hudi/

import (
	"archive/zip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/storage"
)

// BuildSyntheticTable writes a v9 COW table with n instants and files base files into dir.
func BuildSyntheticTable(tb testing.TB, dir string, n, files int) {
	tb.Helper()
	src := filepath.Join("..", "testdata", "fixtures", "incr-1.2.0", "table.zip")
	zr, err := zip.OpenReader(src)
	if err != nil {
		tb.Skipf("fixture %s: %v", src, err)
	}
	defer zr.Close()
	var props, commit, parquet []byte
	for _, f := range zr.File {
		read := func() []byte {
			rc, err := f.Open()
			if err != nil {
				tb.Fatal(err)
			}
			defer rc.Close()
			b, _ := io.ReadAll(rc)
			return b
		}
		switch {
		case strings.HasSuffix(f.Name, ".hoodie/hoodie.properties"):
			props = read()
		case strings.HasSuffix(f.Name, "_20261129155631861.commit"):
			commit = read()
		case strings.HasSuffix(f.Name, ".parquet") && parquet == nil:
			parquet = read()
		}
	}
	if props == nil || commit == nil || parquet == nil {
		tb.Fatal("fixture files not found")
	}
	tdir := filepath.Join(dir, ".hoodie", "timeline")
	must(tb, os.MkdirAll(tdir, 0o755))
	must(tb, os.WriteFile(filepath.Join(dir, ".hoodie", "hoodie.properties"), props, 0o644))
	inst := func(i int) string {
		return fmt.Sprintf("2026%02d%02d%02d%02d%02d%03d", 1+i/100000%12, 1+i/10000%28, i/1000%24, i/100%60, i%60, i%1000)
	}
	for i := 0; i < n; i++ {
		req := inst(i*3 + 1)
		comp := inst(i*3 + 2)
		must(tb, os.WriteFile(filepath.Join(tdir, req+".commit.requested"), nil, 0o644))
		must(tb, os.WriteFile(filepath.Join(tdir, req+".inflight"), nil, 0o644))
		must(tb, os.WriteFile(filepath.Join(tdir, req+"_"+comp+".commit"), commit, 0o644))
	}
	parts := 100
	for p := 0; p < parts; p++ {
		pd := filepath.Join(dir, fmt.Sprintf("dt=2026-01-%03d", p))
		must(tb, os.MkdirAll(pd, 0o755))
		// One template per partition keeps hard-link counts under the filesystem's limit.
		pq := filepath.Join(dir, fmt.Sprintf("template-%03d.bin", p))
		must(tb, os.WriteFile(pq, parquet, 0o644))
		must(tb, os.WriteFile(filepath.Join(pd, ".hoodie_partition_metadata"), []byte("commitTime=1\npartitionDepth=1\n"), 0o644))
		for f := p; f < files; f += parts {
			name := fmt.Sprintf("%08x-0000-0000-0000-000000000000-0_0-1-1_%s.parquet", f, inst((f%n)*3+1))
			must(tb, os.Link(pq, filepath.Join(pd, name)))
		}
	}
}

func must(tb testing.TB, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
}

var synthetic string

// syntheticTable builds the table once per machine (in the temp dir, reused across runs:
// building 100,000 files costs more than the benchmarks themselves).
func syntheticTable(b *testing.B) string {
	if synthetic != "" {
		return synthetic
	}
	dir := filepath.Join(os.TempDir(), "hudiscope-synthetic-10k-100k")
	if _, err := os.Stat(filepath.Join(dir, ".complete")); err != nil {
		os.RemoveAll(dir)
		BuildSyntheticTable(b, dir, 10000, 100000)
		must(b, os.WriteFile(filepath.Join(dir, ".complete"), nil, 0o644))
	}
	synthetic = dir
	return dir
}

func reportPeakHeap(b *testing.B) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapSys)/(1<<20), "heapMB")
}

// BenchmarkActiveTimeline10k: open + list + decode 10,000 Avro commit files.
func BenchmarkActiveTimeline10k(b *testing.B) {
	dir := syntheticTable(b)
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t, err := hudi.Open(ctx, dir, storage.Options{})
		if err != nil {
			b.Fatal(err)
		}
		tl, err := t.ActiveTimeline(ctx)
		if err != nil || len(tl.Instants) != 10000 {
			b.Fatalf("%v %d", err, len(tl.Instants))
		}
	}
	reportPeakHeap(b)
}

// BenchmarkFileSystemView100k: list 100 partitions and build 100,000 file groups.
func BenchmarkFileSystemView100k(b *testing.B) {
	dir := syntheticTable(b)
	ctx := context.Background()
	t, err := hudi.Open(ctx, dir, storage.Options{})
	if err != nil {
		b.Fatal(err)
	}
	tl, _ := t.ActiveTimeline(ctx)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v, err := t.View(ctx, tl, hudi.ListingStorage)
		if err != nil || v.NumFileGroups() != 100000 {
			b.Fatalf("%v %d", err, v.NumFileGroups())
		}
	}
	reportPeakHeap(b)
}
