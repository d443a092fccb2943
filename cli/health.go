package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/hudiscope/hudiscope/analyzers/config"
	"github.com/hudiscope/hudiscope/analyzers/health"
	"github.com/hudiscope/hudiscope/model"
)

// HealthCmd is HoodieTableHealthChecker in Go. Exit codes as Java: 0 nothing UNHEALTHY,
// 1 at least one UNHEALTHY, 2 a check failed, the table is unreadable or a check is unknown.
type HealthCmd struct {
	Table            string `arg:"" help:"Table path: directory, .zip, s3:// or s3a:// URI."`
	Checks           string `name:"checks" default:"all" help:"Comma-separated checks (compaction, cleaner, savepoint, archival, record-index, mdt-sync, mdt-compaction) or all."`
	ApplyAllDefaults bool   `name:"apply-all-defaults" help:"Judge unsupplied properties by Hudi's (engine-effective) defaults instead of skipping."`
	Output           string `name:"output" short:"o" default:"TABLE" help:"TABLE or JSON."`
	Verbose          bool   `name:"verbose" short:"v" help:"Show every effective config of every check."`
	TableFlags
}

func (c *HealthCmd) Run() error {
	format := strings.ToUpper(strings.TrimSpace(c.Output))
	if format != "TABLE" && format != "JSON" {
		return codeError{health.ExitError, fmt.Sprintf("--output must be TABLE or JSON (got %s)", c.Output)}
	}
	checks, err := health.ParseChecks(c.Checks)
	if err != nil {
		return codeError{health.ExitError, err.Error()}
	}
	opts := c.options(c.Table, []model.Step{model.StepHealth}, nil)
	opts.Health = health.Options{Checks: checks, ApplyAllDefaults: c.ApplyAllDefaults}
	s, err := load(context.Background(), opts, model.StepTimeline, model.StepConfig, model.StepHealth)
	if err != nil {
		return codeError{health.ExitError, err.Error()}
	}
	defer reportProblems(s)
	r := new(health.Result)
	*r = *s.Health // the snapshot stays as loaded; the printed copy has its path redacted
	r.BasePath = config.Redact("", r.BasePath)
	if format == "JSON" {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(r); err != nil {
			return err
		}
	} else {
		health.WriteText(os.Stdout, r, c.Verbose)
	}
	if code := r.ExitCode(); code != 0 {
		return codeError{code, ""}
	}
	return nil
}
