package model

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/internal/testutil"
	"github.com/hudiscope/hudiscope/internal/testutil/hmsfake"
)

// RunFleet walks a location: three fixture tables two levels down (plus an empty directory)
// come back as three rows, each also handed to row as it is read; the MOR table's one pending
// compaction is the one requested at 20261129163053361. --depth 1 does not reach them.
func TestRunFleetWalk(t *testing.T) {
	root := t.TempDir()
	for _, fx := range []string{"cow-services-1.2.0", "mor-services-1.2.0", "incr-0.12.2"} {
		zip := filepath.Join("..", "testdata", "fixtures", fx, "table.zip")
		if _, err := os.Stat(zip); err != nil {
			t.Skipf("fixture not present: %s", zip)
		}
		testutil.UnzipTable(t, zip, filepath.Join(root, "warehouse", fx))
	}
	if err := os.MkdirAll(filepath.Join(root, "warehouse", "empty", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	base := fleetBase()
	base.Health.ApplyAllDefaults = true
	src := FleetSource{Location: root, Depth: 4, MaxEntries: 1000, Parallel: 2}
	if src.Name() != root {
		t.Errorf("name %q, want the location", src.Name())
	}
	var streamed []string
	d, rows, err := RunFleet(ctx, src, base, func(_ int, r FleetRow) { streamed = append(streamed, r.Name) })
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range rows {
		names = append(names, r.Name)
		if r.Error != "" || r.Health != "HEALTHY" || r.SizeBytes == 0 || r.LastCommit == "" {
			t.Errorf("%s: %+v", r.Name, r)
		}
		if strings.HasSuffix(r.Name, "mor_services") && (len(r.Pending) != 1 || r.Pending[0].Action != "compaction" || r.Pending[0].Oldest != "20261129163053361") {
			t.Errorf("mor pending %+v", r.Pending)
		}
	}
	sort.Strings(names)
	sort.Strings(streamed)
	want := "warehouse/cow-services-1.2.0/cow_services,warehouse/incr-0.12.2/incr,warehouse/mor-services-1.2.0/mor_services"
	if strings.Join(names, ",") != want || strings.Join(streamed, ",") != want {
		t.Fatalf("rows %q, streamed %q; want %s", names, streamed, want)
	}
	if d.Root != root || len(d.Tables) != 3 || d.Stopped != "" || len(d.Errors) != 0 {
		t.Errorf("discovery root %s, %d tables, stopped %q, errors %q", d.Root, len(d.Tables), d.Stopped, d.Errors)
	}
	src.Depth = 1
	if d, rows, err := RunFleet(ctx, src, base, nil); err != nil || len(rows) != 0 || len(d.Tables) != 0 {
		t.Errorf("depth 1: %d rows, %d tables, %v", len(rows), len(d.Tables), err)
	}
}

// RunFleet opens the Glue catalog itself: of the fake's sales database it keeps orders,
// orders_lag and gone (a Hudi-marked table whose location is gone: a failure row) and skips
// raw_csv; orders_lag's catalog is two writes behind.
func TestRunFleetGlue(t *testing.T) {
	f, _ := glueFleet(t)
	base := fleetBase()
	base.Now = func() time.Time { return time.Date(2026, 11, 30, 16, 21, 33, 656e6, time.UTC) }
	src := FleetSource{Catalog: FleetGlue, Databases: []string{"sales"}, GlueEndpoint: f.URL, GlueRegion: "us-east-1"}
	if src.Name() != "glue:sales" {
		t.Errorf("name %q", src.Name())
	}
	d, rows, err := RunFleet(context.Background(), src, base, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]FleetRow{}
	for _, r := range rows {
		got[r.Name] = r
	}
	if len(rows) != 3 || d.Root != "glue:sales" || len(d.Skipped) != 1 || !strings.HasPrefix(d.Skipped[0], "sales.raw_csv: not a Hudi table") {
		t.Fatalf("%d rows %v, root %s, skipped %q", len(rows), got, d.Root, d.Skipped)
	}
	if r := got["sales.orders"]; r.Error != "" || r.MetaSync != "HEALTHY" {
		t.Errorf("orders: %s %q %s", r.MetaSync, r.MetaSyncSummary, r.Error)
	}
	if r := got["sales.orders_lag"]; r.MetaSync != "UNHEALTHY" || !strings.HasPrefix(r.MetaSyncSummary, "Catalog sales.orders_lag: sync 2 completed write(s) behind (24h0m0s)") {
		t.Errorf("orders_lag: %s %q", r.MetaSync, r.MetaSyncSummary)
	}
	if r := got["sales.gone"]; !strings.Contains(r.Error, "cannot be read") {
		t.Errorf("gone: %+v", r)
	}
}

// RunFleet opens the Hive Metastore itself (and names it when it cannot connect); an unknown
// catalog is an error, not a walk of an empty location.
func TestRunFleetHMS(t *testing.T) {
	zip := filepath.Join("..", "testdata", "fixtures", "cow-services-1.2.0", "table.zip")
	if _, err := os.Stat(zip); err != nil {
		t.Skipf("fixture not present: %s", zip)
	}
	cow := testutil.UnzipTable(t, zip, filepath.Join(t.TempDir(), "cow"))
	f := hmsfake.New(t, map[string][]hmsfake.Table{"sales": {
		{Name: "cow", Location: cow, InputFormat: hoodieInput, Parameters: map[string]string{"last_commit_time_sync": "20261129162134323"}},
	}, "default": nil})
	ctx := context.Background()
	src := FleetSource{Catalog: FleetHMS, Databases: []string{"*"}, HMS: f.URI}
	d, rows, err := RunFleet(ctx, src, fleetBase(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if src.Name() != "hms:*" || d.Root != "hms:*" || len(rows) != 1 || rows[0].Name != "sales.cow" || rows[0].Location != cow || rows[0].Error != "" {
		t.Fatalf("name %s root %s rows %+v", src.Name(), d.Root, rows)
	}
	src.HMS = "thrift://127.0.0.1:1"
	base := fleetBase()
	base.Storage.Timeout = 2 * time.Second
	if _, rows, err := RunFleet(ctx, src, base, nil); err == nil || !strings.Contains(err.Error(), "hive metastore 127.0.0.1:1: connect") || len(rows) != 0 {
		t.Errorf("unreachable metastore: %d rows, %v", len(rows), err)
	}
	if _, _, err := RunFleet(ctx, FleetSource{Catalog: "unity", Location: cow}, fleetBase(), nil); err == nil || !strings.Contains(err.Error(), `unknown catalog "unity"`) {
		t.Errorf("unknown catalog: %v", err)
	}
}
