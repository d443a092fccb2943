package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/hudiscope/hudiscope/analyzers/layout"
	"github.com/hudiscope/hudiscope/internal/clock"
	"github.com/hudiscope/hudiscope/internal/redact"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
)

// LayoutCmd is HoodieTableLayoutAnalyzer in Go: base-file size statistics, skew and detectors.
// The Java tool's single-dash short names (-bp, -pp, -irc, …) are accepted with two dashes
// (--bp, --pp, --irc, …).
type LayoutCmd struct {
	Table           string `arg:"" optional:"" help:"Table path: directory, .zip, s3:// or s3a:// URI (or --base-path)."`
	BasePath        string `name:"base-path" aliases:"bp" help:"Table path (same as the positional argument)."`
	PropsPath       string `name:"props-path" aliases:"pp" type:"existingfile" help:"File listing base paths, one per line; one report per table."`
	TableStats      bool   `name:"enable-table-stats" aliases:"fs" help:"Show table-level statistics (TABLE output; JSON always has them)."`
	PartitionStats  bool   `name:"enable-partition-stats" aliases:"ps" help:"Per-partition statistics (partitions[])."`
	TopN            int    `name:"top-n" aliases:"tn" default:"0" help:"Show only the N largest partitions (0 = all)."`
	RowCounts       bool   `name:"include-row-counts" aliases:"irc" help:"Per-partition numRecords and avgRowSize, table totalRecords (Parquet footers of the latest base files)."`
	NumDays         int64  `name:"num-days" aliases:"nd" default:"0" help:"Only date partitions in [today-N, today) (N > 0)."`
	StartDate       string `name:"start-date" aliases:"sd" help:"Only date partitions on or after this date (yyyy/M/d or yyyy-M-d; beats --num-days)."`
	EndDate         string `name:"end-date" aliases:"ed" help:"Only date partitions before this date (yyyy/M/d or yyyy-M-d)."`
	Characteristics bool   `name:"analyze-table-characteristics" aliases:"atc" help:"Run the micro-partition, small-files and hot-partitions detectors."`
	PrintTopK       int    `name:"print-top-k" default:"0" help:"List the K partitions with the smallest average file size per detector."`

	MicroCount      int     `name:"micro-partition-count-threshold" default:"10000" help:"micro-partition: flag a table with more partitions than this."`
	MicroMinFiles   int     `name:"micro-partition-min-files" default:"25" help:"micro-partition: size rule needs at least this many base files."`
	MicroMaxAvg     int64   `name:"micro-partition-max-avg-bytes" default:"52428800" help:"micro-partition: flag when the average partition holds less than this many bytes."`
	MicroMinAge     int     `name:"micro-partition-min-age-days" default:"30" help:"micro-partition: size rule needs a table at least this many days old."`
	SmallThreshold  int64   `name:"small-files-threshold-bytes" default:"52428800" help:"small-files: a partition is small when its average base file is under this many bytes."`
	SmallMinFiles   int     `name:"small-files-min-files-per-partition" default:"5" help:"small-files: only partitions with at least this many base files qualify."`
	SmallModerate   float64 `name:"small-files-moderate-pct" default:"0.10" help:"small-files: MODERATE from this share of qualifying partitions being small."`
	SmallSevere     float64 `name:"small-files-severe-pct" default:"0.30" help:"small-files: SEVERE from this share."`
	SmallMinCommits int     `name:"small-files-min-table-commits" default:"10" help:"small-files: skip tables with fewer ingest commits than this."`
	HotWindow       int     `name:"hot-window-commits" default:"50" help:"hot-partitions: the number of recent ingest commits examined."`
	HotShare        float64 `name:"hot-partition-commit-share" default:"0.5" help:"hot-partitions: flag a partition written by at least this share of the window's commits."`
	OutputFlags
	TableFlags
}

func (c *LayoutCmd) examples() []string {
	return []string{
		`hudiscope layout s3://bucket/warehouse/orders --analyze-table-characteristics --print-top-k 5`,
		`hudiscope layout -bp table.zip -o JSON -irc -atc --output-file layout.json`,
	}
}

func (c *LayoutCmd) Run(ctx context.Context) error {
	format, err := c.format("text", "text", "json", "md")
	if err != nil {
		return codeError{exitError, err.Error()}
	}
	// The date interval is fixed once per run, before any table is read (Java: run()).
	dates, err := layout.DateInterval(c.NumDays, c.StartDate, c.EndDate, clock.Now())
	if err != nil {
		return codeError{exitError, err.Error()}
	}
	var tables []string
	switch {
	case c.PropsPath != "":
		// Java reads every line as a base path; hudiscope trims them and skips blank lines.
		b, err := os.ReadFile(c.PropsPath)
		if err != nil {
			return codeError{exitError, err.Error()}
		}
		for _, line := range strings.Split(string(b), "\n") {
			if line = strings.TrimSpace(line); line != "" {
				tables = append(tables, line)
			}
		}
		if len(tables) == 0 {
			return codeError{exitError, fmt.Sprintf("--props-path %s lists no base paths", c.PropsPath)}
		}
	case c.Table != "" && c.BasePath != "" && c.Table != c.BasePath:
		return codeError{exitError, "give the table either as the argument or with --base-path, not both"}
	case c.Table != "":
		tables = []string{c.Table}
	case c.BasePath != "":
		tables = []string{c.BasePath}
	default:
		return codeError{exitError, "base path needs to be set (argument, --base-path or --props-path)"}
	}
	// One report per table, in order; a failing table is reported and the rest still run
	// (Java stops at the first failure), and the exit code says something failed.
	// The output (maybe a pager) opens once the first table is loaded, so the progress line
	// stderr shows meanwhile is cleared before it; later tables show it only when the output
	// is a file (a pager owns the terminal by then).
	var (
		failed []string
		w      io.Writer
		done   = func() error { return nil }
	)
	out := func() (io.Writer, error) {
		if w == nil {
			var err error
			if w, done, err = c.open(); err != nil {
				return nil, codeError{exitError, err.Error()}
			}
		}
		return w, nil
	}
	defer func() { _ = done() }()
	toFile := c.OutputFile != "" && c.OutputFile != "-"
	for _, table := range tables {
		err := c.runTable(ctx, table, format, dates, out, w == nil || toFile)
		if err != nil {
			if _, oerr := out(); oerr != nil { // the output is opened even when every table failed
				return oerr
			}
			if len(tables) == 1 {
				return err
			}
			warn(fmt.Sprint(err))
			failed = append(failed, redact.Text(table))
		}
	}
	if err := done(); err != nil {
		return codeError{exitError, fmt.Sprintf("output file: %v", err)}
	}
	done = func() error { return nil }
	if len(failed) > 0 {
		return codeError{exitError, fmt.Sprintf("layout failed for %d of %d tables: %s", len(failed), len(tables), strings.Join(failed, ", "))}
	}
	return nil
}

// runTable loads one table (with the progress line when showProgress) and writes its report to
// out, opened after the load.
func (c *LayoutCmd) runTable(ctx context.Context, table, format string, dates *layout.Interval, out func() (io.Writer, error), showProgress bool) error {
	tune := func(opt *layout.Options) {
		opt.PartitionStats, opt.TopN, opt.Characteristics, opt.PrintTopK = c.PartitionStats, c.TopN, c.Characteristics, c.PrintTopK
		opt.IncludeRowCounts, opt.TableStats, opt.Dates = c.RowCounts, c.TableStats, dates
		opt.MicroPartitionCountThreshold, opt.MicroPartitionMinFiles, opt.MicroPartitionMaxAvgBytes, opt.MicroPartitionMinAgeDays =
			c.MicroCount, c.MicroMinFiles, c.MicroMaxAvg, c.MicroMinAge
		opt.SmallFilesThresholdBytes, opt.SmallFilesMinFilesPerPartition, opt.SmallFilesModeratePct, opt.SmallFilesSeverePct, opt.SmallFilesMinTableCommits =
			c.SmallThreshold, c.SmallMinFiles, c.SmallModerate, c.SmallSevere, c.SmallMinCommits
		opt.HotWindowCommits, opt.HotPartitionCommitShare = c.HotWindow, c.HotShare
	}
	opts := c.options(table, []model.Step{model.StepLayout}, nil)
	opts.TuneLayout = tune
	// The detectors read commit metadata (hot partitions: the window's write stats); without
	// them the report needs the timeline's names only (replacecommits are read for the view).
	opts.LazyCommits = !c.Characteristics
	s, err := loadProgress(ctx, opts, showProgress, model.StepTimeline, model.StepFiles, model.StepConfig, model.StepLayout)
	if err != nil {
		return codeError{exitError, err.Error()}
	}
	defer reportProblems(s)
	w, err := out()
	if err != nil {
		return err
	}
	opt := model.LayoutOptions(s.Effective)
	tune(&opt)
	r := new(layout.Result)
	*r = *s.Layout // the snapshot stays as loaded; the printed copy has its path redacted
	r.BasePath = redact.Text(r.BasePath)
	if r.Hudiscope != nil {
		x := *r.Hudiscope
		x.SchemaVersion = report.SchemaVersion
		r.Hudiscope = &x
	}
	switch format {
	case "json":
		return report.WriteJSON(w, r)
	case "md":
		_, err := io.WriteString(w, report.LayoutMarkdown(r, nil))
		return err
	}
	return report.LayoutText(w, r, opt)
}
