package eventlog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The text output leads with hudiscope's attribution and says how much of the application no
// job covers; the Java tool's tables follow, labelled. incr-1.2.0's log: 68040 ms of
// application, job intervals cover 24780 ms, so 43260 ms (0.636) ran no job; hudiscope files
// 6.3 s under METADATA_TABLE_WRITE (26.0%) where the Java tool has 10.7%.
func TestWriteTextLeadsWithHudiscope(t *testing.T) {
	p := filepath.Join(repoRoot(t), "testdata", "fixtures", "incr-1.2.0", "local-1795967754886")
	if _, err := os.Stat(p); err != nil {
		t.Skipf("fixture not present: %s", p)
	}
	r := analyzePath(t, p)
	a := r.Hudiscope.Application
	if a.JobWallClockMillis != 24780 || a.UncoveredMillis != 43260 || a.UncoveredShare != 0.636 {
		t.Errorf("job wall clock %d, uncovered %d (%v); want 24780, 43260 (0.636)", a.JobWallClockMillis, a.UncoveredMillis, a.UncoveredShare)
	}
	var b strings.Builder
	if err := WriteText(&b, r, 5, 0); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, "not covered by any job 43.26s, 64%)") {
		t.Errorf("duration line lacks the uncovered share:\n%s", out)
	}
	ours := strings.Index(out, "== Phase (hudiscope's attribution) ==")
	java := strings.Index(out, "== Phase (the Java tool's attribution) ==")
	if ours < 0 || java < ours || strings.Index(out, "== Operation (hudiscope's attribution") > ours {
		t.Fatalf("hudiscope's tables do not lead (ours at %d, Java's at %d):\n%s", ours, java, out)
	}
	if ph := out[ours:java]; !strings.Contains(ph, "METADATA_TABLE_WRITE") || !strings.Contains(ph, "26.0%") {
		t.Errorf("hudiscope's phase table lacks METADATA_TABLE_WRITE 26.0%%:\n%s", ph)
	}
}
