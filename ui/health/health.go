// Package health is the explorer's Health pane: the checks and each check's detail.
package health

import (
	"fmt"
	"path/filepath"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/hudiscope/hudiscope/analyzers/config"
	"github.com/hudiscope/hudiscope/analyzers/health"
	"github.com/hudiscope/hudiscope/internal/units"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
	"github.com/hudiscope/hudiscope/ui/common"
)

// HealthPane is pane 3: every check with the observed number, the configured trigger and the
// checker's slack threshold; a check past its trigger but inside the slack is "behind, not
// stopped". Enter opens a check: summary, findings, effective configs and property sources.
type HealthPane struct {
	c    *common.Common
	km   healthKeys
	snap *model.Snapshot
	// base is the snapshot's result; res the one shown (base, or base re-judged with d).
	base   *health.Result
	snapIn *health.Input // the read base judged
	Res    *health.Result
	bands  map[string]health.Band
	List   *common.ListView
	Detail *common.Pager
	check  string

	width, height int
}

// healthKeys are the check list's keys.
type healthKeys struct {
	common.ListKeys
	Open, Defaults key.Binding
}

func (k healthKeys) ShortHelp() []key.Binding {
	return common.Enabled(k.Open, k.Defaults, k.Filter, k.Sort)
}
func (k healthKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.All(), {k.Open, k.Defaults, k.Filter, k.Sort}}
}
func (k healthKeys) HelpTitles() []string { return []string{"Move", "Health"} }

// healthCheckKeys are an open check's keys: its text scrolls, and d still re-judges.
type healthCheckKeys struct {
	common.PagerKeys
	Defaults key.Binding
}

func (k healthCheckKeys) ShortHelp() []key.Binding {
	return append(k.PagerKeys.ShortHelp(), common.Enabled(k.Defaults)...)
}
func (k healthCheckKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.All(), {k.Defaults}}
}
func (k healthCheckKeys) HelpTitles() []string { return []string{"Scroll", "Health"} }

// NewHealth makes the Health pane.
func NewHealth(c *common.Common) *HealthPane {
	return &HealthPane{c: c, km: healthKeys{Open: c.Keys.Open,
		Defaults: common.Bind("d", "defaults assumed (toggle)", "d")}}
}

// canRejudge: the health step's input is at hand, so d re-runs the checks without reading.
func (h *HealthPane) canRejudge() bool {
	return h.snap != nil && h.snap.HealthIn != nil && h.Res != nil
}

// assumed: the shown result judges unset properties by Hudi's defaults.
func (h *HealthPane) assumed() bool {
	return h.Res != nil && h.Res.Hudiscope != nil && h.Res.Hudiscope.ApplyAllDefaults
}

// KeyMap is the focused view's keys: a check's text, the filter, or the list.
func (h *HealthPane) KeyMap() help.KeyMap {
	switch {
	case h.List == nil:
		return common.KeyColumns{}
	case h.Detail != nil:
		return healthCheckKeys{h.Detail.Keys(h.c.Keys.Nav), common.When(h.km.Defaults, h.canRejudge())}
	case h.List.Filtering:
		return h.c.Keys.FilterKeys()
	}
	k := h.km
	k.ListKeys = h.List.Keys(h.c.Keys)
	k.Open = common.When(k.Open, h.List.Selected() >= 0)
	k.Defaults = common.When(k.Defaults, h.canRejudge())
	return k
}

func (h *HealthPane) Title() string { return "Health" }

func (h *HealthPane) SetSize(w, ht int) { h.width, h.height = w, ht; h.Reflow() }

// Reflow fits the open check's text and the filter input to the size.
func (h *HealthPane) Reflow() {
	if h.List == nil {
		return
	}
	h.List.SizeFooter(h.width, "checks")
	if h.Detail != nil {
		h.Detail.Set(h.checkLines(h.check, h.width, true), h.width, h.height-1)
	}
}

func stateRank(s string) int {
	switch s {
	case health.Stopped:
		return 3
	case health.Behind:
		return 2
	case health.OnTrack:
		return 1
	}
	return 0
}

func statusRank(s string) int {
	switch s {
	case health.Unhealthy:
		return 2
	case health.Healthy:
		return 1
	}
	return 0
}

func (h *HealthPane) SetSnapshot(s *model.Snapshot) tea.Cmd {
	h.snap = s
	if s == nil || s.Health == nil || s.Health == h.base {
		return nil
	}
	// A re-judged snapshot (d) keeps the open check; a new read closes it.
	if h.Detail != nil && (h.base == nil || s.HealthIn == nil || s.HealthIn != h.snapIn || s.Health.Check(h.check) == nil) {
		h.Detail = nil
	}
	h.base, h.snapIn = s.Health, s.HealthIn
	h.setResult(s.Health)
	return nil
}

// rejudge flips "judge unset properties by Hudi's defaults": the app runs the checks again on
// what the health step read (the table is not read again) and publishes the result to every
// surface, so the Overview and the exports show what this pane shows.
func (h *HealthPane) rejudge() tea.Cmd {
	if !h.canRejudge() {
		return nil
	}
	all := !h.assumed()
	return func() tea.Msg { return common.RejudgeMsg{ApplyAll: all} }
}

// setResult shows r, keeping the sort, the filter and the selected check.
func (h *HealthPane) setResult(r *health.Result) {
	keepName, sortBy, filter := "", -1, ""
	if h.List != nil {
		if i := h.List.Selected(); i >= 0 && h.Res != nil {
			keepName = h.Res.Checks[i].Name
		}
		sortBy, filter = h.List.SortBy, h.List.Filter
	}
	h.Res = r
	h.bands = report.HealthBands(r)
	cs := r.Checks
	band := func(i int) health.Band { return h.bands[cs[i].Name] }
	num := func(p *int64) float64 {
		if p == nil {
			return -1
		}
		return float64(*p)
	}
	statusW, triggerW, star := 9, 8, map[string]bool{}
	if r.Hudiscope != nil && r.Hudiscope.ApplyAllDefaults {
		// Room for the * of a check judged with a default, taken from trigger (short numbers:
		// commit counts, or bytes shown as 1.1G) so the state column still fits at 80.
		statusW, triggerW = 10, 7
		for _, c := range cs {
			star[c.Name] = len(defaultsUsed(r, c.Name)) > 0
		}
	}
	cols := []common.LvCol{
		{Title: "check", Width: 14, Txt: func(i int) string { return cs[i].Name }},
		{Title: "status", Width: statusW, Num: func(i int) float64 { return float64(statusRank(cs[i].Status)) }},
		{Title: "observed", Width: 8, Right: true, Num: func(i int) float64 { return num(band(i).Observed) }},
		{Title: "trigger", Width: triggerW, Right: true},
		{Title: "unhealthy at", Width: 12, Right: true},
		{Title: "state", Width: 21, Num: func(i int) float64 { return float64(stateRank(band(i).State)) }},
		{Title: "measure", Width: 20, Flex: true, Prio: 2},
	}
	h.List = common.NewListView(cols, len(cs), func(i, c int) string {
		b := band(i)
		switch c {
		case 0:
			return cs[i].Name
		case 1:
			if star[cs[i].Name] {
				return cs[i].Status + "*"
			}
			return cs[i].Status
		case 2:
			return bandNum(b, b.Observed)
		case 3:
			return bandNum(b, b.Trigger)
		case 4:
			return bandNum(b, b.Threshold)
		case 5:
			return common.DashIf(b.State)
		case 6:
			return common.DashIf(b.Measure)
		}
		return ""
	}, func(i int) string { return cs[i].Name + " " + cs[i].Status + " " + band(i).State })
	h.List.Mark = func(i int) string {
		switch {
		case band(i).State == health.Behind:
			return h.c.Styles.G.Warn
		case band(i).State == health.Stopped, cs[i].Status == health.Unhealthy:
			return h.c.Styles.G.Bad
		}
		return ""
	}
	if keepName != "" || sortBy >= 0 || filter != "" {
		keep := -1
		for i, c := range cs {
			if c.Name == keepName {
				keep = i
			}
		}
		h.List.SortBy, h.List.Filter = sortBy, filter
		h.List.Input.SetValue(filter)
		h.List.Apply(keep)
	}
	h.List.SetPage(h.List.N)
	h.Reflow()
}

// defaultsUsed are the writer properties check name took from Hudi's defaults.
func defaultsUsed(r *health.Result, name string) []health.SourceEntry {
	var out []health.SourceEntry
	for _, s := range report.CheckSources(r, name) {
		// Not the writing release's defaults (source "Hudi 1.2 default"): those are what the
		// writer runs with, not an assumption; the source column marks them.
		if strings.HasPrefix(s.Source, string(config.SourceEngine)) || strings.HasPrefix(s.Source, string(config.SourceDeclared)) {
			out = append(out, s)
		}
	}
	return out
}

// bandNum is one of b's numbers: bytes in binary units, counts exact up to 8 digits, else shortened.
func bandNum(b health.Band, p *int64) string {
	switch {
	case p != nil && b.CountsBytes():
		return units.BytesCompact(*p)
	case p != nil && (*p > 99_999_999 || *p < -9_999_999):
		return units.Count(*p)
	}
	return report.BandValue(b, p)
}

func (h *HealthPane) Capturing() bool { return h.List != nil && h.List.Filtering && h.Detail == nil }

func (h *HealthPane) Back() bool {
	switch {
	case h.Detail != nil:
		h.Detail = nil
	case h.List != nil && h.List.CloseFilter():
	default:
		return false
	}
	h.Reflow()
	return true
}

func (h *HealthPane) Update(msg tea.Msg) tea.Cmd {
	km, isKey := msg.(tea.KeyPressMsg)
	var cmd tea.Cmd
	switch k := h.KeyMap().(type) {
	case healthCheckKeys:
		if isKey && key.Matches(km, k.Defaults) {
			cmd = h.rejudge()
			break
		}
		h.Detail.Handle(k.NavKeys, msg)
	case healthKeys:
		switch {
		case isKey && key.Matches(km, k.Open):
			h.check = h.Res.Checks[h.List.Selected()].Name
			h.Detail = common.NewPager()
		case isKey && key.Matches(km, k.Defaults):
			cmd = h.rejudge()
		default:
			h.List.Handle(h.c.Keys, msg)
		}
	case common.FilterKeys:
		h.List.Handle(h.c.Keys, msg)
	}
	h.Reflow()
	return cmd
}

// Focus selects the check a jump names (closing an open check); none only shows the pane.
func (h *HealthPane) Focus(j common.Jump) bool {
	jc, _ := j.(common.JumpCheck)
	if jc.Name == "" {
		return true
	}
	if h.Res == nil || h.List == nil {
		return false
	}
	for i, c := range h.Res.Checks {
		if c.Name == jc.Name {
			h.Detail = nil
			ok := h.List.FocusItem(i)
			h.Reflow()
			return ok
		}
	}
	return false
}

// Click selects the check at body line y (below the headline and the header).
func (h *HealthPane) Click(y int) tea.Cmd {
	if h.List != nil && h.Detail == nil {
		h.List.ClickRow(y, 2)
	}
	return nil
}

// CopyValue is the focused check as name=status.
func (h *HealthPane) CopyValue() (string, string, bool) {
	if h.Res == nil || h.List == nil {
		return "", "", false
	}
	name := h.check
	if h.Detail == nil {
		i := h.List.Selected()
		if i < 0 {
			return "", "", false
		}
		name = h.Res.Checks[i].Name
	}
	if c := h.Res.Check(name); c != nil {
		return "check", c.Name + "=" + c.Status, true
	}
	return "", "", false
}

func (h *HealthPane) Breadcrumb() []string {
	if h.Detail != nil {
		return []string{h.check}
	}
	return nil
}

// Help is the focused view's hint-bar keys.
func (h *HealthPane) Help() []key.Binding { return h.KeyMap().ShortHelp() }

func (h *HealthPane) Status() string {
	switch {
	case h.Res == nil:
		return ""
	case h.Detail != nil:
		return h.Detail.Status()
	}
	return h.List.Status()
}

// ---- view ----

func (h *HealthPane) View(width, height int) string {
	if h.Res == nil {
		return common.NoData(common.StepReason(model.StepHealth, "health check (table services, configuration)")(h.snap), width, height)
	}
	if h.Detail != nil {
		lines := []string{h.headline(width)}
		lines = append(lines, h.Detail.VisibleLines()...)
		return common.Fit(lines, width, height)
	}
	st := h.c.Styles
	g := st.G
	lines := []string{h.headline(width)}
	var bottom []string
	legend := " " + g.Warn + " behind, not stopped: past trigger, inside slack (tuning pays)" + g.Sep + g.Bad + " unhealthy"
	bottom = append(bottom, common.Clip(st.Dim.Render(legend), width))
	if h.assumed() {
		bottom = append(bottom, common.Clip(st.Warn.Render(" * defaults assumed ("+h.km.Defaults.Help().Key+"): unset writer properties judged by Hudi's defaults"), width))
	}
	if f := h.List.Footer(h.c, width, "checks"); f != "" {
		bottom = append(bottom, f)
	}
	lines = append(lines, h.List.Header(st, width))
	rows := h.List.Rows(st, width, true)
	if len(rows) == 0 {
		rows = []string{"  no check matches the filter"}
	}
	lines = append(lines, rows...)
	room := height - len(lines) - len(bottom) - 1
	if i := h.List.Selected(); i >= 0 && room > 1 {
		lines = append(lines, st.Dim.Render(common.Clip(" "+g.Rule+" "+h.Res.Checks[i].Name+" "+strings.Repeat(g.Rule, width), width)))
		det := h.checkLines(h.Res.Checks[i].Name, width, false)
		if len(det) > room-1 {
			det = append(det[:room-2], st.Dim.Render("  "+g.Ellipsis+" "+h.km.Open.Help().Key+" shows all"))
		}
		lines = append(lines, det...)
	}
	for len(lines) < height-len(bottom) {
		lines = append(lines, "")
	}
	return common.Fit(append(lines, bottom...), width, height)
}

func (h *HealthPane) headline(width int) string {
	st := h.c.Styles
	g := st.G
	r := h.Res
	engine := "-"
	if r.Hudiscope != nil {
		engine = r.Hudiscope.Engine
	}
	props := "no --props given"
	if h.snap != nil && h.snap.Options.Props != "" {
		props = "props " + filepath.Base(h.snap.Options.Props)
		if h.snap.StepErrors[model.StepConfig] != nil {
			// Not applied: the checks judged without it (the problems view says why).
			props = st.Bad.Render("props " + filepath.Base(h.snap.Options.Props) + " not read")
		}
	}
	status := r.Verdict()
	if r.OverallStatus == health.Unhealthy {
		status = st.Bad.Render(status)
	}
	line := " overall " + status + g.Sep + "engine " + engine + g.Sep + props
	if h.snap != nil && h.snap.StepErrors[model.StepConfig] != nil {
		// A props file that was not read is why checks went unjudged: it comes before the
		// engine, so an 80-column header still shows it.
		line = " overall " + status + g.Sep + props + g.Sep + "engine " + engine
	}
	if h.assumed() {
		line += g.Sep + st.Warn.Render("defaults assumed")
	}
	return common.Clip(line, width)
}

// checkLines are a check's summary, band bars, findings and property sources; full adds the
// effective configs (observed.*, effective.*).
func (h *HealthPane) checkLines(name string, width int, full bool) []string {
	st := h.c.Styles
	g := st.G
	c := h.Res.Check(name)
	if c == nil {
		return nil
	}
	var out []string
	add := func(prefix, s string) {
		for i, w := range common.Wrap(common.AsciiText(g, s), width-len(prefix)-1) {
			if i == 0 {
				out = append(out, " "+prefix+w)
			} else {
				out = append(out, " "+strings.Repeat(" ", len(prefix))+w)
			}
		}
	}
	if full {
		out = append(out, " "+st.ColHead.Render(c.Name)+"  "+c.Status)
	}
	if h.assumed() {
		if used := defaultsUsed(h.Res, name); len(used) > 0 {
			var keys []string
			for _, u := range used {
				keys = append(keys, u.Key+"="+u.Value)
			}
			if full {
				add("", "defaults assumed: "+strings.Join(keys, ", "))
			} else {
				out = append(out, common.Clip(" "+st.Warn.Render("defaults assumed: ")+strings.Join(keys, ", "), width))
			}
		}
	}
	add("", c.Summary)
	if b := h.bands[name]; b.State != "" && b.Observed != nil && b.Trigger != nil && b.Threshold != nil {
		mx := float64(max(*b.Observed, *b.Threshold, *b.Trigger, 1))
		bw := min(40, width-32)
		state := b.State
		if state == health.Behind {
			state = st.Warn.Render(g.Warn + " " + state)
		} else if state == health.Stopped {
			state = st.Bad.Render(g.Bad + " " + state)
		}
		out = append(out, common.Clip(" "+common.DashIf(b.Measure)+": "+state, width))
		for _, r := range []struct {
			n string
			v int64
		}{{"observed", *b.Observed}, {"trigger", *b.Trigger}, {"unhealthy at", *b.Threshold}} {
			out = append(out, "  "+common.BarRow(st, common.PadRight(r.n, 12)+" "+common.PadLeft(bandNum(b, &r.v), 6), 19, float64(r.v), mx, bw, ""))
		}
	}
	for _, f := range c.Findings {
		add("- ", f)
	}
	if src := report.CheckSources(h.Res, name); len(src) > 0 {
		out = append(out, " writer properties used:")
		for _, s := range src {
			out = append(out, common.Clip("   "+s.Key+" = "+s.Value+"  ("+s.Source+")", width))
		}
	}
	if full && len(c.EffectiveConfigs) > 0 {
		out = append(out, " effective configs:")
		for _, kv := range c.EffectiveConfigs {
			out = append(out, common.Clip("   "+kv.Key+" = "+kv.Value, width))
		}
	}
	return out
}

func (h *HealthPane) Export() (string, string) {
	name := "table"
	if h.snap != nil && h.snap.Config != nil {
		name = h.snap.Config.Name
	}
	if h.Res == nil {
		return "health", "# Health: " + report.Escape(name) + "\n\n" + strings.Join(common.StepReason(model.StepHealth, "health check")(h.snap), "\n\n") + "\n"
	}
	if h.Detail != nil {
		return "health-" + h.check, fmt.Sprintf("# Health: %s, check %s\n\n", report.Escape(name), h.check) + report.HealthCheckMarkdown(h.Res, h.check, true)
	}
	var names []string
	for _, i := range h.List.Visible() {
		names = append(names, h.Res.Checks[i].Name)
	}
	return "health", fmt.Sprintf("# Health: %s\n\n", report.Escape(name)) + report.HealthMarkdown(h.Res, names)
}
