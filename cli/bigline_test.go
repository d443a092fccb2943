//go:build !race

// The race detector multiplies memory use, so the memory-ceiling test runs without it.

package cli

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeBigLineLog writes an event log whose second line is size bytes of unterminated,
// deeply nested JSON-ish garbage between two valid events.
func writeBigLineLog(t *testing.T, path string, size int) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString(`{"Event":"SparkListenerLogStart","Spark Version":"3.5.8"}` + "\n")
	w.WriteString(`{"Event":"SparkListenerTaskEnd","Task Info":`)
	unit := []byte(`{"a":[1,"x\"y",{"b":[true,null,"\u00e9"],"c":`)
	chunk := bytes.Repeat(unit, (1<<20)/len(unit))
	for n := 0; n < size; n += len(chunk) {
		w.Write(chunk)
	}
	w.WriteString("\n")
	w.WriteString(`{"Event":"SparkListenerApplicationStart","App Name":"bigline","App ID":"local-1","Timestamp":1700000000000,"User":"u"}` + "\n")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// A 100 MB single line of JSON-ish garbage between two valid events: `eventlog` exits 0,
// reports the damage with its line number (2), still reads the event after it, and its peak
// memory stays bounded (max RSS under 400 MB: lines over 64 MiB are skipped while streaming).
func TestEventLog100MBLine(t *testing.T) {
	if testing.Short() {
		t.Skip("100 MB event log: not with -short")
	}
	path := filepath.Join(t.TempDir(), "local-1")
	writeBigLineLog(t, path, 100<<20)
	const maxRSS = 400 << 20

	stdout, stderr, code, rss := runCLIRusage(t, "eventlog", path, "--output", "JSON")
	if code != 0 {
		t.Fatalf("exit %d: %.500s", code, stderr)
	}
	t.Logf("JSON: peak RSS %d MiB", rss>>20)
	if rss > maxRSS {
		t.Errorf("peak RSS %d MiB, want < %d MiB", rss>>20, maxRSS>>20)
	}
	if !strings.Contains(stdout, `"bigline"`) {
		t.Error("the event after the long line was not read")
	}
	if !strings.Contains(stdout, `"kind": "malformed-line"`) || !strings.Contains(stdout, `"line": 2,`) {
		t.Errorf("damage on line 2 not reported:\n%.2000s", stdout)
	}
	if len(stdout) > 1<<20 {
		t.Errorf("output is %d bytes: the long line is echoed", len(stdout))
	}

	stdout, stderr, code, rss = runCLIRusage(t, "eventlog", path)
	if code != 0 {
		t.Fatalf("text: exit %d: %.500s", code, stderr)
	}
	t.Logf("text: peak RSS %d MiB", rss>>20)
	if rss > maxRSS {
		t.Errorf("text: peak RSS %d MiB, want < %d MiB", rss>>20, maxRSS>>20)
	}
	if !strings.Contains(stdout, "line 2 of local-1") {
		t.Errorf("text output does not name line 2:\n%.2000s", stdout)
	}
	for _, s := range []string{stdout, stderr} {
		if strings.Contains(s, "goroutine ") || strings.Contains(s, "internal error") {
			t.Errorf("crashed:\n%.800s", s)
		}
	}
}
