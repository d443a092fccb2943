package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
)

// CheckpointCmd checks an incremental-read begin time. Exit code 3 when the value is an
// instant's requested time that the read would return again.
type CheckpointCmd struct {
	Table string `arg:"" help:"Table path."`
	Value string `arg:"" help:"The begin.instanttime / checkpoint value to check."`
	JSON  bool   `name:"json" help:"Print JSON."`
	TableFlags
}

func (c *CheckpointCmd) Run() error {
	ctx := context.Background()
	// The archived timeline tells a value older than the active timeline from a made-up one.
	opts := c.options(c.Table, []model.Step{model.StepTimeline}, nil)
	opts.Archived = true
	s, err := load(ctx, opts, model.StepTimeline)
	if err != nil {
		return err
	}
	defer reportProblems(s)
	r := s.CheckCheckpoint(ctx, c.Value)
	if c.JSON {
		err = writeCheckpointJSON(os.Stdout, r)
	} else {
		err = writeCheckpointText(os.Stdout, r)
	}
	if err != nil {
		return err
	}
	if r.ReRead {
		return codeError{code: exitCheckpointReRead}
	}
	return nil
}

func writeCheckpointJSON(w io.Writer, r *hudi.CheckpointReport) error {
	out := struct {
		*hudi.CheckpointReport
		Instant *report.InstantJSON  `json:"instant"`
		Covered []report.InstantJSON `json:"covered"`
	}{CheckpointReport: r, Covered: report.InstantsJSON(r.Covered)}
	if r.Instant != nil {
		out.Instant = &report.InstantsJSON([]*hudi.Instant{r.Instant})[0]
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func writeCheckpointText(w io.Writer, r *hudi.CheckpointReport) error {
	for _, line := range hudi.CheckpointLines(r) {
		fmt.Fprintln(w, line)
	}
	return nil
}
