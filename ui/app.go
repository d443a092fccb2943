// Package ui is the interactive explorer: one bubbletea model (App) owning five panes that
// read the immutable model.Snapshot. Panes are plain structs the root calls directly (see
// Pane); nothing here reads storage outside a tea.Cmd.
package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
)

// Minimum usable terminal size; below it the "too small" screen is shown.
const (
	MinWidth  = 60
	MinHeight = 15
)

// LoadFunc runs the load (model.Load) and reports progress; the App calls it in a goroutine.
type LoadFunc func(ctx context.Context, progress func(model.Progress))

// Options configure the App.
type Options struct {
	Location  string   // shown until hoodie.properties is read
	Load      LoadFunc // nil: the caller feeds ProgressMsg itself (tests)
	ExportDir string   // where e and E write; "" is the working directory
	Color     bool     // false for NO_COLOR
	ASCII     bool     // no box-drawing or block glyphs
	Mouse     bool     // capture the mouse wheel
	Now       func() time.Time
	// Panes replaces the default panes (Timeline + placeholders) when set.
	Panes func(c *Common) []Pane
}

// ProgressMsg is one load event.
type ProgressMsg model.Progress

type loadClosedMsg struct{}

type exportDoneMsg struct {
	what, path string
	err        error
}

// App is the root model.
type App struct {
	opts   Options
	c      *Common
	panes  []Pane
	active int

	width, height int
	snap          *model.Snapshot
	prog          model.Progress
	finished      bool

	help    bool
	message string
	msgBad  bool

	ch     chan model.Progress
	cancel context.CancelFunc
}

// New builds the App.
func New(o Options) *App {
	if o.Now == nil {
		o.Now = time.Now
	}
	c := &Common{Styles: NewStyles(o.Color, o.ASCII), Keys: DefaultKeyMap()}
	if o.ASCII {
		c.Keys.asciiHelp()
	}
	a := &App{opts: o, c: c, width: 80, height: 24}
	if o.Panes != nil {
		a.panes = o.Panes(c)
	} else {
		a.panes = DefaultPanes(c)
	}
	for _, p := range a.panes {
		p.SetSize(a.width, a.bodyHeight())
	}
	return a
}

// Init starts the load.
func (a *App) Init() tea.Cmd {
	if a.opts.Load == nil {
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	a.cancel = cancel
	a.ch = make(chan model.Progress, 16)
	go func() {
		defer close(a.ch)
		a.opts.Load(ctx, func(p model.Progress) { a.ch <- p })
	}()
	return a.waitLoad()
}

func (a *App) waitLoad() tea.Cmd {
	ch := a.ch
	return func() tea.Msg {
		p, ok := <-ch
		if !ok {
			return loadClosedMsg{}
		}
		return ProgressMsg(p)
	}
}

// Snapshot is the latest snapshot (nil before the first progress event).
func (a *App) Snapshot() *model.Snapshot { return a.snap }

// ActivePane is the index of the shown pane.
func (a *App) ActivePane() int { return a.active }

// Pane returns pane i.
func (a *App) Pane(i int) Pane { return a.panes[i] }

// HelpOpen reports whether the help overlay is shown.
func (a *App) HelpOpen() bool { return a.help }

// Message is the status-bar message (export path, errors).
func (a *App) Message() string { return a.message }

func (a *App) bodyHeight() int { return max(1, a.height-3) }

func (a *App) tooSmall() bool { return a.width < MinWidth || a.height < MinHeight }

// timelineReady: the load got past the timeline step (or failed before it).
func (a *App) timelineReady() bool {
	s := a.snap
	return s != nil && (s.HasRun(model.StepTimeline) || a.finished)
}

func (a *App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		a.width, a.height = msg.Width, msg.Height
		for _, p := range a.panes {
			p.SetSize(a.width, a.bodyHeight())
		}
		return a, nil
	case ProgressMsg:
		a.prog = model.Progress(msg)
		a.finished = a.finished || msg.Finished
		var cmds []tea.Cmd
		if msg.Snapshot != nil && msg.Snapshot != a.snap {
			a.snap = msg.Snapshot
			for _, p := range a.panes {
				cmds = append(cmds, p.SetSnapshot(a.snap))
			}
		}
		if a.ch != nil {
			cmds = append(cmds, a.waitLoad())
		}
		return a, tea.Batch(cmds...)
	case loadClosedMsg:
		a.finished = true
		return a, nil
	case exportDoneMsg:
		if msg.err != nil {
			a.message, a.msgBad = "export failed: "+msg.err.Error(), true
		} else {
			a.message, a.msgBad = "exported "+msg.what+" to "+msg.path, false
		}
		return a, nil
	case tea.ResumeMsg:
		// Back from ctrl+z: the shell drew over the screen; repaint all of it.
		return a, tea.ClearScreen
	case tea.KeyPressMsg:
		return a, a.handleKey(msg)
	case tea.MouseWheelMsg:
		if a.help || a.tooSmall() {
			return a, nil
		}
		return a, a.panes[a.active].Update(msg)
	}
	// Results of pane Cmds go to every pane; each ignores what is not its own.
	var cmds []tea.Cmd
	for _, p := range a.panes {
		cmds = append(cmds, p.Update(msg))
	}
	return a, tea.Batch(cmds...)
}

func (a *App) quit() tea.Cmd {
	if a.cancel != nil {
		a.cancel()
	}
	return tea.Quit
}

func (a *App) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	k := a.c.Keys
	switch {
	case key.Matches(msg, k.ForceQuit):
		return a.quit()
	case key.Matches(msg, k.Suspend):
		return tea.Suspend
	}
	a.message, a.msgBad = "", false
	if a.tooSmall() {
		if key.Matches(msg, k.Quit) {
			return a.quit()
		}
		return nil
	}
	if a.help {
		switch {
		case key.Matches(msg, k.Quit):
			return a.quit()
		case key.Matches(msg, k.Help), key.Matches(msg, k.Back):
			a.help = false
		}
		return nil
	}
	p := a.panes[a.active]
	if p.Capturing() {
		// The input's own keys (esc closes it) and text: the pane's.
		return p.Update(msg)
	}
	switch {
	case key.Matches(msg, k.Quit):
		return a.quit()
	case key.Matches(msg, k.Help):
		a.help = true
	case key.Matches(msg, k.NextPane):
		a.active = (a.active + 1) % len(a.panes)
	case key.Matches(msg, k.PrevPane):
		a.active = (a.active + len(a.panes) - 1) % len(a.panes)
	case key.Matches(msg, k.Export):
		return a.exportPane()
	case key.Matches(msg, k.Report):
		return a.exportReport()
	case key.Matches(msg, k.Back):
		p.Back()
	default:
		for i, b := range k.Pane {
			if i < len(a.panes) && key.Matches(msg, b) {
				a.active = i
				return nil
			}
		}
		if !a.timelineReady() {
			return nil
		}
		return p.Update(msg)
	}
	return nil
}

// paneKeys is the focused view's keymap of pane p: its KeyMap, or one column from Help.
func paneKeys(p Pane) help.KeyMap {
	if m, ok := p.(keyMapper); ok {
		return m.KeyMap()
	}
	return keyColumns{titles: []string{p.Title()}, cols: [][]key.Binding{p.Help()}}
}

// keyGroups is what ? lists on pane p: the focused view's keys, then the root's (only
// ctrl+c and ctrl+z while an input has focus).
func (a *App) keyGroups(p Pane) []HelpGroup {
	out := helpGroups(paneKeys(p))
	if p.Capturing() {
		return append(out, helpGroups(a.c.Keys.capturing())...)
	}
	return append(out, helpGroups(a.c.Keys.GlobalKeys)...)
}

func (a *App) tableName() string {
	if a.snap != nil && a.snap.Config != nil {
		return a.snap.Config.Name
	}
	return strings.TrimSuffix(filepath.Base(a.opts.Location), filepath.Ext(a.opts.Location))
}

func (a *App) exportPath(what string) string {
	name := fmt.Sprintf("hudiscope-%s-%s-%s.md", slug(a.tableName()), slug(what), a.opts.Now().Format("20060102-150405"))
	return filepath.Join(a.opts.ExportDir, name)
}

func (a *App) exportPane() tea.Cmd {
	p := a.panes[a.active]
	what, md := p.Export()
	path := a.exportPath(what)
	return writeCmd(slug(p.Title())+" pane", path, func() string { return md })
}

func (a *App) exportReport() tea.Cmd {
	s := a.snap
	if s == nil {
		a.message, a.msgBad = "nothing loaded yet to report on", true
		return nil
	}
	return writeCmd("report", a.exportPath("report"), func() string { return report.Markdown(context.Background(), s) })
}

func writeCmd(what, path string, content func() string) tea.Cmd {
	return func() tea.Msg {
		err := os.WriteFile(path, []byte(content()), 0o644)
		if abs, e := filepath.Abs(path); e == nil {
			path = abs
		}
		return exportDoneMsg{what: what, path: path, err: err}
	}
}

// ---- view ----

func (a *App) View() tea.View {
	v := tea.NewView(a.Render())
	v.AltScreen = true
	if a.opts.Mouse {
		v.MouseMode = tea.MouseModeCellMotion
	}
	v.WindowTitle = "hudiscope " + a.tableName()
	return v
}

// Render draws the whole screen as a string (View's content).
func (a *App) Render() string {
	w, h := a.width, a.height
	if a.tooSmall() {
		return a.tooSmallView()
	}
	body := ""
	switch {
	case a.help:
		body = a.helpView(w, a.bodyHeight())
	case !a.timelineReady():
		body = a.loadingView(w, a.bodyHeight())
	default:
		body = a.panes[a.active].View(w, a.bodyHeight())
	}
	lines := []string{a.headerView(w), a.tabsView(w)}
	lines = append(lines, strings.Split(body, "\n")...)
	for len(lines) < h-1 {
		lines = append(lines, "")
	}
	lines = append(lines[:h-1], a.statusView(w))
	return strings.Join(lines, "\n")
}

func (a *App) tooSmallView() string {
	g := a.c.Styles.G
	msg := []string{"terminal too small", fmt.Sprintf("%dx%d, needs at least %dx%d", a.width, a.height, MinWidth, MinHeight), a.c.Keys.Quit.Help().Key + " quits"}
	_ = g
	var lines []string
	top := max(0, (a.height-len(msg))/2)
	for i := 0; i < top; i++ {
		lines = append(lines, "")
	}
	for _, m := range msg {
		pad := max(0, (a.width-len(m))/2)
		lines = append(lines, strings.Repeat(" ", pad)+m)
	}
	return fit(lines, a.width, a.height)
}

func (a *App) headerView(w int) string {
	st := a.c.Styles
	g := st.G
	brand := " " + st.Brand.Render("hudiscope") + " "
	left := " "
	if a.snap != nil && a.snap.Config != nil {
		c := a.snap.Config
		cdc := "CDC off"
		if c.CDCEnabled {
			cdc = "CDC on (" + dashIf(c.CDCMode) + ")"
		}
		left += st.Header.Render(c.Name) + g.Sep + c.Type + g.Sep + fmt.Sprintf("v%d", c.Version) + g.Sep + cdc
	} else {
		left += a.opts.Location
	}
	mark := func(name, given string) string {
		if given != "" {
			return name + " " + st.OK.Render(g.OK)
		}
		return name + " " + st.Dim.Render(g.Bad)
	}
	right, compact := "", ""
	if a.snap != nil {
		ev, evShort := mark("event log", a.snap.Options.EventLog), mark("log", a.snap.Options.EventLog)
		if a.snap.Options.EventLog != "" {
			ev, evShort = a.eventLogMark("event log"), a.eventLogMark("log")
		}
		right = mark("props", a.snap.Options.Props) + "  " + ev + " "
		compact = mark("props", a.snap.Options.Props) + " " + evShort + " "
	}
	// Most important first: the table's identity, then the inputs, then the brand.
	for _, v := range [][2]string{{brand + left, right}, {left, right}, {left, compact}, {left, ""}} {
		if lipglossWidth(v[0])+1+lipglossWidth(v[1]) <= w {
			return joinLR(v[0], v[1], w)
		}
	}
	return clip(left, w)
}

// eventLogMark is a given event log's header mark: ✓ only once it parsed; while it is read, …;
// when it failed, ✗ and the key of the Event log pane, which says why.
func (a *App) eventLogMark(name string) string {
	st := a.c.Styles
	g := st.G
	s := a.snap
	switch {
	case s.StepErrors[model.StepEventLog] == nil && s.EventLog != nil:
		return name + " " + st.OK.Render(g.OK)
	case s.StepErrors[model.StepEventLog] == nil && !s.HasRun(model.StepEventLog) && !a.finished:
		return name + " " + st.Dim.Render(g.Ellipsis)
	}
	why := ""
	for i, p := range a.panes {
		if p.Title() == "Event log" && i < len(a.c.Keys.Pane) {
			why = st.Dim.Render(" (" + a.c.Keys.Pane[i].Help().Key + ")")
		}
	}
	return name + " " + st.Bad.Render(g.Bad) + why
}

func (a *App) tabsView(w int) string {
	st := a.c.Styles
	g := st.G
	p := a.panes[a.active]
	if crumbs := p.Breadcrumb(); len(crumbs) > 0 && !a.help {
		s := " " + st.TabActive.Render(fmt.Sprintf("%d %s", a.active+1, p.Title()))
		for _, c := range crumbs {
			s += g.Crumb + c
		}
		return clip(s+st.Dim.Render("   "+a.c.Keys.Back.Help().Key+": back"), w)
	}
	var b strings.Builder
	b.WriteByte(' ')
	for i, p := range a.panes {
		label := fmt.Sprintf("%d %s", i+1, p.Title())
		if i == a.active {
			b.WriteString(st.TabActive.Render("[" + label + "]"))
		} else {
			b.WriteString(st.Tab.Render(" " + label + " "))
		}
		b.WriteByte(' ')
	}
	return clip(b.String(), w)
}

func (a *App) statusView(w int) string {
	st := a.c.Styles
	if a.message != "" {
		m := " " + a.message
		if a.msgBad {
			m = st.Bad.Render(m)
		}
		return clip(m, w)
	}
	var keys []key.Binding
	right := ""
	k := a.c.Keys
	switch {
	case a.help, !a.timelineReady():
		keys = []key.Binding{k.Help, k.Quit}
	default:
		p := a.panes[a.active]
		keys = a.hints(p)
		right = p.Status()
	}
	if !a.finished && a.timelineReady() && a.prog.Step != "" {
		right = fmt.Sprintf("reading %s %d/%d", a.prog.Step, a.prog.Index, a.prog.Total) + "  " + right
	}
	if a.snap != nil {
		if n := len(a.snap.Problems()) + len(a.snap.StepErrors); n > 0 {
			right = st.Warn.Render(fmt.Sprintf("%s %d problem(s)", st.G.Warn, n)) + "  " + right
		}
	}
	var parts []string
	for _, b := range keys {
		h := b.Help()
		word := h.Desc
		if f := strings.Fields(word); len(f) > 0 {
			word = strings.TrimRight(f[0], ":,")
		}
		parts = append(parts, st.Key.Render(firstKey(b))+":"+word)
	}
	return joinLR(" "+strings.Join(parts, " "), right+" ", w)
}

// hints are the hint bar's keys: the pane's own (Help) framed by the root's that apply there.
func (a *App) hints(p Pane) []key.Binding {
	k := a.c.Keys
	own := enabled(p.Help()...)
	switch {
	case p.Capturing():
		return own
	case len(p.Breadcrumb()) > 0:
		return append(append([]key.Binding{k.Back}, own...), k.Export)
	case len(own) == 0:
		return k.GlobalKeys.ShortHelp()
	}
	return append(append([]key.Binding{k.Help}, own...), k.Export, k.Quit)
}

func firstKey(b key.Binding) string {
	if ks := b.Keys(); len(ks) > 0 {
		return ks[0]
	}
	return b.Help().Key
}

// joinLR puts right at the right edge, cutting left when both do not fit.
func joinLR(left, right string, w int) string {
	rw := lipglossWidth(right)
	if rw >= w {
		return clip(right, w)
	}
	left = clip(left, w-rw-1)
	gap := w - lipglossWidth(left) - rw
	return left + strings.Repeat(" ", max(1, gap)) + right
}

func (a *App) loadingView(w, h int) string {
	st := a.c.Styles
	g := st.G
	lines := []string{"", " Reading " + a.opts.Location, ""}
	p := a.prog
	if p.Total > 0 {
		done := 0
		if a.snap != nil {
			done = len(a.snap.Done)
		}
		frac := float64(done) / float64(p.Total)
		lines = append(lines, fmt.Sprintf(" step %d of %d: %s", p.Index, p.Total, p.Step))
		bw := min(50, w-4)
		lines = append(lines, " "+ProgressBar(g, frac, bw)+fmt.Sprintf(" %3.0f%%", frac*100), "")
	} else {
		lines = append(lines, " starting", "")
	}
	if a.snap != nil {
		for _, s := range a.snap.Done {
			if err := a.snap.StepErrors[s]; err != nil {
				lines = append(lines, " "+st.Bad.Render(g.Bad)+" "+string(s)+": "+err.Error())
			} else {
				lines = append(lines, " "+st.OK.Render(g.OK)+" "+string(s))
			}
		}
	}
	return fit(lines, w, h)
}

func (a *App) helpView(w, h int) string {
	st := a.c.Styles
	// One block per group; blocks flow into columns sized to their content.
	var blocks [][]string
	for _, g := range a.keyGroups(a.panes[a.active]) {
		bl := []string{st.ColHead.Render(g.Title)}
		for _, b := range g.Keys {
			hk := b.Help()
			bl = append(bl, "  "+st.Key.Render(padRight(hk.Key, 11))+" "+hk.Desc)
		}
		blocks = append(blocks, bl)
	}
	avail := h - 2
	var cols [][]string
	var cur []string
	for _, bl := range blocks {
		need := len(bl)
		if len(cur) > 0 {
			need++
		}
		if len(cur) > 0 && len(cur)+need > avail {
			cols = append(cols, cur)
			cur = nil
		}
		if len(cur) > 0 {
			cur = append(cur, "")
		}
		cur = append(cur, bl...)
	}
	cols = append(cols, cur)
	k := a.c.Keys
	lines := []string{" " + st.Header.Render("Keys: "+a.panes[a.active].Title()) +
		st.Dim.Render("  ("+k.Help.Help().Key+" or "+k.Back.Help().Key+" closes)")}
	rows := 0
	widths := make([]int, len(cols))
	for i, c := range cols {
		rows = max(rows, len(c))
		for _, l := range c {
			widths[i] = max(widths[i], lipglossWidth(l)+3)
		}
	}
	for r := 0; r < rows; r++ {
		var b strings.Builder
		b.WriteString(" ")
		for i, c := range cols {
			cell := ""
			if r < len(c) {
				cell = c[r]
			}
			if i < len(cols)-1 {
				cell = padRight(cell, widths[i])
			}
			b.WriteString(cell)
		}
		lines = append(lines, b.String())
	}
	return fit(lines, w, h)
}
