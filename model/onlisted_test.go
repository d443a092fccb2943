package model

import (
	"context"
	"path/filepath"
	"testing"
)

// Options.OnListed hears each partition's data files as the view step lists them: on
// index-bloom-1.2.0, 8 partitions and 116 files — every parquet file outside .hoodie in the
// zip (unzip -l), in 104 file groups.
func TestOnListedCountsFiles(t *testing.T) {
	calls, total := 0, 0
	s, err := Load(context.Background(), Options{Location: filepath.Join("..", "testdata", "fixtures", "index-bloom-1.2.0", "table.zip"),
		Steps: []Step{StepFiles}, ClusterDefaults: "-", OnListed: func(n int) { calls++; total += n }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if e := s.StepErrors[StepFiles]; e != nil {
		t.Fatal(e)
	}
	want := 0
	for _, p := range s.View.Partitions {
		want += p.NumFiles()
	}
	if calls != 8 || total != 116 || total != want || s.View.NumFileGroups() != 104 {
		t.Errorf("OnListed called %d times with %d files; view has %d files in %d groups", calls, total, want, s.View.NumFileGroups())
	}
}
