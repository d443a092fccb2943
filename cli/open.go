package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/ui"
)

// OpenCmd starts the interactive explorer (the default command).
type OpenCmd struct {
	Table      string `arg:"" optional:"" help:"Table path: directory, .zip, s3:// or s3a:// URI; a location holding many tables opens the Fleet view (or --glue, --hms)."`
	EventLog   string `name:"event-log" help:"Spark event log: a file, a rolling directory, s3://, hdfs:// or shs://HOST:PORT/APP_ID."`
	CompareLog string `name:"compare-log" placeholder:"LOG" help:"A second Spark event log (the run after a change): the Event log pane's x shows it beside --event-log, with deltas."`
	ExportDir  string `name:"export-dir" help:"Directory for Markdown exports (e, E)." default:"." type:"existingdir"`
	ASCII      bool   `name:"ascii" help:"Draw with ASCII only (no box-drawing or block glyphs)."`
	LogFile    string `name:"log-file" help:"Write library and SDK logs to this file (default: discard)." type:"path"`
	// The mouse is the terminal's by default (text selection over SSH and in tmux).
	Mouse      bool `name:"mouse" help:"Capture the mouse: wheel scrolls, clicks select tabs, rows and the problems badge (the terminal's own text selection then needs shift)."`
	NoMouse    bool `name:"no-mouse" hidden:"" help:"Do not capture the mouse (the default; kept for old command lines)."`
	FullExport bool `name:"full-export" help:"e and E export every row (by default long tables keep their top rows so an export stays under 60,000 characters)."`
	// The Health pane's d toggles it without reloading.
	ApplyAllDefaults bool `name:"apply-all-defaults" help:"Health: judge unsupplied properties by Hudi's (engine-effective) defaults instead of skipping (d toggles it in the Health pane)."`
	TableFlags
	FleetFlags
	WatchFlags
}

func (c *OpenCmd) examples() []string {
	return []string{
		`hudiscope --props writer.properties --event-log hdfs:///var/log/spark/apps/application_1700000000000_0042 s3://bucket/warehouse/orders`,
		`hudiscope --mouse --ascii table.zip   # clickable tabs and rows, ASCII-only drawing`,
		`hudiscope s3://bucket/warehouse/      # not a table: the Fleet view (or --glue DB)`,
	}
}

func (c *OpenCmd) Run(ctx context.Context) error {
	if c.EventLog != "" && !strings.Contains(c.EventLog, "://") { // remote logs are checked when read
		if _, err := os.Stat(c.EventLog); err != nil {
			return fmt.Errorf("event log: %w", err)
		}
	}
	if c.CompareLog != "" {
		if c.EventLog == "" {
			return codeError{exitUsage, "--compare-log needs --event-log (the run it is compared with)"}
		}
		if !strings.Contains(c.CompareLog, "://") {
			if _, err := os.Stat(c.CompareLog); err != nil {
				return fmt.Errorf("compared event log: %w", err)
			}
		}
	}
	// --props is refused here as every command refuses it (config.ReadProps), not shown as props ✓.
	if err := c.checkProps(); err != nil {
		return err
	}
	// Nothing may write to the screen while the TUI runs: logs go to --log-file or nowhere.
	var logw io.Writer = io.Discard
	if c.LogFile != "" {
		f, err := os.OpenFile(c.LogFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return fmt.Errorf("log file: %w", err)
		}
		defer f.Close()
		logw = f
	}
	log.SetOutput(logw)
	slog.SetDefault(slog.New(slog.NewTextHandler(logw, nil)))
	opts := c.modelOptions(logw)
	watch, err := c.watchOptions()
	if err != nil {
		return err
	}
	opts.CountRequests = watch != nil
	opts.FollowEventLog = watch != nil // a running application's log is tailed on each refresh

	// Validate before the TUI starts: a bad path is a plain error and exit code 1.
	// The validation load runs under the signal context too: a signal during it ends it.
	// (The reader's warnings are left to the explorer's problems badge.)
	if c.Table == "" || c.Glue != "" || c.HMS != "" {
		return c.runFleet(ctx, opts)
	}
	if _, err := model.Load(ctx, model.Options{Location: c.Table, Steps: []model.Step{model.StepProperties}, Storage: opts.Storage}, nil); err != nil {
		if errors.Is(err, hudi.ErrNotHudiTable) && !isZip(c.Table) {
			return c.runFleet(ctx, opts)
		}
		if errors.Is(err, hudi.ErrNotHudiTable) {
			return fmt.Errorf("%s: not a Hudi table (no .hoodie directory)", c.Table)
		}
		return err
	}
	app := ui.New(ui.Options{
		Location:   c.Table,
		ExportDir:  c.ExportDir,
		Color:      colorEnabled(os.LookupEnv),
		ASCII:      c.ASCII,
		Mouse:      c.Mouse && !c.NoMouse,
		FullExport: c.FullExport,
		Watch:      watch,
		Now:        opts.Now, // the model's clock, so panes and analyzers measure ages alike
		Load: func(ctx context.Context, progress func(model.Progress)) {
			_, _ = model.Load(ctx, opts, progress)
		},
	})
	return runTUIOffStderr(ctx, app, logw)
}

// runTUIOffStderr runs the explorer (or the Fleet view) with os.Stderr sent to the log file
// (else /dev/null) meanwhile: libraries that print directly must not draw on the screen.
func runTUIOffStderr(ctx context.Context, m tea.Model, logw io.Writer) error {
	stderr := os.Stderr
	if f, ok := logw.(*os.File); ok {
		os.Stderr = f
	} else if devnull, err := os.Open(os.DevNull); err == nil {
		os.Stderr = devnull
		defer devnull.Close()
	}
	defer func() { os.Stderr = stderr }()
	return runTUI(ctx, m)
}

// modelOptions is what the explorer loads: every step, with the explorer's own flags.
func (c *OpenCmd) modelOptions(logw io.Writer) model.Options {
	opts := c.options(c.Table, nil, logw)
	opts.EventLog = c.EventLog
	opts.CompareEventLog = c.CompareLog
	opts.Health.ApplyAllDefaults = c.ApplyAllDefaults
	opts.EarlyTimeline = true // the Timeline's first frame before every commit is read
	return opts
}

// colorEnabled decides whether the explorer uses colour: not with NO_COLOR set (any value,
// no-color.org) nor on TERM=dumb. Bold and reverse stay, so the cursor row is still visible;
// on a dumb terminal bubbletea's colour profile (NoTTY) drops those too.
func colorEnabled(lookup func(string) (string, bool)) bool {
	if _, ok := lookup("NO_COLOR"); ok {
		return false
	}
	term, _ := lookup("TERM")
	return term != "dumb"
}
