package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
)

// TimelineCmd lists instants in completion order.
type TimelineCmd struct {
	Table string `arg:"" help:"Table path: directory, .zip, s3://, s3a:// or hdfs:// URI."`
	OutputFlags
	TableFlags
}

func (c *TimelineCmd) examples() []string {
	return []string{
		`hudiscope timeline s3://bucket/warehouse/orders`,
		`hudiscope timeline --archived -o json table.zip | jq '.instants[] | select(.action=="clean")'`,
	}
}

func (c *TimelineCmd) Run(ctx context.Context) error {
	format, err := c.format("text", "text", "json")
	if err != nil {
		return codeError{exitUsage, err.Error()}
	}
	s, err := load(ctx, c.options(c.Table, []model.Step{model.StepTimeline}, nil), model.StepTimeline)
	if err != nil {
		return err
	}
	defer reportProblems(s)
	instants := s.Timeline.Instants
	if c.Archived {
		instants = s.Timeline.All()
	}
	return c.writeOutput(func(w io.Writer) error {
		if format == "json" {
			return report.WriteJSON(w, report.NewTimelineDocument(s.Table, instants))
		}
		return writeTimelineText(w, s.Table, instants)
	})
}

func writeTimelineText(w io.Writer, t *hudi.Table, instants []*timeline.Instant) error {
	c := t.Config
	fmt.Fprintf(w, "%s · %s · table version %d · %d instants · times in %s\n", c.Name, c.Type, c.Version, len(instants), c.ZoneSource)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "requested\tcompleted\taction\tstate\toperation\twrites\tinserts\tupdates\tdeletes\tbytes\tfiles\tparts\tduration\t")
	for _, in := range instants {
		ct := in.CompletionTime + report.DerivedMark(in)
		action := in.Action
		if in.Archived {
			action += " (archived)"
		}
		dur := report.Duration(in)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t\n", in.RequestedTime, dash(ct), action,
			in.State, dash(in.Operation), in.Totals.NumWrites, in.Totals.NumInserts, in.Totals.NumUpdateWrites,
			in.Totals.NumDeletes, in.Totals.TotalBytesWritten, in.Totals.Files, in.Totals.Partitions, dur)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	var coarsest time.Duration
	derived := false
	for _, in := range instants {
		if in.CompletionDerived {
			derived = true
			coarsest = max(coarsest, in.CompletionPrecision)
		}
	}
	if derived {
		fmt.Fprintln(w, strings.ReplaceAll(report.DerivedNote(coarsest), "`", ""))
	}
	return nil
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
