// Package ui is the interactive explorer: one bubbletea model (App) owning six panes that
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

	"github.com/hudiscope/hudiscope/internal/clock"
	"github.com/hudiscope/hudiscope/internal/safetext"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
	"github.com/hudiscope/hudiscope/ui/common"
	problemsui "github.com/hudiscope/hudiscope/ui/problems"
	trendsui "github.com/hudiscope/hudiscope/ui/trends"
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
	Mouse     bool     // capture the mouse: wheel, clicks on tabs, rows and the problems badge
	// FullExport: e and E write every row (else capped at report.ExportLimit).
	FullExport bool
	Now        func() time.Time
	// Getenv reads TMUX, STY and TERM for the clipboard sequence (nil: os.Getenv).
	Getenv func(string) string
	// JobControl says whether ctrl+z can suspend, and why not (nil: ask the system).
	JobControl func() (bool, string)
	// Local is the zone key's "local" zone (nil: time.Local).
	Local *time.Location
	// Panes replaces the default panes when set.
	Panes func(c *Common) []Pane
	// Start is the title of the pane shown first ("": the first, the Overview).
	Start string
	// Leave, when set, is returned on esc with nothing left to close: a parent view (the
	// fleet) takes the explorer away (and may show it again).
	Leave tea.Cmd
	// Watch re-reads the timeline on an interval once the load has finished (--watch).
	Watch *WatchOptions
}

// ProgressMsg is one load event.
type ProgressMsg model.Progress

type loadClosedMsg struct{}

type exportDoneMsg struct {
	what, path string
	err        error
	cut        bool // long tables were cut to fit report.ExportLimit
}

// focuser is implemented by panes that can show the row a jump names (a Jump of a type the
// pane owns; JumpPane only shows it); false: not found.
type focuser interface {
	Focus(common.Jump) bool
}

// focusCmder is a focuser whose jump may start reading (the Timeline's instant detail).
type focusCmder interface {
	FocusCmd(common.Jump) (bool, tea.Cmd)
}

// clicker is implemented by views whose rows a mouse click selects (y: body line).
type clicker interface {
	Click(y int) tea.Cmd
}

// App is the root model.
type App struct {
	opts   Options
	c      *common.Common
	panes  []common.Pane
	active int

	width, height int
	snap          *model.Snapshot
	// healthAll is the Health pane's d: nil until pressed, then the ApplyAllDefaults every
	// published snapshot is judged with.
	healthAll *bool
	prog      model.Progress
	finished  bool

	help    bool
	helpTop int // first line of the ? overlay shown when it does not fit
	message string
	msgBad  bool
	// probs is the problems view while open (over the active pane).
	probs *problemsui.ProblemsView
	// trends is the trends view while open (over the active pane; T).
	trends *trendsui.TrendsView

	ch     chan model.Progress
	cancel context.CancelFunc
}

// New builds the App.
func New(o Options) *App {
	if o.Now == nil {
		o.Now = clock.Now
	}
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.JobControl == nil {
		o.JobControl = jobControl
	}
	c := &common.Common{Styles: common.NewStyles(o.Color, o.ASCII), Keys: common.DefaultKeyMap(), Clock: &common.Clock{Now: o.Now, Local: o.Local}}
	if o.ASCII {
		c.Keys.AsciiHelp()
	}
	a := &App{opts: o, c: c, width: 80, height: 24}
	if o.Panes != nil {
		a.panes = o.Panes(c)
	} else {
		a.panes = DefaultPanes(c)
	}
	for i, p := range a.panes {
		p.SetSize(a.width, a.bodyHeight())
		if p.Title() == o.Start {
			a.active = i
		}
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

// refoundMsg carries snap, from with its findings evaluated again.
type refoundMsg struct{ from, snap *model.Snapshot }

// publish shows s (re-judged as the Health pane's d last asked, so a later load step or a watch
// refresh keeps the toggle) on every pane. A re-judged snapshot's findings, which read the
// health result, are evaluated again in the background and published when done.
func (a *App) publish(s *model.Snapshot) tea.Cmd {
	if s == nil {
		return nil
	}
	var cmds []tea.Cmd
	if a.healthAll != nil {
		if r := s.WithHealth(*a.healthAll); r != s {
			s = r
			if s.HasRun(model.StepFindings) {
				cmds = append(cmds, func() tea.Msg { return refoundMsg{from: r, snap: r.WithFindings(context.Background())} })
			}
		}
	}
	a.snap = s
	for _, p := range a.panes {
		cmds = append(cmds, p.SetSnapshot(a.snap))
	}
	if a.probs != nil {
		a.probs.SetSnapshot(a.snap)
	}
	if a.trends != nil {
		cmds = append(cmds, a.trends.SetSnapshot(a.snap))
	}
	return tea.Batch(cmds...)
}

func (a *App) Snapshot() *model.Snapshot { return a.snap }

// ActivePane is the index of the shown pane.
func (a *App) ActivePane() int { return a.active }

// Pane returns pane i.
func (a *App) Pane(i int) common.Pane { return a.panes[i] }

// view is what has the keys: the problems or trends view while open, else the active pane.
func (a *App) view() common.Pane {
	if a.probs != nil {
		return a.probs
	}
	if a.trends != nil {
		return a.trends
	}
	return a.panes[a.active]
}

// ProblemsOpen reports whether the problems view is shown.
func (a *App) ProblemsOpen() bool { return a.probs != nil }

// TrendsOpen reports whether the trends view is shown.
func (a *App) TrendsOpen() bool { return a.trends != nil }

// overlaid: a view (problems, trends) is shown over the active pane.
func (a *App) overlaid() bool { return a.probs != nil || a.trends != nil }

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
		if a.probs != nil {
			a.probs.SetSize(a.width, a.bodyHeight())
		}
		if a.trends != nil {
			a.trends.SetSize(a.width, a.bodyHeight())
		}
		return a, nil
	case common.Jump:
		return a, a.jump(msg)
	case watchMsg:
		return a, a.watchUpdate(msg)
	case ProgressMsg:
		a.prog = model.Progress(msg)
		a.finished = a.finished || msg.Finished
		var cmds []tea.Cmd
		if msg.Snapshot != nil && msg.Snapshot != a.snap {
			cmds = append(cmds, a.publish(msg.Snapshot))
		}
		if a.ch != nil {
			cmds = append(cmds, a.waitLoad())
		}
		if msg.Finished {
			cmds = append(cmds, a.startWatch())
		}
		return a, tea.Batch(cmds...)
	case loadClosedMsg:
		a.finished = true
		return a, nil
	case common.RejudgeMsg:
		a.healthAll = &msg.ApplyAll
		return a, a.publish(a.snap)
	case refoundMsg:
		// Findings evaluated again for the re-judged snapshot still shown.
		if msg.from == a.snap {
			return a, a.publish(msg.snap)
		}
		return a, nil
	case exportDoneMsg:
		if msg.err != nil {
			a.message, a.msgBad = "export failed: "+msg.err.Error(), true
		} else {
			// The file name: the directory is the one --export-dir named (or the working one).
			a.message, a.msgBad = "exported "+msg.what+" to "+filepath.Base(msg.path), false
			if msg.cut {
				a.message += " (long tables cut; --full-export for all)"
			}
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
		return a, a.view().Update(msg)
	case tea.MouseClickMsg:
		return a, a.click(msg)
	}
	// Results of pane Cmds go to every pane; each ignores what is not its own.
	var cmds []tea.Cmd
	for _, p := range a.panes {
		cmds = append(cmds, p.Update(msg))
	}
	if a.trends != nil {
		cmds = append(cmds, a.trends.Update(msg)) // its series, built in a Cmd
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
		// Where no shell can resume us (sh -c, exec, a tmux or screen command) a stop would
		// hang the terminal: ignore it and say so.
		if ok, why := a.opts.JobControl(); !ok {
			a.message, a.msgBad = "ctrl+z ignored: "+why+" ("+k.Quit.Help().Key+" quits)", true
			return nil
		}
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
		// A pane with many keys and a legend can outgrow a small terminal: the overlay scrolls.
		n := a.c.Keys.Nav
		switch {
		case key.Matches(msg, k.Quit):
			return a.quit()
		case key.Matches(msg, k.Help), key.Matches(msg, k.Back):
			a.help, a.helpTop = false, 0
		case key.Matches(msg, n.Down):
			a.helpTop++
		case key.Matches(msg, n.Up):
			a.helpTop--
		case key.Matches(msg, n.PageDown):
			a.helpTop += max(1, a.bodyHeight()-2)
		case key.Matches(msg, n.PageUp):
			a.helpTop -= max(1, a.bodyHeight()-2)
		case key.Matches(msg, n.Top):
			a.helpTop = 0
		case key.Matches(msg, n.Bottom):
			a.helpTop = 1 << 30
		}
		page := a.bodyHeight() - 2
		a.helpTop = max(0, min(a.helpTop, len(a.helpLines(a.width, a.bodyHeight()))-1-page))
		return nil
	}
	p := a.view()
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
		a.probs, a.trends = nil, nil
		a.active = (a.active + 1) % len(a.panes)
	case key.Matches(msg, k.PrevPane):
		a.probs, a.trends = nil, nil
		a.active = (a.active + len(a.panes) - 1) % len(a.panes)
	case key.Matches(msg, k.Export):
		return a.exportPane()
	case key.Matches(msg, k.Report):
		return a.exportReport()
	case key.Matches(msg, k.Back):
		backed := p.Back()
		if !backed && a.probs != nil {
			a.probs = nil
		} else if !backed && a.trends != nil {
			a.trends = nil
		} else if !backed && a.opts.Leave != nil {
			return a.opts.Leave
		}
	case key.Matches(msg, k.Copy):
		return a.copyFocused()
	case key.Matches(msg, k.Zone):
		c := a.c.Clock
		c.Mode = (c.Mode + 1) % (common.TimeRaw + 1)
		a.message = "times shown in the " + c.Mode.String()
		if c.Mode == common.TimeWriter {
			a.message = "times shown in the writer's zone (" + common.TableZone(a.snap).String() + ")"
		}
	case key.Matches(msg, k.Problems):
		a.toggleProblems()
	case key.Matches(msg, k.Trends):
		return a.toggleTrends()
	default:
		for i, b := range k.Pane {
			if i < len(a.panes) && key.Matches(msg, b) {
				a.probs, a.trends = nil, nil
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

// jump shows the pane j names and, where the pane can, the row.
func (a *App) jump(j common.Jump) tea.Cmd {
	if j.Pane() == common.ProblemsPane {
		a.openProblems()
		return nil
	}
	for i, p := range a.panes {
		if p.Title() != j.Pane() {
			continue
		}
		a.active, a.probs, a.trends, a.help = i, nil, nil, false
		if f, ok := p.(focusCmder); ok {
			found, cmd := f.FocusCmd(j)
			if !found {
				a.message, a.msgBad = "not found in "+p.Title()+": "+j.Target(), true
			}
			return cmd
		}
		if f, ok := p.(focuser); ok && !f.Focus(j) {
			a.message, a.msgBad = "not found in "+p.Title()+": "+j.Target(), true
		}
		return nil
	}
	return nil
}

func (a *App) openProblems() {
	a.help, a.trends = false, nil
	a.probs = problemsui.NewProblemsView(a.c, a.snap)
	a.probs.SetSize(a.width, a.bodyHeight())
}

func (a *App) openTrends() tea.Cmd {
	a.help, a.probs = false, nil
	var cmd tea.Cmd
	a.trends, cmd = trendsui.NewTrendsView(a.c, a.snap)
	a.trends.SetSize(a.width, a.bodyHeight())
	return cmd
}

func (a *App) toggleTrends() tea.Cmd {
	if a.trends != nil {
		a.trends = nil
		return nil
	}
	return a.openTrends()
}

func (a *App) toggleProblems() {
	if a.probs != nil {
		a.probs = nil
		return
	}
	a.openProblems()
}

// copyFocused puts the focused view's value on the clipboard (OSC 52) and says what it was.
func (a *App) copyFocused() tea.Cmd {
	c, ok := a.view().(common.Copier)
	var label, value string
	if ok {
		label, value, ok = c.CopyValue()
	}
	if !ok || value == "" {
		a.message, a.msgBad = "nothing to copy here", true
		return nil
	}
	shown := value
	if common.CellWidth(shown) > 40 {
		shown = common.Trunc(shown, 40, a.c.Styles.G.Ellipsis)
	}
	a.message = "copied " + label + " " + shown + " (OSC 52)"
	return common.CopyCmd(value, a.opts.Getenv)
}

// click: a tab selects its pane, the problems badge opens the problems view, a body line goes
// to the view's Click.
func (a *App) click(m tea.MouseClickMsg) tea.Cmd {
	if a.tooSmall() || m.Button != tea.MouseLeft {
		return nil
	}
	if a.help {
		a.help = false
		return nil
	}
	switch {
	case m.Y == 1:
		if p := a.panes[a.active]; len(p.Breadcrumb()) > 0 && !a.overlaid() {
			return nil
		}
		if i := a.tabAt(m.X); i >= 0 {
			a.probs, a.trends, a.active = nil, nil, i
		}
	case m.Y == a.height-1:
		if x0, x1 := a.badgeSpan(); m.X >= x0 && m.X < x1 {
			a.toggleProblems()
		}
	case m.Y >= 2 && m.Y < a.height-1 && a.timelineReady():
		if c, ok := a.view().(clicker); ok {
			return c.Click(m.Y - 2)
		}
	}
	return nil
}

// tabLabel is the i-th tab's text (tabsView draws it with one cell either side).
func (a *App) tabLabel(i int) string { return fmt.Sprintf("%d %s", i+1, a.panes[i].Title()) }

// tabAt is the tab under column x, or -1.
func (a *App) tabAt(x int) int {
	at := 1
	for i := range a.panes {
		w := common.CellWidth(a.tabLabel(i)) + 2
		if x >= at && x < at+w {
			return i
		}
		at += w + 1
	}
	return -1
}

// paneKeys is the focused view's keymap of pane p: its KeyMap, or one column from Help.
func paneKeys(p common.Pane) help.KeyMap {
	if m, ok := p.(common.KeyMapper); ok {
		return m.KeyMap()
	}
	return common.KeyColumns{Titles: []string{p.Title()}, Cols: [][]key.Binding{p.Help()}}
}

// keyGroups is what ? lists on pane p: the focused view's keys, then the root's (only
// ctrl+c and ctrl+z while an input has focus).
func (a *App) keyGroups(p common.Pane) []common.HelpGroup {
	out := common.HelpGroups(paneKeys(p))
	if p.Capturing() {
		return append(out, common.HelpGroups(a.c.Keys.Capturing())...)
	}
	return append(out, common.HelpGroups(a.c.Keys.GlobalKeys)...)
}

func (a *App) tableName() string {
	if a.snap != nil && a.snap.Config != nil {
		return a.snap.Config.Name
	}
	return strings.TrimSuffix(filepath.Base(a.opts.Location), filepath.Ext(a.opts.Location))
}

func (a *App) exportName(what string) string {
	return fmt.Sprintf("hudiscope-%s-%s-%s.md", common.Slug(a.tableName()), common.Slug(what), a.opts.Now().Format("20060102-150405"))
}

func (a *App) exportPane() tea.Cmd {
	p := a.view()
	what, md := p.Export()
	return a.writeCmd(common.Slug(p.Title())+" pane", a.exportName(what), func() string { return md })
}

func (a *App) exportReport() tea.Cmd {
	s := a.snap
	if s == nil {
		a.message, a.msgBad = "nothing loaded yet to report on", true
		return nil
	}
	return a.writeCmd("report", a.exportName("report"), func() string { return report.Markdown(context.Background(), s) })
}

// writeCmd writes an export, cut to report.ExportLimit unless FullExport.
func (a *App) writeCmd(what, name string, content func() string) tea.Cmd {
	full, dir, root := a.opts.FullExport, a.opts.ExportDir, a.opts.Location
	return func() tea.Msg {
		md, cut := content(), false
		if !full {
			md, cut = report.Fit(md, report.ExportLimit)
		}
		path, err := writeExport(dir, name, []byte(md), root)
		return exportDoneMsg{what: what, path: path, err: err, cut: cut}
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
func (a *App) Render() string { return common.AsciiCuts(a.c.Styles.G, a.render()) }

func (a *App) render() string {
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
		body = a.view().View(w, a.bodyHeight())
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
	return tooSmallView(a.width, a.height, a.c.Keys.Quit.Help().Key)
}

// tooSmallView says the terminal is too small, centred, in the longest wording that fits
// ("terminal too small / 20x5, needs at least 60x15" down to "60x15"); what still does not fit
// is cut with the mark.
func tooSmallView(w, h int, quit string) string {
	now, need := fmt.Sprintf("%dx%d", w, h), fmt.Sprintf("%dx%d", MinWidth, MinHeight)
	choose := func(opts ...string) string {
		for _, o := range opts {
			if len(o) <= w {
				return o
			}
		}
		return opts[len(opts)-1]
	}
	msg := []string{choose("terminal too small", "too small"),
		choose(now+", needs at least "+need, now+", needs "+need, "needs "+need, need),
		choose(quit+" quits", quit)}
	var lines []string
	top := max(0, (h-len(msg))/2)
	for i := 0; i < top; i++ {
		lines = append(lines, "")
	}
	for _, m := range msg {
		pad := max(0, (w-len(m))/2)
		lines = append(lines, strings.Repeat(" ", pad)+m)
	}
	return common.Fit(lines, w, h)
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
			cdc = "CDC on (" + common.DashIf(c.CDCMode) + ")"
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
		props := mark("props", a.snap.Options.Props)
		if a.snap.Options.Props != "" {
			props = a.propsMark()
		}
		right = props + "  " + ev + " "
		compact = props + " " + evShort + " "
	}
	alerts := a.watchHeader(w/2, w-common.LipglossWidth(left)-1)
	if alerts[0] != "" {
		right, compact = alerts[0]+"  "+right, alerts[0]+" "+compact
	}
	// Most important first: the table's identity, then the inputs, then the brand.
	for _, v := range [][2]string{{brand + left, right}, {left, right}, {left, compact}, {left, alerts[1]}, {left, ""}} {
		if common.LipglossWidth(v[0])+1+common.LipglossWidth(v[1]) <= w {
			return joinLR(v[0], v[1], w)
		}
	}
	return common.Clip(left, w)
}

// propsMark is a given --props file's header mark: ✓ only once the configuration step read it;
// while it is read, …; when it failed (the file went away or is not properties), ✗ and the
// problems key, as the failure is listed there.
func (a *App) propsMark() string {
	st := a.c.Styles
	g := st.G
	s := a.snap
	switch {
	case s.StepErrors[model.StepConfig] == nil && s.Effective != nil:
		return "props " + st.OK.Render(g.OK)
	case s.StepErrors[model.StepConfig] == nil && !s.HasRun(model.StepConfig) && !a.finished:
		return "props " + st.Dim.Render(g.Ellipsis)
	}
	return "props " + st.Bad.Render(g.Bad) + st.Dim.Render(" ("+a.c.Keys.Problems.Help().Key+")")
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
	if crumbs := p.Breadcrumb(); len(crumbs) > 0 && !a.help && !a.overlaid() {
		s := " " + st.TabActive.Render(fmt.Sprintf("%d %s", a.active+1, p.Title()))
		for _, c := range crumbs {
			s += g.Crumb + safetext.Terminal(c) // crumbs are plain text
		}
		return common.Clip(s+st.Dim.Render("   "+a.c.Keys.Back.Help().Key+": back"), w)
	}
	var b strings.Builder
	b.WriteByte(' ')
	for i := range a.panes {
		label := a.tabLabel(i)
		if i == a.active && !a.overlaid() {
			b.WriteString(st.TabActive.Render("[" + label + "]"))
		} else {
			b.WriteString(st.Tab.Render(" " + label + " "))
		}
		b.WriteByte(' ')
	}
	return common.Clip(b.String(), w)
}

// badge is the status line's problems badge ("" when there are none).
func (a *App) badge() string {
	if a.snap == nil {
		return ""
	}
	if n := a.c.View(a.snap).ProblemCount(); n > 0 {
		return fmt.Sprintf("%s %d problem(s)", a.c.Styles.G.Warn, n)
	}
	return ""
}

// statusRight is the status line's right part: the badge, load progress and the view's status.
func (a *App) statusRight() string {
	right := ""
	if a.message == "" && !a.help && a.timelineReady() {
		right = a.view().Status()
	}
	if a.message == "" && !a.finished && a.timelineReady() && a.prog.Step != "" {
		right = fmt.Sprintf("reading %s %d/%d", a.prog.Step, a.prog.Index, a.prog.Total) + "  " + right
	}
	if w := a.watchStatus(); w != "" {
		right = w + "  " + right
	}
	if b := a.badge(); b != "" {
		right = a.c.Styles.Warn.Render(b) + "  " + right
	}
	return right + " "
}

// badgeSpan is the problems badge's columns [x0, x1) on the status line.
func (a *App) badgeSpan() (int, int) {
	b := a.badge()
	if b == "" {
		return -1, -1
	}
	rw := common.LipglossWidth(a.statusRight())
	x0 := max(0, a.width-rw)
	return x0, x0 + common.CellWidth(b)
}

func (a *App) statusView(w int) string {
	st := a.c.Styles
	right := a.statusRight()
	if a.message != "" {
		m := " " + a.message
		if a.msgBad {
			m = st.Bad.Render(m)
		}
		if strings.TrimSpace(right) == "" {
			return common.Clip(m, w)
		}
		return joinLR(m, right, w)
	}
	var keys []key.Binding
	k := a.c.Keys
	switch {
	case a.help, !a.timelineReady():
		keys = []key.Binding{k.Help, k.Quit}
	default:
		keys = a.hints(a.view())
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
	// Hints that do not fit are left off whole (the last first; ? lists them all) rather than
	// cut inside a word.
	for len(parts) > 1 && common.CellWidth(" "+strings.Join(parts, " "))+1+common.CellWidth(right) > w {
		parts = parts[:len(parts)-1]
	}
	return joinLR(" "+strings.Join(parts, " "), right, w)
}

// hints are the hint bar's keys: the pane's own (Help) framed by the root's that apply there.
func (a *App) hints(p common.Pane) []key.Binding {
	k := a.c.Keys
	own := common.Enabled(p.Help()...)
	switch {
	case p.Capturing():
		return own
	case p == common.Pane(a.probs):
		return []key.Binding{k.Back, k.Copy, k.Problems}
	case p == common.Pane(a.trends):
		return append(append([]key.Binding{k.Back}, own...), k.Copy, k.Export, k.Trends)
	case len(p.Breadcrumb()) > 0:
		return append(append([]key.Binding{k.Back}, own...), k.Export)
	case len(own) == 0:
		return k.GlobalKeys.ShortHelp()
	}
	if _, ok := p.(common.Copier); ok {
		own = append(own, k.Copy)
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
	rw := common.LipglossWidth(right)
	if rw >= w {
		return common.Clip(right, w)
	}
	left = common.Clip(left, w-rw-1)
	gap := w - common.LipglossWidth(left) - rw
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
		lines = append(lines, " "+common.ProgressBar(g, frac, bw)+fmt.Sprintf(" %3.0f%%", frac*100), "")
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
	return common.Fit(lines, w, h)
}

func (a *App) helpView(w, h int) string {
	st := a.c.Styles
	lines := a.helpLines(w, h)
	if len(lines) > h && h > 2 {
		// Keep the title, scroll the rest, and say how to see what is cut.
		body := lines[1:]
		page := h - 2
		top := max(0, min(a.helpTop, len(body)-page))
		more := fmt.Sprintf("  lines %d–%d of %d · %s/%s scroll", top+1, top+page, len(body),
			a.c.Keys.Nav.Down.Help().Key, a.c.Keys.Nav.Up.Help().Key)
		lines = append(append([]string{lines[0]}, body[top:top+page]...), st.Dim.Render(more))
	}
	return common.Fit(lines, w, h)
}

// helpLines are the ? overlay's lines before they are fitted to the screen.
func (a *App) helpLines(w, h int) []string {
	st := a.c.Styles
	groups := a.keyGroups(a.view())
	// One block per group; blocks flow into columns sized to their content. When they are
	// wider than the screen, descriptions wrap to the columns' share of the width.
	cols, widths := a.helpColumns(groups, h-1, 0)
	if sum(widths)+1 > w {
		// Two columns with wrapped descriptions; taller than the screen if need be (the
		// overlay then scrolls) rather than wider.
		descW := max(10, (w+2-34)/2)
		for avail := h - 1; ; avail += 2 {
			if c, wd := a.helpColumns(groups, avail, descW); len(c) <= 2 || avail > 400 {
				cols, widths = c, wd
				break
			}
		}
	}
	k := a.c.Keys
	lines := []string{" " + st.Header.Render("Keys: "+a.view().Title()) +
		st.Dim.Render("  ("+k.Help.Help().Key+" or "+k.Back.Help().Key+" closes)")}
	rows := 0
	for _, c := range cols {
		rows = max(rows, len(c))
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
				cell = common.PadRight(cell, widths[i])
			}
			b.WriteString(cell)
		}
		lines = append(lines, b.String())
	}
	return lines
}

// helpColumns packs the groups' blocks into columns of at most avail lines; descW > 0 wraps
// descriptions to that width.
func (a *App) helpColumns(groups []common.HelpGroup, avail, descW int) ([][]string, []int) {
	st := a.c.Styles
	var cols [][]string
	var cur []string
	for _, g := range groups {
		bl := []string{st.ColHead.Render(g.Title)}
		// Keys are short; a legend's words ("not observed") widen their group's column
		// rather than being cut.
		kw := 11
		for _, b := range g.Keys {
			kw = max(kw, common.CellWidth(b.Help().Key))
		}
		dw := descW
		if dw > 0 {
			dw = max(8, descW-(kw-11)) // a wider key column leaves less for the description
		}
		for _, b := range g.Keys {
			hk := b.Help()
			desc := []string{hk.Desc}
			if dw > 0 && common.CellWidth(hk.Desc) > dw {
				desc = common.Wrap(hk.Desc, dw)
			}
			bl = append(bl, "  "+st.Key.Render(common.PadRight(hk.Key, kw))+" "+desc[0])
			for _, d := range desc[1:] {
				bl = append(bl, strings.Repeat(" ", kw+3)+d)
			}
		}
		// A blank line between blocks, unless only that keeps the block in the column.
		sep := len(cur) > 0 && len(cur)+1+len(bl) <= avail
		if len(cur) > 0 && !sep && len(cur)+len(bl) > avail {
			cols = append(cols, cur)
			cur = nil
		}
		if sep {
			cur = append(cur, "")
		}
		cur = append(cur, bl...)
	}
	cols = append(cols, cur)
	widths := make([]int, len(cols))
	for i, c := range cols {
		for _, l := range c {
			widths[i] = max(widths[i], common.LipglossWidth(l)+3)
		}
	}
	widths[len(widths)-1] -= 3 // the last column is not padded
	return cols, widths
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}
