package cli

import (
	"os"
	"strings"
	"testing"
)

// TestGlueIT runs `fleet --glue '*'` against a moto server seeded by scripts/glue-it.sh
// (Glue and S3 at HUDISCOPE_GLUE_IT); skipped without it.
func TestGlueIT(t *testing.T) {
	url := os.Getenv("HUDISCOPE_GLUE_IT")
	if url == "" {
		t.Skip("HUDISCOPE_GLUE_IT not set (scripts/glue-it.sh sets it)")
	}
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDTEST")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "SECRETTEST")
	t.Setenv("AWS_CONFIG_FILE", "/nonexistent")
	doc := fleetJSON(t, "fleet", "--glue", "*", "--glue-endpoint", url, "--glue-region", "us-east-1",
		"--s3-endpoint", url, "--s3-region", "us-east-1", "-o", "json", "--cluster-defaults", "-")
	rows := map[string]int{}
	for i, r := range doc.Rows {
		rows[r.Name] = i
		t.Logf("%-18s %-9s meta-sync %-9s %s %s", r.Name, r.Health, r.MetaSync, r.MetaSyncSummary, r.Error)
	}
	if len(doc.Rows) != 4 || doc.Source != "glue:*" {
		t.Fatalf("%d rows from %s", len(doc.Rows), doc.Source)
	}
	if len(doc.Skipped) != 1 || !strings.HasPrefix(doc.Skipped[0], "sales.raw_csv: not a Hudi table") {
		t.Errorf("skipped %q", doc.Skipped)
	}
	gone := doc.Rows[rows["sales.gone"]]
	if !strings.Contains(gone.Error, "holds no Hudi table") || doc.Rows[0].Name != "sales.gone" {
		t.Errorf("missing location: %+v (first row %s)", gone, doc.Rows[0].Name)
	}
	orders := doc.Rows[rows["sales.orders"]]
	if orders.Error != "" || orders.MetaSync != "HEALTHY" || orders.TableType != "COPY_ON_WRITE" || orders.Partitions != 3 ||
		!strings.HasSuffix(orders.MetaSyncSummary, "its 3 partition(s) match the table") {
		t.Errorf("in sync: %+v", orders)
	}
	lag := doc.Rows[rows["sales.orders_lag"]]
	if lag.MetaSync != "UNHEALTHY" || lag.Health != "UNHEALTHY" ||
		!strings.HasPrefix(lag.MetaSyncSummary, "Catalog sales.orders_lag: sync 2 completed write(s) behind (") ||
		!strings.HasSuffix(lag.MetaSyncSummary, "; 1 partition(s) missing from the catalog; 1 partition(s) the table dropped are still in the catalog") {
		t.Errorf("lagging: %s %q", lag.MetaSync, lag.MetaSyncSummary)
	}
	ev := doc.Rows[rows["ops.events_rt"]]
	if ev.TableType != "MERGE_ON_READ" || ev.MetaSync != "UNHEALTHY" || !strings.Contains(ev.MetaSyncSummary, "completed write(s) behind") {
		t.Errorf("never synced: %+v", ev)
	}
	md, _, code := runCLI(t, "fleet", "--glue", "sales", "--glue-endpoint", url, "--s3-endpoint", url, "--s3-region", "us-east-1", "-o", "md")
	if code != 0 || !strings.Contains(md, "| sales.orders_lag | COW | 9 |") || !strings.Contains(md, "Not Hudi, skipped: sales.raw_csv") {
		t.Errorf("markdown (exit %d):\n%s", code, md)
	}
}
