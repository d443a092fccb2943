package view

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/eventlog"
)

const servicesLog = "../testdata/fixtures/cow-services-1.2.0/eventlog_v2_local-1795968726856"

func servicesReport(t *testing.T) *eventlog.Report {
	t.Helper()
	if _, err := os.Stat(servicesLog); err != nil {
		t.Skipf("fixture event log absent: %v", err)
	}
	r, err := eventlog.Analyze(context.Background(), servicesLog, eventlog.Options{})
	if err != nil {
		t.Fatalf("analyze %s: %v", servicesLog, err)
	}
	return r
}

func rowByID(t *testing.T, rows []StageRow, id string) StageRow {
	t.Helper()
	for _, r := range rows {
		if r.ID == id {
			return r
		}
	}
	t.Fatalf("no stage %s among %d rows", id, len(rows))
	return StageRow{}
}

// TestStageRowsServices: the stage rows of the cow-services event log carry the numbers the
// Event log pane and the report show (checked by hand against the pane at 80x24, skew sorted:
// "122.0 58 DEDUP_AND_INDEX_TAGGING/wo… 2 294ms 19.1x 0B 0% 15ms" and "628.0 297
// ARCHIVAL/archivedInstantDe… 12 259ms 9.1x 0B 124% 15ms"): stage 122's skew is its max task
// over its median, 287 ms / 15 ms = 19.13; stage 628's GC ran 224 ms of 180 ms run time, 1.244.
func TestStageRowsServices(t *testing.T) {
	r := servicesReport(t)
	rows := StageRows(r)
	if len(rows) != 1244 || len(rows) != len(r.Stages) {
		t.Fatalf("%d rows for %d stages, want 1244", len(rows), len(r.Stages))
	}
	for _, c := range []struct {
		id, job, phase       string
		tasks, dur, p50, max int64
		skew, gc             float64
		failed               bool
	}{
		{"122.0", "58", "DEDUP_AND_INDEX_TAGGING/workloadProfile", 2, 294, 15, 287, 19.133, 0, false},
		{"628.0", "297", "ARCHIVAL/archivedInstantDelete", 12, 259, 15, 137, 9.133, 1.244, false},
		{"1340.0", "641", "EXECUTION/cleaning", 235, 8020, 52, 591, 11.365, 0.01, false},
		// The one failed stage: both its tasks failed (the pane marks it).
		{"1378.0", "660", "DEDUP_AND_INDEX_TAGGING/tagging", 2, 9097, 8937, 9128, 1.021, 0, true},
	} {
		x := rowByID(t, rows, c.id)
		got := fmt.Sprintf("%s %s %d %d %d %d %.3f %.3f %v %d", x.Job, x.Phase, x.Tasks, x.DurationMillis, x.P50Millis, x.MaxMillis, float64(x.Skew), float64(x.GcShare), x.Failed, x.Spill)
		want := fmt.Sprintf("%s %s %d %d %d %d %.3f %.3f %v 0", c.job, c.phase, c.tasks, c.dur, c.p50, c.max, c.skew, c.gc, c.failed)
		if got != want {
			t.Errorf("stage %s: %s, want %s", c.id, got, want)
		}
		if x.Extra == nil || x.Java == nil || x.Extra.StageID != x.Stage.StageID || x.Java.StageID != x.Stage.StageID {
			t.Errorf("stage %s: hudiscope's additions or the Java tool's stage not found", c.id)
		}
	}
	failed := 0
	for _, x := range rows {
		if x.Failed {
			failed++
		}
	}
	if failed != 1 {
		t.Errorf("%d failed rows, want 1 (stage 1378.0)", failed)
	}
	// The report's "longest first": 1416.0 (11.354 s), then 1419.0 (10.389 s).
	l := LongestFirst(rows)
	if got := fmt.Sprintf("%s %d, %s %d", l[0].ID, l[0].DurationMillis, l[1].ID, l[1].DurationMillis); got != "1416.0 11354, 1419.0 10389" {
		t.Errorf("longest stages: %s", got)
	}
	if rows[0].ID != "0.0" {
		t.Errorf("LongestFirst reordered its input: rows[0] is %s", rows[0].ID)
	}
}

// TestStageMetricsServices: the metric text the report and the pane's stage view share, with
// the Java tool's attribution named where it differs (stage 5: hudiscope puts it in the
// metadata table's write, the Java tool in the data table's) and task failures by reason.
func TestStageMetricsServices(t *testing.T) {
	r := servicesReport(t)
	rows := StageRows(r)
	metrics := func(id string) map[string]string {
		m := map[string]string{}
		for _, kv := range StageMetrics(rowByID(t, rows, id)) {
			m[kv[0]] = kv[1]
		}
		return m
	}
	m := metrics("628.0")
	for k, want := range map[string]string{
		"phase": "ARCHIVAL/archivedInstantDelete", "operation": "ARCHIVAL (module)", "job": "297", "duration": "259ms",
		"tasks": "12 observed of 12 planned (12 ok, 0 failed, 0 killed, 0 speculative)", "skew (max / p50)": "9.13",
		"executor run time": "180ms", "GC": "224ms (1.244 of run time)", "executor CPU time": "20ms", "table": "cow_services",
	} {
		if m[k] != want {
			t.Errorf("628.0 %s = %q, want %q", k, m[k], want)
		}
	}
	if _, ok := m["Java tool phase"]; ok {
		t.Errorf("628.0: both tools agree on the phase, yet %q", m["Java tool phase"])
	}
	m = metrics("5.0")
	if m["phase"] != "METADATA_TABLE_WRITE/commitStats" || m["Java tool phase"] != "DATA_TABLE_WRITE/commitStats" ||
		m["operation"] != "INDEXING (sequence)" || m["Java tool operation"] != "INDEXING (module)" {
		t.Errorf("5.0: phase %q (Java %q), operation %q (Java %q)", m["phase"], m["Java tool phase"], m["operation"], m["Java tool operation"])
	}
	m = metrics("1378.0")
	if got := m["task failures: ExceptionFailure: org.apache.spark.api.python.PythonException"]; got != "2" {
		t.Errorf("1378.0 task failures = %q, want 2", got)
	}
	if !strings.HasPrefix(m["failure"], "Job aborted due to stage failure: Task 0 in stage 1378.0 failed 1 times") {
		t.Errorf("1378.0 failure = %q", m["failure"])
	}
	var qs []string
	for _, q := range TaskQuantiles(rowByID(t, rows, "122.0").Stage) {
		qs = append(qs, fmt.Sprintf("%s %d", q.Name, q.Millis))
	}
	if got := strings.Join(qs, ", "); got != "p50 15, p95 287, max 287" {
		t.Errorf("122.0 task quantiles: %s", got)
	}
}

// TestStageRowSpill: spill is memory plus disk; a stage without a job shows "-", one without
// a sub-phase its phase alone, and an empty sub-phase is no sub-phase.
func TestStageRowSpill(t *testing.T) {
	empty := ""
	r := &eventlog.Report{Stages: []eventlog.Stage{
		{StageID: 3, AttemptID: 1, Phase: "EXECUTION", SubPhase: &empty, Observed: eventlog.StageObserved{MemoryBytesSpilled: 3 << 20, DiskBytesSpilled: 1 << 20, SkewRatio: -1, GcFractionOfRunTime: -1}},
	}}
	x := StageRows(r)[0]
	if x.ID != "3.1" || x.Job != "-" || x.Phase != "EXECUTION" || x.Spill != 4<<20 || x.Skew != -1 || x.GcShare != -1 || x.Extra != nil || x.Java == nil {
		t.Errorf("row %+v", x)
	}
	if StageRows(nil) != nil {
		t.Errorf("StageRows(nil) is not nil")
	}
}

// TestPhaseFactsServices: the phase facts the pane's top and the report's head share, as the
// pane shows them for the cow-services log (ui/testdata/TestEventLogSkewSort.golden):
// "DEDUP_AND_INDEX_TAGGING 35% (Java tool: 51%)", "METADATA_TABLE_WRITE 30% (Java tool: 2%)",
// EXECUTION 19% alike in both tools (mostly clustering), UNKNOWN 10% stated first, 3m27s of
// 10m5s uncovered.
func TestPhaseFactsServices(t *testing.T) {
	r := servicesReport(t)
	ours, java := r.Hudiscope.PhaseSummary, r.PhaseSummary
	for _, c := range []struct {
		phase, note string
		share       string
	}{
		{"DEDUP_AND_INDEX_TAGGING", "(Java tool: 51%)", "35"},
		{"METADATA_TABLE_WRITE", "(Java tool: 2%)", "30"},
		{"EXECUTION", "", "19"},
		{"UNKNOWN", "", "10"},
	} {
		if got := JavaNote(ours, java, c.phase); got != c.note {
			t.Errorf("JavaNote(%s) = %q, want %q", c.phase, got, c.note)
		}
		if got := fmt.Sprintf("%.0f", 100*PhaseShare(r, c.phase)); got != c.share {
			t.Errorf("PhaseShare(%s) = %s%%, want %s%%", c.phase, got, c.share)
		}
	}
	if got, want := UnknownStatement(r), "UNKNOWN 10% of stage wall clock is unattributed (no Hudi job description)"; got != want {
		t.Errorf("UnknownStatement = %q, want %q", got, want)
	}
	us := UncoveredStatements(r)
	if len(us) != 4 || us[3] != "no Spark job ran for 3m27s of the app's 10m5s (34%)" {
		t.Errorf("UncoveredStatements = %q", us)
	}
	// The wide pane's sub-phase column: "EXECUTION … 19%   1m24   clustering".
	if got := TopSubPhase(r, "EXECUTION"); got != "clustering" {
		t.Errorf("TopSubPhase(EXECUTION) = %q, want clustering", got)
	}
}
