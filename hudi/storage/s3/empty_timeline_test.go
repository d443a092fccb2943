package s3_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/storage"
)

// A table version 9 table created but never written has a hoodie.properties and no instant;
// on S3 without directory markers nothing makes .hoodie/timeline/ exist, and its timeline is
// empty, with a warning naming the folder (it was an error).
func TestS3TableWithoutTimelineFolder(t *testing.T) {
	zip := filepath.Join("..", "..", "..", "testdata", "fixtures", "incr-1.2.0", "table.zip")
	if _, err := os.Stat(zip); err != nil {
		t.Skip(err)
	}
	ctx := context.Background()
	src, err := storage.Open(zip, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	props, err := src.ReadFile(ctx, ".hoodie/hoodie.properties")
	if err != nil {
		t.Fatal(err)
	}
	f := newFake(t)
	f.Put(t, "fresh/.hoodie/hoodie.properties", props)
	tab, err := hudi.Open(ctx, "s3://"+bucket+"/fresh", fakeOpts)
	if err != nil {
		t.Fatal(err)
	}
	if tab.Config.Version != 9 || tab.Config.TimelineDir != ".hoodie/timeline" {
		t.Fatalf("version %d, timeline dir %q", tab.Config.Version, tab.Config.TimelineDir)
	}
	tl, err := tab.ActiveTimeline(ctx)
	if err != nil || len(tl.Instants) != 0 {
		t.Fatalf("timeline %v, %v; want empty", tl, err)
	}
}
