// Package cli is hudiscope's command line: the commands and their flags, exit codes, panic
// handling and the Java tools' flag words. Every command builds a model.Options, calls
// model.Load and renders what it produced.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/alecthomas/kong"
)

// Exit codes shared by every command; documented in the README. The Java-compatible
// commands (layout, health, eventlog) keep the Java tools' own codes where those differ.
const (
	exitOK                = 0
	exitError             = 1 // the input could not be read
	exitUsage             = 2
	exitCheckpointReRead  = 3   // `checkpoint`: the value would re-read its own instant
	exitCheckpointNotSafe = 4   // `checkpoint`: nothing re-read, but the value is not a safe begin
	exitInternal          = 70  // a bug in hudiscope (a recovered panic); EX_SOFTWARE
	exitInterrupted       = 130 // ctrl+c (128 + SIGINT), as shells and the JVM report it
)

// CLI is the whole command line; each command lives in its own file.
type CLI struct {
	ShowVersion bool          `name:"version" help:"Print the version and build information, then exit."`
	Open        OpenCmd       `cmd:"" default:"withargs" help:"Open the interactive explorer (default)."`
	Report      ReportCmd     `cmd:"" help:"Write the full report (Markdown or JSON) without the TUI."`
	Timeline    TimelineCmd   `cmd:"" help:"List every instant with requested and completion time."`
	Show        ShowCmd       `cmd:"" help:"Show one instant: write statistics per partition and file, write amplification, plans and metadata."`
	Trends      TrendsCmd     `cmd:"" help:"Per-commit series (duration, records, bytes, files, write amplification, service cadence) over the active and archived timelines, with change points."`
	Files       FilesCmd      `cmd:"" help:"List the latest file slices per partition."`
	Describe    DescribeCmd   `cmd:"" help:"Show hoodie.properties, the table configuration with its sources, the schema and its history."`
	Checkpoint  CheckpointCmd `cmd:"" help:"Check an incremental-read checkpoint value against the timeline."`
	Incremental IncrQueryCmd  `cmd:"" help:"Count or print the rows an incremental query returns."`
	Snapshot    SnapshotCmd   `cmd:"" help:"Count or print the rows of a snapshot query, also as of an instant (time travel)."`
	Changes     ChangesCmd    `cmd:"" help:"Print the CDC rows (op, ts_ms, before, after) of a table with change data capture."`
	Duplicates  DuplicatesCmd `cmd:"" help:"Record keys the latest snapshot holds more than once (exit 3 when any)."`
	Key         KeyCmd        `cmd:"" help:"One record's story: where its key lives (found through the table's index), its current value and every version on storage."`
	Eventlog    EventlogCmd   `cmd:"" help:"Analyze a Spark event log by Hudi operation and phase."`
	Verify      VerifyCmd     `cmd:"" help:"Say whether a catalog row's change worked, from the event logs before and after it, or from two instants of a table (--table)."`
	Layout      LayoutCmd     `cmd:"" help:"File-size statistics, skew and detectors (HoodieTableLayoutAnalyzer)."`
	Health      HealthCmd     `cmd:"" help:"Table-service health checks (HoodieTableHealthChecker)."`
	Metadata    MetadataCmd   `cmd:"" help:"Metadata-table checks: validate-files, stats, timeline (hudi-cli metadata)."`
	Fleet       FleetCmd      `cmd:"" help:"Every Hudi table under a location or in a catalog (Glue, Hive Metastore), one triage row each."`
	Version     VersionCmd    `cmd:"" help:"Print the version and build information."`
	Completion  CompletionCmd `cmd:"" help:"Print a shell completion script (bash, zsh or fish)."`
	Man         ManCmd        `cmd:"" help:"Print the manual page (roff)."`
	Config      ConfigCmd     `cmd:"" help:"Show where the configuration file is read from."`
	Globals     `embed:""`    // flags every command shares
}

// Globals are accepted before or after any command.
type Globals struct {
	ConfigFile string `name:"config" env:"HUDISCOPE_CONFIG" help:"Configuration file (default: $XDG_CONFIG_HOME/hudiscope/config.toml)."`
	NoPager    bool   `name:"no-pager" help:"Write to the terminal directly, without $HUDISCOPE_PAGER, $PAGER or less."`
}

// kongExit carries kong's exit request (after --help) out of the parser, so Main returns the
// code instead of ending the process under a caller's feet.
type kongExit int

// newParser builds the kong parser for the command line.
func newParser(cli *CLI, stdout, stderr io.Writer, configPath string) (*kong.Kong, error) {
	opts := []kong.Option{
		kong.Name("hudiscope"),
		kong.Description("A terminal explorer and analyzer for Apache Hudi tables (table versions 4-9, local, zip, S3, HDFS). Read-only."),
		kong.UsageOnError(),
		kong.Writers(stdout, stderr),
		kong.Exit(func(code int) { panic(kongExit(code)) }),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true}),
		kong.Help(helpWithExamples),
	}
	if configPath != "" {
		opts = append(opts, kong.Configuration(tomlLoaderFor(configPath), configPath))
	}
	return kong.New(cli, opts...)
}

// interruptSignals end a command as ctrl+c does: cleanups run, the terminal is restored, exit 130.
var interruptSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

// Main runs hudiscope with args (without the program name) and returns the exit code.
func Main(args []string) (code int) {
	// ctrl+c, SIGTERM, SIGHUP (an SSH connection dropping) and SIGQUIT cancel the work in
	// progress alike; the command then exits 130 after its deferred cleanups (a History Server
	// download's temporary file, the explorer's terminal) ran. Uncaught, SIGHUP and SIGQUIT
	// ended the process there and then (issue 31). Caught from the start: one arriving while
	// the command line is parsed must not end the process with the Go runtime's default. A
	// second signal is not caught, so it ends a process that does not stop.
	ctx, stop := signal.NotifyContext(context.Background(), interruptSignals...)
	defer stop()
	go func() { <-ctx.Done(); stop() }()
	args = helpWords(javaStyleFlags(args))
	if len(args) == 0 {
		printShortUsage(os.Stderr)
		return exitUsage
	}
	if wantsVersion(args) {
		fmt.Fprintln(os.Stdout, currentBuild().String())
		return exitOK
	}
	if msg := unknownCommand(args); msg != "" {
		warn(msg)
		return exitUsage
	}
	cfgPath, err := configFileFor(args)
	if err != nil && args[0] != "config" {
		warn(fmt.Sprint(err))
		return exitUsage
	}
	if args[0] == "config" {
		cfgPath = "" // `config path` reads the file itself, to name what is wrong with it
	}
	var cli CLI
	parser, err := newParser(&cli, os.Stdout, os.Stderr, cfgPath)
	if err != nil {
		warn(fmt.Sprint(err))
		return exitUsage
	}
	defer func() {
		if r := recover(); r != nil {
			if c, ok := r.(kongExit); ok {
				code = int(c)
				return
			}
			panic(r)
		}
	}()
	kctx, err := parser.Parse(args)
	if err != nil {
		warn(enumSuggestion(fmt.Sprint(err)))
		return exitUsage
	}
	pagerDisabled = cli.NoPager
	ctx = withSHSLimits(ctx, kctx)
	kctx.BindTo(ctx, (*context.Context)(nil))
	run := func(binds ...any) error {
		panicForTest(kctx.Command())
		return kctx.Run(binds...)
	}
	err = runGuarded(run)
	// A signal that ended the work is 130 even when the command returned cleanly (the
	// explorer quits without an error: SIGTERM exited 0).
	if ctx.Err() != nil && !isInternal(err) {
		warn("interrupted")
		return exitInterrupted
	}
	if err != nil {
		var ec exitCoder
		if asExitCoder(err, &ec) {
			if msg := ec.Error(); msg != "" {
				warn(msg)
			}
			return ec.ExitCode()
		}
		warn(fmt.Sprint(err))
		return exitError
	}
	return exitOK
}

// exampler is a command with usage examples; --help prints them last, where the eye lands.
type exampler interface{ examples() []string }

func helpWithExamples(options kong.HelpOptions, ctx *kong.Context) error {
	if err := kong.DefaultHelpPrinter(options, ctx); err != nil {
		return err
	}
	node := ctx.Selected()
	if node == nil {
		node = ctx.Model.Node
	}
	if !node.Target.IsValid() || !node.Target.CanAddr() {
		return nil
	}
	ex, ok := node.Target.Addr().Interface().(exampler)
	if !ok {
		return nil
	}
	w := ctx.Stdout
	fmt.Fprintln(w, "\nExamples:")
	for _, e := range ex.examples() {
		fmt.Fprintln(w, "  "+e)
	}
	return nil
}

func isInternal(err error) bool {
	var ec exitCoder
	return errors.As(err, &ec) && ec.ExitCode() == exitInternal
}
