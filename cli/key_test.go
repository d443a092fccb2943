package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestKeyGolden: `key` in text, JSON and Markdown on the bucket-index table (key 8: a base row and
// three log blocks; key 10: deleted) and the record-level-index table (key 8: two base files),
// against goldens (go test ./cli -run TestKeyGolden -update rewrites them).
func TestKeyGolden(t *testing.T) {
	t.Setenv("TZ", "UTC")
	for _, c := range []struct{ fx, key string }{{"index-bucket-1.2.0", "8"}, {"index-bucket-1.2.0", "10"}, {"index-rli-1.2.0", "8"}} {
		for _, f := range []string{"text", "json", "md"} {
			stdout, stderr, code := runCLI(t, "key", fixture(c.fx), c.key, "-o", f)
			if code != 0 {
				t.Fatalf("%s %s -o %s: exit %d: %s", c.fx, c.key, f, code, stderr)
			}
			golden := filepath.Join("testdata", "golden", "key-"+c.fx+"-"+c.key+"."+map[string]string{"text": "txt", "json": "json", "md": "md"}[f])
			assertGolden(t, golden, stdout)
		}
	}
}

// TestKeyJSONValues: the JSON document's figures for key 10 of the bucket table, read by hand from
// the fixture (and Spark's oracle/key_story.json): deleted by delta commit 20261202035112122,
// bucket 2 of 2024-01-03, three versions.
func TestKeyJSONValues(t *testing.T) {
	stdout, stderr, code := runCLI(t, "key", fixture("index-bucket-1.2.0"), "10", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc struct {
		Method    string `json:"method"`
		Status    string `json:"status"`
		Current   any    `json:"current"`
		Pruned    int    `json:"fileGroupsPruned"`
		Locations []struct {
			Partition string `json:"partition"`
			Bucket    *int   `json:"bucket"`
		} `json:"locations"`
		Versions []struct {
			CommitTime string         `json:"commitTime"`
			Operation  string         `json:"operation"`
			Deleted    bool           `json:"deleted"`
			Row        map[string]any `json:"row"`
		} `json:"versions"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Method != "bucket index" || doc.Status != "deleted" || doc.Current != nil || doc.Pruned != 12 {
		t.Errorf("method %q status %q current %v pruned %d", doc.Method, doc.Status, doc.Current, doc.Pruned)
	}
	if len(doc.Locations) != 1 || doc.Locations[0].Partition != "2024-01-03" || doc.Locations[0].Bucket == nil || *doc.Locations[0].Bucket != 2 {
		t.Errorf("locations %+v", doc.Locations)
	}
	if len(doc.Versions) != 3 || doc.Versions[1].Row["name"] != "u1_10" || !doc.Versions[2].Deleted ||
		doc.Versions[2].CommitTime != "20261202035112122" || doc.Versions[2].Operation != "DELETE" || doc.Versions[2].Row != nil {
		t.Errorf("versions %+v", doc.Versions)
	}
}

// TestKeyScanLimit: past --max-scan-files the key's Spark SQL is printed (exit 2), the row
// filter on the record key and the partition.
func TestKeyScanLimit(t *testing.T) {
	dir := t.TempDir()
	unzipTo(t, fixture("index-bucket-1.2.0"), dir)
	table := filepath.Join(dir, "idx_bucket")
	// Bucket 3 of 2024-01-01: a base file and three log files.
	stdout, stderr, code := runCLI(t, "key", table, "8", "--partition", "2024-01-01", "--max-scan-files", "3")
	if code != exitUsage {
		t.Fatalf("exit %d, want %d: %s", code, exitUsage, stderr)
	}
	for _, want := range []string{"touch 4 files", "WHERE _hoodie_record_key = '8' AND _hoodie_partition_path = '2024-01-01'"} {
		if !strings.Contains(stdout+stderr, want) {
			t.Errorf("output lacks %q:\n%s\n%s", want, stdout, stderr)
		}
	}
	if _, _, code := runCLI(t, "key", table, "8", "--partition", "2024-01-01", "--max-scan-files", "4"); code != 0 {
		t.Errorf("4 files within --max-scan-files 4: exit %d", code)
	}
	if _, _, code := runCLI(t, "key", table, ""); code != exitUsage {
		t.Errorf("empty key: exit %d, want %d", code, exitUsage)
	}
}

// TestSnapshotWhereCLI: --where through the command line: the rows (id 8 of the bucket table is v3;
// 18 rows have ts=3), a bad predicate (exit 2), and past --max-scan-files the Spark SQL with the
// WHERE clause (a number bare, a string quoted) for the pruned read: the one bucket-3 group of
// 2024-01-01, a base file and three log files.
func TestSnapshotWhereCLI(t *testing.T) {
	table := fixture("index-bucket-1.2.0")
	stdout, stderr, code := runCLI(t, "snapshot", table, "--where", "id=8", "--columns", "name", "-o", "csv")
	if code != 0 || !strings.Contains(stdout, ",v3\n") || strings.Count(stdout, "\n") != 2 {
		t.Errorf("--where id=8: exit %d\n%s%s", code, stdout, stderr)
	}
	if stdout, _, code := runCLI(t, "snapshot", table, "--where", "ts=3", "--count"); code != 0 || stdout != "18\n" {
		t.Errorf("--where ts=3 --count: exit %d, %q", code, stdout)
	}
	if _, _, code := runCLI(t, "snapshot", table, "--where", "id"); code != exitUsage {
		t.Errorf("--where id: exit %d, want %d", code, exitUsage)
	}
	dir := t.TempDir()
	unzipTo(t, table, dir)
	stdout, stderr, code = runCLI(t, "snapshot", filepath.Join(dir, "idx_bucket"), "--where", "id=8", "--where", "dt=2024-01-01", "--max-scan-files", "3")
	if code != exitUsage || !strings.Contains(stdout, "WHERE `id` = 8 AND `dt` = '2024-01-01'") || !strings.Contains(stdout, "touch 4 files") {
		t.Errorf("past the limit: exit %d\n%s%s", code, stdout, stderr)
	}
}
