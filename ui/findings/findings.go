// Package findings is the explorer's Findings pane: the catalog's findings, an open finding's
// evidence and the links in it.
package findings

import (
	"fmt"
	"sort"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/hudiscope/hudiscope/analyzers/findings"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
	"github.com/hudiscope/hudiscope/ui/common"
)

// fLine is one line of the Findings list: a heading or text (f nil) or a selectable finding.
type fLine struct {
	text string
	head bool
	F    *findings.Finding
}

// Findings is pane 5: the optimization catalogs' findings in the catalog's output order
// (inputs and confidence, where the time went, observations by payoff, capability candidates,
// durable findings refused, what is missing). Enter opens a finding's evidence: every field
// path and value that fired it, the inputs that agreed, the change and the verification step.
type Findings struct {
	c      *common.Common
	km     findingsKeys
	snap   *model.Snapshot
	res    *findings.Result
	Lines  []fLine
	Sel    []int // indexes of selectable lines
	Cursor int   // index into sel
	Top    int
	// Past is how far the list is scrolled below the last finding, so the text after it (what
	// is missing, the labels' legend) can be read; moving up takes it back first.
	Past int

	Detail *findings.Finding
	text   *common.Pager // the open finding's evidence
	ekm    evidenceKeys
	// Targets are the open finding's linked Markdown lines; links their screen lines (reflow);
	// link is the selected one.
	Targets []evTarget
	Links   []evLink
	Link    int

	// All are the findings in the catalog's order; order filters and sorts them (the list
	// keeps its sections, each showing its findings in order's order).
	All   []*findings.Finding
	Order *common.ListView

	Width, Height int
}

// findingsKeys are the findings list's keys.
type findingsKeys struct {
	common.NavKeys
	Open, Filter, Sort key.Binding
}

func (k findingsKeys) ShortHelp() []key.Binding {
	return common.Enabled(k.Up, k.Down, k.Open, k.Filter, k.Sort)
}
func (k findingsKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.All(), {k.Open, k.Filter, k.Sort}, labelBindings()}
}
func (k findingsKeys) HelpTitles() []string { return []string{"Move", "Findings", "Labels"} }

// labelBindings show the status and risk words in ? (a key that no press matches).
func labelBindings() []key.Binding {
	var out []key.Binding
	for _, l := range findings.Labels() {
		out = append(out, key.NewBinding(key.WithKeys("\x00label:"+l.Word), key.WithHelp(l.Word, l.Short)))
	}
	return out
}

// NewFindings makes the Findings pane.
func NewFindings(c *common.Common) *Findings {
	return &Findings{c: c, km: findingsKeys{Open: c.Keys.Open}, ekm: newEvidenceKeys(c), text: common.NewPager()}
}

// KeyMap is the focused view's keys: a finding's evidence or the list.
func (p *Findings) KeyMap() help.KeyMap {
	switch {
	case p.res == nil:
		return common.KeyColumns{}
	case p.Detail != nil:
		return p.EvKeys()
	case p.Order != nil && p.Order.Filtering:
		return p.c.Keys.FilterKeys()
	}
	k := p.km
	k.NavKeys = p.c.Keys.Nav.When(len(p.Sel) > 1)
	k.Open = common.When(k.Open, p.Selected() != nil)
	k.Filter = common.When(p.c.Keys.Filter, len(p.All) > 0)
	k.Sort = common.When(p.c.Keys.Sort, len(p.All) > 1)
	return k
}

func (p *Findings) Title() string        { return "Findings" }
func (p *Findings) SetSize(w, h int)     { p.Width, p.Height = w, h; p.Reflow() }
func (p *Findings) Capturing() bool      { return p.Order != nil && p.Order.Filtering && p.Detail == nil }
func (p *Findings) Breadcrumb() []string { return p.crumb() }
func (p *Findings) Selected() *findings.Finding {
	if p.Cursor >= 0 && p.Cursor < len(p.Sel) {
		return p.Lines[p.Sel[p.Cursor]].F
	}
	return nil
}

func (p *Findings) crumb() []string {
	if p.Detail != nil {
		return []string{p.Detail.ID}
	}
	return nil
}

// SetSnapshot rebuilds the list when the snapshot carries new findings.
func (p *Findings) SetSnapshot(s *model.Snapshot) tea.Cmd {
	p.snap = s
	if s == nil || s.Findings == p.res {
		return nil
	}
	p.res = s.Findings
	p.Detail = nil
	p.newOrder()
	p.build()
	p.Reflow()
	return nil
}

// LacksInputs: a hypothesis that needs an input that was not given (it sorts below the
// findings whose inputs are all there).
func LacksInputs(f *findings.Finding) bool { return len(f.Missing) > 0 }

// newOrder makes the filter and sort over every finding: natural order is the catalog's with
// the findings that lack inputs last; every sort keeps those last too.
func (p *Findings) newOrder() {
	p.All, p.Order = nil, nil
	r := p.res
	if r == nil {
		return
	}
	p.All = append(append(append(append(append(p.All, r.Observations()...), r.Stopped()...), r.Capabilities()...), r.Durable()...), r.Withheld()...)
	fs := p.All
	last := func(i int) string {
		if LacksInputs(fs[i]) {
			return "1"
		}
		return "0"
	}
	txt := func(get func(f *findings.Finding) string) func(i int) string {
		return func(i int) string { return last(i) + strings.ToLower(get(fs[i])) }
	}
	cols := []common.LvCol{
		{Title: "id", Txt: txt(func(f *findings.Finding) string { return f.ID })},
		{Title: "status", Txt: txt(func(f *findings.Finding) string { return f.Status })},
		{Title: "risk", Txt: txt(func(f *findings.Finding) string { return f.Risk })},
		{Title: "title", Txt: txt(func(f *findings.Finding) string { return f.Title })},
	}
	p.Order = common.NewListView(cols, len(fs), func(i, c int) string { return "" }, func(i int) string {
		f := fs[i]
		return strings.Join([]string{f.ID, f.Kind, f.Theme, f.Status, f.Risk, f.Title, f.Subject}, " ")
	})
	for i := range fs {
		if !LacksInputs(fs[i]) {
			p.Order.Base = append(p.Order.Base, i)
		}
	}
	for i := range fs {
		if LacksInputs(fs[i]) {
			p.Order.Base = append(p.Order.Base, i)
		}
	}
	p.Order.Apply(-1)
}

// rebuild lays the list out again for the filter and order, keeping the selected finding.
func (p *Findings) rebuild() {
	keep := p.Selected()
	p.build()
	for si, li := range p.Sel {
		if p.Lines[li].F == keep {
			p.Cursor = si
		}
	}
}

func (p *Findings) build() {
	p.Lines, p.Sel, p.Cursor, p.Top, p.Past = nil, nil, 0, 0, 0
	r := p.res
	if r == nil {
		return
	}
	rank := map[*findings.Finding]int{}
	if p.Order != nil {
		for pos, i := range p.Order.Visible() {
			rank[p.All[i]] = pos
		}
	}
	// shown are a section's findings that pass the filter, in the chosen order.
	shown := func(fs []*findings.Finding) []*findings.Finding {
		var out []*findings.Finding
		for _, f := range fs {
			if _, ok := rank[f]; ok {
				out = append(out, f)
			}
		}
		sort.SliceStable(out, func(a, b int) bool { return rank[out[a]] < rank[out[b]] })
		return out
	}
	add := func(l fLine) {
		if l.F != nil {
			p.Sel = append(p.Sel, len(p.Lines))
		}
		p.Lines = append(p.Lines, l)
	}
	head := func(s string) { add(fLine{text: s, head: true}) }
	text := func(s string) { add(fLine{text: s}) }
	head("Inputs and confidence")
	text(r.Inputs.Statement)
	if len(r.Release.Lines) > 0 {
		text("Keys and defaults as " + r.Release.Words() + " writes them.")
	}
	text("Status and risk words are explained at the end of this list and under ?.")
	text("")
	head("Where the time went")
	if r.Time == nil {
		text("No event log: the phase breakdown is unavailable.")
	} else {
		if r.Time.Lead != "" {
			text(r.Time.Lead)
		}
		text("Phases, hudiscope's attribution (the Java tool's where it differs):")
		for _, ph := range r.Time.Phases {
			l := fmt.Sprintf("  %-26s %6.1f%%", ph.Phase, ph.Share*100)
			if fmt.Sprintf("%.1f", ph.Share*100) != fmt.Sprintf("%.1f", ph.JavaShare*100) {
				l += fmt.Sprintf("  (Java tool: %.1f%%)", ph.JavaShare*100)
			}
			text(l)
		}
	}
	text("")
	head("Observations, by payoff")
	for _, m := range r.Misspellings {
		text(fmt.Sprintf("%s this key does nothing: %s — did you mean %s?", p.c.Styles.G.Warn, m.Key, m.Suggest))
	}
	for _, k := range r.ReleaseKeys {
		text(fmt.Sprintf("%s %s.", p.c.Styles.G.Warn, k.Says))
	}
	// list adds a section's findings, or says the filter hides them all.
	list := func(fs []*findings.Finding) {
		sh := shown(fs)
		if len(sh) == 0 && len(fs) > 0 {
			text("No finding here matches the filter.")
		}
		for _, f := range sh {
			add(fLine{F: f})
		}
	}
	obs := r.Observations()
	if len(obs) == 0 {
		text("No observation fired.")
	}
	list(append(append([]*findings.Finding(nil), obs...), r.Stopped()...))
	text("")
	head("Capability candidates (signals for and against)")
	list(r.Capabilities())
	text("")
	head("Durable findings, refused")
	dur := r.Durable()
	if len(dur) == 0 {
		text("None.")
	}
	list(dur)
	if wh := r.Withheld(); len(wh) > 0 {
		text("")
		head("Withheld (broke a report invariant; not advice)")
		list(wh)
	}
	text("")
	head("What is missing")
	if len(r.Missing) == 0 {
		text("Nothing: all three inputs were present (query evidence is never in write-side inputs).")
	}
	for _, m := range r.Missing {
		text(fmt.Sprintf("%s: %s", m.Input, m.Unlocks))
		for _, s := range m.Settles {
			text("  " + s)
		}
	}
	text("")
	head("What the labels mean")
	for _, l := range findings.Labels() {
		text(fmt.Sprintf("%-14s %s", l.Word, l.Short))
	}
}

func (p *Findings) Update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	switch k := p.KeyMap().(type) {
	case evidenceKeys:
		cmd = p.updateEvidence(k, msg)
	case common.FilterKeys:
		p.updateFilter(k, msg)
	case findingsKeys:
		p.Handle(k, msg)
	}
	p.Reflow()
	return cmd
}

func (p *Findings) Handle(k findingsKeys, msg tea.Msg) {
	switch msg := msg.(type) {
	case tea.MouseWheelMsg:
		if key.Matches(msg, k.Wheel) {
			if msg.Button == tea.MouseWheelUp {
				p.move(-3)
			} else {
				p.move(3)
			}
		}
	case tea.KeyPressMsg:
		page := max(1, p.Height-2)
		switch {
		case key.Matches(msg, k.Up):
			p.move(-1)
		case key.Matches(msg, k.Down):
			p.move(1)
		case key.Matches(msg, k.PageUp):
			p.move(-page)
		case key.Matches(msg, k.PageDown):
			p.move(page)
		case key.Matches(msg, k.Top):
			p.Past = 0
			p.move(-len(p.Sel))
		case key.Matches(msg, k.Bottom):
			p.move(len(p.Sel))
			p.Past = len(p.Lines) * 4 // the end of the text, legend included (reflow clamps)
		case key.Matches(msg, k.Open):
			p.Open(p.Selected())
		case key.Matches(msg, k.Sort):
			p.Order.CycleSort()
			p.build() // a new order starts at its first finding
		case key.Matches(msg, k.Filter):
			p.Order.Filtering = true
			p.Order.Input.SetValue(p.Order.Filter)
			p.Order.Input.CursorEnd()
		}
	}
}

// updateFilter: the filter input has focus; keys other than the filter's own are text.
func (p *Findings) updateFilter(k common.FilterKeys, msg tea.Msg) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		page := max(1, p.Height-3)
		switch {
		case key.Matches(msg, k.Keep):
			p.Order.Filtering = false
		case key.Matches(msg, k.Clear):
			p.Order.CloseFilter()
			p.rebuild()
		case key.Matches(msg, k.Up):
			p.move(-1)
		case key.Matches(msg, k.Down):
			p.move(1)
		case key.Matches(msg, k.PageUp):
			p.move(-page)
		case key.Matches(msg, k.PageDown):
			p.move(page)
		default:
			p.editFilter(msg)
		}
	case tea.PasteMsg:
		p.editFilter(msg)
	case tea.MouseWheelMsg:
		if key.Matches(msg, k.Wheel) {
			if msg.Button == tea.MouseWheelUp {
				p.move(-3)
			} else {
				p.move(3)
			}
		}
	}
}

func (p *Findings) editFilter(msg tea.Msg) {
	before := p.Order.Filter
	p.Order.Edit(msg)
	if p.Order.Filter != before {
		p.rebuild()
	}
}

// Footer is the filter line: the input while typing, the applied filter, or nothing.
func (p *Findings) Footer(width int) []string {
	if p.Order == nil || p.Detail != nil {
		return nil
	}
	p.Order.SizeFooter(width, "findings")
	if f := p.Order.Footer(p.c, width, "findings"); f != "" {
		return []string{f}
	}
	return nil
}

func (p *Findings) move(d int) {
	if len(p.Sel) == 0 {
		return
	}
	last := len(p.Sel) - 1
	switch {
	case d > 0 && p.Cursor == last:
		p.Past += d // reflow clamps it to the text below
	case d < 0 && p.Past > 0:
		p.Past = max(0, p.Past+d)
	default:
		p.Cursor = min(max(p.Cursor+d, 0), last)
	}
}

func (p *Findings) Back() bool {
	switch {
	case p.Detail != nil:
		p.Detail = nil
	case p.Order != nil && p.Order.CloseFilter():
		p.rebuild()
	default:
		return false
	}
	p.Reflow()
	return true
}

// Reflow scrolls the selected finding into view and fits the evidence text to the size.
func (p *Findings) Reflow() {
	if p.res == nil {
		return
	}
	if p.Detail != nil {
		p.text.Set(p.DetailLines(p.Width), p.Width, p.Height)
		return
	}
	view, height := p.ListLines(p.Width), p.Height-len(p.Footer(p.Width))
	p.Top = p.scrollTop(view, height)
	p.Past = max(0, min(p.Past, len(view)-height-p.Top))
}

// DetailLines are the open finding's screen lines at width; they set p.links.
func (p *Findings) DetailLines(width int) []string {
	var out []string
	p.Links = p.Links[:0]
	arrow := " → "
	if common.IsASCII(p.c.Styles.G) {
		arrow = " -> "
	}
	t := 0
	for i, l := range strings.Split(report.FindingMarkdown(p.Detail, "#"), "\n") {
		link := t < len(p.Targets) && p.Targets[t].md == i
		if l = TerminalText(l); l != "\x00" {
			if link {
				l += arrow + p.Targets[t].j.Pane() + ": " + p.Targets[t].label
			}
			start := len(out)
			out = append(out, common.Wrap(" "+l, width-1)...)
			if link {
				p.Links = append(p.Links, evLink{start: start, end: len(out), J: p.Targets[t].j})
			}
			if i == 0 {
				out = append(out, common.Wrap(" "+p.linksNote(), width-1)...)
			}
		}
		if link {
			t++
		}
	}
	return out
}

// evidenceView is the evidence window with the selected link's lines highlighted.
func (p *Findings) evidenceView(width int) []string {
	lines := append([]string(nil), p.text.VisibleLines()...)
	if p.Link < len(p.Links) {
		l, top := p.Links[p.Link], p.text.Vp.YOffset()
		for i := max(l.start, top); i < l.end && i-top < len(lines); i++ {
			s := lines[i-top]
			if i == l.start {
				s = p.c.Styles.G.Cursor + strings.TrimPrefix(s, " ")
			}
			lines[i-top] = p.c.Styles.Cursor.Render(common.PadRight(s, width))
		}
	}
	return lines
}

// fView is one screen line of the list: text, or selectable finding sel (an index into p.sel).
type fView struct {
	s   string
	Sel int // -1 for text
}

// ListLines are the list's screen lines at width (text wrapped).
func (p *Findings) ListLines(width int) []fView {
	var view []fView
	si := 0
	for _, l := range p.Lines {
		switch {
		case l.F != nil:
			view = append(view, fView{l.F.ID, si})
			si++
		case l.head:
			view = append(view, fView{" " + p.c.Styles.ColHead.Render(l.text), -1})
		default:
			for _, w := range common.Wrap(l.text, width-2) {
				view = append(view, fView{" " + w, -1})
			}
		}
	}
	return view
}

// scrollTop is p.top moved just enough to show the selected finding.
func (p *Findings) scrollTop(view []fView, height int) int {
	top := p.Top
	cur := 0
	for i, v := range view {
		if v.Sel == p.Cursor {
			cur = i
		}
	}
	if cur < top {
		top = cur
	}
	if cur >= top+height {
		top = cur - height + 1
	}
	return top
}

func (p *Findings) rowText(f *findings.Finding, width int) string {
	return common.Trunc(fmt.Sprintf("%-7s %-15s %-11s %s", f.ID, f.Status, f.Risk, f.Title), width, p.c.Styles.G.Ellipsis)
}

func (p *Findings) View(width, height int) string {
	if p.res == nil {
		return common.NewPlaceholder(p.c, "Findings", common.StepReason(model.StepFindings, "findings catalog")).View(width, height)
	}
	if p.Detail != nil {
		return common.Fit(p.evidenceView(width), width, height)
	}
	view := p.ListLines(width)
	bottom := p.Footer(width)
	height -= len(bottom)
	var out []string
	top := p.scrollTop(view, height)
	top += max(0, min(p.Past, len(view)-height-top)) // scrolled below the last finding
	for i := top; i < len(view) && len(out) < height; i++ {
		v := view[i]
		if v.Sel < 0 {
			out = append(out, v.s)
			continue
		}
		f := p.Lines[p.Sel[v.Sel]].F
		line := p.rowText(f, width-3)
		if v.Sel == p.Cursor {
			out = append(out, p.c.Styles.Cursor.Render(common.PadRight(p.c.Styles.G.Cursor+" "+line, width)))
		} else {
			out = append(out, "  "+line)
		}
	}
	for len(out) < height {
		out = append(out, "")
	}
	return common.Fit(append(out, bottom...), width, height+len(bottom))
}

func (p *Findings) Export() (string, string) {
	if p.Detail != nil {
		return "finding-" + strings.ToLower(p.Detail.ID), report.FindingMarkdown(p.Detail, "#")
	}
	if p.res == nil {
		return "findings", "# Findings\n\nThe findings catalog has not run yet.\n"
	}
	return "findings", "# Findings\n\n" + report.FindingsMarkdown(p.res)
}

// Help is the focused view's hint-bar keys.
func (p *Findings) Help() []key.Binding { return p.KeyMap().ShortHelp() }

func (p *Findings) Status() string {
	if p.res == nil {
		return "not loaded"
	}
	if p.Detail != nil {
		return p.Detail.ID
	}
	s := ""
	if p.Order != nil && p.Order.SortBy >= 0 {
		s = "by " + p.Order.Cols[p.Order.SortBy].Title + " "
	}
	if len(p.Sel) == 0 {
		s += "0/0"
	} else {
		s += fmt.Sprintf("%d/%d", p.Cursor+1, len(p.Sel))
	}
	if len(p.Sel) != len(p.All) {
		s += fmt.Sprintf(" of %d", len(p.All))
	}
	return s
}

// TerminalText turns one line of the finding's Markdown (shared with the export) into text for
// the pane: a heading loses its #s and a quote its >; table rows become "cell · cell · …" (a
// table does not fit 80 columns) and separator rows go; inline emphasis and code spans keep
// their text without the marks. "\x00" means: drop the line.
func TerminalText(l string) string {
	t := strings.TrimSpace(l)
	switch {
	case strings.HasPrefix(t, "|"):
		if strings.Trim(t, "|-: ") == "" {
			return "\x00"
		}
		var cells []string
		for _, c := range splitCells(strings.TrimSuffix(strings.TrimPrefix(t, "|"), "|")) {
			if c = strings.TrimSpace(inlineText(c)); c != "" {
				cells = append(cells, c)
			}
		}
		return "  " + strings.Join(cells, " · ")
	case strings.HasPrefix(t, "#"):
		return inlineText(strings.TrimLeft(t, "# "))
	case strings.HasPrefix(t, "> "):
		return inlineText(strings.TrimPrefix(t, "> "))
	}
	return inlineText(l)
}

// splitCells splits a table row on its unescaped pipes (report.Escape writes a pipe in a
// value as \|).
func splitCells(row string) []string {
	var cells []string
	start := 0
	for i := 0; i < len(row); i++ {
		switch row[i] {
		case '\\':
			i++
		case '|':
			cells = append(cells, row[start:i])
			start = i + 1
		}
	}
	return append(cells, row[start:])
}

// inlineText is Markdown inline text as plain text: **strong** and `code` keep their text,
// a code span's content is taken verbatim, and an escaped pipe (report.Escape puts a backslash
// before each pipe) is a pipe.
func inlineText(s string) string {
	if !strings.ContainsAny(s, "*`\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && s[i+1] == '|':
			i++
			b.WriteByte(s[i])
		case s[i] == '`':
			if end := strings.IndexByte(s[i+1:], '`'); end >= 0 {
				b.WriteString(s[i+1 : i+1+end])
				i += end + 1
			} else {
				b.WriteByte('`')
			}
		case strings.HasPrefix(s[i:], "**"):
			i++
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
