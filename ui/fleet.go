package ui

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/hudiscope/hudiscope/internal/clock"
	"github.com/hudiscope/hudiscope/internal/redact"
	"github.com/hudiscope/hudiscope/internal/units"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
	"github.com/hudiscope/hudiscope/ui/common"
)

// FleetOptions configure the Fleet view: many tables, one row each.
type FleetOptions struct {
	// Source names what is listed (a location or glue:DB).
	Source string
	// Run discovers and reads the tables, calling row as each is read (from any goroutine);
	// the Fleet calls it in a goroutine. nil: the caller feeds FleetRowMsg itself (tests).
	Run func(ctx context.Context, row func(i int, r model.FleetRow)) (*model.Discovery, error)
	// Open builds the explorer's options (its Load among them) for a row; nil: Enter does
	// nothing.
	Open  func(r model.FleetRow) Options
	Color bool
	ASCII bool
	Mouse bool
	Now   func() time.Time
}

// FleetRowMsg is one table's row, read.
type FleetRowMsg struct {
	I   int
	Row model.FleetRow
}

// FleetDoneMsg says discovery and every row are done.
type FleetDoneMsg struct {
	Discovery *model.Discovery
	Err       error
}

// leaveTableMsg takes the explorer of one table away (esc with nothing else to close).
type leaveTableMsg struct{}

// Fleet is the root model when the location is not a table: a sortable, filterable list of
// tables that fills in as each is read; Enter opens one in the usual panes (an App), and esc
// there comes back.
type Fleet struct {
	opts  FleetOptions
	c     *common.Common
	rows  []model.FleetRow
	cells [][]string // report.FleetCells of each row, made once as it arrives (not per frame)
	lv    *common.ListView
	child *App
	// apps are the explorers opened so far, by location: esc keeps one (its load goes on),
	// Enter on the same row shows it again as it was left.
	apps map[string]*App

	width, height int
	done          bool
	disc          *model.Discovery
	err           error
	started       time.Time
	// FirstScreen is how long the first complete screen (every row in) took.
	FirstScreen time.Duration
	help        bool
	touched     bool // a key moved the cursor, sorted or filtered

	ch     chan tea.Msg
	cancel context.CancelFunc
}

// NewFleet builds the Fleet view.
func NewFleet(o FleetOptions) *Fleet {
	if o.Now == nil {
		o.Now = clock.Now
	}
	c := &common.Common{Styles: common.NewStyles(o.Color, o.ASCII), Keys: common.DefaultKeyMap(), Clock: &common.Clock{Now: o.Now}}
	if o.ASCII {
		c.Keys.AsciiHelp()
	}
	f := &Fleet{opts: o, c: c, width: 80, height: 24, started: o.Now(), apps: map[string]*App{}}
	f.lv = common.NewListView(f.Columns(), 0, f.cell, f.search)
	f.lv.SetPage(f.bodyRows())
	return f
}

func (f *Fleet) Columns() []common.LvCol {
	row := func(i int) model.FleetRow { return f.rows[i] }
	age := func(s *int64) float64 {
		if s == nil {
			return -1
		}
		return float64(*s)
	}
	return []common.LvCol{
		{Title: "TABLE", Width: 16, Flex: true, MaxW: 30, Txt: func(i int) string { return row(i).Name }},
		{Title: "TYPE", Width: 4, Prio: 3, Txt: func(i int) string { return row(i).TableType }},
		{Title: "V", Width: 2, Right: true, Prio: 4, Num: func(i int) float64 { return float64(row(i).TableVersion) }},
		{Title: "SIZE", Width: 9, Right: true, Prio: 1, Num: func(i int) float64 { return float64(row(i).SizeBytes) }},
		{Title: "PARTS", Width: 5, Right: true, Prio: 2, Num: func(i int) float64 { return float64(row(i).Partitions) }},
		{Title: "LAST", Width: 6, Right: true, Prio: 1, Num: func(i int) float64 { return age(row(i).LastCommitAgeSeconds) }},
		{Title: "PENDING", Width: 16, Prio: 2, Num: func(i int) float64 {
			m := -1.0
			for _, p := range row(i).Pending {
				m = max(m, age(p.AgeSeconds))
			}
			return m
		}},
		{Title: "HEALTH", Width: 9, Flex: true, MaxW: 28, Num: func(i int) float64 { return float64(report.FleetSeverity(row(i))) }},
		{Title: "SYNC", Width: 9, Prio: 2, Txt: func(i int) string { return syncRank(row(i).MetaSync) }},
		{Title: "NOTE", Width: 10, Flex: true, Prio: 5},
	}
}

// syncRank sorts UNHEALTHY first, then HEALTHY, then tables without a catalog.
func syncRank(s string) string {
	switch s {
	case "UNHEALTHY":
		return "0"
	case "HEALTHY":
		return "1"
	case "":
		return "3"
	}
	return "2" + s
}

// cell is one cell, with credentials in names and messages redacted (hdfs://user:pw@…).
func (f *Fleet) cell(i, c int) string {
	v := f.rawCell(i, c)
	if c == 0 || c == 9 {
		v = redact.Text(v)
	}
	return v
}

// rawCell is the row's report.FleetCells cell (the view leaves FINDINGS out: its column 9
// is NOTE), with SIZE in the compact form that fits the column.
func (f *Fleet) rawCell(i, c int) string {
	switch {
	case c == 3 && f.rows[i].Error == "":
		return units.BytesCompact(f.rows[i].SizeBytes)
	case c == 9:
		c = 10
	case c < 0 || c > 9:
		return ""
	}
	return f.cells[i][c]
}

func (f *Fleet) search(i int) string {
	r := f.rows[i]
	return strings.Join([]string{r.Name, r.Location, r.TableType, r.Health, r.MetaSync, r.Error, report.FleetPendingCell(r)}, " ")
}

func (f *Fleet) bodyRows() int { return max(1, f.height-5) }

// Init starts discovery and loading.
func (f *Fleet) Init() tea.Cmd {
	if f.opts.Run == nil {
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	f.cancel = cancel
	f.ch = make(chan tea.Msg, 64)
	go func() {
		defer close(f.ch)
		d, err := f.opts.Run(ctx, func(i int, r model.FleetRow) { f.ch <- FleetRowMsg{I: i, Row: r} })
		f.ch <- FleetDoneMsg{Discovery: d, Err: err}
	}()
	return f.wait()
}

func (f *Fleet) wait() tea.Cmd {
	ch := f.ch
	return func() tea.Msg {
		m, ok := <-ch
		if !ok {
			return nil
		}
		return m
	}
}

// Rows are the rows read so far, in arrival order.
func (f *Fleet) Rows() []model.FleetRow { return f.rows }

// Done reports whether every row is in.
func (f *Fleet) Done() bool { return f.done }

// Table is the open table's explorer (nil in the list).
func (f *Fleet) Table() *App { return f.child }

func (f *Fleet) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		f.width, f.height = msg.Width, msg.Height
		f.lv.SetPage(f.bodyRows())
		f.lv.SizeFooter(f.width, "tables")
		if f.child != nil {
			f.child.Update(msg)
		}
		return f, nil
	case FleetRowMsg:
		f.addRow(msg.Row)
		if f.ch != nil {
			return f, f.wait()
		}
		return f, nil
	case FleetDoneMsg:
		f.done, f.disc, f.err = true, msg.Discovery, msg.Err
		f.FirstScreen = f.opts.Now().Sub(f.started)
		return f, nil
	case leaveTableMsg:
		f.child = nil
		return f, nil
	case ProgressMsg:
		// An explorer's load reports to the root: hand it to the explorer of that location,
		// shown or not.
		if msg.Snapshot != nil {
			if a := f.apps[msg.Snapshot.Options.Location]; a != nil {
				_, cmd := a.Update(msg)
				return f, cmd
			}
		}
		if f.child != nil {
			_, cmd := f.child.Update(msg)
			return f, cmd
		}
		return f, nil
	case loadClosedMsg:
		// Whose channel closed is unknown here; every load's last progress event already said
		// it finished.
		return f, nil
	}
	if f.child != nil {
		_, cmd := f.child.Update(msg)
		return f, cmd
	}
	if msg, ok := msg.(tea.KeyPressMsg); ok {
		return f, f.key(msg)
	}
	if msg, ok := msg.(tea.MouseWheelMsg); ok {
		f.lv.Handle(f.c.Keys, msg)
	}
	return f, nil
}

// addRow keeps the triage order (worst first) as the natural order while rows arrive.
func (f *Fleet) addRow(r model.FleetRow) {
	// Until the user moves, the cursor stays on the top (worst) row; after, on its table.
	keep := -1
	if f.touched {
		keep = f.lv.Selected()
	}
	f.rows = append(f.rows, r)
	f.cells = append(f.cells, report.FleetCells(r))
	// The new row goes after every row it does not sort before: the order a stable sort of all
	// rows gives, without re-sorting them on each arrival.
	at := sort.Search(len(f.lv.Base), func(p int) bool { return report.FleetLess(r, f.rows[f.lv.Base[p]]) })
	f.lv.N, f.lv.Base = len(f.rows), slices.Insert(f.lv.Base, at, len(f.rows)-1)
	f.lv.Apply(keep)
}

func (f *Fleet) key(msg tea.KeyPressMsg) tea.Cmd {
	k := f.c.Keys
	if key.Matches(msg, k.ForceQuit) {
		return f.quit()
	}
	f.touched = true
	if f.lv.Filtering {
		f.lv.Handle(k, msg)
		return nil
	}
	switch {
	case f.help:
		f.help = false
		return nil
	case key.Matches(msg, k.Quit):
		return f.quit()
	case key.Matches(msg, k.Help):
		f.help = true
	case key.Matches(msg, k.Back):
		f.lv.CloseFilter()
	case key.Matches(msg, k.Open):
		return f.Open()
	default:
		f.lv.Handle(k, msg)
	}
	return nil
}

func (f *Fleet) quit() tea.Cmd {
	if f.cancel != nil {
		f.cancel()
	}
	for _, a := range f.apps {
		if a.cancel != nil {
			a.cancel()
		}
	}
	return tea.Quit
}

// Open shows the selected table in the usual panes; esc there (with nothing to close) comes
// back to the list, cancelling that table's load.
func (f *Fleet) Open() tea.Cmd {
	i := f.lv.Selected()
	if i < 0 || f.opts.Open == nil {
		return nil
	}
	r := f.rows[i]
	if r.Error != "" {
		return nil
	}
	if a := f.apps[r.Location]; a != nil {
		f.child = a
		a.Update(tea.WindowSizeMsg{Width: f.width, Height: f.height})
		return nil
	}
	o := f.opts.Open(r)
	o.Leave = func() tea.Msg { return leaveTableMsg{} }
	f.child = New(o)
	f.apps[r.Location] = f.child
	f.child.Update(tea.WindowSizeMsg{Width: f.width, Height: f.height})
	return f.child.Init()
}

// View draws the list, or the open table.
func (f *Fleet) View() tea.View {
	v := tea.NewView(f.Render())
	v.AltScreen = true
	if f.opts.Mouse {
		v.MouseMode = tea.MouseModeCellMotion
	}
	v.WindowTitle = "hudiscope fleet " + f.opts.Source
	if f.child != nil {
		v.WindowTitle = "hudiscope " + f.child.tableName()
	}
	return v
}

// Render draws the screen as a string.
func (f *Fleet) Render() string {
	if f.child != nil {
		return f.child.Render()
	}
	return common.AsciiCuts(f.c.Styles.G, f.render())
}

func (f *Fleet) render() string {
	st := f.c.Styles
	w, h := f.width, f.height
	if w < MinWidth || h < MinHeight {
		return tooSmallView(w, h, f.c.Keys.Quit.Help().Key)
	}
	state := fmt.Sprintf("reading: %d table(s) so far", len(f.rows))
	if f.done {
		state = fmt.Sprintf("%d table(s)", len(f.rows))
	}
	counts := map[int]int{}
	for _, r := range f.rows {
		counts[report.FleetSeverity(r)]++
	}
	head := common.Clip(st.Brand.Render(" hudiscope fleet ")+" "+f.opts.Source+"  "+state, w)
	summary := common.Clip(fmt.Sprintf(" %d unreadable · %d unhealthy · %d healthy · %d not judged · sort: %s",
		counts[3], counts[2], counts[1], counts[0], f.lv.SortName("worst first")), w)
	lines := []string{head, summary}
	if f.help {
		lines = append(lines, "", " enter  open the table (esc comes back)", " /      filter", " s      sort (cycle columns)",
			" esc    clear the filter", " q      quit", "", " any key closes this help")
		return common.Fit(append(lines, make([]string, h)...)[:h], w, h)
	}
	lines = append(lines, f.lv.Header(st, w))
	body := f.lv.Rows(st, w, true)
	if len(body) == 0 {
		msg := " looking for tables…"
		if f.done {
			msg = " no Hudi table found under " + f.opts.Source
		}
		body = []string{msg}
	}
	lines = append(lines, body...)
	for len(lines) < h-2 {
		lines = append(lines, "")
	}
	lines = lines[:h-2]
	foot := f.lv.Footer(f.c, w, "tables")
	if foot == "" && f.done && f.disc != nil && f.disc.Stopped != "" {
		foot = " discovery " + f.disc.Stopped
	}
	if foot == "" && f.err != nil {
		foot = " " + f.err.Error()
	}
	lines = append(lines, common.Clip(foot, w))
	status := " " + f.lv.Status() + "  enter: open · /: filter · s: sort · ?: help · q: quit"
	lines = append(lines, st.Status.Render(common.PadRight(common.Clip(status, w), w)))
	return strings.Join(lines, "\n")
}
