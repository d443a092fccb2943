package report

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/hudiscope/hudiscope/hudi/tableconfig"
	"github.com/hudiscope/hudiscope/internal/units"
	"github.com/hudiscope/hudiscope/view"
)

// TrendValue renders a series value in its unit: seconds as a duration ("6.203s", "2m3s"),
// bytes with a binary unit, a ratio with ×, counts as units.Num.
func TrendValue(v float64, unit string) string {
	switch unit {
	case "s":
		return units.Millis(int64(math.Round(v * 1000)))
	case "bytes":
		return units.Bytes(int64(math.Round(v)))
	case "×":
		return units.Num(v) + "×"
	}
	return units.Num(v)
}

// SeriesTitle is a series' heading: "writes: duration (s)".
func SeriesTitle(s *view.TrendSeries) string {
	return s.Group + ": " + s.Label + " (" + s.Unit + ")"
}

// `hudiscope trends -o json` (docs/json.md, section trends) is, in this order:
// schemaVersion, table (TrendsTableJSON), archived, pendingMetadata, changeRule
// (TrendsRuleJSON), points ([]TrendPointJSON), series ([]TrendSeriesJSON) and changes
// ([]TrendsChangeJSON); WriteTrendsJSON streams it.

// TrendsTableJSON names the table.
type TrendsTableJSON struct {
	Name    string `json:"name"`
	Type    string `json:"type"`
	Version int    `json:"version"`
}

// TrendsRuleJSON is the change-point rule applied.
type TrendsRuleJSON struct {
	Window int     `json:"window"`
	Ratio  float64 `json:"ratio"`
	Text   string  `json:"text"`
}

// TrendPointJSON is one completed instant.
type TrendPointJSON struct {
	RequestedTime      string   `json:"requestedTime"`
	CompletionTime     string   `json:"completionTime"`
	Action             string   `json:"action"`
	Operation          string   `json:"operation"`
	Kind               string   `json:"kind"`
	Archived           bool     `json:"archived"`
	DurationMs         *int64   `json:"durationMs"`
	IntervalMs         *int64   `json:"intervalMs"`
	RecordsWritten     int64    `json:"recordsWritten"`
	RecordsInserted    int64    `json:"recordsInserted"`
	RecordsUpdated     int64    `json:"recordsUpdated"`
	RecordsDeleted     int64    `json:"recordsDeleted"`
	BytesWritten       int64    `json:"bytesWritten"`
	FilesAdded         int      `json:"filesAdded"`
	FilesUpdated       int      `json:"filesUpdated"`
	Files              int      `json:"files"`
	Partitions         int      `json:"partitions"`
	Errors             int64    `json:"errors"`
	WriteAmplification *float64 `json:"writeAmplification"`
	AvgFileSize        *int64   `json:"avgFileSize"`
}

// TrendSeriesJSON summarizes one series; its values are the points' fields.
type TrendSeriesJSON struct {
	Name   string  `json:"name"`
	Group  string  `json:"group"`
	Label  string  `json:"label"`
	Unit   string  `json:"unit"`
	Count  int     `json:"count"`
	Min    float64 `json:"min"`
	Median float64 `json:"median"`
	Max    float64 `json:"max"`
}

// TrendsArchivalJSON is when the archiver ran (view.ArchivalSet).
type TrendsArchivalJSON struct {
	Rule             string                  `json:"rule"`
	MedianInstants   float64                 `json:"medianInstants"`
	MedianIntervalMs *int64                  `json:"medianIntervalMs"`
	Runs             []TrendsArchivalRunJSON `json:"runs"`
}

// TrendsArchivalRunJSON is one archival run.
type TrendsArchivalRunJSON struct {
	File         string `json:"file"`
	Time         string `json:"time"`
	Instants     int    `json:"instants"`
	FirstInstant string `json:"firstInstant"`
	LastInstant  string `json:"lastInstant"`
	Blocks       int    `json:"blocks"`
	IntervalMs   *int64 `json:"intervalMs"`
}

// TrendsArchival is the archival document part of a trend set.
func TrendsArchival(a *view.ArchivalSet) TrendsArchivalJSON {
	ms := func(d time.Duration) *int64 {
		if d <= 0 {
			return nil
		}
		v := d.Milliseconds()
		return &v
	}
	j := TrendsArchivalJSON{Rule: a.Rule, MedianInstants: a.MedianInstants, MedianIntervalMs: ms(a.MedianInterval),
		Runs: []TrendsArchivalRunJSON{}}
	for _, r := range a.Runs {
		j.Runs = append(j.Runs, TrendsArchivalRunJSON{File: r.File, Time: r.Time.UTC().Format(time.RFC3339Nano), Instants: r.Instants,
			FirstInstant: r.First, LastInstant: r.Last, Blocks: r.Blocks, IntervalMs: ms(r.Interval)})
	}
	return j
}

// TrendsChangeJSON is one change point.
type TrendsChangeJSON struct {
	Series        string  `json:"series"`
	Group         string  `json:"group"`
	RequestedTime string  `json:"requestedTime"`
	Action        string  `json:"action"`
	Before        float64 `json:"medianBefore"`
	After         float64 `json:"medianAfter"`
	Ratio         float64 `json:"ratio"`
	Note          string  `json:"note"`
}

// WriteTrendsJSON writes the trends of table c: the TrendsDocument, byte for byte as
// WriteJSON writes it, one point at a time (200k points were 880 MB held whole).
func WriteTrendsJSON(w io.Writer, c *tableconfig.Config, t *view.TrendSet) error {
	var table TrendsTableJSON
	if c != nil {
		table = TrendsTableJSON{Name: c.Name, Type: c.Type, Version: c.Version}
	}
	j := newJSONStream(w)
	j.raw("{")
	j.key(0, "schemaVersion", true)
	j.value(1, SchemaVersion)
	j.key(0, "table", false)
	j.value(1, table)
	j.key(0, "archived", false)
	j.value(1, t.Archived)
	j.key(0, "pendingMetadata", false)
	j.value(1, t.Pending)
	j.key(0, "changeRule", false)
	j.value(1, TrendsRuleJSON{Window: t.Window, Ratio: t.Ratio, Text: t.Rule})
	j.key(0, "points", false)
	j.array(1, len(t.Points), func(i int) { j.value(2, trendPointJSON(&t.Points[i])) })
	series := []TrendSeriesJSON{}
	changes := []TrendsChangeJSON{}
	for i := range t.Series {
		s := &t.Series[i]
		series = append(series, TrendSeriesJSON{Name: s.Name, Group: s.Group, Label: s.Label, Unit: s.Unit,
			Count: len(s.Values), Min: s.Min, Median: s.Median, Max: s.Max})
		for _, c := range s.Changes {
			changes = append(changes, TrendsChangeJSON{Series: s.Name, Group: s.Group, RequestedTime: c.Requested,
				Action: c.Action, Before: c.Before, After: c.After, Ratio: c.Ratio, Note: c.Note})
		}
	}
	j.key(0, "series", false)
	j.value(1, series)
	j.key(0, "changes", false)
	j.value(1, changes)
	j.key(0, "archival", false)
	j.value(1, TrendsArchival(&t.Archival))
	return j.end()
}

func trendPointJSON(p *view.TrendPoint) TrendPointJSON {
	ms := func(v int64) *int64 { return &v }
	j := TrendPointJSON{RequestedTime: p.Requested, CompletionTime: p.Completed, Action: p.Action, Operation: p.Operation,
		Kind: p.Kind.String(), Archived: p.Archived, RecordsWritten: p.RecordsWritten, RecordsInserted: p.Inserted,
		RecordsUpdated: p.Updated, RecordsDeleted: p.Deleted, BytesWritten: p.BytesWritten, FilesAdded: p.FilesAdded,
		FilesUpdated: p.FilesUpdated, Files: p.Files, Partitions: p.Partitions, Errors: p.Errors}
	if p.Duration > 0 {
		j.DurationMs = ms(p.Duration.Milliseconds())
	}
	if p.Interval > 0 {
		j.IntervalMs = ms(p.Interval.Milliseconds())
	}
	if p.HasWriteAmp {
		wa := p.WriteAmp
		j.WriteAmplification = &wa
	}
	if p.Files > 0 {
		j.AvgFileSize = ms(p.AvgFileSize)
	}
	return j
}

// TrendsHeadline is the one-line summary every trends surface starts with.
func TrendsHeadline(t *view.TrendSet) string {
	archived := 0
	for i := range t.Points {
		if t.Points[i].Archived {
			archived++
		}
	}
	s := fmt.Sprintf("%d completed instants", len(t.Points))
	switch {
	case t.Archived:
		s += fmt.Sprintf(" (%d archived)", archived)
	default:
		s += " (active timeline only; --archived adds the archived one)"
	}
	if len(t.Points) > 0 {
		s += " from " + t.Points[0].Requested + " to " + t.Points[len(t.Points)-1].Requested
	}
	if t.Pending > 0 {
		s += fmt.Sprintf("; %d writes whose metadata is not read yet are left out", t.Pending)
	}
	return s
}

// TrendsMarkdown is the trends as Markdown: one Mermaid xychart-beta per series (at most
// view.ChartPoints values each: longer series are drawn as the medians of equal runs) and the
// change points, with the rule stated.
func TrendsMarkdown(name string, t *view.TrendSet) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Trends · %s\n\n%s.\n\n", Escape(name), TrendsHeadline(t))
	fmt.Fprintf(&b, "Change points: %s.\n\n", t.Rule)
	var rows [][]string
	for i := range t.Series {
		s := &t.Series[i]
		for _, c := range s.Changes {
			rows = append(rows, []string{Escape(SeriesTitle(s)), c.Action + " " + c.Requested, TrendValue(c.Before, s.Unit),
				TrendValue(c.After, s.Unit), ratioCell(c.Ratio)})
		}
	}
	if len(rows) == 0 {
		b.WriteString("No change point.\n\n")
	} else {
		b.WriteString("## Change points\n\n")
		b.WriteString(Table([]string{"series", "from", "median before", "median after", "ratio"}, "llrrr", rows))
		b.WriteString("\n")
	}
	for i := range t.Series {
		s := &t.Series[i]
		fmt.Fprintf(&b, "## %s\n\n", Escape(SeriesTitle(s)))
		fmt.Fprintf(&b, "%d values · min %s · median %s · max %s\n\n", len(s.Values), TrendValue(s.Min, s.Unit),
			TrendValue(s.Median, s.Unit), TrendValue(s.Max, s.Unit))
		if s.Min == s.Max {
			continue // a flat line says no more than the sentence
		}
		vals, per := s.Chart(view.ChartPoints)
		b.WriteString("```mermaid\nxychart-beta\n")
		fmt.Fprintf(&b, "  title \"%s\"\n", strings.ReplaceAll(SeriesTitle(s), `"`, "'"))
		xlabel := "instant (completion order)"
		if per > 1 {
			xlabel = fmt.Sprintf("instant (completion order, median of %d per point)", per)
		}
		fmt.Fprintf(&b, "  x-axis \"%s\" 1 --> %d\n", xlabel, len(vals))
		fmt.Fprintf(&b, "  y-axis \"%s\" %s --> %s\n", s.Unit, chartNum(s.Min), chartNum(s.Max))
		b.WriteString("  line [")
		for j, v := range vals {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(chartNum(v))
		}
		b.WriteString("]\n```\n\n")
	}
	if t.Archived {
		fmt.Fprintf(&b, "## archival\n\n%s.\n\nRule: %s.\n\n", ArchivalLine(&t.Archival), t.Archival.Rule)
		if rows := ArchivalRows(&t.Archival); len(rows) > 0 {
			var esc [][]string
			for _, r := range rows {
				esc = append(esc, []string{r[0], r[1], r[2], r[3], r[4], Escape(r[5])})
			}
			b.WriteString(Table([]string{"time", "instants", "first", "last", "since previous", "file"}, "lrllrl", esc))
			b.WriteString("\n")
		}
	}
	return b.String()
}

// ArchivalLine is the archival runs in one line: "3 archival runs, median 1 instant a run, 20s apart".
func ArchivalLine(a *view.ArchivalSet) string {
	if len(a.Runs) == 0 {
		return "no archival run seen"
	}
	s := fmt.Sprintf("%d archival runs, median %s instants a run", len(a.Runs), units.Num(a.MedianInstants))
	if a.MedianInterval > 0 {
		s += ", median " + units.Millis(a.MedianInterval.Milliseconds()) + " apart"
	}
	last := a.Runs[len(a.Runs)-1]
	return s + "; last at " + last.Time.UTC().Format(time.RFC3339) + " (" + strconv.Itoa(last.Instants) + " instants)"
}

// ArchivalRows are the runs as table rows: time, instants, first, last, interval, file.
func ArchivalRows(a *view.ArchivalSet) [][]string {
	var rows [][]string
	for _, r := range a.Runs {
		iv := ""
		if r.Interval > 0 {
			iv = units.Millis(r.Interval.Milliseconds())
		}
		rows = append(rows, []string{r.Time.UTC().Format(time.RFC3339), strconv.Itoa(r.Instants), r.First, r.Last, iv, r.File})
	}
	return rows
}

func ratioCell(r float64) string { return units.Num(r) + "×" }

// chartNum is a chart value: integers whole, others to 4 significant digits.
func chartNum(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}
