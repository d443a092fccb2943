package ui

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/hudiscope/hudiscope/analyzers/checkpoint"
	"github.com/hudiscope/hudiscope/analyzers/health"
	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/internal/units"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
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
	scanned   *timeline.Timeline
	last      *timeline.Instant
	pending   []*timeline.Instant
	// rowsY is the body line of the first row in the last View (for clicks).
	rowsY int

	width, height int
}

// ovRow is one overview line.
type ovRow struct {
	label, value string
	jump         jumpMsg
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
	j := rows[o.cursor].jump
	return func() tea.Msg { return j }
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

// hudiLine is the Hudi release line that writes a table version.
func hudiLine(v int) string {
	switch v {
	case 4:
		return "0.11"
	case 5:
		return "0.12/0.13"
	case 6:
		return "0.14/0.15"
	case 7:
		return "1.0 beta"
	case 8:
		return "1.0"
	case 9:
		return "1.1+"
	}
	return "unknown"
}

// pendingService reports whether a pending instant is a compaction or clustering plan.
func pendingService(in *timeline.Instant) bool {
	if in.IsCompleted() {
		return false
	}
	return in.IsPlannedService("") // pending: the table type decides only completed commits
}

// rows are the overview's lines for the snapshot so far (cheap: counts and lookups only).
func (o *Overview) rows() []ovRow {
	s := o.snap
	if s == nil {
		return nil
	}
	clk := o.c.Clock
	var rows []ovRow
	add := func(r ovRow) { rows = append(rows, r) }
	zone := tableZone(s)
	if c := s.Config; c != nil {
		v := c.Name + o.c.Styles.G.Sep + c.Type
		if c.Database != "" {
			v = c.Database + "." + v
		}
		add(ovRow{label: "table", value: v, jump: jumpMsg{Pane: "Layout"}, copyLabel: "table name", copyValue: c.Name})
		add(ovRow{label: "version", value: fmt.Sprintf("table version %d%swritten by Hudi %s", c.Version, o.c.Styles.G.Sep, hudiLine(c.Version)),
			jump: jumpMsg{Pane: "Timeline"}, copyLabel: "hoodie.table.version", copyValue: "hoodie.table.version=" + strconv.Itoa(c.Version)})
	}
	if r := s.Layout; r != nil {
		big := ""
		if len(r.Rows) > 0 {
			big = r.Rows[0].Partition
		}
		add(ovRow{label: "size", value: units.Bytes(r.TotalBytes) + " (latest base files)", jump: jumpMsg{Pane: "Layout"},
			copyLabel: "size in bytes", copyValue: strconv.FormatInt(r.TotalBytes, 10)})
		pv := itoa(r.NumPartitions)
		if big != "" && r.NumPartitions > 1 {
			pv += o.c.Styles.G.Sep + "largest " + partLabel(big) + " (" + units.Bytes(r.Rows[0].TotalBytes) + ")"
		}
		add(ovRow{label: "partitions", value: pv, jump: jumpMsg{Pane: "Layout", Partition: big},
			copyLabel: "partition", copyValue: big})
		fv := strconv.FormatInt(r.TotalFiles, 10) + " base files"
		if st := r.TableSizeStats; st.Count > 0 {
			fv += o.c.Styles.G.Sep + "median " + units.Bytes(st.P50)
		}
		add(ovRow{label: "files", value: fv, jump: jumpMsg{Pane: "Layout"}, copyLabel: "files", copyValue: strconv.FormatInt(r.TotalFiles, 10)})
	} else {
		add(ovRow{label: "size", value: o.pendingStep(model.StepLayout), jump: jumpMsg{Pane: "Layout"}})
	}
	if s.Timeline != nil {
		last, pending := o.scan()
		if last != nil {
			when := clk.Instant(last.CompletionTime, zone) + report.DerivedMark(last)
			what := last.Action
			if last.Operation != "" {
				what += " " + last.Operation
			}
			add(ovRow{label: "last commit", value: when + " (" + clk.Age(last.Ended) + ")" + o.c.Styles.G.Sep + what,
				jump: jumpMsg{Pane: "Timeline", Instant: last.RequestedTime}, copyLabel: "instant", copyValue: last.RequestedTime})
		} else {
			add(ovRow{label: "last commit", value: "none on the active timeline", jump: jumpMsg{Pane: "Timeline"}})
		}
		if len(pending) == 0 {
			add(ovRow{label: "pending", value: "no compaction or clustering plan", jump: jumpMsg{Pane: "Timeline"}})
		}
		const maxPending = 3
		for i, in := range pending {
			if i == maxPending {
				add(ovRow{label: "", value: fmt.Sprintf("and %d more pending plans", len(pending)-maxPending),
					jump: jumpMsg{Pane: "Timeline", Instant: pending[i].RequestedTime}})
				break
			}
			label := ""
			if i == 0 {
				label = "pending"
			}
			act := in.Action
			if in.PlanAction != "" {
				act = in.PlanAction
			}
			add(ovRow{label: label, value: act + " " + strings.ToLower(string(in.State)) + " " + clk.Instant(in.RequestedTime, zone) + " (" + clk.Age(in.Started) + ")",
				jump: jumpMsg{Pane: "Timeline", Instant: in.RequestedTime}, copyLabel: "instant", copyValue: in.RequestedTime, bad: true})
		}
	}
	if h := s.Health; h != nil {
		add(o.healthRow(h))
	} else {
		add(ovRow{label: "health", value: o.pendingStep(model.StepHealth), jump: jumpMsg{Pane: "Health"}})
	}
	if f := s.Findings; f != nil {
		if top := f.TopFinding(); top.ID != "" {
			add(ovRow{label: "top finding", value: top.Says, jump: jumpMsg{Pane: "Findings", Finding: top.ID},
				copyLabel: "finding", copyValue: top.ID})
		} else {
			add(ovRow{label: "top finding", value: top.Says, jump: jumpMsg{Pane: "Findings"}})
		}
	} else {
		add(ovRow{label: "top finding", value: o.pendingStep(model.StepFindings), jump: jumpMsg{Pane: "Findings"}})
	}
	// Two begin values per reader line, each labelled with the question it answers: the one a
	// pipeline stores next (reading from the earliest one re-reads what it consumed) and how
	// far back the cleaner still serves. Both are the model's; this only lays them out.
	for _, b := range o.begins {
		add(ovRow{label: "incr. " + b.Reader.Line, value: "resume after the latest commit: " + b.Resume,
			jump:      jumpMsg{Pane: "Timeline", Instant: b.ResumeAfter},
			copyLabel: "begin.instanttime", copyValue: "hoodie.datasource.read.begin.instanttime=" + b.Resume})
		add(ovRow{value: "earliest readable (" + b.EarliestLabel() + "): " + b.Earliest.Begin,
			jump:      jumpMsg{Pane: "Timeline", Instant: b.Earliest.ReadsFrom},
			copyLabel: "begin.instanttime", copyValue: "hoodie.datasource.read.begin.instanttime=" + b.Earliest.Begin})
	}
	if s.Timeline != nil && len(o.begins) == 0 && o.startsFor == s.Timeline {
		add(ovRow{label: "incr. begin", value: "no write to read on the active timeline", jump: jumpMsg{Pane: "Timeline"}})
	}
	n := o.c.View(s).ProblemCount()
	pv := "none"
	if n > 0 {
		pv = fmt.Sprintf("%d problem(s) reading the inputs", n)
	}
	add(ovRow{label: "problems", value: pv, jump: jumpMsg{Pane: problemsPane}, bad: n > 0})
	return rows
}

func (o *Overview) healthRow(h *health.Result) ovRow {
	var bad []string
	first := ""
	for _, c := range h.Checks {
		if c.Status == health.Unhealthy {
			bad = append(bad, c.Name)
			if first == "" {
				first = c.Name
			}
		}
	}
	v := h.Verdict()
	if len(bad) > 0 {
		v += ": " + strings.Join(bad, ", ")
	} else if n, _ := h.NotJudged(); n == 0 {
		v += fmt.Sprintf(" (%d checks)", len(h.Checks))
	}
	if len(h.Errors) > 0 {
		v += fmt.Sprintf("%s%d check(s) failed to run", o.c.Styles.G.Sep, len(h.Errors))
	}
	return ovRow{label: "health", value: v, jump: jumpMsg{Pane: "Health", Check: first}, bad: len(bad) > 0,
		copyLabel: "health", copyValue: h.Verdict()}
}

// scan finds the last completed write and the pending service plans (once per timeline).
func (o *Overview) scan() (*timeline.Instant, []*timeline.Instant) {
	tl := o.snap.Timeline
	if o.scanned == tl {
		return o.last, o.pending
	}
	o.scanned, o.last, o.pending = tl, nil, nil
	for _, in := range tl.Instants {
		if in.IsCompleted() && timeline.IsWriteAction(in.Action) {
			if o.last == nil || timeline.CompareInstants(in.CompletionTime, o.last.CompletionTime) > 0 {
				o.last = in
			}
		}
		if pendingService(in) {
			o.pending = append(o.pending, in)
		}
	}
	return o.last, o.pending
}

// tableZone is the zone the table's instant strings are written in.
func tableZone(s *model.Snapshot) *time.Location {
	if s != nil && s.Config != nil && s.Config.Zone != nil {
		return s.Config.Zone
	}
	return time.UTC
}

// pendingStep says plainly why a step's facts are missing.
func (o *Overview) pendingStep(st model.Step) string {
	s := o.snap
	switch {
	case s.StepErrors[st] != nil:
		return "failed: " + s.StepErrors[st].Error()
	case s.HasRun(st):
		return "not available"
	}
	return "not read yet"
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
