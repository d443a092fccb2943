package view

import (
	"fmt"
	"math"
	"strconv"

	"github.com/hudiscope/hudiscope/analyzers/eventlog"
	"github.com/hudiscope/hudiscope/internal/units"
)

// CompareRow is one measure of an event-log comparison as every surface shows it (the
// eventlog --compare text and Markdown, the Event log pane's compare view): the cells as text.
type CompareRow struct {
	// Section is "application", "phase", "operation" or "stageKind"; Label the group ("" for
	// application measures); Measure the measure's name in words.
	Section, Label, Measure string
	Before, After           string
	// Delta is signed in the measure's unit; Relative is the signed change over Before
	// ("-" when Before is zero or a side is unknown).
	Delta, Relative string
	// Only is "before" or "after" when the group ran in one log only ("" otherwise).
	Only string
}

// CompareSectionTitles are the comparison's sections, in the order surfaces show them.
var CompareSectionTitles = [][2]string{
	{eventlog.SectionApplication, "Application"},
	{eventlog.SectionPhase, "Phases (stage wall clock)"},
	{eventlog.SectionOperation, "Operations (stage wall clock)"},
	{eventlog.SectionStageKind, "Stage kinds (PHASE/subPhase, stage wall clock)"},
}

var measureWords = map[string]string{
	"durationMillis":        "duration",
	"criticalPathMillis":    "critical path",
	"offCriticalPathMillis": "duration off the critical path",
	"criticalPathShare":     "critical path / duration",
	"uncoveredMillis":       "not covered by any job",
	"uncoveredShare":        "not covered by any job (share)",
	"jobCount":              "jobs",
	"stageCount":            "stages",
	"taskCount":             "tasks",
	"executorRunTimeMillis": "executor run time",
	"shuffleBytes":          "shuffle read + write",
	"spilledBytes":          "spilled (memory + disk)",
}

// CompareRows are a comparison's rows: the application measures, then per phase, operation
// and stage kind its stage wall clock, tasks and share of stage wall clock.
func CompareRows(c *eventlog.Comparison) []CompareRow {
	if c == nil {
		return nil
	}
	var out []CompareRow
	for _, d := range c.Application {
		w := measureWords[d.Measure]
		if w == "" {
			w = d.Measure
		}
		out = append(out, compareRow(eventlog.SectionApplication, "", w, d))
	}
	for _, s := range []struct {
		name string
		rows []eventlog.GroupDelta
	}{{eventlog.SectionPhase, c.Phases}, {eventlog.SectionOperation, c.Operations}, {eventlog.SectionStageKind, c.StageKinds}} {
		for _, g := range s.rows {
			only := ""
			switch {
			case g.InBefore && !g.InAfter:
				only = "before"
			case g.InAfter && !g.InBefore:
				only = "after"
			}
			for _, m := range []struct {
				w string
				d eventlog.Delta
			}{{"wall clock", g.WallClockMillis}, {"tasks", g.Tasks}, {"share", g.Share}} {
				r := compareRow(s.name, g.Label, m.w, m.d)
				r.Only = only
				out = append(out, r)
			}
		}
	}
	return out
}

// CompareSection are the rows of one section.
func CompareSection(rows []CompareRow, section string) []CompareRow {
	var out []CompareRow
	for _, r := range rows {
		if r.Section == section {
			out = append(out, r)
		}
	}
	return out
}

func compareRow(section, label, measure string, d eventlog.Delta) CompareRow {
	r := CompareRow{Section: section, Label: label, Measure: measure,
		Before: CompareValue(d.Unit, d.Before), After: CompareValue(d.Unit, d.After), Delta: "-", Relative: "-"}
	if d.Known {
		r.Delta = CompareDelta(d.Unit, d.Delta)
		r.Relative = RelativeText(d.Relative)
	}
	return r
}

// CompareValue is a measure's value in its unit ("-" for -1, unknown).
func CompareValue(unit string, v float64) string {
	if v < 0 {
		return "-"
	}
	switch unit {
	case eventlog.UnitMillis:
		return units.Millis(int64(v))
	case eventlog.UnitBytes:
		return units.Bytes(int64(v))
	case eventlog.UnitShare:
		return strconv.FormatFloat(100*v, 'f', 1, 64) + "%"
	}
	return strconv.FormatInt(int64(v), 10)
}

// CompareDelta is a signed change in its unit ("0" when none; shares in percentage points).
func CompareDelta(unit string, d float64) string {
	if d == 0 {
		return "0"
	}
	sign := "+"
	if d < 0 {
		sign = "-"
	}
	a := math.Abs(d)
	if unit == eventlog.UnitShare {
		return sign + strconv.FormatFloat(100*a, 'f', 1, 64) + " pp"
	}
	return sign + CompareValue(unit, a)
}

// RelativeText is a relative change as a signed percentage ("-" when undefined).
func RelativeText(r *float64) string {
	if r == nil {
		return "-"
	}
	if *r == 0 {
		return "0%"
	}
	return fmt.Sprintf("%+.1f%%", 100**r)
}

// MovedRow is one line of "moved most": what moved, by how much.
type MovedRow struct {
	What                           string // "phase DEDUP_AND_INDEX_TAGGING"
	Before, After, Delta, Relative string
}

// MovedMost are the comparison's time measures that moved, largest |delta| first, at most n
// (n <= 0: all).
func MovedMost(c *eventlog.Comparison, n int) []MovedRow {
	if c == nil {
		return nil
	}
	words := map[string]string{eventlog.SectionPhase: "phase", eventlog.SectionOperation: "operation",
		eventlog.SectionStageKind: "stage kind", eventlog.SectionApplication: "application"}
	var out []MovedRow
	for i, m := range c.MovedMost {
		if n > 0 && i >= n {
			break
		}
		out = append(out, MovedRow{What: words[m.Section] + " " + m.Label,
			Before: units.Millis(m.BeforeMs), After: units.Millis(m.AfterMs),
			Delta: CompareDelta(eventlog.UnitMillis, float64(m.DeltaMillis)), Relative: RelativeText(m.Relative)})
	}
	return out
}

// CompareHeadline says in one line what changed between the two logs: duration, tasks and
// the measure that moved most.
func CompareHeadline(c *eventlog.Comparison) string {
	if c == nil {
		return ""
	}
	s := ""
	if d := c.Find("durationMillis"); d != nil {
		s = fmt.Sprintf("duration %s → %s (%s)", CompareValue(d.Unit, d.Before), CompareValue(d.Unit, d.After), RelativeText(d.Relative))
	}
	if d := c.Find("taskCount"); d != nil {
		s += fmt.Sprintf("; tasks %s → %s (%s)", CompareValue(d.Unit, d.Before), CompareValue(d.Unit, d.After), RelativeText(d.Relative))
	}
	if m := MovedMost(c, 1); len(m) > 0 {
		s += fmt.Sprintf("; moved most: %s %s (%s)", m[0].What, m[0].Delta, m[0].Relative)
	}
	return s
}
