package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/hudiscope/hudiscope/analyzers/checkpoint"
	"github.com/hudiscope/hudiscope/internal/safetext"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
)

// CheckpointCmd checks an incremental-read begin time. Exit code 3 when the value is an
// instant's requested time that the read would return again.
type CheckpointCmd struct {
	Table string `arg:"" help:"Table path: directory, .zip, s3://, s3a:// or hdfs:// URI."`
	Value string `arg:"" help:"The begin.instanttime / checkpoint value to check."`
	Rows  bool   `name:"rows" help:"Also count the rows the read returns (reads the data files, as incremental --count does)."`
	OutputFlags
	TableFlags
}

func (c *CheckpointCmd) Help() string {
	return `Exit status 3 when the read from VALUE would return VALUE's own instant again (a checkpoint taken from _hoodie_commit_time, or a completion time under Hudi 1.0.x's inclusive rule). Exit status 4 when nothing is re-read but VALUE is not a safe begin: it is older than the cleaner's retention (files the read needs may be deleted), the reader skips archived writes after it (Hudi 0.x), or what the reader returns from it is not reproduced. The rule is the reading release's: --hudi-version, else the bundle installed under /usr/lib/hudi, else every release line that can read the table is judged and exit 3 means that any of them re-reads.`
}

func (c *CheckpointCmd) examples() []string {
	return []string{
		`hudiscope checkpoint s3://bucket/warehouse/orders 20261129155610512`,
		`hudiscope checkpoint -o json table.zip "$(cat last_checkpoint)" || echo "would re-read"`,
	}
}

func (c *CheckpointCmd) Run(ctx context.Context) error {
	format, err := c.format("text", "text", "json")
	if err != nil {
		return codeError{exitUsage, err.Error()}
	}
	if err := checkpoint.ValidValue(c.Value); err != nil {
		return codeError{exitUsage, err.Error()}
	}
	// The archived timeline tells a value older than the active timeline from a made-up one.
	opts := c.options(c.Table, []model.Step{model.StepTimeline}, nil)
	opts.Archived = true
	s, err := load(ctx, opts, model.StepTimeline)
	if err != nil {
		return err
	}
	defer reportProblems(s)
	if _, err := s.Readers(); err != nil {
		return codeError{exitUsage, err.Error()}
	}
	rs := s.CheckCheckpoint(ctx, c.Value)
	if c.Rows {
		s.CountCheckpointRows(ctx, rs)
	}
	err = c.writeOutput(func(w io.Writer) error {
		if format == "json" {
			return report.WriteJSON(w, report.NewCheckpointDocument(rs))
		}
		return writeCheckpointText(w, rs)
	})
	if err != nil {
		return err
	}
	switch checkpoint.Worst(rs) {
	case checkpoint.VerdictReRead:
		return codeError{code: exitCheckpointReRead}
	case checkpoint.VerdictNotSafe:
		return codeError{code: exitCheckpointNotSafe}
	}
	return nil
}

func writeCheckpointText(w io.Writer, rs []*checkpoint.Report) error {
	for _, line := range report.CheckpointVerdictLines(rs) {
		fmt.Fprintln(w, safetext.Terminal(line))
	}
	return nil
}
