package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/records"
	"github.com/hudiscope/hudiscope/internal/safetext"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
)

// SnapshotCmd prints or counts the rows a snapshot query returns, optionally as of an instant.
type SnapshotCmd struct {
	Table string   `arg:"" help:"Table path: directory, .zip, s3://, s3a:// or hdfs:// URI."`
	AsOf  string   `name:"as-of" placeholder:"T" help:"Time travel (as.of.instant): the table as of instant time T, compared with requested (instant) times as Hudi does."`
	Where []string `name:"where" sep:"none" placeholder:"COLUMN=VALUE" help:"Keep the rows whose COLUMN equals VALUE (its typed value: numbers compare numerically, null matches null; repeatable, ANDed). A partition field prunes partitions; the record key field prunes file groups through the table's index."`
	RowFlags
	OutputFlags
	TableFlags
	ScaleFlags
}

func (c *SnapshotCmd) Help() string {
	return `Reads the table's records as a snapshot query does: the latest file slice of every file group, base file merged with its log files (one slice in memory at a time). --as-of reads the table as it was at an instant (Hudi's time travel). -o text prints an aligned table, json one JSON object per line (JSON Lines), csv a header and rows; values keep their logical types (decimals exact, dates as YYYY-MM-DD, timestamps in UTC, nested values as JSON). ` + csvTerminalHelp
}

func (c *SnapshotCmd) examples() []string {
	return []string{
		`hudiscope snapshot table.zip --count`,
		`hudiscope snapshot table.zip --as-of 20261129155610512 --count --by commit`,
		`hudiscope snapshot s3://bucket/orders --columns id,ts --limit 10 -o csv`,
		`hudiscope snapshot table.zip --where dt=2024-01-01 --where id=8`,
	}
}

func (c *SnapshotCmd) Run(ctx context.Context) error {
	f, err := c.rowFormat()
	if err != nil {
		return err
	}
	if err := c.check(); err != nil {
		return err
	}
	var preds []model.Predicate
	for _, w := range c.Where {
		p, err := model.ParsePredicate(w)
		if err != nil {
			return codeError{exitUsage, "--where " + err.Error()}
		}
		preds = append(preds, p)
	}
	opts := c.options(c.Table, []model.Step{model.StepFiles}, nil)
	if err := c.tableOptions(&opts); err != nil {
		return err
	}
	opts.Archived = c.AsOf != "" // an --as-of before the active timeline is judged against the archived writes
	s, err := load(ctx, opts, model.StepTimeline, model.StepFiles)
	if err != nil {
		return err
	}
	defer reportProblems(s)
	q := model.SnapshotQuery{AsOf: c.AsOf, RowColumns: c.rowColumns(), Where: preds}
	return c.writeOutput(func(w io.Writer) error {
		// The latest slices stand for an --as-of read's older ones too (a bound, not a plan).
		scan := s.View
		if len(preds) > 0 {
			v, plan, err := s.WhereView(ctx, c.AsOf, preds)
			if err != nil {
				return err
			}
			scan = v
			if plan.PartitionsPruned > 0 || plan.KeyMethod != "" {
				warnf("note: --where: %d partition(s) pruned by the partition fields; %d file group(s) ruled out by the record key (%s)", plan.PartitionsPruned, plan.GroupsPruned, orNone(plan.KeyMethod))
			}
		}
		done, err := c.handOff(ctx, w, model.SliceScanSize(scan), func() (report.SparkRead, error) {
			loc, err := sparkLocation(c.Table)
			out := c.RowFlags.spark()
			out.Where = sparkWhere(preds)
			return report.SnapshotSpark(c.SparkTable, loc, c.AsOf, out), err
		})
		if done {
			return err
		}
		return writeRows(w, f, c.RowFlags, func(fn func(*records.Batch) error) (records.Stats, error) {
			return s.SnapshotBatches(ctx, q, fn)
		})
	})
}

// sparkWhere is --where in Spark SQL: a backquoted column equal to the value, a number bare,
// null as IS NULL, anything else a string literal.
func sparkWhere(preds []model.Predicate) []string {
	out := make([]string, 0, len(preds))
	for _, p := range preds {
		col := "`" + strings.ReplaceAll(p.Column, "`", "``") + "`"
		switch _, err := strconv.ParseFloat(strings.TrimSpace(p.Value), 64); {
		case p.Value == "null":
			out = append(out, col+" IS NULL")
		case err == nil:
			out = append(out, col+" = "+strings.TrimSpace(p.Value))
		default:
			out = append(out, col+" = "+report.SQLString(p.Value))
		}
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// csvTerminalHelp is the row commands' promise about CSV's bytes (issue 31).
const csvTerminalHelp = `CSV to a terminal escapes control characters as text does (ESC as \x1b, newline as \n), so a value cannot recolour or retitle it; to a file or pipe (--output-file, a redirect) values are exact bytes, quoted per RFC 4180.`

// rowFormat is the output format of the row commands: text (default), json (JSON Lines) or csv.
func (o OutputFlags) rowFormat() (string, error) {
	f, err := o.format("text", "text", "json", "csv")
	if err != nil {
		return "", codeError{exitUsage, err.Error()}
	}
	return f, nil
}

// RowFlags say how a row command (snapshot, incremental) prints what it read.
type RowFlags struct {
	Count   bool     `name:"count" help:"Print the number of rows only."`
	By      string   `name:"by" enum:",commit,partition" default:"" help:"With --count: one 'KEY count' line per commit time or partition."`
	Columns []string `name:"columns" sep:"," help:"Columns to print beside the meta columns (default: every column)."`
	Limit   int      `name:"limit" help:"Print at most N rows (0: all)."`
	// BootstrapSourcePrefix rewrites where a bootstrapped table's source files are read from.
	BootstrapSourcePrefix []string `name:"bootstrap-source-prefix" sep:"none" placeholder:"OLD=NEW" help:"Bootstrapped tables: read source files whose recorded path starts with OLD from NEW instead (data moved or copied since the bootstrap; split at the first =; repeatable)."`
}

// tableOptions adds the row flags' table options to opts: the bootstrap source rewrites.
func (o RowFlags) tableOptions(opts *model.Options) error {
	for _, s := range o.BootstrapSourcePrefix {
		m, err := hudi.ParsePrefixMap(s)
		if err != nil {
			return codeError{exitUsage, "--bootstrap-source-prefix " + err.Error()}
		}
		opts.BootstrapPrefixes = append(opts.BootstrapPrefixes, m)
	}
	return nil
}

// spark is the Spark form of what the flags print.
func (o RowFlags) spark() report.SparkSelect {
	return report.SparkSelect{Count: o.Count, By: o.By, Columns: o.Columns, Limit: o.Limit}
}

// check refuses the combination kong's tags cannot: --by without --count.
func (o RowFlags) check() error {
	if o.By != "" && !o.Count {
		return codeError{exitUsage, "--by needs --count"}
	}
	return nil
}

// rowColumns is the projection the read needs: the asked columns, or every one unless counting.
func (o RowFlags) rowColumns() model.RowColumns {
	return model.RowColumns{Columns: o.Columns, All: !o.Count}
}

var errLimit = errors.New("row limit reached")

// writeRows runs read and prints its rows (or their count) in format f; problems met while
// reading go to stderr. An ErrRowsUnknown from the read is a usage-level answer (exit 2).
func writeRows(w io.Writer, f string, out RowFlags, read func(func(*records.Batch) error) (records.Stats, error)) error {
	if out.Count {
		// Counting converts no values: only the grouping column, and only with --by.
		counts := map[string]int{}
		total := 0
		st, err := read(func(b *records.Batch) error {
			total += b.Len()
			for i := range b.Len() {
				switch out.By {
				case "commit":
					counts[b.CommitTime(i)]++
				case "partition":
					counts[b.Partition(i)]++
				}
			}
			return nil
		})
		if err != nil {
			return rowsError(err)
		}
		warnScan(st)
		return writeCount(w, f, total, out.By, counts)
	}
	rw := newRowWriter(w, f, out.Columns)
	n := 0
	st, err := read(func(b *records.Batch) error {
		for i := range b.Len() {
			if out.Limit > 0 && n >= out.Limit {
				return errLimit
			}
			n++
			if err := rw.writeRow(outRow{b: b, i: i}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil && !errors.Is(err, errLimit) {
		rw.flush()
		return rowsError(err)
	}
	warnScan(st)
	return rw.flush()
}

func rowsError(err error) error {
	var unknown model.ErrRowsUnknown
	if errors.As(err, &unknown) {
		return codeError{exitUsage, unknown.Why}
	}
	return err
}

// countDoc is the JSON form of --count.
type countDoc struct {
	SchemaVersion string       `json:"schemaVersion"`
	Count         int          `json:"count"`
	By            string       `json:"by,omitempty"`
	Groups        []countGroup `json:"groups,omitempty"`
}

type countGroup struct {
	Key   string `json:"key"`
	Count int    `json:"count"`
}

func writeCount(w io.Writer, f string, total int, by string, counts map[string]int) error {
	keys := report.SortedKeys(counts)
	switch f {
	case "json":
		doc := countDoc{SchemaVersion: report.SchemaVersion, Count: total, By: by}
		for _, k := range keys {
			doc.Groups = append(doc.Groups, countGroup{k, counts[k]})
		}
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(doc)
	case "csv":
		cw := csv.NewWriter(w)
		key := func(k string) string { return k }
		if isTerminal(w) { // a grouping key is data (a partition path, a commit time): as rows
			key = safetext.Terminal
		}
		if by == "" {
			_ = cw.Write([]string{"count"})
			_ = cw.Write([]string{strconv.Itoa(total)})
		} else {
			_ = cw.Write([]string{by, "count"})
			for _, k := range keys {
				_ = cw.Write([]string{key(k), strconv.Itoa(counts[k])})
			}
		}
		cw.Flush()
		return cw.Error()
	}
	if by == "" {
		_, err := fmt.Fprintln(w, total)
		return err
	}
	for _, k := range keys {
		label := k
		if label == "" && by == "partition" {
			label = `""` // the non-partitioned table's one partition
		}
		if _, err := fmt.Fprintf(w, "%s %d\n", safetext.Terminal(label), counts[k]); err != nil {
			return err
		}
	}
	return nil
}

func warnScan(st records.Stats) {
	for _, n := range st.Notes {
		warn("note:", safetext.Terminal(n))
	}
	for _, p := range st.Problems {
		warn("warning:", safetext.Terminal(p.String()))
	}
	if st.FailedSlices > 0 {
		warnf("warning: %d of %d file slice(s) could not be read; their rows are missing", st.FailedSlices, st.Slices)
	}
	if st.UndecodedDeletes > 0 {
		warnf("warning: %d delete block(s) in a Java-serialised form (Hudi 0.x) were not applied; the records they delete are counted", st.UndecodedDeletes)
	}
}

// rowWriter prints records as an aligned text table, JSON Lines or CSV. The text and CSV
// columns are the reader schema's when the read knows it (else the first record's; later
// columns print in JSON only), and every JSON row has each of them (null where the record was
// written before the column was added); text is aligned in blocks of 100 rows so output streams.
type rowWriter struct {
	f       string
	w       io.Writer
	asked   []string
	cols    []string
	all     withSchema
	tw      *tabwriter.Writer
	cw      *csv.Writer
	pending int
	// escape: CSV bound for a terminal escapes control characters as text does (a value's
	// ESC/OSC sequence would recolour or retitle it); to a file or pipe the bytes stay exact.
	escape bool
}

func newRowWriter(w io.Writer, f string, asked []string) *rowWriter {
	rw := &rowWriter{f: f, w: w, asked: asked}
	switch f {
	case "csv":
		rw.cw = csv.NewWriter(w)
		rw.escape = isTerminal(w)
	case "text":
		rw.tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	}
	return rw
}

// outRow is a row rowWriter prints: a Record, or row i of a batch (its values converted one
// by one as printed, no map built).
type outRow struct {
	rec *records.Record
	sch []string // a Record's reader schema (a batch row's is the batch's)
	b   *records.Batch
	i   int
}

func (o outRow) fields() []string {
	if o.rec != nil {
		return o.rec.Fields
	}
	return o.b.RowFields(o.i)
}

// schema is the reader schema's columns (nil: unknown).
func (o outRow) schema() []string {
	if o.b != nil {
		return o.b.Schema
	}
	return o.sch
}

// withSchema are a row's columns when every column is printed: the reader schema's (a record
// written before a column was added prints it as null, as Spark returns it), then any column
// of the row's file the schema lacks; the row's own without a schema.
type withSchema struct {
	schema, fields []string // the last answer's inputs (compared by identity: they are shared)
	out            []string
}

func (w *withSchema) columns(schema, fields []string) []string {
	if len(schema) == 0 {
		return fields
	}
	if w.out != nil && sameSlice(schema, w.schema) && sameSlice(fields, w.fields) {
		return w.out
	}
	out := schema
	for _, f := range fields {
		if !slices.Contains(schema, f) {
			if len(out) == len(schema) {
				out = append(schema[:len(schema):len(schema)], f)
				continue
			}
			out = append(out, f)
		}
	}
	w.schema, w.fields, w.out = schema, fields, out
	return out
}

func sameSlice(a, b []string) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

func (o outRow) get(c string) any {
	if o.rec != nil {
		return o.rec.Values[c]
	}
	return o.b.Get(o.i, c)
}

// columnsOf is a row's columns (fields): the meta columns and the asked ones, or all of them.
func columnsOf(fields []string, asked []string) []string {
	if len(asked) == 0 && len(fields) > 0 {
		return fields
	}
	cols := []string{records.CommitTime, records.RecordKey, records.PartitionPath}
	for _, c := range asked {
		if !slices.Contains(cols, c) {
			cols = append(cols, c)
		}
	}
	return cols
}

func (rw *rowWriter) write(r records.Record) error { return rw.writeRow(outRow{rec: &r}) }

func (rw *rowWriter) writeRow(r outRow) error {
	if rw.cols == nil {
		rw.cols = columnsOf(rw.all.columns(r.schema(), r.fields()), rw.asked)
		switch rw.f {
		case "csv":
			if err := rw.cw.Write(rw.csvCells(slices.Clone(rw.cols))); err != nil {
				return err
			}
		case "text":
			rw.header()
		}
	}
	switch rw.f {
	case "json":
		cols := rw.cols
		if f := rw.all.columns(r.schema(), r.fields()); len(rw.asked) == 0 && len(f) > 0 {
			cols = f
		}
		row := make(orderedRow, 0, len(cols))
		for _, c := range cols {
			row = append(row, [2]any{c, records.JSONValue(r.get(c))})
		}
		b, err := row.MarshalJSON()
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(rw.w, "%s\n", b)
		return err
	case "csv":
		rec := make([]string, len(rw.cols))
		for i, c := range rw.cols {
			rec[i] = records.Text(r.get(c))
		}
		return rw.cw.Write(rw.csvCells(rec))
	}
	cells := make([]string, len(rw.cols))
	for i, c := range rw.cols {
		cells[i] = safetext.Terminal(records.Text(r.get(c)))
	}
	if _, err := fmt.Fprintln(rw.tw, strings.Join(cells, "\t")); err != nil {
		return err
	}
	rw.pending++
	if rw.pending >= 100 {
		rw.pending = 0
		return rw.tw.Flush()
	}
	return nil
}

// csvCells escapes cells in place when the CSV goes to a terminal.
func (rw *rowWriter) csvCells(cells []string) []string {
	if rw.escape {
		for i, c := range cells {
			cells[i] = safetext.Terminal(c)
		}
	}
	return cells
}

func (rw *rowWriter) header() {
	cells := make([]string, len(rw.cols))
	for i, c := range rw.cols {
		cells[i] = safetext.Terminal(c)
	}
	fmt.Fprintln(rw.tw, strings.Join(cells, "\t"))
}

func (rw *rowWriter) flush() error {
	switch rw.f {
	case "csv":
		rw.cw.Flush()
		return rw.cw.Error()
	case "text":
		return rw.tw.Flush()
	}
	return nil
}

// orderedRow encodes as a JSON object keeping the projection's column order.
type orderedRow [][2]any

func (r orderedRow) MarshalJSON() ([]byte, error) {
	// One encoder for the whole row (this runs per printed row); no HTML escaping (docs/json.md's
	// format rule). Encode ends each value with a newline, cut before the next byte.
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	b.WriteByte('{')
	for i, kv := range r {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := enc.Encode(kv[0]); err != nil {
			return nil, err
		}
		b.Truncate(b.Len() - 1)
		b.WriteByte(':')
		if err := enc.Encode(kv[1]); err != nil {
			return nil, err
		}
		b.Truncate(b.Len() - 1)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
