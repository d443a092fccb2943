package timeline_test

import (
	"context"
	"strings"
	"testing"
	"unsafe"

	"github.com/hudiscope/hudiscope/hudi/problem"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// The schema-evo-mor-1.1.1 fixture's four deltacommits (Avro metadata) record the schema the
// generator wrote each with: dc1 id,name,ts:int; dc2 adds note and widens ts to long; dc3
// and dc4 keep dc2's. Equal texts share one string. The archived writes of
// cow-services-0.15.0 (JSON in the 0.x archive) and its active ones (JSON files) all record
// the one schema of that scenario.
func TestWriterSchemas(t *testing.T) {
	ctx := context.Background()
	st, cfg := openFixture(t, "schema-evo-mor-1.1.1")
	r := &timeline.Reader{Store: st, Config: cfg, Problems: &problem.Log{}}
	tl, err := r.ActiveNames(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ws := r.WriterSchemas(ctx, tl.Instants)
	var got []timeline.WriterSchema
	for i, in := range tl.Instants {
		if in.Action == timeline.ActionDeltaCommit && in.State == timeline.Completed {
			got = append(got, ws[i])
		}
	}
	if len(got) != 4 {
		t.Fatalf("%d completed deltacommits, want 4", len(got))
	}
	wantDC1 := `"fields":[{"name":"id","type":"int"},{"name":"name","type":["null","string"],"default":null},{"name":"ts","type":"int"}]`
	wantDC2 := `"fields":[{"name":"id","type":"int"},{"name":"name","type":["null","string"],"default":null},{"name":"ts","type":"long"},{"name":"note","type":["null","string"],"default":null}]`
	if !strings.Contains(got[0].Avro, wantDC1) {
		t.Errorf("dc1 schema %s", got[0].Avro)
	}
	for i := 1; i < 4; i++ {
		if !strings.Contains(got[i].Avro, wantDC2) {
			t.Errorf("dc%d schema %s", i+1, got[i].Avro)
		}
		if unsafe.StringData(got[i].Avro) != unsafe.StringData(got[1].Avro) {
			t.Errorf("dc%d's schema text is a copy of dc2's, not the shared one", i+1)
		}
	}
	if got[0].Operation != "INSERT" || got[1].Operation != "UPSERT" || got[0].Internal != "" || got[0].Err != "" {
		t.Errorf("dc1 %+v, dc2 operation %q", got[0], got[1].Operation)
	}

	st, cfg = openFixture(t, "cow-services-0.15.0")
	r = &timeline.Reader{Store: st, Config: cfg, Problems: &problem.Log{}}
	tl, err = r.Active(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.LoadArchived(ctx, tl); err != nil {
		t.Fatal(err)
	}
	all := tl.All()
	ws = r.WriterSchemas(ctx, all)
	writes, archived := 0, 0
	for i, in := range all {
		if in.State != timeline.Completed || !timeline.IsWriteAction(in.Action) {
			continue
		}
		writes++
		if in.Archived {
			archived++
		}
		if !strings.Contains(ws[i].Avro, `{"name":"ts","type":"long"},{"name":"dt","type":"string"}`) {
			t.Errorf("%s %s: schema %q (%s)", in.RequestedTime, in.Action, ws[i].Avro, ws[i].Err)
		}
	}
	// 44 completed writes: 30 archived (oracle/java_archived_timeline.json), 14 active (summary.json)
	if writes != 44 || archived != 30 {
		t.Errorf("%d writes, %d archived", writes, archived)
	}
}
