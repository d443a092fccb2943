package common

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
)

// KeyMap holds the bindings the root and every list share, each declared once here; keys only
// one pane or sub-view uses are declared beside it (timelineKeys, layoutKeys, ...). Every view
// exposes its keys as a help.KeyMap with the bindings its Update does not handle in the current
// state disabled, so Update (key.Matches), the ? overlay and the hint bar read the same values.
type KeyMap struct {
	GlobalKeys
	Nav   NavKeys
	Input InputKeys
	// Lists.
	Open, Filter, Sort key.Binding
	// The / filter input.
	Keep, Clear key.Binding
}

// GlobalKeys are handled by the root whatever the pane. While a text input has focus only
// ForceQuit and Suspend are; every other key is the input's.
type GlobalKeys struct {
	NextPane, PrevPane                                   key.Binding
	Pane                                                 [6]key.Binding
	Help, Back, Export, Report, Quit, ForceQuit, Suspend key.Binding
	// Copy puts the focused value on the clipboard (OSC 52); Zone cycles how times are shown;
	// Problems opens the problems view (the status line's badge); Trends the trends view.
	Copy, Zone, Problems, Trends key.Binding
}

// NavKeys move a list cursor or scroll a text view.
type NavKeys struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	Wheel                                   key.Binding // mouse wheel (tea.MouseWheelMsg)
}

// InputKeys move what is under a focused text input: letters are text there.
type InputKeys struct {
	Up, Down, PageUp, PageDown key.Binding
}

func Bind(help, desc string, keys ...string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
}

// DefaultKeyMap is the standard key set.
func DefaultKeyMap() KeyMap {
	k := KeyMap{
		GlobalKeys: GlobalKeys{
			NextPane:  Bind("tab", "next pane", "tab"),
			PrevPane:  Bind("shift+tab", "previous pane", "shift+tab"),
			Help:      Bind("?", "help", "?"),
			Back:      Bind("esc", "back / clear filter", "esc", "backspace"),
			Export:    Bind("e", "export pane as Markdown", "e"),
			Report:    Bind("E", "full report as Markdown", "E"),
			Quit:      Bind("q", "quit", "q"),
			ForceQuit: Bind("ctrl+c", "quit, even while typing", "ctrl+c"),
			Suspend:   Bind("ctrl+z", "suspend (fg resumes)", "ctrl+z"),
			Copy:      Bind("y", "copy focused value", "y"),
			Zone:      Bind("z", "time zone / raw (cycle)", "z"),
			Problems:  Bind("p", "problems (open/close)", "p"),
			Trends:    Bind("T", "trends (open/close)", "T"),
		},
		Nav: NavKeys{
			Up:       Bind("↑/k", "up", "up", "k"),
			Down:     Bind("↓/j", "down", "down", "j"),
			PageUp:   Bind("pgup/ctrl+u", "page up", "pgup", "ctrl+u", "b"),
			PageDown: Bind("pgdn/ctrl+d", "page down", "pgdown", "ctrl+d", "f", "space"),
			Top:      Bind("g/home", "first row", "home", "g"),
			Bottom:   Bind("G/end", "last row", "end", "G"),
			Wheel:    Bind("wheel", "scroll", "wheelup", "wheeldown"),
		},
		Input: InputKeys{
			Up:       Bind("up", "up", "up"),
			Down:     Bind("down", "down", "down"),
			PageUp:   Bind("pgup", "page up", "pgup"),
			PageDown: Bind("pgdown", "page down", "pgdown"),
		},
		Open:   Bind("enter", "open / drill down", "enter"),
		Filter: Bind("/", "filter", "/"),
		Sort:   Bind("s", "sort", "s"),
		Keep:   Bind("enter", "keep filter", "enter"),
		Clear:  Bind("esc", "clear", "esc"),
	}
	names := [6]string{"Overview", "Timeline", "Layout", "Health", "Event log", "Findings"}
	for i := range k.Pane {
		d := string(rune('1' + i))
		// Esc then a digit typed quickly arrives as alt+digit (bubbletea v2 reads ESC x as alt+x):
		// it switches panes like the digit instead of doing nothing.
		k.Pane[i] = Bind(d, names[i], d, "alt+"+d)
	}
	return k
}

// AsciiHelp replaces arrow glyphs in help labels (--ascii).
func (k *KeyMap) AsciiHelp() {
	k.Nav.Up.SetHelp("up/k", k.Nav.Up.Help().Desc)
	k.Nav.Down.SetHelp("down/j", k.Nav.Down.Help().Desc)
}

// HelpGroup is one titled column of the help overlay.
type HelpGroup struct {
	Title string
	Keys  []key.Binding
}

// Groups lists the global bindings by purpose (the overlay adds the focused view's).
func (k KeyMap) Groups() []HelpGroup { return HelpGroups(k.GlobalKeys) }

func (g GlobalKeys) ShortHelp() []key.Binding {
	return []key.Binding{g.Help, g.NextPane, g.Export, g.Report, g.Quit}
}

func (g GlobalKeys) FullHelp() [][]key.Binding {
	// tab and shift+tab share a line (the two bindings' keys), so the trends view's T fits
	// the overlay at 80x24 as before.
	cycle := Bind(g.NextPane.Help().Key+"/"+g.PrevPane.Help().Key, "next / previous pane",
		append(g.NextPane.Keys(), g.PrevPane.Keys()...)...)
	panes := append([]key.Binding{cycle}, g.Pane[:]...)
	panes = append(panes, g.Trends) // a view over the pane, as a pane is one
	return [][]key.Binding{panes, {g.Back, g.Help, g.Copy, g.Zone, g.Problems, g.Export, g.Report, g.Quit, g.ForceQuit, g.Suspend}}
}

func (g GlobalKeys) HelpTitles() []string { return []string{"Panes", "Actions"} }

// Capturing is what the root still handles while a text input has focus.
func (g GlobalKeys) Capturing() help.KeyMap {
	return KeyColumns{Titles: []string{"Always"}, Cols: [][]key.Binding{{g.ForceQuit, g.Suspend}}}
}

func (k NavKeys) All() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Wheel}
}

// When enables the movement keys only if on holds (there is somewhere to move).
func (k NavKeys) When(on bool) NavKeys {
	for _, b := range []*key.Binding{&k.Up, &k.Down, &k.PageUp, &k.PageDown, &k.Top, &k.Bottom, &k.Wheel} {
		b.SetEnabled(on)
	}
	return k
}

// PagerKeys are a scrolling text view's keys.
type PagerKeys struct{ NavKeys }

func (k PagerKeys) ShortHelp() []key.Binding  { return []key.Binding{k.Up, k.Down} }
func (k PagerKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.All()} }
func (k PagerKeys) HelpTitles() []string      { return []string{"Scroll"} }

// FilterKeys are the / filter input's keys; everything else is text.
type FilterKeys struct {
	Keep, Clear key.Binding
	InputKeys
	Wheel key.Binding
}

func (k KeyMap) FilterKeys() FilterKeys {
	return FilterKeys{Keep: k.Keep, Clear: k.Clear, InputKeys: k.Input, Wheel: k.Nav.Wheel}
}

func (k FilterKeys) ShortHelp() []key.Binding { return []key.Binding{k.Keep, k.Clear} }
func (k FilterKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Keep, k.Clear}, {k.Up, k.Down, k.PageUp, k.PageDown, k.Wheel}}
}
func (k FilterKeys) HelpTitles() []string { return []string{"Filter (type to match)", "Move"} }

// KeyColumns is a fixed help.KeyMap (panes without keys of their own, the capturing root).
type KeyColumns struct {
	Titles []string
	Cols   [][]key.Binding
}

func (k KeyColumns) ShortHelp() []key.Binding {
	if len(k.Cols) == 0 {
		return nil
	}
	return k.Cols[0]
}
func (k KeyColumns) FullHelp() [][]key.Binding { return k.Cols }
func (k KeyColumns) HelpTitles() []string      { return k.Titles }

// KeyMapper is implemented by panes that expose their keys; the root reads the focused view's
// map for the ? overlay. Other panes get a column built from Help.
type KeyMapper interface {
	KeyMap() help.KeyMap
}

// Enabled drops the bindings disabled in the current state.
func Enabled(bs ...key.Binding) []key.Binding {
	out := make([]key.Binding, 0, len(bs))
	for _, b := range bs {
		if b.Enabled() {
			out = append(out, b)
		}
	}
	return out
}

// When returns b enabled only if on holds: the view handles it in this state.
func When(b key.Binding, on bool) key.Binding {
	b.SetEnabled(on)
	return b
}

// HelpGroups are a keymap's enabled FullHelp columns with their titles.
func HelpGroups(k help.KeyMap) []HelpGroup {
	var titles []string
	if t, ok := k.(interface{ HelpTitles() []string }); ok {
		titles = t.HelpTitles()
	}
	var out []HelpGroup
	for i, col := range k.FullHelp() {
		col = Enabled(col...)
		if len(col) == 0 {
			continue
		}
		title := "Keys"
		if i < len(titles) {
			title = titles[i]
		}
		out = append(out, HelpGroup{Title: title, Keys: col})
	}
	return out
}
