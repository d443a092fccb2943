package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// pairLogs are the event logs of the eventlog-pair fixtures (issue 33): the same upsert job
// with hoodie.upsert.shuffle.parallelism 200 (before) and 2 (after).
func pairLogs(t *testing.T) (before, after string) {
	return fixtureEventLog(t, "eventlog-pair-before-1.2.0"), fixtureEventLog(t, "eventlog-pair-after-1.2.0")
}

// compareGoldens are the goldens of `eventlog --compare` and `verify`, each args and exit code.
func compareGoldens(t *testing.T) map[string]struct {
	args []string
	code int
} {
	b, a := pairLogs(t)
	type c = struct {
		args []string
		code int
	}
	return map[string]c{
		"compare.txt":         {[]string{"eventlog", b, "--compare", a}, 0},
		"compare.md":          {[]string{"eventlog", b, "--compare", a, "-o", "md"}, 0},
		"compare.json":        {[]string{"eventlog", b, "--compare", a, "-o", "json"}, 0},
		"verify-OBS-009.txt":  {[]string{"verify", "OBS-009", "--before", b, "--after", a}, 0},
		"verify-OBS-009.md":   {[]string{"verify", "OBS-009", "--before", b, "--after", a, "-o", "md"}, 0},
		"verify-OBS-009.json": {[]string{"verify", "OBS-009", "--before", b, "--after", a, "-o", "json"}, 0},
		// raising the parallelism (2 → 200, OBS-006's direction): the tagging stages got slower
		"verify-OBS-006-reversed.txt": {[]string{"verify", "OBS-006", "--before", a, "--after", b}, exitVerifyWrongWay},
		"verify-OBS-002.txt":          {[]string{"verify", "OBS-002", "--before", b, "--after", a}, exitVerifyNoChange},
		"verify-OBS-001.txt":          {[]string{"verify", "OBS-001", "--before", b, "--after", a}, exitVerifyUnknown},
	}
}

func TestCompareVerifyGolden(t *testing.T) {
	t.Setenv("HUDISCOPE_NOW", "2026-12-01T00:00:00Z")
	t.Setenv("TZ", "UTC")
	for name, g := range compareGoldens(t) {
		t.Run(name, func(t *testing.T) {
			stdout, stderr, code := runCLI(t, g.args...)
			if code != g.code {
				t.Fatalf("%v: exit %d, want %d: %s", g.args, code, g.code, stderr)
			}
			path := filepath.Join("testdata", "golden", "pair-"+name)
			if *updateGolden {
				if err := os.WriteFile(path, []byte(stdout), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if stdout != string(want) {
				t.Errorf("%v differs from %s (run with -update to accept):\n%s", g.args, path, stdout)
			}
		})
	}
}

// The compare document's figures, and its fields and verify's documented in docs/json.md.
func TestCompareVerifyJSON(t *testing.T) {
	b, a := pairLogs(t)
	sections := jsonDocSections(t)
	for _, x := range []struct {
		section string
		args    []string
		code    int
	}{
		{"eventlog --compare", []string{"eventlog", b, "--compare", a, "-o", "json"}, 0},
		{"verify", []string{"verify", "OBS-009", "--before", b, "--after", a, "-o", "json"}, 0},
		{"verify", []string{"verify", "OBS-001", "--before", b, "--after", a, "-o", "json"}, exitVerifyUnknown},
		{"verify", []string{"verify", "OBS-014", "--before", b, "--after", a, "-o", "json"}, exitVerifyNoChange},
	} {
		stdout, stderr, code := runCLI(t, x.args...)
		if code != x.code {
			t.Fatalf("%v: exit %d: %s", x.args, code, stderr)
		}
		var doc map[string]any
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatal(err)
		}
		paths := map[string]bool{}
		collectJSONPaths(doc, "", map[string]bool{}, paths)
		var missing []string
		for p := range paths {
			if !sections[x.section][p] {
				missing = append(missing, p)
			}
		}
		sort.Strings(missing)
		for _, p := range missing {
			t.Errorf("%v writes %q, not documented in docs/json.md section %q", x.args, p, x.section)
		}
		if x.section == "eventlog --compare" {
			if doc["document"] != "eventlogCompare" || doc["hudiscope"] != nil || doc["stages"] != nil {
				t.Errorf("compare document: %v", doc["document"])
			}
			moved := doc["movedMost"].([]any)[0].(map[string]any)
			if moved["label"] != "DEDUP_AND_INDEX_TAGGING" || moved["deltaMillis"] != -35156.0 {
				t.Errorf("moved most: %v", moved)
			}
		}
	}
	// Without --compare the eventlog document is the Java tool's top level, unchanged.
	stdout, _, _ := runCLI(t, "eventlog", b, "-o", "json")
	var doc map[string]any
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if doc["schemaVersion"] != "1.1.0" || doc["document"] != nil || doc["movedMost"] != nil {
		t.Errorf("eventlog without --compare: schemaVersion %v, document %v", doc["schemaVersion"], doc["document"])
	}
}
