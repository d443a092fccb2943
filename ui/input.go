package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// lineInput is a one-line text input without a blinking cursor (no timers: quiet over SSH).
type lineInput struct {
	value []rune
}

func (l *lineInput) Value() string { return string(l.value) }

func (l *lineInput) Set(s string) { l.value = []rune(s) }

// Update edits the value; it reports whether the message was an edit.
func (l *lineInput) Update(msg tea.Msg) bool {
	switch msg := msg.(type) {
	case tea.PasteMsg:
		l.value = append(l.value, []rune(strings.ReplaceAll(msg.Content, "\n", " "))...)
		return true
	case tea.KeyPressMsg:
		switch msg.String() {
		case "backspace", "ctrl+h":
			if len(l.value) > 0 {
				l.value = l.value[:len(l.value)-1]
			}
			return true
		case "ctrl+u":
			l.value = nil
			return true
		case "ctrl+w":
			s := strings.TrimRight(string(l.value), " ")
			if i := strings.LastIndex(s, " "); i >= 0 {
				l.value = []rune(s[:i+1])
			} else {
				l.value = nil
			}
			return true
		case "space":
			l.value = append(l.value, ' ')
			return true
		}
		if msg.Text != "" && msg.Mod&^tea.ModShift == 0 {
			l.value = append(l.value, []rune(msg.Text)...)
			return true
		}
	}
	return false
}

// View renders the value with a steady cursor cell.
func (l *lineInput) View(st *Styles, width int) string {
	v := string(l.value)
	if w := width - 1; w > 0 && len(l.value) > w {
		v = string(l.value[len(l.value)-w:])
	}
	return v + st.Cursor.Render(" ")
}
