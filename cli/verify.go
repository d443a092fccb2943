package cli

import (
	"context"
	"fmt"
	"io"
	"regexp"

	"github.com/hudiscope/hudiscope/analyzers/eventlog"
	"github.com/hudiscope/hudiscope/analyzers/findings"
	"github.com/hudiscope/hudiscope/report"
)

// Exit codes of `verify` (README): 0 moved as predicted, 3 no change, 4 moved the wrong way,
// 5 unknown (an input missing, a signal unreadable, or a row an event log cannot verify).
const (
	exitVerifyNoChange = 3
	exitVerifyWrongWay = 4
	exitVerifyUnknown  = 5
)

// VerifyCmd evaluates a catalog row's verification step on the event logs of the run before a
// change and the run after it.
type VerifyCmd struct {
	Row    string `arg:"" help:"Catalog row: OBS-001…OBS-030 or CAP-001…CAP-007."`
	Before string `name:"before" required:"" placeholder:"LOG" help:"Event log of the run before the change (a file, a rolling eventlog_v2_* directory or shs://…)."`
	After  string `name:"after" required:"" placeholder:"LOG" help:"Event log of the run after the change."`
	OutputFlags
	StorageFlags
}

func (c *VerifyCmd) Help() string {
	return `Says whether the change a catalog row recommends worked: "moved as predicted" (exit 0), "no change" (3), "moved the wrong way" (4) or "unknown" (5: an input is missing, a signal cannot be read, or the row's step cannot be read from an event log), with the figures of every check. Each row's checks are data beside its detection (assets/findings_catalog.json, "verification"); rows an event log cannot verify say why.`
}

func (c *VerifyCmd) examples() []string {
	return []string{
		`hudiscope verify OBS-009 --before run-200/local-1796183288478.zstd --after run-2/local-1796183727646.zstd`,
		`hudiscope verify OBS-011 --before app_1 --after app_2 -o json`,
	}
}

var instantLike = regexp.MustCompile(`^\d{14}(\d{3})?$`)

// Run executes the command.
func (c *VerifyCmd) Run(ctx context.Context) error {
	format, err := c.format("text", "text", "json", "md")
	if err != nil {
		return codeError{exitUsage, err.Error()}
	}
	for _, v := range []string{c.Before, c.After} {
		if instantLike.MatchString(v) {
			return codeError{exitUsage, fmt.Sprintf("%s looks like an instant time: verify reads two event logs (verifying from a table's instants is not supported yet)", v)}
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
	err = c.writeOutput(func(w io.Writer) error {
		switch format {
		case "json":
			return report.WriteJSON(w, report.NewVerifyDocument(res, c.Before, c.After))
		case "md":
			_, err := io.WriteString(w, report.VerifyMarkdown(res, c.Before, c.After))
			return err
		}
		return report.VerifyText(w, res, c.Before, c.After)
	})
	if err != nil {
		return codeError{exitUsage, err.Error()}
	}
	return verdictExit(res.Verdict)
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
