package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/hudiscope/hudiscope/analyzers/eventlog"
	"github.com/hudiscope/hudiscope/internal/safetext"
	"github.com/hudiscope/hudiscope/internal/units"
	"github.com/hudiscope/hudiscope/view"
)

func ptrDash(p *string) string {
	if p == nil || *p == "" {
		return "-"
	}
	return *p
}

func millisText(v int64) string {
	if v < 0 {
		return "-"
	}
	return (time.Duration(v) * time.Millisecond).String()
}

// term escapes data for the terminal.
var term = safetext.Terminal

// EventLogText prints a short human summary: application, operations, phases,
// the longest stages (at most topN, none shorter than minStageMillis), caveats and warnings.
func EventLogText(w io.Writer, r *eventlog.Report, topN int, minStageMillis int64) error {
	tw := tabwriter.NewWriter(w, 0, 2, 2, ' ', 0)
	a := r.Application
	o := a.Observed
	x := r.Hudiscope
	fmt.Fprintf(tw, "== Application ==\n")
	fmt.Fprintf(tw, "  name\t%s\n  id\t%s\n  spark version\t%s\n", term(ptrDash(a.Name)), term(ptrDash(a.ID)), term(ptrDash(a.SparkVersion)))
	state := "complete"
	if !x.Application.Complete {
		state = "incomplete (no ApplicationEnd)"
	}
	fmt.Fprintf(tw, "  log\t%s, %s, %d file(s)\n", x.Source.Layout, state, len(x.Files))
	uncovered := millisText(x.Application.UncoveredMillis)
	if x.Application.UncoveredShare >= 0 {
		uncovered += fmt.Sprintf(", %.0f%%", 100*float64(x.Application.UncoveredShare))
	}
	fmt.Fprintf(tw, "  duration\t%s (critical path %s, not covered by any job %s)\n", millisText(o.DurationMillis), millisText(o.CriticalPathMillis), uncovered)
	fmt.Fprintf(tw, "  jobs\t%d (%d failed, %d unfinished)\n", o.JobCount, o.FailedJobCount, x.Application.UnfinishedJobCount)
	fmt.Fprintf(tw, "  stages\t%d (%d failed)\n  tasks\t%d (%d failed)\n", o.StageCount, o.FailedStageCount, o.TaskCount, o.FailedTaskCount)
	fmt.Fprintf(tw, "  executor run time\t%s\n  shuffle read / write\t%s / %s\n  spilled (mem / disk)\t%s / %s\n",
		millisText(o.ExecutorRunTimeMillis), units.Bytes(o.ShuffleReadBytes), units.Bytes(o.ShuffleWriteBytes), units.Bytes(o.MemoryBytesSpilled), units.Bytes(o.DiskBytesSpilled))
	fmt.Fprintf(tw, "  peak executors\t%d\n  events read\t%d\n", o.PeakConcurrentExecutors, o.EventsRead)
	if x.Hudi.Detected {
		fmt.Fprintf(tw, "  hudi\t%s descriptions; tables %s\n", x.Hudi.Encoding, term(strings.Join(x.Hudi.Tables, ", ")))
	} else {
		fmt.Fprintf(tw, "  hudi\tno Hudi job descriptions found\n")
	}
	group := func(title, col string, rows []eventlog.GroupSummary) {
		fmt.Fprintf(tw, "\n== %s ==\n  %s\tstages\ttasks\twall clock\tshare\trun time\tshuffle\tspilled\n", title, col)
		for _, g := range rows {
			share := "-"
			if g.ShareOfStageWallClock >= 0 {
				share = fmt.Sprintf("%.1f%%", 100*float64(g.ShareOfStageWallClock))
			}
			fmt.Fprintf(tw, "  %s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\n", term(g.Label), g.StageCount, g.TaskCount, millisText(g.StageWallClockMillis), share,
				millisText(g.ExecutorRunTimeMillis), units.Bytes(g.ShuffleBytes), units.Bytes(g.SpilledBytes))
		}
	}
	// hudiscope's attribution first (the one every view leads with); the Java tool's, which
	// the JSON's top-level fields keep, after it and labelled.
	group("Operation (hudiscope's attribution, see docs/eventlog-differences.md)", "operation", r.Hudiscope.OperationSummary)
	group("Phase (hudiscope's attribution)", "phase", r.Hudiscope.PhaseSummary)
	group("Operation (the Java tool's attribution)", "operation", r.OperationSummary)
	group("Phase (the Java tool's attribution)", "phase", r.PhaseSummary)

	var stages []view.StageRow
	for _, s := range view.StageRows(r) {
		if s.DurationMillis >= minStageMillis {
			stages = append(stages, s)
		}
	}
	stages = view.LongestFirst(stages)
	if topN >= 0 && len(stages) > topN {
		stages = stages[:topN]
	}
	fmt.Fprintf(tw, "\n== Longest stages ==\n  stage\tjob\tduration\ttasks\tp50\tmax\tskew\toperation\tphase/subPhase\tname\n")
	for _, s := range stages {
		skew := "-"
		if s.Skew >= 0 {
			skew = fmt.Sprintf("%.1f", float64(s.Skew))
		}
		name := s.Stage.Name
		if len(name) > 60 {
			name = name[:57] + "..."
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", s.ID, s.Job, millisText(s.DurationMillis),
			s.Tasks, millisText(s.P50Millis), millisText(s.MaxMillis), skew, term(s.Stage.Operation), term(s.Phase), term(name))
	}
	if len(r.Warnings) > 0 {
		fmt.Fprintf(tw, "\n== Warnings ==\n")
		for _, s := range r.Warnings {
			fmt.Fprintf(tw, "  - %s\n", term(s))
		}
	}
	fmt.Fprintf(tw, "\n== Caveats ==\n")
	for _, s := range append(append([]string(nil), x.Caveats...), r.Caveats...) {
		fmt.Fprintf(tw, "  - %s\n", term(s))
	}
	return tw.Flush()
}
