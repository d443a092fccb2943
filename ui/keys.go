package ui

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
	Nav   navKeys
	Input inputKeys
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
	// Problems opens the problems view (the status line's badge).
	Copy, Zone, Problems key.Binding
}

// navKeys move a list cursor or scroll a text view.
type navKeys struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	Wheel                                   key.Binding // mouse wheel (tea.MouseWheelMsg)
}

// inputKeys move what is under a focused text input: letters are text there.
type inputKeys struct {
	Up, Down, PageUp, PageDown key.Binding
}

func bind(help, desc string, keys ...string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
}

// DefaultKeyMap is the standard key set.
func DefaultKeyMap() KeyMap {
	k := KeyMap{
		GlobalKeys: GlobalKeys{
			NextPane:  bind("tab", "next pane", "tab"),
			PrevPane:  bind("shift+tab", "previous pane", "shift+tab"),
			Help:      bind("?", "help", "?"),
			Back:      bind("esc", "back / clear filter", "esc", "backspace"),
			Export:    bind("e", "export pane as Markdown", "e"),
			Report:    bind("E", "full report as Markdown", "E"),
			Quit:      bind("q", "quit", "q"),
			ForceQuit: bind("ctrl+c", "quit, even while typing", "ctrl+c"),
			Suspend:   bind("ctrl+z", "suspend (fg resumes)", "ctrl+z"),
			Copy:      bind("y", "copy focused value", "y"),
			Zone:      bind("z", "time zone / raw (cycle)", "z"),
			Problems:  bind("p", "problems (open/close)", "p"),
		},
		Nav: navKeys{
			Up:       bind("↑/k", "up", "up", "k"),
			Down:     bind("↓/j", "down", "down", "j"),
			PageUp:   bind("pgup/ctrl+u", "page up", "pgup", "ctrl+u", "b"),
			PageDown: bind("pgdn/ctrl+d", "page down", "pgdown", "ctrl+d", "f", "space"),
			Top:      bind("g/home", "first row", "home", "g"),
			Bottom:   bind("G/end", "last row", "end", "G"),
			Wheel:    bind("wheel", "scroll", "wheelup", "wheeldown"),
		},
		Input: inputKeys{
			Up:       bind("up", "up", "up"),
			Down:     bind("down", "down", "down"),
			PageUp:   bind("pgup", "page up", "pgup"),
			PageDown: bind("pgdown", "page down", "pgdown"),
		},
		Open:   bind("enter", "open / drill down", "enter"),
		Filter: bind("/", "filter", "/"),
		Sort:   bind("s", "sort", "s"),
		Keep:   bind("enter", "keep filter", "enter"),
		Clear:  bind("esc", "clear", "esc"),
	}
	names := [6]string{"Overview", "Timeline", "Layout", "Health", "Event log", "Findings"}
	for i := range k.Pane {
		d := string(rune('1' + i))
		// Esc then a digit typed quickly arrives as alt+digit (bubbletea v2 reads ESC x as alt+x):
		// it switches panes like the digit instead of doing nothing.
		k.Pane[i] = bind(d, names[i], d, "alt+"+d)
	}
	return k
}

// asciiHelp replaces arrow glyphs in help labels (--ascii).
func (k *KeyMap) asciiHelp() {
	k.Nav.Up.SetHelp("up/k", k.Nav.Up.Help().Desc)
	k.Nav.Down.SetHelp("down/j", k.Nav.Down.Help().Desc)
}

// HelpGroup is one titled column of the help overlay.
type HelpGroup struct {
	Title string
	Keys  []key.Binding
}

// Groups lists the global bindings by purpose (the overlay adds the focused view's).
func (k KeyMap) Groups() []HelpGroup { return helpGroups(k.GlobalKeys) }

func (g GlobalKeys) ShortHelp() []key.Binding {
	return []key.Binding{g.Help, g.NextPane, g.Export, g.Report, g.Quit}
}

func (g GlobalKeys) FullHelp() [][]key.Binding {
	panes := []key.Binding{g.NextPane, g.PrevPane}
	panes = append(panes, g.Pane[:]...)
	return [][]key.Binding{panes, {g.Back, g.Help, g.Copy, g.Zone, g.Problems, g.Export, g.Report, g.Quit, g.ForceQuit, g.Suspend}}
}

func (g GlobalKeys) helpTitles() []string { return []string{"Panes", "Actions"} }

// capturing is what the root still handles while a text input has focus.
func (g GlobalKeys) capturing() help.KeyMap {
	return keyColumns{titles: []string{"Always"}, cols: [][]key.Binding{{g.ForceQuit, g.Suspend}}}
}

func (k navKeys) all() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Wheel}
}

// when enables the movement keys only if on holds (there is somewhere to move).
func (k navKeys) when(on bool) navKeys {
	for _, b := range []*key.Binding{&k.Up, &k.Down, &k.PageUp, &k.PageDown, &k.Top, &k.Bottom, &k.Wheel} {
		b.SetEnabled(on)
	}
	return k
}

// pagerKeys are a scrolling text view's keys.
type pagerKeys struct{ navKeys }

func (k pagerKeys) ShortHelp() []key.Binding  { return []key.Binding{k.Up, k.Down} }
func (k pagerKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.all()} }
func (k pagerKeys) helpTitles() []string      { return []string{"Scroll"} }

// filterKeys are the / filter input's keys; everything else is text.
type filterKeys struct {
	Keep, Clear key.Binding
	inputKeys
	Wheel key.Binding
}

func (k KeyMap) filterKeys() filterKeys {
	return filterKeys{Keep: k.Keep, Clear: k.Clear, inputKeys: k.Input, Wheel: k.Nav.Wheel}
}

func (k filterKeys) ShortHelp() []key.Binding { return []key.Binding{k.Keep, k.Clear} }
func (k filterKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Keep, k.Clear}, {k.Up, k.Down, k.PageUp, k.PageDown, k.Wheel}}
}
func (k filterKeys) helpTitles() []string { return []string{"Filter (type to match)", "Move"} }

// keyColumns is a fixed help.KeyMap (panes without keys of their own, the capturing root).
type keyColumns struct {
	titles []string
	cols   [][]key.Binding
}

func (k keyColumns) ShortHelp() []key.Binding {
	if len(k.cols) == 0 {
		return nil
	}
	return k.cols[0]
}
func (k keyColumns) FullHelp() [][]key.Binding { return k.cols }
func (k keyColumns) helpTitles() []string      { return k.titles }

// keyMapper is implemented by panes that expose their keys; the root reads the focused view's
// map for the ? overlay. Other panes get a column built from Help.
type keyMapper interface {
	KeyMap() help.KeyMap
}

// enabled drops the bindings disabled in the current state.
func enabled(bs ...key.Binding) []key.Binding {
	out := make([]key.Binding, 0, len(bs))
	for _, b := range bs {
		if b.Enabled() {
			out = append(out, b)
		}
	}
	return out
}

// when returns b enabled only if on holds: the view handles it in this state.
func when(b key.Binding, on bool) key.Binding {
	b.SetEnabled(on)
	return b
}

// helpGroups are a keymap's enabled FullHelp columns with their titles.
func helpGroups(k help.KeyMap) []HelpGroup {
	var titles []string
	if t, ok := k.(interface{ helpTitles() []string }); ok {
		titles = t.helpTitles()
	}
	var out []HelpGroup
	for i, col := range k.FullHelp() {
		col = enabled(col...)
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
