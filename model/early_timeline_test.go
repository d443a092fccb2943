package model

import (
	"context"
	"reflect"
	"testing"

	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/internal/testutil"
)

// The explorer's early timeline: the timeline step publishes instants with only either end's
// metadata read; the commits step publishes decoded copies (the published instants are never
// written to), and the final timeline equals an eager load's.
func TestEarlyTimeline(t *testing.T) {
	defer func(n int) { earlyCount = n }(earlyCount)
	earlyCount = 2
	dir := testutil.UnzipTable(t, "../testdata/fixtures/cow-services-1.2.0/table.zip", t.TempDir())
	ctx := context.Background()
	opts := Options{Location: dir, Steps: []Step{StepFiles}, ClusterDefaults: "-"}
	eager, err := Load(ctx, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	opts.EarlyTimeline = true
	var early *timeline.Timeline
	var steps []Step
	final, err := Load(ctx, opts, func(p Progress) {
		steps = append(steps, p.Step)
		if p.Step == StepCommits {
			early = p.Snapshot.Timeline
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []Step{StepProperties, StepTimeline, StepCommits, StepFiles, ""}
	if !reflect.DeepEqual(steps, want) {
		t.Fatalf("steps %q, want %q", steps, want)
	}
	n := len(early.Instants)
	if n < 8 {
		t.Fatalf("%d instants: the fixture needs more than both ends", n)
	}
	for _, i := range []int{0, 1, n - 2, n - 1} {
		if !early.Instants[i].MetadataLoaded() {
			t.Errorf("early instant %d (%s) not read", i, early.Instants[i].RequestedTime)
		}
	}
	unread := 0
	for _, in := range early.Instants[2 : n-2] {
		if !in.MetadataLoaded() {
			unread++
		}
	}
	if unread == 0 {
		t.Fatal("the early timeline read every instant")
	}
	if final.Timeline == early {
		t.Fatal("the commits step did not publish a new timeline")
	}
	for _, in := range final.Timeline.Instants {
		if !in.MetadataLoaded() {
			t.Errorf("%s not read after the commits step", in.RequestedTime)
		}
	}
	still := 0
	for _, in := range early.Instants[2 : n-2] {
		if !in.MetadataLoaded() {
			still++
		}
	}
	if still != unread {
		t.Errorf("the published early instants were written to: %d unread before, %d after", unread, still)
	}
	if len(final.Timeline.Instants) != len(eager.Timeline.Instants) {
		t.Fatalf("%d instants, eager %d", len(final.Timeline.Instants), len(eager.Timeline.Instants))
	}
	for i, in := range final.Timeline.Instants {
		if !reflect.DeepEqual(*in, *eager.Timeline.Instants[i]) {
			t.Errorf("instant %d (%s) differs from the eager load:\n%+v\n%+v", i, in.RequestedTime, *in, *eager.Timeline.Instants[i])
		}
	}
	if final.View == nil || len(final.View.Partitions) != len(eager.View.Partitions) {
		t.Errorf("file view: %v", final.StepErrors)
	}
}
