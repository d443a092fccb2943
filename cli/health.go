package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/hudiscope/hudiscope/analyzers/health"
	"github.com/hudiscope/hudiscope/internal/redact"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
)

// HealthCmd is HoodieTableHealthChecker in Go. Exit codes as Java: 0 nothing UNHEALTHY,
// 3 at least one UNHEALTHY, 4 a check failed (wins over 3), 2 bad arguments or an unreadable table.
type HealthCmd struct {
	Table            string `arg:"" optional:"" help:"Table path: directory, .zip, s3://, s3a:// or hdfs:// URI (or --base-path)."`
	BasePath         string `name:"base-path" aliases:"sp" help:"Table path (the Java tool's flag; same as the argument)."`
	Checks           string `name:"checks" default:"all" help:"Comma-separated checks (compaction, cleaner, savepoint, archival, record-index, mdt-sync, mdt-compaction) or all."`
	ApplyAllDefaults bool   `name:"apply-all-defaults" help:"Judge unsupplied properties by Hudi's (engine-effective) defaults instead of skipping."`
	Verbose          bool   `name:"verbose" short:"v" help:"Show every effective config of every check."`
	OutputFlags
	TableFlags
}

func (c *HealthCmd) Help() string {
	return `Exit status as HoodieTableHealthChecker: 0 every check healthy or skipped, 3 at least one check unhealthy, 4 a check failed to run (wins over 3), 2 bad arguments or the table could not be read. There is no exit 1.`
}

func (c *HealthCmd) examples() []string {
	return []string{
		`hudiscope health s3://bucket/warehouse/orders --props writer.properties`,
		`hudiscope health --base-path table.zip --checks compaction,cleaner --apply-all-defaults --output JSON`,
	}
}

func (c *HealthCmd) Run(ctx context.Context) error {
	format, err := c.format("text", "text", "json", "md")
	if err != nil {
		return codeError{health.ExitBadInput, err.Error()}
	}
	table, err := oneTable(c.Table, c.BasePath)
	if err != nil {
		return codeError{health.ExitBadInput, err.Error()}
	}
	checks, err := health.ParseChecks(c.Checks)
	if err != nil {
		return codeError{health.ExitBadInput, err.Error()}
	}
	opts := c.options(table, []model.Step{model.StepHealth}, nil)
	opts.Health = health.Options{Checks: checks, ApplyAllDefaults: c.ApplyAllDefaults}
	s, err := load(ctx, opts, model.StepTimeline, model.StepConfig, model.StepHealth)
	if err != nil {
		return codeError{health.ExitBadInput, err.Error()}
	}
	defer reportProblems(s)
	r := new(health.Result)
	*r = *s.Health // the snapshot stays as loaded; the printed copy has its path redacted
	r.BasePath = redact.Text(r.BasePath)
	if r.Hudiscope != nil {
		x := *r.Hudiscope
		x.SchemaVersion = report.SchemaVersion
		r.Hudiscope = &x
	}
	err = c.writeOutput(func(w io.Writer) error {
		switch format {
		case "json":
			return report.WriteJSON(w, r)
		case "md":
			_, err := io.WriteString(w, report.HealthMarkdown(r, nil))
			return err
		}
		report.HealthText(w, r, c.Verbose)
		return nil
	})
	if err != nil {
		return codeError{health.ExitBadInput, err.Error()}
	}
	if code := r.ExitCode(); code != 0 {
		return codeError{code, ""}
	}
	return nil
}

// oneTable takes the table from the argument or the Java tools' --base-path, not both.
func oneTable(arg, basePath string) (string, error) {
	switch {
	case arg != "" && basePath != "" && arg != basePath:
		return "", fmt.Errorf("give the table either as the argument or with --base-path, not both")
	case arg != "":
		return arg, nil
	case basePath != "":
		return basePath, nil
	}
	return "", fmt.Errorf("base path needs to be set (argument or --base-path)")
}
