package common

import (
	"strings"

	"github.com/hudiscope/hudiscope/internal/safetext"
)

// SafeLine escapes what a scrolling view's line must not send to the terminal: every control
// or bidi character except the SGR sequences (ESC [ params m) our own styles put there. Data
// strings are escaped where the views build their lines (so widths are right); this is the
// backstop for a string that reached a line unescaped.
func SafeLine(s string) string {
	if safetext.Clean(StripSGR(s)) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if n := sgrLen(s[i:]); n > 0 {
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		j := i + 1
		for j < len(s) && s[j] != 0x1b {
			j++
		}
		b.WriteString(safetext.Terminal(s[i:j]))
		i = j
	}
	return b.String()
}

// sgrLen is the length of the SGR sequence at the start of s, or 0.
func sgrLen(s string) int {
	if len(s) < 3 || s[0] != 0x1b || s[1] != '[' {
		return 0
	}
	for i := 2; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9', c == ';', c == ':':
		case c == 'm':
			return i + 1
		default:
			return 0
		}
	}
	return 0
}

// StripSGR is s without its SGR sequences.
func StripSGR(s string) string {
	if !strings.Contains(s, "\x1b[") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if n := sgrLen(s[i:]); n > 0 {
			i += n
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}
