package hudi_test

// Benchmarks on synthetic tables built by synth.WriteDisk from the incr fixture's real files
// (table version 9): N completed commits, each a copy of the fixture's Avro commit metadata
// (every 100th a replacecommit), and M base files (hard links) in partitions. Tables are
// built once under the temp dir and reused. Small sizes also run as tests (TestSynthetic*).
//
// Run: go test -run XXX -bench . -benchtime 3x -benchmem ./hudi/
// Eager* run the previous code path (every commit decoded, whole JSON document indented).

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/layout"
	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/internal/synth"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
)

// synthSize is one synthetic table; mdt adds a metadata table listing its files.
type synthSize struct {
	commits, files int
	mdt            bool
}

func (s synthSize) String() string {
	if s.mdt {
		return fmt.Sprintf("%dc-%df-mdt", s.commits, s.files)
	}
	return fmt.Sprintf("%dc-%df", s.commits, s.files)
}

var (
	small    = synthSize{commits: 200, files: 2000}
	smallMDT = synthSize{commits: 200, files: 2000, mdt: true}
	sizes    = []synthSize{small, {commits: 10000, files: 100000}, {commits: 50000, files: 10000}, {commits: 1000, files: 1000000}}
	// mdtSizes are listed from their metadata table (a 1M-file table written by Hudi has one).
	mdtSizes = []synthSize{smallMDT, {commits: 1000, files: 1000000, mdt: true}}
	fixtures = map[synthSize]string{}
)

// synthTable builds (once per machine) and returns the table directory for sz.
func synthTable(tb testing.TB, sz synthSize) string {
	tb.Helper()
	if d := fixtures[sz]; d != "" {
		return d
	}
	dir := filepath.Join(os.TempDir(), "hudiscope-synth-"+sz.String())
	if _, err := os.Stat(filepath.Join(dir, ".complete")); err != nil {
		os.RemoveAll(dir)
		fx, err := synth.ReadFixture(filepath.Join("..", "testdata", "fixtures", "incr-1.2.0", "table.zip"))
		if err != nil {
			tb.Skip(err)
		}
		parts := min(1000, max(1, sz.files/1000))
		write := synth.WriteDisk
		if sz.mdt {
			write = synth.WriteDiskMDT
		}
		must(tb, write(dir, fx, sz.commits, sz.files, parts))
		must(tb, os.WriteFile(filepath.Join(dir, ".complete"), nil, 0o644))
	}
	fixtures[sz] = dir
	return dir
}

func must(tb testing.TB, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
}

// reportPeakHeap reports the process's heap reserve so far (it never shrinks): run one
// sub-benchmark per process (-bench 'FilesJSON/1000c') to read it as that one's peak.
func reportPeakHeap(b *testing.B) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapSys)/(1<<20), "heapMB")
}

// filesJSON is `hudiscope files --no-mdt --json`: partitions streamed while the listing runs
// (eager: the previous path, the whole view built, then encoding/json).
func filesJSON(tb testing.TB, dir string, w io.Writer, eager bool) {
	filesJSONFrom(tb, dir, w, eager, hudi.ListingStorage)
}

// filesJSONFrom is filesJSON listing from src (ListingMetadata: `hudiscope files --json` on a
// table with a metadata table).
func filesJSONFrom(tb testing.TB, dir string, w io.Writer, eager bool, src hudi.ListingSource) {
	ctx := context.Background()
	if eager {
		s, err := model.Load(ctx, model.Options{Location: dir, Steps: []model.Step{model.StepFiles}, NoMDT: src == hudi.ListingStorage}, nil)
		if err != nil || s.View == nil {
			tb.Fatalf("%v %v", err, s.StepErrors)
		}
		must(tb, report.WriteJSON(w, report.NewFilesDocument(s.View)))
		return
	}
	s, err := model.Load(ctx, model.Options{Location: dir, Steps: []model.Step{model.StepTimeline}, NoMDT: src == hudi.ListingStorage, LazyCommits: true}, nil)
	if err != nil || s.Timeline == nil {
		tb.Fatalf("%v %v", err, s.StepErrors)
	}
	jw := report.NewFilesJSONWriter(w)
	must(tb, s.EachPartition(ctx, jw.Begin, jw.Partition)) // src: NoMDT picks storage, else the metadata table
	must(tb, jw.Close())
}

// timelineJSON is `hudiscope timeline --json` (eager: the previous path).
func timelineJSON(tb testing.TB, dir string, w io.Writer, eager bool) int {
	ctx := context.Background()
	s, err := model.Load(ctx, model.Options{Location: dir, Steps: []model.Step{model.StepTimeline}, LazyCommits: !eager}, nil)
	if err != nil || s.Timeline == nil {
		tb.Fatalf("%v %v", err, s.StepErrors)
	}
	if eager {
		must(tb, report.WriteJSON(w, report.NewTimelineDocument(s, s.Timeline.Instants)))
	} else {
		ready := s.StreamCommits(ctx, s.Timeline.Instants, true)
		must(tb, report.WriteTimelineJSON(w, s, s.Timeline.Instants, ready))
	}
	return len(s.Timeline.Instants)
}

// layoutText is `hudiscope layout <table>` with its default flags (eager: every commit decoded,
// as the command did before it read commit names only). It returns the result.
func layoutText(tb testing.TB, dir string, w io.Writer, eager bool) *layout.Result {
	ctx := context.Background()
	tune := func(o *layout.Options) { o.PartitionStats, o.TopN, o.Characteristics, o.PrintTopK = false, 0, false, 0 }
	s, err := model.Load(ctx, model.Options{Location: dir, Steps: []model.Step{model.StepLayout}, LazyCommits: !eager, TuneLayout: tune}, nil)
	if err != nil || s.Layout == nil {
		tb.Fatalf("%v %v", err, s.StepErrors)
	}
	opt := model.LayoutOptions(s.Effective)
	tune(&opt)
	must(tb, report.LayoutText(w, s.Layout, opt))
	return s.Layout
}

// layout on the CI-size table: every file counted, the same report from names only.
func TestSyntheticLayout(t *testing.T) {
	dir := synthTable(t, small)
	var lazy, eager bytes.Buffer
	r := layoutText(t, dir, &lazy, false)
	layoutText(t, dir, &eager, true)
	if r.TotalFiles != int64(small.files) || r.NumPartitions != 2 || r.FileCountPerPartition.Max != 1000 {
		t.Errorf("%d files in %d partitions (max %v a partition)", r.TotalFiles, r.NumPartitions, r.FileCountPerPartition.Max)
	}
	if lazy.String() != eager.String() || lazy.Len() == 0 {
		t.Errorf("layout text differs:\n%s\nvs\n%s", lazy.String(), eager.String())
	}
}

// The lazy, streamed paths write what the eager ones wrote, on a CI-size table.
func TestSyntheticLazyMatchesEager(t *testing.T) {
	dir := synthTable(t, small)
	var lazy, eager bytes.Buffer
	filesJSON(t, dir, &lazy, false)
	filesJSON(t, dir, &eager, true)
	if lazy.String() != eager.String() || lazy.Len() == 0 {
		t.Errorf("files JSON differs (%d vs %d bytes)", lazy.Len(), eager.Len())
	}
	lazy.Reset()
	eager.Reset()
	if n := timelineJSON(t, dir, &lazy, false); n != small.commits {
		t.Errorf("%d instants", n)
	}
	timelineJSON(t, dir, &eager, true)
	if lazy.String() != eager.String() {
		t.Errorf("timeline JSON differs (%d vs %d bytes)", lazy.Len(), eager.Len())
	}
}

// The metadata-table listing of a synthetic table equals its storage listing: the same JSON
// apart from the listing source, and the same layout.
func TestSyntheticMDTMatchesStorage(t *testing.T) {
	dir := synthTable(t, smallMDT)
	var mdt, listed bytes.Buffer
	filesJSONFrom(t, dir, &mdt, false, hudi.ListingMetadata)
	filesJSONFrom(t, dir, &listed, false, hudi.ListingStorage)
	got := strings.Replace(mdt.String(), `"listingSource": "metadata table"`, `"listingSource": "storage listing"`, 1)
	if got != listed.String() || !strings.Contains(mdt.String(), `"listingSource": "metadata table"`) {
		t.Errorf("metadata-table listing differs from storage (%d vs %d bytes)", mdt.Len(), listed.Len())
	}
	if n := strings.Count(listed.String(), `"baseFile"`); n != smallMDT.files {
		t.Errorf("%d base files listed, want %d", n, smallMDT.files)
	}
	// A failing writer stops the metadata-table view at its first partition.
	tbl, err := hudi.Open(context.Background(), dir, storage.Options{})
	must(t, err)
	tl, err := tbl.ActiveTimelineNames(context.Background())
	must(t, err)
	calls := 0
	err = tbl.ViewFunc(context.Background(), tl, hudi.ListingMetadata, func(string) error { return nil },
		func(*filegroup.Partition) error { calls++; return errors.New("disk full") })
	if err == nil || err.Error() != "disk full" || calls != 1 {
		t.Errorf("failing emit: %v after %d calls", err, calls)
	}
	var lm bytes.Buffer
	rm := layoutText(t, dir, &lm, false)
	if rm.TotalFiles != int64(smallMDT.files) || rm.NumPartitions != 2 || !strings.Contains(lm.String(), "(MDT=on)") {
		t.Errorf("layout from the metadata table: %d files\n%s", rm.TotalFiles, lm.String())
	}
}

// files reads no ordinary commit's metadata: only replacecommits are decoded.
func TestSyntheticFilesSkipsCommits(t *testing.T) {
	dir := synthTable(t, small)
	ctx := context.Background()
	tb, err := hudi.Open(ctx, dir, storage.Options{})
	must(t, err)
	tl, err := tb.ActiveTimelineNames(ctx)
	must(t, err)
	decoded := 0
	for _, in := range tl.Instants {
		if in.MetadataLoaded() {
			decoded++
			if in.Action != "replacecommit" {
				t.Fatalf("%s %s decoded", in.RequestedTime, in.Action)
			}
		}
	}
	if decoded != small.commits/100 {
		t.Errorf("%d decoded, want %d", decoded, small.commits/100)
	}
}

func benchSizes(b *testing.B, run func(b *testing.B, dir string)) { benchSizesOf(b, sizes, run) }

func benchSizesOf(b *testing.B, sizes []synthSize, run func(b *testing.B, dir string)) {
	for _, sz := range sizes {
		b.Run(sz.String(), func(b *testing.B) {
			dir := synthTable(b, sz)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				run(b, dir)
			}
			reportPeakHeap(b)
		})
	}
}

func BenchmarkFilesJSON(b *testing.B) {
	benchSizes(b, func(b *testing.B, dir string) { filesJSON(b, dir, io.Discard, false) })
}

// BenchmarkFilesJSONMDT: `hudiscope files --json` listing from the metadata table.
func BenchmarkFilesJSONMDT(b *testing.B) {
	benchSizesOf(b, mdtSizes, func(b *testing.B, dir string) { filesJSONFrom(b, dir, io.Discard, false, hudi.ListingMetadata) })
}

func BenchmarkEagerFilesJSON(b *testing.B) {
	benchSizes(b, func(b *testing.B, dir string) { filesJSON(b, dir, io.Discard, true) })
}

// BenchmarkLayout: `hudiscope layout` (default flags): list, build the view, analyze, print.
func BenchmarkLayout(b *testing.B) {
	benchSizes(b, func(b *testing.B, dir string) { layoutText(b, dir, io.Discard, false) })
}

// BenchmarkLayoutMDT: `hudiscope layout` on tables listed from their metadata table.
func BenchmarkLayoutMDT(b *testing.B) {
	benchSizesOf(b, mdtSizes, func(b *testing.B, dir string) { layoutText(b, dir, io.Discard, false) })
}

func BenchmarkTimelineJSON(b *testing.B) {
	benchSizes(b, func(b *testing.B, dir string) { timelineJSON(b, dir, io.Discard, false) })
}

func BenchmarkEagerTimelineJSON(b *testing.B) {
	benchSizes(b, func(b *testing.B, dir string) { timelineJSON(b, dir, io.Discard, true) })
}

// BenchmarkActiveTimeline: open + list + decode every commit.
func BenchmarkActiveTimeline(b *testing.B) {
	ctx := context.Background()
	benchSizes(b, func(b *testing.B, dir string) {
		t, err := hudi.Open(ctx, dir, storage.Options{})
		must(b, err)
		_, err = t.ActiveTimeline(ctx)
		must(b, err)
	})
}

// BenchmarkFileSystemView: list partitions and build the file groups.
func BenchmarkFileSystemView(b *testing.B) {
	ctx := context.Background()
	benchSizes(b, func(b *testing.B, dir string) {
		t, err := hudi.Open(ctx, dir, storage.Options{})
		must(b, err)
		tl, err := t.ActiveTimelineNames(ctx)
		must(b, err)
		_, err = t.View(ctx, tl, hudi.ListingStorage)
		must(b, err)
	})
}

// BenchmarkWriterSchemas is `hudiscope describe`'s schema history read: the writer schema of
// every commit, only the extra metadata decoded (full: every commit's whole metadata decoded,
// as Table.Commit does).
func BenchmarkWriterSchemas(b *testing.B) {
	for _, sz := range []synthSize{small, {commits: 10000, files: 1000}} {
		dir := synthTable(b, sz)
		ctx := context.Background()
		s, err := model.Load(ctx, model.Options{Location: dir, Steps: []model.Step{model.StepTimeline}, NoMDT: true, LazyCommits: true}, nil)
		if err != nil || s.Timeline == nil {
			b.Fatalf("%v %v", err, s.StepErrors)
		}
		t, err := hudi.Open(ctx, dir, storage.Options{})
		must(b, err)
		instants := s.Timeline.Instants
		b.Run(sz.String()+"/schemas", func(b *testing.B) {
			for b.Loop() {
				ws := s.WriterSchemas(ctx, instants)
				if len(ws) != len(instants) || ws[0].Avro == "" {
					b.Fatalf("%d schemas, first %+v", len(ws), ws[0])
				}
			}
			reportPeakHeap(b)
		})
		b.Run(sz.String()+"/full", func(b *testing.B) {
			for b.Loop() {
				for _, in := range instants {
					if cm, err := t.Commit(ctx, in); err != nil || cm.ExtraMetadata["schema"] == "" {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
