package report

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hudiscope/hudiscope/analyzers/checkpoint"

	"github.com/hudiscope/hudiscope/internal/safetext"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/view"
)

// section is one part of the full report. render returns ok=false while the snapshot has no
// data for it; the section is then left out.
type section struct {
	title  string
	render func(ctx context.Context, s *model.Snapshot) (body string, ok bool)
	// inJSON: the JSON report also carries the section's Markdown under "sections" (the
	// analyses whose structured JSON belongs to their own commands).
	inJSON bool
}

// sections is the full report, in the order a reader meets it: what the table is, what to do
// about it, the checkpoint answer, then the evidence (the job, the services, the files), and
// last how the load went.
var sections = []section{
	{"Summary", summarySection, false},
	{"Table", tableSection, false},
	{"Findings", findingsSection, false},
	{"Applied changes", appliedSection, false},
	{"Incremental reads", incrementalSection, false},
	{"Timeline", timelineSection, false},
	{"Event log", eventLogSection, true},
	{"Health", healthSection, true},
	{"Layout", layoutSection, true},
	{"Load steps", loadStepsSection, false},
	{"Problems", problemsSection, false},
}

// summarySection is the explorer's Overview as a table: the view layer's facts, times as
// instant strings (the report's form), ages from the snapshot's clock.
func summarySection(ctx context.Context, s *model.Snapshot) (string, bool) {
	v := view.Build(s)
	return FactsMarkdown(v.Overview(view.Begins{List: s.IncrementalBegins(ctx), Known: true}), ReportFormat(v)), true
}

// ReportFormat is how the report lays out a fact's value: instant strings as written, ages
// from the snapshot's clock.
func ReportFormat(v *view.Snapshot) view.Format {
	now := v.Now()
	return view.Format{Sep: " · ", Instant: func(raw string) string { return raw },
		Age: func(t time.Time) string { return view.Age(now, t) }}
}

// FactsMarkdown lays facts out as a fact/value table.
func FactsMarkdown(facts []view.Fact, f view.Format) string {
	rows := make([][]string, 0, len(facts))
	for _, x := range facts {
		rows = append(rows, []string{x.Label, x.Text(f)})
	}
	return Table([]string{"fact", "value"}, "ll", rows)
}

func tableSection(_ context.Context, s *model.Snapshot) (string, bool) {
	return TableSummary(s), true
}

func incrementalSection(ctx context.Context, s *model.Snapshot) (string, bool) {
	begins := s.IncrementalBegins(ctx)
	if len(begins) == 0 {
		return "", false
	}
	return IncrementalBeginsMarkdown(begins), true
}

// IncrementalBeginsMarkdown lists, per reader line, the two begin values the Overview and the
// Timeline pane show, labelled the same way: where a pipeline resumes after the latest commit,
// and the earliest value the cleaner still serves.
func IncrementalBeginsMarkdown(begins []checkpoint.Begins) string {
	var b strings.Builder
	for _, x := range begins {
		fmt.Fprintf(&b, "- Hudi %s readers (%s):\n", x.Reader.Line, x.Reader.Rule())
		fmt.Fprintf(&b, "  - resume after the latest commit: begin.instanttime `%s` (after `%s`; reads nothing already read)\n",
			safetext.Terminal(x.Resume), safetext.Terminal(x.ResumeAfter))
		fmt.Fprintf(&b, "  - earliest readable (%s): begin.instanttime `%s` (reads every write from `%s` on)\n",
			x.EarliestLabel(), safetext.Terminal(x.Earliest.Begin), safetext.Terminal(x.Earliest.ReadsFrom))
	}
	return b.String()
}

func timelineSection(_ context.Context, s *model.Snapshot) (string, bool) {
	if s.Timeline == nil {
		return "", false
	}
	instants := s.TimelineInstants()
	return TimelineGantt(instants, GanttLimit) + "\n" + TimelineMarkdown(view.TimelineRows(instants)), true
}

func loadStepsSection(_ context.Context, s *model.Snapshot) (string, bool) {
	var rows [][]string
	for _, st := range s.Done {
		res := "ok"
		if err := s.StepErrors[st]; err != nil {
			res = "failed: " + err.Error()
		}
		rows = append(rows, []string{string(st), res})
	}
	return Table([]string{"step", "result"}, "ll", rows), true
}

func problemsSection(_ context.Context, s *model.Snapshot) (string, bool) {
	probs := s.ProblemList()
	var b strings.Builder
	if model.CountProblems(probs) == 0 {
		b.WriteString("None.\n")
	}
	// Folded as on stderr: problems alike list a few and a count (the JSON report lists all).
	var counted, notes []model.Problem
	for _, p := range probs {
		if p.Counted() {
			counted = append(counted, p)
		} else {
			notes = append(notes, p)
		}
	}
	for _, l := range model.FoldProblems(counted, model.FoldKeep) {
		fmt.Fprintf(&b, "- %s\n", Escape(l.String()))
	}
	for _, l := range model.FoldProblems(notes, model.FoldKeep) {
		fmt.Fprintf(&b, "- note: %s\n", Escape(l.String()))
	}
	return b.String(), true
}
