package model

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/hudi/catalog"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/internal/testutil"
	"github.com/hudiscope/hudiscope/internal/testutil/gluefake"
)

const hoodieInput = "org.apache.hudi.hadoop.HoodieParquetInputFormat"

// glueFleet is a catalog over local copies of cow-services-1.2.0: one table in sync, one whose
// catalog lags (sync two writes behind, a partition missing, a dropped one kept), a CSV table,
// a Hudi-marked table whose location is gone, and one in a second database.
func glueFleet(t *testing.T) (*gluefake.Fake, map[string]string) {
	t.Helper()
	zip := "../testdata/fixtures/cow-services-1.2.0/table.zip"
	if _, err := os.Stat(zip); err != nil {
		t.Skip(err)
	}
	root := t.TempDir()
	locs := map[string]string{}
	for _, n := range []string{"orders", "orders_lag", "other"} {
		locs[n] = testutil.UnzipTable(t, zip, filepath.Join(root, n))
	}
	csv := filepath.Join(root, "csv")
	if err := os.MkdirAll(csv, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(csv, "part-0.csv"), []byte("a,b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	parts := func(loc string, names ...string) []gluefake.Partition {
		var out []gluefake.Partition
		for _, n := range names {
			out = append(out, gluefake.Partition{Values: []string{n}, Location: loc + "/" + n})
		}
		return out
	}
	f := gluefake.New(t, map[string][]gluefake.Table{
		"sales": {
			{Name: "orders", Location: locs["orders"], InputFormat: hoodieInput, PartitionKeys: []string{"dt"},
				Parameters: map[string]string{"last_commit_time_sync": "20261129162134323"},
				Partitions: parts(locs["orders"], "2024-01-01", "2024-01-02", "2024-01-03")},
			{Name: "orders_lag", Location: locs["orders_lag"], InputFormat: hoodieInput, PartitionKeys: []string{"dt"},
				Parameters: map[string]string{"last_commit_time_sync": "20261129162031337"},
				Partitions: parts(locs["orders_lag"], "2023-12-31", "2024-01-01", "2024-01-02")},
			{Name: "raw_csv", Location: csv, InputFormat: "org.apache.hadoop.mapred.TextInputFormat"},
			{Name: "gone", Location: filepath.Join(root, "gone"), InputFormat: hoodieInput},
		},
		"ops": {{Name: "other", Location: locs["other"], Parameters: map[string]string{"spark.sql.sources.provider": "hudi"}}},
	})
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDTEST")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "SECRETTEST")
	t.Setenv("AWS_CONFIG_FILE", "/nonexistent")
	return f, locs
}

func TestGlueFleetMetaSync(t *testing.T) {
	f, locs := glueFleet(t)
	ctx := context.Background()
	g, err := catalog.OpenGlue(ctx, catalog.Options{Endpoint: f.URL, Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	d, err := CatalogTargets(ctx, g, "glue", []string{"*"}, storage.Options{}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, ft := range d.Tables {
		names = append(names, ft.Name)
	}
	if !reflect.DeepEqual(names, []string{"ops.other", "sales.gone", "sales.orders", "sales.orders_lag"}) {
		t.Fatalf("kept %q", names)
	}
	if len(d.Skipped) != 1 || !strings.HasPrefix(d.Skipped[0], "sales.raw_csv: not a Hudi table") {
		t.Errorf("skipped %q", d.Skipped)
	}
	ch := make(chan FleetTarget, len(d.Tables))
	for _, ft := range d.Tables {
		ch <- ft
	}
	close(ch)
	rows := map[string]FleetRow{}
	base := fleetBase()
	base.Now = func() time.Time { return time.Date(2026, 11, 30, 16, 21, 33, 656e6, time.UTC) } // a day after the first unsynced write
	LoadFleet(ctx, base, ch, 0, func(_ int, r FleetRow) { rows[r.Name] = r })

	if r := rows["sales.gone"]; !strings.Contains(r.Error, "cannot be read") || r.TableType != "" {
		t.Errorf("gone: %+v", r)
	}
	if r := rows["sales.orders"]; r.Error != "" || r.MetaSync != "HEALTHY" ||
		r.MetaSyncSummary != "Catalog sales.orders is synced to 20261129162134323, the latest completed write; its 3 partition(s) match the table" {
		t.Errorf("orders: %s %q %s", r.MetaSync, r.MetaSyncSummary, r.Error)
	}
	lag := rows["sales.orders_lag"]
	if lag.MetaSync != "UNHEALTHY" || !strings.HasPrefix(lag.MetaSyncSummary, "Catalog sales.orders_lag: sync 2 completed write(s) behind (24h0m0s); 1") ||
		lag.MetaSyncSummary[strings.Index(lag.MetaSyncSummary, "; 1")+2:] != "1 partition(s) missing from the catalog; 1 partition(s) the table dropped are still in the catalog" {
		t.Errorf("lagging: %s %q", lag.MetaSync, lag.MetaSyncSummary)
	}
	if lag.Health != "UNHEALTHY" || lag.HealthChecks["UNHEALTHY"] < 1 {
		t.Errorf("lagging health %s %v", lag.Health, lag.HealthChecks)
	}
	// ops.other has no sync parameter: every completed write is unsynced; unpartitioned in
	// the catalog, so no partition comparison.
	if r := rows["ops.other"]; r.MetaSync != "UNHEALTHY" || !strings.Contains(r.MetaSyncSummary, "sync 14 completed write(s) behind") {
		t.Errorf("other: %s %q", r.MetaSync, r.MetaSyncSummary)
	}
	if rows["sales.orders"].Location != locs["orders"] {
		t.Errorf("location %s", rows["sales.orders"].Location)
	}
	ops := f.Ops()
	for op := range ops {
		if !strings.HasPrefix(op, "Get") {
			t.Errorf("non-read operation %s", op)
		}
	}
	if ops["GetPartitions"] < 2 {
		t.Errorf("ops %v", ops)
	}
}
