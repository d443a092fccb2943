// Package problems is the explorer's problems view (p): the view layer's one problem list.
package problems

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
	"github.com/hudiscope/hudiscope/ui/common"
	"github.com/hudiscope/hudiscope/view"
)

// ProblemsView lists what went wrong reading the inputs (the status line's ⚠ badge): each
// problem's file and message, wrapped, scrollable. It is a Pane the root shows over the
// active one; Back (esc) closes it.
type ProblemsView struct {
	c     *common.Common
	snap  *model.Snapshot
	items []view.Problem
	// counted is how many of items are problems reading the inputs (the rest are notes).
	counted int
	// cursor is the selected problem; top the first body line shown.
	cursor, top int
	rowsY       int
	// lineOf is, per shown body line, the problem it belongs to (-1: none); from the last View.
	lineOf []int

	width, height int
}

// problemsKeys move over the problems; esc and p (the root's) close the view.
type problemsKeys struct{ common.NavKeys }

func (k problemsKeys) ShortHelp() []key.Binding { return nil }
func (k problemsKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{common.Enabled(k.NavKeys.All()...)}
}
func (k problemsKeys) HelpTitles() []string { return []string{"Move"} }

func NewProblemsView(c *common.Common, s *model.Snapshot) *ProblemsView {
	v := &ProblemsView{c: c}
	v.SetSnapshot(s)
	return v
}

func (v *ProblemsView) Title() string { return "Problems" }

func (v *ProblemsView) SetSnapshot(s *model.Snapshot) tea.Cmd {
	v.snap = s
	// The view layer's one list: this only lays it out.
	vs := v.c.View(s)
	v.items, v.counted = vs.Problems, vs.ProblemCount()
	v.cursor = min(v.cursor, max(0, len(v.items)-1))
	return nil
}

func (v *ProblemsView) SetSize(w, h int)     { v.width, v.height = w, h }
func (v *ProblemsView) Back() bool           { return false }
func (v *ProblemsView) Capturing() bool      { return false }
func (v *ProblemsView) Breadcrumb() []string { return nil }
func (v *ProblemsView) Help() []key.Binding  { return v.KeyMap().ShortHelp() }

func (v *ProblemsView) KeyMap() help.KeyMap {
	return problemsKeys{NavKeys: v.c.Keys.Nav.When(len(v.items) > 1)}
}

func (v *ProblemsView) Status() string {
	if len(v.items) == 0 {
		return ""
	}
	return common.Itoa(v.cursor+1) + "/" + common.Itoa(len(v.items))
}

func (v *ProblemsView) Update(msg tea.Msg) tea.Cmd {
	k := v.KeyMap().(problemsKeys)
	switch msg := msg.(type) {
	case tea.MouseWheelMsg:
		if key.Matches(msg, k.Wheel) {
			if msg.Button == tea.MouseWheelUp {
				v.move(-3)
			} else {
				v.move(3)
			}
		}
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Up):
			v.move(-1)
		case key.Matches(msg, k.Down):
			v.move(1)
		case key.Matches(msg, k.PageUp):
			v.move(-max(1, v.height/3))
		case key.Matches(msg, k.PageDown):
			v.move(max(1, v.height/3))
		case key.Matches(msg, k.Top):
			v.move(-len(v.items))
		case key.Matches(msg, k.Bottom):
			v.move(len(v.items))
		}
	}
	return nil
}

func (v *ProblemsView) move(d int) {
	v.cursor = max(0, min(len(v.items)-1, v.cursor+d))
}

// Click selects the problem at body line y.
func (v *ProblemsView) Click(y int) tea.Cmd {
	if y >= 0 && y < len(v.lineOf) && v.lineOf[y] >= 0 {
		v.cursor = v.lineOf[y]
	}
	return nil
}

// CopyValue is the selected problem's file.
func (v *ProblemsView) CopyValue() (string, string, bool) {
	if v.cursor >= len(v.items) {
		return "", "", false
	}
	return "file", v.items[v.cursor].File, true
}

// blocks are the wrapped lines of every problem: the file, then the message indented.
func (v *ProblemsView) blocks(width int) [][]string {
	out := make([][]string, len(v.items))
	for i, p := range v.items {
		// File names and messages are data (a planted name, a server's text): the view layer
		// escaped them.
		shown := p.Shown
		if p.Severity == view.Note {
			shown = "note: " + shown
		}
		bl := common.Wrap(shown, width-4)
		for _, l := range common.Wrap(p.Message, width-5) {
			bl = append(bl, "  "+l)
		}
		out[i] = bl
	}
	return out
}

func (v *ProblemsView) View(width, height int) string {
	st := v.c.Styles
	head := " " + st.Header.Render("Problems reading the inputs")
	if len(v.items) == 0 {
		return common.Fit([]string{head, "", " None: every file read cleanly."}, width, height)
	}
	n := common.Itoa(v.counted)
	if notes := len(v.items) - v.counted; notes > 0 {
		n += " and " + common.Itoa(notes) + " note(s)"
	}
	head += st.Dim.Render("  (" + n + "; paths relative to the table; the rest loaded)")
	lines := []string{common.Clip(head, width), ""}
	v.rowsY = len(lines)
	page := max(1, height-len(lines))
	blocks := v.blocks(width)
	// Scroll whole problems: the selected one's first line stays visible.
	start := 0
	for i := 0; i < v.cursor; i++ {
		start += len(blocks[i])
	}
	end := start + len(blocks[v.cursor])
	if start < v.top {
		v.top = start
	}
	if end > v.top+page {
		v.top = max(start, end-page)
		if end-start > page {
			v.top = start
		}
	}
	v.lineOf = make([]int, v.rowsY, height)
	for i := range v.lineOf {
		v.lineOf[i] = -1
	}
	y := 0
	for i, bl := range blocks {
		for j, l := range bl {
			if y >= v.top && y < v.top+page {
				cur := " "
				if i == v.cursor && j == 0 {
					cur = st.G.Cursor
				}
				line := cur + " " + l
				if j == 0 && v.items[i].Severity == view.Note {
					line = cur + " " + st.Dim.Render("  "+l)
				} else if j == 0 {
					line = cur + " " + st.Warn.Render(st.G.Warn+" "+l)
				}
				lines = append(lines, line)
				v.lineOf = append(v.lineOf, i)
			}
			y++
		}
	}
	return common.Fit(lines, width, height)
}

func (v *ProblemsView) Export() (string, string) {
	var b strings.Builder
	b.WriteString("# Problems\n\n")
	var rows [][]string
	for _, p := range v.items {
		rows = append(rows, []string{p.File, p.Message})
	}
	if len(rows) == 0 {
		b.WriteString("None.\n")
	} else {
		b.WriteString(report.Table([]string{"file", "problem"}, "ll", rows))
	}
	return "problems", b.String()
}
