package hudi_test

import (
	"context"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/storage"
)

// View over a storage listing builds each partition as it is listed (filegroup.ListViewFunc); it
// must equal listing everything first and building after (BuildView), on every fixture (COW,
// MOR with logs, pending compaction and clustering, replacecommits, v4–v9) and the synthetic
// table.
func TestListViewMatchesBuildView(t *testing.T) {
	ctx := context.Background()
	tables, _ := filepath.Glob(filepath.Join("..", "testdata", "fixtures", "*", "table.zip"))
	if len(tables) == 0 {
		t.Skip("no fixtures")
	}
	tables = append(tables, synthTable(t, small))
	checked, groups := 0, 0
	for _, p := range tables {
		tb, err := hudi.Open(ctx, p, storage.Options{})
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		tl, err := tb.ActiveTimeline(ctx)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		got, err := tb.View(ctx, tl, hudi.ListingStorage)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		parts, err := tb.ListPartitions(ctx, tl, hudi.ListingStorage)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		want := tb.BuildView(ctx, tl, parts, filegroup.SourceStorage)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: ListView %v, BuildView %v", p, got, want)
		}
		// A listing in any order (the metadata table's need not be sorted) builds the same
		// groups: reversed, every id comes out of order.
		rev := map[string][]storage.Entry{}
		for p, es := range parts {
			r := slices.Clone(es)
			slices.Reverse(r)
			rev[p] = r
		}
		back := tb.BuildView(ctx, tl, rev, filegroup.SourceStorage)
		for _, p := range back.Partitions {
			slices.Reverse(p.Uncommitted)
		}
		if !reflect.DeepEqual(back, want) {
			t.Errorf("%s: reversed listing %v, sorted %v", p, back, want)
		}
		checked++
		groups += got.NumFileGroups()
	}
	if checked != len(tables) || groups < 2000 {
		t.Errorf("checked %d of %d tables, %d file groups", checked, len(tables), groups)
	}
}
