package eventlog

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func repoRoot(t testing.TB) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Dir(file)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("repository root not found")
		}
		dir = parent
	}
}

// sharedLogs is ../shared/testdata/eventlogs beside the repository.
func sharedLogs(t testing.TB) string {
	d := filepath.Join(repoRoot(t), "..", "shared", "testdata", "eventlogs")
	if _, err := os.Stat(d); err != nil {
		t.Skipf("shared event logs not present at %s", d)
	}
	return d
}

func analyzePath(t testing.TB, p string) *Report {
	t.Helper()
	r, err := Analyze(context.Background(), p, Options{})
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	return r
}

func findStage(t testing.TB, r *Report, id int) *Stage {
	t.Helper()
	for i := range r.Stages {
		if r.Stages[i].StageID == id && r.Stages[i].AttemptID == 0 {
			return &r.Stages[i]
		}
	}
	t.Fatalf("stage %d not found", id)
	return nil
}

func sp(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}
