package common

import (
	"charm.land/lipgloss/v2"
)

// Glyphs is the set of non-letter characters the UI draws. ASCIIGlyphs has no box-drawing,
// block or other non-ASCII characters (--ascii).
type Glyphs struct {
	Cursor   string // selected row
	Late     string // completed after a later-started instant
	Archived string // archived instant
	Derived  string // completion time derived from a file time
	Approx   string // derived from a file time kept to a second or coarser
	Sep      string // between header items
	Crumb    string // between breadcrumb parts
	OK, Bad  string // input present / missing; step ok / failed
	Rule     string // horizontal rule
	Arrow    string // requested → completion
	Ellipsis string // truncation tail
	Warn     string
	Sorted   string // the column the table is ordered by
	// Bars: Eighths[i] is a left-aligned cell filled (i+1)/8; Full fills a cell; RightHalf and
	// RightEighth start a span mid-cell; Open marks a span still running at the axis end.
	Eighths                      [8]string
	Full, RightHalf, RightEighth string
	// Lower[i] is a bottom-aligned cell filled (i+1)/8: the Trends view's columns.
	Lower                      [8]string
	Open, Empty, ProgressEmpty string
}

// UnicodeGlyphs is the default glyph set.
func UnicodeGlyphs() Glyphs {
	return Glyphs{Cursor: "▶", Late: "↯", Archived: "a", Derived: "~", Approx: "≈", Sep: " · ", Crumb: " › ",
		OK: "✓", Bad: "✗", Rule: "─", Arrow: "→", Ellipsis: "…", Warn: "⚠", Sorted: "▼",
		Eighths: [8]string{"▏", "▎", "▍", "▌", "▋", "▊", "▉", "█"}, Full: "█", RightHalf: "▐",
		RightEighth: "▕", Open: "░", Empty: " ", ProgressEmpty: "░",
		Lower: [8]string{"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"}}
}

// ASCIIGlyphs draws with ASCII only.
func ASCIIGlyphs() Glyphs {
	return Glyphs{Cursor: ">", Late: "!", Archived: "a", Derived: "~", Approx: "~", Sep: " - ", Crumb: " > ",
		OK: "+", Bad: "x", Rule: "-", Arrow: "->", Ellipsis: "~", Warn: "!", Sorted: "v",
		Eighths: [8]string{"|", "|", "=", "=", "=", "=", "=", "="}, Full: "=", RightHalf: "=",
		RightEighth: "|", Open: ".", Empty: " ", ProgressEmpty: ".",
		Lower: [8]string{"_", "_", ".", ".", ":", ":", "#", "#"}}
}

// Styles are the semantic styles every pane uses. With color off (NO_COLOR) only bold,
// faint and reverse are used, so the cursor row and headings stay visible.
type Styles struct {
	G     Glyphs
	Color bool // colour on (not NO_COLOR)

	Header    lipgloss.Style // the top line
	Brand     lipgloss.Style
	TabActive lipgloss.Style
	Tab       lipgloss.Style
	ColHead   lipgloss.Style // table column headings
	Cursor    lipgloss.Style // selected row
	Dim       lipgloss.Style
	Key       lipgloss.Style // key names in help
	Warn      lipgloss.Style
	Bad       lipgloss.Style
	OK        lipgloss.Style
	Late      lipgloss.Style // the late-completion marker
	SpanSel   lipgloss.Style // the selected instant's span
	Status    lipgloss.Style
	Box       lipgloss.Style // overlays (help, checkpoint)
}

// NewStyles builds the style set; color false for NO_COLOR, ascii for --ascii.
func NewStyles(color, ascii bool) *Styles {
	s := &Styles{G: UnicodeGlyphs(), Color: color}
	if ascii {
		s.G = ASCIIGlyphs()
	}
	plain := lipgloss.NewStyle()
	s.Header = plain.Bold(true)
	s.Brand = plain.Bold(true)
	s.TabActive = plain.Bold(true).Reverse(true)
	s.Tab = plain
	s.ColHead = plain.Bold(true)
	s.Cursor = plain.Reverse(true)
	s.Dim = plain.Faint(true)
	s.Key = plain.Bold(true)
	s.Warn = plain.Bold(true)
	s.Bad = plain.Bold(true)
	s.OK = plain
	s.Late = plain.Bold(true)
	s.SpanSel = plain.Bold(true)
	s.Status = plain
	s.Box = plain
	if color {
		s.Brand = s.Brand.Foreground(lipgloss.Color("6"))
		s.TabActive = plain.Bold(true).Foreground(lipgloss.Color("0")).Background(lipgloss.Color("6"))
		s.ColHead = s.ColHead.Foreground(lipgloss.Color("6"))
		s.Key = s.Key.Foreground(lipgloss.Color("6"))
		s.Warn = s.Warn.Foreground(lipgloss.Color("3"))
		s.Bad = s.Bad.Foreground(lipgloss.Color("1"))
		s.OK = s.OK.Foreground(lipgloss.Color("2"))
		s.Late = s.Late.Foreground(lipgloss.Color("3"))
		s.SpanSel = s.SpanSel.Foreground(lipgloss.Color("3"))
	}
	return s
}
