package hudi_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// hoodie.timeline.path leading outside the root is refused, named, and the default is used.
func TestTimelinePathConfined(t *testing.T) {
	ctx := context.Background()
	dir := extractTable(t, "sample_table/cow/v9_txns_simple_meta.zip")
	before := countInstants(t, dir)
	props := filepath.Join(dir, ".hoodie", "hoodie.properties")
	b, err := os.ReadFile(props)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(props, append(b, "\nhoodie.timeline.path=../../../outside\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	tbl, err := hudi.Open(ctx, dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tbl.Config.TimelineDir != ".hoodie/timeline" {
		t.Errorf("TimelineDir = %q", tbl.Config.TimelineDir)
	}
	ps := tbl.Problems()
	if len(ps) != 1 || !strings.HasSuffix(ps[0].File, "hoodie.properties") || !strings.Contains(ps[0].Err, "hoodie.timeline.path") || !strings.Contains(ps[0].Err, "refused") {
		t.Errorf("problems %v", ps)
	}
	tl, err := tbl.ActiveTimeline(ctx)
	if err != nil || len(tl.Instants) != before {
		t.Fatalf("timeline %v, err %v; want %d instants", tl, err, before)
	}
}

// A directory in place of a completed instant file is a named problem; the instant stays
// completed, not inflight.
func TestDirectoryAsCompletedInstant(t *testing.T) {
	ctx := context.Background()
	dir := extractTable(t, "sample_table/cow/v9_txns_simple_meta.zip")
	f := filepath.Join(dir, ".hoodie", "timeline", "20260307162442820_20260307162443659.commit")
	if err := os.Remove(f); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(f, 0o755); err != nil {
		t.Fatal(err)
	}
	tbl, err := hudi.Open(ctx, dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tl, err := tbl.ActiveTimeline(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range tl.Instants {
		if in.RequestedTime == "20260307162442820" && in.State != timeline.Completed {
			t.Errorf("state %s, want COMPLETED", in.State)
		}
	}
	named := false
	for _, p := range tbl.Problems() {
		named = named || (p.File == f && strings.Contains(p.Err, "directory"))
	}
	if !named {
		t.Errorf("no problem naming %s: %v", f, tbl.Problems())
	}
}
