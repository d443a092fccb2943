package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/hudiscope/hudiscope/hudi/tableconfig"
	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/internal/safetext"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
	"github.com/hudiscope/hudiscope/view"
)

// TimelineCmd lists instants in completion order.
type TimelineCmd struct {
	Table string `arg:"" help:"Table path: directory, .zip, s3://, s3a:// or hdfs:// URI."`
	OutputFlags
	TableFlags
	InstantFilterFlags
	WatchFlags
	ExitOn string `name:"exit-on" placeholder:"RULES" help:"With --watch: stop at the first of these alerts with its exit code (inflight-older=D 10, pending-older=D 11, rollback 12, archival-stopped 13, no-commit=D 14), e.g. --exit-on inflight-older=1h,no-commit=2h,rollback."`
}

func (c *TimelineCmd) examples() []string {
	return []string{
		`hudiscope timeline --archived -o json table.zip | jq '.instants[] | select(.action=="clean")'`,
		`hudiscope timeline table.zip --since 7d --action commit,deltacommit --state completed --limit 20 --reverse`,
		`hudiscope timeline s3://bucket/warehouse/orders --watch=1m --exit-on inflight-older=1h,no-commit=2h,rollback`,
	}
}

func (c *TimelineCmd) Run(ctx context.Context) error {
	format, err := c.format("text", "text", "json")
	if err != nil {
		return codeError{exitUsage, err.Error()}
	}
	if c.ExitOn != "" && c.Watch == 0 {
		// A usage error is told before the table is read (which can take a while on S3).
		return codeError{exitUsage, "--exit-on needs --watch"}
	}
	filter, err := c.filter()
	if err != nil {
		return err
	}
	if filter.Active() && c.Watch > 0 {
		return codeError{exitUsage, "--limit, --since, --until, --action, --state, --sort and --reverse do not apply to --watch"}
	}
	steps := []model.Step{model.StepTimeline}
	if c.Watch > 0 {
		// The archival-stopped alert measures against the effective hoodie.keep.max.commits.
		steps = append(steps, model.StepConfig)
	}
	opts := c.options(c.Table, steps, nil)
	opts.LazyCommits = true
	s, err := load(ctx, opts, model.StepTimeline)
	if err != nil {
		return err
	}
	defer reportProblems(s)
	instants := s.Timeline.Instants
	if c.Archived {
		instants = s.Timeline.All()
	}
	all := instants
	var applied *report.TimelineFilterJSON
	if filter.Active() {
		res, err := view.FilterInstants(all, filter, view.FilterTableOf(s))
		if err != nil {
			return codeError{exitUsage, err.Error()}
		}
		instants = res.Instants
		applied = report.NewTimelineFilterJSON(filter, res)
	}
	// The rows show totals only: no full commit metadata is kept. JSON rows are written as
	// they are decoded; the text table sizes its columns from every row first.
	ready := s.StreamCommits(ctx, instants, true)
	c.noPager = c.Watch > 0 // a watch keeps writing: straight to the terminal
	return c.writeOutput(func(w io.Writer) error {
		if c.Watch > 0 {
			for i := range instants {
				ready(i)
			}
			// The watch starts from the listing it prints (text) or from a start line (JSON).
			if format == "text" {
				if err := writeTimelineText(w, s.Config, instants, instants); err != nil {
					return err
				}
			}
			return c.watchTimeline(ctx, s, w, format)
		}
		if format == "json" {
			return report.WriteFilteredTimelineJSON(w, s, all, instants, applied, ready)
		}
		for i := range instants {
			ready(i)
		}
		return writeTimelineText(w, s.Config, all, instants)
	})
}

// writeTimelineText lists sel, a selection of all (the same list when nothing is filtered).
func writeTimelineText(w io.Writer, c *tableconfig.Config, all, instants []*timeline.Instant) error {
	count := fmt.Sprintf("%d instants", len(instants))
	if len(instants) != len(all) {
		count = fmt.Sprintf("%d of %d instants", len(instants), len(all))
	}
	fmt.Fprintf(w, "%s · %s · table version %d · %s · times in %s\n", safetext.Terminal(c.Name), c.Type, c.Version, count, c.ZoneSource)
	err := columns{right: true, rows: func(row func(...string)) {
		row("requested", "completed", "action", "state", "operation", "writes", "inserts", "updates", "deletes", "bytes", "files", "parts", "duration", "")
		// The view layer's rows: the same late mark, derived mark and duration as the
		// explorer's Timeline pane and the report.
		for _, r := range view.TimelineRowsOf(all, instants) {
			in := r.In
			ct := in.CompletionTime + r.Mark
			action := in.Action
			if in.Archived {
				action += " (archived)"
			}
			var notes []string
			if r.Late {
				notes = append(notes, view.LateNote)
			}
			if in.Err != "" {
				notes = append(notes, view.ErrLabel(in)+": "+in.Err) // cells are escaped by columns
			}
			notes = append(notes, r.Notes...)
			row(in.RequestedTime, dash(ct), action, string(in.State), dash(in.Operation), itoa(in.Totals.NumWrites),
				itoa(in.Totals.NumInserts), itoa(in.Totals.NumUpdateWrites), itoa(in.Totals.NumDeletes),
				itoa(in.Totals.TotalBytesWritten), itoa(in.Totals.Files), itoa(in.Totals.Partitions), report.Duration(in),
				noteCell(notes))
		}
	}}.write(w)
	if err != nil {
		return err
	}
	var coarsest time.Duration
	derived := false
	for _, in := range instants {
		if in.CompletionDerived {
			derived = true
			coarsest = max(coarsest, in.CompletionPrecision)
		}
	}
	if derived {
		fmt.Fprintln(w, strings.ReplaceAll(report.DerivedNote(coarsest), "`", ""))
	}
	return nil
}

// noteCell is the notes column: set off from the right-aligned duration before it (the
// columns writer puts no gap before the last cell).
func noteCell(notes []string) string {
	if len(notes) == 0 {
		return ""
	}
	return "  " + strings.Join(notes, "; ")
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
