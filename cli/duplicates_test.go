package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `duplicates` on the dups fixture (9 duplicated keys of 37 rows, checked against Spark's
// GROUP BY in model's TestDuplicatesMatchSpark) exits 3; on a clean merge-on-read table (12
// rows, keys updated in log files) 0. Text, JSON and Markdown are compared with goldens
// (go test ./cli -run TestDuplicatesGolden -update rewrites them).
func TestDuplicatesGolden(t *testing.T) {
	for _, c := range []struct {
		fx   string
		code int
	}{{"dups-1.1.1", exitDuplicatesFound}, {"mor-services-1.2.0", 0}} {
		for _, f := range []struct{ format, ext string }{{"text", "txt"}, {"json", "json"}, {"md", "md"}} {
			stdout, stderr, code := runCLI(t, "duplicates", fixture(c.fx), "-o", f.format)
			if code != c.code || stderr != "" {
				t.Fatalf("%s -o %s: exit %d (want %d), stderr %s", c.fx, f.format, code, c.code, stderr)
			}
			golden := filepath.Join("testdata", "golden", "duplicates-"+c.fx+"."+f.ext)
			assertGolden(t, golden, stdout)
		}
	}
	var doc struct {
		Rows, DistinctKeys, DuplicateKeys, ExtraCopies int
		ByKind                                         map[string]int
		Duplicates                                     []struct {
			Key       string
			Copies    int
			Kind      string
			Locations []struct{ Partition, FileID string }
		}
	}
	stdout, _, _ := runCLI(t, "duplicates", fixture("dups-1.1.1"), "-o", "json", "--limit", "2")
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Rows != 37 || doc.DistinctKeys != 28 || doc.DuplicateKeys != 9 || doc.ExtraCopies != 9 ||
		doc.ByKind["partitions"] != 1 || doc.ByKind["fileGroups"] != 6 || doc.ByKind["fileGroup"] != 2 {
		t.Errorf("counts: %+v", doc)
	}
	// --limit lists the first keys in key order; the counts still cover all nine.
	if len(doc.Duplicates) != 2 || doc.Duplicates[0].Key != "15" || doc.Duplicates[1].Key != "16" ||
		doc.Duplicates[1].Locations[0].FileID == doc.Duplicates[1].Locations[1].FileID {
		t.Errorf("--limit 2: %+v", doc.Duplicates)
	}
}

// A budget small enough to spill gives the same answer, says so, and leaves no spill
// directory in --temp-dir.
func TestDuplicatesSpill(t *testing.T) {
	tmp := t.TempDir()
	stdout, stderr, code := runCLI(t, "duplicates", fixture("dups-1.1.1"), "-o", "json", "--mem-budget", "256", "--temp-dir", tmp)
	if code != exitDuplicatesFound {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc struct {
		DuplicateKeys int
		Spill         struct{ MemBudget, Runs, Bytes int }
		Duplicates    []struct{ Key string }
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, d := range doc.Duplicates {
		keys = append(keys, d.Key)
	}
	if doc.DuplicateKeys != 9 || strings.Join(keys, ",") != "15,16,17,18,19,20,3,30,31" || doc.Spill.MemBudget != 256 || doc.Spill.Runs < 5 || doc.Spill.Bytes == 0 {
		t.Errorf("spilled search: %+v", doc)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("spill directory left in %s: %v", tmp, left)
	}
	if _, _, code := runCLI(t, "duplicates", fixture("dups-1.1.1"), "--mem-budget", "lots"); code != exitUsage {
		t.Errorf("bad --mem-budget: exit %d", code)
	}
}

// Past a scan limit the Spark SQL GROUP BY is printed (exit 2); --spark runs it through
// spark-sql.
func TestDuplicatesHandsOffToSpark(t *testing.T) {
	tbl := unzipFixture(t, "dups-1.1.1")
	stdout, stderr, code := runCLI(t, "duplicates", tbl, "--max-scan-files", "10")
	want := "CREATE OR REPLACE TEMPORARY VIEW hudiscope_snapshot USING hudi OPTIONS (path '" + tbl + "');\n" +
		"SELECT _hoodie_record_key, COUNT(*) AS copies, sort_array(collect_list(concat_ws('|', _hoodie_partition_path, _hoodie_file_name, _hoodie_commit_time))) AS locations " +
		"FROM hudiscope_snapshot GROUP BY _hoodie_record_key HAVING COUNT(*) > 1 ORDER BY _hoodie_record_key;\n"
	if code != exitUsage || !strings.Contains(stdout, want) || !strings.Contains(stdout, "the read would touch 15 files") ||
		!strings.Contains(stdout, `--   .groupBy("_hoodie_record_key").count().filter("count > 1")`) || !strings.Contains(stderr, "not scanned") {
		t.Fatalf("over the file limit: exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	bin := t.TempDir()
	argsFile := filepath.Join(bin, "args")
	script := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > " + argsFile + "\nprintf '15\\t2\\t[]\\n'\n"
	if err := os.WriteFile(filepath.Join(bin, "spark-sql"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HUDISCOPE_HUDI_LIB", t.TempDir())
	stdout, stderr, code = runCLI(t, "duplicates", tbl, "--spark", "--spark-sql", filepath.Join(bin, "spark-sql"))
	if code != 0 || stdout != "15\t2\t[]\n" {
		t.Fatalf("--spark: exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	if b, _ := os.ReadFile(argsFile); !strings.HasSuffix(string(b), "-S\n-e\n"+want) {
		t.Errorf("spark-sql args:\n%s", b)
	}
}
