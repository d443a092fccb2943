package report

import (
	"context"
	"fmt"
	"strings"

	"github.com/hudiscope/hudiscope/analyzers/findings"
	"github.com/hudiscope/hudiscope/internal/units"
	"github.com/hudiscope/hudiscope/model"
)

// findingsSection renders the Findings section (ok=false before the findings step has run).
func findingsSection(_ context.Context, s *model.Snapshot) (string, bool) {
	if s == nil || s.Findings == nil {
		return "", false
	}
	return FindingsMarkdown(s.Findings), true
}

// FindingsMarkdown renders the findings in the catalog's output order: inputs and confidence,
// where the time went, observations by payoff, capability candidates with signals for and
// against, durable findings refused, and what is missing.
func FindingsMarkdown(r *findings.Result) string {
	var b strings.Builder
	b.WriteString("### Inputs and confidence\n\n")
	b.WriteString(Escape(r.Inputs.Statement) + "\n\n")
	var rows [][]string
	for _, x := range []struct {
		name string
		ok   bool
	}{{"writer properties", r.Inputs.Props}, {"Spark event log", r.Inputs.EventLog}, {"table", r.Inputs.Table}} {
		st := "missing"
		if x.ok {
			st = "present"
		}
		rows = append(rows, []string{x.name, st, r.Inputs.Sources[x.name]})
	}
	b.WriteString(Table([]string{"input", "status", "source"}, "lll", rows))
	fmt.Fprintf(&b, "\nConfidence: **%s**.\n", r.Inputs.Confidence)
	if len(r.Release.Lines) > 0 {
		fmt.Fprintf(&b, "\nRelease: keys and defaults are read as %s writes them", Escape(r.Release.Words()))
		for _, s := range []string{r.Release.Narrowed, r.Release.Caveat} {
			if s != "" {
				b.WriteString("; " + Escape(s))
			}
		}
		b.WriteString(".\n")
	}

	b.WriteString("\n### Where the time went\n\n")
	if t := r.Time; t == nil {
		b.WriteString("No event log: the phase breakdown is unavailable.\n")
	} else {
		if t.Lead != "" {
			b.WriteString(Escape(t.Lead) + "\n\n")
		}
		// hudiscope's attribution leads; the Java tool's share is the labelled second column.
		var pr [][]string
		for _, p := range t.Phases {
			pr = append(pr, []string{p.Phase, pctCell(p.Share), pctCell(p.JavaShare), units.Millis(p.Millis), fmt.Sprint(p.Stages)})
		}
		b.WriteString("Phases in hudiscope's attribution (docs/eventlog-differences.md), the Java tool's share beside them:\n\n")
		b.WriteString(Table([]string{"phase", "share of stage wall clock", "the Java tool's share", "stage wall clock", "stages"}, "lrrrr", pr))
		if len(t.Caveats) > 0 {
			b.WriteString("\nThe analyzer's caveats, repeated:\n\n")
			for _, c := range t.Caveats {
				b.WriteString("- " + Escape(c) + "\n")
			}
		}
	}

	b.WriteString("\n### Observations, by payoff\n\n")
	if top := r.TopFinding(); top.ID != "" {
		b.WriteString("**Top finding:** " + Escape(top.Says) + " — the highest-ranked observation two inputs corroborated.\n\n")
	} else {
		b.WriteString("**Top finding:** " + Escape(top.Says) + ": no observation is corroborated by two inputs, and a hypothesis is never the top finding.\n\n")
	}
	if len(r.Misspellings) > 0 {
		b.WriteString("Keys that do nothing (Hudi silently ignores unknown keys, so the default applies):\n\n")
		for _, m := range r.Misspellings {
			fmt.Fprintf(&b, "- `%s` (%s): this key does nothing; did you mean `%s`?\n", Escape(m.Key), Escape(m.Origin), Escape(m.Suggest))
		}
		b.WriteString("\n")
	}
	if len(r.ReleaseKeys) > 0 {
		b.WriteString("Keys the release writing this table does not have (the writer ignores them):\n\n")
		for _, k := range r.ReleaseKeys {
			fmt.Fprintf(&b, "- `%s` (%s): %s.\n", Escape(k.Key), Escape(k.Origin), Escape(k.Says))
		}
		b.WriteString("\n")
	}
	obs := r.Observations()
	if len(obs) == 0 {
		b.WriteString("No observation fired.\n")
	}
	for _, f := range obs {
		b.WriteString(FindingMarkdown(f, "####"))
	}
	if st := r.Stopped(); len(st) > 0 {
		b.WriteString("Checked and not raised (a signal fired, but a counter-signal or gate stopped the row):\n\n")
		for _, f := range st {
			fmt.Fprintf(&b, "- **%s** %s — %s\n", f.ID, Escape(f.Title), Escape(f.Why))
		}
		b.WriteString("\n")
	}

	b.WriteString("### Capability candidates\n\n")
	var cr [][]string
	for _, f := range r.Capabilities() {
		cr = append(cr, []string{f.ID, f.Title, f.Status, evList(f.Signals, true), evList(f.Against, true)})
	}
	b.WriteString(Table([]string{"row", "capability", "verdict", "signals for (fired)", "signals against (fired)"}, "lllll", cr))
	for _, f := range r.Capabilities() {
		if f.Status == findings.StatusCandidate || f.Status == findings.StatusDont || f.Status == findings.StatusHypothesis {
			b.WriteString("\n" + FindingMarkdown(f, "####"))
		}
	}

	b.WriteString("\n### Durable findings, refused\n\n")
	dur := r.Durable()
	if len(dur) == 0 {
		b.WriteString("None: no measurement points at a change to what is on storage.\n")
	}
	for _, f := range dur {
		b.WriteString(FindingMarkdown(f, "####"))
	}

	if wh := r.Withheld(); len(wh) > 0 {
		b.WriteString("\n### Withheld\n\nThese findings broke a report invariant and are not advice:\n\n")
		for _, f := range wh {
			fmt.Fprintf(&b, "- **%s** %s — %s\n", f.ID, Escape(f.Title), Escape(f.Why))
		}
	}

	b.WriteString("\n### What is missing\n\n")
	if len(r.Missing) == 0 {
		b.WriteString("Nothing: all three inputs were present.")
		b.WriteString(" Query evidence (which columns readers filter on) is the one thing no write-side input carries; OBS-013, OBS-024, CAP-004 and CAP-005 depend on it.\n")
	}
	for _, m := range r.Missing {
		fmt.Fprintf(&b, "- **%s** would settle %s.\n", m.Input, Escape(m.Unlocks))
		for _, s := range m.Settles {
			b.WriteString("  - " + Escape(s) + "\n")
		}
		for _, s := range m.Skipped {
			b.WriteString("  - health check skipped: " + Escape(s) + "\n")
		}
	}
	b.WriteString("\n" + LabelsMarkdown())
	return b.String()
}

// LabelsMarkdown explains every status and risk word the findings show.
func LabelsMarkdown() string {
	var rows [][]string
	for _, l := range findings.Labels() {
		rows = append(rows, []string{l.Word, l.Long})
	}
	return "### What the labels mean\n\n" + Table([]string{"label", "meaning"}, "ll", rows)
}

// FindingMarkdown renders one finding with its evidence: every field path and value that
// fired it, the inputs that agreed, the change and the verification step.
func FindingMarkdown(f *findings.Finding, h string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s — %s\n\n", h, f.ID, Escape(f.Title))
	pairs := [][2]string{{"status", f.Status}, {"risk", f.Risk}, {"why", f.Why}}
	if f.Subject != "" {
		pairs = append(pairs, [2]string{"about", f.Subject})
	}
	if len(f.Agreed) > 0 {
		pairs = append(pairs, [2]string{"inputs that agreed", strings.Join(f.Agreed, ", ")})
	}
	if f.Settle != "" {
		pairs = append(pairs, [2]string{"would be settled by", f.Settle})
	}
	pairs = append(pairs, [2]string{"costs", f.Costs})
	b.WriteString(KeyValues(pairs))
	b.WriteString("\n")
	b.WriteString(EvidenceTable(f))
	if f.Estimate != nil {
		b.WriteString("\n" + Escape(f.Estimate.Text) + "\n")
	}
	switch {
	case f.Status == findings.StatusRefused:
		fmt.Fprintf(&b, "\n**Refused.** %s\n", Escape(f.Refusal))
	case f.Status == findings.StatusDoNothing:
		b.WriteString("\n**Change: none.** " + Escape(f.Change) + "\n")
	case f.Status == findings.StatusDont:
		b.WriteString("\n**Don't adopt it here.** The counter-signal above is the answer, not a failure to produce one.\n")
	case f.Status == findings.StatusHypothesis:
		b.WriteString("\n**Hypothesis, not a recommendation.** If confirmed: " + Escape(f.Change) + "\n")
	default:
		b.WriteString("\n**Change:** " + Escape(f.Change) + "\n")
	}
	if len(f.Keys) > 0 && (f.Status == findings.StatusObservation || f.Status == findings.StatusCandidate || f.Status == findings.StatusHypothesis) {
		b.WriteString("\n")
		for _, k := range f.Keys {
			b.WriteString("- " + KeyLine(k) + "\n")
		}
	}
	fmt.Fprintf(&b, "\n**Payoff:** %s\n", Escape(f.Payoff))
	if f.Status != findings.StatusRefused {
		fmt.Fprintf(&b, "\n**Verify:** %s\n", Escape(f.Verify))
	}
	for _, c := range f.Caveats {
		b.WriteString("\n> Caveat: " + Escape(c) + "\n")
	}
	for _, n := range f.Notes {
		b.WriteString("\n> Note: " + Escape(n) + "\n")
	}
	b.WriteString("\n")
	return b.String()
}

// KeyLine is one config key of a change: key, direction, where its value stands now.
func KeyLine(k findings.KeyAdvice) string {
	if k.Inert {
		return fmt.Sprintf("`%s`: not recommended — %s", k.Key, Escape(k.InertSays))
	}
	s := fmt.Sprintf("`%s` %s", k.Key, k.Direction)
	if k.To != "" {
		s += " to " + Escape(k.To)
	}
	if k.Current != "" {
		s += fmt.Sprintf(" (now %s; %s)", Escape(k.Current), Escape(k.Source))
	}
	if k.Note != "" {
		s += " — " + Escape(k.Note)
	}
	return s
}

// EvidenceTable lists every condition of a finding: its path, the value found and whether it
// held.
func EvidenceTable(f *findings.Finding) string {
	var rows [][]string
	add := func(kind string, evs []findings.Evidence) {
		for _, e := range evs {
			rows = append(rows, []string{kind, e.Input, e.Path, evValue(e), e.Threshold, holds(e), e.Says})
		}
	}
	add("for", f.Signals)
	add("against", f.Against)
	add("gate", f.Gates)
	return Table([]string{"", "input", "field", "value", "compared with", "holds", "meaning"}, "lllllll", rows)
}

func evValue(e findings.Evidence) string {
	v := e.Value
	if v == "" {
		v = "-"
	}
	if e.Source != "" {
		v += " (" + e.Source + ")"
	}
	return v
}

func holds(e findings.Evidence) string {
	switch {
	case !e.Known && e.Unknown != "":
		return "unknown: " + firstSentence(e.Unknown)
	case !e.Known:
		return "unknown (input missing)"
	case e.Holds && e.Assumed:
		return "yes (assumed: no writer properties)"
	case e.Holds && e.Default && len(e.Agrees) == 0:
		return "yes (a default: not evidence)"
	case e.Holds:
		return "yes"
	}
	return "no"
}

func evList(evs []findings.Evidence, fired bool) string {
	var out []string
	for _, e := range evs {
		if e.Known && e.Holds == fired {
			out = append(out, e.Says)
		}
	}
	if len(out) == 0 {
		return "-"
	}
	return strings.Join(out, "; ")
}

func pctCell(f float64) string { return fmt.Sprintf("%.1f%%", f*100) }

// firstSentence keeps a reason short in a table cell (the JSON carries all of it).
func firstSentence(s string) string {
	s = strings.TrimSuffix(s, ".")
	if i := strings.Index(s, ". "); i > 0 {
		return s[:i]
	}
	return s
}
