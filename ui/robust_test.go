package ui

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// stormKeys are the keys a user might press mid-resize (no e/E: they write files).
var stormKeys = []string{"j", "k", "down", "up", "enter", "esc", "tab", "shift+tab", "g", "G", "pgdown", "pgup",
	"1", "2", "3", "4", "5", "s", "t", "o", "?", "/", "x", "c", "space", "backspace"}

// checkFrame asserts a frame fits the window: no line wider than it, exactly height lines.
func checkFrame(t *testing.T, a *App, w, h int, step string) {
	t.Helper()
	lines := strings.Split(ansi.Strip(a.View().Content), "\n")
	if len(lines) != h {
		t.Fatalf("%s at %dx%d: %d lines", step, w, h, len(lines))
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n > w {
			t.Fatalf("%s at %dx%d: line %d is %d cells: %q", step, w, h, i, n, l)
		}
	}
}

// A resize storm: hundreds of random window sizes from 1x1 to 300x100, interleaved with keys on
// every pane (drilled in, filtering, help open). Every frame is drawn without a panic and fits
// the window exactly, including the too-small screen.
func TestResizeStorm(t *testing.T) {
	a := appWith(t, servicesSnapshot(t), 120, 40)
	r := rand.New(rand.NewPCG(9, 9))
	steps := 600
	if testing.Short() {
		steps = 150
	}
	for i := range steps {
		w, h := 1+r.IntN(300), 1+r.IntN(100)
		if i%7 == 0 { // often near the minimum
			w, h = MinWidth-1+r.IntN(3), MinHeight-1+r.IntN(3)
		}
		a.Update(tea.WindowSizeMsg{Width: w, Height: h})
		checkFrame(t, a, w, h, "resize")
		for range 1 + r.IntN(3) {
			k := stormKeys[r.IntN(len(stormKeys))]
			press(a, k)
			checkFrame(t, a, w, h, "key "+k)
		}
	}
}

// At 40x12 the explorer says the terminal is too small and what it needs, ignores every other
// key, and still quits on q.
func TestTooSmall40x12(t *testing.T) {
	a := loadedApp(t, fxSvc, 40, 12)
	s := checkScreen(t, a, 40, 12)
	if !strings.Contains(s, "terminal too small") || !strings.Contains(s, "needs at least") {
		t.Fatalf("40x12:\n%s", s)
	}
	for _, k := range []string{"j", "enter", "2", "?", "/", "tab"} {
		if _, cmd := a.Update(keyMsg(k)); cmd != nil {
			t.Errorf("%s on the too-small screen returned a command", k)
		}
		if got := checkScreen(t, a, 40, 12); got != s {
			t.Errorf("%s changed the too-small screen", k)
		}
	}
	_, cmd := a.Update(keyMsg("q"))
	if cmd == nil {
		t.Fatal("q did not quit")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("q did not return tea.Quit")
	}
}

// everyPaneScreen visits every pane, drilled in once and twice, with help open, and returns
// every raw frame (styles included).
func everyPaneFrames(t *testing.T, a *App) []string {
	var frames []string
	for _, p := range []string{"1", "2", "3", "4", "5"} {
		press(a, p)
		frames = append(frames, a.View().Content)
		for _, k := range []string{"j", "enter", "j", "enter", "G", "esc", "esc"} {
			press(a, k)
			frames = append(frames, a.View().Content)
		}
	}
	press(a, "1", "c")
	frames = append(frames, a.View().Content)
	press(a, "esc", "?")
	frames = append(frames, a.View().Content)
	press(a, "?")
	return frames
}

// --ascii: no pane, drill-down level, overlay or bar draws a non-ASCII glyph (box drawing,
// blocks, arrows, bullets, ellipsis).
func TestASCIIEveryPane(t *testing.T) {
	a := appWith(t, servicesSnapshot(t), 120, 40, func(o *Options) { o.ASCII = true })
	for i, f := range everyPaneFrames(t, a) {
		for _, r := range ansi.Strip(f) {
			if r > 0x7e && r != '\u00a0' {
				t.Fatalf("frame %d has %q (U+%04X) with --ascii:\n%s", i, r, r, ansi.Strip(f))
			}
		}
	}
}

var sgr = regexp.MustCompile("\x1b\\[([0-9;:]*)m")

// sgrColours returns the colour parameters (foreground, background, underline colour) in s.
func sgrColours(s string) []string {
	var out []string
	for _, m := range sgr.FindAllStringSubmatch(s, -1) {
		ps := strings.FieldsFunc(m[1], func(r rune) bool { return r == ';' || r == ':' })
		for _, p := range ps {
			switch p {
			case "", "0", "1", "2", "3", "4", "7", "9", "21", "22", "23", "24", "27", "29":
				// reset, bold, faint, italic, underline, reverse, strike and their resets
			default:
				out = append(out, p)
			}
		}
	}
	return out
}

// NO_COLOR (Color false): no frame of any pane carries a colour code, only bold, faint and
// reverse; with colour on the same frames do carry colour (the check can fail).
func TestNoColorEveryPane(t *testing.T) {
	s := servicesSnapshot(t)
	a := appWith(t, s, 120, 40, func(o *Options) { o.Color = true })
	if c := sgrColours(strings.Join(everyPaneFrames(t, a), "\n")); len(c) == 0 {
		t.Fatal("colour on, but no colour codes: the check below would prove nothing")
	}
	a = appWith(t, s, 120, 40, func(o *Options) { o.Color = false })
	for i, f := range everyPaneFrames(t, a) {
		if c := sgrColours(f); len(c) > 0 {
			t.Fatalf("frame %d has colour codes %v with NO_COLOR:\n%q", i, c, f)
		}
		if i == 0 && !strings.Contains(f, "\x1b[") {
			t.Error("no styling at all with NO_COLOR: the cursor row needs reverse")
		}
	}
}

// ctrl+z suspends (tea.Suspend, on every pane and on the too-small screen); on resume the app
// clears and repaints the whole screen.
func TestSuspendResume(t *testing.T) {
	a := loadedApp(t, fxSvc, 120, 40)
	ctrlZ := tea.KeyPressMsg{Code: 'z', Mod: tea.ModCtrl}
	for _, p := range []string{"1", "2", "3", "4", "5"} {
		press(a, p)
		_, cmd := a.Update(ctrlZ)
		if cmd == nil {
			t.Fatalf("pane %s: ctrl+z returned no command", p)
		}
		if _, ok := cmd().(tea.SuspendMsg); !ok {
			t.Fatalf("pane %s: ctrl+z did not return tea.Suspend", p)
		}
	}
	before := screen(a)
	_, cmd := a.Update(tea.ResumeMsg{})
	if cmd == nil {
		t.Fatal("no repaint on resume")
	}
	if msg := cmd(); msg == nil || msg != tea.ClearScreen() {
		t.Fatalf("resume returned %T, want a clear-screen repaint", msg)
	}
	if screen(a) != before {
		t.Error("resume changed the screen's content")
	}
	a.Update(tea.WindowSizeMsg{Width: 40, Height: 12})
	if _, cmd := a.Update(ctrlZ); cmd == nil {
		t.Error("ctrl+z ignored on the too-small screen")
	}
}
