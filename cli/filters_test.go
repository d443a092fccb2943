package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
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
			assertGolden(t, golden, stdout)
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
		{[]string{"timeline", "no-such.zip", "--action", "comit"}, `but got "comit"; did you mean "commit"?`},
		{[]string{"timeline", "no-such.zip", "--action", "clean,rollbak"}, `did you mean "rollback"?`},
		{[]string{"timeline", "no-such.zip", "--state", "inflght"}, `did you mean "inflight"?`},
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

// `version -o json` carries the fields of the text line; a first word that is neither a
// command nor a path is an unknown command (exit 2), named with the nearest command when close.
func TestVersionJSONAndUnknownCommand(t *testing.T) {
	text, _, _ := runCLI(t, "version")
	out, stderr, code := runCLI(t, "version", "-o", "json")
	if code != 0 {
		t.Fatalf("version -o json: exit %d %s", code, stderr)
	}
	var v VersionJSON
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if v.SchemaVersion == "" || v.Version == "" || !strings.HasPrefix(v.GoVersion, "go1.") || !strings.Contains(v.Platform, "/") ||
		!strings.Contains(text, v.Version+" ") || !strings.Contains(text, v.GoVersion+", "+v.Platform+")") {
		t.Errorf("version JSON %+v does not match the text %q", v, text)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"frobnicate"}, exitUsage, `unknown command "frobnicate", and no file or directory of that name`},
		{[]string{"tmeline", "x"}, exitUsage, `did you mean "timeline"`},
		{[]string{"fles"}, exitUsage, `did you mean "files"`},
		// A word with a path's or URI's marks stays a table path: unreadable, exit 1.
		{[]string{"./frobnicate"}, exitError, "frobnicate"},
		{[]string{"frob.zip"}, exitError, "frob.zip"},
	} {
		_, stderr, code := runCLI(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want %d with %q", c.args, code, stderr, c.code, c.want)
		}
	}
	// An existing directory of a command-like name is a path.
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.Mkdir("frobnicate", 0o755); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runCLI(t, "frobnicate"); code == exitUsage || strings.Contains(stderr, "unknown command") {
		t.Errorf("an existing directory was taken for a command: exit %d %s", code, stderr)
	}
}

// The completion scripts complete enum values: -o per command, completion's shells, and
// timeline's --action, --state and --sort (bash run for real; zsh and fish specs checked).
func TestCompletionEnumValues(t *testing.T) {
	bash, _, _ := runCLI(t, "completion", "bash")
	complete := func(words ...string) string {
		t.Helper()
		script := fmt.Sprintf("%s\nCOMP_WORDS=(%s); COMP_CWORD=%d; _hudiscope; echo \"${COMPREPLY[*]}\"", bash, strings.Join(words, " "), len(words)-1)
		out, err := exec.Command("bash", "-c", script).CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %v %s", words, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	for _, c := range []struct {
		words []string
		want  string
	}{
		{[]string{"hudiscope", "timeline", "-o", "''"}, "text json"},
		{[]string{"hudiscope", "report", "--output", "''"}, "md json"},
		{[]string{"hudiscope", "layout", "-o", "''"}, "text json md"},
		{[]string{"hudiscope", "snapshot", "-o", "''"}, "text json csv"},
		{[]string{"hudiscope", "completion", "''"}, "bash zsh fish"},
		{[]string{"hudiscope", "completion", "z"}, "zsh"},
		{[]string{"hudiscope", "timeline", "--action", "''"}, "commit deltacommit clean compaction replacecommit clustering rollback restore savepoint indexing logcompaction"},
		{[]string{"hudiscope", "timeline", "--action", "re"}, "replacecommit restore"},
		{[]string{"hudiscope", "timeline", "--state", "''"}, "requested inflight completed"},
		{[]string{"hudiscope", "timeline", "--action", "clean,ro"}, "clean,rollback"},
		{[]string{"hudiscope", "timeline", "--state", "requested,inflight,c"}, "requested,inflight,completed"},
		{[]string{"hudiscope", "timeline", "--sort", "''"}, "table completion requested"},
	} {
		if got := complete(c.words...); got != c.want {
			t.Errorf("bash %v: %q, want %q", c.words, got, c.want)
		}
	}
	zsh, _, _ := runCLI(t, "completion", "zsh")
	fish, _, _ := runCLI(t, "completion", "fish")
	for _, want := range []string{":state:(requested inflight completed)'", ":output:(md json)'", "'1:SHELL:(bash zsh fish)'", ":sort:(table completion requested)'"} {
		if !strings.Contains(zsh, want) {
			t.Errorf("zsh completion lacks %s", want)
		}
	}
	for _, want := range []string{"__fish_seen_subcommand_from completion' -x -a 'bash zsh fish'", "-l action -x -a 'commit deltacommit", "-l output -s o -x -a 'text json csv'"} {
		if !strings.Contains(fish, want) {
			t.Errorf("fish completion lacks %s", want)
		}
	}
	// The -o words are what each command accepts: any other is refused, naming the same list.
	for cmd, formats := range outputFormats {
		args := map[string][]string{"checkpoint": {"checkpoint", "t.zip", "1"}, "version": {"version"}, "fleet": {"fleet", "t"},
			"changes": {"changes", "t.zip", "--begin", "1"}, "incremental": {"incremental", "t.zip", "--begin", "1"}}[cmd]
		if args == nil {
			args = []string{cmd, "t.zip"}
		}
		_, stderr, code := runCLI(t, append(args, "-o", "bogus")...)
		// layout keeps the Java tool's exit code (1) for a bad argument.
		if (code != exitUsage && cmd != "layout") || !strings.Contains(stderr, strings.ReplaceAll(formats, ",", ", ")) {
			t.Errorf("%s -o bogus: exit %d %q; completion offers %s", cmd, code, stderr, formats)
		}
	}
}

// `config path` on a broken configuration file prints the path as invalid and names the file
// and the parse error, exit 2 — as every other command does on that file.
func TestConfigPathBrokenFile(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("HUDISCOPE_CONFIG", "")
	p := filepath.Join(dir, "hudiscope", "config.toml")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ body, want string }{
		{"engine = \"spark\n", p + `: configuration file: toml: line 1 (last key "engine"): strings cannot contain newlines`},
		{"bogus-key = 1\n[files]\nlimit = 3\nfrob = 1\n", "configuration file " + p + ": unknown key(s) bogus-key, files.frob"},
	} {
		if err := os.WriteFile(p, []byte(c.body), 0o644); err != nil {
			t.Fatal(err)
		}
		stdout, stderr, code := runCLI(t, "config", "path")
		if code != exitUsage || stdout != p+" (invalid)\n" || !strings.Contains(stderr, c.want) {
			t.Errorf("config path on %q: exit %d, stdout %q, stderr %q; want 2 and %q", c.body, code, stdout, stderr, c.want)
		}
		// Another command names the same file and error.
		if _, stderr, code := runCLI(t, "files", "t.zip"); code != exitUsage || !strings.Contains(stderr, c.want[strings.Index(c.want, "configuration file"):]) || !strings.Contains(stderr, p) {
			t.Errorf("files with %q: exit %d %q", c.body, code, stderr)
		}
	}
	if err := os.WriteFile(p, []byte("[files]\nlimit = 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if stdout, _, code := runCLI(t, "config", "path"); code != 0 || stdout != p+" (exists)\n" {
		t.Errorf("valid file: %d %q", code, stdout)
	}
}
