package report

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/hudiscope/hudiscope/analyzers/findings"
	"github.com/hudiscope/hudiscope/model"
)

// VerifyDocument is the JSON of `verify`: the row's verification step on the two event logs.
type VerifyDocument struct {
	SchemaVersion string `json:"schemaVersion"`
	Document      string `json:"document"`
	// Input is what before and after name: VerifyEventLogs or VerifyInstants (of Table).
	Input  string `json:"input"`
	Table  string `json:"table,omitempty"`
	Before string `json:"before"`
	After  string `json:"after"`
	// BeforeInstant and AfterInstant are the instants read (TIME.ACTION) with VerifyInstants.
	BeforeInstant string `json:"beforeInstant,omitempty"`
	AfterInstant  string `json:"afterInstant,omitempty"`
	*findings.VerifyResult
}

// The inputs of a verify document.
const (
	VerifyEventLogs = "eventlogs"
	VerifyInstants  = "instants"
)

// NewVerifyDocument wraps a verification on two event logs for JSON output (set Input, Table
// and the instants for one on two instants).
func NewVerifyDocument(r *findings.VerifyResult, before, after string) VerifyDocument {
	return VerifyDocument{SchemaVersion: SchemaVersion, Document: "verify", Input: VerifyEventLogs, Before: before, After: after, VerifyResult: r}
}

// VerifyCells are one check's cells as text: before, after, delta, relative change ("-" unknown).
func VerifyCells(c findings.CheckResult) [4]string {
	num := func(p *float64) string {
		if p == nil {
			return "-"
		}
		return findings.FormatNumber(*p)
	}
	d := num(c.Delta)
	if c.Delta != nil && *c.Delta > 0 {
		d = "+" + d
	}
	rel := "-"
	if c.Relative != nil {
		rel = fmt.Sprintf("%+.1f%%", 100**c.Relative)
	}
	return [4]string{num(c.Before), num(c.After), d, rel}
}

func expectWords(c findings.CheckResult) string {
	e := c.Expect
	if c.Guard {
		e += " (guard)"
	}
	return e
}

// VerifyText prints the verdict, the catalog's step and every check with its figures.
func VerifyText(w io.Writer, r *findings.VerifyResult, before, after string) error {
	tw := tabwriter.NewWriter(w, 0, 2, 2, ' ', 0)
	fmt.Fprintf(tw, "%s %s\n", r.Row, term(r.Title))
	fmt.Fprintf(tw, "  verdict\t%s\n  why\t%s\n  step\t%s\n  before\t%s\n  after\t%s\n", strings.ToUpper(r.Verdict), term(r.Why), term(r.Step), term(before), term(after))
	if r.Partly != "" {
		fmt.Fprintf(tw, "  not checked\t%s\n", term(r.Partly))
	}
	if len(r.Checks) > 0 {
		fmt.Fprintf(tw, "\n  check\texpect\tbefore\tafter\tdelta\tchange\toutcome\n")
	}
	for _, c := range r.Checks {
		v := VerifyCells(c)
		out := c.Outcome
		if c.Why != "" {
			out += ": " + c.Why
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\t%s\n", term(c.Says), expectWords(c), v[0], v[1], v[2], v[3], term(out))
	}
	if len(r.Checks) > 0 {
		fmt.Fprintf(tw, "\n  measures\n")
		for _, c := range r.Checks {
			fmt.Fprintf(tw, "  - %s\n", term(c.Measure))
		}
	}
	return tw.Flush()
}

// VerifyMarkdown renders the same as Markdown.
func VerifyMarkdown(r *findings.VerifyResult, before, after string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Verify %s — %s\n\n", r.Row, Escape(r.Title))
	fmt.Fprintf(&b, "**Verdict: %s.** %s\n\n", r.Verdict, Escape(r.Why))
	rows := [][]string{{"step", r.Step}, {"before", before}, {"after", after}}
	if r.Partly != "" {
		rows = append(rows, []string{"not checked", r.Partly})
	}
	b.WriteString(Table([]string{"", ""}, "ll", rows))
	if len(r.Checks) > 0 {
		var out [][]string
		for _, c := range r.Checks {
			v := VerifyCells(c)
			o := c.Outcome
			if c.Why != "" {
				o += ": " + c.Why
			}
			out = append(out, []string{c.Says, "`" + c.Measure + "`", expectWords(c), v[0], v[1], v[2], v[3], o})
		}
		b.WriteString("\n")
		b.WriteString(Table([]string{"check", "measure", "expect", "before", "after", "delta", "change", "outcome"}, "lllrrrrl", out))
	}
	return b.String()
}

// appliedSection is the report's "Applied changes": with --compare-log, every catalog row
// whose keys differ between the two runs' properties, and whether its change worked.
func appliedSection(_ context.Context, s *model.Snapshot) (string, bool) {
	if s.CompareLog == nil {
		return "", false
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Compared with %s (%s). ", Escape(s.Options.CompareEventLog), Escape(ptrDash(s.CompareLog.Application.ID)))
	if len(s.Applied) == 0 {
		b.WriteString("No key a catalog row moves differs between the two runs' Spark properties, so no change is verified.\n")
		return b.String(), true
	}
	b.WriteString("A row is listed when a key its change moves differs between the two runs' Spark properties; its verification step is read on the two event logs.\n")
	var quiet []string
	for _, a := range s.Applied {
		r := a.Verify
		if !a.Fired {
			quiet = append(quiet, fmt.Sprintf("%s (%s): %s", r.Row, orDash(a.Status), r.Verdict))
			continue
		}
		fmt.Fprintf(&b, "\n### %s — %s\n\n", r.Row, Escape(r.Title))
		var keys []string
		for _, k := range a.Keys {
			keys = append(keys, fmt.Sprintf("`%s` %s → %s", k.Key, ptrDash(k.Before), ptrDash(k.After)))
		}
		status := a.Status
		if status == "" {
			status = "-"
		}
		fmt.Fprintf(&b, "**%s.** %s (changed: %s; status on the run before: %s)\n", capitalize(r.Verdict), Escape(r.Why), strings.Join(keys, ", "), status)
		if len(r.Checks) > 0 {
			var out [][]string
			for _, c := range r.Checks {
				v := VerifyCells(c)
				out = append(out, []string{c.Says, expectWords(c), v[0], v[1], v[2], v[3], c.Outcome})
			}
			b.WriteString("\n" + Table([]string{"check", "expect", "before", "after", "delta", "change", "outcome"}, "llrrrrl", out))
		}
	}
	if len(quiet) > 0 {
		fmt.Fprintf(&b, "\nRows that move a changed key but did not fire on the run before (`hudiscope verify ROW` shows their checks): %s.\n", Escape(strings.Join(quiet, "; ")))
	}
	return b.String(), true
}
