package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/ui/common"
	layoutui "github.com/hudiscope/hudiscope/ui/layout"
)

// keyStates are the focus states the keymap tests visit: every pane, and every drill-down,
// input and text view.
var keyStates = []struct {
	name string
	keys []string
}{
	{"overview", []string{"1"}},
	{"problems", []string{"2", "p"}},
	{"timeline", []string{"2"}},
	{"timeline-filter", []string{"2", "/"}},
	{"timeline-instant", []string{"2", "enter"}},
	{"timeline-instant-rows", []string{"2", "j", "enter", "r"}},
	{"timeline-instant-rows-find", []string{"2", "j", "enter", "r", "/"}},
	{"timeline-checkpoint", []string{"2", "c"}},
	{"timeline-gantt", []string{"2", "v"}},
	{"layout", []string{"3"}},
	{"layout-filter", []string{"3", "/"}},
	{"layout-partition", []string{"3", "enter"}},
	{"layout-filegroup", []string{"3", "enter", "enter"}},
	{"health", []string{"4"}},
	{"health-check", []string{"4", "enter"}},
	{"eventlog", []string{"5"}},
	{"eventlog-stage", []string{"5", "enter"}},
	{"eventlog-caveats", []string{"5", "w"}},
	{"eventlog-phases", []string{"5", "P"}},
	{"findings", []string{"6"}},
	{"findings-evidence", []string{"6", "enter"}},
	{"findings-filter", []string{"6", "/"}},
}

// fullSnapshot loads the table-services fixture with every input, so every pane has data.
func fullSnapshot(t *testing.T) *model.Snapshot {
	t.Helper()
	needFixture(t, fxServices+"/table.zip")
	s, err := model.Load(context.Background(), model.Options{Location: fxServices + "/table.zip",
		Props: fxServices + "/writer.properties", EventLog: eventLogIn(t, fxServices), ClusterDefaults: "-",
		Now: func() time.Time { return fixedNow }}, nil)
	if err != nil || s.Findings == nil || s.Layout == nil || s.Health == nil || s.EventLog == nil {
		t.Fatalf("load: %v %v", err, s.StepErrors)
	}
	return s
}

// keyTestApp is a fresh 80x24 app in state keys, exporting into a temporary directory.
func keyTestApp(t *testing.T, s *model.Snapshot, keys []string) *App {
	dir := t.TempDir()
	a := appWith(t, s, 80, 24, func(o *Options) { o.ExportDir = dir })
	press(a, keys...)
	return a
}

// msgFor is the message a key name (as key.Binding holds it) stands for.
func msgFor(t *testing.T, k string) tea.Msg {
	t.Helper()
	switch k {
	case "wheelup":
		return tea.MouseWheelMsg{Button: tea.MouseWheelUp}
	case "wheeldown":
		return tea.MouseWheelMsg{Button: tea.MouseWheelDown}
	}
	var mod tea.KeyMod
	name := k
	for _, m := range []struct {
		p string
		m tea.KeyMod
	}{{"ctrl+", tea.ModCtrl}, {"alt+", tea.ModAlt}, {"shift+", tea.ModShift}} {
		if rest, ok := strings.CutPrefix(name, m.p); ok && rest != "" {
			mod |= m.m
			name = rest
		}
	}
	codes := map[string]rune{"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "backspace": tea.KeyBackspace,
		"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight, "home": tea.KeyHome,
		"end": tea.KeyEnd, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "space": tea.KeySpace, "delete": tea.KeyDelete,
		"insert": tea.KeyInsert, "f1": tea.KeyF1}
	var m tea.KeyPressMsg
	if c, ok := codes[name]; ok {
		m = tea.KeyPressMsg{Code: c, Mod: mod}
		if name == "space" {
			m.Text = " "
		}
	} else if r := []rune(name); len(r) == 1 {
		m = tea.KeyPressMsg{Code: r[0], Mod: mod}
		if mod == 0 {
			m.Text = name
		}
	} else {
		t.Fatalf("no message for key %q", k)
	}
	if m.String() != k {
		t.Fatalf("key %q builds %q", k, m.String())
	}
	return m
}

// observe is everything a key can change: the screen, the status and hint bar, the pane and
// its focus, the overlay and the message line.
func observe(a *App) string {
	p := a.view()
	s := fmt.Sprint(screen(a), "|", a.active, a.help, a.probs != nil, a.message, p.Capturing(), p.Breadcrumb(), p.Status())
	if l, ok := p.(*layoutui.LayoutPane); ok {
		// h picks the histogram shown when both do not fit; the fixture's always fit.
		s += fmt.Sprint(l.HistPart)
	}
	return s
}

// handled presses k after pre in state and reports whether anything changed or a command came
// back (quit, suspend, export, a read).
func handled(t *testing.T, s *model.Snapshot, state, pre []string, k string) bool {
	a := keyTestApp(t, s, state)
	for _, k := range pre {
		_, cmd := a.Update(msgFor(t, k))
		run(a, cmd)
	}
	before := observe(a)
	_, cmd := a.Update(msgFor(t, k))
	if cmd != nil {
		return true
	}
	return observe(a) != before
}

// focusedKeys are the enabled bindings ? lists in a's current state: the focused view's, then
// the root's.
func focusedKeys(a *App) (own, global []key.Binding) {
	p := a.view()
	for _, g := range common.HelpGroups(paneKeys(p)) {
		own = append(own, g.Keys...)
	}
	for _, g := range a.keyGroups(p)[len(common.HelpGroups(paneKeys(p))):] {
		global = append(global, g.Keys...)
	}
	return own, global
}

// TestKeyMapPerPane walks each focus state's keymap: every key of every binding ? lists is
// handled (something changes or a command comes back), no key is bound twice, ? shows every
// binding, and every other key is ignored.
func TestKeyMapPerPane(t *testing.T) {
	s := fullSnapshot(t)
	// Candidate keys a pane might wrongly react to.
	var others []string
	for r := ' ' + 1; r < 0x7f; r++ {
		others = append(others, string(r))
	}
	others = append(others, "space", "enter", "esc", "tab", "backspace", "up", "down", "left", "right", "home", "end",
		"pgup", "pgdown", "delete", "insert", "f1", "ctrl+a", "ctrl+d", "ctrl+u", "ctrl+x", "alt+j", "shift+tab",
		"wheelup", "wheeldown")
	for _, st := range keyStates {
		t.Run(st.name, func(t *testing.T) {
			a := keyTestApp(t, s, st.keys)
			own, global := focusedKeys(a)
			if len(own) == 0 && len(st.keys) == 1 {
				t.Fatal("the pane declares no keys")
			}
			capturing := a.view().Capturing()
			bound := map[string]string{}
			for _, b := range append(append([]key.Binding(nil), own...), global...) {
				if !b.Enabled() {
					t.Errorf("? lists disabled binding %q", b.Help().Key)
				}
				for _, k := range b.Keys() {
					if prev, dup := bound[k]; dup {
						t.Errorf("key %q is bound twice: %q and %q", k, prev, b.Help().Desc)
					}
					bound[k] = b.Help().Desc
				}
			}
			if !capturing {
				press(a, "?")
				// The overlay scrolls when it does not fit: read every page.
				scr := screen(a)
				for i := 0; i < 60; i++ {
					prev := screen(a)
					press(a, "down")
					if screen(a) == prev {
						break
					}
					scr += screen(a)
				}
				for _, b := range append(append([]key.Binding(nil), own...), global...) {
					// At 80x24 a long description may wrap: its words are all there.
					if !strings.Contains(scr, b.Help().Key) || !containsWords(scr, b.Help().Desc) {
						t.Errorf("? does not list %q %q:\n%s", b.Help().Key, b.Help().Desc, scr)
					}
				}
			}
			for _, b := range own {
				for _, k := range b.Keys() {
					if strings.HasPrefix(k, "\x00label:") {
						continue // a legend entry listed under ?, not a key to press
					}
					ok := false
					for _, pre := range [][]string{nil, {"down"}, {"end"}} {
						if ok = handled(t, s, st.keys, pre, k); ok {
							break
						}
					}
					if !ok {
						t.Errorf("%q (%s) is in the keymap but changes nothing", k, b.Help().Desc)
					}
				}
			}
			if capturing {
				return // every other key is text
			}
			for _, k := range others {
				if _, isBound := bound[k]; isBound {
					continue
				}
				for _, pre := range [][]string{nil, {"down"}} {
					if handled(t, s, st.keys, pre, k) {
						t.Errorf("%q is in no keymap but the pane reacts to it (after %v)", k, pre)
					}
				}
			}
		})
	}
}

func containsWords(s, text string) bool {
	for _, w := range strings.Fields(text) {
		if !strings.Contains(s, w) {
			return false
		}
	}
	return true
}

// TestGlobalKeysHandled: every key of the root's keymap acts (from the Timeline; digits and
// esc need a state they change).
func TestGlobalKeysHandled(t *testing.T) {
	s := fullSnapshot(t)
	g := common.DefaultKeyMap().GlobalKeys
	for _, col := range g.FullHelp() {
		for _, b := range col {
			for _, k := range b.Keys() {
				ok := false
				for _, pre := range [][]string{nil, {"tab"}, {"/", "x", "enter"}} {
					if ok = handled(t, s, []string{"2"}, pre, k); ok {
						break
					}
				}
				if !ok {
					t.Errorf("global %q (%s) changes nothing", k, b.Help().Desc)
				}
			}
		}
	}
	// While an input has focus only ctrl+c and ctrl+z stay the root's.
	for _, col := range g.Capturing().FullHelp() {
		for _, b := range col {
			for _, k := range b.Keys() {
				if !handled(t, s, []string{"2", "/"}, nil, k) {
					t.Errorf("%q ignored while typing", k)
				}
			}
		}
	}
}

// TestHintsAreKeyMap: the hint bar shows only keys of the focused keymap or the root's.
func TestHintsAreKeyMap(t *testing.T) {
	s := fullSnapshot(t)
	for _, st := range keyStates {
		a := keyTestApp(t, s, st.keys)
		own, global := focusedKeys(a)
		known := map[string]bool{}
		for _, b := range append(own, global...) {
			known[b.Help().Key+b.Help().Desc] = true
		}
		for _, b := range a.hints(a.view()) {
			if !known[b.Help().Key+b.Help().Desc] {
				t.Errorf("%s: hint %q %q is in no keymap of the state", st.name, b.Help().Key, b.Help().Desc)
			}
		}
	}
}

// No handler in the package compares key strings: keys are matched with key.Matches against the
// keymaps, and no init function registers keys.
func TestNoRawKeyStrings(t *testing.T) {
	raw := regexp.MustCompile(`\.String\(\)\s*(==|!=)|switch\s+[\w.]+\.String\(\)|func init\(\)`)
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(string(b), "\n") {
			if raw.MatchString(l) {
				t.Errorf("%s:%d: %s", f, i+1, strings.TrimSpace(l))
			}
		}
	}
}

// TestAltDigitSwitchesPane: esc then a digit typed quickly reaches the explorer as alt+digit;
// from every other pane, alt+N shows pane N as N does (it did nothing before).
func TestAltDigitSwitchesPane(t *testing.T) {
	s := fullSnapshot(t)
	a := keyTestApp(t, s, []string{"1"})
	names := []string{"Overview", "Timeline", "Layout", "Health", "Event log", "Findings"}
	for i, name := range names {
		from := (i + 1) % len(names)
		press(a, string(rune('1'+from)))
		if a.active != from {
			t.Fatalf("digit %d: active %d", from+1, a.active)
		}
		_, cmd := a.Update(tea.KeyPressMsg{Code: rune('1' + i), Mod: tea.ModAlt})
		run(a, cmd)
		if a.active != i || a.view().Title() != name {
			t.Errorf("alt+%d from %s: pane %d %q, want %d %q", i+1, names[from], a.active, a.view().Title(), i, name)
		}
	}
	// The help overlay still names the digit.
	if k := common.DefaultKeyMap().Pane[2]; k.Help().Key != "3" || strings.Join(k.Keys(), ",") != "3,alt+3" {
		t.Errorf("pane 3 binding: help %q keys %v", k.Help().Key, k.Keys())
	}
}
