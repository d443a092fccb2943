package cli

import (
	"testing"

	"github.com/charmbracelet/colorprofile"
)

// The explorer's colour decision: NO_COLOR (any value) and TERM=dumb turn colour off; anything
// else keeps it. On TERM=dumb bubbletea's renderer, which picks its profile with colorprofile,
// also gets a profile without colour (NoTTY, unless CLICOLOR_FORCE), so nothing coloured
// reaches a dumb terminal; with NO_COLOR on a colour terminal it keeps text attributes (Ascii).
func TestColourDecision(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want bool
	}{
		{map[string]string{"TERM": "xterm-256color"}, true},
		{map[string]string{"TERM": "dumb"}, false},
		{map[string]string{"TERM": "xterm-256color", "NO_COLOR": ""}, false},
		{map[string]string{"TERM": "xterm", "NO_COLOR": "1"}, false},
		{map[string]string{}, true},
	} {
		lookup := func(k string) (string, bool) { v, ok := c.env[k]; return v, ok }
		if got := colorEnabled(lookup); got != c.want {
			t.Errorf("%v: colour %v, want %v", c.env, got, c.want)
		}
	}
	if p := colorprofile.Env([]string{"TERM=dumb"}); p > colorprofile.Ascii {
		t.Errorf("TERM=dumb: bubbletea would render with profile %v", p)
	}
	if p := colorprofile.Env([]string{"TERM=xterm-256color", "NO_COLOR=1"}); p != colorprofile.Ascii {
		t.Errorf("NO_COLOR: profile %v, want Ascii (attributes, no colour)", p)
	}
}
