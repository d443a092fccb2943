package cli

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/hudiscope/hudiscope/internal/safetext"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
	"github.com/hudiscope/hudiscope/view"
)

// TrendsCmd prints the per-commit series of the active and archived timelines.
type TrendsCmd struct {
	Table  string  `arg:"" help:"Table path: directory, .zip, s3://, s3a:// or hdfs:// URI."`
	Since  string  `name:"since" placeholder:"AGE" help:"Only instants that completed within AGE before now: 30d, 12h, 90m (days, or a Go duration)."`
	Last   int     `name:"last" placeholder:"N" help:"Only the last N completed instants (after --since)."`
	Window int     `name:"window" default:"10" placeholder:"K" help:"Change points compare the median of the next K values with the previous K."`
	Ratio  float64 `name:"ratio" default:"2" placeholder:"R" help:"Change points are where that ratio of medians is at least R (or at most 1/R); R > 1."`
	OutputFlags
	TableFlags
}

func (c *TrendsCmd) examples() []string {
	return []string{
		`hudiscope trends s3://bucket/warehouse/orders --since 30d`,
		`hudiscope trends table.zip --last 200 -o md > trends.md`,
		`hudiscope trends table.zip -o json | jq '.changes[].note'`,
	}
}

// parseAge reads --since: N followed by d (days), or a Go duration (12h, 90m).
func parseAge(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if n, ok := strings.CutSuffix(s, "d"); ok {
		days, err := strconv.ParseFloat(n, 64)
		if err == nil && days > 0 {
			return time.Duration(days * float64(24*time.Hour)), nil
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("--since %q: want an age such as 30d, 12h or 90m", s)
	}
	return d, nil
}

func (c *TrendsCmd) Run(ctx context.Context) error {
	format, err := c.format("text", "text", "json", "md")
	if err != nil {
		return codeError{exitUsage, err.Error()}
	}
	o := view.TrendOptions{Last: c.Last, Window: c.Window, Ratio: c.Ratio}
	if c.Since != "" {
		if o.Since, err = parseAge(c.Since); err != nil {
			return codeError{exitUsage, err.Error()}
		}
	}
	if c.Last < 0 || c.Window < 1 || c.Ratio <= 1 {
		return codeError{exitUsage, "--last must be ≥ 0, --window ≥ 1 and --ratio > 1"}
	}
	// The trends are over the archived timeline too, whatever --archived says.
	opts := c.options(c.Table, []model.Step{model.StepTimeline, model.StepArchived}, nil)
	opts.Archived, opts.LazyCommits = true, true
	s, err := load(ctx, opts, model.StepTimeline)
	if err != nil {
		return err
	}
	defer reportProblems(s)
	// Totals only (compact): no full commit metadata is kept.
	instants := s.Timeline.All()
	ready := s.StreamCommits(ctx, instants, true)
	for i := range instants {
		ready(i)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	t := view.Trends(s, o)
	return c.writeOutput(func(w io.Writer) error {
		switch format {
		case "json":
			return report.WriteTrendsJSON(w, s.Config, t)
		case "md":
			_, err := io.WriteString(w, report.TrendsMarkdown(s.Config.Name, t))
			return err
		}
		return writeTrendsText(w, s.Config.Name, t)
	})
}

// writeTrendsText is one row per series (count, min, median, max, last value, changes), then
// the change points and the rule.
func writeTrendsText(w io.Writer, name string, t *view.TrendSet) error {
	fmt.Fprintf(w, "%s · %s\n", safetext.Terminal(name), report.TrendsHeadline(t))
	if len(t.Series) == 0 {
		_, err := fmt.Fprintln(w, "no completed instant to draw")
		return err
	}
	err := columns{right: true, rows: func(row func(...string)) {
		row("group", "series", "unit", "values", "min", "median", "max", "last", "changes", "")
		for i := range t.Series {
			s := &t.Series[i]
			row(s.Group, s.Name, s.Unit, itoa(len(s.Values)), report.TrendValue(s.Min, s.Unit), report.TrendValue(s.Median, s.Unit),
				report.TrendValue(s.Max, s.Unit), report.TrendValue(s.Values[len(s.Values)-1], s.Unit), itoa(len(s.Changes)), "")
		}
	}}.write(w)
	if err != nil {
		return err
	}
	fmt.Fprintln(w)
	n := 0
	for i := range t.Series {
		for _, c := range t.Series[i].Changes {
			if n == 0 {
				fmt.Fprintln(w, "change points:")
			}
			n++
			fmt.Fprintf(w, "  %s: %s (%s → %s)\n", t.Series[i].Group, c.Note, report.TrendValue(c.Before, t.Series[i].Unit),
				report.TrendValue(c.After, t.Series[i].Unit))
		}
	}
	if n == 0 {
		fmt.Fprintln(w, "no change point")
	}
	fmt.Fprintf(w, "rule: %s\n", t.Rule)
	if !t.Archived {
		return nil
	}
	fmt.Fprintf(w, "\narchival: %s\n", report.ArchivalLine(&t.Archival))
	rows := report.ArchivalRows(&t.Archival)
	if n := len(rows) - archivalTextRuns; n > 0 {
		fmt.Fprintf(w, "  (%d earlier runs: -o json lists them all)\n", n)
		rows = rows[n:]
	}
	if len(rows) > 0 {
		err = columns{rows: func(row func(...string)) {
			row("time", "instants", "first", "last", "since previous", "file")
			for _, r := range rows {
				r[5] = safetext.Terminal(r[5])
				row(r...)
			}
		}}.write(w)
		if err != nil {
			return err
		}
	}
	_, err = fmt.Fprintf(w, "archival rule: %s\n", t.Archival.Rule)
	return err
}

// archivalTextRuns is how many archival runs the text output lists (the last ones).
const archivalTextRuns = 20
