package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/analyzers/config"
	"github.com/hudiscope/hudiscope/internal/testutil"
)

// exitCase is one cell of the README's exit-code tables: the command line, the code and a
// fragment of what it prints (stderr, else stdout).
type exitCase struct {
	row  string // the README row (command) the case belongs to
	why  string // the cell's wording
	args []string
	env  []string
	code int
	frag string
}

// runExit runs the command line in a child with extra environment.
func runExit(t *testing.T, env []string, args ...string) (string, string, int) {
	t.Helper()
	stdout, stderr, code, _ := runChild(t, env, 0, args...)
	return stdout, stderr, code
}

// runInPTY runs the command line on a pseudo-terminal (script(1)), typing keys after a
// second, for the explorer's rows.
func runInPTY(t *testing.T, env []string, keys string, args ...string) (string, int) {
	t.Helper()
	if _, err := exec.LookPath("script"); err != nil {
		t.Skip("script(1) not installed: no pseudo-terminal for the explorer")
	}
	cmd := exec.Command("script", "-qec", os.Args[0]+" "+strings.Join(args, " "), "/dev/null")
	cmd.Env = append(append(os.Environ(), "HUDISCOPE_RUN_MAIN=1", "NO_COLOR=1", "TERM=xterm-256color"), env...)
	pr, pw := io.Pipe()
	cmd.Stdin = pr
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(3 * time.Second)
		io.WriteString(pw, keys)
		pw.Close()
	}()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("%v did not end", args)
	}
	return out.String(), cmd.ProcessState.ExitCode()
}

// brokenTimelineTable is a directory copy of a fixture whose timeline directory is a file:
// nothing of the table past hoodie.properties can be read. (Tests run as root here, so a
// chmod 000 directory would still be readable.)
func brokenTimelineTable(t *testing.T) string {
	t.Helper()
	dir := testutil.UnzipTable(t, fixture("cow-services-1.2.0"), t.TempDir())
	tl := filepath.Join(dir, ".hoodie", "timeline")
	if err := os.RemoveAll(tl); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tl, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// mdtMismatchTable is a directory copy of cow-services-1.2.0 with one data file the metadata
// table lists removed from storage.
func mdtMismatchTable(t *testing.T) string {
	t.Helper()
	dir := testutil.UnzipTable(t, fixture("cow-services-1.2.0"), t.TempDir())
	if err := os.Remove(filepath.Join(dir, "2024-01-01", "ec19a719-ac83-432a-9c0f-0186909cbb94-0_2-994-3306_20261129161754717.parquet")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Every row and cell of README.md's "Exit codes" and "Exit codes per command" tables, except
// 130, which TestExitCodeInterrupted covers with a signal to a running child.
func TestExitCodesPerREADME(t *testing.T) {
	table := fixture("cow-services-1.2.0")
	mor := fixture("mor-services-1.2.0")
	eventLog := filepath.Join("..", "testdata", "fixtures", "cow-services-1.2.0", "eventlog_v2_local-1795968726856")
	tmp := t.TempDir()
	fifo := filepath.Join(tmp, "events.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	damaged := filepath.Join(tmp, "damaged.json")
	os.WriteFile(damaged, []byte("{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.0\"}\nnot json\n"), 0o644)
	junk := filepath.Join(tmp, "junk.txt")
	os.WriteFile(junk, []byte("hello\n"), 0o644)
	pathsFile := filepath.Join(tmp, "paths")
	abs, _ := filepath.Abs(table)
	os.WriteFile(pathsFile, []byte(abs+"\n/nonexistent/table\n"), 0o644)
	broken := brokenTimelineTable(t)
	noBundle := "HUDISCOPE_HUDI_LIB=" + t.TempDir()
	incr := fixture("incr-1.0.2")
	c1Completion, _ := c1Times(t, incr)
	notWritable := "/nonexistent/dir/out.md"
	const missing = "/nonexistent/input"
	zstdLog := filepath.Join("..", "testdata", "fixtures", "cdc-0.15.0", "local-1796078932238.zstd")
	pairBefore, pairAfter := pairLogs(t)

	cases := []exitCase{
		// The general table.
		{"general", "0 success", []string{"timeline", table}, nil, 0, "28 instants"},
		{"general", "1 an input could not be read (names the file)", []string{"timeline", missing}, nil, 1, missing},
		{"general", "2 a bare hudiscope prints the usage", nil, nil, 2, "Usage: hudiscope"},
		{"general", "2 bad arguments", []string{"timeline", table, "--bogus"}, nil, 2, "unknown flag --bogus"},

		// open (0 and 70 run on a pseudo-terminal below).
		{"open", "1 the table could not be opened", []string{"open", missing}, nil, 1, missing},
		{"open", "1 --event-log could not be opened", []string{"open", table, "--event-log", missing}, nil, 1, missing},
		{"open", "1 --props could not be read", []string{"--props", missing, table}, nil, 1, "read --props: open " + missing + ": no such file or directory"},
		{"open", "1 --props is not a properties file (a zstd event log)", []string{"--props", zstdLog, table}, nil, 1,
			"read --props: " + zstdLog + ": not a properties file: binary content (byte 0x00 at offset 4)"},
		{"health", "2 --props is not a properties file", []string{"health", table, "--props", zstdLog}, nil, 2, "not a properties file: binary content"},
		{"report", "1 --props is not a properties file", []string{"report", table, "--props", zstdLog}, nil, 1, "not a properties file: binary content"},
		{"fleet", "1 --props is not a properties file", []string{"fleet", tmp, "--props", zstdLog}, nil, 1, "not a properties file: binary content"},
		{"open", "1 --log-file could not be opened", []string{"open", table, "--log-file", notWritable}, nil, 1, "log file: open " + notWritable},
		{"open", "2 bad arguments", []string{"open", table, "--bogus"}, nil, 2, "unknown flag --bogus"},

		// timeline, files
		{"timeline", "0 success", []string{"timeline", table}, nil, 0, "28 instants"},
		{"timeline", "1 the table could not be read", []string{"timeline", broken}, nil, 1, ".hoodie/timeline"},
		{"timeline", "2 bad arguments", []string{"timeline"}, nil, 2, "expected \"<table>\""},
		{"timeline", "70 internal error", []string{"timeline", table}, []string{testPanicEnv + "=timeline"}, 70, reportHint},
		{"files", "0 success", []string{"files", table}, nil, 0, "cow_services"},
		{"files", "1 the table could not be read", []string{"files", missing}, nil, 1, missing},
		{"files", "2 bad arguments", []string{"files", table, "--bogus"}, nil, 2, "unknown flag --bogus"},
		{"files", "70 internal error", []string{"files", table}, []string{testPanicEnv + "=files"}, 70, reportHint},

		// checkpoint
		{"checkpoint", "0 VALUE is a safe begin time", []string{"checkpoint", incr, c1Completion, "--hudi-version", "1.2.0"}, []string{noBundle}, 0, "covers 2 instant(s)"},
		{"checkpoint", "1 the table could not be read", []string{"checkpoint", missing, "20240101000000000"}, nil, 1, missing},
		{"checkpoint", "2 bad arguments", []string{"checkpoint", table}, nil, 2, "expected \"<value>\""},
		{"checkpoint", "2 bad arguments", []string{"checkpoint", table, "last-night"}, nil, 2, "checkpoint value \"last-night\" is not an instant time"},
		{"checkpoint", "3 VALUE would re-read its own instant", []string{"checkpoint", incr, c1Completion, "--hudi-version", "1.0.2"}, []string{noBundle}, 3, "RE-READ"},
		{"checkpoint", "70 internal error", []string{"checkpoint", table, "20240101000000000"}, []string{testPanicEnv + "=checkpoint"}, 70, reportHint},

		// report
		{"report", "0 success", []string{"report", table}, nil, 0, "cow_services"},
		{"report", "1 the table could not be read", []string{"report", missing}, nil, 1, missing},
		{"report", "1 the timeline could not be read (nothing past the properties loads)", []string{"report", broken}, nil, 1, ".hoodie/timeline"},
		{"report", "1 --props could not be read", []string{"report", table, "--props", missing}, nil, 1, "read --props: open " + missing},
		{"report", "1 the event log could not be read", []string{"report", table, "--event-log", missing}, nil, 1, missing},
		{"report", "1 the event log is a FIFO", []string{"report", table, "--event-log", fifo}, nil, 1, "is a named pipe (FIFO)"},
		{"report", "1 --output-file not writable", []string{"report", table, "--output-file", notWritable}, nil, 1, notWritable},
		{"report", "2 bad arguments", []string{"report", table, "--bogus"}, nil, 2, "unknown flag --bogus"},
		{"report", "70 internal error", []string{"report", table}, []string{testPanicEnv + "=report"}, 70, reportHint},

		// layout
		{"layout", "0 success", []string{"layout", table}, nil, 0, "numFiles=5"},
		{"layout", "1 unreadable table", []string{"layout", missing}, nil, 1, missing},
		{"layout", "1 bad --output", []string{"layout", table, "--output", "BOGUS"}, nil, 1, "--output must be one of"},
		{"layout", "1 no base path", []string{"layout"}, nil, 1, "base path needs to be set"},
		{"layout", "1 one of several --props-path tables failed", []string{"layout", "--props-path", pathsFile}, nil, 1, "layout failed for 1 of 2 tables: /nonexistent/table"},
		{"layout", "2 parse errors", []string{"layout", table, "--top-n", "x"}, nil, 2, "--top-n"},
		{"layout", "70 internal error", []string{"layout", table}, []string{testPanicEnv + "=layout"}, 70, reportHint},

		// health
		{"health", "0 every check HEALTHY or SKIPPED", []string{"health", table}, nil, 0, "HEALTHY"},
		{"health", "2 the table is unreadable", []string{"health", missing}, nil, 2, missing},
		{"health", "2 an unknown check", []string{"health", table, "--checks", "nosuch"}, nil, 2, `unknown check "nosuch"`},
		{"health", "2 bad --output", []string{"health", table, "--output", "BOGUS"}, nil, 2, "--output must be one of"},
		{"health", "2 bad arguments", []string{"health"}, nil, 2, "base path needs to be set"},
		{"health", "3 at least one check UNHEALTHY", []string{"health", table, "--hoodie-conf", "hoodie.keep.max.commits=2"}, nil, 3, "UNHEALTHY"},
		{"health", "4 a check failed to run (wins over 3)", []string{"health", mor, "--hoodie-conf", "hoodie.compact.inline.trigger.strategy=BOGUS",
			"--hoodie-conf", "hoodie.compact.inline.max.delta.commits=5", "--hoodie-conf", "hoodie.keep.max.commits=2"}, nil, 4, "CompactionTriggerStrategy.BOGUS"},
		{"health", "70 internal error", []string{"health", table}, []string{testPanicEnv + "=health"}, 70, reportHint},

		// metadata
		{"metadata", "0 validate-files: the listings match", []string{"metadata", "validate-files", table}, nil, 0, "MATCH: the metadata table lists the same 98 file(s)"},
		{"metadata", "0 stats", []string{"metadata", "stats", table}, nil, 0, "partition_stats"},
		{"metadata", "0 timeline", []string{"metadata", "timeline", table}, nil, 0, "in sync"},
		{"metadata", "1 the table could not be read", []string{"metadata", "stats", missing}, nil, 1, missing},
		{"metadata", "1 no metadata table", []string{"metadata", "timeline", fixture("cow-v4-0.11.1")}, nil, 1, "the table has no metadata table"},
		{"metadata", "2 bad arguments", []string{"metadata", "validate-files"}, nil, 2, "expected \"<table>\""},
		{"metadata", "3 a mismatch", []string{"metadata", "validate-files", mdtMismatchTable(t)}, nil, 3, "MISMATCH: 1 file(s) differ — 1 missing on storage"},
		{"metadata", "70 internal error", []string{"metadata", "stats", table}, []string{testPanicEnv + "=metadata"}, 70, reportHint},

		// eventlog
		{"eventlog", "0 success", []string{"eventlog", eventLog}, nil, 0, "local-1795968726856"},
		{"eventlog", "0 also when lines are damaged (reported as damage with the line)", []string{"eventlog", damaged, "-o", "json"}, nil, 0, `"line": 2`},
		{"eventlog", "2 missing event log", []string{"eventlog"}, nil, 2, "missing event log"},
		{"eventlog", "2 missing event log file", []string{"eventlog", missing}, nil, 2, missing},
		{"eventlog", "2 unreadable event log (a FIFO)", []string{"eventlog", fifo}, nil, 2, "is a named pipe (FIFO)"},
		{"eventlog", "2 unparseable event log", []string{"eventlog", junk}, nil, 2, "no parseable Spark events"},
		{"eventlog", "2 conflicting arguments", []string{"eventlog", eventLog, "--event-log", damaged}, nil, 2, "not both"},
		{"eventlog", "2 --output-file not writable", []string{"eventlog", eventLog, "--output-file", notWritable}, nil, 2, notWritable},
		{"eventlog", "70 internal error", []string{"eventlog", eventLog}, []string{testPanicEnv + "=eventlog"}, 70, reportHint},
		// verify on the eventlog-pair fixtures (hoodie.upsert.shuffle.parallelism 200 -> 2)
		{"verify", "0 moved as predicted", []string{"verify", "OBS-009", "--before", pairBefore, "--after", pairAfter}, nil, 0, "MOVED AS PREDICTED"},
		{"verify", "1 an event log could not be read", []string{"verify", "OBS-009", "--before", missing, "--after", pairAfter}, nil, 1, missing},
		{"verify", "2 an unknown row", []string{"verify", "OBS-099", "--before", pairBefore, "--after", pairAfter}, nil, 2, "no catalog row"},
		{"verify", "2 an instant time instead of a log", []string{"verify", "OBS-009", "--before", "20240101000000000", "--after", pairAfter}, nil, 2, "looks like an instant time"},
		{"verify", "1 the --table could not be read", []string{"verify", "OBS-003", "--table", missing, "--before", "latest", "--after", "latest"}, nil, 1, missing},
		{"verify", "2 --table with an event log instead of instants", []string{"verify", "OBS-003", "--table", table, "--before", pairBefore, "--after", "latest"}, nil, 2, "with --table, --before and --after are instants"},
		{"verify", "0 moved as predicted (two instants: clustering)", []string{"verify", "OBS-003", "--table", table, "--before", "20261129162031337", "--after", "20261129162054490"}, nil, 0, "MOVED AS PREDICTED"},
		{"verify", "5 unknown (an instant not completed)", []string{"verify", "OBS-015", "--table", mor, "--before", "20261129163053361", "--after", "latest"}, nil, 5, "is requested, not completed"},
		{"verify", "3 no change", []string{"verify", "OBS-002", "--before", pairBefore, "--after", pairAfter}, nil, 3, "NO CHANGE"},
		{"verify", "4 moved the wrong way", []string{"verify", "OBS-006", "--before", pairAfter, "--after", pairBefore}, nil, 4, "MOVED THE WRONG WAY"},
		{"verify", "5 unknown", []string{"verify", "OBS-001", "--before", pairBefore, "--after", pairAfter}, nil, 5, "not verifiable from an event log"},
	}
	for _, c := range cases {
		t.Run(c.row+"/"+c.why, func(t *testing.T) {
			t.Parallel()
			stdout, stderr, code := runExit(t, c.env, c.args...)
			if code != c.code {
				t.Errorf("%v: exit %d, want %d\nstderr: %.500s", c.args, code, c.code, stderr)
			}
			if !strings.Contains(stderr, c.frag) && !strings.Contains(stdout, c.frag) {
				t.Errorf("%v: output lacks %q\nstdout: %.300s\nstderr: %.500s", c.args, c.frag, stdout, stderr)
			}
			if c.code == 70 && strings.Contains(stderr, "panic: ") {
				t.Errorf("raw panic output: %.300s", stderr)
			}
		})
	}

	// open: 0 quit normally and 70 internal error (the terminal restored first), on a pty.
	t.Run("open/0 quit normally", func(t *testing.T) {
		out, code := runInPTY(t, nil, "q", "open", table)
		if code != 0 {
			t.Errorf("exit %d\n%.500s", code, out)
		}
	})
	t.Run("open/70 internal error", func(t *testing.T) {
		out, code := runInPTY(t, []string{testPanicEnv + "=open"}, "", "open", table)
		if code != 70 || !strings.Contains(out, reportHint) {
			t.Errorf("exit %d\n%.800s", code, out)
		}
	})
}

// hangingServer answers nothing: each request blocks until the client goes away. started
// receives once per request.
func hangingServer(t *testing.T) (*httptest.Server, chan struct{}) {
	started := make(chan struct{}, 64)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		started <- struct{}{}
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	return srv, started
}

// tricklingSHS serves the start of a zip and then a byte every 100 ms, forever: a History
// Server download in progress.
func tricklingSHS(t *testing.T) (*httptest.Server, chan struct{}) {
	started := make(chan struct{}, 64)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write(bytes.Repeat([]byte("PK"), 32<<10))
		w.(http.Flusher).Flush()
		started <- struct{}{}
		for r.Context().Err() == nil {
			if _, err := w.Write([]byte{0}); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			time.Sleep(100 * time.Millisecond)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, started
}

// signalWhen starts the command line, waits for ready, sends sig and returns the exit code
// and stderr.
func signalWhen(t *testing.T, env []string, ready <-chan struct{}, sig os.Signal, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), "HUDISCOPE_RUN_MAIN=1", "NO_COLOR=1"), env...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("%v ended before the signal (%v): %s", args, err, errb.String())
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("%v never got going", args)
	}
	cmd.Process.Signal(sig)
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("%v ignored %v", args, sig)
	}
	return cmd.ProcessState.ExitCode(), errb.String()
}

// 130 for every command that has it in the README: ctrl+c (SIGINT), SIGTERM, SIGHUP or SIGQUIT
// while the command waits on storage (an S3 endpoint that never answers) or on a History
// Server download. A signal mid-download leaves no temporary zip behind.
func TestExitCodeInterrupted(t *testing.T) {
	tmpdir := t.TempDir()
	s3, s3started := hangingServer(t)
	shs, shsStarted := tricklingSHS(t)
	env := []string{"AWS_ACCESS_KEY_ID=AKIDTEST", "AWS_SECRET_ACCESS_KEY=SECRETTEST", "AWS_EC2_METADATA_DISABLED=true",
		"AWS_CONFIG_FILE=" + filepath.Join(tmpdir, "none"), "AWS_SHARED_CREDENTIALS_FILE=" + filepath.Join(tmpdir, "none"),
		"TMPDIR=" + tmpdir, "HUDISCOPE_HUDI_LIB=" + tmpdir}
	s3args := func(cmd string, rest ...string) []string {
		return append(append([]string{cmd, "s3://lake/t"}, rest...), "--s3-endpoint", s3.URL, "--s3-region", "us-east-1", "--cluster-defaults", "-")
	}
	shsURL := "shs://" + strings.TrimPrefix(shs.URL, "http://") + "/app-1"
	for _, c := range []struct {
		args  []string
		ready chan struct{}
		sig   os.Signal
	}{
		{s3args("timeline"), s3started, os.Interrupt},
		{s3args("files"), s3started, syscall.SIGTERM},
		{s3args("checkpoint", "20240101000000000"), s3started, os.Interrupt},
		{s3args("report"), s3started, syscall.SIGTERM},
		{s3args("layout"), s3started, os.Interrupt},
		{s3args("health"), s3started, syscall.SIGTERM},
		{s3args("snapshot", "--count"), s3started, os.Interrupt},
		{s3args("incremental", "--begin", "000", "--count"), s3started, syscall.SIGTERM},
		{s3args("changes", "--begin", "earliest"), s3started, os.Interrupt},
		{[]string{"fleet", "s3://lake/", "--s3-endpoint", s3.URL, "--s3-region", "us-east-1", "--cluster-defaults", "-"}, s3started, syscall.SIGTERM},
		{[]string{"eventlog", shsURL}, shsStarted, os.Interrupt},
		{[]string{"eventlog", shsURL}, shsStarted, syscall.SIGTERM},
		{[]string{"report", fixture("cow-services-1.2.0"), "--event-log", shsURL}, shsStarted, syscall.SIGTERM},
		// Issue 31: SIGHUP (an SSH connection dropping) and SIGQUIT ended the process with the
		// Go runtime's default (129; 2 and a goroutine dump), leaving hudiscope-shs-*.zip behind.
		{[]string{"eventlog", shsURL}, shsStarted, syscall.SIGHUP},
		{[]string{"eventlog", shsURL}, shsStarted, syscall.SIGQUIT},
		{[]string{"report", fixture("cow-services-1.2.0"), "--event-log", shsURL}, shsStarted, syscall.SIGHUP},
		{s3args("timeline"), s3started, syscall.SIGHUP},
		{s3args("health"), s3started, syscall.SIGQUIT},
	} {
		t.Run(fmt.Sprintf("%s %v", c.args[0], c.sig), func(t *testing.T) {
			// Requests of the previous case (the SDK retries) must not count as this one's start.
			for len(c.ready) > 0 {
				<-c.ready
			}
			code, stderr := signalWhen(t, env, c.ready, c.sig, c.args...)
			if code != exitInterrupted || !strings.Contains(stderr, "interrupted") {
				t.Errorf("%v: exit %d, want 130\n%.500s", c.args, code, stderr)
			}
			if m, _ := filepath.Glob(filepath.Join(tmpdir, "hudiscope-shs-*")); len(m) != 0 {
				t.Errorf("temporary downloads left: %v", m)
			}
		})
	}
}

// ctrl+c while a local event log is being decoded exits 130, never 2 (the eventlog command's
// code for an unreadable log). --progress says when reading has begun.
func TestEventlogInterruptedMidRead(t *testing.T) {
	src := filepath.Join("..", "testdata", "fixtures", "cow-services-1.2.0", "eventlog_v2_local-1795968726856")
	dir := filepath.Join(t.TempDir(), "eventlog_v2_local-1")
	os.Mkdir(dir, 0o755)
	// 40 rolling parts (the fixture's five, eight times over): long enough to be mid-read.
	parts, _ := filepath.Glob(filepath.Join(src, "events_*"))
	n := 0
	for range 8 {
		for _, p := range parts {
			n++
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(dir, fmt.Sprintf("events_%d_local-1.zstd", n)), b, 0o644)
		}
	}
	for _, sig := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
		cmd := exec.Command(os.Args[0], "eventlog", dir, "--progress")
		cmd.Env = append(os.Environ(), "HUDISCOPE_RUN_MAIN=1", "NO_COLOR=1")
		stderr, _ := cmd.StderrPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		br := bufio.NewReader(stderr)
		if _, err := br.ReadString('\r'); err != nil { // the first progress line
			t.Fatal(err)
		}
		time.Sleep(10 * time.Millisecond)
		cmd.Process.Signal(sig)
		rest, _ := io.ReadAll(br)
		cmd.Wait()
		if code := cmd.ProcessState.ExitCode(); code != exitInterrupted || !bytes.Contains(rest, []byte("hudiscope: interrupted")) {
			t.Errorf("%v mid-read: exit %d, want 130\n%.400s", sig, code, rest)
		}
	}
}

// TestOpenChecksProps: the explorer's check before the terminal is taken is config.ReadProps,
// the same read every command's config step does: the same error for the same file.
func TestOpenChecksProps(t *testing.T) {
	zstdLog := filepath.Join("..", "testdata", "fixtures", "cdc-0.15.0", "local-1796078932238.zstd")
	props := filepath.Join("..", "testdata", "fixtures", "cow-services-1.2.0", "writer.properties")
	missing := filepath.Join(t.TempDir(), "gone.properties")
	for _, p := range []string{zstdLog, missing} {
		err := (&OpenCmd{TableFlags: TableFlags{Props: p}}).checkProps()
		_, want := config.ReadProps(p)
		if err == nil || want == nil || err.Error() != want.Error() {
			t.Errorf("checkProps(%s) = %v, want %v", p, err, want)
		}
	}
	if err := (&OpenCmd{TableFlags: TableFlags{Props: props}}).checkProps(); err != nil {
		t.Errorf("writer.properties: %v", err)
	}
	if err := (&OpenCmd{}).checkProps(); err != nil {
		t.Errorf("no --props: %v", err)
	}
}
