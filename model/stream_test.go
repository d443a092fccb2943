package model

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/records"
)

func streamFixture(t *testing.T, fx string, o Options) *Snapshot {
	t.Helper()
	zip := filepath.Join("..", "testdata", "fixtures", fx, "table.zip")
	if _, err := os.Stat(zip); err != nil {
		t.Skipf("fixture not present: %s", zip)
	}
	o.Location, o.ClusterDefaults, o.LazyCommits = zip, "-", true
	if o.Steps == nil {
		o.Steps = []Step{StepTimeline}
	}
	s, err := Load(context.Background(), o, nil)
	if err != nil || s.Timeline == nil {
		t.Fatalf("%s: %v %v", fx, err, s.StepErrors)
	}
	return s
}

// EachPartition hands cow-services-1.2.0's partitions one at a time, in path order, from the
// metadata table (from storage with NoMDT): 2, 1 and 2 file groups, 22303, 11249 and 22245
// bytes of base files, as `files -o json` prints and as the file step's view holds.
func TestEachPartition(t *testing.T) {
	ctx := context.Background()
	for _, noMDT := range []bool{false, true} {
		s := streamFixture(t, "cow-services-1.2.0", Options{NoMDT: noMDT})
		var source string
		var got []string
		err := s.EachPartition(ctx, func(src string) error { source = src; return nil }, func(p *filegroup.Partition) error {
			var bytes int64
			for _, g := range p.FileGroups {
				if b := g.Latest().Base; b != nil {
					bytes += b.Size
				}
			}
			got = append(got, p.Path+":"+itoaTest(len(p.FileGroups))+":"+itoaTest(int(bytes)))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		want := map[bool]string{false: "metadata table", true: "storage listing"}[noMDT]
		if source != want || strings.Join(got, " ") != "2024-01-01:2:22303 2024-01-02:1:11249 2024-01-03:2:22245" {
			t.Errorf("NoMDT %v: source %q, partitions %q", noMDT, source, got)
		}
		if s.View != nil {
			t.Errorf("NoMDT %v: the streamed listing was kept on the snapshot", noMDT)
		}
		// An error from emit stops the listing and comes back.
		stop := errors.New("stop")
		if err := s.EachPartition(ctx, func(string) error { return nil }, func(*filegroup.Partition) error { return stop }); !errors.Is(err, stop) {
			t.Errorf("emit error: %v", err)
		}
	}
}

// StreamCommits reads incr-1.2.0's three commits in the background: after ready(i) each has
// its totals (3, 4 and 4 records written: 3+1 inserted, 1+1 updated), as `timeline` prints.
func TestStreamCommits(t *testing.T) {
	s := streamFixture(t, "incr-1.2.0", Options{})
	ins := s.Timeline.Instants
	ready := s.StreamCommits(context.Background(), ins, true)
	var writes, inserts, updates []string
	for i, in := range ins {
		ready(i)
		writes = append(writes, itoaTest(int(in.Totals.NumWrites)))
		inserts = append(inserts, itoaTest(int(in.Totals.NumInserts)))
		updates = append(updates, itoaTest(int(in.Totals.NumUpdateWrites)))
	}
	if strings.Join(writes, ",") != "3,4,4" || strings.Join(inserts, ",") != "3,1,0" || strings.Join(updates, ",") != "0,1,1" {
		t.Errorf("writes %v inserts %v updates %v", writes, inserts, updates)
	}
	if ins[0].RequestedTime != "20261129155610512" || ins[0].Operation != "INSERT" {
		t.Errorf("first instant %s %s", ins[0].RequestedTime, ins[0].Operation)
	}
}

// BasePath and CDCMode answer from the table; a snapshot without one answers nothing and
// streams nothing.
func TestSnapshotTableFacts(t *testing.T) {
	s := streamFixture(t, "cdc-opkey-1.2.0", Options{})
	if want := filepath.Join("..", "testdata", "fixtures", "cdc-opkey-1.2.0", "table.zip"); s.BasePath() != want {
		t.Errorf("base path %q, want %q", s.BasePath(), want)
	}
	if s.CDCMode() != records.CDCOpKeyOnly {
		t.Errorf("cdc mode %q, want %q", s.CDCMode(), records.CDCOpKeyOnly)
	}
	if m := streamFixture(t, "cow-services-1.2.0", Options{}).CDCMode(); m != "" {
		t.Errorf("no CDC: mode %q", m)
	}
	var none Snapshot
	if none.BasePath() != "" || none.CDCMode() != "" {
		t.Errorf("no table: %q %q", none.BasePath(), none.CDCMode())
	}
	if err := none.EachPartition(context.Background(), nil, nil); err == nil || !strings.Contains(err.Error(), "skipped: timeline could not be read") {
		t.Errorf("no table: EachPartition %v", err)
	}
	none.StreamCommits(context.Background(), nil, true)(0) // returns at once
}
