package cli

import (
	"io"
	"os"
	"testing"

	"github.com/hudiscope/hudiscope/hudi/records"
)

// stderrOf runs fn with os.Stderr sent to a pipe and returns what it wrote.
func stderrOf(t *testing.T, fn func()) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stderr
	os.Stderr = w
	fn()
	os.Stderr = old
	w.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Every stderr line goes through warn: "hudiscope: " and the redacted parts. The record scan's
// notes were printed unredacted before (only terminal-escaped).
func TestWarnRedactsEveryLine(t *testing.T) {
	got := stderrOf(t, func() {
		warn("warning:", "open s3a://AKIAX:SEKRET@bucket/t: denied")
		warnf("no --hudi-version: reading as Hudi %s (%s)", "1.x", "completion order")
		warnScan(records.Stats{Notes: []string{"merged with hoodie.aws.secret.key=SEKRET2"}, Slices: 4, FailedSlices: 1})
	})
	want := "hudiscope: warning: open s3a://***:***@bucket/t: denied\n" +
		"hudiscope: no --hudi-version: reading as Hudi 1.x (completion order)\n" +
		"hudiscope: note: merged with hoodie.aws.secret.key=***\n" +
		"hudiscope: warning: 1 of 4 file slice(s) could not be read; their rows are missing\n"
	if got != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", got, want)
	}
}
