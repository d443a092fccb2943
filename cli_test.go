package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain lets tests run the real command line: with HUDISCOPE_RUN_MAIN=1 the test binary is
// hudiscope itself (no second build, same coverage).
func TestMain(m *testing.M) {
	if os.Getenv("HUDISCOPE_RUN_MAIN") == "1" {
		os.Args = append([]string{"hudiscope"}, os.Args[1:]...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// runCLI runs hudiscope with args and returns stdout, stderr and the exit code.
func runCLI(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "HUDISCOPE_RUN_MAIN=1", "NO_COLOR=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
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
	dirs, _ := filepath.Glob(filepath.Join("testdata", "bad", "*", "case.json"))
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
