package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/hudiscope/hudiscope/analyzers/health"
	"github.com/hudiscope/hudiscope/internal/safetext"
	"github.com/hudiscope/hudiscope/internal/units"
)

// HealthText renders the report for a terminal: one block per check with the observed number,
// the configured trigger and the checker's slack threshold, then where each value came from.
// verbose adds every effectiveConfigs entry.
func HealthText(w io.Writer, r *health.Result, verbose bool) error {
	assumed := ""
	if r.Hudiscope != nil && r.Hudiscope.ApplyAllDefaults {
		assumed = "  (defaults assumed: unset writer properties judged by Hudi's defaults)"
	}
	fmt.Fprintf(w, "Table: %s  (%s)  overall: %s%s\n\n", safetext.Terminal(r.BasePath), r.TableType, r.Verdict(), assumed)
	bands := HealthBands(r)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CHECK\tSTATUS\tOBSERVED\tTRIGGER\tUNHEALTHY AT\tSTATE")
	for _, c := range r.Checks {
		b := bands[c.Name]
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", c.Name, c.Status, BandValue(b, b.Observed), BandValue(b, b.Trigger), BandValue(b, b.Threshold), orDash(b.State))
	}
	tw.Flush()
	for _, c := range r.Checks {
		fmt.Fprintf(w, "\n[%s] %s — %s\n", c.Status, c.Name, safetext.Terminal(c.Summary))
		for _, f := range c.Findings {
			fmt.Fprintf(w, "  - %s\n", safetext.Terminal(f))
		}
		if verbose {
			for _, kv := range c.EffectiveConfigs {
				fmt.Fprintf(w, "    %s = %s\n", safetext.Terminal(kv.Key), safetext.Terminal(kv.Value))
			}
		}
	}
	if r.Hudiscope != nil && len(r.Hudiscope.Sources) > 0 {
		fmt.Fprintf(w, "\nWriter properties used (engine %s):\n", r.Hudiscope.Engine)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		seen := map[string]bool{}
		for _, s := range r.Hudiscope.Sources {
			if seen[s.Key] {
				continue
			}
			seen[s.Key] = true
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", safetext.Terminal(s.Key), safetext.Terminal(s.Value), safetext.Terminal(s.Source))
		}
		tw.Flush()
	}
	if r.Hudiscope != nil {
		for _, n := range r.Hudiscope.Notes {
			fmt.Fprintf(w, "\nnote: %s\n", safetext.Terminal(n))
		}
	}
	if len(r.Errors) > 0 {
		fmt.Fprintf(w, "\nErrors:\n  %s\n", strings.Join(terminalAll(r.Errors), "\n  "))
	}
	return nil
}

// BandValue renders one of b's numbers: binary units when b's measure counts bytes, else
// the exact count; "-" when absent.
func BandValue(b health.Band, p *int64) string {
	switch {
	case p == nil:
		return "-"
	case b.CountsBytes():
		return units.Bytes(*p)
	}
	return strconv.FormatInt(*p, 10)
}

// terminalAll escapes each of ss for the terminal.
func terminalAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = safetext.Terminal(s)
	}
	return out
}
