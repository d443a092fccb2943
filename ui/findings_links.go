package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// Focus selects the finding a jump names by id (closing an open finding); a jump without one
// only shows the pane.
func (p *Findings) Focus(j jumpMsg) bool {
	if j.Finding == "" {
		return true
	}
	if p.res == nil {
		return false
	}
	for si, li := range p.sel {
		if f := p.lines[li].f; f != nil && strings.EqualFold(f.ID, j.Finding) {
			p.detail, p.cursor = nil, si
			p.reflow()
			return true
		}
	}
	return false
}

// Click selects the finding on body line y; headings and text lines do nothing.
func (p *Findings) Click(y int) tea.Cmd {
	if p.res == nil || p.detail != nil || y < 0 {
		return nil
	}
	view := p.listLines(p.width)
	if i := p.top + y; i < len(view) && y < p.height && view[i].sel >= 0 {
		p.cursor = view[i].sel
		p.reflow()
	}
	return nil
}

// CopyValue is the focused (or open) finding's change as key=value lines, one per key it
// recommends setting to a value; a finding without one copies its id.
func (p *Findings) CopyValue() (string, string, bool) {
	f := p.detail
	if f == nil {
		f = p.selected()
	}
	if f == nil {
		return "", "", false
	}
	var kv []string
	for _, k := range f.Keys {
		if k.To != "" && !k.Inert {
			kv = append(kv, k.Key+"="+k.To)
		}
	}
	if len(kv) > 0 {
		return "change", strings.Join(kv, "\n"), true
	}
	return "finding", f.ID, true
}
