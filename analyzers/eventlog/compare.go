package eventlog

import (
	"math"
	"sort"
)

// Units of a compared measure.
const (
	UnitMillis = "millis"
	UnitCount  = "count"
	UnitBytes  = "bytes"
	UnitShare  = "share"
)

// Comparison sections (Moved.Section, and the sections a renderer shows).
const (
	SectionApplication = "application"
	SectionPhase       = "phase"
	SectionOperation   = "operation"
	SectionStageKind   = "stageKind"
)

// Comparison is two analyses of event logs side by side (hudiscope's attribution): Before is
// the baseline, After the run after a change. Every delta is After minus Before.
type Comparison struct {
	Before CompareSide `json:"before"`
	After  CompareSide `json:"after"`
	// Application are the application totals, in a fixed order.
	Application []Delta `json:"application"`
	// Phases, Operations and StageKinds are the groups of either log, in label order; a stage
	// kind is a stage's "PHASE/subPhase".
	Phases     []GroupDelta `json:"phases"`
	Operations []GroupDelta `json:"operations"`
	StageKinds []GroupDelta `json:"stageKinds"`
	// MovedMost are the time measures that moved (phases, operations, stage kinds and the time
	// no job covers), largest |delta| first; unchanged ones are left out.
	MovedMost []Moved `json:"movedMost"`
}

// CompareSide names one of the two logs.
type CompareSide struct {
	EventLogPath  string  `json:"eventLogPath"`
	ApplicationID *string `json:"applicationId"`
	Name          *string `json:"name"`
}

// Delta is one measure in both logs. Relative is Delta over Before (rounded to 3 decimals),
// nil when Before is zero or either value is unknown; Known is false when either log cannot
// derive the measure (its value there is -1), and Delta is then 0.
type Delta struct {
	Measure  string   `json:"measure"`
	Unit     string   `json:"unit"`
	Before   float64  `json:"before"`
	After    float64  `json:"after"`
	Delta    float64  `json:"delta"`
	Relative *float64 `json:"relative"`
	Known    bool     `json:"known"`
}

// GroupDelta is one phase, operation or stage kind in both logs (a group absent from a log
// counts zero there; InBefore/InAfter say where it ran).
type GroupDelta struct {
	Label           string `json:"label"`
	InBefore        bool   `json:"inBefore"`
	InAfter         bool   `json:"inAfter"`
	Stages          Delta  `json:"stages"`
	Tasks           Delta  `json:"tasks"`
	WallClockMillis Delta  `json:"wallClockMillis"`
	Share           Delta  `json:"share"`
}

// Moved is one time measure that moved, for the "moved most" list.
type Moved struct {
	Section     string   `json:"section"`
	Label       string   `json:"label"`
	BeforeMs    int64    `json:"beforeMillis"`
	AfterMs     int64    `json:"afterMillis"`
	DeltaMillis int64    `json:"deltaMillis"`
	Relative    *float64 `json:"relative"`
}

// UncoveredLabel is the "moved most" label of the time no Spark job covers.
const UncoveredLabel = "not covered by any job"

// Compare puts two analyses side by side (before, after). Neither report is modified.
func Compare(before, after *Report) *Comparison {
	c := &Comparison{Before: side(before), After: side(after)}
	ob, oa := before.Application.Observed, after.Application.Observed
	xb, xa := before.Hudiscope.Application, after.Hudiscope.Application
	gap := func(o AppObserved) int64 {
		if o.DurationMillis < 0 || o.CriticalPathMillis < 0 {
			return -1
		}
		return o.DurationMillis - o.CriticalPathMillis
	}
	ratio := func(o AppObserved) float64 {
		if o.DurationMillis <= 0 || o.CriticalPathMillis < 0 {
			return -1
		}
		return float64(o.CriticalPathMillis) / float64(o.DurationMillis)
	}
	c.Application = []Delta{
		delta("durationMillis", UnitMillis, float64(ob.DurationMillis), float64(oa.DurationMillis)),
		delta("criticalPathMillis", UnitMillis, float64(ob.CriticalPathMillis), float64(oa.CriticalPathMillis)),
		delta("offCriticalPathMillis", UnitMillis, float64(gap(ob)), float64(gap(oa))),
		delta("criticalPathShare", UnitShare, ratio(ob), ratio(oa)),
		delta("uncoveredMillis", UnitMillis, float64(xb.UncoveredMillis), float64(xa.UncoveredMillis)),
		delta("uncoveredShare", UnitShare, float64(xb.UncoveredShare), float64(xa.UncoveredShare)),
		delta("jobCount", UnitCount, float64(ob.JobCount), float64(oa.JobCount)),
		delta("stageCount", UnitCount, float64(ob.StageCount), float64(oa.StageCount)),
		delta("taskCount", UnitCount, float64(ob.TaskCount), float64(oa.TaskCount)),
		delta("executorRunTimeMillis", UnitMillis, float64(ob.ExecutorRunTimeMillis), float64(oa.ExecutorRunTimeMillis)),
		delta("shuffleBytes", UnitBytes, float64(ob.ShuffleReadBytes+ob.ShuffleWriteBytes), float64(oa.ShuffleReadBytes+oa.ShuffleWriteBytes)),
		delta("spilledBytes", UnitBytes, float64(ob.MemoryBytesSpilled+ob.DiskBytesSpilled), float64(oa.MemoryBytesSpilled+oa.DiskBytesSpilled)),
	}
	c.Phases = groupDeltas(before.Hudiscope.PhaseSummary, after.Hudiscope.PhaseSummary)
	c.Operations = groupDeltas(before.Hudiscope.OperationSummary, after.Hudiscope.OperationSummary)
	c.StageKinds = groupDeltas(StageKinds(before), StageKinds(after))
	for _, s := range []struct {
		name string
		rows []GroupDelta
	}{{SectionPhase, c.Phases}, {SectionOperation, c.Operations}, {SectionStageKind, c.StageKinds}} {
		for _, g := range s.rows {
			c.MovedMost = appendMoved(c.MovedMost, s.name, g.Label, g.WallClockMillis)
		}
	}
	c.MovedMost = appendMoved(c.MovedMost, SectionApplication, UncoveredLabel, c.Application[4])
	sort.SliceStable(c.MovedMost, func(i, j int) bool {
		a, b := abs64(c.MovedMost[i].DeltaMillis), abs64(c.MovedMost[j].DeltaMillis)
		if a != b {
			return a > b
		}
		return c.MovedMost[i].Section+c.MovedMost[i].Label < c.MovedMost[j].Section+c.MovedMost[j].Label
	})
	return c
}

// Find is the application measure named m (nil when absent).
func (c *Comparison) Find(m string) *Delta {
	for i := range c.Application {
		if c.Application[i].Measure == m {
			return &c.Application[i]
		}
	}
	return nil
}

func side(r *Report) CompareSide {
	return CompareSide{EventLogPath: r.EventLogPath, ApplicationID: r.Application.ID, Name: r.Application.Name}
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

func appendMoved(out []Moved, section, label string, d Delta) []Moved {
	if !d.Known || d.Delta == 0 {
		return out
	}
	return append(out, Moved{Section: section, Label: label, BeforeMs: int64(d.Before), AfterMs: int64(d.After),
		DeltaMillis: int64(d.Delta), Relative: d.Relative})
}

// delta is one measure; -1 on either side is unknown.
func delta(measure, unit string, before, after float64) Delta {
	d := Delta{Measure: measure, Unit: unit, Before: before, After: after}
	if unit == UnitShare {
		d.Before, d.After = float64(round3(before)), float64(round3(after))
	}
	if before < 0 || after < 0 {
		return d
	}
	d.Known = true
	d.Delta = d.After - d.Before
	if unit == UnitShare {
		d.Delta = math.Round(d.Delta*1000) / 1000
	}
	if d.Before != 0 {
		r := math.Round(d.Delta/d.Before*1000) / 1000
		d.Relative = &r
	}
	return d
}

func groupDeltas(before, after []GroupSummary) []GroupDelta {
	idx := map[string]*GroupDelta{}
	var labels []string
	get := func(l string) *GroupDelta {
		if g, ok := idx[l]; ok {
			return g
		}
		g := &GroupDelta{Label: l}
		idx[l] = g
		labels = append(labels, l)
		return g
	}
	byLabel := func(rows []GroupSummary) map[string]GroupSummary {
		m := map[string]GroupSummary{}
		for _, r := range rows {
			m[r.Label] = r
			get(r.Label)
		}
		return m
	}
	b, a := byLabel(before), byLabel(after)
	sort.Strings(labels)
	out := make([]GroupDelta, 0, len(labels))
	for _, l := range labels {
		g := idx[l]
		x, inB := b[l]
		y, inA := a[l]
		g.InBefore, g.InAfter = inB, inA
		g.Stages = delta("stages", UnitCount, float64(x.StageCount), float64(y.StageCount))
		g.Tasks = delta("tasks", UnitCount, float64(x.TaskCount), float64(y.TaskCount))
		g.WallClockMillis = delta("wallClockMillis", UnitMillis, float64(x.StageWallClockMillis), float64(y.StageWallClockMillis))
		g.Share = delta("share", UnitShare, max(float64(x.ShareOfStageWallClock), 0), max(float64(y.ShareOfStageWallClock), 0))
		out = append(out, *g)
	}
	return out
}

// StageKinds groups a report's stage attempts (hudiscope's attribution) by "PHASE/subPhase",
// in label order, as the phase summary groups by phase: stage count, tasks observed, stage
// wall clock, executor run time, shuffle and spill, and the share of all stage wall clock.
func StageKinds(r *Report) []GroupSummary {
	out := summarise(r.HudiscopeStages(), "stageKind", func(s *Stage) string {
		if s.SubPhase != nil && *s.SubPhase != "" {
			return s.Phase + "/" + *s.SubPhase
		}
		return s.Phase
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Label < out[j].Label })
	return out
}
