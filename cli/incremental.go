package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/hudiscope/hudiscope/internal/safetext"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/hudiscope/hudiscope/analyzers/checkpoint"
	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/records"
	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/model"
)

// IncrQueryCmd answers what an incremental query from --begin returns, record by record.
type IncrQueryCmd struct {
	Table    string   `arg:"" help:"Table path: directory, .zip, s3://, s3a:// or hdfs:// URI."`
	Begin    string   `name:"begin" required:"" help:"hoodie.datasource.read.begin.instanttime."`
	End      string   `name:"end" help:"hoodie.datasource.read.end.instanttime (records as of that time)."`
	Fallback string   `name:"fallback-full-table-scan" enum:",true,false" default:"" help:"hoodie.datasource.read.incr.fallback.fulltablescan.enable (unset: the reader's default)."`
	Count    bool     `name:"count" help:"Print the number of rows only."`
	By       string   `name:"by" enum:",commit,partition" default:"" help:"With --count: one 'KEY count' line per commit time or partition."`
	Columns  []string `name:"columns" sep:"," help:"Columns to print beside the meta columns (top-level columns only)."`
	Limit    int      `name:"limit" help:"Print at most N rows (0: all)."`
	OutputFlags
	TableFlags
}

func (c *IncrQueryCmd) Help() string {
	return `Reads the table's records the way an incremental query of the reading release (--hudi-version, else the installed bundle, else the newest line that reads the table) does: the latest version of each record whose latest write is among the writes returned for --begin. Without --count, rows are printed as JSON lines of the projected columns.`
}

func (c *IncrQueryCmd) examples() []string {
	return []string{
		`hudiscope incremental table.zip --begin 20261129155610512 --count`,
		`hudiscope incremental table.zip --begin 000 --count --by commit --hudi-version 1.0.2`,
		`hudiscope incremental s3://bucket/orders --begin 20261129155610512 --columns id,ts --limit 10`,
	}
}

func (c *IncrQueryCmd) Run(ctx context.Context) error {
	if _, err := c.format("text", "text"); err != nil {
		return codeError{exitUsage, err.Error()}
	}
	if c.By != "" && !c.Count {
		return codeError{exitUsage, "--by needs --count"}
	}
	opts := c.options(c.Table, []model.Step{model.StepFiles}, nil)
	opts.Archived = true // a begin value older than the active timeline is judged against it
	s, err := load(ctx, opts, model.StepTimeline, model.StepFiles)
	if err != nil {
		return err
	}
	defer reportProblems(s)
	rds, err := s.Readers()
	if err != nil {
		return codeError{exitUsage, err.Error()}
	}
	rd := rds[len(rds)-1]
	if len(rds) > 1 {
		fmt.Fprintf(os.Stderr, "hudiscope: no --hudi-version: reading as Hudi %s (%s)\n", rd.Line, rd.Rule())
	}
	q := incrementalQuery{Begin: c.Begin, End: c.End, Reader: rd, Columns: c.Columns, NoMDT: c.NoMDT}
	switch c.Fallback {
	case "true", "false":
		b := c.Fallback == "true"
		q.Fallback = &b
	}
	return c.writeOutput(func(w io.Writer) error {
		if c.Count {
			counts := map[string]int{}
			total := 0
			st, err := runIncremental(ctx, s.Table, s.Timeline, s.View, q, func(r records.Record) error {
				total++
				switch c.By {
				case "commit":
					counts[r.CommitTime]++
				case "partition":
					counts[r.Partition]++
				}
				return nil
			})
			if err != nil {
				return err
			}
			warnScan(st)
			if c.By == "" {
				fmt.Fprintln(w, total)
				return nil
			}
			for _, k := range records.SortedKeys(counts) {
				fmt.Fprintf(w, "%s %d\n", safetext.Terminal(k), counts[k])
			}
			return nil
		}
		enc := json.NewEncoder(w)
		n := 0
		cols := append([]string{records.CommitTime, records.RecordKey, records.PartitionPath}, c.Columns...)
		st, err := runIncremental(ctx, s.Table, s.Timeline, s.View, q, func(r records.Record) error {
			if c.Limit > 0 && n >= c.Limit {
				return errLimit
			}
			n++
			row := make(orderedRow, 0, len(cols))
			for _, col := range cols {
				row = append(row, [2]any{col, r.Values[col]})
			}
			return enc.Encode(row)
		})
		if err != nil && err != errLimit {
			return err
		}
		warnScan(st)
		return nil
	})
}

var errLimit = fmt.Errorf("row limit reached")

// orderedRow encodes as a JSON object keeping the projection's column order.
type orderedRow [][2]any

func (r orderedRow) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, kv := range r {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(kv[0])
		v, err := json.Marshal(kv[1])
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

func warnScan(st records.Stats) {
	for _, p := range st.Problems {
		fmt.Fprintln(os.Stderr, "hudiscope: warning:", p.String())
	}
	if st.UndecodedDeletes > 0 {
		fmt.Fprintf(os.Stderr, "hudiscope: warning: %d delete block(s) in a Java-serialised form (Hudi 0.x) were not applied; the records they delete are counted\n", st.UndecodedDeletes)
	}
}

// incrementalQuery is one incremental read: its options and the reading release line.
type incrementalQuery struct {
	Begin, End string
	Fallback   *bool // nil: option unset
	Reader     checkpoint.Reader
	Columns    []string
	NoMDT      bool
}

// errIncrementalUnknown marks reads whose result the reader line does not define well
// enough to reproduce.
type errIncrementalUnknown struct{ why string }

func (e errIncrementalUnknown) Error() string { return e.why }

// incrementalCommits returns the commit times whose records the read returns (nil: every
// record, a full table scan).
func incrementalCommits(ctx context.Context, t *hudi.Table, tl *timeline.Timeline, q incrementalQuery) (map[string]bool, error) {
	r := checkpoint.Check(ctx, t, tl, q.Begin, q.Reader)
	out := map[string]bool{}
	add := func(w *timeline.Instant) {
		key := w.RequestedTime
		if q.Reader.CompletionOrdered() {
			key = w.CompletionTime
		}
		if q.End == "" || timeline.CompareInstants(key, q.End) <= 0 {
			out[w.RequestedTime] = true
		}
	}
	for _, w := range r.Covered {
		add(w)
	}
	archived := archivedWrites(tl)
	if r.InActiveTimeline || len(archived) == 0 {
		return out, nil
	}
	// Measured with Spark (docs/incremental-semantics.md), before the active timeline:
	switch {
	case q.Reader.Line == "0.x":
		// 0.x returns the active writes only; with the fallback on, a begin older than every
		// archived write scans the whole table.
		if q.Fallback != nil && *q.Fallback && q.End == "" && timeline.CompareInstants(q.Begin, archived[0].RequestedTime) < 0 {
			return nil, nil
		}
	case !t.IsMOR():
		// 1.x copy-on-write applies its rule to archived writes too.
		all := true
		for _, w := range archived {
			if returns(q.Reader, w, q.Begin) {
				add(w)
			} else {
				all = false
			}
		}
		if all && q.End == "" {
			return nil, nil // older than every write: the whole table
		}
	case q.Reader.Line == "1.0.x":
		return nil, errIncrementalUnknown{"Hudi 1.0.x's incremental read of a merge-on-read table from before the active timeline depends on the fallback setting and may miss active writes; its result is not reproduced"}
	}
	// 1.1+ merge-on-read: the latest records of the active writes.
	return out, nil
}

// returns applies the reader's rule to one write (checkpoint.Check does so for active ones).
func returns(rd checkpoint.Reader, w *timeline.Instant, begin string) bool {
	key := w.RequestedTime
	if rd.CompletionOrdered() {
		key = w.CompletionTime
	}
	c := timeline.CompareInstants(key, begin)
	return c > 0 || rd.Inclusive && c == 0
}

// archivedWrites are the completed archived writes that return records, oldest first.
func archivedWrites(tl *timeline.Timeline) []*timeline.Instant {
	var out []*timeline.Instant
	for _, in := range tl.Archived {
		if in.State != timeline.Completed || !timeline.IsWriteAction(in.Action) {
			continue
		}
		switch in.PlanAction {
		case timeline.ActionClustering, timeline.ActionCompaction, timeline.ActionLogCompaction:
			continue
		}
		out = append(out, in)
	}
	sort.Slice(out, func(a, b int) bool { return timeline.CompareInstants(out[a].RequestedTime, out[b].RequestedTime) < 0 })
	return out
}

// asOf is the timeline as of end: instants the reader sees completed by then.
func asOf(tl *timeline.Timeline, end string, rd checkpoint.Reader) *timeline.Timeline {
	out := &timeline.Timeline{Archived: tl.Archived, ByRequested: tl.ByRequested}
	for _, in := range tl.Instants {
		key := in.RequestedTime
		if rd.CompletionOrdered() && in.State == timeline.Completed {
			key = in.CompletionTime
		}
		if timeline.CompareInstants(key, end) <= 0 {
			out.Instants = append(out.Instants, in)
		}
	}
	return out
}

// runIncremental calls fn for every record the incremental read q returns: the latest
// version (as of q.End) of each record whose latest write is among the returned writes.
func runIncremental(ctx context.Context, t *hudi.Table, tl *timeline.Timeline, view *filegroup.View, q incrementalQuery, fn func(records.Record) error) (records.Stats, error) {
	commits, err := incrementalCommits(ctx, t, tl, q)
	if err != nil {
		return records.Stats{}, err
	}
	if q.End != "" {
		src := hudi.ListingAuto
		if q.NoMDT {
			src = hudi.ListingStorage
		}
		parts, err := t.ListPartitions(ctx, tl, src)
		if err != nil {
			return records.Stats{}, err
		}
		tl = asOf(tl, q.End, q.Reader)
		view = t.BuildView(ctx, tl, parts, filegroup.SourceStorage)
	}
	o := records.Options{Columns: q.Columns, OrderingFields: t.Config.OrderingFields, Mode: records.ModeFor(t.Config), CommitTimes: commits}
	if commits != nil && len(commits) == 0 {
		return records.Stats{}, nil
	}
	return records.Scan(ctx, t, tl, view, o, fn)
}

// commitCounts is the --count --by commit answer, for tests.
func commitCounts(ctx context.Context, t *hudi.Table, tl *timeline.Timeline, view *filegroup.View, q incrementalQuery) (map[string]int, error) {
	out := map[string]int{}
	_, err := runIncremental(ctx, t, tl, view, q, func(r records.Record) error {
		out[r.CommitTime]++
		return nil
	})
	return out, err
}
