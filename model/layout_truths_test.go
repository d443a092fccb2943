package model

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/layout"
)

// cow-services-1.2.0's writer.properties sets hoodie.parquet.small.file.limit=0: the layout
// says small-file handling is off and still counts its five small base files (all under the
// 50 MB threshold). incr-1.2.0 is not partitioned: hot-partitions is skipped, never flagged.
func TestLayoutTruthsOnFixtures(t *testing.T) {
	dir := ownFixture(t, "cow-services-1.2.0")
	s, err := Load(context.Background(), Options{Location: filepath.Join(dir, "table.zip"), Props: filepath.Join(dir, "writer.properties"),
		ClusterDefaults: "-", Steps: []Step{StepLayout}}, nil)
	if err != nil || s.Layout == nil {
		t.Fatalf("load: %v %v", err, s.StepErrors)
	}
	x := s.Layout.Hudiscope
	if x.SmallFileHandling != "off" || x.SmallFileLimit != 0 || x.SmallFileShare != 1 {
		t.Errorf("cow-services: handling %s limit %d share %v", x.SmallFileHandling, x.SmallFileLimit, x.SmallFileShare)
	}
	dir = ownFixture(t, "incr-1.2.0")
	s, err = Load(context.Background(), Options{Location: filepath.Join(dir, "table.zip"), ClusterDefaults: "-", Steps: []Step{StepLayout}}, nil)
	if err != nil || s.Layout == nil {
		t.Fatalf("load: %v %v", err, s.StepErrors)
	}
	if d := s.Layout.TableCharacteristics.Detector(layout.HotPartitions); d.Status != layout.Skipped || len(*d.Hot) != 0 {
		t.Errorf("incr (not partitioned): hot-partitions %s %v", d.Status, *d.Hot)
	}
	if x := s.Layout.Hudiscope; x.SmallFileHandling != "on" {
		t.Errorf("incr: handling %s", x.SmallFileHandling)
	}
}
