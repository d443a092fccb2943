package cli

import (
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"
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
		"report.md": {[]string{"report", fixture("eventlog-pair-before-1.2.0"), "--props", filepath.Join("..", "testdata", "fixtures", "eventlog-pair-before-1.2.0", "writer.properties"),
			"--event-log", b, "--compare-log", a, "--cluster-defaults", "-"}, 0},
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
			if name == "report.md" { // the section this issue adds, not the whole report
				i, j := strings.Index(stdout, "## Applied changes"), strings.Index(stdout, "## Incremental reads")
				if i < 0 || j < i {
					t.Fatalf("no Applied changes section:\n%s", stdout)
				}
				stdout = stdout[i:j]
			}
			path := filepath.Join("testdata", "golden", "pair-"+name)
			assertGolden(t, path, stdout)
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
	// report --compare-log: appliedChanges documented under "report"; OBS-009 fired on the
	// run before and its change (hoodie.upsert.shuffle.parallelism 200 -> 2) moved as predicted.
	dir := filepath.Join("..", "testdata", "fixtures", "eventlog-pair-before-1.2.0")
	stdout, stderr, code := runCLI(t, "report", fixture("eventlog-pair-before-1.2.0"), "--props", filepath.Join(dir, "writer.properties"),
		"--event-log", b, "--compare-log", a, "--cluster-defaults", "-", "-o", "json")
	if code != 0 {
		t.Fatalf("report --compare-log: exit %d: %s", code, stderr)
	}
	var rep struct {
		AppliedChanges []struct {
			Row    string
			Status string
			Fired  bool
			Keys   []struct{ Key, Before, After string }
			Verify struct{ Verdict string }
		} `json:"appliedChanges"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, x := range rep.AppliedChanges {
		got[x.Row] = x.Verify.Verdict
		if len(x.Keys) != 1 || x.Keys[0].Key != "hoodie.upsert.shuffle.parallelism" || x.Keys[0].Before != "200" || x.Keys[0].After != "2" {
			t.Errorf("%s keys %+v", x.Row, x.Keys)
		}
		if x.Row == "OBS-009" && (!x.Fired || x.Status != "hypothesis") {
			t.Errorf("OBS-009 on the run before: %s fired=%v", x.Status, x.Fired)
		}
	}
	want := map[string]string{"OBS-006": "moved the wrong way", "OBS-007": "no change", "OBS-009": "moved as predicted", "OBS-027": "moved the wrong way"}
	if len(got) != len(want) {
		t.Errorf("applied changes %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %q, want %q", k, got[k], v)
		}
	}
	var rdoc map[string]any
	_ = json.Unmarshal([]byte(stdout), &rdoc)
	rpaths := map[string]bool{}
	collectJSONPaths(map[string]any{"appliedChanges": rdoc["appliedChanges"]}, "", map[string]bool{}, rpaths)
	for p := range rpaths {
		if !sections["report"][p] {
			t.Errorf("report --compare-log writes %q, not documented in docs/json.md section \"report\"", p)
		}
	}
	// Without --compare the eventlog document is the Java tool's top level, unchanged.
	stdout, _, _ = runCLI(t, "eventlog", b, "-o", "json")
	var doc map[string]any
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if doc["schemaVersion"] != "1.1.0" || doc["document"] != nil || doc["movedMost"] != nil {
		t.Errorf("eventlog without --compare: schemaVersion %v, document %v", doc["schemaVersion"], doc["document"])
	}
}
