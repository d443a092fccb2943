package ui

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/hudiscope/hudiscope/hudi"
)

// checkpointMsg carries a checkpoint check computed in a Cmd.
type checkpointMsg struct {
	value string
	r     *hudi.CheckpointReport
}

// checkpointHelper answers "what does an incremental read from VALUE read?" with the same
// text as `hudiscope checkpoint`. Type a value, or take the selected instant's requested time
// (tab; tab again takes its completion time).
type checkpointHelper struct {
	input   lineInput
	took    int // how many times tab was pressed on the current instant
	running bool
	value   string
	r       *hudi.CheckpointReport
	scroll  int
}

func (h *checkpointHelper) set(m checkpointMsg) {
	if m.value != h.value {
		return // a stale answer
	}
	h.running, h.r, h.scroll = false, m.r, 0
}

func (h *checkpointHelper) update(t *Timeline, msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch k.String() {
		case "esc":
			t.ckpt = nil
			return nil
		case "tab":
			if in := t.Selected(); in != nil {
				v := in.RequestedTime
				if h.took%2 == 1 && in.CompletionTime != "" {
					v = in.CompletionTime
				}
				h.took++
				h.input.Set(v)
			}
			return nil
		case "enter":
			v := strings.TrimSpace(h.input.Value())
			if v == "" {
				if in := t.Selected(); in != nil {
					v = in.RequestedTime
					h.input.Set(v)
				}
			}
			if v == "" || t.snap == nil {
				return nil
			}
			h.running, h.value = true, v
			s := t.snap
			return func() tea.Msg {
				return checkpointMsg{value: v, r: s.CheckCheckpoint(context.Background(), v)}
			}
		case "up":
			h.scroll = max(0, h.scroll-1)
			return nil
		case "down":
			h.scroll++
			return nil
		case "pgup":
			h.scroll = max(0, h.scroll-10)
			return nil
		case "pgdown":
			h.scroll += 10
			return nil
		}
	}
	if h.input.Update(msg) {
		h.took = 0
	}
	return nil
}

// lines are the helper's result text, wrapped.
func (h *checkpointHelper) resultLines(st *Styles, width int) []string {
	var out []string
	if h.running {
		return []string{" checking " + h.value + " ..."}
	}
	r := h.r
	if r == nil {
		return nil
	}
	verdict := ""
	switch {
	case r.ReRead:
		verdict = st.Bad.Render(st.G.Warn+" RE-READ:") + fmt.Sprintf(" %s is an instant time (as in _hoodie_commit_time), not a completion time. "+
			"A read from it returns instant %s again: that batch is read twice. Use its completion time %s instead.",
			r.Value, r.Instant.RequestedTime, dashIf(r.Instant.CompletionTime))
	case r.ActiveStart != "" && !r.InActiveTimeline:
		verdict = st.Warn.Render(st.G.Warn+" TOO OLD:") + " older than the active timeline; the read falls back to a full scan or fails."
	case !r.InCleanerRetention:
		verdict = st.Warn.Render(st.G.Warn+" CLEANED:") + " older than the cleaner's retention; files the read needs may be gone."
	case r.Match == hudi.MatchNone:
		verdict = st.Warn.Render("NOT ON THE TIMELINE:") + " no instant has this requested or completion time."
	default:
		verdict = st.OK.Render(st.G.OK+" OK:") + fmt.Sprintf(" the read returns %d instant(s) and none of them twice.", len(r.Covered))
	}
	out = append(out, wrap(verdict, width-2)...)
	out = append(out, "")
	for _, l := range hudi.CheckpointLines(r) {
		if st.G.Arrow != "→" {
			l = strings.NewReplacer("→", st.G.Arrow, "←", "<-").Replace(l)
		}
		for i, w := range wrap(l, width-2) {
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

func (h *checkpointHelper) view(t *Timeline, width, height int) string {
	st := t.c.Styles
	sel := "-"
	if in := t.Selected(); in != nil {
		sel = in.RequestedTime + " " + in.Action
		if in.CompletionTime != "" {
			sel += ", completed " + in.CompletionTime
		}
	}
	lines := []string{" " + st.ColHead.Render("Checkpoint helper") + st.Dim.Render(": is this begin.instanttime / checkpoint value safe?")}
	for _, l := range wrap("Type a value, or tab to take the selected instant's requested time (tab again: its completion time); enter checks; esc closes.", width-2) {
		lines = append(lines, " "+st.Dim.Render(l))
	}
	lines = append(lines, clip(" selected: "+sel, width), " value: "+h.input.View(st, width-10), "")
	res := h.resultLines(st, width)
	room := height - len(lines)
	if h.scroll > len(res)-room {
		h.scroll = max(0, len(res)-room)
	}
	shown := res[min(h.scroll, len(res)):]
	more := len(shown) > room
	if more && room > 0 {
		shown = shown[:room-1]
	}
	for _, l := range shown {
		lines = append(lines, " "+l)
	}
	if more {
		lines = append(lines, st.Dim.Render(fmt.Sprintf(" (%d more lines: down/pgdown scrolls)", len(res)-h.scroll-len(shown))))
	}
	return fit(lines, width, height)
}
