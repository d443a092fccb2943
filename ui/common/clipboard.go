package common

import (
	"encoding/base64"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// Copier is implemented by panes (and views) whose focused row has a value worth copying: an
// instant time, a path, key=value. label says what it is in the status line.
type Copier interface {
	CopyValue() (label, value string, ok bool)
}

// Osc52 is the sequence that puts value on the system clipboard: OSC 52 (ESC ] 52 ; c ; base64
// BEL). Inside tmux it is sent plain (set-clipboard on) and again in tmux's passthrough
// (allow-passthrough on); inside GNU screen in DCS chunks (screen cuts longer strings).
func Osc52(value string, getenv func(string) string) string {
	seq := "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(value)) + "\a"
	switch {
	case getenv("TMUX") != "":
		return seq + "\x1bPtmux;" + strings.ReplaceAll(seq, "\x1b", "\x1b\x1b") + "\x1b\\"
	case getenv("STY") != "" || strings.HasPrefix(getenv("TERM"), "screen"):
		var b strings.Builder
		for len(seq) > 0 {
			n := min(len(seq), 76)
			b.WriteString("\x1bP" + seq[:n] + "\x1b\\")
			seq = seq[n:]
		}
		return b.String()
	}
	return seq
}

// CopyCmd writes the OSC 52 sequence for value to the terminal through bubbletea.
func CopyCmd(value string, getenv func(string) string) tea.Cmd {
	return tea.Raw(Osc52(value, getenv))
}
