package cli

import (
	"context"
	"io"
	"os"

	"github.com/hudiscope/hudiscope/report"
)

// ReportCmd writes the full report without starting the TUI.
type ReportCmd struct {
	Table    string `arg:"" help:"Table path: directory, .zip, s3:// or s3a:// URI."`
	EventLog string `name:"event-log" help:"Spark event log: a file, a rolling directory, s3://, hdfs:// or shs://HOST:PORT/APP_ID."`
	Format   string `help:"Output format: md or json." enum:"md,json" default:"md"`
	Output   string `short:"o" help:"Write to FILE instead of standard output." type:"path"`
	TableFlags
}

func (c *ReportCmd) Run() error {
	ctx := context.Background()
	opts := c.options(c.Table, nil, nil)
	opts.EventLog = c.EventLog
	s, err := load(ctx, opts)
	if err != nil {
		return err
	}
	defer reportProblems(s)
	var w io.Writer = os.Stdout
	if c.Output != "" {
		f, err := os.Create(c.Output)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	if c.Format == "json" {
		return report.JSON(ctx, w, s)
	}
	_, err = io.WriteString(w, report.Markdown(ctx, s))
	return err
}
