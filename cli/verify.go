package cli

import (
	"context"
	"fmt"
	"io"
	"regexp"

	"github.com/hudiscope/hudiscope/analyzers/eventlog"
	"github.com/hudiscope/hudiscope/analyzers/findings"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
	"github.com/hudiscope/hudiscope/view"
)

// Exit codes of `verify` (README): 0 moved as predicted, 3 no change, 4 moved the wrong way,
// 5 unknown (an input missing, a signal unreadable, or a row an event log cannot verify).
const (
	exitVerifyNoChange = 3
	exitVerifyWrongWay = 4
	exitVerifyUnknown  = 5
)

// VerifyCmd evaluates a catalog row's verification step on the event logs of the run before a
// change and the run after it, or with --table on two instants of the table.
type VerifyCmd struct {
	Row    string `arg:"" help:"Catalog row: OBS-001…OBS-030 or CAP-001…CAP-007."`
	Before string `name:"before" required:"" placeholder:"LOG|INSTANT" help:"Event log of the run before the change (a file, a rolling eventlog_v2_* directory or shs://…), or with --table an instant of the table before it (requested or completion time, TIME.ACTION, latest)."`
	After  string `name:"after" required:"" placeholder:"LOG|INSTANT" help:"Event log of the run after the change, or with --table an instant after it."`
	Table  string `name:"table" placeholder:"TABLE" help:"Table whose instants --before and --after name (directory, .zip, s3://, s3a:// or hdfs:// URI); required when they are instants."`
	OutputFlags
	StorageFlags
}

func (c *VerifyCmd) Help() string {
	return `Says whether the change a catalog row recommends worked: "moved as predicted" (exit 0), "no change" (3), "moved the wrong way" (4) or "unknown" (5: an input is missing, a signal cannot be read, or the row's step cannot be read from an event log), with the figures of every check. Each row's checks are data beside its detection (assets/findings_catalog.json, "verification"); rows an event log cannot verify say why. With --table, --before and --after are two instants of the table and the row's instant checks ("verification.instant": the write at each instant — its duration, files, file sizes, records, write amplification — and the timeline through it — live file groups, delta commits since the last compaction, the last clean's earliest retained commit) are read instead; an instant that is absent, not completed or unreadable makes the verdict unknown.`
}

func (c *VerifyCmd) examples() []string {
	return []string{
		`hudiscope verify OBS-009 --before run-200/local-1796183288478.zstd --after run-2/local-1796183727646.zstd`,
		`hudiscope verify OBS-011 --before app_1 --after app_2 -o json`,
		`hudiscope verify OBS-003 --table table.zip --before 20261201120000000 --after 20261201130000000`,
	}
}

var (
	instantLike = regexp.MustCompile(`^\d{14}(\d{3})?$`)
	// instantArg is an instant named as show names one: TIME.ACTION or latest.
	instantArg = regexp.MustCompile(`^(\d{14}(\d{3})?\.[a-z]+|latest)$`)
)

// Run executes the command.
func (c *VerifyCmd) Run(ctx context.Context) error {
	format, err := c.format("text", "text", "json", "md")
	if err != nil {
		return codeError{exitUsage, err.Error()}
	}
	if c.Table != "" {
		return c.runInstants(ctx, format)
	}
	for _, v := range []string{c.Before, c.After} {
		if instantLike.MatchString(v) {
			return codeError{exitUsage, fmt.Sprintf("%s looks like an instant time: give the table whose instants --before and --after name with --table TABLE", v)}
		}
	}
	ev := &EventlogCmd{StorageFlags: c.StorageFlags}
	read := func(p string) (*eventlog.Report, error) { return ev.analyze(ctx, p) }
	before, err := read(c.Before)
	if err != nil {
		return readError(err)
	}
	after, err := read(c.After)
	if err != nil {
		return readError(err)
	}
	res, err := findings.Verify(nil, c.Row, before, after)
	if err != nil {
		return codeError{exitUsage, err.Error()}
	}
	return c.write(format, res, report.NewVerifyDocument(res, c.Before, c.After), c.Before, c.After)
}

func (c *VerifyCmd) write(format string, res *findings.VerifyResult, doc report.VerifyDocument, before, after string) error {
	err := c.writeOutput(func(w io.Writer) error {
		switch format {
		case "json":
			return report.WriteJSON(w, doc)
		case "md":
			_, err := io.WriteString(w, report.VerifyMarkdown(res, before, after))
			return err
		}
		return report.VerifyText(w, res, before, after)
	})
	if err != nil {
		return codeError{exitUsage, err.Error()}
	}
	return verdictExit(res.Verdict)
}

// runInstants verifies the row on two instants of --table: the table's timeline (active and
// archived) is read once and each instant's measures come from it.
func (c *VerifyCmd) runInstants(ctx context.Context, format string) error {
	for _, v := range []string{c.Before, c.After} {
		if !instantLike.MatchString(v) && !instantArg.MatchString(v) {
			return codeError{exitUsage, fmt.Sprintf("with --table, --before and --after are instants of the table (requested or completion time, TIME.ACTION or latest), not %q", v)}
		}
	}
	opts := TableFlags{StorageFlags: c.StorageFlags, Archived: true}.options(c.Table, []model.Step{model.StepTimeline}, nil)
	opts.LazyCommits = true
	s, err := load(ctx, opts, model.StepTimeline)
	if err != nil {
		return err
	}
	defer reportProblems(s)
	mb := view.InstantMeasureOf(ctx, s, c.Before)
	ma := view.InstantMeasureOf(ctx, s, c.After)
	res, err := findings.VerifyInstants(nil, c.Row, mb, ma)
	if err != nil {
		return codeError{exitUsage, err.Error()}
	}
	doc := report.NewVerifyDocument(res, c.Before, c.After)
	doc.Input, doc.Table, doc.BeforeInstant, doc.AfterInstant = report.VerifyInstants, c.Table, mb.Instant, ma.Instant
	return c.write(format, res, doc, mb.Instant+" of "+c.Table, ma.Instant+" of "+c.Table)
}

// readError turns the event-log reader's exit 2 into 1 (an input could not be read): verify is
// not a Java tool and follows the common exit codes.
func readError(err error) error {
	if ce, ok := err.(codeError); ok && ce.code == exitUsage {
		return codeError{exitError, ce.msg}
	}
	return err
}

func verdictExit(v string) error {
	switch v {
	case findings.VerdictMoved:
		return nil
	case findings.VerdictNone:
		return codeError{exitVerifyNoChange, ""}
	case findings.VerdictWrong:
		return codeError{exitVerifyWrongWay, ""}
	}
	return codeError{exitVerifyUnknown, ""}
}
