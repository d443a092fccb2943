package view

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/hudiscope/hudiscope/analyzers/eventlog"
	"github.com/hudiscope/hudiscope/internal/units"
)

// StageRow is one stage attempt as every stage listing shows it (the Event log pane's list,
// the report's stages table), in hudiscope's attribution: the numbers, and the text every
// surface writes the same way. Surfaces format the numbers in their own units and widths.
type StageRow struct {
	// Stage is the stage attempt with hudiscope's attribution.
	Stage *eventlog.Stage
	// Extra is hudiscope's additions for the attempt (nil when the report has none); Java is
	// the attempt as the Java tool attributes it (the top-level stage; nil when absent).
	Extra *eventlog.StageExtra
	Java  *eventlog.Stage
	// ID is "id.attempt"; Job is the job id ("-" when none); Phase is "PHASE/subPhase".
	ID, Job, Phase string
	// Tasks are the tasks observed; DurationMillis the stage's wall clock; P50Millis and
	// MaxMillis its task-duration median and maximum.
	Tasks                                int64
	DurationMillis, P50Millis, MaxMillis int64
	// Skew is max / p50 task time, GcShare GC time over executor run time (-1: undefined).
	Skew, GcShare eventlog.Ratio
	// Spill is memory plus disk spill, in bytes.
	Spill int64
	// Failed: the stage failed or some of its tasks did.
	Failed bool
}

// StageRows are r's stage attempts with hudiscope's attribution, in the report's order.
func StageRows(r *eventlog.Report) []StageRow {
	if r == nil {
		return nil
	}
	return StageRowsOf(r, r.HudiscopeStages())
}

// StageRowsOf are the rows of stages (r's, with hudiscope's attribution: HudiscopeStages), in
// their order; each row's Stage points into stages.
func StageRowsOf(r *eventlog.Report, stages []eventlog.Stage) []StageRow {
	out := make([]StageRow, len(stages))
	for i := range stages {
		out[i] = stageRow(r, &stages[i])
	}
	return out
}

func stageRow(r *eventlog.Report, s *eventlog.Stage) StageRow {
	o := &s.Observed
	return StageRow{Stage: s, Extra: StageExtra(r, s), Java: JavaStage(r, s),
		ID: StageID(s), Job: JobID(s), Phase: StagePhase(s),
		Tasks: o.NumTasksObserved, DurationMillis: o.DurationMillis, P50Millis: o.TaskDurationMillis.P50, MaxMillis: o.TaskDurationMillis.Max,
		Skew: o.SkewRatio, GcShare: o.GcFractionOfRunTime, Spill: o.MemoryBytesSpilled + o.DiskBytesSpilled,
		Failed: s.FailureReason != nil || o.TasksFailed > 0}
}

// LongestFirst orders rows by stage duration, longest first (stable: ties keep their order).
func LongestFirst(rows []StageRow) []StageRow {
	out := append([]StageRow(nil), rows...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].DurationMillis > out[j].DurationMillis })
	return out
}

// StageID is "id.attempt".
func StageID(s *eventlog.Stage) string { return fmt.Sprintf("%d.%d", s.StageID, s.AttemptID) }

// JobID is the stage's job id, "-" when none.
func JobID(s *eventlog.Stage) string {
	if s.JobID == nil {
		return "-"
	}
	return strconv.Itoa(*s.JobID)
}

// StagePhase is "PHASE/subPhase".
func StagePhase(s *eventlog.Stage) string {
	if s.SubPhase != nil && *s.SubPhase != "" {
		return s.Phase + "/" + *s.SubPhase
	}
	return s.Phase
}

// StageExtra finds hudiscope's additions for a stage attempt.
func StageExtra(r *eventlog.Report, s *eventlog.Stage) *eventlog.StageExtra {
	for i := range r.Hudiscope.Stages {
		x := &r.Hudiscope.Stages[i]
		if x.StageID == s.StageID && x.AttemptID == s.AttemptID {
			return x
		}
	}
	return nil
}

// JavaStage is the stage attempt as the Java tool attributes it (the top-level stage).
func JavaStage(r *eventlog.Report, s *eventlog.Stage) *eventlog.Stage {
	for i := range r.Stages {
		if r.Stages[i].StageID == s.StageID && r.Stages[i].AttemptID == s.AttemptID {
			return &r.Stages[i]
		}
	}
	return nil
}

// Quantile is one task-duration percentile of a stage.
type Quantile struct {
	Name   string // "p25" … "max"
	Millis int64
}

// TaskQuantiles are a stage's task-duration percentiles that the report holds, in order.
func TaskQuantiles(s *eventlog.Stage) []Quantile {
	t := s.Observed.TaskDurationMillis
	var out []Quantile
	add := func(name string, p *int64) {
		if p != nil && *p >= 0 {
			out = append(out, Quantile{name, *p})
		}
	}
	add("p25", t.P25)
	add("p50", &t.P50)
	add("p75", t.P75)
	add("p95", &t.P95)
	add("p99", t.P99)
	add("max", &t.Max)
	return out
}

// ratio renders an analyzer ratio ("-" for -1, undefined).
func ratio(r eventlog.Ratio, digits int) string {
	if r < 0 {
		return "-"
	}
	return strconv.FormatFloat(float64(r), 'f', digits, 64)
}

// StageMetrics are a stage's metrics as label/value pairs, the text the report and the
// pane's stage view share (hudiscope's attribution; the Java tool's is named where it
// differs).
func StageMetrics(row StageRow) [][2]string {
	s := row.Stage
	o := s.Observed
	m := [][2]string{
		{"phase", row.Phase},
		{"operation", s.Operation + " (" + s.OperationSource + ")"},
		{"job", row.Job},
		{"duration", units.Millis(o.DurationMillis)},
		{"tasks", fmt.Sprintf("%d observed of %d planned (%d ok, %d failed, %d killed, %d speculative)", o.NumTasksObserved, o.NumTasksPlanned, o.TasksSucceeded, o.TasksFailed, o.TasksKilled, o.TasksSpeculative)},
		{"skew (max / p50)", ratio(o.SkewRatio, 2)},
		{"executor run time", units.Millis(o.ExecutorRunTimeMillis)},
		{"deserialize time", units.Millis(o.ExecutorDeserializeTimeMillis)},
		{"GC", fmt.Sprintf("%s (%s of run time)", units.Millis(o.JvmGcTimeMillis), ratio(o.GcFractionOfRunTime, 3))},
		{"input", fmt.Sprintf("%s, %d records", units.Bytes(o.InputBytes), o.InputRecords)},
		{"shuffle read", fmt.Sprintf("%s, %d records, fetch wait %s", units.Bytes(o.ShuffleReadBytes), o.ShuffleReadRecords, units.Millis(o.ShuffleFetchWaitTimeMillis))},
		{"shuffle write", fmt.Sprintf("%s, %d records", units.Bytes(o.ShuffleWriteBytes), o.ShuffleWriteRecords)},
		{"spill (memory / disk)", units.Bytes(o.MemoryBytesSpilled) + " / " + units.Bytes(o.DiskBytesSpilled)},
		{"result size", units.Bytes(o.ResultSizeBytes)},
	}
	if x := row.Extra; x != nil {
		m = append(m, [2]string{"executor CPU time", units.Millis(x.ExecutorCPUTimeNanos / 1e6)}, [2]string{"peak execution memory", units.Bytes(x.PeakExecutionMemoryBytes)})
		if x.Table != "" {
			m = append(m, [2]string{"table", x.Table})
		}
		if x.WriteOperationType != "" {
			m = append(m, [2]string{"write operation", x.WriteOperationType})
		}
		if x.Instant != "" {
			m = append(m, [2]string{"instant", x.Instant})
		}
	}
	if j := row.Java; j != nil {
		if StagePhase(j) != row.Phase {
			m = append(m, [2]string{"Java tool phase", StagePhase(j)})
		}
		if j.Operation != s.Operation || j.OperationSource != s.OperationSource {
			m = append(m, [2]string{"Java tool operation", j.Operation + " (" + j.OperationSource + ")"})
		}
		if JobID(j) != row.Job {
			m = append(m, [2]string{"Java tool job", JobID(j)})
		}
	}
	if s.FailureReason != nil {
		m = append(m, [2]string{"failure", *s.FailureReason})
	}
	keys := make([]string, 0, len(s.TaskFailureReasons))
	for k := range s.TaskFailureReasons {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		m = append(m, [2]string{"task failures: " + k, strconv.FormatInt(s.TaskFailureReasons[k], 10)})
	}
	if s.JobDescription != nil {
		m = append(m, [2]string{"job description", *s.JobDescription})
	}
	return m
}
