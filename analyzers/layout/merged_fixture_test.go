package layout_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/layout"
	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/storage"
)

// analyzeFixture runs the analyzer on one of our fixtures, listed from storage.
func analyzeFixture(t *testing.T, name string) *layout.Result {
	t.Helper()
	zip := filepath.Join("..", "..", "testdata", "fixtures", name, "table.zip")
	if _, err := os.Stat(zip); err != nil {
		t.Skipf("fixture %s not present yet: %v", name, err)
	}
	ctx := context.Background()
	tb, err := hudi.Open(ctx, zip, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tl, err := tb.ActiveTimeline(ctx)
	if err != nil {
		t.Fatal(err)
	}
	v, err := tb.View(ctx, tl, hudi.ListingStorage)
	if err != nil {
		t.Fatal(err)
	}
	return layout.Analyze(layout.Input{View: v, Timeline: tl, TableType: tb.Config.Type}, layout.DefaultOptions())
}

// mor-services-1.2.0 has compaction 20261129163053361 requested over its three file groups.
// Counted by hand from the zip listing: each group has a base file at 20261129163015967
// (10,257 + 10,265 + 10,269 B), three logs before the plan and three after it. A snapshot read
// merges all 18 logs (15,162 B) with those base files; the latest slices hold 9 (7,582 B).
func TestReaderViewAcrossPendingCompaction(t *testing.T) {
	r := analyzeFixture(t, "mor-services-1.2.0")
	x := r.Hudiscope
	if r.TotalFiles != 3 || r.TotalBytes != 30791 {
		t.Errorf("Java-compatible base files: %d files, %d B; want 3, 30791", r.TotalFiles, r.TotalBytes)
	}
	if x.LogFiles != 18 || x.LogBytes != 15162 || x.TotalBytesWithLogs != 30791+15162 {
		t.Errorf("reader's view: %d logs, %d B, base+log %d; want 18, 15162, %d", x.LogFiles, x.LogBytes, x.TotalBytesWithLogs, 30791+15162)
	}
	if x.LatestSliceLogFiles != 9 || x.LatestSliceLogBytes != 7582 || x.MergedFileGroups != 3 {
		t.Errorf("latest slices: %d logs, %d B, %d merged groups; want 9, 7582, 3", x.LatestSliceLogFiles, x.LatestSliceLogBytes, x.MergedFileGroups)
	}
}

// The Hudi 0.11.1 (table version 4) MOR fixture, against Hudi's own merged slices
// (oracle/merged_file_slices.json, getLatestMergedFileSlicesBeforeOrOn). Checked by hand on the
// 2026-11-30 20:07 generation: compaction 20261130200741638 requested over all five file groups,
// a read merges 12 logs (12 × 814 B = 9,768 B) with 5 base files (54,145 B), and the plan's new
// slices hold the 3 logs (2,442 B) written since. The oracle keeps the test true if the fixture
// is regenerated.
func TestReaderViewAcrossPendingCompactionV4(t *testing.T) {
	r := analyzeFixture(t, "mor-v4-0.11.1")
	x := r.Hudiscope
	var oracle struct {
		Partitions map[string][]struct {
			BaseFile *struct {
				Size int64 `json:"size"`
			} `json:"base_file"`
			LogFiles []struct {
				Size       int64  `json:"size"`
				BaseCommit string `json:"base_commit_time"`
			} `json:"log_files"`
		} `json:"partitions"`
	}
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "fixtures", "mor-v4-0.11.1", "oracle", "merged_file_slices.json"))
	if err != nil {
		t.Skipf("no oracle yet: %v", err)
	}
	if err := json.Unmarshal(b, &oracle); err != nil {
		t.Fatal(err)
	}
	pending := map[string]bool{}
	for _, in := range analyzeTimeline(t, "mor-v4-0.11.1") {
		pending[in] = true
	}
	var bases, logs, latest int
	var baseBytes, logBytes, latestBytes int64
	for _, gs := range oracle.Partitions {
		for _, g := range gs {
			if g.BaseFile != nil {
				bases++
				baseBytes += g.BaseFile.Size
			}
			for _, l := range g.LogFiles {
				logs++
				logBytes += l.Size
				if pending[l.BaseCommit] {
					latest++
					latestBytes += l.Size
				}
			}
		}
	}
	if x.MergedFileGroups == 0 || latest == 0 {
		t.Fatalf("no file group read across a pending compaction: %+v", x)
	}
	if int(r.TotalFiles) != bases || r.TotalBytes != baseBytes {
		t.Errorf("base files %d / %d B; Hudi reads %d / %d B", r.TotalFiles, r.TotalBytes, bases, baseBytes)
	}
	if x.LogFiles != logs || x.LogBytes != logBytes {
		t.Errorf("reader's view %d logs / %d B; Hudi merges %d / %d B", x.LogFiles, x.LogBytes, logs, logBytes)
	}
	if x.LatestSliceLogFiles != latest || x.LatestSliceLogBytes != latestBytes {
		t.Errorf("latest slices %d logs / %d B; logs written since the plan %d / %d B", x.LatestSliceLogFiles, x.LatestSliceLogBytes, latest, latestBytes)
	}
}

// analyzeTimeline returns the requested times of a fixture's pending compactions.
func analyzeTimeline(t *testing.T, name string) []string {
	t.Helper()
	ctx := context.Background()
	tb, err := hudi.Open(ctx, filepath.Join("..", "..", "testdata", "fixtures", name, "table.zip"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tl, err := tb.ActiveTimeline(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, in := range tl.Instants {
		if in.IsCompaction("") && !in.IsCompleted() {
			out = append(out, in.RequestedTime)
		}
	}
	return out
}
