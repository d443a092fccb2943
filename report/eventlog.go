package report

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/hudiscope/hudiscope/analyzers/eventlog"
	"github.com/hudiscope/hudiscope/internal/units"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/view"
)

func eventLogSection(_ context.Context, s *model.Snapshot) (string, bool) {
	if s.EventLog == nil {
		return "", false
	}
	return EventLogMarkdown(s.EventLog, nil), true
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// AppLine is the application in one line: name, id, jobs, stages, duration.
func AppLine(r *eventlog.Report) string {
	a := r.Application
	var parts []string
	if a.Name != nil {
		parts = append(parts, *a.Name)
	}
	if a.ID != nil {
		parts = append(parts, *a.ID)
	}
	o := a.Observed
	parts = append(parts, fmt.Sprintf("%d jobs", o.JobCount), fmt.Sprintf("%d stages", o.StageCount), units.Millis(o.DurationMillis))
	if !r.Hudiscope.Application.Complete {
		parts = append(parts, "incomplete")
	}
	return strings.Join(parts, " · ")
}

// Ratio renders an analyzer ratio ("-" for -1, undefined).
func Ratio(r eventlog.Ratio, digits int) string {
	if r < 0 {
		return "-"
	}
	return strconv.FormatFloat(float64(r), 'f', digits, 64)
}

// groupTable renders hudiscope's rows with the Java tool's share beside each.
func groupTable(title string, rows, java []eventlog.GroupSummary) string {
	var out [][]string
	for _, g := range append(append([]eventlog.GroupSummary(nil), rows...), view.JavaOnly(rows, java)...) {
		js := "-"
		if j := view.Share(java, g.Label); j >= 0 {
			js = Ratio(eventlog.Ratio(j)*100, 1) + "%"
		}
		out = append(out, []string{g.Label, Ratio(g.ShareOfStageWallClock*100, 1) + "%", js, units.Millis(g.StageWallClockMillis), strconv.Itoa(g.StageCount),
			i64(g.TaskCount), units.Millis(g.ExecutorRunTimeMillis), units.Bytes(g.ShuffleBytes), units.Bytes(g.SpilledBytes)})
	}
	return Table([]string{title, "share of stage wall clock", "Java tool's share", "wall clock", "stages", "tasks", "run time", "shuffle", "spilled"}, "lrrrrrrrr", out)
}

// EventLogMarkdown renders the event-log analysis in hudiscope's attribution (the Java tool's
// shares beside it): application, the UNKNOWN share when material, phases, operations, stages
// (stages, view.StageRows of r: in the order given; nil: every stage by duration, longest
// first), caveats, warnings, damage and the Hudi-relevant Spark properties.
func EventLogMarkdown(r *eventlog.Report, stages []view.StageRow) string {
	var b strings.Builder
	a := r.Application
	o := a.Observed
	x := r.Hudiscope
	state := "complete"
	if !x.Application.Complete {
		state = "incomplete (no ApplicationEnd)"
	}
	hudi := "no Hudi job descriptions found"
	if x.Hudi.Detected {
		hudi = x.Hudi.Encoding + " job descriptions; tables " + strings.Join(x.Hudi.Tables, ", ")
	}
	b.WriteString(KeyValues([][2]string{
		{"event log", r.EventLogPath},
		{"application", AppLine(r)},
		{"Spark", orDash(deref(a.SparkVersion))},
		{"log", fmt.Sprintf("%s, %s, %d file(s)", x.Source.Layout, state, len(x.Files))},
		{"duration", fmt.Sprintf("%s (critical path %s; not covered by any job %s)", units.Millis(o.DurationMillis), units.Millis(o.CriticalPathMillis), units.Millis(x.Application.UncoveredMillis))},
		{"tasks", fmt.Sprintf("%d (%d failed)", o.TaskCount, o.FailedTaskCount)},
		{"Hudi", hudi},
	}))
	if u := view.UncoveredStatements(r); len(u) > 0 {
		fmt.Fprintf(&b, "\n**%s.**\n", Escape(capitalize(u[0])))
	}
	if u := view.UnknownStatement(r); u != "" {
		fmt.Fprintf(&b, "\n**%s.**\n", Escape(u))
	}
	b.WriteString("\n### Phases (hudiscope's attribution)\n\n")
	b.WriteString("hudiscope's attribution; HoodieSparkEventLogAnalyzer's share is beside it (its numbers are the JSON's top-level fields, see docs/eventlog-differences.md).\n\n")
	b.WriteString(groupTable("phase", r.Hudiscope.PhaseSummary, r.PhaseSummary))
	b.WriteString("\n### Operations (hudiscope's attribution)\n\n")
	b.WriteString(groupTable("operation", r.Hudiscope.OperationSummary, r.OperationSummary))
	b.WriteString("\n### Stages\n\n")
	if stages == nil {
		stages = view.LongestFirst(view.StageRows(r))
		b.WriteString("Longest first.\n\n")
	} else if len(stages) != len(r.Stages) {
		fmt.Fprintf(&b, "%d of %d stages, in the order shown.\n\n", len(stages), len(r.Stages))
	}
	var rows [][]string
	for _, s := range stages {
		rows = append(rows, []string{s.ID, s.Job, s.Phase, s.Stage.Operation, i64(s.Tasks), units.Millis(s.DurationMillis),
			units.Millis(s.P50Millis), units.Millis(s.MaxMillis), Ratio(s.Skew, 1),
			units.Bytes(s.Spill), Ratio(s.GcShare, 2), s.Stage.Name})
	}
	b.WriteString(Table([]string{"stage", "job", "phase", "operation", "tasks", "duration", "task p50", "task max", "skew", "spill", "gc", "name"},
		"lllrrrrrrrrl", rows))
	b.WriteString("\n### Caveats\n\n")
	for _, c := range view.Caveats(r) {
		fmt.Fprintf(&b, "- %s\n", Escape(c))
	}
	if len(r.Warnings) > 0 {
		b.WriteString("\n### Warnings\n\n")
		for _, w := range r.Warnings {
			fmt.Fprintf(&b, "- %s\n", Escape(w))
		}
	}
	if len(x.Damage) > 0 {
		b.WriteString("\n### Damage\n\n")
		var rows [][]string
		for _, d := range x.Damage {
			rows = append(rows, []string{d.File, d.Kind, d.Detail})
		}
		b.WriteString(Table([]string{"file", "kind", "detail"}, "lll", rows))
	}
	b.WriteString("\n### Spark properties relevant to Hudi\n\n")
	if props := view.HudiProperties(r); len(props) == 0 {
		b.WriteString("None recorded in the log's environment update.\n")
	} else {
		var rows [][]string
		for _, p := range props {
			rows = append(rows, []string{p[0], p[1]})
		}
		b.WriteString(Table([]string{"property", "value"}, "ll", rows))
	}
	return b.String()
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// StageMarkdown renders one stage (a view.StageRows row): metrics and task-duration
// percentiles.
func StageMarkdown(row view.StageRow) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Stage %s: `%s`\n\n", row.ID, Escape(row.Stage.Name))
	b.WriteString(KeyValues(view.StageMetrics(row)))
	b.WriteString("\nTask durations (percentiles the event log analysis keeps; no per-task list):\n\n")
	var rows [][]string
	for _, q := range view.TaskQuantiles(row.Stage) {
		rows = append(rows, []string{q.Name, units.Millis(q.Millis)})
	}
	if len(rows) == 0 {
		b.WriteString("No task finished.\n")
	} else {
		b.WriteString(Table([]string{"percentile", "task duration"}, "lr", rows))
	}
	return b.String()
}
