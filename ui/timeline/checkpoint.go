package timeline

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/hudiscope/hudiscope/analyzers/checkpoint"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
	"github.com/hudiscope/hudiscope/ui/common"
)

// checkpointMsg carries a checkpoint check computed in a Cmd.
type checkpointMsg struct {
	value string
	rs    []*checkpoint.Report // one verdict per reader line
	snap  *model.Snapshot      // the snapshot checked, which the row count reads
}

// checkpointRowsMsg carries the row counts of the read a checkpoint value starts.
type checkpointRowsMsg struct {
	value        string
	line         string // the reader line counted
	total, again int
	reread       string // the instant whose rows are read again ("" when none)
	err          error
}

// pickVerdict is the verdict to act on: the one that re-reads, else the first.
func pickVerdict(rs []*checkpoint.Report) *checkpoint.Report {
	for _, v := range rs {
		if v.ReRead {
			return v
		}
	}
	if len(rs) == 0 {
		return nil
	}
	return rs[0]
}

// countRows counts, off the UI goroutine, the rows the read from v returns and how many of
// them belong to the instant it reads again, by the verdicts rs the check of v gave.
func countRows(s *model.Snapshot, v string, rs []*checkpoint.Report) tea.Cmd {
	return func() tea.Msg {
		ctx := context.Background()
		r := pickVerdict(rs)
		if r == nil {
			return checkpointRowsMsg{value: v, err: fmt.Errorf("no reader verdict for %s", v)}
		}
		m := checkpointRowsMsg{value: v, line: r.Reader.Line}
		reread := map[string]bool{}
		if r.ReRead && r.Instant != nil {
			m.reread = r.Instant.RequestedTime
			reread[m.reread] = true
		}
		m.total, m.again, _, m.err = s.CountRowsFrom(ctx, model.IncrementalQuery{Begin: v, Reader: r.Reader, NoMDT: s.Options.NoMDT}, reread)
		return m
	}
}

// checkpointHelper answers "what does an incremental read from VALUE read?" with the same
// text as `hudiscope checkpoint`. Type a value, or take the selected instant's requested time
// (tab; tab again takes its completion time).
type checkpointHelper struct {
	km      checkpointKeys
	input   textinput.Model
	took    int // how many times tab was pressed on the current instant
	running bool
	value   string
	rs      []*checkpoint.Report
	res     *common.Pager // the result, scrolled
	rows    *checkpointRowsMsg
}

// checkpointKeys are the helper's keys; every other key edits the value.
type checkpointKeys struct {
	Take, Check, Close key.Binding
	common.InputKeys
}

func (k checkpointKeys) ShortHelp() []key.Binding { return common.Enabled(k.Take, k.Check, k.Close) }
func (k checkpointKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Take, k.Check, k.Close}, {k.Up, k.Down, k.PageUp, k.PageDown}}
}
func (k checkpointKeys) HelpTitles() []string {
	return []string{"Checkpoint helper (type a value)", "Scroll"}
}

func newCheckpointHelper(c *common.Common) *checkpointHelper {
	return &checkpointHelper{input: common.NewInput(), res: common.NewPager(), km: checkpointKeys{
		Take:      common.Bind("tab", "take selected", "tab"),
		Check:     common.Bind("enter", "check", "enter"),
		Close:     common.Bind("esc", "close", "esc"),
		InputKeys: c.Keys.Input,
	}}
}

// Keys are the helper's keys in its state: tab needs a selected instant, scrolling a result
// longer than the room.
func (h *checkpointHelper) Keys(t *Timeline) checkpointKeys {
	k := h.km
	k.Take = common.When(k.Take, t.Selected() != nil)
	scroll := len(h.res.Lines) > h.res.Vp.Height()
	for _, b := range []*key.Binding{&k.Up, &k.Down, &k.PageUp, &k.PageDown} {
		b.SetEnabled(scroll)
	}
	return k
}

// Set shows a check's verdicts and starts counting the rows of that read (the verdicts
// decide which release's read is counted, so it waits for them rather than checking again).
func (h *checkpointHelper) Set(m checkpointMsg) tea.Cmd {
	if m.value != h.value {
		return nil // a stale answer
	}
	h.running, h.rs = false, m.rs
	h.res.Vp.GotoTop()
	return countRows(m.snap, m.value, m.rs)
}

func (h *checkpointHelper) Handle(t *Timeline, msg tea.Msg) tea.Cmd {
	k := h.Keys(t)
	switch msg := msg.(type) {
	case checkpointRowsMsg:
		if msg.value == h.value {
			h.rows = &msg
		}
		return nil
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Close):
			t.ckpt = nil
		case key.Matches(msg, k.Take):
			in := t.Selected()
			v := in.RequestedTime
			if h.took%2 == 1 && in.CompletionTime != "" {
				v = in.CompletionTime
			}
			h.took++
			h.setValue(v)
		case key.Matches(msg, k.Check):
			return h.check(t)
		case key.Matches(msg, k.Up):
			h.res.Vp.ScrollUp(1)
		case key.Matches(msg, k.Down):
			h.res.Vp.ScrollDown(1)
		case key.Matches(msg, k.PageUp):
			h.res.Vp.ScrollUp(10)
		case key.Matches(msg, k.PageDown):
			h.res.Vp.ScrollDown(10)
		default:
			h.Edit(msg)
		}
	case tea.PasteMsg:
		h.Edit(msg)
	}
	return nil
}

func (h *checkpointHelper) setValue(v string) {
	h.input.SetValue(v)
	h.input.CursorEnd()
}

func (h *checkpointHelper) Edit(msg tea.Msg) {
	before := h.input.Value()
	h.input, _ = h.input.Update(msg)
	if h.input.Value() != before {
		h.took = 0
	}
}

// check starts the check of the value (the selected instant's requested time when empty).
func (h *checkpointHelper) check(t *Timeline) tea.Cmd {
	v := strings.TrimSpace(h.input.Value())
	if v == "" {
		if in := t.Selected(); in != nil {
			v = in.RequestedTime
			h.setValue(v)
		}
	}
	if v == "" || t.Snap == nil {
		return nil
	}
	h.running, h.value, h.rows = true, v, nil
	s := t.Snap
	return func() tea.Msg {
		return checkpointMsg{value: v, rs: s.CheckCheckpoint(context.Background(), v), snap: s}
	}
}

// rowLines say how many rows the read returns and how many it reads again.
func (h *checkpointHelper) rowLines(st *common.Styles) string {
	m := h.rows
	switch {
	case m == nil:
		return "rows: counting the rows this read returns..."
	case m.err != nil:
		var u model.ErrRowsUnknown
		if errors.As(m.err, &u) {
			return "rows: not counted: " + u.Why
		}
		return "rows: could not count: " + m.err.Error()
	case m.reread != "":
		return fmt.Sprintf("rows: a Hudi %s read from it returns %d row(s); ", m.line, m.total) +
			st.Bad.Render(fmt.Sprintf("%d of them (written by %s) are read again", m.again, m.reread)) + "."
	}
	return fmt.Sprintf("rows: a Hudi %s read from it returns %d row(s), none read again.", m.line, m.total)
}

// lines are the helper's result text, wrapped.
func (h *checkpointHelper) resultLines(st *common.Styles, width int) []string {
	var out []string
	if h.running {
		return []string{" checking " + h.value + " ..."}
	}
	if len(h.rs) == 0 {
		return nil
	}
	r := h.rs[0]
	for _, v := range h.rs {
		if v.ReRead {
			r = v // the verdict that re-reads is the one to act on
			break
		}
	}
	verdict := ""
	switch {
	case r.ReRead:
		why := "a completion time, and Hudi " + r.Reader.Line + " returns writes completed at the begin value too"
		if r.Match == checkpoint.MatchRequested {
			why = "an instant time (as in _hoodie_commit_time), not a completion time"
		}
		verdict = st.Bad.Render(st.G.Warn+" RE-READ:") + fmt.Sprintf(" %s is %s: a Hudi %s read from it returns instant %s again, so that batch is read twice. Use %s instead.",
			r.Value, why, r.Reader.Line, r.Instant.RequestedTime, report.CheckpointSafeBegin(r.Reader, r.Instant))
	case r.ActiveStart != "" && !r.InActiveTimeline:
		verdict = st.Warn.Render(st.G.Warn+" TOO OLD:") + " older than the active timeline. " + r.Reader.BeforeActive()
	case !r.InCleanerRetention:
		verdict = st.Warn.Render(st.G.Warn+" CLEANED:") + " older than the cleaner's retention; files the read needs may be gone."
	case r.Match == checkpoint.MatchNone:
		verdict = st.Warn.Render("NOT ON THE TIMELINE:") + " no instant has this requested or completion time."
	default:
		verdict = st.OK.Render(st.G.OK+" OK:") + fmt.Sprintf(" the read returns %d instant(s) and none of them twice.", len(r.Covered))
	}
	out = append(out, common.Wrap(verdict, width-2)...)
	out = append(out, common.Wrap(h.rowLines(st), width-2)...)
	out = append(out, "")
	for _, l := range report.CheckpointVerdictLines(h.rs) {
		if st.G.Arrow != "→" {
			l = strings.NewReplacer("→", st.G.Arrow, "←", "<-").Replace(l)
		}
		for i, w := range common.Wrap(l, width-2) {
			if i > 0 && strings.HasPrefix(l, "  ") {
				w = "      " + w // continuation of a covered-instant line
			}
			if strings.HasPrefix(l, "WARNING") {
				w = st.Bad.Render(w)
			}
			out = append(out, w)
		}
	}
	return out
}

// Head is the helper's lines above the result.
func (h *checkpointHelper) Head(t *Timeline, width int) []string {
	st := t.C.Styles
	sel := "-"
	if in := t.Selected(); in != nil {
		sel = in.RequestedTime + " " + in.Action
		if in.CompletionTime != "" {
			sel += ", completed " + in.CompletionTime
		}
	}
	k := h.km
	lines := []string{" " + st.ColHead.Render("Checkpoint helper") + st.Dim.Render(": is this begin.instanttime / checkpoint value safe?")}
	intro := "Type a value, or " + k.Take.Help().Key + " to take the selected instant's requested time (" + k.Take.Help().Key +
		" again: its completion time); " + k.Check.Help().Key + " checks; " + k.Close.Help().Key + " closes."
	for _, l := range common.Wrap(intro, width-2) {
		lines = append(lines, " "+st.Dim.Render(l))
	}
	return append(lines, common.Clip(" selected: "+sel, width), " value: "+common.InputView(h.input), "")
}

// Reflow sizes the input and the result's viewport for the pane's size.
func (h *checkpointHelper) Reflow(t *Timeline, width, height int) {
	common.SizeInput(&h.input, width-10)
	h.res.Set(h.resultLines(t.C.Styles, width), width, height-len(h.Head(t, width)))
}

func (h *checkpointHelper) View(t *Timeline, width, height int) string {
	st := t.C.Styles
	lines := h.Head(t, width)
	room := height - len(lines)
	shown := h.res.VisibleLines()
	top := h.res.Vp.YOffset()
	more := len(h.res.Lines)-top > room
	if more && room > 0 {
		shown = shown[:min(len(shown), room-1)]
	}
	for _, l := range shown {
		lines = append(lines, " "+l)
	}
	if more {
		k := h.km
		lines = append(lines, st.Dim.Render(fmt.Sprintf(" (%d more lines: %s/%s scrolls)", len(h.res.Lines)-top-len(shown),
			k.Down.Help().Key, k.PageDown.Help().Key)))
	}
	return common.Fit(lines, width, height)
}
