package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"text/tabwriter"
	"time"

	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
)

// TimelineCmd lists instants in completion order.
type TimelineCmd struct {
	Table string `arg:"" help:"Table path: directory, .zip, s3:// or s3a:// URI."`
	JSON  bool   `name:"json" help:"Print JSON."`
	TableFlags
}

// tableJSON is the "table" object of the timeline JSON contract.
type tableJSON struct {
	Name                       string   `json:"name"`
	Type                       string   `json:"type"`
	Version                    int      `json:"version"`
	BasePath                   string   `json:"basePath"`
	PartitionFields            []string `json:"partitionFields"`
	RecordKeyFields            []string `json:"recordKeyFields"`
	KeyGenerator               string   `json:"keyGenerator"`
	CDCEnabled                 bool     `json:"cdcEnabled"`
	CDCSupplementalLoggingMode string   `json:"cdcSupplementalLoggingMode"`
}

func (c *TimelineCmd) Run() error {
	s, err := load(context.Background(), c.options(c.Table, []model.Step{model.StepTimeline}, nil), model.StepTimeline)
	if err != nil {
		return err
	}
	defer reportProblems(s)
	instants := s.Timeline.Instants
	if c.Archived {
		instants = s.Timeline.All()
	}
	if c.JSON {
		return writeTimelineJSON(os.Stdout, s.Table, instants)
	}
	return writeTimelineText(os.Stdout, s.Table, instants)
}

func tableInfo(t *hudi.Table) tableJSON {
	c := t.Config
	return tableJSON{Name: c.Name, Type: c.Type, Version: c.Version, BasePath: t.Store.Root(),
		PartitionFields: nonNil(c.PartitionFieldNames()), RecordKeyFields: nonNil(c.RecordKeys),
		KeyGenerator: c.KeyGenerator, CDCEnabled: c.CDCEnabled, CDCSupplementalLoggingMode: c.CDCMode}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func writeTimelineJSON(w io.Writer, t *hudi.Table, instants []*hudi.Instant) error {
	out := struct {
		Table    tableJSON            `json:"table"`
		Instants []report.InstantJSON `json:"instants"`
	}{Table: tableInfo(t), Instants: report.InstantsJSON(instants)}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func writeTimelineText(w io.Writer, t *hudi.Table, instants []*hudi.Instant) error {
	c := t.Config
	fmt.Fprintf(w, "%s · %s · table version %d · %d instants · times in %s\n", c.Name, c.Type, c.Version, len(instants), c.ZoneSource)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "requested\tcompleted\taction\tstate\toperation\twrites\tinserts\tupdates\tdeletes\tbytes\tfiles\tparts\tduration\t")
	for _, in := range instants {
		ct := in.CompletionTime
		if in.CompletionDerived {
			ct += "~"
		}
		action := in.Action
		if in.Archived {
			action += " (archived)"
		}
		dur := "-"
		if d := in.Duration(); d > 0 {
			dur = d.Round(time.Millisecond).String()
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t\n", in.RequestedTime, dash(ct), action,
			in.State, dash(in.Operation), in.Totals.NumWrites, in.Totals.NumInserts, in.Totals.NumUpdateWrites,
			in.Totals.NumDeletes, in.Totals.TotalBytesWritten, in.Totals.Files, in.Totals.Partitions, dur)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, in := range instants {
		if in.CompletionDerived {
			fmt.Fprintln(w, "~ completion time derived from the completed file's modification time (table version < 8)")
			break
		}
	}
	return nil
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
