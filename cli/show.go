package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/hudiscope/hudiscope/hudi/tableconfig"
	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
	"github.com/hudiscope/hudiscope/view"
)

// ShowCmd prints one instant as the explorer's drill-down shows it (like `git show`).
type ShowCmd struct {
	Table   string `arg:"" help:"Table path: directory, .zip, s3://, s3a:// or hdfs:// URI."`
	Instant string `arg:"" help:"Requested time, completion time, or latest (the last completed write); TIME.ACTION picks one of several instants sharing a time."`
	Compare string `name:"compare" placeholder:"INSTANT" help:"Compare the write with another write: both writes' statistics side by side with deltas (first minus second)."`
	OutputFlags
	TableFlags
}

func (c *ShowCmd) Help() string {
	return `Shows everything the explorer's instant detail shows: times, operation, the write statistics per partition and per file (as hudi-cli commit showpartitions / showfiles and Spark's show_commit_partitions, show_commit_files, show_commit_write_stats count them), write amplification (stats wa), file sizes (stats filesizes) and the clean, rollback, restore, savepoint, compaction and clustering plans and metadata. An instant not on the active timeline is looked up in the archived timeline. An unknown or ambiguous INSTANT exits 2 and names the nearest instants.`
}

func (c *ShowCmd) examples() []string {
	return []string{
		`hudiscope show table.zip latest`,
		`hudiscope show s3://bucket/orders 20261129161800076 -o json | jq .writeStats.writeAmplification`,
		`hudiscope show table.zip 20261129161800076.savepoint`,
		`hudiscope show table.zip latest --compare 20261129161810138 -o md`,
	}
}

func (c *ShowCmd) Run(ctx context.Context) error {
	format, err := c.format("text", "text", "json", "md")
	if err != nil {
		return codeError{exitUsage, err.Error()}
	}
	opts := c.options(c.Table, []model.Step{model.StepTimeline}, nil)
	opts.LazyCommits = true
	s, err := load(ctx, opts, model.StepTimeline)
	if err != nil {
		return err
	}
	a, byA, err := resolveShowInstant(s, c.Instant)
	if err == nil && c.Compare != "" {
		if _, _, e := resolveShowInstant(s, c.Compare); e != nil {
			err = e
		}
	}
	if err != nil && !c.Archived {
		// Not on the active timeline: the archived timeline too (read only when needed).
		opts.Archived = true
		if s2, e := load(ctx, opts, model.StepTimeline); e == nil {
			s = s2
			a, byA, err = resolveShowInstant(s, c.Instant)
		}
	}
	if err != nil {
		return err
	}
	defer reportProblems(s)
	shA, err := showOf(ctx, s, a)
	if err != nil {
		return err
	}
	var cmp *view.Compare
	if c.Compare != "" {
		b, _, err := resolveShowInstant(s, c.Compare)
		if err != nil {
			return err
		}
		shB, err := showOf(ctx, s, b)
		if err != nil {
			return err
		}
		for _, x := range []view.Show{shA, shB} {
			if x.Stats == nil {
				return codeError{exitUsage, fmt.Sprintf("--compare compares two completed writes; %s is a %s %s without write statistics",
					x.In.RequestedTime, x.In.Action, strings.ToLower(string(x.In.State)))}
			}
		}
		v := view.NewCompare(shA, shB)
		cmp = &v
	}
	return c.writeOutput(func(w io.Writer) error {
		switch format {
		case "json":
			return report.WriteJSON(w, report.NewShowDocument(s.Config, shA, byA, cmp))
		case "md":
			return report.ShowMarkdown(w, s.Config, shA, cmp)
		}
		return writeShowText(w, s.Config, shA, cmp)
	})
}

// resolveShowInstant finds a show argument on the snapshot's timeline (archived instants
// included when read); an unknown or ambiguous one is a usage error naming the nearest.
func resolveShowInstant(s *model.Snapshot, arg string) (*timeline.Instant, string, error) {
	all := s.Timeline.All()
	m := view.FindInstant(all, arg)
	switch len(m) {
	case 1:
		return m[0].In, m[0].By, nil
	case 0:
		var b strings.Builder
		fmt.Fprintf(&b, "no instant %q on the timeline", arg)
		if s.Options.Archived {
			b.WriteString(" (active and archived)")
		}
		if near := view.NearestInstants(all, arg, 5); len(near) > 0 {
			b.WriteString("; nearest:")
			for _, in := range near {
				b.WriteString("\n  " + view.InstantLabel(in))
			}
		}
		return nil, "", codeError{exitUsage, b.String()}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%q matches %d instants; name one as TIME.ACTION:", arg, len(m))
	for _, x := range m {
		t, _, _ := strings.Cut(arg, ".")
		fmt.Fprintf(&b, "\n  %s.%s  (%s: %s)", t, x.In.Action, x.By, view.InstantLabel(x.In))
	}
	return nil, "", codeError{exitUsage, b.String()}
}

// showOf reads an instant's commit metadata and details and builds its show.
func showOf(ctx context.Context, s *model.Snapshot, in *timeline.Instant) (view.Show, error) {
	s.StreamCommits(ctx, []*timeline.Instant{in}, false)(0)
	d, err := s.InstantDetails(ctx, in)
	if err != nil {
		return view.Show{}, fmt.Errorf("instant %s: %w", in.RequestedTime, err)
	}
	return view.NewShow(in, d), nil
}

func writeShowText(w io.Writer, c *tableconfig.Config, s view.Show, cmp *view.Compare) error {
	bw := &errWriter{w: w}
	fmt.Fprintf(bw, "%s · %s · table version %d\n", c.Name, c.Type, c.Version)
	facts := s.Detail.Info
	if s.Stats != nil {
		facts = append(append([][2]string(nil), facts...), s.Stats.StatsFacts()...)
	}
	if err := writeFacts(bw, facts); err != nil {
		return err
	}
	for _, n := range s.Detail.Notes {
		fmt.Fprintln(bw, "note: "+n)
	}
	for _, t := range s.Tables() {
		fmt.Fprintf(bw, "\n%s\n", t.Title)
		if err := writeDetailTable(bw, t); err != nil {
			return err
		}
	}
	if cmp != nil {
		fmt.Fprintf(bw, "\ncompared with %s %s (delta = %s minus %s)\n", cmp.B.In.RequestedTime, cmp.B.In.Action, cmp.A.In.RequestedTime, cmp.B.In.RequestedTime)
		rows := report.CompareRows(*cmp)
		if err := writeAligned(bw, rows, []bool{false, true, true, true, true}); err != nil {
			return err
		}
		if cmp.MovedMost >= 0 {
			m := cmp.Metrics[cmp.MovedMost]
			fmt.Fprintf(bw, "moved most: %s (%s)\n", m.Name, report.ChangeOf(m))
		}
	}
	return bw.err
}

// writeFacts prints labelled facts as "label: value", labels aligned.
func writeFacts(w io.Writer, facts [][2]string) error {
	return columns{rows: func(row func(...string)) {
		for _, f := range facts {
			row("  "+f[0]+":", f[1])
		}
	}}.write(w)
}

// writeDetailTable prints a drill-down table: a header row and its rows (raw JSON as written).
func writeDetailTable(w io.Writer, t view.DetailTable) error {
	if t.Raw != nil {
		for _, l := range t.Raw {
			fmt.Fprintln(w, "  "+l)
		}
		return nil
	}
	if len(t.Rows) == 0 {
		_, err := fmt.Fprintln(w, "  (none)")
		return err
	}
	rows := [][]string{t.Columns}
	for i := range t.Rows {
		rows = append(rows, t.Texts(i))
	}
	return writeAligned(w, rows, t.Right)
}

// writeAligned prints rows in columns two spaces apart, indented by two, the columns marked
// in right right-aligned; cells are escaped for the terminal.
func writeAligned(w io.Writer, rows [][]string, right []bool) error {
	var widths []int
	for i, r := range rows {
		rows[i] = safeCells(r)
		for j, c := range rows[i] {
			if j == len(widths) {
				widths = append(widths, 0)
			}
			widths[j] = max(widths[j], utf8.RuneCountInString(c))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		line := " "
		for j, c := range r {
			pad := strings.Repeat(" ", widths[j]-utf8.RuneCountInString(c))
			if j < len(right) && right[j] {
				line += " " + pad + c
			} else {
				line += " " + c + pad
			}
			line += " "
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// errWriter keeps the first write error.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}
