// Package common is what every explorer pane shares: the Pane contract and Common, styles and
// glyphs, the keymap, the list and pager views, line clipping and formatting, the clock, the
// clipboard, and the jump messages (one type per target row, each handled by its pane).
package common

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/view"
)

// Pane is one of the explorer's six panes. The root model owns the panes and calls them
// directly; panes never see each other. To add a pane, implement this interface and put it
// in Options.Panes (or replace the placeholder at its index in DefaultPanes).
//
// Contract:
//   - SetSnapshot is called with every snapshot Load publishes (the first may lack the data
//     the pane needs; say so plainly, never invent data). Snapshots are immutable.
//   - Update gets key presses (tea.KeyPressMsg) and mouse wheel messages while the pane is
//     active and no overlay is open, plus every message the pane's own Cmds produce (they are
//     broadcast to all panes; ignore what is not yours). Reading storage happens in the
//     returned Cmd, never in Update.
//   - View returns at most height lines, none wider than width; it must render only what is
//     visible (virtualize long lists).
//   - Back handles Esc: leave one drill-down level or close the pane's input, and report
//     whether anything happened (false at the top level).
//   - Capturing is true while a text input has focus: the root then routes every key but
//     ctrl+c and ctrl+z to the pane (q, digits and ? are text; esc is the input's to close).
//   - Breadcrumb is the drill-down path below the pane's title (empty at the top level).
//   - Export returns a file-name slug ("timeline", "timeline-20260307162434124") and the
//     Markdown of what the pane shows; build it from unstyled data (see package report).
//   - Help lists the focused view's own keys for the status line (the root adds ?, esc, e
//     and q where they apply); Status is a short right-aligned status ("12/340"). A pane may
//     also implement KeyMap() help.KeyMap: the ? overlay then lists its FullHelp.
//
// Optional: Focus(Jump) bool (show the row a jump names; see Jump), CopyValue (y copies
// the focused raw value; see copier) and Click(y int) tea.Cmd (a mouse click on body line y).
type Pane interface {
	Title() string
	SetSnapshot(s *model.Snapshot) tea.Cmd
	SetSize(width, height int)
	Update(msg tea.Msg) tea.Cmd
	View(width, height int) string
	Back() bool
	Capturing() bool
	Breadcrumb() []string
	Export() (slug, markdown string)
	Help() []key.Binding
	Status() string
}

// Common is what the root shares with every pane.
type Common struct {
	Styles *Styles
	Keys   KeyMap
	// Clock renders instants, ages and durations in the zone the user picked (the zone key).
	Clock *Clock
	// Watch is the running --watch (nil when not watching).
	Watch *WatchState
	// view is the view of the last snapshot asked for (View), shared by the panes.
	view *view.Snapshot
}

// View is the view layer's answers for s, built once per snapshot and shared by every pane
// (rebuilt when the reader has met more bad input since).
func (c *Common) View(s *model.Snapshot) *view.Snapshot {
	if c.view.Stale(s) {
		c.view = view.Build(s)
	}
	return c.view
}

// PlaceholderPane stands in for an analysis pane that this build cannot fill yet. It says so
// plainly, and what it would need.
type PlaceholderPane struct {
	c     *Common
	title string
	// Reason returns the plain sentence(s) to show for a snapshot.
	reason func(s *model.Snapshot) []string
	snap   *model.Snapshot
}

// NewPlaceholder makes a placeholder pane.
func NewPlaceholder(c *Common, title string, reason func(s *model.Snapshot) []string) *PlaceholderPane {
	return &PlaceholderPane{c: c, title: title, reason: reason}
}

func (p *PlaceholderPane) Title() string                         { return p.title }
func (p *PlaceholderPane) SetSnapshot(s *model.Snapshot) tea.Cmd { p.snap = s; return nil }
func (p *PlaceholderPane) SetSize(int, int)                      {}
func (p *PlaceholderPane) Update(tea.Msg) tea.Cmd                { return nil }
func (p *PlaceholderPane) Back() bool                            { return false }
func (p *PlaceholderPane) Capturing() bool                       { return false }
func (p *PlaceholderPane) Breadcrumb() []string                  { return nil }
func (p *PlaceholderPane) Help() []key.Binding                   { return nil }
func (p *PlaceholderPane) Status() string                        { return "not loaded" }

func (p *PlaceholderPane) lines() []string {
	return p.reason(p.snap)
}

func (p *PlaceholderPane) View(width, height int) string {
	out := []string{"", " " + p.c.Styles.ColHead.Render(p.title)}
	out = append(out, "")
	for _, l := range p.lines() {
		for _, w := range Wrap(l, width-2) {
			out = append(out, " "+w)
		}
	}
	return Fit(out, width, height)
}

func (p *PlaceholderPane) Export() (string, string) {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", p.title)
	for _, l := range p.lines() {
		b.WriteString(l + "\n\n")
	}
	return Slug(p.title), b.String()
}

// StepReason says plainly where a pane's analysis stands: not loaded, failed, or loaded but
// without a pane in this build. It never describes data it does not have.
func StepReason(step model.Step, what string) func(*model.Snapshot) []string {
	return func(s *model.Snapshot) []string {
		switch {
		case s == nil:
			return []string{"Nothing is loaded yet."}
		case s.StepErrors[step] != nil:
			return []string{"The " + what + " failed: " + s.StepErrors[step].Error()}
		case s.HasRun(step):
			return []string{"The " + what + " has run, but its pane has not been built yet in this version of hudiscope.",
				"Nothing is shown here rather than a guess."}
		}
		return []string{"The " + what + " has not been built or loaded yet.",
			"Nothing is shown here rather than a guess."}
	}
}

// Fit pads or cuts lines to exactly height lines of at most width cells.
func Fit(lines []string, width, height int) string {
	if height <= 0 {
		return ""
	}
	out := make([]string, height)
	for i := 0; i < height; i++ {
		if i < len(lines) {
			out[i] = Clip(lines[i], width)
		}
	}
	return strings.Join(out, "\n")
}

// cutMark ends every line clip cuts, so a cut line never passes for a whole one. The --ascii
// explorer draws it as its glyph set's Ellipsis (asciiCuts).
const cutMark = "…"

// Clip is the one helper that cuts a (possibly styled) line to width cells: a line that loses
// text ends with cutMark; one that loses only blanks or a rule's tail (padding, ──── drawn to
// the edge) is cut without it.
func Clip(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if CellWidth(s) <= width {
		return s
	}
	// What is lost: blanks, or one unbroken run of rule glyphs (not "- -", cells saying none).
	if lost := strings.TrimSpace(ansi.Strip(ansi.TruncateLeft(s, width, ""))); lost == "" ||
		strings.Trim(lost, "─-") == "" && !strings.Contains(lost, " ") {
		return ansi.Truncate(s, width, "")
	}
	return ansi.Truncate(s, width, cutMark)
}

// AsciiCuts draws clip's marks with the ASCII glyph set (--ascii): the whole screen is ASCII.
func AsciiCuts(g Glyphs, screen string) string {
	if !IsASCII(g) || !strings.Contains(screen, cutMark) {
		return screen
	}
	return strings.ReplaceAll(screen, cutMark, g.Ellipsis)
}

// Trunc cuts plain text (a table cell) to width cells with a tail glyph.
func Trunc(s string, width int, tail string) string {
	if width <= 0 {
		return ""
	}
	if CellWidth(s) <= width {
		return s
	}
	return ansi.Truncate(s, width, tail)
}

// PadRight pads plain or styled text with spaces to width cells (cutting when longer).
func PadRight(s string, width int) string {
	w := CellWidth(s)
	if w > width {
		return Clip(s, width)
	}
	return s + strings.Repeat(" ", width-w)
}

func PadLeft(s string, width int) string {
	w := CellWidth(s)
	if w > width {
		return Clip(s, width)
	}
	return strings.Repeat(" ", width-w) + s
}

// Wrap breaks plain text into lines of at most width cells at spaces; a paragraph's leading
// indentation is kept on its first line.
func Wrap(s string, width int) []string {
	if width < 8 {
		width = 8
	}
	var out []string
	for _, para := range strings.Split(s, "\n") {
		line := strings.Repeat(" ", len(para)-len(strings.TrimLeft(para, " ")))
		fresh := true
		for _, w := range strings.Fields(para) {
			switch {
			case fresh:
				line += w
			case CellWidth(line)+1+CellWidth(w) <= width:
				line += " " + w
			default:
				out = append(out, line)
				line = w
			}
			fresh = false
			for CellWidth(line) > width {
				out = append(out, ansi.Truncate(line, width, ""))
				line = ansi.TruncateLeft(line, width, "")
			}
		}
		out = append(out, line)
	}
	return out
}

func Slug(s string) string {
	s = strings.ToLower(s)
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	return strings.Trim(b.String(), "-")
}

func LipglossWidth(s string) int { return CellWidth(s) }

// CellWidth is ansi.StringWidth with a fast path for plain ASCII (most table cells).
func CellWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 || c < 0x20 {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

// RejudgeMsg asks the app to judge health with ApplyAll for ApplyAllDefaults from now on (the
// Health pane's d), on every surface: panes, Overview and exports read the same snapshot.
type RejudgeMsg struct{ ApplyAll bool }
