package view

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/hudiscope/hudiscope/model"
)

// TestFileGroupRowsPendingCompaction: mor-services-1.2.0's file group def4caba… in 2024-01-01
// (checked against table.zip by hand) has its base file from 20261129163015967 (10257 bytes)
// and six 842-byte log files, three before and three after the pending compaction
// 20261129163053361. A snapshot read merges the base file with all six (5052 bytes), not only
// the latest slice's three; the compaction is pending on it.
func TestFileGroupRowsPendingCompaction(t *testing.T) {
	const zip = "../testdata/fixtures/mor-services-1.2.0/table.zip"
	if _, err := os.Stat(zip); err != nil {
		t.Skipf("fixture absent: %v", err)
	}
	s, err := model.Load(context.Background(), model.Options{Location: zip, ClusterDefaults: "-",
		Steps: []model.Step{model.StepProperties, model.StepTimeline, model.StepFiles}}, nil)
	if err != nil {
		t.Fatalf("load %s: %v", zip, err)
	}
	var got []string
	for _, p := range s.View.Partitions {
		if p.Path != "2024-01-01" {
			continue
		}
		for _, r := range FileGroupRows(p.FileGroups) {
			if r.Group.FileID != "def4caba-0176-4cee-a95d-894d77d1d75d-0" {
				continue
			}
			base := "none"
			if r.LatestBase != nil {
				base = fmt.Sprintf("%s %d", r.LatestBase.Instant, r.LatestBase.Size)
			}
			latest := r.Group.Latest()
			got = append(got, fmt.Sprintf("slices %d, base %s, read logs %d (%d B), merged %v, pending %q, latest slice %d logs",
				r.Slices, base, r.ReadLogs, r.ReadLogBytes, r.Merged, r.Pending, len(latest.Logs)))
		}
	}
	want := `slices 2, base 20261129163015967 10257, read logs 6 (5052 B), merged true, pending "compaction 20261129163053361", latest slice 3 logs`
	if len(got) != 1 || got[0] != want {
		t.Errorf("file group rows:\n%v\nwant\n%s", got, want)
	}
}
