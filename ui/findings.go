package ui

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
)

// fLine is one line of the Findings list: a heading or text (f nil) or a selectable finding.
type fLine struct {
	text string
	head bool
	f    *findings.Finding
}

// Findings is pane 5: the optimization catalogs' findings in the catalog's output order
// (inputs and confidence, where the time went, observations by payoff, capability candidates,
// durable findings refused, what is missing). Enter opens a finding's evidence: every field
// path and value that fired it, the inputs that agreed, the change and the verification step.
type Findings struct {
	c      *Common
	km     findingsKeys
	snap   *model.Snapshot
	res    *findings.Result
	lines  []fLine
	sel    []int // indexes of selectable lines
	cursor int   // index into sel
	top    int
	// past is how far the list is scrolled below the last finding, so the text after it (what
	// is missing, the labels' legend) can be read; moving up takes it back first.
	past int

	detail *findings.Finding
	text   *pager // the open finding's evidence
	ekm    evidenceKeys
	// targets are the open finding's linked Markdown lines; links their screen lines (reflow);
	// link is the selected one.
	targets []evTarget
	links   []evLink
	link    int

	// all are the findings in the catalog's order; order filters and sorts them (the list
	// keeps its sections, each showing its findings in order's order).
	all   []*findings.Finding
	order *listView

	width, height int
}

// findingsKeys are the findings list's keys.
type findingsKeys struct {
	navKeys
	Open, Filter, Sort key.Binding
}

func (k findingsKeys) ShortHelp() []key.Binding {
	return enabled(k.Up, k.Down, k.Open, k.Filter, k.Sort)
}
func (k findingsKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.all(), {k.Open, k.Filter, k.Sort}, labelBindings()}
}
func (k findingsKeys) helpTitles() []string { return []string{"Move", "Findings", "Labels"} }

// labelBindings show the status and risk words in ? (a key that no press matches).
func labelBindings() []key.Binding {
	var out []key.Binding
	for _, l := range findings.Labels() {
		out = append(out, key.NewBinding(key.WithKeys("\x00label:"+l.Word), key.WithHelp(l.Word, l.Short)))
	}
	return out
}

// NewFindings makes the Findings pane.
func NewFindings(c *Common) *Findings {
	return &Findings{c: c, km: findingsKeys{Open: c.Keys.Open}, ekm: newEvidenceKeys(c), text: newPager()}
}

// KeyMap is the focused view's keys: a finding's evidence or the list.
func (p *Findings) KeyMap() help.KeyMap {
	switch {
	case p.res == nil:
		return keyColumns{}
	case p.detail != nil:
		return p.evKeys()
	case p.order != nil && p.order.filtering:
		return p.c.Keys.filterKeys()
	}
	k := p.km
	k.navKeys = p.c.Keys.Nav.when(len(p.sel) > 1)
	k.Open = when(k.Open, p.selected() != nil)
	k.Filter = when(p.c.Keys.Filter, len(p.all) > 0)
	k.Sort = when(p.c.Keys.Sort, len(p.all) > 1)
	return k
}

func (p *Findings) Title() string        { return "Findings" }
func (p *Findings) SetSize(w, h int)     { p.width, p.height = w, h; p.reflow() }
func (p *Findings) Capturing() bool      { return p.order != nil && p.order.filtering && p.detail == nil }
func (p *Findings) Breadcrumb() []string { return p.crumb() }
func (p *Findings) selected() *findings.Finding {
	if p.cursor >= 0 && p.cursor < len(p.sel) {
		return p.lines[p.sel[p.cursor]].f
	}
	return nil
}

func (p *Findings) crumb() []string {
	if p.detail != nil {
		return []string{p.detail.ID}
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
	p.detail = nil
	p.newOrder()
	p.build()
	p.reflow()
	return nil
}

// lacksInputs: a hypothesis that needs an input that was not given (it sorts below the
// findings whose inputs are all there).
func lacksInputs(f *findings.Finding) bool { return len(f.Missing) > 0 }

// newOrder makes the filter and sort over every finding: natural order is the catalog's with
// the findings that lack inputs last; every sort keeps those last too.
func (p *Findings) newOrder() {
	p.all, p.order = nil, nil
	r := p.res
	if r == nil {
		return
	}
	p.all = append(append(append(append(append(p.all, r.Observations()...), r.Stopped()...), r.Capabilities()...), r.Durable()...), r.Withheld()...)
	fs := p.all
	last := func(i int) string {
		if lacksInputs(fs[i]) {
			return "1"
		}
		return "0"
	}
	txt := func(get func(f *findings.Finding) string) func(i int) string {
		return func(i int) string { return last(i) + strings.ToLower(get(fs[i])) }
	}
	cols := []lvCol{
		{title: "id", txt: txt(func(f *findings.Finding) string { return f.ID })},
		{title: "status", txt: txt(func(f *findings.Finding) string { return f.Status })},
		{title: "risk", txt: txt(func(f *findings.Finding) string { return f.Risk })},
		{title: "title", txt: txt(func(f *findings.Finding) string { return f.Title })},
	}
	p.order = newListView(cols, len(fs), func(i, c int) string { return "" }, func(i int) string {
		f := fs[i]
		return strings.Join([]string{f.ID, f.Kind, f.Theme, f.Status, f.Risk, f.Title, f.Subject}, " ")
	})
	for i := range fs {
		if !lacksInputs(fs[i]) {
			p.order.base = append(p.order.base, i)
		}
	}
	for i := range fs {
		if lacksInputs(fs[i]) {
			p.order.base = append(p.order.base, i)
		}
	}
	p.order.apply(-1)
}

// rebuild lays the list out again for the filter and order, keeping the selected finding.
func (p *Findings) rebuild() {
	keep := p.selected()
	p.build()
	for si, li := range p.sel {
		if p.lines[li].f == keep {
			p.cursor = si
		}
	}
}

func (p *Findings) build() {
	p.lines, p.sel, p.cursor, p.top, p.past = nil, nil, 0, 0, 0
	r := p.res
	if r == nil {
		return
	}
	rank := map[*findings.Finding]int{}
	if p.order != nil {
		for pos, i := range p.order.visible() {
			rank[p.all[i]] = pos
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
		if l.f != nil {
			p.sel = append(p.sel, len(p.lines))
		}
		p.lines = append(p.lines, l)
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
			add(fLine{f: f})
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
	case filterKeys:
		p.updateFilter(k, msg)
	case findingsKeys:
		p.update(k, msg)
	}
	p.reflow()
	return cmd
}

func (p *Findings) update(k findingsKeys, msg tea.Msg) {
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
		page := max(1, p.height-2)
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
			p.past = 0
			p.move(-len(p.sel))
		case key.Matches(msg, k.Bottom):
			p.move(len(p.sel))
			p.past = len(p.lines) * 4 // the end of the text, legend included (reflow clamps)
		case key.Matches(msg, k.Open):
			p.open(p.selected())
		case key.Matches(msg, k.Sort):
			p.order.cycleSort()
			p.build() // a new order starts at its first finding
		case key.Matches(msg, k.Filter):
			p.order.filtering = true
			p.order.input.SetValue(p.order.filter)
			p.order.input.CursorEnd()
		}
	}
}

// updateFilter: the filter input has focus; keys other than the filter's own are text.
func (p *Findings) updateFilter(k filterKeys, msg tea.Msg) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		page := max(1, p.height-3)
		switch {
		case key.Matches(msg, k.Keep):
			p.order.filtering = false
		case key.Matches(msg, k.Clear):
			p.order.closeFilter()
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
	before := p.order.filter
	p.order.edit(msg)
	if p.order.filter != before {
		p.rebuild()
	}
}

// footer is the filter line: the input while typing, the applied filter, or nothing.
func (p *Findings) footer(width int) []string {
	if p.order == nil || p.detail != nil {
		return nil
	}
	p.order.sizeFooter(width, "findings")
	if f := p.order.footer(p.c, width, "findings"); f != "" {
		return []string{f}
	}
	return nil
}

func (p *Findings) move(d int) {
	if len(p.sel) == 0 {
		return
	}
	last := len(p.sel) - 1
	switch {
	case d > 0 && p.cursor == last:
		p.past += d // reflow clamps it to the text below
	case d < 0 && p.past > 0:
		p.past = max(0, p.past+d)
	default:
		p.cursor = min(max(p.cursor+d, 0), last)
	}
}

func (p *Findings) Back() bool {
	switch {
	case p.detail != nil:
		p.detail = nil
	case p.order != nil && p.order.closeFilter():
		p.rebuild()
	default:
		return false
	}
	p.reflow()
	return true
}

// reflow scrolls the selected finding into view and fits the evidence text to the size.
func (p *Findings) reflow() {
	if p.res == nil {
		return
	}
	if p.detail != nil {
		p.text.set(p.detailLines(p.width), p.width, p.height)
		return
	}
	view, height := p.listLines(p.width), p.height-len(p.footer(p.width))
	p.top = p.scrollTop(view, height)
	p.past = max(0, min(p.past, len(view)-height-p.top))
}

// detailLines are the open finding's screen lines at width; they set p.links.
func (p *Findings) detailLines(width int) []string {
	var out []string
	p.links = p.links[:0]
	arrow := " → "
	if isASCII(p.c.Styles.G) {
		arrow = " -> "
	}
	t := 0
	for i, l := range strings.Split(report.FindingMarkdown(p.detail, "#"), "\n") {
		link := t < len(p.targets) && p.targets[t].md == i
		if l = terminalText(l); l != "\x00" {
			if link {
				l += arrow + p.targets[t].j.Pane() + ": " + p.targets[t].label
			}
			start := len(out)
			out = append(out, wrap(" "+l, width-1)...)
			if link {
				p.links = append(p.links, evLink{start: start, end: len(out), j: p.targets[t].j})
			}
			if i == 0 {
				out = append(out, wrap(" "+p.linksNote(), width-1)...)
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
	lines := append([]string(nil), p.text.view()...)
	if p.link < len(p.links) {
		l, top := p.links[p.link], p.text.vp.YOffset()
		for i := max(l.start, top); i < l.end && i-top < len(lines); i++ {
			s := lines[i-top]
			if i == l.start {
				s = p.c.Styles.G.Cursor + strings.TrimPrefix(s, " ")
			}
			lines[i-top] = p.c.Styles.Cursor.Render(padRight(s, width))
		}
	}
	return lines
}

// fView is one screen line of the list: text, or selectable finding sel (an index into p.sel).
type fView struct {
	s   string
	sel int // -1 for text
}

// listLines are the list's screen lines at width (text wrapped).
func (p *Findings) listLines(width int) []fView {
	var view []fView
	si := 0
	for _, l := range p.lines {
		switch {
		case l.f != nil:
			view = append(view, fView{l.f.ID, si})
			si++
		case l.head:
			view = append(view, fView{" " + p.c.Styles.ColHead.Render(l.text), -1})
		default:
			for _, w := range wrap(l.text, width-2) {
				view = append(view, fView{" " + w, -1})
			}
		}
	}
	return view
}

// scrollTop is p.top moved just enough to show the selected finding.
func (p *Findings) scrollTop(view []fView, height int) int {
	top := p.top
	cur := 0
	for i, v := range view {
		if v.sel == p.cursor {
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
	return trunc(fmt.Sprintf("%-7s %-15s %-11s %s", f.ID, f.Status, f.Risk, f.Title), width, p.c.Styles.G.Ellipsis)
}

func (p *Findings) View(width, height int) string {
	if p.res == nil {
		return NewPlaceholder(p.c, "Findings", StepReason(model.StepFindings, "findings catalog")).View(width, height)
	}
	if p.detail != nil {
		return fit(p.evidenceView(width), width, height)
	}
	view := p.listLines(width)
	bottom := p.footer(width)
	height -= len(bottom)
	var out []string
	top := p.scrollTop(view, height)
	top += max(0, min(p.past, len(view)-height-top)) // scrolled below the last finding
	for i := top; i < len(view) && len(out) < height; i++ {
		v := view[i]
		if v.sel < 0 {
			out = append(out, v.s)
			continue
		}
		f := p.lines[p.sel[v.sel]].f
		line := p.rowText(f, width-3)
		if v.sel == p.cursor {
			out = append(out, p.c.Styles.Cursor.Render(padRight(p.c.Styles.G.Cursor+" "+line, width)))
		} else {
			out = append(out, "  "+line)
		}
	}
	for len(out) < height {
		out = append(out, "")
	}
	return fit(append(out, bottom...), width, height+len(bottom))
}

func (p *Findings) Export() (string, string) {
	if p.detail != nil {
		return "finding-" + strings.ToLower(p.detail.ID), report.FindingMarkdown(p.detail, "#")
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
	if p.detail != nil {
		return p.detail.ID
	}
	s := ""
	if p.order != nil && p.order.sortBy >= 0 {
		s = "by " + p.order.cols[p.order.sortBy].title + " "
	}
	if len(p.sel) == 0 {
		s += "0/0"
	} else {
		s += fmt.Sprintf("%d/%d", p.cursor+1, len(p.sel))
	}
	if len(p.sel) != len(p.all) {
		s += fmt.Sprintf(" of %d", len(p.all))
	}
	return s
}

// terminalText turns one line of the finding's Markdown (shared with the export) into text for
// the pane: a heading loses its #s and a quote its >; table rows become "cell · cell · …" (a
// table does not fit 80 columns) and separator rows go; inline emphasis and code spans keep
// their text without the marks. "\x00" means: drop the line.
func terminalText(l string) string {
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
