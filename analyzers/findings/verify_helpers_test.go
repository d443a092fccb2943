package findings_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/eventlog"
)

// pairLog analyzes the event log of one eventlog-pair fixture: the same partitioned upsert job
// run with hoodie.upsert.shuffle.parallelism 200 ("before") and 2 ("after"), Hudi 1.2.0.
func pairLog(t *testing.T, side string) *eventlog.Report {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "fixtures", "eventlog-pair-"+side+"-1.2.0", "local-*"))
	if len(m) != 1 {
		t.Fatalf("eventlog-pair-%s-1.2.0: want one event log, found %v", side, m)
	}
	r, err := eventlog.Analyze(context.Background(), m[0], eventlog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func pairReports(t *testing.T) (before, after *eventlog.Report) {
	return pairLog(t, "before"), pairLog(t, "after")
}
