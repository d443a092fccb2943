package report

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

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
	return b.String()
}

func ratioCell(r float64) string { return units.Num(r) + "×" }

// chartNum is a chart value: integers whole, others to 4 significant digits.
func chartNum(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}
