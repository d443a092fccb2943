package view

import (
	"fmt"

	"github.com/hudiscope/hudiscope/analyzers/eventlog"
	"github.com/hudiscope/hudiscope/internal/redact"
	"github.com/hudiscope/hudiscope/internal/units"
)

// UnknownMaterial is the share of stage wall clock in UNKNOWN from which it is stated first.
const UnknownMaterial = 0.05

// The event-log views show hudiscope's attribution (hudiscope.phaseSummary, hudiscope.stages);
// the Java tool's, in the JSON's top-level fields, is named beside it where it differs.

// PhaseShare returns a phase's share of stage wall clock in hudiscope's attribution (-1 when
// absent or undefined).
func PhaseShare(r *eventlog.Report, phase string) float64 {
	return Share(r.Hudiscope.PhaseSummary, phase)
}

// JavaPhaseShare is the same share in the Java tool's attribution (-1 when absent).
func JavaPhaseShare(r *eventlog.Report, phase string) float64 {
	return Share(r.PhaseSummary, phase)
}

// Share is the share of stage wall clock of the row labelled label (-1 when absent or
// undefined).
func Share(rows []eventlog.GroupSummary, label string) float64 {
	for _, g := range rows {
		if g.Label == label {
			return float64(g.ShareOfStageWallClock)
		}
	}
	return -1
}

// JavaNote is "(Java tool: 5%)" when the Java tool's share of label differs from ours at
// whole-percent precision (absent = 0%), "" otherwise.
func JavaNote(ours, java []eventlog.GroupSummary, label string) string {
	o, j := max(Share(ours, label), 0), max(Share(java, label), 0)
	if fmt.Sprintf("%.0f", 100*o) == fmt.Sprintf("%.0f", 100*j) {
		return ""
	}
	return fmt.Sprintf("(Java tool: %.0f%%)", 100*j)
}

// JavaOnly are the Java tool's rows whose label hudiscope's attribution does not have, as
// zero rows (so a view of ours can show the Java share beside them).
func JavaOnly(ours, java []eventlog.GroupSummary) []eventlog.GroupSummary {
	var out []eventlog.GroupSummary
	for _, g := range java {
		if Share(ours, g.Label) < 0 && g.ShareOfStageWallClock > 0 {
			out = append(out, eventlog.GroupSummary{Label: g.Label})
		}
	}
	return out
}

// UnknownStatement says how much stage wall clock hudiscope could not attribute to a phase,
// when that is material ("" otherwise).
func UnknownStatement(r *eventlog.Report) string {
	sh := PhaseShare(r, eventlog.PhaseUnknown)
	if sh < UnknownMaterial {
		return ""
	}
	why := "no Hudi job description"
	for _, s := range r.Hudiscope.Stages {
		if s.Phase == eventlog.PhaseUnknown && s.SubPhase != nil && *s.SubPhase == eventlog.SubPhaseStreamingMetadataWrite {
			why = "streaming MDT writes"
			break
		}
	}
	out := fmt.Sprintf("UNKNOWN %.0f%% of stage wall clock is unattributed (%s)", 100*sh, why)
	if n := JavaNote(r.Hudiscope.PhaseSummary, r.PhaseSummary, eventlog.PhaseUnknown); n != "" {
		out += " " + n
	}
	return out
}

// UncoveredStatements say how long no Spark job ran (hudiscope.application.uncoveredMillis
// and uncoveredShare), longest wording first, so a narrow view picks the first that fits;
// nil when unknown. It is the largest fact of many Hudi logs and no phase share counts it.
func UncoveredStatements(r *eventlog.Report) []string {
	x := r.Hudiscope.Application
	if x.UncoveredMillis < 0 || x.UncoveredShare < 0 {
		return nil
	}
	head := fmt.Sprintf("no Spark job ran for %s of the app's %s (%.0f%%)", units.Millis(x.UncoveredMillis),
		units.Millis(r.Application.Observed.DurationMillis), 100*float64(x.UncoveredShare))
	return []string{
		head + ": driver-side listing, timeline I/O, waits; no phase share counts it",
		head + ": driver-side work or waits, in no phase",
		head + ": driver work or waits",
		head,
	}
}

// TopSubPhase is the sub-phase holding most of a phase's stage wall clock in hudiscope's
// attribution ("" if none).
func TopSubPhase(r *eventlog.Report, phase string) string {
	by := map[string]int64{}
	for i, x := range r.Hudiscope.Stages {
		if i < len(r.Stages) && x.Phase == phase && x.SubPhase != nil && r.Stages[i].Observed.DurationMillis > 0 {
			by[*x.SubPhase] += r.Stages[i].Observed.DurationMillis
		}
	}
	best, bv := "", int64(0)
	for _, k := range sortedKeys(by) {
		if by[k] > bv {
			best, bv = k, by[k]
		}
	}
	return best
}

// Caveats are hudiscope's attribution notes, then the caveats of the Java tool's rules.
func Caveats(r *eventlog.Report) []string {
	return append(append([]string(nil), r.Hudiscope.Caveats...), r.Caveats...)
}

// HudiProperties are the application's Spark properties relevant to Hudi, redacted, by key.
func HudiProperties(r *eventlog.Report) [][2]string {
	var out [][2]string
	for _, k := range sortedKeys(r.Hudiscope.Hudi.Configs) {
		out = append(out, [2]string{k, redact.Value(k, r.Hudiscope.Hudi.Configs[k])})
	}
	return out
}
