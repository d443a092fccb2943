package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/internal/testutil"
)

// TestGarbagePlansBoundedNoise: 1,000 garbage compaction plans (issue 31 measured 100,000 giving
// ~24,600 warning lines) print 3 warnings and one "and 997 more like this" line on stderr and in
// the Markdown report; the JSON report lists all 1,000.
func TestGarbagePlansBoundedNoise(t *testing.T) {
	dir := testutil.UnzipTable(t, fixture("incr-1.2.0"), t.TempDir())
	for i := range 1000 {
		name := filepath.Join(dir, ".hoodie", "timeline", fmt.Sprintf("2026113000%07d.compaction.requested", i))
		if err := os.WriteFile(name, []byte("\x00garbage\xff"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, stderr, code := runCLI(t, "health", dir)
	if code != 0 && code != 1 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	const more = "hudiscope: warning: … and 997 more like this (…/N.compaction.requested: neither valid JSON nor an Avro object container file; -o json lists all)"
	if len(lines) != 4 || lines[3] != more || !strings.HasSuffix(lines[0], "20261130000000000.compaction.requested: neither valid JSON nor an Avro object container file") {
		t.Errorf("stderr has %d lines, want 3 warnings and %q:\n%.2000s", len(lines), more, stderr)
	}
	md, _, _ := runCLI(t, "report", "--format", "md", dir)
	if n := strings.Count(md, "compaction.requested: neither valid JSON"); n != 4 || !strings.Contains(md, "- … and 997 more like this (") {
		t.Errorf("markdown names the garbage plans %d times, want 3 and one count", n)
	}
	js, _, _ := runCLI(t, "report", "--format", "json", dir)
	var doc struct {
		Problems []string `json:"problems"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Problems) != 1000 {
		t.Errorf("JSON report lists %d problems, want all 1000", len(doc.Problems))
	}
}
