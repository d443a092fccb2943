// Package cli is hudiscope's command line: the commands and their flags, exit codes, panic
// handling and the Java tools' flag words. Every command builds a model.Options, calls
// model.Load and renders what it produced.
package cli

import (
	"fmt"
	"os"

	"github.com/alecthomas/kong"
)

// Exit codes shared by every command; documented in the README.
const (
	exitOK               = 0
	exitError            = 1 // unreadable input, bad arguments
	exitUsage            = 2
	exitCheckpointReRead = 3  // `checkpoint`: the value would re-read its own instant
	exitInternal         = 70 // a bug in hudiscope (a recovered panic); EX_SOFTWARE
)

// CLI is the whole command line; each command lives in its own file.
type CLI struct {
	Open       OpenCmd       `cmd:"" default:"withargs" help:"Open the interactive explorer (default)."`
	Report     ReportCmd     `cmd:"" help:"Write the full report (Markdown or JSON) without the TUI."`
	Timeline   TimelineCmd   `cmd:"" help:"List every instant with requested and completion time."`
	Files      FilesCmd      `cmd:"" help:"List the latest file slices per partition."`
	Checkpoint CheckpointCmd `cmd:"" help:"Check an incremental-read checkpoint value against the timeline."`
	Eventlog   EventlogCmd   `cmd:"" help:"Analyze a Spark event log by Hudi operation and phase."`
	Layout     LayoutCmd     `cmd:"" help:"File-size statistics, skew and detectors (HoodieTableLayoutAnalyzer)."`
	Health     HealthCmd     `cmd:"" help:"Table-service health checks (HoodieTableHealthChecker)."`
}

// Main runs hudiscope with args (without the program name) and returns the exit code.
func Main(args []string) int {
	var cli CLI
	parser, err := kong.New(&cli,
		kong.Name("hudiscope"),
		kong.Description("A terminal explorer and analyzer for Apache Hudi tables."),
		kong.UsageOnError(),
	)
	if err != nil {
		fmt.Fprintln(os.Stderr, "hudiscope:", err)
		return exitInternal
	}
	ctx, err := parser.Parse(javaStyleFlags(args))
	if err != nil {
		fmt.Fprintln(os.Stderr, "hudiscope:", err)
		return exitUsage
	}
	run := func(binds ...any) error {
		panicForTest(ctx.Command())
		return ctx.Run(binds...)
	}
	if err := runGuarded(run); err != nil {
		var ec exitCoder
		if asExitCoder(err, &ec) {
			if msg := ec.Error(); msg != "" {
				fmt.Fprintln(os.Stderr, "hudiscope:", msg)
			}
			return ec.ExitCode()
		}
		fmt.Fprintln(os.Stderr, "hudiscope:", err)
		return exitError
	}
	return exitOK
}
