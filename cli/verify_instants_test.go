package cli

import (
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Instants of the fixtures verify reads with --table (hudiscope timeline and show of each):
// cow-services-1.2.0's last UPSERT before clustering (20261129162031337, 62 live file
// groups), the CLUSTER replacecommit (20261129162054490, replaces those 62 with 3) and the
// UPSERT after it (20261129162134323: 5, the 5 file groups `layout` lists);
// mor-compaction-1.2.0 (inline compaction every 3 delta commits): the third delta commit
// (20261130200217275, 3 since the start) and the delta commit after the compaction
// (20261130200226754, 1); mor-services-1.2.0's compaction 20261129163053361 never completes,
// 3 delta commits at 20261129163038266 and 6 at the latest.
const (
	cowBeforeClustering = "20261129162031337"
	cowClustering       = "20261129162054490"
	cowAfterClustering  = "20261129162134323"
	morThirdDelta       = "20261130200217275"
	morAfterCompaction  = "20261130200226754"
)

func instantGoldens() map[string]struct {
	args []string
	code int
} {
	type c = struct {
		args []string
		code int
	}
	cow, mor := fixture("cow-services-1.2.0"), fixture("mor-compaction-1.2.0")
	return map[string]c{
		"OBS-003.txt":  {[]string{"verify", "OBS-003", "--table", cow, "--before", cowBeforeClustering, "--after", cowClustering}, 0},
		"OBS-003.md":   {[]string{"verify", "OBS-003", "--table", cow, "--before", cowBeforeClustering, "--after", cowClustering, "-o", "md"}, 0},
		"OBS-003.json": {[]string{"verify", "OBS-003", "--table", cow, "--before", cowBeforeClustering, "--after", cowClustering, "-o", "json"}, 0},
		// the write after clustering adds 2 file groups again
		"OBS-012-after-clustering.txt": {[]string{"verify", "OBS-012", "--table", cow, "--before", cowClustering, "--after", cowAfterClustering}, exitVerifyWrongWay},
		"OBS-028.txt":                  {[]string{"verify", "OBS-028", "--table", mor, "--before", morThirdDelta, "--after", morAfterCompaction}, 0},
		"OBS-028-pending.txt":          {[]string{"verify", "OBS-028", "--table", fixture("mor-services-1.2.0"), "--before", "20261129163038266", "--after", "latest"}, exitVerifyWrongWay},
		"OBS-028-absent.txt":           {[]string{"verify", "OBS-028", "--table", mor, "--before", "20261130200000000", "--after", morAfterCompaction}, exitVerifyUnknown},
		"OBS-016.txt":                  {[]string{"verify", "OBS-016", "--table", cow, "--before", "20261129161810138", "--after", "latest"}, 0},
		"OBS-017.txt":                  {[]string{"verify", "OBS-017", "--table", mor, "--before", morThirdDelta, "--after", morAfterCompaction}, exitVerifyUnknown},
		"OBS-009.txt":                  {[]string{"verify", "OBS-009", "--table", mor, "--before", morThirdDelta, "--after", morAfterCompaction}, exitVerifyUnknown},
	}
}

func TestVerifyInstantsGolden(t *testing.T) {
	t.Setenv("HUDISCOPE_NOW", "2026-12-01T00:00:00Z")
	t.Setenv("TZ", "UTC")
	for name, g := range instantGoldens() {
		t.Run(name, func(t *testing.T) {
			stdout, stderr, code := runCLI(t, g.args...)
			if code != g.code {
				t.Fatalf("%v: exit %d, want %d: %s", g.args, code, g.code, stderr)
			}
			path := filepath.Join("testdata", "golden", "verify-instants-"+name)
			assertGolden(t, path, stdout)
		})
	}
}

// The figures of the instant checks, and every field documented under "verify".
func TestVerifyInstantsJSON(t *testing.T) {
	sections := jsonDocSections(t)
	type check struct {
		Measure       string
		Before, After *float64
		Outcome, Why  string
	}
	f := func(v float64) *float64 { return &v }
	for _, x := range []struct {
		args    []string
		code    int
		verdict string
		checks  []check
	}{
		{[]string{"verify", "OBS-003", "--table", fixture("cow-services-1.2.0"), "--before", cowBeforeClustering, "--after", cowClustering, "-o", "json"}, 0,
			"moved as predicted", []check{{"instant.fileGroups", f(62), f(3), "moved", ""}}},
		{[]string{"verify", "OBS-001", "--table", fixture("cow-services-1.2.0"), "--before", cowBeforeClustering, "--after", cowClustering, "-o", "json"}, 0,
			// the UPSERT's 5 files (median 10886 bytes, show) against clustering's 3 (median 10829)
			"no change", []check{{"instant.fileSizeP50", f(10886), f(10829), "unchanged", ""}}},
		{[]string{"verify", "OBS-015", "--table", fixture("mor-compaction-1.2.0"), "--before", morThirdDelta, "--after", morAfterCompaction, "-o", "json"}, 0,
			"moved as predicted", []check{{"instant.deltaCommitsSinceCompaction", f(3), f(1), "moved", ""}}},
		{[]string{"verify", "OBS-015", "--table", fixture("mor-services-1.2.0"), "--before", "20261129163053361", "--after", "latest", "-o", "json"}, 0,
			"unknown", []check{{"instant.deltaCommitsSinceCompaction", nil, f(6), "unknown", "before: 20261129163053361.compaction is requested, not completed"}}},
		{[]string{"verify", "OBS-028", "--table", fixture("cow-services-1.2.0"), "--before", cowBeforeClustering, "--after", cowClustering, "-o", "json"}, 0,
			"unknown", []check{{"instant.deltaCommitsSinceCompaction", nil, nil, "unknown", "before: a copy-on-write table has no delta commits; after: a copy-on-write table has no delta commits"}}},
	} {
		stdout, stderr, code := runCLI(t, x.args...)
		want := x.code
		if x.verdict == "unknown" {
			want = exitVerifyUnknown
		} else if x.verdict == "no change" {
			want = exitVerifyNoChange
		}
		if code != want {
			t.Fatalf("%v: exit %d, want %d: %s", x.args, code, want, stderr)
		}
		var doc struct {
			Input, Table, BeforeInstant, AfterInstant, Verdict string
			Checks                                             []check
		}
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatal(err)
		}
		if doc.Input != "instants" || doc.Table != x.args[3] || doc.Verdict != x.verdict {
			t.Errorf("%v: input %q table %q verdict %q, want instants %q %q", x.args, doc.Input, doc.Table, doc.Verdict, x.args[3], x.verdict)
		}
		gotJSON, _ := json.Marshal(doc.Checks)
		wantJSON, _ := json.Marshal(x.checks)
		if string(gotJSON) != string(wantJSON) {
			t.Errorf("%v: checks\n got %s\nwant %s", x.args, gotJSON, wantJSON)
		}
		var all map[string]any
		if err := json.Unmarshal([]byte(stdout), &all); err != nil {
			t.Fatal(err)
		}
		paths := map[string]bool{}
		collectJSONPaths(all, "", map[string]bool{}, paths)
		var missing []string
		for p := range paths {
			if !sections["verify"][p] {
				missing = append(missing, p)
			}
		}
		sort.Strings(missing)
		for _, p := range missing {
			t.Errorf("%v writes %q, not documented in docs/json.md section verify", x.args, p)
		}
	}
}

// Instants need --table; --table needs instants. Both are usage errors (exit 2).
func TestVerifyInstantsUsage(t *testing.T) {
	mor := fixture("mor-compaction-1.2.0")
	b, _ := pairLogs(t)
	for _, x := range []struct {
		args []string
		msg  string
	}{
		{[]string{"verify", "OBS-028", "--before", morThirdDelta, "--after", morAfterCompaction}, "give the table whose instants --before and --after name with --table TABLE"},
		{[]string{"verify", "OBS-028", "--table", mor, "--before", b, "--after", morAfterCompaction}, "with --table, --before and --after are instants of the table"},
	} {
		_, stderr, code := runCLI(t, x.args...)
		if code != exitUsage || !strings.Contains(stderr, x.msg) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d naming %q", x.args, code, stderr, exitUsage, x.msg)
		}
	}
}
