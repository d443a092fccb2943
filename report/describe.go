package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/hudiscope/hudiscope/hudi/schema"
	"github.com/hudiscope/hudiscope/internal/safetext"
	"github.com/hudiscope/hudiscope/view"
)

// DescribeDocument is `hudiscope describe -o json`.
type DescribeDocument struct {
	SchemaVersion string `json:"schemaVersion"`
	*view.Describe
}

// NewDescribeDocument wraps the describe view with the contract version.
func NewDescribeDocument(d *view.Describe) *DescribeDocument {
	return &DescribeDocument{SchemaVersion: SchemaVersion, Describe: d}
}

// DescribeInstant is "requested → completion action" of a schema's write.
func DescribeInstant(r view.InstantRef) string {
	if r.Action == "" && r.CompletionTime == "" {
		if r.RequestedTime == "0" {
			return "version 0 (the schema evolution started from)"
		}
		return "version " + r.RequestedTime
	}
	s := r.RequestedTime + " → " + dashIfEmpty(r.CompletionTime) + " " + r.Action
	if r.Operation != "" {
		s += " " + r.Operation
	}
	if r.Archived {
		s += " (archived)"
	}
	return s
}

func dashIfEmpty(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// ColumnFlags is a column's nullability, meta mark and default, as one cell.
func ColumnFlags(c schema.Column) (nullable, notes string) {
	nullable = "required"
	if c.Nullable {
		nullable = "nullable"
	}
	var n []string
	if c.Meta {
		n = append(n, "Hudi meta column")
	}
	if c.Default != "" {
		n = append(n, "default "+c.Default)
	}
	if c.ID >= 0 {
		n = append(n, fmt.Sprintf("id %d", c.ID))
	}
	return nullable, strings.Join(n, ", ")
}

// ConfigSource is a configuration row's source as text: "hoodie.properties", "Hudi 1.1/1.2
// default", "props (w.properties)"; "-" when nothing applies.
func ConfigSource(r view.DescribeConfig) string {
	var s string
	switch {
	case r.Source == "":
		s = "-"
	case r.Source == "default":
		s = r.Origin + " default"
	case r.Source == "table":
		s = "hoodie.properties"
	case r.Origin != "":
		s = r.Source + " (" + r.Origin + ")"
	default:
		s = r.Source
	}
	if r.AltKey != "" {
		s += " as " + r.AltKey
	}
	return s
}

// HistoryLine is one schema version as text.
func HistoryLine(v view.SchemaVersion) string {
	if v.Initial {
		return fmt.Sprintf("%s: first schema, %d columns", DescribeInstant(v.Instant), v.Columns)
	}
	parts := make([]string, len(v.Changes))
	for i, c := range v.Changes {
		parts[i] = changeText(c)
	}
	return fmt.Sprintf("%s: %s", DescribeInstant(v.Instant), strings.Join(parts, "; "))
}

func changeText(c schema.Change) string {
	switch c.Kind {
	case schema.Added:
		return "added " + c.Column + " " + c.To
	case schema.Removed:
		return "removed " + c.Column + " " + c.From
	case schema.Renamed:
		return "renamed " + c.From + " to " + c.Column
	case schema.Nullability:
		return c.Column + " " + c.From + " → " + c.To
	}
	s := c.Column + " " + c.From + " → " + c.To
	if c.Promotion {
		s += " (type promotion)"
	}
	return s
}

func describeHeader(d *view.Describe) string {
	rel := "release unknown"
	if len(d.WriterReleases) > 0 {
		rel = "written by Hudi " + strings.Join(d.WriterReleases, "/")
	}
	return fmt.Sprintf("%s · %s · table version %d · %s", d.Name, d.TableType, d.Version, rel)
}

// DescribeText writes the describe view as text; every value is escaped for the terminal.
func DescribeText(w io.Writer, d *view.Describe) error {
	t := safetext.Terminal
	fmt.Fprintln(w, t(describeHeader(d)))
	if d.ReleaseCaveat != "" {
		fmt.Fprintln(w, "note: "+t(d.ReleaseCaveat))
	}
	fmt.Fprintf(w, "\nhoodie.properties (%d entries):\n", len(d.Properties))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, p := range d.Properties {
		note := ""
		if p.Unknown {
			note = "not a key of Hudi " + strings.Join(d.WriterReleases, "/")
		}
		fmt.Fprintf(tw, "  %s\t%s\n", t(p.Key), t(joinText(p.Value, note, "  # ")))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nTable configuration (%d keys of Hudi %s):\n", len(d.Config), strings.Join(d.WriterReleases, "/"))
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range d.Config {
		note := r.Note
		if len(r.Names) > 0 {
			note = joinText("named "+strings.Join(r.Names, ", "), note, "; ")
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", t(r.Key), t(ConfigSource(r)), t(joinText(dashIfEmpty(r.Value), note, "  # ")))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if d.Schema == nil {
		fmt.Fprintf(w, "\nSchema: no write records one (%d writes read)\n", d.WritesRead)
	} else {
		fmt.Fprintf(w, "\nSchema (%d columns, from %s):\n", len(d.Schema.Columns), t(DescribeInstant(d.Schema.Instant)))
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, c := range d.Schema.Columns {
			null, notes := ColumnFlags(c)
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", t(c.Name), t(c.Type), null, t(notes))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "\nSchema history (%s; %s read, %d without a schema):\n", plural(len(d.History), "version"), plural(d.WritesRead, "write"), d.WritesWithoutSchema)
	for _, v := range d.History {
		fmt.Fprintln(w, "  "+t(HistoryLine(v)))
	}
	if d.SchemaFile != "" {
		fmt.Fprintf(w, "\nSchema-on-read history (%s, %s):\n", t(d.SchemaFile), plural(len(d.SchemaFileHistory), "version"))
		for _, v := range d.SchemaFileHistory {
			fmt.Fprintln(w, "  "+t(HistoryLine(v)))
		}
	}
	for _, p := range d.Problems {
		fmt.Fprintln(w, "warning: "+t(p))
	}
	return nil
}

func joinText(a, b, sep string) string {
	if b == "" {
		return a
	}
	if a == "" {
		return b
	}
	return a + sep + b
}

func plural(n int, one string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %ss", n, one)
}

// DescribeMarkdown is the describe view as Markdown.
func DescribeMarkdown(d *view.Describe) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", Escape(describeHeader(d)))
	if d.ReleaseCaveat != "" {
		fmt.Fprintf(&b, "Note: %s\n\n", Escape(d.ReleaseCaveat))
	}
	fmt.Fprintf(&b, "## hoodie.properties\n\n| key | value | note |\n|---|---|---|\n")
	for _, p := range d.Properties {
		note := ""
		if p.Unknown {
			note = "not a key of Hudi " + strings.Join(d.WriterReleases, "/")
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", Escape(p.Key), Escape(p.Value), note)
	}
	fmt.Fprintf(&b, "\n## Table configuration (Hudi %s)\n\n| key | value | source | note |\n|---|---|---|---|\n", strings.Join(d.WriterReleases, "/"))
	for _, r := range d.Config {
		note := r.Note
		if len(r.Names) > 0 {
			note = joinText("named "+strings.Join(r.Names, ", "), note, "; ")
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", Escape(r.Key), Escape(dashIfEmpty(r.Value)), Escape(ConfigSource(r)), Escape(note))
	}
	b.WriteString("\n## Schema\n\n")
	if d.Schema == nil {
		fmt.Fprintf(&b, "No write records a schema (%d writes read).\n", d.WritesRead)
	} else {
		fmt.Fprintf(&b, "From %s.\n\n| column | type | nullable | notes |\n|---|---|---|---|\n", Escape(DescribeInstant(d.Schema.Instant)))
		for _, c := range d.Schema.Columns {
			null, notes := ColumnFlags(c)
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", Escape(c.Name), Escape(c.Type), null, Escape(notes))
		}
	}
	fmt.Fprintf(&b, "\n## Schema history\n\n%s; %s read, %d without a schema.\n\n", plural(len(d.History), "version"), plural(d.WritesRead, "write"), d.WritesWithoutSchema)
	for _, v := range d.History {
		fmt.Fprintf(&b, "- %s\n", Escape(HistoryLine(v)))
	}
	if d.SchemaFile != "" {
		fmt.Fprintf(&b, "\n## Schema-on-read history\n\n`%s`, %s.\n\n", Escape(d.SchemaFile), plural(len(d.SchemaFileHistory), "version"))
		for _, v := range d.SchemaFileHistory {
			fmt.Fprintf(&b, "- %s\n", Escape(HistoryLine(v)))
		}
	}
	if len(d.Problems) > 0 {
		b.WriteString("\n## Problems\n\n")
		for _, p := range d.Problems {
			fmt.Fprintf(&b, "- %s\n", Escape(p))
		}
	}
	return b.String()
}
