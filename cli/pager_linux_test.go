package cli

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// ptyChild runs hudiscope with its stdout on a pseudo-terminal (stderr a buffer) and env
// added; it returns what reached the terminal, stderr and the exit code. sig, when not 0, is
// sent to the child's process group (as a terminal's ctrl+c is) once ready exists.
func ptyChild(t *testing.T, env []string, sig syscall.Signal, ready string, args ...string) (term, stderr string, code int) {
	t.Helper()
	m, s := openPTY(t)
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), "HUDISCOPE_RUN_MAIN=1", "NO_COLOR=1", "HUDISCOPE_PAGER", "PAGER", "LESS", "LV"), env...)
	cmd.Env = cleanEnv(cmd.Env)
	var errb bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, s, &errb
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out := drainPTY(m)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if sig != 0 {
		deadline := time.Now().Add(20 * time.Second)
		for {
			if _, err := os.Stat(ready); err == nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s never appeared", ready)
			}
			time.Sleep(10 * time.Millisecond)
		}
		_ = syscall.Kill(-cmd.Process.Pid, sig)
	}
	waitErr := make(chan error, 1)
	go func() { waitErr <- cmd.Wait() }()
	var err error
	select {
	case err = <-waitErr:
	case <-time.After(60 * time.Second):
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		t.Fatal("hudiscope did not exit")
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	s.Close()
	select {
	case term = <-out:
	case <-time.After(5 * time.Second):
		t.Fatal("the pseudo-terminal's master did not end")
	}
	return term, errb.String(), code
}

// cleanEnv drops the entries named bare (NAME without =) and every earlier NAME=…, so the
// child sees only the values the test sets after them.
func cleanEnv(env []string) []string {
	var out []string
	for i, e := range env {
		name, _, hasEq := strings.Cut(e, "=")
		later := false
		for _, f := range env[i+1:] {
			if f == name || strings.HasPrefix(f, name+"=") {
				later = true
			}
		}
		if later || !hasEq {
			continue
		}
		out = append(out, e)
	}
	return out
}

// fakePager writes a pager script that records its input, its LESS and LV and its arguments
// in dir.
func fakePager(t *testing.T, dir, body string) string {
	t.Helper()
	p := filepath.Join(dir, "pager.sh")
	script := "#!/bin/sh\necho \"LESS=${LESS-unset} LV=${LV-unset} args=$*\" > " + filepath.Join(dir, "env") + "\n" + body + "\n"
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// Text output to a terminal goes through the pager ($HUDISCOPE_PAGER before $PAGER), with
// LESS=FRX and LV=-c unless the user set them; --no-pager, PAGER=cat, an empty pager and a
// non-terminal stdout write directly.
func TestPagerOnTerminal(t *testing.T) {
	t.Setenv("HUDISCOPE_NOW", "2026-12-01T00:00:00Z")
	t.Setenv("TZ", "UTC")
	table := fixture("cow-services-0.15.0")
	want, _, _ := runCLI(t, "timeline", table) // to a pipe: never paged
	if !strings.Contains(want, "21 instants") {
		t.Fatalf("timeline: %.200q", want)
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	pager := fakePager(t, dir, "cat > "+in)
	read := func(name string) string {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		return string(b)
	}
	reset := func() { os.Remove(in); os.Remove(filepath.Join(dir, "env")) }

	// $HUDISCOPE_PAGER wins over $PAGER; the pager gets exactly what a pipe gets.
	term, stderr, code := ptyChild(t, []string{"HUDISCOPE_PAGER=" + pager + " -S", "PAGER=/bin/false"}, 0, "", "timeline", table)
	if code != 0 || read("in") != want || term != "" || stderr != "" {
		t.Errorf("HUDISCOPE_PAGER: exit %d, pager got %d bytes (want %d), terminal %q, stderr %q", code, len(read("in")), len(want), term, stderr)
	}
	if got := read("env"); got != "LESS=FRX LV=-c args=-S\n" {
		t.Errorf("pager environment %q", got)
	}
	// $PAGER, with the user's own LESS kept.
	reset()
	_, _, code = ptyChild(t, []string{"PAGER=" + pager, "LESS=-R"}, 0, "", "files", table)
	if code != 0 || !strings.Contains(read("in"), "3 partitions, 5 file groups") || read("env") != "LESS=-R LV=-c args=\n" {
		t.Errorf("PAGER: exit %d, env %q, got %.100q", code, read("env"), read("in"))
	}
	// Markdown (report) and JSON are paged too.
	reset()
	if _, _, code = ptyChild(t, []string{"PAGER=" + pager}, 0, "", "report", table, "--cluster-defaults", "-"); code != 0 || !strings.HasPrefix(read("in"), "# ") {
		t.Errorf("report: exit %d, pager got %.80q", code, read("in"))
	}
	// Not paged: --no-pager, PAGER=cat, an empty HUDISCOPE_PAGER (before a set PAGER), version.
	for _, c := range []struct {
		env  []string
		args []string
	}{
		{[]string{"PAGER=" + pager}, []string{"timeline", table, "--no-pager"}},
		{[]string{"PAGER=" + pager}, []string{"--no-pager", "timeline", table}},
		{[]string{"PAGER=cat"}, []string{"timeline", table}},
		{[]string{"HUDISCOPE_PAGER=", "PAGER=" + pager}, []string{"timeline", table}},
		{[]string{"PAGER=" + pager}, []string{"version"}},
	} {
		reset()
		term, stderr, code := ptyChild(t, c.env, 0, "", c.args...)
		if code != 0 || read("env") != "" || term == "" || stderr != "" {
			t.Errorf("%v %v: exit %d, pager ran %v, terminal %.80q, stderr %q", c.env, c.args, code, read("env") != "", term, stderr)
		}
		if c.args[0] != "version" && term != want {
			t.Errorf("%v %v: the terminal got %d bytes, want the %d of the pipe", c.env, c.args, len(term), len(want))
		}
	}
	// A pipe is never paged, whatever $PAGER says.
	reset()
	if out, _, code, _ := runChild(t, []string{"PAGER=" + pager}, 0, "timeline", table); code != 0 || out != want || read("env") != "" {
		t.Errorf("pipe: exit %d, pager ran %v", code, read("env") != "")
	}
	// A pager that is not installed: said once, then written directly.
	term, stderr, code = ptyChild(t, []string{"PAGER=no-such-pager-xyz"}, 0, "", "timeline", table)
	if code != 0 || term != want || !strings.Contains(stderr, `pager "no-such-pager-xyz" (from $PAGER) not found`) {
		t.Errorf("missing pager: exit %d, stderr %q", code, stderr)
	}
}

// The user quitting the pager before the end (q) is no error: exit 0, nothing on stderr (no
// EPIPE noise). ctrl+c in the pager ends hudiscope with 130 after the pager exited.
func TestPagerQuitAndInterrupt(t *testing.T) {
	t.Setenv("HUDISCOPE_NOW", "2026-12-01T00:00:00Z")
	t.Setenv("TZ", "UTC")
	dir := t.TempDir()
	// index-bloom's 104 file groups are 17 KB of text; the pager reads 100 bytes and quits.
	pager := fakePager(t, dir, "head -c 100 > "+filepath.Join(dir, "in"))
	_, stderr, code := ptyChild(t, []string{"PAGER=" + pager}, 0, "", "files", fixture("index-bloom-1.2.0"))
	got, _ := os.ReadFile(filepath.Join(dir, "in"))
	if code != 0 || stderr != "" || !strings.HasPrefix(string(got), "idx_bloom · COPY_ON_WRITE · 8 partitions, 104 file groups") {
		t.Errorf("pager quit early: exit %d, stderr %q, pager read %q", code, stderr, got)
	}
	// A pager that waits for the user, who presses ctrl+c (the whole foreground group gets
	// SIGINT; the pager leaves on it, as less does on ctrl+c then q).
	ready, gone := filepath.Join(dir, "ready"), filepath.Join(dir, "gone")
	pager = fakePager(t, dir, "trap 'echo bye > "+gone+"; exit 0' INT\ncat > /dev/null & touch "+ready+"\nwhile :; do sleep 0.05; done")
	_, stderr, code = ptyChild(t, []string{"PAGER=" + pager}, syscall.SIGINT, ready, "timeline", fixture("cow-services-0.15.0"))
	if _, err := os.Stat(gone); err != nil || code != exitInterrupted || strings.Contains(stderr, "pipe") {
		t.Errorf("ctrl+c in the pager: exit %d, stderr %q, pager saw it: %v", code, stderr, err == nil)
	}
}
