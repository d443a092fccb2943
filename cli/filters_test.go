package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// filterCase is one filter combination, run as text and as JSON.
type filterCase struct {
	name string
	args []string
}

// timelineFilterCases per fixture: a 0.x table (requested order, derived completion times)
// and a 1.x one (completion order, a pending compaction listed last). The clock is pinned to
// 2026-12-01T00:00:00Z, so --since 31h29m is 2026-11-29 16:31:00 UTC.
var timelineFilterCases = map[string][]filterCase{
	"cow-services-0.15.0": {
		{"limit", []string{"--limit", "3"}},
		{"since-until-prefix", []string{"--since", "202611291657", "--until", "20261129165714"}},
		{"since-duration", []string{"--since", "31h3m"}},
		{"until-duration", []string{"--until", "31h3m30s"}},
		{"action-clean-rollback", []string{"--action", "clean,rollback"}},
		{"action-clustering", []string{"--action", "clustering"}},
		{"state-pending", []string{"--state", "requested,inflight"}},
		{"sort-completion-reverse", []string{"--sort", "completion", "--reverse"}},
		{"combined", []string{"--action", "commit", "--action", "replacecommit", "--state", "completed", "--since", "20261129165650", "--limit", "4", "--reverse"}},
	},
	"mor-services-1.2.0": {
		{"limit", []string{"--limit", "3"}},
		{"since-until-prefix", []string{"--since", "20261129163034", "--until", "202611291631"}},
		{"since-duration", []string{"--since", "31h29m"}},
		{"until-duration", []string{"--until", "1d7h29m"}},
		{"action-compaction", []string{"--action", "compaction"}},
		{"action-clean-rollback", []string{"--action", "clean,rollback"}},
		{"state-pending", []string{"--state", "requested,inflight"}},
		{"sort-requested", []string{"--sort", "requested"}},
		{"combined", []string{"--action", "deltacommit,compaction", "--until", "20261129163110", "--limit", "3", "--reverse"}},
	},
}

// filesFilterCases per fixture.
var filesFilterCases = map[string][]filterCase{
	"cow-services-0.15.0": {
		{"partition-exact", []string{"--partition", "2024-01-02"}},
		{"partition-glob", []string{"--partition", "2024-01-0[13]"}},
		{"limit", []string{"--limit", "3"}},
		{"glob-limit", []string{"--partition", "2024-*", "--limit", "1"}},
	},
	"mor-services-1.2.0": {
		{"partition-exact", []string{"--partition", "2024-01-03"}},
		{"partition-glob", []string{"--partition", "*-02"}},
		{"limit", []string{"--limit", "2"}},
		{"glob-limit", []string{"--partition", "2024-01-*", "--limit", "1"}},
	},
}

// Every filter combination of timeline and files, text and JSON, matches its golden file on
// a 0.x and a 1.x fixture (go test ./cli -run TestFilterGolden -update rewrites them).
func TestFilterGolden(t *testing.T) {
	t.Setenv("HUDISCOPE_NOW", "2026-12-01T00:00:00Z")
	t.Setenv("TZ", "UTC")
	run := func(t *testing.T, cmd, fx string, c filterCase) {
		for _, format := range []string{"text", "json"} {
			args := append([]string{cmd, fixture(fx), "-o", format}, c.args...)
			stdout, stderr, code := runCLI(t, args...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, stderr)
			}
			if format == "json" {
				var doc map[string]any
				if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
					t.Fatalf("%v: %v", args, err)
				}
				if doc["filter"] == nil {
					t.Errorf("%v: no filter member", args)
				}
			}
			golden := filepath.Join("testdata", "golden", "filters", fx+"-"+cmd+"-"+c.name+"."+format)
			if *updateGolden {
				if err := os.WriteFile(golden, []byte(stdout), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./cli -run TestFilterGolden -update)", err)
			}
			if stdout != string(want) {
				t.Errorf("%s differs: go test ./cli -run TestFilterGolden -update && git diff %s", golden, golden)
			}
		}
	}
	for fx, cases := range timelineFilterCases {
		for _, c := range cases {
			t.Run(fx+"/timeline/"+c.name, func(t *testing.T) { run(t, "timeline", fx, c) })
		}
	}
	for fx, cases := range filesFilterCases {
		for _, c := range cases {
			t.Run(fx+"/files/"+c.name, func(t *testing.T) { run(t, "files", fx, c) })
		}
	}
}

// timelineRequested is the requested times a timeline JSON lists, in order.
func timelineRequested(t *testing.T, out string) []string {
	t.Helper()
	var doc struct {
		Instants []struct {
			RequestedTime string `json:"requestedTime"`
			Action        string `json:"action"`
		} `json:"instants"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, in := range doc.Instants {
		got = append(got, in.Action+"@"+in.RequestedTime)
	}
	return got
}

// The filters select the instants checked by hand against the fixtures' timelines.
func TestTimelineFilterValues(t *testing.T) {
	t.Setenv("HUDISCOPE_NOW", "2026-12-01T00:00:00Z")
	t.Setenv("TZ", "UTC")
	for _, c := range []struct {
		fx   string
		args []string
		want string
	}{
		// 0.x lists by requested time; by completion the rollback (completed 16:57:18.168)
		// comes before the clean requested before it (completed 16:57:22) — reversed, after.
		{"cow-services-0.15.0", []string{"--action", "clean,rollback", "--sort", "completion", "--reverse", "--limit", "3"},
			"clean@20261129165721657 rollback@20261129165718168 clean@20261129165714210"},
		// The 0.x clustering is a replacecommit whose operation is CLUSTER.
		{"cow-services-0.15.0", []string{"--action", "clustering"}, "replacecommit@20261129165722837"},
		// 31h3m before the clock is 2026-11-29 16:57:00 UTC.
		{"cow-services-0.15.0", []string{"--since", "31h3m", "--action", "commit"},
			"commit@20261129165701885 commit@20261129165706007 commit@20261129165709787 commit@20261129165718116 commit@20261129165727052"},
		// 1.x: the pending compaction plan is listed last (completion order), and first of
		// the requested order after 16:30:53.361.
		{"mor-services-1.2.0", []string{"--action", "compaction"}, "compaction@20261129163053361"},
		{"mor-services-1.2.0", []string{"--sort", "requested", "--since", "20261129163053"},
			"compaction@20261129163053361 deltacommit@20261129163053642 deltacommit@20261129163107502 deltacommit@20261129163127401"},
		{"mor-services-1.2.0", []string{"--limit", "2"}, "deltacommit@20261129163127401 compaction@20261129163053361"},
		{"mor-services-1.2.0", []string{"--state", "completed", "--until", "20261129163034"},
			"deltacommit@20261129163018347 deltacommit@20261129163023496 clean@20261129163034122"},
	} {
		out, stderr, code := runCLI(t, append([]string{"timeline", fixture(c.fx), "-o", "json"}, c.args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d %s", c.args, code, stderr)
		}
		if got := strings.Join(timelineRequested(t, out), " "); got != c.want {
			t.Errorf("%s %v:\n got %s\nwant %s", c.fx, c.args, got, c.want)
		}
	}
}

// Bad filter words are usage errors (exit 2) naming the flag, told before the table is read.
func TestFilterUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"timeline", "no-such.zip", "--action", "comit"}, "--action"},
		{[]string{"timeline", "no-such.zip", "--state", "done"}, "--state"},
		{[]string{"timeline", "no-such.zip", "--sort", "size"}, "--sort"},
		{[]string{"timeline", "no-such.zip", "--since", "yesterday"}, "--since"},
		{[]string{"timeline", "no-such.zip", "--until", "123"}, "--until"},
		{[]string{"timeline", "no-such.zip", "--limit", "-1"}, "--limit"},
		{[]string{"timeline", "no-such.zip", "--limit", "2", "--watch=1m"}, "--watch"},
		{[]string{"files", "no-such.zip", "--partition", "dt=[2024"}, "--partition"},
		{[]string{"files", "no-such.zip", "--limit", "-3"}, "--limit"},
	} {
		_, stderr, code := runCLI(t, c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q (want 2 naming %s)", c.args, code, stderr, c.want)
		}
	}
}
