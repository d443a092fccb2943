package report

import (
	"context"
	"fmt"
	"strings"

	"github.com/hudiscope/hudiscope/analyzers/health"
	"github.com/hudiscope/hudiscope/model"
)

func healthSection(_ context.Context, s *model.Snapshot) (string, bool) {
	if s.Health == nil {
		return "", false
	}
	return HealthMarkdown(s.Health, nil), true
}

// HealthBands indexes hudiscope's per-check bands by check name.
func HealthBands(r *health.Result) map[string]health.Band {
	out := map[string]health.Band{}
	if r.Hudiscope != nil {
		for _, b := range r.Hudiscope.Checks {
			out[b.Name] = b
		}
	}
	return out
}

// HealthMarkdown renders the health checks: one row per check with the observed number, the
// configured trigger, the checker's slack threshold and the band state, then each check's
// summary and findings, the writer properties used and where they came from. names selects
// and orders the checks (nil: all, in report order).
func HealthMarkdown(r *health.Result, names []string) string {
	var b strings.Builder
	engine := ""
	if r.Hudiscope != nil {
		engine = r.Hudiscope.Engine
	}
	assumed := ""
	if r.Hudiscope != nil && r.Hudiscope.ApplyAllDefaults {
		assumed = "; defaults assumed: writer properties left unset are judged by Hudi's defaults"
	}
	fmt.Fprintf(&b, "Overall: **%s** (%s, engine %s%s).\n\n", r.Verdict(), orDash(r.TableType), orDash(engine), assumed)
	checks := r.Checks
	if names != nil {
		checks = nil
		for _, n := range names {
			if c := r.Check(n); c != nil {
				checks = append(checks, *c)
			}
		}
		if len(checks) < len(r.Checks) {
			fmt.Fprintf(&b, "%d of %d checks shown.\n\n", len(checks), len(r.Checks))
		}
	}
	bands := HealthBands(r)
	var rows [][]string
	for _, c := range checks {
		bd := bands[c.Name]
		rows = append(rows, []string{c.Name, c.Status, orDash(bd.Measure), BandValue(bd, bd.Observed), BandValue(bd, bd.Trigger), BandValue(bd, bd.Threshold), orDash(bd.State)})
	}
	b.WriteString(Table([]string{"check", "status", "measure", "observed", "trigger", "unhealthy at", "state"}, "lllrrrl", rows))
	b.WriteString("\nA check past its trigger but inside the checker's slack is **behind, not stopped**: the service runs, late. " +
		"That band is where tuning pays; past the slack threshold the checker calls the table unhealthy.\n")
	for _, c := range checks {
		b.WriteString("\n")
		b.WriteString(HealthCheckMarkdown(r, c.Name, false))
	}
	if r.Hudiscope != nil {
		for _, n := range r.Hudiscope.Notes {
			fmt.Fprintf(&b, "\nNote: %s\n", Escape(n))
		}
	}
	if len(r.Errors) > 0 {
		b.WriteString("\nErrors:\n\n")
		for _, e := range r.Errors {
			fmt.Fprintf(&b, "- %s\n", Escape(e))
		}
	}
	return b.String()
}

// HealthCheckMarkdown renders one check: summary, band, findings, effective configs (with
// verbose) and the writer properties it read with their sources (values already redacted).
func HealthCheckMarkdown(r *health.Result, name string, verbose bool) string {
	c := r.Check(name)
	if c == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "### %s: %s\n\n%s\n", c.Name, c.Status, Escape(c.Summary))
	if bd, ok := HealthBands(r)[c.Name]; ok && bd.State != "" {
		fmt.Fprintf(&b, "\n%s: observed %s, trigger %s, unhealthy at %s: **%s**.\n", bd.Measure, BandValue(bd, bd.Observed), BandValue(bd, bd.Trigger), BandValue(bd, bd.Threshold), bd.State)
	}
	if len(c.Findings) > 0 {
		b.WriteString("\n")
		for _, f := range c.Findings {
			fmt.Fprintf(&b, "- %s\n", Escape(f))
		}
	}
	if verbose && len(c.EffectiveConfigs) > 0 {
		b.WriteString("\n")
		var rows [][]string
		for _, kv := range c.EffectiveConfigs {
			rows = append(rows, []string{kv.Key, kv.Value})
		}
		b.WriteString(Table([]string{"key", "value"}, "ll", rows))
	}
	if src := CheckSources(r, c.Name); len(src) > 0 {
		b.WriteString("\n")
		var rows [][]string
		for _, s := range src {
			rows = append(rows, []string{s.Key, s.Value, s.Source})
		}
		b.WriteString(Table([]string{"writer property", "value", "source"}, "lll", rows))
	}
	return b.String()
}

// CheckSources are the writer properties a check read (first use of each key).
func CheckSources(r *health.Result, name string) []health.SourceEntry {
	if r.Hudiscope == nil {
		return nil
	}
	var out []health.SourceEntry
	seen := map[string]bool{}
	for _, s := range r.Hudiscope.Sources {
		if s.Check == name && !seen[s.Key] {
			seen[s.Key] = true
			out = append(out, s)
		}
	}
	return out
}
