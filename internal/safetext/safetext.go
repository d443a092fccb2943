// Package safetext makes data strings safe to print on a terminal.
package safetext

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Unsafe reports whether r must be escaped: C0 controls, DEL, C1 controls,
// and bidi overrides, isolates and marks.
func Unsafe(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x200e, r == 0x200f:
		return true
	}
	return false
}

// Clean reports whether s needs no escaping.
func Clean(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f {
			return false
		}
		if c >= 0x80 {
			return cleanSlow(s[i:])
		}
	}
	return true
}

func cleanSlow(s string) bool {
	for _, r := range s {
		if Unsafe(r) {
			return false
		}
	}
	return true
}

// Terminal returns s with unsafe runes escaped (`\n`, `\t`, `\x1b`,
// `\u202e`); invalid UTF-8 bytes become `\xNN`. Clean input is returned
// unchanged.
func Terminal(s string) string {
	if Clean(s) && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			fmt.Fprintf(&b, `\x%02x`, s[i])
			i++
			continue
		}
		i += n
		if !Unsafe(r) {
			b.WriteRune(r)
			continue
		}
		switch r {
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x100 {
				fmt.Fprintf(&b, `\x%02x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		}
	}
	return b.String()
}
