package hudi_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/hudiscope/hudiscope/hudi/internal/synth"
	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
	"github.com/hudiscope/hudiscope/view"
)

// lsmBenchRow is a row of a 1.x LSM history file (HoodieLSMTimelineInstant's columns read).
type lsmBenchRow struct {
	InstantTime    string `parquet:"instantTime,optional"`
	CompletionTime string `parquet:"completionTime,optional"`
	Action         string `parquet:"action,optional"`
	Metadata       []byte `parquet:"metadata,optional"`
	Plan           []byte `parquet:"plan,optional"`
}

// archivedBase is the first archived instant's request; archived instant i is requested 3 s
// after i-1 and takes 2 s, 5 s from the middle on (a change point for the trends).
var archivedBase = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

func archivedTimes(i, n int) (req, comp string) {
	t := archivedBase.Add(time.Duration(i) * 3 * time.Second)
	d := 2 * time.Second
	if i >= n/2 {
		d = 5 * time.Second
	}
	return timeline.FormatInstantTime(t, time.UTC), timeline.FormatInstantTime(t.Add(d), time.UTC)
}

// synthArchivedTable builds (once per machine) a table version 9 table with active completed
// commits on the active timeline (synth.WriteDisk, 1,000 base files) and archived ones in its
// LSM history: files of 10,000 rows, each a commit carrying the fixture's Avro commit
// metadata, listed by manifest_1.
func synthArchivedTable(tb testing.TB, active, archived int) string {
	tb.Helper()
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("hudiscope-synth-lsm-%da-%dh", active, archived))
	if _, err := os.Stat(filepath.Join(dir, ".complete")); err == nil {
		return dir
	}
	os.RemoveAll(dir)
	fx, err := synth.ReadFixture(filepath.Join("..", "testdata", "fixtures", "incr-1.2.0", "table.zip"))
	if err != nil {
		tb.Skip(err)
	}
	must(tb, synth.WriteDisk(dir, fx, active, 1000, 10))
	hist := filepath.Join(dir, ".hoodie", "timeline", "history")
	must(tb, os.MkdirAll(hist, 0o755))
	var files []string
	const perFile = 10000
	for start := 0; start < archived; start += perFile {
		end := min(archived, start+perFile)
		var buf bytes.Buffer
		w := parquet.NewGenericWriter[lsmBenchRow](&buf)
		rows := make([]lsmBenchRow, 0, end-start)
		for i := start; i < end; i++ {
			req, comp := archivedTimes(i, archived)
			rows = append(rows, lsmBenchRow{InstantTime: req, CompletionTime: comp, Action: "commit", Metadata: fx.Commit})
		}
		_, err := w.Write(rows)
		must(tb, err)
		must(tb, w.Close())
		first, _ := archivedTimes(start, archived)
		last, _ := archivedTimes(end-1, archived)
		name := first + "_" + last + "_0.parquet"
		must(tb, os.WriteFile(filepath.Join(hist, name), buf.Bytes(), 0o644))
		files = append(files, fmt.Sprintf(`{"fileName":%q,"fileLen":%d}`, name, buf.Len()))
	}
	must(tb, os.WriteFile(filepath.Join(hist, "manifest_1"), []byte(`{"files":[`+strings.Join(files, ",")+`]}`), 0o644))
	must(tb, os.WriteFile(filepath.Join(hist, "_version_"), []byte("1"), 0o644))
	must(tb, os.WriteFile(filepath.Join(dir, ".complete"), nil, 0o644))
	return dir
}

// trendsOf is `hudiscope trends TABLE` (text): both timelines, totals streamed, the series.
func trendsOf(tb testing.TB, dir string, w io.Writer) *view.TrendSet {
	ctx := context.Background()
	s, err := model.Load(ctx, model.Options{Location: dir, Archived: true, LazyCommits: true,
		Steps: []model.Step{model.StepTimeline, model.StepArchived}}, nil)
	if err != nil || s.Timeline == nil {
		tb.Fatalf("%v %v", err, s.StepErrors)
	}
	instants := s.Timeline.All()
	ready := s.StreamCommits(ctx, instants, true)
	for i := range instants {
		ready(i)
	}
	t := view.Trends(s, view.TrendOptions{})
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, report.TrendsHeadline(t))
	for i := range t.Series {
		sr := &t.Series[i]
		fmt.Fprintln(bw, report.SeriesTitle(sr), len(sr.Values), report.TrendValue(sr.Median, sr.Unit), len(sr.Changes))
	}
	must(tb, bw.Flush())
	return t
}

// archivedTimelineJSON is `hudiscope timeline --archived -o json`: the floor trends read on.
func archivedTimelineJSON(tb testing.TB, dir string, w io.Writer) int {
	ctx := context.Background()
	s, err := model.Load(ctx, model.Options{Location: dir, Archived: true, LazyCommits: true,
		Steps: []model.Step{model.StepTimeline, model.StepArchived}}, nil)
	if err != nil || s.Timeline == nil {
		tb.Fatalf("%v %v", err, s.StepErrors)
	}
	instants := s.Timeline.All()
	ready := s.StreamCommits(ctx, instants, true)
	must(tb, report.WriteTimelineJSON(w, s, instants, ready))
	return len(instants)
}

// The synthetic LSM table reads back as built: every archived commit a trends point with the
// fixture commit's totals, the active ones after them, and the duration step from 2 s to 5 s
// found where it was put.
func TestSyntheticArchivedTrends(t *testing.T) {
	dir := synthArchivedTable(t, 50, 400)
	tr := trendsOf(t, dir, io.Discard)
	archived := 0
	for _, p := range tr.Points {
		if p.Archived {
			archived++
			if p.RecordsWritten != tr.Points[len(tr.Points)-1].RecordsWritten || p.BytesWritten == 0 {
				t.Fatalf("archived %s: %+v", p.Requested, p)
			}
		}
	}
	if len(tr.Points) != 450 || archived != 400 || tr.Pending != 0 {
		t.Fatalf("%d points, %d archived, %d pending", len(tr.Points), archived, tr.Pending)
	}
	d := tr.Series[0]
	if d.Name != "duration" || len(d.Changes) == 0 || d.Changes[0].Index != 200 || d.Changes[0].Ratio != 2.5 {
		t.Errorf("duration changes %+v", d.Changes)
	}
}

// peakRSS is the process's peak resident set (VmHWM) in MB: run one sub-benchmark per process
// (-bench 'Trends200k/trends') to read it as that one's.
func peakRSS(b *testing.B) {
	s, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return
	}
	for _, l := range strings.Split(string(s), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			b.ReportMetric(kb/1024, "peakRSS-MB")
		}
	}
}

// BenchmarkTrends200k: trends over 200,000 commits (2,000 active, 198,000 in the LSM history)
// beside `timeline --archived -o json` over the same table, the floor both read through.
// Run each alone for its peak memory:
//
//	go test -run XXX -bench 'Trends200k/trends' -benchtime 3x ./hudi/
//	go test -run XXX -bench 'Trends200k/timeline' -benchtime 3x ./hudi/
func BenchmarkTrends200k(b *testing.B) {
	dir := synthArchivedTable(b, 2000, 198000)
	b.Run("trends", func(b *testing.B) {
		for b.Loop() {
			if t := trendsOf(b, dir, io.Discard); len(t.Points) != 200000 {
				b.Fatalf("%d points", len(t.Points))
			}
		}
		reportPeakHeap(b)
		peakRSS(b)
	})
	b.Run("timeline-archived-json", func(b *testing.B) {
		for b.Loop() {
			if n := archivedTimelineJSON(b, dir, io.Discard); n != 200000 {
				b.Fatalf("%d instants", n)
			}
		}
		reportPeakHeap(b)
		peakRSS(b)
	})
}
