package safetext

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTerminal(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", ""},
		{"plain", "plain"},
		{"dt=2024-01-01/é日本", "dt=2024-01-01/é日本"},
		{"a\nb", `a\nb`},
		{"a\tb\r", `a\tb\r`},
		{"\x1b]0;pwned\x07", `\x1b]0;pwned\x07`},
		{"\x1b[2J", `\x1b[2J`},
		{"x\u202ey", `x\u202ey`},
		{"\u2066\u2069\u200e\u200f\u202a", `\u2066\u2069\u200e\u200f\u202a`},
		{"\x7f\u0085\u009b", `\x7f\x85\x9b`},
		{"\x00", `\x00`},
		{"bad\xffbyte", `bad\xffbyte`},
		{"\xc2\x9b", `\x9b`},
	}
	for _, c := range cases {
		if got := Terminal(c.in); got != c.want {
			t.Errorf("Terminal(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func FuzzTerminal(f *testing.F) {
	for _, s := range []string{"", "ok", "\x1b]0;t\x07", "\u202e", "a\nb", "\xff\xc2\x9b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Terminal(s)
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out: %q", out)
		}
		for _, r := range out {
			if Unsafe(r) {
				t.Fatalf("Terminal(%q) = %q keeps %U", s, out, r)
			}
		}
		clean := utf8.ValidString(s) && !strings.ContainsFunc(s, Unsafe)
		if clean && out != s {
			t.Fatalf("clean %q changed to %q", s, out)
		}
		if !clean && out == s {
			t.Fatalf("unsafe %q unchanged", s)
		}
	})
}
