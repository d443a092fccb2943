package cli

import (
	"context"
	"io"

	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
)

// ReportCmd writes the full report without starting the TUI.
type ReportCmd struct {
	Table      string `arg:"" help:"Table path: directory, .zip, s3://, s3a:// or hdfs:// URI."`
	EventLog   string `name:"event-log" help:"Spark event log: a file, a rolling directory, s3://, hdfs:// or shs://HOST:PORT/APP_ID."`
	CompareLog string `name:"compare-log" placeholder:"LOG" help:"The event log of the run after a change: every catalog row whose keys differ between the two runs' Spark properties is verified on the two logs (section Applied changes, JSON appliedChanges)."`
	Format     string `name:"format" hidden:"" help:"Old spelling of --output (md or json)."`
	Full       bool   `name:"full" help:"Markdown: every row of every table (by default long tables keep their top rows so the report stays under 60,000 characters)."`
	// The health section's SKIPPED summaries point here, as they do in health and open.
	ApplyAllDefaults bool `name:"apply-all-defaults" help:"Health: judge unsupplied properties by Hudi's (engine-effective) defaults instead of skipping."`
	OutputFlags
	TableFlags
}

func (c *ReportCmd) examples() []string {
	return []string{
		`hudiscope report --props writer.properties --event-log application_1700000000000_0042 s3://bucket/warehouse/orders --output-file report.md`,
		`hudiscope report -o json table.zip | jq .findings`,
	}
}

func (c *ReportCmd) Run(ctx context.Context) error {
	if c.Output == "" {
		c.Output = c.Format
	}
	format, err := c.format("md", "md", "json")
	if err != nil {
		return codeError{exitUsage, err.Error() + " (write to a file with --output-file)"}
	}
	opts := c.options(c.Table, nil, nil)
	opts.EventLog = c.EventLog
	opts.CompareEventLog = c.CompareLog
	if c.CompareLog != "" && c.EventLog == "" {
		return codeError{exitUsage, "--compare-log needs --event-log (the run before the change)"}
	}
	opts.Health.ApplyAllDefaults = c.ApplyAllDefaults
	// The inputs named on the command line must be read: a report without them is not the one
	// asked for. So must the timeline: without it no instant, file or layout section loads,
	// which is the README's "the table could not be read" (exit 1), not a damaged part of it
	// (a warning).
	needed := []model.Step{model.StepTimeline, model.StepConfig}
	if c.EventLog != "" {
		needed = append(needed, model.StepEventLog)
	}
	// On a terminal, stderr counts the files listed so far, cleared before the report (load).
	s, err := load(ctx, opts, needed...)
	if err != nil {
		return err
	}
	defer reportProblems(s)
	if s.CompareErr != nil {
		return codeError{exitError, s.CompareErr.Error()}
	}
	return c.writeOutput(func(w io.Writer) error {
		if format == "json" {
			return report.JSON(ctx, w, s)
		}
		md := report.Markdown(ctx, s)
		if !c.Full {
			md, _ = report.Fit(md, report.ExportLimit)
		}
		_, err := io.WriteString(w, md)
		return err
	})
}
