package cli

import (
	"context"
	"errors"
	"io"

	"github.com/hudiscope/hudiscope/hudi/records"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
)

// ChangesCmd prints the CDC rows of a table with change data capture on.
type ChangesCmd struct {
	Table string `arg:"" help:"Table path: directory, .zip, s3://, s3a:// or hdfs:// URI."`
	Begin string `name:"begin" required:"" help:"'earliest' or a begin instant time, compared as the reading release's incremental reads compare it."`
	End   string `name:"end" help:"End instant time (inclusive)."`
	Count bool   `name:"count" help:"Print the number of change rows only."`
	Limit int    `name:"limit" help:"Print at most N rows (0: all)."`
	OutputFlags
	TableFlags
	ScaleFlags
}

func (c *ChangesCmd) Help() string {
	return `Reads the rows hudi_table_changes(table, 'cdc', begin[, end]) returns: op (i, u, d), ts_ms (the writing instant's requested time), and the record before and after the change, from the .cdc log files (hoodie.table.cdc.enabled) with the images the supplemental logging mode leaves out (OP_KEY_ONLY, DATA_BEFORE) looked up in the file group's base files, and from new, deleted or replaced files. -o text prints an aligned table, json one object per line, csv a header and rows (images as JSON). Exit 2 when the table logs no changes (the message gives the incremental command instead). ` + csvTerminalHelp
}

func (c *ChangesCmd) examples() []string {
	return []string{
		`hudiscope changes table.zip --begin earliest`,
		`hudiscope changes table.zip --begin 20261129155830907 --count`,
		`hudiscope changes s3://bucket/orders --begin earliest -o json --limit 100`,
	}
}

func (c *ChangesCmd) Run(ctx context.Context) error {
	f, err := c.rowFormat()
	if err != nil {
		return err
	}
	opts := c.options(c.Table, []model.Step{model.StepTimeline}, nil)
	opts.Archived = c.Begin != "earliest" // a begin older than the active timeline is refused, as Hudi does
	s, err := load(ctx, opts, model.StepTimeline)
	if err != nil {
		return err
	}
	defer reportProblems(s)
	q := model.ChangesQuery{Begin: c.Begin, End: c.End}
	if c.Begin != "earliest" || c.End != "" {
		if q.Reader, err = readingRelease(s); err != nil {
			return err
		}
	}
	return c.writeOutput(func(w io.Writer) error {
		var size model.ScanSize
		if s.CDCMode() != "" { // without CDC the read below says so
			if size, err = s.ChangesScanSize(ctx, q); err != nil {
				return err
			}
		}
		done, err := c.handOff(ctx, w, size, func() (report.SparkRead, error) {
			loc, err := sparkLocation(c.Table)
			return report.ChangesSpark(c.SparkTable, loc, q, c.Count, c.Limit), err
		})
		if done {
			return err
		}
		n := 0
		cw := newRowWriter(w, f, nil)
		st, err := s.Changes(ctx, q, func(ch records.Change) error {
			if c.Limit > 0 && n >= c.Limit {
				return errLimit
			}
			n++
			if c.Count {
				return nil
			}
			return cw.write(changeRecord(ch))
		})
		var noCDC model.ErrNoCDC
		if errors.As(err, &noCDC) {
			return codeError{exitUsage, noCDC.Error()}
		}
		if err != nil && !errors.Is(err, errLimit) {
			return rowsError(err)
		}
		warnScan(st)
		if c.Count {
			return writeCount(w, f, n, "", nil)
		}
		return cw.flush()
	})
}

var changeColumns = []string{"op", "ts_ms", "before", "after"}

// changeRecord is a change row as a record of changeColumns, so the row commands' writer
// prints it (images as JSON in every format).
func changeRecord(ch records.Change) records.Record {
	return records.Record{Fields: changeColumns, Values: map[string]any{
		"op": ch.Op, "ts_ms": ch.TsMs, "before": image(ch.Before), "after": image(ch.After)}}
}

// image is a before/after image as a value: nil when there is none.
func image(m map[string]any) any {
	if m == nil {
		return nil
	}
	return m
}
