package ui

import (
	"charm.land/bubbles/v2/key"
)

// KeyMap is every key the explorer understands. The help overlay (?) is generated from it,
// so a binding added here shows up there.
type KeyMap struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	Enter, Back                             key.Binding
	NextPane, PrevPane                      key.Binding
	Pane                                    [5]key.Binding
	Help, Filter, Export, Report, Quit      key.Binding
	Suspend                                 key.Binding // ctrl+z: back to the shell (fg resumes)

	// Timeline pane.
	Order, Checkpoint, Sort, Table key.Binding
	// Checkpoint helper.
	TakeInstant key.Binding
}

// DefaultKeyMap is the standard key set.
func DefaultKeyMap() KeyMap {
	k := KeyMap{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "ctrl+u", "b"), key.WithHelp("pgup/ctrl+u", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "ctrl+d", "f", "space"), key.WithHelp("pgdn/ctrl+d", "page down")),
		Top:      key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g/home", "first row")),
		Bottom:   key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G/end", "last row")),
		Enter:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open / drill down")),
		Back:     key.NewBinding(key.WithKeys("esc", "backspace"), key.WithHelp("esc", "back")),
		NextPane: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next pane")),
		PrevPane: key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous pane")),
		Help:     key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Filter:   key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		Export:   key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "export pane as Markdown")),
		Report:   key.NewBinding(key.WithKeys("E"), key.WithHelp("E", "full report as Markdown")),
		Quit:     key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		Suspend:  key.NewBinding(key.WithKeys("ctrl+z"), key.WithHelp("ctrl+z", "suspend (fg resumes)")),

		Order:       key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "order: completion/requested")),
		Checkpoint:  key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "checkpoint helper")),
		Sort:        key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "sort column (instant detail)")),
		Table:       key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "next table (instant detail)")),
		TakeInstant: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "take selected instant")),
	}
	names := [5]string{"Timeline", "Layout", "Health", "Event log", "Findings"}
	for i := range k.Pane {
		d := string(rune('1' + i))
		k.Pane[i] = key.NewBinding(key.WithKeys(d), key.WithHelp(d, names[i]))
	}
	return k
}

// asciiHelp replaces arrow glyphs in help labels (--ascii).
func (k *KeyMap) asciiHelp() {
	k.Up.SetHelp("up/k", k.Up.Help().Desc)
	k.Down.SetHelp("down/j", k.Down.Help().Desc)
}

// HelpGroup is one titled column of the help overlay.
type HelpGroup struct {
	Title string
	Keys  []key.Binding
}

// Groups lists every binding by purpose, for the help overlay.
func (k KeyMap) Groups() []HelpGroup {
	return []HelpGroup{
		{"Move", []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}},
		{"Panes", []key.Binding{k.NextPane, k.PrevPane, k.Pane[0], k.Pane[1], k.Pane[2], k.Pane[3], k.Pane[4]}},
		{"Actions", []key.Binding{k.Enter, k.Back, k.Filter, k.Export, k.Report, k.Help, k.Quit, k.Suspend}},
		{"Timeline", []key.Binding{k.Order, k.Checkpoint, k.Sort, k.Table}},
		{"Checkpoint helper", []key.Binding{k.TakeInstant}},
	}
}
