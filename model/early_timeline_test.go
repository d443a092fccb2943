package model

import (
	"context"
	"reflect"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/findings"
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
	opts := Options{Location: dir, Steps: []Step{StepFiles, StepLayout, StepFindings}, ClusterDefaults: "-"}
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
	want := []Step{StepProperties, StepTimeline, StepCommits, StepFiles, StepConfig, StepLayout, StepFindings, ""}
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
	kept := 0
	for i, in := range final.Timeline.Instants {
		e := eager.Timeline.Instants[i]
		if d := exportedDiff(*in, *e); d != "" {
			t.Errorf("instant %d (%s) differs from the eager load in %s:\n%+v\n%+v", i, in.RequestedTime, d, *in, *e)
		}
		// The commits step keeps sums, not metadata: the same sums as the eager metadata's.
		if in.Commit != nil {
			kept++
		}
		gw, gok := in.Writes()
		ww, wok := e.Writes()
		if gok != wok || !reflect.DeepEqual(gw, ww) || in.CommitOperation() != e.CommitOperation() {
			t.Errorf("instant %d (%s): writes %v %+v, eager %v %+v", i, in.RequestedTime, gok, gw, wok, ww)
		}
	}
	if kept == len(final.Timeline.Instants) {
		t.Error("the commits step kept every instant's metadata")
	}
	// What the analyzers make of the sums is what they make of the metadata.
	if !reflect.DeepEqual(final.Layout, eager.Layout) {
		t.Errorf("layout differs from the eager load:\n%+v\n%+v", final.Layout, eager.Layout)
	}
	if final.Findings == nil || !reflect.DeepEqual(final.Findings, eager.Findings) {
		t.Errorf("findings differ from the eager load:\n%+v\n%+v", final.Findings, eager.Findings)
	}
	if final.View == nil || len(final.View.Partitions) != len(eager.View.Partitions) {
		t.Errorf("file view: %v", final.StepErrors)
	}
}

// exportedDiff names the first exported field but Commit where a and b differ ("" if none).
func exportedDiff(a, b timeline.Instant) string {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	for i := 0; i < va.NumField(); i++ {
		f := va.Type().Field(i)
		if !f.IsExported() || f.Name == "Commit" {
			continue
		}
		if !reflect.DeepEqual(va.Field(i).Interface(), vb.Field(i).Interface()) {
			return f.Name
		}
	}
	return ""
}

// The commits step keeps sums only; the findings read some commits per file (record estimate,
// schema width), which findingsTimeline decodes again: the facts equal an eager load's, and
// without it (no early rows kept in full) they would not.
func TestFindingsTimelineMatchesEager(t *testing.T) {
	defer func(n int) { earlyCount = n }(earlyCount)
	earlyCount = 0 // no instant read in full up front
	for _, fx := range []string{"cow-services-1.2.0", "incr-1.2.0"} {
		dir := testutil.UnzipTable(t, "../testdata/fixtures/"+fx+"/table.zip", t.TempDir())
		ctx := context.Background()
		opts := Options{Location: dir, Steps: []Step{StepFiles}, ClusterDefaults: "-"}
		eager, err := Load(ctx, opts, nil)
		if err != nil {
			t.Fatal(err)
		}
		opts.EarlyTimeline = true
		s, err := Load(ctx, opts, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := findings.DeriveTableFacts(eager.Config, eager.Timeline, eager.View)
		got := findings.DeriveTableFacts(s.Config, findingsTimeline(ctx, s), s.View)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: facts differ from the eager load:\n%+v\n%+v", fx, got, want)
		}
		if want.Records.Estimate == nil || want.Schema.Columns == nil {
			t.Fatalf("%s: the fixture has no record estimate or schema width to check", fx)
		}
		raw := findings.DeriveTableFacts(s.Config, s.Timeline, s.View)
		if reflect.DeepEqual(raw, want) {
			t.Errorf("%s: the compact timeline alone gives the eager facts: the test checks nothing", fx)
		}
		// The published instants are not written to.
		for _, in := range s.Timeline.Instants {
			if in.Commit != nil && in.IsCommit() {
				t.Fatalf("%s: %s kept its metadata", fx, in.RequestedTime)
			}
		}
	}
}
