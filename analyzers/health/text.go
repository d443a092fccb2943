package health

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/hudiscope/hudiscope/internal/safetext"
	"github.com/hudiscope/hudiscope/internal/units"
)

// WriteText renders the report for a terminal: one block per check with the observed number,
// the configured trigger and the checker's slack threshold, then where each value came from.
// verbose adds every effectiveConfigs entry.
func WriteText(w io.Writer, r *Result, verbose bool) error {
	assumed := ""
	if r.Hudiscope != nil && r.Hudiscope.ApplyAllDefaults {
		assumed = "  (defaults assumed: unset writer properties judged by Hudi's defaults)"
	}
	fmt.Fprintf(w, "Table: %s  (%s)  overall: %s%s\n\n", safetext.Terminal(r.BasePath), r.TableType, r.Verdict(), assumed)
	bands := map[string]Band{}
	if r.Hudiscope != nil {
		for _, b := range r.Hudiscope.Checks {
			bands[b.Name] = b
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CHECK\tSTATUS\tOBSERVED\tTRIGGER\tUNHEALTHY AT\tSTATE")
	for _, c := range r.Checks {
		b := bands[c.Name]
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", c.Name, c.Status, BandValue(b, b.Observed), BandValue(b, b.Trigger), BandValue(b, b.Threshold), dash(b.State))
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
		fmt.Fprintf(w, "\nErrors:\n  %s\n", strings.Join(safeAll(r.Errors), "\n  "))
	}
	return nil
}

// CountsBytes reports whether b's numbers are bytes (its measure ends in "bytes").
func (b Band) CountsBytes() bool { return strings.HasSuffix(b.Measure, " bytes") }

// BandValue renders one of b's numbers: binary units when b's measure counts bytes, else
// the exact count; "-" when absent.
func BandValue(b Band, p *int64) string {
	switch {
	case p == nil:
		return "-"
	case b.CountsBytes():
		return units.Bytes(*p)
	}
	return strconv.FormatInt(*p, 10)
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func safeAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = safetext.Terminal(s)
	}
	return out
}
