package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/hudiscope/hudiscope/analyzers/eventlog"
	"github.com/hudiscope/hudiscope/internal/redact"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
)

// EventlogCmd analyzes a Spark event log by Hudi operation and phase
// (HoodieSparkEventLogAnalyzer-compatible JSON, schemaVersion 1.1.0).
type EventlogCmd struct {
	Path            string  `arg:"" optional:"" help:"Event log: a file (plain, .gz, .lz4, .snappy, .zstd/.zst, .lzf, .inprogress), a rolling eventlog_v2_* directory, or shs://HOST:PORT/APP_ID[/ATTEMPT] (Spark History Server)."`
	EventLog        string  `name:"event-log" short:"e" help:"Same as PATH (the Java tool's flag)."`
	AppID           string  `name:"app-id" help:"Download this application's logs from the History Server (see --history-server)."`
	HistoryServer   string  `name:"history-server" default:"localhost:18080" help:"HOST:PORT of the Spark History Server used with --app-id (EMR runs it on the primary node)."`
	TopN            int     `name:"top-n" short:"n" default:"20" help:"Stages shown in text output, longest first."`
	MinStageSeconds float64 `name:"min-stage-seconds" short:"m" default:"0" help:"Hide stages shorter than this in text output."`
	IncludeTasks    bool    `name:"include-tasks" help:"Add p25/p75/p99 task durations per stage to JSON."`
	Progress        bool    `help:"Print reading progress to stderr."`
	Compare         string  `name:"compare" placeholder:"LOG" help:"Compare with this second event log (the run after a change): phases, operations, stage kinds and the time no job covers side by side, with deltas. JSON: the eventlogCompare document (docs/json.md)."`
	OutputFlags
	StorageFlags
}

func (c *EventlogCmd) Help() string {
	return `Exit status as HoodieSparkEventLogAnalyzer: 0 analysed (damaged lines are reported, not fatal), 2 the log is missing or unreadable or the arguments are bad; 130 interrupted.`
}

func (c *EventlogCmd) examples() []string {
	return []string{
		`hudiscope eventlog hdfs:///var/log/spark/apps/application_1700000000000_0042`,
		`hudiscope eventlog --app-id application_1700000000000_0042 -o JSON -f report.json`,
		`hudiscope eventlog -e eventlog_v2_local-1795968726856 --compare eventlog_v2_local-1795968799999 --top-n 10`,
	}
}

// Run executes the command. Exit 2 for unreadable input, as the Java tool.
func (c *EventlogCmd) Run(ctx context.Context) error {
	format, err := c.format("text", "text", "json", "md")
	if err != nil {
		return codeError{exitUsage, err.Error()}
	}
	path := c.Path
	if c.EventLog != "" {
		if path != "" && path != c.EventLog {
			return codeError{exitUsage, "give the event log either as PATH or as --event-log, not both"}
		}
		path = c.EventLog
	}
	if c.AppID != "" {
		if path != "" {
			return codeError{exitUsage, "--app-id and an event-log path are exclusive"}
		}
		hs := strings.TrimPrefix(strings.TrimPrefix(c.HistoryServer, "http://"), "shs://")
		path = "shs://" + strings.TrimRight(hs, "/") + "/" + c.AppID
	}
	if path == "" {
		return codeError{exitUsage, "missing event log: give PATH, --event-log or --app-id"}
	}
	rep, err := c.analyze(ctx, path)
	if err != nil {
		return err
	}
	if c.Compare != "" {
		after, err := c.analyze(ctx, c.Compare)
		if err != nil {
			return err
		}
		cmp := eventlog.Compare(rep, after)
		return c.writeCompare(format, cmp)
	}
	rep.Hudiscope.SchemaVersion = report.SchemaVersion
	err = c.writeOutput(func(w io.Writer) error {
		switch format {
		case "json":
			return report.WriteJSON(w, rep)
		case "md":
			_, err := io.WriteString(w, report.EventLogMarkdown(rep, nil))
			return err
		}
		return report.EventLogText(w, rep, c.TopN, int64(c.MinStageSeconds*1000))
	})
	if err != nil {
		return codeError{exitUsage, err.Error()}
	}
	return nil
}

func (c *EventlogCmd) writeCompare(format string, cmp *eventlog.Comparison) error {
	err := c.writeOutput(func(w io.Writer) error {
		switch format {
		case "json":
			return report.WriteJSON(w, report.NewCompareDocument(cmp))
		case "md":
			_, err := io.WriteString(w, report.EventLogCompareMarkdown(cmp, c.TopN))
			return err
		}
		return report.EventLogCompareText(w, cmp, c.TopN)
	})
	if err != nil {
		return codeError{exitUsage, err.Error()}
	}
	return nil
}

// analyze reads and analyzes one event log (exit 2 when it cannot, as the Java tool).
func (c *EventlogCmd) analyze(ctx context.Context, path string) (*eventlog.Report, error) {
	tune := func(opt *eventlog.Options) {
		opt.IncludeTasks = c.IncludeTasks
		if c.Progress {
			opt.Progress = func(p eventlog.Progress) {
				fmt.Fprintf(os.Stderr, "\r%s (%d/%d): %d MiB decoded, %d events", redact.Text(p.File), p.Part, p.Parts, p.TotalDecoded>>20, p.Events)
			}
		}
	}
	s, _ := model.Load(ctx, model.Options{Steps: []model.Step{model.StepEventLog}, EventLog: path,
		Storage: c.storage(nil), EventLogTune: tune}, nil)
	if c.Progress {
		fmt.Fprintln(os.Stderr)
	}
	if err := s.StepErrors[model.StepEventLog]; err != nil {
		if errors.Is(err, context.Canceled) {
			return nil, codeError{exitError, "interrupted"}
		}
		return nil, codeError{exitUsage, fmt.Sprintf("failed to analyze Spark event log at %s: %v", path, err)}
	}
	return s.EventLog, nil
}
