package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/internal/testutil"
	"github.com/hudiscope/hudiscope/internal/testutil/gluefake"
	"github.com/hudiscope/hudiscope/internal/testutil/hmsfake"
	"github.com/hudiscope/hudiscope/report"
)

// fleetDir extracts three fixtures two levels down plus noise; returns the root.
func fleetDir(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for _, fx := range []string{"cow-services-1.2.0", "mor-services-1.2.0", "incr-0.12.2"} {
		testutil.UnzipTable(t, fixture(fx), filepath.Join(root, "warehouse", fx))
	}
	if err := os.MkdirAll(filepath.Join(root, "warehouse", "empty", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	return root
}

func fleetJSON(t *testing.T, args ...string) report.FleetDocument {
	t.Helper()
	stdout, stderr, code := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, stderr)
	}
	var doc report.FleetDocument
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("%v\n%.400s", err, stdout)
	}
	return doc
}

func TestFleetCommandLocal(t *testing.T) {
	// Ages are measured against a fixed clock: the pending compaction was requested on
	// 2026-11-29, one day before.
	t.Setenv("HUDISCOPE_NOW", "2026-11-30T20:00:00Z")
	root := fleetDir(t)
	doc := fleetJSON(t, "fleet", root, "-o", "json", "--cluster-defaults", "-")
	var names []string
	for _, r := range doc.Rows {
		names = append(names, r.Name)
		if r.Error != "" || r.Health != "HEALTHY" || r.SizeBytes == 0 || r.LastCommit == "" {
			t.Errorf("%s: %+v", r.Name, r)
		}
	}
	sort.Strings(names)
	want := []string{"warehouse/cow-services-1.2.0/cow_services", "warehouse/incr-0.12.2/incr", "warehouse/mor-services-1.2.0/mor_services"}
	if strings.Join(names, ",") != strings.Join(want, ",") || doc.Tables != 3 || doc.Source != root {
		t.Fatalf("rows %q tables %d source %s", names, doc.Tables, doc.Source)
	}
	// The MOR fixture has a compaction requested and never run.
	for _, r := range doc.Rows {
		if strings.HasSuffix(r.Name, "mor_services") && (len(r.Pending) != 1 || r.Pending[0].Action != "compaction" || r.Pending[0].Oldest != "20261129163053361") {
			t.Errorf("pending %+v", r.Pending)
		}
	}
	stdout, _, code := runCLI(t, "fleet", root, "--cluster-defaults", "-")
	if code != 0 || !strings.HasPrefix(stdout, "TABLE ") || !strings.Contains(stdout, "compaction 1d") || !strings.Contains(stdout, "3 table(s) under "+root) {
		t.Errorf("text exit %d:\n%s", code, stdout)
	}
	stdout, _, code = runCLI(t, "fleet", root, "-o", "md", "--cluster-defaults", "-")
	if code != 0 || !strings.Contains(stdout, "3 table(s): 0 unreadable, 0 unhealthy, 3 healthy, 0 not judged") || !strings.Contains(stdout, "No table needs attention.") {
		t.Errorf("md exit %d:\n%s", code, stdout)
	}
	// --depth 1 does not reach tables two levels down.
	if doc := fleetJSON(t, "fleet", root, "--depth", "1", "-o", "json"); doc.Tables != 0 {
		t.Errorf("depth 1: %d tables", doc.Tables)
	}
}

func TestFleetCommandUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"fleet"}, "give a location to walk, --glue DATABASE or --hms thrift://HOST:PORT"},
		{[]string{"fleet", ".", "--glue", "db"}, "either a location or a catalog (--glue, --hms), not both"},
		{[]string{"fleet", "--glue", "db", "--hms", "thrift://h:9083"}, "either --glue or --hms, not both"},
	} {
		_, stderr, code := runCLI(t, c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.msg) {
			t.Errorf("%v: exit %d %q", c.args, code, stderr)
		}
	}
	if _, stderr, code := runCLI(t, "fleet", "--hms", "thrift://127.0.0.1:1", "--timeout", "2s"); code != exitError || !strings.Contains(stderr, "hive metastore 127.0.0.1:1: connect") {
		t.Errorf("unreachable metastore: exit %d %q", code, stderr)
	}
	_, stderr, code := runCLI(t, "fleet", filepath.Join(t.TempDir(), "missing"))
	if code != exitError || !strings.Contains(stderr, "missing") {
		t.Errorf("missing location: exit %d %q", code, stderr)
	}
}

// TestFleetCommandGlue: the Glue path end to end through the command line against the fake
// Glue API (CI has no Python; scripts/glue-it.sh runs the same against moto).
func TestFleetCommandGlue(t *testing.T) {
	root := fleetDir(t)
	cow := filepath.Join(root, "warehouse", "cow-services-1.2.0", "cow_services")
	mor := filepath.Join(root, "warehouse", "mor-services-1.2.0", "mor_services")
	hoodie := "org.apache.hudi.hadoop.HoodieParquetInputFormat"
	f := gluefake.New(t, map[string][]gluefake.Table{"sales": {
		{Name: "cow", Location: cow, InputFormat: hoodie, PartitionKeys: []string{"dt"},
			Parameters: map[string]string{"last_commit_time_sync": "20261129162134323"},
			Partitions: []gluefake.Partition{{Values: []string{"2024-01-01"}, Location: cow + "/2024-01-01"},
				{Values: []string{"2024-01-02"}, Location: cow + "/2024-01-02"}, {Values: []string{"2024-01-03"}, Location: cow + "/2024-01-03"}}},
		{Name: "mor_lag", Location: mor, InputFormat: hoodie, PartitionKeys: []string{"dt"},
			Parameters: map[string]string{"last_commit_time_sync": "20261129163053642"},
			Partitions: []gluefake.Partition{{Values: []string{"2024-01-01"}, Location: mor + "/2024-01-01"}}},
		{Name: "logs", Location: filepath.Join(root, "warehouse", "empty"), InputFormat: "org.apache.hadoop.mapred.TextInputFormat"},
		{Name: "dropped", Location: filepath.Join(root, "gone"), InputFormat: hoodie},
	}})
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDTEST")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "SECRETTEST")
	t.Setenv("AWS_CONFIG_FILE", "/nonexistent")
	doc := fleetJSON(t, "fleet", "--glue", "sales", "--glue-endpoint", f.URL, "--glue-region", "us-east-1", "-o", "json", "--cluster-defaults", "-")
	got := map[string]string{}
	for _, r := range doc.Rows {
		got[r.Name] = r.MetaSync + " " + r.Error
	}
	// Worst first: the unreadable catalog location, then the lagging catalog, then the synced one.
	if len(doc.Rows) != 3 || doc.Rows[0].Name != "sales.dropped" || doc.Rows[1].Name != "sales.mor_lag" || doc.Rows[2].Name != "sales.cow" {
		t.Fatalf("rows %v", got)
	}
	if r := doc.Rows[1]; r.MetaSync != "UNHEALTHY" || !strings.HasPrefix(r.MetaSyncSummary, "Catalog sales.mor_lag: sync 2 completed write(s) behind (") ||
		!strings.HasSuffix(r.MetaSyncSummary, "; 2 partition(s) missing from the catalog") {
		t.Errorf("lagging: %s %q", r.MetaSync, r.MetaSyncSummary)
	}
	if r := doc.Rows[2]; r.MetaSync != "HEALTHY" {
		t.Errorf("synced: %s %q", r.MetaSync, r.MetaSyncSummary)
	}
	if len(doc.Skipped) != 1 || !strings.HasPrefix(doc.Skipped[0], "sales.logs: not a Hudi table") || doc.Source != "glue:sales" {
		t.Errorf("skipped %q source %s", doc.Skipped, doc.Source)
	}
	for op := range f.Ops() {
		if !strings.HasPrefix(op, "Get") {
			t.Errorf("the fleet called %s", op)
		}
	}
	stdout, _, _ := runCLI(t, "fleet", "--glue", "sales", "--glue-endpoint", f.URL, "-o", "md", "--cluster-defaults", "-")
	if !strings.Contains(stdout, "| sales.mor_lag | MOR | 9 |") || !strings.Contains(stdout, "1 unreadable, 1 unhealthy, 1 healthy") {
		t.Errorf("markdown:\n%s", stdout)
	}
}

// TestFleetJSONFieldsDocumented: every key path `fleet -o json` writes (a row with pending
// services, a failure row, a catalog row) is in docs/json.md's "## fleet" section.
func TestFleetJSONFieldsDocumented(t *testing.T) {
	root := fleetDir(t)
	// A .hoodie with a broken hoodie.properties: a failure row.
	bad := filepath.Join(root, "warehouse", "broken", ".hoodie")
	if err := os.MkdirAll(bad, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bad, "hoodie.properties"), []byte("\x00\x01garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runCLI(t, "fleet", root, "-o", "json", "--cluster-defaults", "-", "--max-entries", "100000")
	if code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	paths := map[string]bool{}
	collectJSONPaths(doc, "", map[string]bool{"rows[].healthChecks": true, "rows[].findings": true, "rows[].stepErrors": true}, paths)
	documented := jsonDocSections(t)["fleet"]
	for p := range paths {
		if !documented[p] {
			t.Errorf("`fleet -o json` writes %q, not documented under \"## fleet\" in %s", p, jsonDocFile)
		}
	}
	for _, p := range []string{"rows[].error", "rows[].pending[].ageSeconds"} {
		if !paths[p] {
			t.Errorf("the document has no %s: the test no longer covers it", p)
		}
	}
	if len(paths) < 20 {
		t.Errorf("only %d paths seen", len(paths))
	}
}

// TestFleetCommandHMS: the Hive Metastore path end to end against an in-process Thrift
// metastore (get_all_databases, get_all_tables, get_table, get_partitions only).
func TestFleetCommandHMS(t *testing.T) {
	root := fleetDir(t)
	cow := filepath.Join(root, "warehouse", "cow-services-1.2.0", "cow_services")
	mor := filepath.Join(root, "warehouse", "mor-services-1.2.0", "mor_services")
	hoodie := "org.apache.hudi.hadoop.HoodieParquetInputFormat"
	f := hmsfake.New(t, map[string][]hmsfake.Table{"sales": {
		{Name: "cow", Location: cow, InputFormat: hoodie, PartitionKeys: []string{"dt"},
			Parameters: map[string]string{"last_commit_time_sync": "20261129162031337"},
			Partitions: []hmsfake.Partition{{Values: []string{"2023-12-31"}, Location: cow + "/2023-12-31"},
				{Values: []string{"2024-01-01"}, Location: cow + "/2024-01-01"}, {Values: []string{"2024-01-02"}, Location: cow + "/2024-01-02"}}},
		{Name: "mor", Location: mor, InputFormat: hoodie, Parameters: map[string]string{"last_commit_time_sync": "20261129163127401"}},
		{Name: "txt", Location: filepath.Join(root, "warehouse", "empty"), InputFormat: "org.apache.hadoop.mapred.TextInputFormat"},
	}, "default": nil})
	doc := fleetJSON(t, "fleet", "--hms", f.URI, "-o", "json", "--cluster-defaults", "-")
	if doc.Source != "hms:*" || len(doc.Rows) != 2 || doc.Rows[0].Name != "sales.cow" || doc.Rows[1].Name != "sales.mor" {
		t.Fatalf("source %s rows %+v", doc.Source, doc.Rows)
	}
	if r := doc.Rows[0]; r.MetaSync != "UNHEALTHY" || !strings.HasPrefix(r.MetaSyncSummary, "Catalog sales.cow: sync 2 completed write(s) behind (") ||
		!strings.HasSuffix(r.MetaSyncSummary, "; 1 partition(s) missing from the catalog; 1 partition(s) the table dropped are still in the catalog") {
		t.Errorf("lagging: %s %q", r.MetaSync, r.MetaSyncSummary)
	}
	if r := doc.Rows[1]; r.MetaSync != "HEALTHY" {
		t.Errorf("mor: %s %q", r.MetaSync, r.MetaSyncSummary)
	}
	if len(doc.Skipped) != 1 || !strings.HasPrefix(doc.Skipped[0], "sales.txt: not a Hudi table") {
		t.Errorf("skipped %q", doc.Skipped)
	}
	for op := range f.Ops() {
		if !strings.HasPrefix(op, "get_") {
			t.Errorf("the fleet called %s", op)
		}
	}
	if doc := fleetJSON(t, "fleet", "--hms", f.URI, "--hms-db", "default", "-o", "json"); len(doc.Rows) != 0 || doc.Source != "hms:default" {
		t.Errorf("--hms-db default: %d rows from %s", len(doc.Rows), doc.Source)
	}
}

// TestFleetGluePresignedLocationRedacted: a Glue table location with a presigned query string
// (X-Amz-Security-Token, X-Amz-Signature) never shows its secrets in fleet's text, Markdown or
// JSON, whether the row fails, the table is skipped or the walk errs (issue 31).
func TestFleetGluePresignedLocationRedacted(t *testing.T) {
	root := fleetDir(t)
	hoodie := "org.apache.hudi.hadoop.HoodieParquetInputFormat"
	q := "?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Security-Token=SEKRETTOKEN1&X-Amz-Signature=SEKRETSIG2"
	f := gluefake.New(t, map[string][]gluefake.Table{"sales": {
		{Name: "presigned", Location: filepath.Join(root, "gone") + q, InputFormat: hoodie},
		{Name: "csv", Location: filepath.Join(root, "warehouse", "empty") + q, InputFormat: "org.apache.hadoop.mapred.TextInputFormat"},
		{Name: "nolake", Location: filepath.Join(root, "warehouse") + q, InputFormat: hoodie},
	}})
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDTEST")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "SECRETTEST")
	t.Setenv("AWS_CONFIG_FILE", "/nonexistent")
	for _, format := range []string{"text", "md", "json"} {
		stdout, stderr, _ := runCLI(t, "fleet", "--glue", "sales", "--glue-endpoint", f.URL, "--glue-region", "us-east-1", "-o", format, "--cluster-defaults", "-")
		if strings.Contains(stdout+stderr, "SEKRET") {
			t.Errorf("-o %s shows the presigned secrets:\n%s\n%s", format, stdout, stderr)
		}
		if !strings.Contains(stdout, "X-Amz-Security-Token=***") {
			t.Errorf("-o %s does not name the location (redacted):\n%s", format, stdout)
		}
	}
}
