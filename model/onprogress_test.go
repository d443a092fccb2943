package model

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/duplicates"
)

// Options.OnArchived hears each archived instant as it is decoded: 15 on mor-archived-0.14.0
// (archive log records; Spark's getArchivedTimeline lists those 15 in 3 states, 45 instants)
// and 18 on mor-archived-1.1.1 (LSM history; Spark: 18 completed), one call each.
func TestOnArchivedCountsInstants(t *testing.T) {
	for fx, want := range map[string]int{"mor-archived-0.14.0": 15, "mor-archived-1.1.1": 18} {
		calls, total := 0, 0
		s, err := Load(context.Background(), Options{Location: filepath.Join("..", "testdata", "fixtures", fx, "table.zip"),
			Steps: []Step{StepArchived}, Archived: true, ClusterDefaults: "-", OnArchived: func(n int) { calls++; total += n }}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if e := s.StepErrors[StepArchived]; e != nil {
			t.Fatal(e)
		}
		if calls != want || total != want || len(s.Timeline.Archived) != want {
			t.Errorf("%s: OnArchived called %d times with %d instants; %d archived, want %d", fx, calls, total, len(s.Timeline.Archived), want)
		}
	}
}

// Options.OnSlices hears each file slice a records read begins: a duplicates scan of
// dups-1.1.1 reads every file group's latest slice once: 11 file ids in the zip (unzip -l:
// 5 in 2024-01-01, 5 in 2024-01-02, 1 in 2024-01-03).
func TestOnSlicesCountsSlices(t *testing.T) {
	slices := 0
	s, err := Load(context.Background(), Options{Location: filepath.Join("..", "testdata", "fixtures", "dups-1.1.1", "table.zip"),
		Steps: []Step{StepFiles}, ClusterDefaults: "-", OnSlices: func(n int) { slices += n }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Duplicates(context.Background(), duplicates.Options{}); err != nil {
		t.Fatal(err)
	}
	if slices != 11 || s.View.NumFileGroups() != 11 {
		t.Errorf("OnSlices heard %d slices; the view has %d file groups, want 11", slices, s.View.NumFileGroups())
	}
}

// metadata validate-files' storage listing tells Options.OnListed each partition's entries: on
// index-simple-1.2.0, 8 partitions holding 248 files (unzip -l: 116 parquet files, 8
// .hoodie_partition_metadata and 124 .crc), of which the 116 data files match the MDT.
func TestOnListedValidateFiles(t *testing.T) {
	calls, total := 0, 0
	s, err := Load(context.Background(), Options{Location: filepath.Join("..", "testdata", "fixtures", "index-simple-1.2.0", "table.zip"),
		Steps: []Step{StepTimeline}, ClusterDefaults: "-"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Options.OnListed = func(n int) { calls++; total += n }
	v, err := s.ValidateMetadataFiles(context.Background(), true)
	if err != nil {
		t.Fatal(err)
	}
	if calls != 8 || total != 248 || !v.Match || len(v.Files) != 116 {
		t.Errorf("OnListed called %d times with %d files; validation match %v over %d files", calls, total, v.Match, len(v.Files))
	}
}
