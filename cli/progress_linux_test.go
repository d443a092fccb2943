package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// progressTable is index-simple-1.2.0 (8 partitions, 116 data files of which 104 are latest
// base files) with extra partitions of one empty base file each, named by the table's first
// commit: enough directories that a storage listing (--no-mdt) outlasts the progress line's
// first 100 ms. It returns the directory and the number of data files a listing finds.
func progressTable(t *testing.T, extra int) (string, int) {
	t.Helper()
	dir := unzipFixture(t, "index-simple-1.2.0")
	meta, err := os.ReadFile(filepath.Join(dir, "2024-01-06", ".hoodie_partition_metadata"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range extra {
		p := filepath.Join(dir, fmt.Sprintf("p%05d", i))
		if err := os.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p, ".hoodie_partition_metadata"), meta, 0o644); err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("%08x-0000-0000-0000-000000000000-0_0-20-18_20261129163949371.parquet", i)
		if err := os.WriteFile(filepath.Join(p, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, 116 + extra
}

// ptyBoth runs hudiscope with stdout and stderr on one pseudo-terminal, as an interactive
// shell does, and returns what the terminal received in order and the exit code.
func ptyBoth(t *testing.T, env []string, args ...string) (string, int) {
	t.Helper()
	m, s := openPTY(t)
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = cleanEnv(append(append(os.Environ(), "HUDISCOPE_RUN_MAIN=1", "NO_COLOR=1", "HUDISCOPE_PAGER", "PAGER", "LESS", "LV"), env...))
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, s, s
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out := drainPTY(m)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitErr := make(chan error, 1)
	go func() { waitErr <- cmd.Wait() }()
	var err error
	select {
	case err = <-waitErr:
	case <-time.After(90 * time.Second):
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		t.Fatal("hudiscope did not exit")
	}
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	s.Close()
	select {
	case got := <-out:
		return got, code
	case <-time.After(5 * time.Second):
		t.Fatal("the pseudo-terminal's master did not end")
		return "", code
	}
}

var drawnCount = regexp.MustCompile(`\r\x1b\[Klisting ([0-9,]+) files…`)

// TestProgressOnTerminal: a layout of a 416-file table listed from storage, 20 ms a directory
// (slow://), shows "listing N
// files…" on a terminal's stderr, redrawn in place, and clears it ("\r\x1b[K") before the
// report starts on stdout (the output, which may be a pager, opens after the load); with
// stderr not a terminal the same run writes nothing to stderr and the same report to stdout.
func TestProgressOnTerminal(t *testing.T) {
	dir, files := progressTable(t, 300)
	args := []string{"layout", "slow://" + dir, "--no-mdt", "--enable-table-stats"}
	env := []string{"HUDISCOPE_PAGER=", "HUDISCOPE_TEST_SLOW_LIST=20ms"}
	term, code := ptyBoth(t, env, args...)
	if code != 0 {
		t.Fatalf("exit %d: %q", code, term)
	}
	draws := drawnCount.FindAllStringSubmatchIndex(term, -1)
	if len(draws) == 0 {
		t.Fatalf("no progress line on the terminal:\n%q", head(term))
	}
	t.Logf("%d drawings", len(draws))
	last := draws[len(draws)-1]
	n := strings.ReplaceAll(term[last[2]:last[3]], ",", "")
	var shown int
	fmt.Sscan(n, &shown)
	if shown <= 0 || shown > files {
		t.Errorf("last drawn count %d, want 1..%d files", shown, files)
	}
	rest := term[last[1]:]
	if !strings.HasPrefix(rest, "\r\x1b[K") {
		t.Fatalf("the progress line is not cleared right after its last drawing: %q", head(rest))
	}
	report := rest[len("\r\x1b[K"):]
	if strings.Contains(report, "listing ") || strings.Contains(report, "\x1b[K") {
		t.Errorf("progress drawn after the report started: %q", head(report))
	}

	// Stderr not a terminal: nothing on it, and stdout is the report the terminal got.
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = cleanEnv(append(append(os.Environ(), "HUDISCOPE_RUN_MAIN=1", "NO_COLOR=1", "HUDISCOPE_PAGER", "PAGER"), env...))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	if stderr.Len() != 0 {
		t.Errorf("stderr not a terminal got %q", head(stderr.String()))
	}
	// 104 latest base files of the fixture and the 300 added, in 8 + 300 partitions.
	if !strings.Contains(report, "numPartitions=308  totalFiles=404") {
		t.Errorf("report %q", head(report))
	}
	if stdout.String() != report {
		t.Errorf("piped report differs from the terminal's:\n%s\nterminal:\n%s", head(stdout.String()), head(report))
	}
}

// head is the start of s, for messages.
func head(s string) string {
	if len(s) > 600 {
		return s[:600] + "…"
	}
	return s
}

// TestProgressSlicesOnTerminal: duplicates on dups-1.1.1 (11 file groups, 20 ms a listing
// and a file opened) draws "reading N file slices…" after the listing, clears it before the
// report, and exits 3 (duplicates found) as without a terminal.
func TestProgressSlicesOnTerminal(t *testing.T) {
	dir := unzipFixture(t, "dups-1.1.1")
	env := []string{"HUDISCOPE_PAGER=", "HUDISCOPE_TEST_SLOW_LIST=20ms"}
	term, code := ptyBoth(t, env, "duplicates", "slow://"+dir, "--no-mdt")
	if code != exitDuplicatesFound {
		t.Fatalf("exit %d, want %d: %q", code, exitDuplicatesFound, head(term))
	}
	draws := regexp.MustCompile(`\r\x1b\[Kreading ([0-9]+) file slices…`).FindAllStringSubmatchIndex(term, -1)
	if len(draws) == 0 {
		t.Fatalf("no slice count on the terminal:\n%q", head(term))
	}
	last := draws[len(draws)-1]
	var shown int
	fmt.Sscan(term[last[2]:last[3]], &shown)
	if shown < 1 || shown > 11 {
		t.Errorf("last drawn slice count %d, want 1..11", shown)
	}
	rest := term[last[1]:]
	if !strings.HasPrefix(rest, "\r\x1b[K") {
		t.Fatalf("the progress line is not cleared right after its last drawing: %q", head(rest))
	}
	if report := rest[len("\r\x1b[K"):]; strings.Contains(report, "\x1b[K") || !strings.Contains(report, "duplicate") {
		t.Errorf("report after the line: %q", head(report))
	}
}
