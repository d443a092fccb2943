// Package report renders a model.Snapshot as Markdown and JSON. The TUI's export keys (e, E)
// and `hudiscope report` share these renderers. Everything here is built from unstyled data:
// no ANSI, only GitHub-flavoured Markdown headings, lists and tables.
package report

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/internal/safetext"
	"github.com/hudiscope/hudiscope/internal/units"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/view"
)

// Markdown renders the full report of a snapshot: its sections in order, each left out while
// the snapshot has no data for it.
func Markdown(ctx context.Context, s *model.Snapshot) string {
	var b strings.Builder
	name := "(unknown table)"
	if s.Config != nil {
		name = s.Config.Name
	}
	fmt.Fprintf(&b, "# hudiscope report: %s\n", Escape(name))
	for _, sec := range sections {
		if body, ok := sec.render(ctx, s); ok {
			fmt.Fprintf(&b, "\n## %s\n\n%s", sec.title, ensureNL(body))
		}
	}
	return b.String()
}

// TableSummary is a two-column table of the table's identity and configuration.
func TableSummary(s *model.Snapshot) string {
	rows := [][]string{{"location", s.Options.Location}}
	if c := s.Config; c != nil {
		cdc := "off"
		if c.CDCEnabled {
			cdc = "on (" + orDash(c.CDCMode) + ")"
		}
		rows = append(rows,
			[]string{"name", c.Name},
			[]string{"type", c.Type},
			[]string{"table version", strconv.Itoa(c.Version)},
			[]string{"record key fields", orDash(strings.Join(c.RecordKeys, ", "))},
			[]string{"partition fields", orDash(strings.Join(c.PartitionFieldNames(), ", "))},
			[]string{"key generator", orDash(c.KeyGenerator)},
			[]string{"base file format", orDash(c.BaseFormat)},
			[]string{"CDC", cdc},
			[]string{"times shown in", orDash(c.ZoneSource)},
		)
	}
	if tl := s.Timeline; tl != nil {
		rows = append(rows, []string{"active instants", strconv.Itoa(len(tl.Instants))})
		if s.Options.Archived {
			rows = append(rows, []string{"archived instants", strconv.Itoa(len(tl.Archived))})
		}
	}
	return Table([]string{"field", "value"}, "ll", rows)
}

// TimelineHeaders are the columns of `hudiscope timeline`, plus notes.
var TimelineHeaders = []string{"requested", "completed", "action", "state", "operation", "writes",
	"inserts", "updates", "deletes", "bytes", "files", "parts", "duration", "notes"}

// TimelineMarkdown renders the view layer's timeline rows (in the order given) as a table, with
// each row's late mark, archived flag and read error as notes.
func TimelineMarkdown(tl []view.TimelineRow) string {
	rows := make([][]string, 0, len(tl))
	anyDerived, anyLate := false, false
	var coarsest time.Duration
	for _, r := range tl {
		in := r.In
		var notes []string
		if r.Late {
			notes = append(notes, view.LateNote)
			anyLate = true
		}
		if in.Archived {
			notes = append(notes, "archived")
		}
		if in.CompletionDerived {
			anyDerived = true
			coarsest = max(coarsest, in.CompletionPrecision)
		}
		if in.Err != "" {
			notes = append(notes, view.ErrLabel(in)+": "+in.Err)
		}
		notes = append(notes, r.Notes...)
		rows = append(rows, append(InstantCells(in), strings.Join(notes, "; ")))
	}
	var b strings.Builder
	b.WriteString(Table(TimelineHeaders, "lllllrrrrrrrrl", rows))
	if anyDerived {
		b.WriteString("\n" + DerivedNote(coarsest) + "\n")
	}
	if anyLate {
		b.WriteString("\nAn instant marked \"completed after a later-started instant\" is where requested order and completion order disagree: " +
			"a checkpoint taken from `_hoodie_commit_time` re-reads or skips it. Use completion times as checkpoints.\n")
	}
	return b.String()
}

// InstantCells are the `hudiscope timeline` columns of one instant, without notes.
func InstantCells(in *timeline.Instant) []string {
	ct := in.CompletionTime + view.DerivedMark(in)
	return []string{in.RequestedTime, orDash(ct), in.Action, string(in.State), orDash(in.Operation),
		i64(in.Totals.NumWrites), i64(in.Totals.NumInserts), i64(in.Totals.NumUpdateWrites),
		i64(in.Totals.NumDeletes), units.Bytes(in.Totals.TotalBytesWritten), strconv.Itoa(in.Totals.Files),
		strconv.Itoa(in.Totals.Partitions), Duration(in)}
}

// Duration is an instant's requested→completion duration, or "-". A completion time known
// only to the second gives the middle of the possible durations, marked `≈` (never negative:
// see timeline.clampDerived).
func Duration(in *timeline.Instant) string {
	d, approx := view.Duration(in)
	switch {
	case approx && d < 10*time.Second:
		return "≈" + d.Round(100*time.Millisecond).String()
	case approx:
		return "≈" + d.Round(time.Second).String()
	case d > 0:
		return d.Round(time.Millisecond).String()
	}
	return "-"
}

// DerivedNote explains the marks for the coarsest precision among derived completion times.
func DerivedNote(coarsest time.Duration) string {
	if coarsest >= time.Second {
		return fmt.Sprintf("`≈` completion time derived from the completed file's modification time, which this storage keeps to %s: "+
			"the instant completed within %s after the time shown, never before it was requested (`~`: derived from a finer time; table version < 8).", coarsest, coarsest)
	}
	return "`~` completion time derived from the completed file's modification time (table version < 8)."
}

// Table renders a GitHub-flavoured Markdown table. align has one letter per column: 'l' or
// 'r'. Cells are escaped.
func Table(headers []string, align string, rows [][]string) string {
	var b strings.Builder
	b.WriteString("|")
	for _, h := range headers {
		b.WriteString(" " + Escape(h) + " |")
	}
	b.WriteString("\n|")
	for i := range headers {
		if i < len(align) && align[i] == 'r' {
			b.WriteString("---:|")
		} else {
			b.WriteString("---|")
		}
	}
	b.WriteString("\n")
	for _, r := range rows {
		b.WriteString("|")
		for i := range headers {
			c := ""
			if i < len(r) {
				c = r[i]
			}
			b.WriteString(" " + Escape(c) + " |")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// KeyValues renders pairs as a bullet list ("- **key**: value").
func KeyValues(pairs [][2]string) string {
	var b strings.Builder
	for _, p := range pairs {
		fmt.Fprintf(&b, "- **%s**: %s\n", Escape(p[0]), Escape(p[1]))
	}
	return b.String()
}

// Escape makes text safe inside a Markdown table cell or list item: pipes
// are escaped and control and bidi characters shown as escapes (safetext).
func Escape(s string) string {
	return strings.ReplaceAll(safetext.Terminal(s), "|", `\|`)
}

// SortedKeys returns a map's keys in order.
func SortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func ensureNL(s string) string {
	if strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func i64(v int64) string { return strconv.FormatInt(v, 10) }

// ExportLimit is the default size cap, in bytes, of an exported report (e, E, `report -o md`):
// what a ticket or chat message accepts.
const ExportLimit = 60_000

// FullHint says how to get what Fit left out.
const FullHint = "`hudiscope report --full`, or `--full-export` in the explorer"

// mdTable is one GFM table of a document: header and delimiter lines, then its rows.
type mdTable struct {
	head, delim string
	rows        []string
}

// mdPart is a run of other lines, or a table.
type mdPart struct {
	text  string
	table *mdTable
}

var delimRow = regexp.MustCompile(`^\|(\s*:?-+:?\s*\|)+\s*$`)

// splitTables cuts md into text and tables (never inside a code fence).
func splitTables(md string) []mdPart {
	lines := strings.SplitAfter(md, "\n")
	var parts []mdPart
	var text strings.Builder
	flush := func() {
		if text.Len() > 0 {
			parts = append(parts, mdPart{text: text.String()})
			text.Reset()
		}
	}
	fence := false
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(l, "```") {
			fence = !fence
		}
		if !fence && strings.HasPrefix(l, "|") && i+1 < len(lines) && delimRow.MatchString(strings.TrimRight(lines[i+1], "\n")) {
			flush()
			t := &mdTable{head: l, delim: lines[i+1]}
			i += 2
			for ; i < len(lines) && strings.HasPrefix(lines[i], "|"); i++ {
				t.rows = append(t.rows, lines[i])
			}
			i--
			parts = append(parts, mdPart{table: t})
			continue
		}
		text.WriteString(l)
	}
	flush()
	return parts
}

// Fit keeps md under limit bytes: tables longer than a few rows keep their top rows and say
// how many more there are; a table's full rows follow in a <details> block where that still
// fits. md is returned as it is when it fits; cut reports whether anything was left out.
func Fit(md string, limit int) (out string, cut bool) {
	if len(md) <= limit {
		return md, false
	}
	parts := splitTables(md)
	for _, keep := range []int{20, 10, 5, 3} {
		out, size := fitRender(parts, keep, nil)
		if size > limit {
			continue
		}
		// Add the full tables that still fit, first come first.
		full := map[int]bool{}
		for i, p := range parts {
			if p.table == nil || len(p.table.rows) <= keep {
				continue
			}
			if add := len(detailsBlock(p.table)); size+add <= limit {
				full[i] = true
				size += add
			}
		}
		if len(full) > 0 {
			out, _ = fitRender(parts, keep, full)
		}
		return out, true
	}
	// Even short tables do not fit: cut at a line, closing an open fence.
	out, _ = fitRender(parts, 3, nil)
	note := fmt.Sprintf("\n\n*The report was cut at %d characters; the full report: %s.*\n", limit, FullHint)
	b := out[:max(0, limit-len(note)-4)]
	b = b[:strings.LastIndexByte(b, '\n')+1]
	fences := 0
	for _, l := range strings.Split(b, "\n") {
		if strings.HasPrefix(l, "```") {
			fences++
		}
	}
	if fences%2 == 1 {
		b += "```\n"
	}
	return b + note, true
}

// fitRender renders parts with tables cut to keep rows (full: those that also get a
// <details> block) and returns the text and its size.
func fitRender(parts []mdPart, keep int, full map[int]bool) (string, int) {
	var b strings.Builder
	for i, p := range parts {
		t := p.table
		if t == nil {
			b.WriteString(p.text)
			continue
		}
		b.WriteString(t.head)
		b.WriteString(t.delim)
		n := min(keep, len(t.rows))
		for _, r := range t.rows[:n] {
			b.WriteString(r)
		}
		if rest := len(t.rows) - n; rest > 0 {
			fmt.Fprintf(&b, "\n*… and %d more rows (%d in all; the full export has them: %s).*\n", rest, len(t.rows), FullHint)
			if full[i] {
				b.WriteString(detailsBlock(t))
			}
		}
	}
	return b.String(), b.Len()
}

// detailsBlock is a table's every row in a collapsed <details> block.
func detailsBlock(t *mdTable) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n<details><summary>All %d rows</summary>\n\n", len(t.rows))
	b.WriteString(t.head)
	b.WriteString(t.delim)
	for _, r := range t.rows {
		b.WriteString(r)
	}
	b.WriteString("\n</details>\n")
	return b.String()
}
