package ui

import (
	"context"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/hudiscope/hudiscope/analyzers/checkpoint"
	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
	"github.com/hudiscope/hudiscope/view"
)

// Overview is pane 1: the facts an on-call engineer asks first, one per line, each a link
// (Enter jumps to the pane and row behind it; y copies its raw value).
type Overview struct {
	c      *Common
	snap   *model.Snapshot
	begins []checkpoint.Begins
	// startsFor is the timeline begins were computed for.
	startsFor *timeline.Timeline
	cursor    int
	top       int
	// rowsY is the body line of the first row in the last View (for clicks).
	rowsY int

	width, height int
}

// ovRow is one overview line.
type ovRow struct {
	label, value string
	link         view.Link
	copyLabel    string
	copyValue    string
	bad          bool // drawn in the warning style
}

type overviewKeys struct {
	navKeys
	Open key.Binding
}

func (k overviewKeys) ShortHelp() []key.Binding { return enabled(k.Open) }
func (k overviewKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{enabled(k.navKeys.all()...), {k.Open}}
}
func (k overviewKeys) helpTitles() []string { return []string{"Move", "Overview"} }

type overviewStartsMsg struct {
	tl     *timeline.Timeline
	begins []checkpoint.Begins
}

// NewOverview makes the Overview pane.
func NewOverview(c *Common) *Overview { return &Overview{c: c} }

func (o *Overview) Title() string        { return "Overview" }
func (o *Overview) SetSize(w, h int)     { o.width, o.height = w, h }
func (o *Overview) Back() bool           { return false }
func (o *Overview) Capturing() bool      { return false }
func (o *Overview) Breadcrumb() []string { return nil }

func (o *Overview) KeyMap() help.KeyMap {
	n := len(o.rows())
	return overviewKeys{navKeys: o.c.Keys.Nav.when(n > 1), Open: when(o.c.Keys.Open, n > 0)}
}

func (o *Overview) Help() []key.Binding { return o.KeyMap().ShortHelp() }

func (o *Overview) Status() string {
	if n := len(o.rows()); n > 0 {
		return itoa(min(o.cursor, n-1)+1) + "/" + itoa(n)
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
		return overviewStartsMsg{tl: tl, begins: s.IncrementalBegins(context.Background())}
	}
}

func (o *Overview) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case overviewStartsMsg:
		if o.snap != nil && msg.tl == o.snap.Timeline {
			o.begins, o.startsFor = msg.begins, msg.tl
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
			return o.open()
		}
	}
	return nil
}

func (o *Overview) move(d int) {
	n := len(o.rows())
	o.cursor = max(0, min(n-1, o.cursor+d))
}

// open is the jump behind the focused line.
func (o *Overview) open() tea.Cmd {
	rows := o.rows()
	if o.cursor >= len(rows) {
		return nil
	}
	return jumpTo(linkJump(rows[o.cursor].link))
}

// Click selects the row at body line y; a click on the selected row opens it.
func (o *Overview) Click(y int) tea.Cmd {
	rows := o.rows()
	i := o.top + y - o.rowsY
	if y < o.rowsY || i < 0 || i >= len(rows) {
		return nil
	}
	if i == o.cursor {
		return o.open()
	}
	o.cursor = i
	return nil
}

// CopyValue is the focused line's raw value.
func (o *Overview) CopyValue() (string, string, bool) {
	rows := o.rows()
	if o.cursor >= len(rows) || rows[o.cursor].copyValue == "" {
		return "", "", false
	}
	r := rows[o.cursor]
	return r.copyLabel, r.copyValue, true
}

// rows are the overview's lines for the snapshot so far: the view layer's facts, laid out
// with the user's clock and glyphs.
func (o *Overview) rows() []ovRow {
	s := o.snap
	if s == nil {
		return nil
	}
	v := o.c.View(s)
	clk, zone := o.c.Clock, v.Zone()
	f := view.Format{Sep: o.c.Styles.G.Sep, Age: clk.Age,
		Instant: func(raw string) string { return clk.Instant(raw, zone) }}
	facts := v.Overview(view.Begins{List: o.begins, Known: o.startsFor != nil && o.startsFor == s.Timeline})
	rows := make([]ovRow, 0, len(facts))
	for _, x := range facts {
		rows = append(rows, ovRow{label: x.Label, value: x.Text(f),
			link:      x.Link,
			copyLabel: x.CopyLabel, copyValue: x.CopyValue, bad: x.Bad})
	}
	return rows
}

// tableZone is the zone the table's instant strings are written in.
func tableZone(s *model.Snapshot) *time.Location {
	if s != nil && s.Config != nil && s.Config.Zone != nil {
		return s.Config.Zone
	}
	return time.UTC
}

func (o *Overview) View(width, height int) string {
	st := o.c.Styles
	rows := o.rows()
	lines := []string{""}
	o.rowsY = len(lines)
	page := max(1, height-len(lines))
	o.cursor = max(0, min(o.cursor, len(rows)-1))
	if o.cursor < o.top {
		o.top = o.cursor
	}
	if o.cursor >= o.top+page {
		o.top = o.cursor - page + 1
	}
	const labelW = 12
	for i := o.top; i < len(rows) && i < o.top+page; i++ {
		r := rows[i]
		cur := " "
		if i == o.cursor {
			cur = st.G.Cursor
		}
		val := trunc(r.value, width-labelW-4, st.G.Ellipsis)
		line := cur + " " + padRight(r.label, labelW) + " " + val
		switch {
		case i == o.cursor:
			line = st.Cursor.Render(padRight(line, width))
		case r.bad:
			line = cur + " " + padRight(r.label, labelW) + " " + st.Warn.Render(val)
		}
		lines = append(lines, line)
	}
	return fit(lines, width, height)
}

func (o *Overview) Export() (string, string) {
	var b strings.Builder
	b.WriteString("# Overview\n\n")
	var rows [][]string
	for _, r := range o.rows() {
		rows = append(rows, []string{r.label, r.value})
	}
	b.WriteString(report.Table([]string{"fact", "value"}, "ll", rows))
	return "overview", b.String()
}
