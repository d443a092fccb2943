// Package overview is the explorer's Overview pane: the view layer's facts, one per line, Enter
// jumping to the pane and row behind each.
package overview

import (
	"context"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/hudiscope/hudiscope/analyzers/checkpoint"
	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
	"github.com/hudiscope/hudiscope/ui/common"
	"github.com/hudiscope/hudiscope/view"
)

// Overview is pane 1: the facts an on-call engineer asks first, one per line, each a link
// (Enter jumps to the pane and row behind it; y copies its raw value).
type Overview struct {
	c      *common.Common
	snap   *model.Snapshot
	begins []checkpoint.Begins
	// startsFor is the timeline begins were computed for.
	startsFor *timeline.Timeline
	Cursor    int
	top       int
	// rowsY is the body line of the first row in the last View (for clicks).
	rowsY int

	width, height int
}

// OvRow is one overview line.
type OvRow struct {
	Label, Value string
	Link         view.Link
	CopyLabel    string
	CopyValue    string
	bad          bool // drawn in the warning style
}

type overviewKeys struct {
	common.NavKeys
	Open key.Binding
}

func (k overviewKeys) ShortHelp() []key.Binding { return common.Enabled(k.Open) }
func (k overviewKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{common.Enabled(k.NavKeys.All()...), {k.Open}}
}
func (k overviewKeys) HelpTitles() []string { return []string{"Move", "Overview"} }

type OverviewStartsMsg struct {
	Tl     *timeline.Timeline
	Begins []checkpoint.Begins
}

// NewOverview makes the Overview pane.
func NewOverview(c *common.Common) *Overview { return &Overview{c: c} }

func (o *Overview) Title() string        { return "Overview" }
func (o *Overview) SetSize(w, h int)     { o.width, o.height = w, h }
func (o *Overview) Back() bool           { return false }
func (o *Overview) Capturing() bool      { return false }
func (o *Overview) Breadcrumb() []string { return nil }

func (o *Overview) KeyMap() help.KeyMap {
	n := len(o.Rows())
	return overviewKeys{NavKeys: o.c.Keys.Nav.When(n > 1), Open: common.When(o.c.Keys.Open, n > 0)}
}

func (o *Overview) Help() []key.Binding { return o.KeyMap().ShortHelp() }

func (o *Overview) Status() string {
	if n := len(o.Rows()); n > 0 {
		return common.Itoa(min(o.Cursor, n-1)+1) + "/" + common.Itoa(n)
	}
	return ""
}

func (o *Overview) SetSnapshot(s *model.Snapshot) tea.Cmd {
	o.snap = s
	if s == nil || s.Timeline == nil || s.Timeline == o.startsFor {
		return nil
	}
	tl := s.Timeline
	return func() tea.Msg {
		return OverviewStartsMsg{Tl: tl, Begins: s.IncrementalBegins(context.Background())}
	}
}

func (o *Overview) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case OverviewStartsMsg:
		if o.snap != nil && msg.Tl == o.snap.Timeline {
			o.begins, o.startsFor = msg.Begins, msg.Tl
		}
		return nil
	case tea.MouseWheelMsg:
		k := o.KeyMap().(overviewKeys)
		if key.Matches(msg, k.Wheel) {
			if msg.Button == tea.MouseWheelUp {
				o.move(-3)
			} else {
				o.move(3)
			}
		}
	case tea.KeyPressMsg:
		k := o.KeyMap().(overviewKeys)
		switch {
		case key.Matches(msg, k.Up):
			o.move(-1)
		case key.Matches(msg, k.Down):
			o.move(1)
		case key.Matches(msg, k.PageUp):
			o.move(-max(1, o.height-1))
		case key.Matches(msg, k.PageDown):
			o.move(max(1, o.height-1))
		case key.Matches(msg, k.Top):
			o.move(-1 << 20)
		case key.Matches(msg, k.Bottom):
			o.move(1 << 20)
		case key.Matches(msg, k.Open):
			return o.Open()
		}
	}
	return nil
}

func (o *Overview) move(d int) {
	n := len(o.Rows())
	o.Cursor = max(0, min(n-1, o.Cursor+d))
}

// Open is the jump behind the focused line.
func (o *Overview) Open() tea.Cmd {
	rows := o.Rows()
	if o.Cursor >= len(rows) {
		return nil
	}
	return common.JumpTo(common.LinkJump(rows[o.Cursor].Link))
}

// Click selects the row at body line y; a click on the selected row opens it.
func (o *Overview) Click(y int) tea.Cmd {
	rows := o.Rows()
	i := o.top + y - o.rowsY
	if y < o.rowsY || i < 0 || i >= len(rows) {
		return nil
	}
	if i == o.Cursor {
		return o.Open()
	}
	o.Cursor = i
	return nil
}

// CopyValue is the focused line's raw value.
func (o *Overview) CopyValue() (string, string, bool) {
	rows := o.Rows()
	if o.Cursor >= len(rows) || rows[o.Cursor].CopyValue == "" {
		return "", "", false
	}
	r := rows[o.Cursor]
	return r.CopyLabel, r.CopyValue, true
}

// Rows are the overview's lines for the snapshot so far: the view layer's facts, laid out
// with the user's clock and glyphs.
func (o *Overview) Rows() []OvRow {
	s := o.snap
	if s == nil {
		return nil
	}
	v := o.c.View(s)
	clk, zone := o.c.Clock, v.Zone()
	f := view.Format{Sep: o.c.Styles.G.Sep, Age: clk.Age,
		Instant: func(raw string) string { return clk.Instant(raw, zone) }}
	facts := v.Overview(view.Begins{List: o.begins, Known: o.startsFor != nil && o.startsFor == s.Timeline})
	rows := make([]OvRow, 0, len(facts))
	for _, x := range facts {
		rows = append(rows, OvRow{Label: x.Label, Value: x.Text(f),
			Link:      x.Link,
			CopyLabel: x.CopyLabel, CopyValue: x.CopyValue, bad: x.Bad})
	}
	return rows
}

func (o *Overview) View(width, height int) string {
	st := o.c.Styles
	rows := o.Rows()
	lines := []string{""}
	o.rowsY = len(lines)
	page := max(1, height-len(lines))
	o.Cursor = max(0, min(o.Cursor, len(rows)-1))
	if o.Cursor < o.top {
		o.top = o.Cursor
	}
	if o.Cursor >= o.top+page {
		o.top = o.Cursor - page + 1
	}
	const labelW = 12
	for i := o.top; i < len(rows) && i < o.top+page; i++ {
		r := rows[i]
		cur := " "
		if i == o.Cursor {
			cur = st.G.Cursor
		}
		val := common.Trunc(r.Value, width-labelW-4, st.G.Ellipsis)
		line := cur + " " + common.PadRight(r.Label, labelW) + " " + val
		switch {
		case i == o.Cursor:
			line = st.Cursor.Render(common.PadRight(line, width))
		case r.bad:
			line = cur + " " + common.PadRight(r.Label, labelW) + " " + st.Warn.Render(val)
		}
		lines = append(lines, line)
	}
	return common.Fit(lines, width, height)
}

func (o *Overview) Export() (string, string) {
	var b strings.Builder
	b.WriteString("# Overview\n\n")
	var rows [][]string
	for _, r := range o.Rows() {
		rows = append(rows, []string{r.Label, r.Value})
	}
	b.WriteString(report.Table([]string{"fact", "value"}, "ll", rows))
	return "overview", b.String()
}
