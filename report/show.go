package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/hudiscope/hudiscope/hudi/tableconfig"
	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/view"
)

// ShowDocument is `hudiscope show TABLE INSTANT -o json` (docs/json.md, section show).
type ShowDocument struct {
	SchemaVersion string           `json:"schemaVersion"`
	Table         ShowTableJSON    `json:"table"`
	Instant       InstantJSON      `json:"instant"`
	MatchedBy     string           `json:"matchedBy"`
	Info          []ShowInfoJSON   `json:"info"`
	Notes         []string         `json:"notes"`
	WriteStats    *WriteStatsJSON  `json:"writeStats"`
	Tables        []ShowTableRows  `json:"tables"`
	Compare       *ShowCompareJSON `json:"compare,omitempty"`
}

// ShowTableJSON names the table a show read.
type ShowTableJSON struct {
	Name    string `json:"name"`
	Type    string `json:"type"`
	Version int    `json:"version"`
}

// ShowInfoJSON is one labelled fact of the drill-down.
type ShowInfoJSON struct {
	Label string `json:"label"`
	Value string `json:"value"`
}

// ShowTableRows is one of the drill-down's tables; a numeric cell is a JSON number.
type ShowTableRows struct {
	Title   string   `json:"title"`
	Columns []string `json:"columns"`
	Rows    [][]any  `json:"rows"`
}

// WriteStatsJSON is a write's statistics in Hudi's terms.
type WriteStatsJSON struct {
	FilesAdded         int64                `json:"filesAdded"`
	FilesUpdated       int64                `json:"filesUpdated"`
	FileCount          int                  `json:"fileCount"`
	PartitionCount     int                  `json:"partitionCount"`
	RecordsWritten     int64                `json:"recordsWritten"`
	RecordsInserted    int64                `json:"recordsInserted"`
	RecordsUpdated     int64                `json:"recordsUpdated"`
	RecordsDeleted     int64                `json:"recordsDeleted"`
	BytesWritten       int64                `json:"bytesWritten"`
	WriteErrors        int64                `json:"writeErrors"`
	AvgRecordSize      int64                `json:"avgRecordSize"`
	WriteAmplification *float64             `json:"writeAmplification"`
	FileSizes          FileSizesJSON        `json:"fileSizes"`
	Partitions         []PartitionStatsJSON `json:"partitions"`
	Files              []FileStatsJSON      `json:"files"`
}

// FileSizesJSON summarises the sizes of the files a write wrote.
type FileSizesJSON struct {
	Count  int     `json:"count"`
	Min    int64   `json:"min"`
	P10    float64 `json:"p10"`
	P50    float64 `json:"p50"`
	Mean   float64 `json:"mean"`
	P95    float64 `json:"p95"`
	Max    int64   `json:"max"`
	StdDev float64 `json:"stdDev"`
}

// PartitionStatsJSON is one partition of a write.
type PartitionStatsJSON struct {
	Partition       string `json:"partition"`
	FilesAdded      int64  `json:"filesAdded"`
	FilesUpdated    int64  `json:"filesUpdated"`
	RecordsWritten  int64  `json:"recordsWritten"`
	RecordsInserted int64  `json:"recordsInserted"`
	RecordsUpdated  int64  `json:"recordsUpdated"`
	RecordsDeleted  int64  `json:"recordsDeleted"`
	BytesWritten    int64  `json:"bytesWritten"`
	WriteErrors     int64  `json:"writeErrors"`
}

// FileStatsJSON is one file a write wrote.
type FileStatsJSON struct {
	Partition       string `json:"partition"`
	FileID          string `json:"fileId"`
	Path            string `json:"path"`
	PrevCommit      string `json:"prevCommit"`
	RecordsWritten  int64  `json:"recordsWritten"`
	RecordsInserted int64  `json:"recordsInserted"`
	RecordsUpdated  int64  `json:"recordsUpdated"`
	RecordsDeleted  int64  `json:"recordsDeleted"`
	BytesWritten    int64  `json:"bytesWritten"`
	WriteErrors     int64  `json:"writeErrors"`
	FileSize        int64  `json:"fileSize"`
}

// ShowCompareJSON is `show A --compare B`: the second write and the metrics of both.
type ShowCompareJSON struct {
	Instant    InstantJSON         `json:"instant"`
	WriteStats *WriteStatsJSON     `json:"writeStats"`
	Metrics    []CompareMetricJSON `json:"metrics"`
	MovedMost  *string             `json:"movedMost"`
}

// CompareMetricJSON is one compared value.
type CompareMetricJSON struct {
	Name   string   `json:"name"`
	A      float64  `json:"a"`
	B      float64  `json:"b"`
	Delta  float64  `json:"delta"`
	Change *float64 `json:"change"`
}

func instantOf(in *timeline.Instant) InstantJSON { return InstantsJSON([]*timeline.Instant{in})[0] }

// NewShowDocument is the JSON document of show s (and of its comparison cmp, nil for none).
func NewShowDocument(c *tableconfig.Config, s view.Show, matchedBy string, cmp *view.Compare) ShowDocument {
	doc := ShowDocument{SchemaVersion: SchemaVersion, Table: ShowTableJSON{Name: c.Name, Type: c.Type, Version: c.Version},
		Instant: instantOf(s.In), MatchedBy: matchedBy, Info: []ShowInfoJSON{}, Notes: nonNil(s.Detail.Notes),
		WriteStats: writeStatsJSON(s.Stats), Tables: []ShowTableRows{}}
	for _, kv := range s.Detail.Info {
		doc.Info = append(doc.Info, ShowInfoJSON{Label: kv[0], Value: kv[1]})
	}
	for _, t := range s.OtherTables() {
		rows := ShowTableRows{Title: t.Title, Columns: t.Columns, Rows: [][]any{}}
		for _, r := range t.Rows {
			cells := make([]any, len(r))
			for i, cell := range r {
				if cell.Numeric {
					cells[i] = cell.Num
				} else {
					cells[i] = cell.Text
				}
			}
			rows.Rows = append(rows.Rows, cells)
		}
		doc.Tables = append(doc.Tables, rows)
	}
	if cmp != nil {
		x := &ShowCompareJSON{Instant: instantOf(cmp.B.In), WriteStats: writeStatsJSON(cmp.B.Stats), Metrics: []CompareMetricJSON{}}
		for _, m := range cmp.Metrics {
			j := CompareMetricJSON{Name: m.Name, A: m.A, B: m.B, Delta: m.Delta}
			if m.ChangeOK {
				ch := m.Change
				j.Change = &ch
			}
			x.Metrics = append(x.Metrics, j)
		}
		if cmp.MovedMost >= 0 {
			x.MovedMost = &cmp.Metrics[cmp.MovedMost].Name
		}
		doc.Compare = x
	}
	return doc
}

func writeStatsJSON(w *view.WriteStats) *WriteStatsJSON {
	if w == nil {
		return nil
	}
	fs := w.FileSizes
	j := &WriteStatsJSON{FilesAdded: w.FilesAdded, FilesUpdated: w.FilesUpdated, FileCount: w.FileCount, PartitionCount: w.PartitionCount,
		RecordsWritten: w.RecordsWritten, RecordsInserted: w.RecordsInserted, RecordsUpdated: w.RecordsUpdated, RecordsDeleted: w.RecordsDeleted,
		BytesWritten: w.BytesWritten, WriteErrors: w.Errors, AvgRecordSize: w.AvgRecordSize,
		FileSizes:  FileSizesJSON{Count: fs.N, Min: fs.Min, P10: fs.P10, P50: fs.P50, Mean: fs.Mean, P95: fs.P95, Max: fs.Max, StdDev: fs.StdDv},
		Partitions: []PartitionStatsJSON{}, Files: []FileStatsJSON{}}
	if w.WriteAmplification.OK {
		f := w.WriteAmplification.Factor
		j.WriteAmplification = &f
	}
	for _, p := range w.Partitions {
		j.Partitions = append(j.Partitions, PartitionStatsJSON{Partition: p.Partition, FilesAdded: p.FilesAdded, FilesUpdated: p.FilesUpdated,
			RecordsWritten: p.RecordsWritten, RecordsInserted: p.RecordsInserted, RecordsUpdated: p.RecordsUpdated, RecordsDeleted: p.RecordsDeleted,
			BytesWritten: p.BytesWritten, WriteErrors: p.Errors})
	}
	for _, f := range w.Files {
		j.Files = append(j.Files, FileStatsJSON{Partition: f.Partition, FileID: f.FileID, Path: f.Path, PrevCommit: f.PrevCommit,
			RecordsWritten: f.RecordsWritten, RecordsInserted: f.RecordsInserted, RecordsUpdated: f.RecordsUpdated, RecordsDeleted: f.RecordsDeleted,
			BytesWritten: f.BytesWritten, WriteErrors: f.Errors, FileSize: f.FileSize})
	}
	return j
}

// ShowMarkdown writes show s as Markdown: a heading, its facts, its write statistics and its
// tables (then the comparison, when cmp is not nil).
func ShowMarkdown(w io.Writer, c *tableconfig.Config, s view.Show, cmp *view.Compare) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s %s %s · %s\n\n", Escape(s.In.RequestedTime), Escape(s.In.Action), strings.ToLower(string(s.In.State)), Escape(c.Name))
	b.WriteString(KeyValues(s.Detail.Info))
	if s.Stats != nil {
		b.WriteString("\n## Write statistics\n\n")
		b.WriteString(KeyValues(s.Stats.StatsFacts()))
	}
	if len(s.Detail.Notes) > 0 {
		b.WriteString("\n## Notes\n\n")
		for _, n := range s.Detail.Notes {
			b.WriteString("- " + Escape(n) + "\n")
		}
	}
	for _, t := range s.Tables() {
		b.WriteString("\n## " + Escape(t.Title) + "\n\n")
		b.WriteString(detailMarkdown(t))
	}
	if cmp != nil {
		b.WriteString("\n" + CompareMarkdown(*cmp))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// detailMarkdown is one drill-down table as a Markdown table (raw JSON as a code block).
func detailMarkdown(t view.DetailTable) string {
	if t.Raw != nil {
		return "```json\n" + strings.Join(t.Raw, "\n") + "\n```\n"
	}
	align := make([]byte, len(t.Columns))
	for i := range align {
		align[i] = 'l'
		if i < len(t.Right) && t.Right[i] {
			align[i] = 'r'
		}
	}
	rows := make([][]string, len(t.Rows))
	for i := range t.Rows {
		rows[i] = t.Texts(i)
	}
	if len(rows) == 0 {
		return "(none)\n"
	}
	return Table(t.Columns, string(align), rows)
}

// CompareMarkdown is a comparison of two writes as a Markdown section.
func CompareMarkdown(c view.Compare) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Compared with %s %s\n\n", Escape(c.B.In.RequestedTime), Escape(c.B.In.Action))
	rows := CompareRows(c)
	b.WriteString(Table(rows[0], "lrrrr", rows[1:]))
	if c.MovedMost >= 0 {
		fmt.Fprintf(&b, "\nMoved most: **%s** (%s).\n", Escape(c.Metrics[c.MovedMost].Name), ChangeOf(c.Metrics[c.MovedMost]))
	}
	return b.String()
}

// CompareRows are a comparison's table, header first: metric, A, B, delta (A − B), change.
func CompareRows(c view.Compare) [][]string {
	rows := [][]string{{"metric", c.A.In.RequestedTime, c.B.In.RequestedTime, "delta", "change"}}
	for _, m := range c.Metrics {
		rows = append(rows, []string{m.Name, view.MetricText(m, m.A), view.MetricText(m, m.B), view.MetricText(m, m.Delta), view.ChangeText(m)})
	}
	return rows
}

// ChangeOf is a metric's change as the "moved most" line says it.
func ChangeOf(m view.Metric) string {
	return view.ChangeText(m) + ", " + view.MetricText(m, m.B) + " → " + view.MetricText(m, m.A)
}
