package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain lets tests run the real command line: with HUDISCOPE_RUN_MAIN=1 the test binary is
// hudiscope itself (no second build, same coverage).
func TestMain(m *testing.M) {
	if os.Getenv("HUDISCOPE_RUN_MAIN") == "1" {
		registerSlowStorage(os.Getenv("HUDISCOPE_TEST_SLOW_LIST"))
		code := Main(os.Args[1:])
		if f := os.Getenv("HUDISCOPE_PEAK_RSS_FILE"); f != "" {
			writePeakRSS(f)
		}
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// writePeakRSS writes this process's VmHWM (kB) to path. rusage's ru_maxrss of a child also
// counts the parent's resident size at the fork (Linux carries the old mm's high-water mark
// across exec, and Go forks with the parent's memory), so a test binary that built a bomb in
// memory would read its own size back; VmHWM belongs to the exec'd image alone.
func writePeakRSS(path string) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			os.WriteFile(path, []byte(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB"))), 0o644)
			return
		}
	}
}

// runCLI runs hudiscope with args and returns stdout, stderr and the exit code.
func runCLI(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	stdout, stderr, code, _ := runCLIRusage(t, args...)
	return stdout, stderr, code
}

type badCase struct {
	Why    string   `json:"why"`
	Args   []string `json:"args"`
	Exit   int      `json:"exit"`
	Stderr string   `json:"stderr"`
	Stdout string   `json:"stdout"`
}

// Every case of the bad-input corpus (testdata/bad, made by `go run ./testdata/bad/gen`) gives
// its documented exit code and a message naming the damaged file, never a panic; the parts that
// are not damaged still load.
func TestBadInputCorpus(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join("..", "testdata", "bad", "*", "case.json"))
	if len(dirs) < 40 {
		t.Fatalf("bad-input corpus has %d cases, want at least 40", len(dirs))
	}
	for _, cj := range dirs {
		dir := filepath.Dir(cj)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var c badCase
			b, _ := os.ReadFile(cj)
			if err := json.Unmarshal(b, &c); err != nil {
				t.Fatal(err)
			}
			args := make([]string, len(c.Args))
			for i, a := range c.Args {
				args[i] = strings.ReplaceAll(a, "{case}", dir)
			}
			stdout, stderr, code := runCLI(t, args...)
			if code != c.Exit {
				t.Errorf("%s\nexit %d, want %d\nstderr: %.600s", c.Why, code, c.Exit, stderr)
			}
			if c.Stderr != "" && !strings.Contains(stderr, c.Stderr) {
				t.Errorf("%s\nstderr lacks %q:\n%.600s", c.Why, c.Stderr, stderr)
			}
			if c.Stdout != "" && !strings.Contains(stdout, c.Stdout) {
				t.Errorf("%s\nstdout lacks %q:\n%.600s", c.Why, c.Stdout, stdout)
			}
			for _, s := range []string{stdout, stderr} {
				if strings.Contains(s, "goroutine ") || strings.Contains(s, "panic:") || strings.Contains(s, "internal error") {
					t.Errorf("%s: crashed:\n%.800s", c.Why, s)
				}
			}
		})
	}
}

// The JSON shapes of `timeline --json` and `files --json` are a contract (issue 3): every
// named field is present, with the documented value kinds.
func TestJSONContracts(t *testing.T) {
	table := filepath.Join("..", "testdata", "fixtures", "cow-services-1.2.0", "table.zip")
	stdout, stderr, code := runCLI(t, "timeline", "--archived", "--json", table)
	if code != 0 {
		t.Fatalf("timeline: %d %s", code, stderr)
	}
	var tl struct {
		Table    map[string]any   `json:"table"`
		Instants []map[string]any `json:"instants"`
	}
	if err := json.Unmarshal([]byte(stdout), &tl); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"name", "type", "version", "basePath", "partitionFields", "recordKeyFields", "keyGenerator", "cdcEnabled", "cdcSupplementalLoggingMode"} {
		if _, ok := tl.Table[k]; !ok {
			t.Errorf("table.%s missing", k)
		}
	}
	if tl.Table["type"] != "COPY_ON_WRITE" || tl.Table["version"] != 9.0 || tl.Table["name"] != "cow_services" {
		t.Errorf("table = %v", tl.Table)
	}
	archived := 0
	for _, in := range tl.Instants {
		for _, k := range []string{"requestedTime", "completionTime", "completionTimeDerived", "action", "state", "archived", "operation",
			"numWrites", "numInserts", "numUpdateWrites", "numDeletes", "totalBytesWritten", "fileCount", "partitionCount"} {
			if _, ok := in[k]; !ok {
				t.Fatalf("instant field %s missing: %v", k, in)
			}
		}
		switch in["state"] {
		case "REQUESTED", "INFLIGHT", "COMPLETED":
		default:
			t.Errorf("state %v", in["state"])
		}
		if in["archived"] == true {
			archived++
		}
	}
	// 28 active instants (12 commits, 12 cleans, 2 replacecommits, a rollback, a savepoint) and the
	// LSM history's archived ones (30 writes per show_archived_commits, plus cleans).
	if len(tl.Instants) < 58 || archived < 30 {
		t.Errorf("instants %d archived %d", len(tl.Instants), archived)
	}

	stdout, _, code = runCLI(t, "files", "--json", table)
	if code != 0 {
		t.Fatal("files failed")
	}
	var files struct {
		Partitions []struct {
			Path       string `json:"path"`
			FileGroups []struct {
				FileID   string `json:"fileId"`
				BaseFile *struct {
					Name    string `json:"name"`
					Size    int64  `json:"size"`
					Instant string `json:"instant"`
				} `json:"baseFile"`
				LogFiles []struct {
					Name string `json:"name"`
					Size int64  `json:"size"`
				} `json:"logFiles"`
				Pending any `json:"pending"`
			} `json:"fileGroups"`
		} `json:"partitions"`
	}
	if err := json.Unmarshal([]byte(stdout), &files); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, `"pending"`) || !strings.Contains(stdout, `"logFiles"`) {
		t.Error("pending/logFiles keys missing")
	}
	if len(files.Partitions) != 3 {
		t.Errorf("partitions = %d", len(files.Partitions))
	}
	for _, p := range files.Partitions {
		for _, g := range p.FileGroups {
			if g.FileID == "" || g.BaseFile == nil || g.BaseFile.Size <= 0 || !strings.Contains(g.BaseFile.Name, g.FileID) {
				t.Errorf("%s: bad group %+v", p.Path, g)
			}
		}
	}
}

// The Java tools' single-dash flag words work as they are pasted from a spark-submit line.
func TestJavaStyleFlags(t *testing.T) {
	table := filepath.Join("..", "testdata", "fixtures", "incr-1.2.0", "table.zip")
	a, _, c1 := runCLI(t, "layout", table, "-o", "JSON", "-irc", "-atc")
	b, _, c2 := runCLI(t, "layout", table, "--output", "JSON", "--include-row-counts", "--analyze-table-characteristics")
	if c1 != 0 || c2 != 0 || a != b || !strings.Contains(a, `"totalRecords": 4`) {
		t.Errorf("exit %d/%d; single-dash and long forms differ or lack totalRecords 4:\n%.400s", c1, c2, a)
	}
	if got := javaStyleFlags([]string{"timeline", "-ab"}); got[1] != "-ab" {
		t.Errorf("rewrote a non-Java-tool command: %v", got)
	}
}

// runCLIRusage is runCLI that also returns the child's peak resident set size in bytes.
func runCLIRusage(t *testing.T, args ...string) (string, string, int, int64) {
	t.Helper()
	return runChild(t, nil, 0, args...)
}

// runChild runs hudiscope in a child with extra environment and returns stdout, stderr, the
// exit code and the child's peak resident set size in bytes (its own VmHWM when it exits
// through Main, else rusage's upper bound). With killRSS > 0 a watchdog
// kills the child past that resident size or after a minute and fails the test, so a
// regression fails instead of taking the machine's memory.
func runChild(t *testing.T, env []string, killRSS int64, args ...string) (string, string, int, int64) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	peakFile := filepath.Join(t.TempDir(), "peak-rss")
	cmd.Env = append(append(os.Environ(), "HUDISCOPE_RUN_MAIN=1", "NO_COLOR=1", "HUDISCOPE_PEAK_RSS_FILE="+peakFile), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	killed := make(chan string, 1)
	if killRSS > 0 {
		go watchChild(cmd.Process, killRSS, done, killed)
	}
	err := cmd.Wait()
	close(done)
	select {
	case why := <-killed:
		t.Fatalf("%s: %s", strings.Join(args, " "), why)
	default:
	}
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	var rss int64
	if b, err := os.ReadFile(peakFile); err == nil {
		if kb, err := strconv.ParseInt(string(b), 10, 64); err == nil {
			rss = kb * 1024
		}
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && rss == 0 {
		rss = int64(ru.Maxrss) * 1024 // KiB on Linux; an upper bound (it counts the parent at the fork)
	}
	return out.String(), errb.String(), code, rss
}

// watchChild kills p once its resident size passes killRSS or after a minute, saying why on
// killed; it stops when done closes.
func watchChild(p *os.Process, killRSS int64, done <-chan struct{}, killed chan<- string) {
	deadline := time.Now().Add(time.Minute)
	statm := fmt.Sprintf("/proc/%d/statm", p.Pid)
	for {
		select {
		case <-done:
			return
		case <-time.After(20 * time.Millisecond):
		}
		var size, resident int64
		if b, err := os.ReadFile(statm); err == nil {
			fmt.Sscan(string(b), &size, &resident)
		}
		if rss := resident * int64(os.Getpagesize()); rss > killRSS {
			p.Kill()
			killed <- fmt.Sprintf("killed at %d MB RSS", rss>>20)
			return
		}
		if time.Now().After(deadline) {
			p.Kill()
			killed <- "killed after a minute"
			return
		}
	}
}
