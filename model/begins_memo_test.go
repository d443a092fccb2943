package model

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/hudiscope/hudiscope/hudi/storage"
)

// TestIncrementalBeginsReadOnce: the Overview, the Timeline header and the report's sections
// each ask for the begin values; the newest clean's metadata is read for the first ask only.
// cow-services-1.2.0 has 12 cleans: its two reader lines (1.0.x, 1.1+) read the newest once each.
func TestIncrementalBeginsReadOnce(t *testing.T) {
	ctx := context.Background()
	s, err := Load(ctx, Options{Location: filepath.Join("..", "testdata", "fixtures", "cow-services-1.2.0", "table.zip"),
		Steps: []Step{StepTimeline}, CountRequests: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, ok := s.table.Store.(*storage.Counting)
	if !ok {
		t.Fatalf("store %T is not counted", s.table.Store)
	}
	_, before := c.Counts()
	first := s.IncrementalBegins(ctx)
	_, once := c.Counts()
	second := s.IncrementalBegins(ctx)
	_, twice := c.Counts()
	if len(first) == 0 || len(second) != len(first) || first[0].Resume != second[0].Resume {
		t.Fatalf("begins %+v then %+v", first, second)
	}
	if once == before || twice != once {
		t.Errorf("gets: %d before, %d after the first ask, %d after the second (want the second to read nothing)", before, once, twice)
	}
	if st := s.IncrementalStarts(ctx); len(st) != len(first) || st[0].Begin != first[0].Earliest.Begin || st[0].Begin == "" {
		t.Errorf("starts %+v are not the begins' earliest values", st)
	}
}
