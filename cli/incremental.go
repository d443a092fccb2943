package cli

import (
	"context"
	"io"

	"github.com/hudiscope/hudiscope/analyzers/checkpoint"
	"github.com/hudiscope/hudiscope/hudi/records"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
)

// IncrQueryCmd answers what an incremental query from --begin returns, record by record.
type IncrQueryCmd struct {
	Table    string `arg:"" help:"Table path: directory, .zip, s3://, s3a:// or hdfs:// URI."`
	Begin    string `name:"begin" required:"" help:"hoodie.datasource.read.begin.instanttime."`
	End      string `name:"end" help:"hoodie.datasource.read.end.instanttime (records as of that time)."`
	Fallback string `name:"fallback-full-table-scan" enum:",true,false" default:"" help:"hoodie.datasource.read.incr.fallback.fulltablescan.enable (unset: the reader's default)."`
	RowFlags
	OutputFlags
	TableFlags
	ScaleFlags
}

func (c *IncrQueryCmd) Help() string {
	return `Reads the table's records the way an incremental query of the reading release (--hudi-version, else the installed bundle, else the newest line that reads the table) does: the latest version of each record whose latest write is among the writes returned for --begin. Rows print as in 'snapshot': -o text (aligned), json (JSON Lines) or csv, values in their logical types. ` + csvTerminalHelp
}

func (c *IncrQueryCmd) examples() []string {
	return []string{
		`hudiscope incremental table.zip --begin 20261129155610512 --count`,
		`hudiscope incremental table.zip --begin 000 --count --by commit --hudi-version 1.0.2`,
		`hudiscope incremental s3://bucket/orders --begin 20261129155610512 --columns id,ts --limit 10 -o json`,
	}
}

func (c *IncrQueryCmd) Run(ctx context.Context) error {
	f, err := c.rowFormat()
	if err != nil {
		return err
	}
	if err := c.check(); err != nil {
		return err
	}
	opts := c.options(c.Table, []model.Step{model.StepFiles}, nil)
	if err := c.tableOptions(&opts); err != nil {
		return err
	}
	opts.Archived = true // a begin value older than the active timeline is judged against it
	s, err := load(ctx, opts, model.StepTimeline, model.StepFiles)
	if err != nil {
		return err
	}
	defer reportProblems(s)
	rd, err := readingRelease(s)
	if err != nil {
		return err
	}
	q := model.IncrementalQuery{Begin: c.Begin, End: c.End, Reader: rd, NoMDT: c.NoMDT, RowColumns: c.rowColumns()}
	switch c.Fallback {
	case "true", "false":
		b := c.Fallback == "true"
		q.Fallback = &b
	}
	return c.writeOutput(func(w io.Writer) error {
		done, err := c.handOff(ctx, w, model.SliceScanSize(s.View), func() (report.SparkRead, error) {
			loc, err := sparkLocation(c.Table)
			return report.IncrementalSpark(c.SparkTable, loc, q, c.RowFlags.spark()), err
		})
		if done {
			return err
		}
		return writeRows(w, f, c.RowFlags, func(fn func(*records.Batch) error) (records.Stats, error) {
			return s.IncrementalBatches(ctx, q, fn)
		})
	})
}

// readingRelease is the release line whose incremental-read rules a row command follows:
// --hudi-version's, else the newest that reads the table (said on stderr when several do).
// An unusable --hudi-version is a usage error.
func readingRelease(s *model.Snapshot) (checkpoint.Reader, error) {
	rds, err := s.Readers()
	if err != nil {
		return checkpoint.Reader{}, codeError{exitUsage, err.Error()}
	}
	rd := rds[len(rds)-1]
	if len(rds) > 1 {
		warnf("no --hudi-version: reading as Hudi %s (%s)", rd.Line, rd.Rule())
	}
	return rd, nil
}
