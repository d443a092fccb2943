package cli

import (
	"bytes"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/report"

	"github.com/alecthomas/kong"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden JSON files")

func fixture(name string) string {
	return filepath.Join("..", "testdata", "fixtures", name, "table.zip")
}

func fixtureEventLog(t *testing.T, name string) string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join("..", "testdata", "fixtures", name, "local-*"))
	if len(m) == 0 {
		t.Fatalf("no event log in fixture %s", name)
	}
	return m[0]
}

// jsonCommands are every command with JSON output, as a user types them.
func jsonCommands(t *testing.T, fx string) map[string][]string {
	table := fixture(fx)
	return map[string][]string{
		"timeline":   {"timeline", table, "-o", "json"},
		"files":      {"files", table, "-o", "json"},
		"show":       {"show", table, "latest", "-o", "json"},
		"checkpoint": {"checkpoint", table, "20000101000000000", "-o", "json"},
		"layout":     {"layout", table, "-o", "json", "--analyze-table-characteristics"},
		"health":     {"health", table, "-o", "json", "--apply-all-defaults"},
		"report":     {"report", table, "-o", "json"},
		"eventlog":   {"eventlog", fixtureEventLog(t, fx), "-o", "json"},
	}
}

// schemaVersionOf finds the hudiscope contract version: top level, or under "hudiscope" in
// the documents whose top level is a Java tool's.
func schemaVersionOf(doc map[string]any, cmd string) any {
	switch cmd {
	case "layout", "health", "eventlog":
		if x, ok := doc["hudiscope"].(map[string]any); ok {
			return x["schemaVersion"]
		}
		return nil
	}
	return doc["schemaVersion"]
}

// Every command's JSON parses and carries the contract version, and matches its golden file
// on two fixtures of different releases (a fixed clock and zone make them reproducible).
func TestJSONOutputGolden(t *testing.T) {
	t.Setenv("HUDISCOPE_NOW", "2026-12-01T00:00:00Z")
	t.Setenv("TZ", "UTC")
	for _, fx := range []string{"incr-1.2.0", "incr-0.15.0"} {
		for cmd, args := range jsonCommands(t, fx) {
			t.Run(fx+"/"+cmd, func(t *testing.T) {
				args = append(args, "--cluster-defaults", "-")
				if cmd == "eventlog" {
					args = args[:len(args)-2]
				}
				stdout, stderr, code := runCLI(t, args...)
				if code != 0 && !(cmd == "health" && code == 3) {
					t.Fatalf("exit %d: %s", code, stderr)
				}
				doc := decodeJSON(t, cmd, stdout)
				if v := schemaVersionOf(doc, cmd); v != report.SchemaVersion {
					t.Errorf("schemaVersion %v", v)
				}
				if cmd == "eventlog" && doc["schemaVersion"] != "1.1.0" {
					t.Errorf("the Java tool's schemaVersion is %v", doc["schemaVersion"])
				}
				golden := filepath.Join("testdata", "golden", fx+"-"+cmd+".json")
				assertGolden(t, golden, stdout)
			})
		}
	}
}

// --json is a short form of -o json; --output-file writes the file and nothing to stdout; the
// Java tools' words still work.
func TestOutputFlags(t *testing.T) {
	table := fixture("incr-1.2.0")
	a, _, _ := runCLI(t, "timeline", table, "--json")
	b, _, _ := runCLI(t, "timeline", table, "-o", "json")
	if a != b || !strings.HasPrefix(a, "{") {
		t.Errorf("--json and -o json differ")
	}
	for cmd, args := range jsonCommands(t, "incr-1.2.0") {
		out := filepath.Join(t.TempDir(), cmd+".json")
		stdout, stderr, code := runCLI(t, append(args, "--output-file", out)...)
		if code != 0 && !(cmd == "health" && code == 3) {
			t.Fatalf("%s: exit %d: %s", cmd, code, stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil || stdout != "" {
			t.Fatalf("%s: file %v, stdout %.100q", cmd, err, stdout)
		}
		decodeJSON(t, cmd, string(b))
	}
	// eventlog -f FILE and -o JSON are HoodieSparkEventLogAnalyzer's words.
	out := filepath.Join(t.TempDir(), "e.json")
	if _, stderr, code := runCLI(t, "eventlog", "-e", fixtureEventLog(t, "incr-1.2.0"), "-o", "JSON", "-f", out); code != 0 {
		t.Fatalf("eventlog -f: %d %s", code, stderr)
	}
	if b, _ := os.ReadFile(out); !bytes.Contains(b, []byte(`"schemaVersion": "1.1.0"`)) {
		t.Errorf("eventlog -f wrote %.100q", b)
	}
	// health's -sp and --base-path are the Java tool's.
	j1, _, _ := runCLI(t, "health", "-sp", table, "--output", "JSON")
	j2, _, _ := runCLI(t, "health", "--base-path", table, "--output", "JSON")
	j3, _, _ := runCLI(t, "health", table, "-o", "json")
	if j1 != j2 || j1 != j3 || !strings.Contains(j1, `"overallStatus"`) {
		t.Errorf("health -sp / --base-path / argument differ")
	}
	// Formats a command does not have are usage errors.
	if _, stderr, code := runCLI(t, "timeline", table, "-o", "md"); code != 2 || !strings.Contains(stderr, "--output must be one of text, json") {
		t.Errorf("timeline -o md: %d %s", code, stderr)
	}
	if _, stderr, code := runCLI(t, "report", table, "-o", "out.md"); code != 2 || !strings.Contains(stderr, "--output-file") {
		t.Errorf("report -o FILE (the old spelling) must point at --output-file: %d %s", code, stderr)
	}
	// Markdown where it applies.
	for _, cmd := range []string{"layout", "health"} {
		md, _, _ := runCLI(t, cmd, table, "-o", "md")
		if !strings.Contains(md, "|---") && !strings.Contains(md, "- **") {
			t.Errorf("%s -o md: %.200s", cmd, md)
		}
	}
}

func TestVersionAndUsage(t *testing.T) {
	re := regexp.MustCompile(`^hudiscope \S+ \(commit \S+, built \S+, go1\.\d+\S*, (linux|darwin)/(amd64|arm64)\)\n$`)
	for _, args := range [][]string{{"--version"}, {"version"}, {"timeline", "--version"}} {
		stdout, _, code := runCLI(t, args...)
		if code != 0 || !re.MatchString(stdout) {
			t.Errorf("%v: exit %d, %q", args, code, stdout)
		}
	}
	// A bare hudiscope prints a short usage with the commands and an example, exit 2.
	stdout, stderr, code := runCLI(t)
	if code != 2 || stdout != "" {
		t.Fatalf("bare: exit %d stdout %q", code, stdout)
	}
	for _, want := range []string{"Usage: hudiscope", "timeline", "checkpoint", "layout", "health", "eventlog", "report", "Example:"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("bare usage lacks %q:\n%s", want, stderr)
		}
	}
	// A mistyped command is named with the nearest one, exit 2.
	_, stderr, code = runCLI(t, "tmeline", "x")
	if code != 2 || !strings.Contains(stderr, `did you mean "timeline"`) {
		t.Errorf("tmeline: %d %s", code, stderr)
	}
	// `help CMD` is `CMD --help`, which ends with examples.
	stdout, _, code = runCLI(t, "help", "checkpoint")
	if code != 0 || !strings.Contains(stdout, "Usage: hudiscope checkpoint") {
		t.Errorf("help checkpoint: %d %.200s", code, stdout)
	}
	for _, cmd := range []string{"open", "timeline", "files", "checkpoint", "layout", "health", "eventlog", "verify", "report", "completion", "man", "version"} {
		stdout, _, code := runCLI(t, cmd, "--help")
		i := strings.LastIndex(stdout, "\nExamples:\n")
		n := strings.Count(stdout[max(i, 0):], "\n  hudiscope ")
		if code != 0 || i < 0 || n < 1 || n > 3 {
			t.Errorf("%s --help: exit %d, %d examples at the end:\n%s", cmd, code, n, stdout)
		}
	}
}

// Every flag of every command says what it does.
func TestEveryFlagHasHelp(t *testing.T) {
	var cli CLI
	k, err := newParser(&cli, os.Stdout, os.Stderr, "")
	if err != nil {
		t.Fatal(err)
	}
	missing := 0
	var walk func(n *kong.Node)
	walk = func(n *kong.Node) {
		for _, f := range n.Flags {
			if strings.TrimSpace(f.Help) == "" {
				t.Errorf("%s --%s has no help text", n.Path(), f.Name)
				missing++
			}
		}
		for _, p := range n.Positional {
			if strings.TrimSpace(p.Help) == "" {
				t.Errorf("%s <%s> has no help text", n.Path(), p.Name)
			}
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(k.Model.Node)
}

// The completion scripts are valid shell (bash always; zsh and fish where installed) and know
// every command and a command's flags.
func TestCompletionScripts(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish"} {
		stdout, stderr, code := runCLI(t, "completion", sh)
		if code != 0 {
			t.Fatalf("%s: %d %s", sh, code, stderr)
		}
		for _, want := range []string{"timeline", "checkpoint", "eventlog", "--s3-endpoint", "--archived", "--output-file"} {
			if sh == "fish" {
				want = strings.Replace(want, "--", "-l ", 1) // fish spells long flags -l NAME
			}
			if !strings.Contains(stdout, want) {
				t.Errorf("%s completion lacks %s", sh, want)
			}
		}
		script := filepath.Join(t.TempDir(), "c."+sh)
		if err := os.WriteFile(script, []byte(stdout), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := exec.LookPath(sh); err != nil {
			if sh == "bash" {
				t.Fatal("bash not found")
			}
			t.Logf("%s not installed: syntax not checked", sh)
			continue
		}
		if out, err := exec.Command(sh, "-n", script).CombinedOutput(); err != nil {
			t.Errorf("%s -n: %v\n%s", sh, err, out)
		}
	}
	// bash: completing `hudiscope timeline --ou` offers the output flags.
	stdout, _, _ := runCLI(t, "completion", "bash")
	script := fmt.Sprintf("%s\nCOMP_WORDS=(hudiscope timeline --ou); COMP_CWORD=2; _hudiscope; echo \"${COMPREPLY[@]}\"", stdout)
	out, err := exec.Command("bash", "-c", script).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--output --output-file") {
		t.Errorf("bash completion of --ou: %v %q", err, out)
	}
	// The man page has every command and the exit status section.
	man, _, code := runCLI(t, "man")
	for _, want := range []string{".TH HUDISCOPE 1", ".SS timeline", ".SS health", ".SH EXIT STATUS", "config.toml"} {
		if code != 0 || !strings.Contains(man, want) {
			t.Errorf("man page lacks %q", want)
		}
	}
}

// Defaults come from the configuration file; the command line wins; a typo is an error.
func TestConfigFile(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("HUDISCOPE_CONFIG", "")
	stdout, _, code := runCLI(t, "config", "path")
	want := filepath.Join(dir, "hudiscope", "config.toml")
	if code != 0 || stdout != want+" (not present)\n" {
		t.Fatalf("config path: %d %q", code, stdout)
	}
	if err := os.MkdirAll(filepath.Dir(want), 0o755); err != nil {
		t.Fatal(err)
	}
	table := fixture("incr-1.2.0")
	// [timeline] output = "json" applies to timeline only.
	if err := os.WriteFile(want, []byte("engine = \"spark\"\n[timeline]\noutput = \"json\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if stdout, _, _ := runCLI(t, "timeline", table); !strings.HasPrefix(stdout, "{") {
		t.Errorf("config output=json not applied: %.80q", stdout)
	}
	if stdout, _, _ := runCLI(t, "timeline", table, "-o", "text"); strings.HasPrefix(stdout, "{") {
		t.Error("the command line must win over the configuration file")
	}
	if stdout, _, _ := runCLI(t, "files", table); strings.HasPrefix(stdout, "{") {
		t.Error("a [timeline] key applied to files")
	}
	// Numbers in TOML reach int flags.
	if err := os.WriteFile(want, []byte("[layout]\nsmall-files-min-files-per-partition = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runCLI(t, "layout", table); code != 0 {
		t.Errorf("integer from config: %d %s", code, stderr)
	}
	if err := os.WriteFile(want, []byte("s3-endpont = \"http://x\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runCLI(t, "timeline", table); code != 2 || !strings.Contains(stderr, "s3-endpont") {
		t.Errorf("typo in config: %d %s", code, stderr)
	}
	if _, stderr, code := runCLI(t, "timeline", table, "--config", filepath.Join(dir, "missing.toml")); code != 2 || !strings.Contains(stderr, "missing.toml") {
		t.Errorf("--config missing: %d %s", code, stderr)
	}
}

// ctrl+c while waiting on a History Server that never answers ends the command with 130.
func TestInterruptIs130(t *testing.T) {
	hang := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-hang:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(hang)
	cmd := exec.Command(os.Args[0], "eventlog", "shs://"+strings.TrimPrefix(srv.URL, "http://")+"/app-1")
	cmd.Env = append(os.Environ(), "HUDISCOPE_RUN_MAIN=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	_ = cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("not interrupted within 10 s")
	}
	if code := cmd.ProcessState.ExitCode(); code != 130 || !strings.Contains(stderr.String(), "interrupted") {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}

// The exit-code table of the README, one row per command.
func TestExitCodes(t *testing.T) {
	table := fixture("incr-1.2.0")
	missing := filepath.Join(t.TempDir(), "nothing-here")
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"timeline", table}, 0},
		{[]string{"timeline", missing}, 1},
		{[]string{"timeline"}, 2},
		{[]string{"files", missing}, 1},
		{[]string{"checkpoint", table, "20261129155610512"}, 3},
		{[]string{"checkpoint", table, "20261129155625814"}, 0},
		{[]string{"checkpoint", missing, "1"}, 1},
		{[]string{"report", table, "--props", missing}, 1},
		{[]string{"report", table, "--event-log", missing}, 1},
		{[]string{"report", missing}, 1},
		{[]string{"layout", missing}, 1},
		{[]string{"layout", table, "-o", "yaml"}, 1},
		{[]string{"health", missing}, 2},
		{[]string{"health", table, "--checks", "nope"}, 2},
		{[]string{"health", table, "-o", "yaml"}, 2},
		{[]string{"health"}, 2},
		{[]string{"health", table}, 0}, // every check skipped: no writer properties
		{[]string{"health", "-sp", table, "--checks", "archival", "--hoodie-conf", "hoodie.keep.max.commits=2"}, 3},
		{[]string{"health", "--base-path", table, "--checks", "archival", "--hoodie-conf", "hoodie.keep.max.commits=many"}, 4},
		{[]string{"health", table, "--hoodie-conf", "hoodie.keep.max.commits=2", "--hoodie-conf", "hoodie.clean.trigger.max.commits=x"}, 4}, // 4 wins over 3
		{[]string{"eventlog", missing}, 2},
		{[]string{"eventlog"}, 2},
		{[]string{"open", missing}, 1},
		{[]string{"--no-such-flag", table}, 2},
	} {
		_, stderr, code := runCLI(t, c.args...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d: %s", c.args, code, c.code, stderr)
		}
	}
}
