package cli

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The table-version-4 fixtures (Hudi 0.11.1) give the same answers as a zip and as the
// directory it unpacks to: timeline (no completion before its request, completion times marked
// derived with their precision), the MOR reader's view across the pending compaction, and
// archival HEALTHY at the release's steady state.
func TestV4FixturesZipAndDirectoryAgree(t *testing.T) {
	t.Setenv("HUDISCOPE_NOW", "2026-12-01T00:00:00Z")
	t.Setenv("TZ", "UTC")
	for _, fx := range []string{"cow-v4-0.11.1", "mor-v4-0.11.1"} {
		t.Run(fx, func(t *testing.T) {
			zipPath := fixture(fx)
			dir := unzipTable(t, zipPath, t.TempDir())
			doc := func(table string, args ...string) map[string]any {
				t.Helper()
				stdout, stderr, code := runCLI(t, append(append([]string{args[0], table}, args[1:]...), "--cluster-defaults", "-")...)
				if code != 0 {
					t.Fatalf("%v on %s: exit %d: %s", args, table, code, stderr)
				}
				return decodeJSON(t, args[0], stdout)
			}
			zt, dt := doc(zipPath, "timeline", "-o", "json"), doc(dir, "timeline", "-o", "json")
			if !reflect.DeepEqual(zt["instants"], dt["instants"]) {
				t.Errorf("timeline differs between zip and directory")
			}
			for _, in := range zt["instants"].([]any) {
				in := in.(map[string]any)
				ct, _ := in["completionTime"].(string)
				if ct != "" && ct < in["requestedTime"].(string) {
					t.Errorf("%s completes at %s, before its request", in["requestedTime"], ct)
				}
				if d, ok := in["durationMs"].(float64); ok && d < 0 {
					t.Errorf("%s has a negative duration %v", in["requestedTime"], d)
				}
				if ct != "" && in["completionTimeDerived"] != true {
					t.Errorf("%s: a v4 completion time must be marked derived", in["requestedTime"])
				}
			}
			zl, dl := doc(zipPath, "layout", "-o", "json"), doc(dir, "layout", "-o", "json")
			for _, k := range []string{"logFiles", "logBytes", "totalBytesWithLogs", "latestSliceLogFiles", "latestSliceLogBytes", "fileGroups"} {
				a, b := zl["hudiscope"].(map[string]any)[k], dl["hudiscope"].(map[string]any)[k]
				if !reflect.DeepEqual(a, b) {
					t.Errorf("layout hudiscope.%s: zip %v, directory %v", k, a, b)
				}
			}
			if strings.HasPrefix(fx, "mor") {
				// Hudi's getLatestMergedFileSlicesBeforeOrOn (oracle/merged_file_slices.json): 12
				// log files, 9,768 bytes across the pending compaction; 3 in the latest slices.
				x := zl["hudiscope"].(map[string]any)
				if x["logFiles"] != 12.0 || x["logBytes"] != 9768.0 || x["latestSliceLogFiles"] != 3.0 {
					t.Errorf("MOR reader view: logFiles %v logBytes %v latestSliceLogFiles %v", x["logFiles"], x["logBytes"], x["latestSliceLogFiles"])
				}
			}
			for _, table := range []string{zipPath, dir} {
				stdout, stderr, code := runCLI(t, "health", table, "--checks", "archival", "-o", "json", "--props",
					filepath.Join(filepath.Dir(zipPath), "writer.properties"), "--cluster-defaults", "-")
				h := decodeJSON(t, "health", stdout)
				c := h["checks"].([]any)[0].(map[string]any)
				if code != 0 || c["status"] != "HEALTHY" {
					t.Errorf("archival on %s: exit %d, %v: %v %s", table, code, c["status"], c["summary"], stderr)
				}
			}
		})
	}
}
