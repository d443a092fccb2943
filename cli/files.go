package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/tableconfig"
	"github.com/hudiscope/hudiscope/internal/progress"
	"github.com/hudiscope/hudiscope/internal/safetext"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
	"github.com/hudiscope/hudiscope/view"
)

// FilesCmd lists the latest file slice of every live file group.
type FilesCmd struct {
	Table string `arg:"" help:"Table path: directory, .zip, s3://, s3a:// or hdfs:// URI."`
	OutputFlags
	TableFlags
	Partition string `name:"partition" placeholder:"P" help:"Only partitions whose path is P or matches the glob P (dt=2024-*, matched against the whole path or its leading segments)."`
	Limit     int    `name:"limit" placeholder:"N" help:"List at most N file groups (in partition, then file id order)."`
}

func (c *FilesCmd) examples() []string {
	return []string{
		`hudiscope files table.zip`,
		`hudiscope files --no-mdt -o json s3://bucket/warehouse/orders > files.json`,
		`hudiscope files table.zip --partition 'dt=2024-*' --limit 20`,
	}
}

func (c *FilesCmd) Run(ctx context.Context) error {
	format, err := c.format("text", "text", "json")
	if err != nil {
		return codeError{exitUsage, err.Error()}
	}
	filter, err := view.ParseFileFilter(c.Partition, c.Limit)
	if err != nil {
		return codeError{exitUsage, err.Error()}
	}
	opts := c.options(c.Table, []model.Step{model.StepTimeline}, nil)
	opts.LazyCommits = true // the view reads replacecommits and pending plans only
	s, err := load(ctx, opts, model.StepTimeline)
	if err != nil {
		return err
	}
	defer reportProblems(s)
	// On a terminal, stderr counts the files listed so far (cleared before the output).
	prog := progress.OnStderr("listing %s files…")
	defer prog.Done()
	sel := filter.Selector()
	each := func(begin func(string) error, emit func(*filegroup.Partition) error) error {
		err := s.EachPartition(ctx, begin, func(p *filegroup.Partition) error {
			prog.Add(p.NumFiles())
			if q := sel.Select(p); q != nil {
				if err := emit(q); err != nil {
					return err
				}
			}
			if sel.Done() {
				return errLimitReached // the rest need not be listed
			}
			return nil
		})
		if errors.Is(err, errLimitReached) {
			err = nil
		}
		return err
	}
	if format == "json" {
		return c.runJSON(each, filter, prog)
	}
	v := &filegroup.View{}
	err = each(func(src string) error { v.Source = src; return nil },
		func(p *filegroup.Partition) error { v.Partitions = append(v.Partitions, p); return nil })
	if err != nil {
		return err
	}
	prog.Done()
	return c.writeOutput(func(w io.Writer) error { return writeFilesText(w, s.Config, v, filter) })
}

// runJSON writes each partition while later ones are still listed (Snapshot.EachPartition):
// writing overlaps the listing, and no more than a few partitions are held at a time. The
// output is opened with the first byte, so a table that cannot be listed leaves an
// --output-file untouched, as when the whole view was built first.
func (c *FilesCmd) runJSON(each func(func(string) error, func(*filegroup.Partition) error) error, filter view.FileFilter, prog *progress.Reporter) error {
	out := &lazyOutput{open: func() (io.Writer, func() error, error) {
		prog.Done() // the count's line is cleared before the document starts (a pager takes the terminal)
		return c.open()
	}}
	jw := report.NewFilesJSONWriter(out)
	if filter.Active() {
		jw.Filter = &report.FilesFilterJSON{Partition: filter.Partition, Limit: filter.Limit}
	}
	err := each(jw.Begin, jw.Partition)
	if err == nil {
		err = jw.Close()
	}
	if cerr := out.close(); err == nil && cerr != nil {
		err = fmt.Errorf("output file: %w", cerr)
	}
	return err
}

// errLimitReached stops a listing once --limit file groups were written.
var errLimitReached = errors.New("limit reached")

// lazyOutput opens the output at its first write.
type lazyOutput struct {
	open func() (io.Writer, func() error, error)
	w    io.Writer
	done func() error
}

func (l *lazyOutput) Write(p []byte) (int, error) {
	if l.w == nil {
		w, done, err := l.open()
		if err != nil {
			return 0, err
		}
		l.w, l.done = w, done
	}
	return l.w.Write(p)
}

func (l *lazyOutput) close() error {
	if l.done == nil {
		return nil
	}
	return l.done()
}

func writeFilesText(w io.Writer, c *tableconfig.Config, fv *filegroup.View, filter view.FileFilter) error {
	var sel string
	if filter.Partition != "" {
		sel += " · --partition " + safetext.Terminal(filter.Partition)
	}
	if filter.Limit > 0 {
		sel += fmt.Sprintf(" · --limit %d", filter.Limit)
	}
	fmt.Fprintf(w, "%s · %s · %s%s\n", safetext.Terminal(c.Name), c.Type, fv, sel)
	// A bootstrapped table's skeleton base files hold the meta columns only: their source
	// files get a column of their own (absent elsewhere, so other tables print as before).
	boot := false
	for _, p := range fv.Partitions {
		for _, g := range p.FileGroups {
			if s := g.Latest(); s != nil && s.Base != nil && s.Base.Bootstrap != nil {
				boot = true
			}
		}
	}
	return columns{rows: func(row func(...string)) {
		head := []string{"partition", "file id", "base file", "base bytes", "logs", "log bytes", "slices", "pending"}
		if boot {
			head = append(head, "bootstrap source")
		}
		row(head...)
		for _, p := range fv.Partitions {
			for _, g := range p.FileGroups {
				s := g.Latest()
				base, size := "-", int64(0)
				if s.Base != nil {
					base, size = s.Base.Name, s.Base.Size
				}
				var logBytes int64
				for _, l := range s.Logs {
					logBytes += l.Size
				}
				pending := ""
				if g.PendingCompaction != "" {
					pending = "compaction@" + g.PendingCompaction
				}
				if g.PendingClustering != "" {
					pending += " clustering@" + g.PendingClustering
				}
				cells := []string{partLabel(p.Path), g.FileID, base, itoa(size), itoa(len(s.Logs)), itoa(logBytes), itoa(len(g.Slices)), dash(pending)}
				if boot {
					src := "-"
					if s.Base != nil && s.Base.Bootstrap != nil {
						src = s.Base.Bootstrap.Path
					}
					cells = append(cells, src)
				}
				row(cells...)
			}
			if len(p.Replaced) > 0 {
				cells := []string{partLabel(p.Path), fmt.Sprintf("(%d replaced file groups hidden)", len(p.Replaced)), "", "", "", "", "", ""}
				if boot {
					cells = append(cells, "")
				}
				row(cells...)
			}
		}
	}}.write(w)
}

func partLabel(p string) string {
	if p == "" {
		return "(root)"
	}
	return p
}
