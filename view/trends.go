package view

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/model"
)

// TrendPoint is one completed instant as the trends see it: the write totals its commit
// metadata holds (as Hudi's show_commits / show_archived_commits computes them) and how long
// it took.
type TrendPoint struct {
	In                                      *timeline.Instant
	Requested, Completed, Action, Operation string
	Kind                                    Kind
	Archived                                bool
	// Duration is requested → completion (Duration); DurationApprox marks a coarse completion.
	Duration       time.Duration
	DurationApprox bool
	// Interval is the time from the previous completed instant of the same kind's request to
	// this one's (the cadence of compaction, clustering and clean); 0 for the first.
	Interval time.Duration
	// The commit metadata's sums (writes only; zero for cleans and rollbacks).
	RecordsWritten, Inserted, Updated, Deleted, BytesWritten, Errors int64
	FilesAdded, FilesUpdated, Files, Partitions                      int
	// WriteAmp is WriteAmplification of the point (HasWriteAmp false: no record updated).
	WriteAmp    float64
	HasWriteAmp bool
	// AvgFileSize is bytes written per file written (0 when no file was written).
	AvgFileSize int64
}

// IsWrite reports whether the point carries commit metadata (commit, deltacommit,
// replacecommit, including compaction and clustering).
func (p *TrendPoint) IsWrite() bool { return timeline.IsWriteAction(p.Action) }

// TrendSeries is one measure over the points it applies to.
type TrendSeries struct {
	// Name is the measure ("duration", "bytesWritten", …); Group the points it is drawn over:
	// "writes" (commits and deltacommits), "compaction", "clustering" or "clean".
	Name, Group string
	// Label is the measure in words; Unit its unit ("s", "records", "bytes", "files",
	// "partitions", "×").
	Label, Unit string
	// Points are indexes into TrendSet.Points, one per value (int32: a series of 200k
	// points holds 12 of them).
	Points []int32
	Values []float64
	// Min, Max and Median of Values (0 without values).
	Min, Max, Median float64
	Changes          []ChangePoint
}

// ChangePoint is where a series' level moves: the median of the Window values from Index on
// is Ratio times the median of the Window values before it.
type ChangePoint struct {
	// Index is into the series' Values (and Points): the first value of the new level.
	Index int
	// Requested and Action name the instant there.
	Requested, Action string
	Before, After     float64
	Ratio             float64
	// Note is the change in words: "from commit 2026…, duration median 3.1× the previous 20".
	Note string
}

// TrendOptions choose the points and the change rule.
type TrendOptions struct {
	// Since keeps the instants that completed within Since before Now (0: all).
	Since time.Duration
	// Last keeps the last Last points after Since (0: all).
	Last int
	// Window (k) and Ratio are the change rule's (0: DefaultWindow, DefaultRatio).
	Window int
	Ratio  float64
}

// The change rule's defaults.
const (
	DefaultWindow = 10
	DefaultRatio  = 2.0
)

// TrendSet is the per-instant series of a timeline and their change points.
type TrendSet struct {
	// Points are the completed instants chosen, in completion order.
	Points []TrendPoint
	Series []TrendSeries
	// Window and Ratio are the change rule applied; Rule states it in words.
	Window int
	Ratio  float64
	Rule   string
	// Archived reports whether the archived timeline was read; Pending counts the write
	// instants chosen whose commit metadata was not read yet (they are not points).
	Archived bool
	Pending  int
	// Archival is when the archiver ran and what each run moved (read with the archived
	// timeline; the Since option applies to its runs' times, Last does not).
	Archival ArchivalSet
}

// ArchivalSet is the archiver's runs as storage shows them, oldest first.
type ArchivalSet struct {
	// Rule states how runs are derived and what they miss (timeline.ArchivalRule).
	Rule string
	Runs []ArchivalRun
	// MedianInstants is the median of the runs' instants; MedianInterval of their intervals
	// (0 with fewer than two runs).
	MedianInstants float64
	MedianInterval time.Duration
}

// ArchivalRun is one run and the time since the previous one (0 for the first).
type ArchivalRun struct {
	timeline.ArchivalRun
	Interval time.Duration
}

// archivalOf are the runs at or after from (zero: all) with their intervals and medians.
func archivalOf(runs []timeline.ArchivalRun, from time.Time) ArchivalSet {
	a := ArchivalSet{Rule: timeline.ArchivalRule}
	var counts, gaps []float64
	for i, r := range runs {
		if !from.IsZero() && r.Time.Before(from) {
			continue
		}
		run := ArchivalRun{ArchivalRun: r}
		if i > 0 && r.Time.After(runs[i-1].Time) {
			run.Interval = r.Time.Sub(runs[i-1].Time)
			gaps = append(gaps, float64(run.Interval))
		}
		counts = append(counts, float64(r.Instants))
		a.Runs = append(a.Runs, run)
	}
	a.MedianInstants = median(counts)
	a.MedianInterval = time.Duration(median(gaps))
	return a
}

// The groups of series, in drawing order.
var trendGroups = []struct {
	name string
	kind func(Kind) bool
}{
	{"writes", func(k Kind) bool { return k == KindCommit || k == KindDeltaCommit }},
	{"compaction", func(k Kind) bool { return k == KindCompaction }},
	{"clustering", func(k Kind) bool { return k == KindClustering }},
	{"clean", func(k Kind) bool { return k == KindClean }},
}

type trendMeasure struct {
	name, label, unit string
	value             func(p *TrendPoint) (float64, bool)
}

func seconds(p *TrendPoint) (float64, bool) {
	return p.Duration.Seconds(), p.Duration > 0
}

// writeMeasures are the writes' series; services get duration and interval.
var writeMeasures = []trendMeasure{
	{"duration", "duration", "s", seconds},
	{"recordsWritten", "records written", "records", func(p *TrendPoint) (float64, bool) { return float64(p.RecordsWritten), true }},
	{"recordsInserted", "records inserted", "records", func(p *TrendPoint) (float64, bool) { return float64(p.Inserted), true }},
	{"recordsUpdated", "records updated", "records", func(p *TrendPoint) (float64, bool) { return float64(p.Updated), true }},
	{"recordsDeleted", "records deleted", "records", func(p *TrendPoint) (float64, bool) { return float64(p.Deleted), true }},
	{"bytesWritten", "bytes written", "bytes", func(p *TrendPoint) (float64, bool) { return float64(p.BytesWritten), true }},
	{"filesAdded", "files added", "files", func(p *TrendPoint) (float64, bool) { return float64(p.FilesAdded), true }},
	{"filesUpdated", "files updated", "files", func(p *TrendPoint) (float64, bool) { return float64(p.FilesUpdated), true }},
	{"partitions", "partitions written", "partitions", func(p *TrendPoint) (float64, bool) { return float64(p.Partitions), true }},
	{"errors", "write errors", "records", func(p *TrendPoint) (float64, bool) { return float64(p.Errors), true }},
	{"writeAmplification", "write amplification", "×", func(p *TrendPoint) (float64, bool) { return p.WriteAmp, p.HasWriteAmp }},
	{"avgFileSize", "average file size written", "bytes", func(p *TrendPoint) (float64, bool) { return float64(p.AvgFileSize), p.Files > 0 }},
}

var serviceMeasures = []trendMeasure{
	{"duration", "duration", "s", seconds},
	{"interval", "interval between runs", "s", func(p *TrendPoint) (float64, bool) { return p.Interval.Seconds(), p.Interval > 0 }},
}

// Trends are the series of the snapshot's timeline, archived instants included when they were
// read, chosen by o.
func Trends(s *model.Snapshot, o TrendOptions) *TrendSet {
	var instants []*timeline.Instant
	archived := false
	if s != nil && s.Timeline != nil {
		instants = s.Timeline.All()
		archived = s.HasRun(model.StepArchived)
	}
	now := time.Time{}
	if s != nil {
		now = s.Now() // the one clock `timeline --since` also counts back from
	}
	t := TrendsOf(instants, now, o)
	t.Archived = archived
	if archived {
		from := time.Time{}
		if o.Since > 0 && !now.IsZero() {
			from = now.Add(-o.Since)
		}
		t.Archival = archivalOf(s.Timeline.ArchivalRuns, from)
	}
	return t
}

// TrendsOf are the series of instants (in completion order), chosen by o measured at now.
func TrendsOf(instants []*timeline.Instant, now time.Time, o TrendOptions) *TrendSet {
	if o.Window <= 0 {
		o.Window = DefaultWindow
	}
	if o.Ratio <= 1 {
		o.Ratio = DefaultRatio
	}
	t := &TrendSet{Window: o.Window, Ratio: o.Ratio, Rule: ChangeRule(o.Window, o.Ratio)}
	points := make([]TrendPoint, 0, len(instants))
	lastReq := map[Kind]time.Time{}
	for _, in := range instants {
		if !in.IsCompleted() {
			continue
		}
		if timeline.IsWriteAction(in.Action) && !in.MetadataLoaded() {
			t.Pending++
			continue
		}
		p := pointOf(in)
		if prev, ok := lastReq[p.Kind]; ok && !in.Started.IsZero() && in.Started.After(prev) {
			p.Interval = in.Started.Sub(prev)
		}
		if !in.Started.IsZero() {
			lastReq[p.Kind] = in.Started
		}
		points = append(points, p)
	}
	if o.Since > 0 && !now.IsZero() {
		from := now.Add(-o.Since)
		i := 0
		for i < len(points) && points[i].In.Ended.Before(from) {
			i++
		}
		points = points[i:]
	}
	if o.Last > 0 && len(points) > o.Last {
		points = points[len(points)-o.Last:]
	}
	t.Points = points
	var scratch []float64 // median's sorting buffer, shared by the series
	for _, g := range trendGroups {
		measures := serviceMeasures
		if g.name == "writes" {
			measures = writeMeasures
		}
		// The group's points, once: every measure's series is at most as long.
		var in []int32
		for i := range points {
			if g.kind(points[i].Kind) {
				in = append(in, int32(i))
			}
		}
		if len(in) == 0 {
			continue
		}
		for _, m := range measures {
			sr := TrendSeries{Name: m.name, Group: g.name, Label: m.label, Unit: m.unit}
			vals := make([]float64, 0, len(in))
			all := true
			for _, i := range in {
				if v, ok := m.value(&points[i]); ok {
					vals = append(vals, v)
				} else {
					all = false
				}
			}
			if len(vals) == 0 {
				continue
			}
			sr.Values = vals
			if all {
				sr.Points = in // every point has a value: the series shares the group's indexes
			} else {
				sr.Points = make([]int32, 0, len(vals))
				for _, i := range in {
					if _, ok := m.value(&points[i]); ok {
						sr.Points = append(sr.Points, i)
					}
				}
			}
			sr.Min, sr.Max = slices.Min(sr.Values), slices.Max(sr.Values)
			scratch = append(scratch[:0], sr.Values...)
			sr.Median = sortedMedian(scratch)
			sr.Changes = changePoints(sr, points, o.Window, o.Ratio)
			t.Series = append(t.Series, sr)
		}
	}
	return t
}

func pointOf(in *timeline.Instant) TrendPoint {
	tt := in.Totals
	p := TrendPoint{In: in, Requested: in.RequestedTime, Completed: in.CompletionTime, Action: in.Action, Operation: in.Operation,
		Kind: KindOf(in), Archived: in.Archived,
		RecordsWritten: tt.NumWrites, Inserted: tt.NumInserts, Updated: tt.NumUpdateWrites, Deleted: tt.NumDeletes,
		BytesWritten: tt.TotalBytesWritten, Errors: tt.TotalWriteErrors,
		FilesAdded: tt.FilesAdded, FilesUpdated: tt.FilesUpdated, Files: tt.Files, Partitions: tt.Partitions}
	p.Duration, p.DurationApprox = Duration(in)
	wa := WriteAmplificationOf(tt.NumWrites, tt.NumUpdateWrites) // the rule `show` uses
	p.WriteAmp, p.HasWriteAmp = wa.Factor, wa.OK
	if tt.Files > 0 {
		p.AvgFileSize = tt.TotalBytesWritten / int64(tt.Files)
	}
	return p
}

// ChangeRule states the change-point rule in words.
func ChangeRule(k int, ratio float64) string {
	r := strconv.FormatFloat(ratio, 'f', -1, 64)
	return fmt.Sprintf("a change point is the first of %d values whose median is at least %s× (or at most 1/%s of) the median "+
		"of the %d values before it, both medians above 0; a series needs %d values, and a change is looked for again only "+
		"%d values after the last one", k, r, r, k, 2*k, k)
}

// changePoints applies the rule: at each index i with k values on both sides, before is the
// median of values[i-k:i] and after of values[i:i+k]; where after/before reaches ratio (or
// 1/ratio), the change is the middle of the strongest run of indexes within the next k, and the
// search goes on k values after it.
func changePoints(sr TrendSeries, points []TrendPoint, k int, ratio float64) []ChangePoint {
	v := sr.Values
	if len(v) < 2*k || sr.Max <= 0 || sr.Min == sr.Max {
		return nil // too short, all zero or flat: no ratio of medians moves
	}
	// med[i] is the median of v[i:i+k]: before index i is med[i-k], after it med[i].
	med := make([]float64, len(v)-k+1)
	buf := make([]float64, k)
	for i := range med {
		copy(buf, v[i:i+k])
		slices.Sort(buf)
		med[i] = buf[k/2]
		if k%2 == 0 {
			med[i] = (buf[k/2-1] + buf[k/2]) / 2
		}
	}
	var out []ChangePoint
	score := func(i int) (before, after, r float64, ok bool) {
		before, after = med[i-k], med[i]
		if before <= 0 || after <= 0 {
			return 0, 0, 0, false
		}
		r = after / before
		return before, after, r, r >= ratio || r <= 1/ratio
	}
	strength := func(r float64) float64 { return max(r, 1/r) }
	for i := k; i+k <= len(v); {
		_, _, r, ok := score(i)
		if !ok {
			i++
			continue
		}
		// Medians move in steps: a step shows at several indexes with the same ratio, so the
		// change is the middle of the strongest run.
		first, last, bestR := i, i, r
		for j := i + 1; j < i+k && j+k <= len(v); j++ {
			_, _, rj, ok := score(j)
			switch {
			case !ok:
			case strength(rj) > strength(bestR):
				first, last, bestR = j, j, rj
			case strength(rj) == strength(bestR) && last == j-1:
				last = j
			}
		}
		best := (first + last) / 2
		before, after, r, _ := score(best)
		p := &points[sr.Points[best]]
		cp := ChangePoint{Index: best, Requested: p.Requested, Action: p.Action, Before: before, After: after, Ratio: r}
		cp.Note = fmt.Sprintf("from %s %s, %s median %s× the previous %d", p.Action, p.Requested, sr.Label, ratioText(r), k)
		out = append(out, cp)
		i = best + k
	}
	return out
}

// ratioText is a ratio to two significant digits: 3.1, 0.42, 12.
func ratioText(r float64) string {
	if r >= 10 {
		return strconv.FormatFloat(r, 'f', 0, 64)
	}
	return strconv.FormatFloat(r, 'g', 2, 64)
}

func median(v []float64) float64 {
	return sortedMedian(slices.Clone(v))
}

// sortedMedian is the median of s, which it sorts.
func sortedMedian(s []float64) float64 {
	if len(s) == 0 {
		return 0
	}
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// ChartPoints is how many values a Markdown chart draws at most.
const ChartPoints = 120

// Chart is the series drawn in at most n values: the values themselves when they fit, else the
// medians of consecutive runs of per values each (the last run may be shorter).
func (s *TrendSeries) Chart(n int) (vals []float64, per int) {
	if n <= 0 || len(s.Values) <= n {
		return s.Values, 1
	}
	per = (len(s.Values) + n - 1) / n
	for i := 0; i < len(s.Values); i += per {
		vals = append(vals, median(s.Values[i:min(i+per, len(s.Values))]))
	}
	return vals, per
}
