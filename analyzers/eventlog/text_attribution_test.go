package eventlog

import (
	"os"
	"path/filepath"
	"testing"
)

// How much of the application no job covers, which the text output leads with
// (report.EventLogText). incr-1.2.0's log: 68040 ms of
// application, job intervals cover 24780 ms, so 43260 ms (0.636) ran no job; hudiscope files
// 6.3 s under METADATA_TABLE_WRITE (26.0%) where the Java tool has 10.7%.
func TestUncoveredApplicationTime(t *testing.T) {
	p := filepath.Join(repoRoot(t), "testdata", "fixtures", "incr-1.2.0", "local-1795967754886")
	if _, err := os.Stat(p); err != nil {
		t.Skipf("fixture not present: %s", p)
	}
	r := analyzePath(t, p)
	a := r.Hudiscope.Application
	if a.JobWallClockMillis != 24780 || a.UncoveredMillis != 43260 || a.UncoveredShare != 0.636 {
		t.Errorf("job wall clock %d, uncovered %d (%v); want 24780, 43260 (0.636)", a.JobWallClockMillis, a.UncoveredMillis, a.UncoveredShare)
	}
	// The text form is report.EventLogText's (report/eventlog_text_test.go).
}
