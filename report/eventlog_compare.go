package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/hudiscope/hudiscope/analyzers/eventlog"
	"github.com/hudiscope/hudiscope/view"
)

// CompareDocument is the JSON of `eventlog A --compare B`: a document of its own (the
// eventlog document keeps the Java tool's top level), documented in docs/json.md.
type CompareDocument struct {
	SchemaVersion string `json:"schemaVersion"`
	Document      string `json:"document"`
	*eventlog.Comparison
}

// CompareDocumentName is CompareDocument.Document.
const CompareDocumentName = "eventlogCompare"

// NewCompareDocument wraps a comparison for JSON output.
func NewCompareDocument(c *eventlog.Comparison) CompareDocument {
	return CompareDocument{SchemaVersion: SchemaVersion, Document: CompareDocumentName, Comparison: c}
}

func compareSideText(s eventlog.CompareSide) string {
	return fmt.Sprintf("%s (%s, %s)", s.EventLogPath, ptrDash(s.ApplicationID), ptrDash(s.Name))
}

// EventLogCompareText prints two event logs side by side: the application measures, the
// phases, operations and stage kinds, and the time measures that moved most (at most topN).
func EventLogCompareText(w io.Writer, c *eventlog.Comparison, topN int) error {
	tw := tabwriter.NewWriter(w, 0, 2, 2, ' ', 0)
	fmt.Fprintf(tw, "== Compared event logs ==\n  before\t%s\n  after\t%s\n  summary\t%s\n",
		term(compareSideText(c.Before)), term(compareSideText(c.After)), term(view.CompareHeadline(c)))
	rows := view.CompareRows(c)
	for _, s := range view.CompareSectionTitles {
		sec := view.CompareSection(rows, s[0])
		if len(sec) == 0 {
			continue
		}
		fmt.Fprintf(tw, "\n== %s ==\n", s[1])
		if s[0] == eventlog.SectionApplication {
			fmt.Fprintf(tw, "  measure\tbefore\tafter\tdelta\tchange\n")
		} else {
			fmt.Fprintf(tw, "  %s\tmeasure\tbefore\tafter\tdelta\tchange\n", compareGroupWord[s[0]])
		}
		for _, r := range sec {
			label := r.Label
			if r.Only != "" {
				label += " (" + r.Only + " only)"
			}
			if s[0] == eventlog.SectionApplication {
				fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", r.Measure, r.Before, r.After, r.Delta, r.Relative)
			} else {
				fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\n", term(label), r.Measure, r.Before, r.After, r.Delta, r.Relative)
			}
		}
	}
	fmt.Fprintf(tw, "\n== Moved most (stage wall clock and uncovered time, by |delta|) ==\n")
	moved := view.MovedMost(c, topN)
	if len(moved) == 0 {
		fmt.Fprintf(tw, "  nothing moved\n")
	} else {
		fmt.Fprintf(tw, "  what\tbefore\tafter\tdelta\tchange\n")
	}
	for _, m := range moved {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", term(m.What), m.Before, m.After, m.Delta, m.Relative)
	}
	return tw.Flush()
}

// EventLogCompareMarkdown renders the same comparison as Markdown.
func EventLogCompareMarkdown(c *eventlog.Comparison, topN int) string {
	var b strings.Builder
	b.WriteString("## Event log comparison\n\n")
	b.WriteString(Table([]string{"", "event log", "application"}, "lll", [][]string{
		{"before", c.Before.EventLogPath, ptrDash(c.Before.ApplicationID)},
		{"after", c.After.EventLogPath, ptrDash(c.After.ApplicationID)},
	}))
	b.WriteString("\n" + Escape(view.CompareHeadline(c)) + "\n")
	rows := view.CompareRows(c)
	for _, s := range view.CompareSectionTitles {
		sec := view.CompareSection(rows, s[0])
		if len(sec) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n### %s\n\n", s[1])
		var out [][]string
		for _, r := range sec {
			label := r.Label
			if r.Only != "" {
				label += " (" + r.Only + " only)"
			}
			if s[0] == eventlog.SectionApplication {
				out = append(out, []string{r.Measure, r.Before, r.After, r.Delta, r.Relative})
			} else {
				out = append(out, []string{label, r.Measure, r.Before, r.After, r.Delta, r.Relative})
			}
		}
		if s[0] == eventlog.SectionApplication {
			b.WriteString(Table([]string{"measure", "before", "after", "delta", "change"}, "lrrrr", out))
		} else {
			b.WriteString(Table([]string{compareGroupWord[s[0]], "measure", "before", "after", "delta", "change"}, "llrrrr", out))
		}
	}
	b.WriteString("\n### Moved most\n\n")
	var out [][]string
	for _, m := range view.MovedMost(c, topN) {
		out = append(out, []string{m.What, m.Before, m.After, m.Delta, m.Relative})
	}
	if len(out) == 0 {
		b.WriteString("Nothing moved.\n")
	} else {
		b.WriteString(Table([]string{"what", "before", "after", "delta", "change"}, "lrrrr", out))
	}
	return b.String()
}

var compareGroupWord = map[string]string{eventlog.SectionPhase: "phase", eventlog.SectionOperation: "operation", eventlog.SectionStageKind: "stage kind"}
