package cli

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/hudiscope/hudiscope/hudi/records"
	"github.com/hudiscope/hudiscope/internal/safetext"
	"github.com/hudiscope/hudiscope/model"
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
	return `Reads the rows hudi_table_changes(table, 'cdc', begin[, end]) returns: op (i, u, d), ts_ms (the writing instant's requested time), and the record before and after the change, from the .cdc log files (hoodie.table.cdc.enabled) with the images the supplemental logging mode leaves out (OP_KEY_ONLY, DATA_BEFORE) looked up in the file group's base files, and from new, deleted or replaced files. -o text prints an aligned table, json one object per line, csv a header and rows (images as JSON). Exit 2 when the table logs no changes (the message gives the incremental command instead).`
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
		if model.CDCMode(s.Table) != "" { // without CDC the read below says so
			if size, err = s.ChangesScanSize(ctx, q); err != nil {
				return err
			}
		}
		done, err := c.handOff(ctx, w, size, func() (sparkRead, error) {
			loc, err := sparkLocation(c.Table)
			return changesSpark(c.SparkTable, loc, q, c.Count, c.Limit), err
		})
		if done {
			return err
		}
		n := 0
		cw := newChangeWriter(w, f)
		st, err := s.Changes(ctx, q, func(ch records.Change) error {
			if c.Limit > 0 && n >= c.Limit {
				return errLimit
			}
			n++
			if c.Count {
				return nil
			}
			return cw.write(ch)
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

// changeWriter prints change rows as an aligned table, JSON Lines or CSV.
type changeWriter struct {
	f       string
	w       io.Writer
	tw      *tabwriter.Writer
	cw      *csv.Writer
	started bool
	pending int
}

func newChangeWriter(w io.Writer, f string) *changeWriter {
	return &changeWriter{f: f, w: w, tw: tabwriter.NewWriter(w, 0, 0, 2, ' ', 0), cw: csv.NewWriter(w)}
}

// image is a before/after image as a value: nil when there is none.
func image(m map[string]any) any {
	if m == nil {
		return nil
	}
	return records.JSONValue(m)
}

func (cw *changeWriter) write(ch records.Change) error {
	switch cw.f {
	case "json":
		row := orderedRow{{"op", ch.Op}, {"ts_ms", ch.TsMs}, {"before", image(ch.Before)}, {"after", image(ch.After)}}
		b, err := row.MarshalJSON()
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(cw.w, "%s\n", b)
		return err
	case "csv":
		if !cw.started {
			cw.started = true
			if err := cw.cw.Write(changeColumns); err != nil {
				return err
			}
		}
		return cw.cw.Write([]string{ch.Op, ch.TsMs, records.Text(image(ch.Before)), records.Text(image(ch.After))})
	}
	if !cw.started {
		cw.started = true
		fmt.Fprintln(cw.tw, strings.Join(changeColumns, "\t"))
	}
	cells := []string{ch.Op, ch.TsMs, records.Text(image(ch.Before)), records.Text(image(ch.After))}
	for i := range cells {
		cells[i] = safetext.Terminal(cells[i])
	}
	if _, err := fmt.Fprintln(cw.tw, strings.Join(cells, "\t")); err != nil {
		return err
	}
	if cw.pending++; cw.pending >= 100 {
		cw.pending = 0
		return cw.tw.Flush()
	}
	return nil
}

func (cw *changeWriter) flush() error {
	switch cw.f {
	case "csv":
		cw.cw.Flush()
		return cw.cw.Error()
	case "text":
		return cw.tw.Flush()
	}
	return nil
}
