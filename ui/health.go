package ui

import (
	"fmt"
	"path/filepath"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/hudiscope/hudiscope/analyzers/config"
	"github.com/hudiscope/hudiscope/analyzers/health"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
)

// HealthPane is pane 3: every check with the observed number, the configured trigger and the
// checker's slack threshold; a check past its trigger but inside the slack is "behind, not
// stopped". Enter opens a check: summary, findings, effective configs and property sources.
type HealthPane struct {
	c    *Common
	km   healthKeys
	snap *model.Snapshot
	// base is the snapshot's result; res the one shown (base, or base re-judged with d).
	base   *health.Result
	snapIn *health.Input // the read base judged
	res    *health.Result
	bands  map[string]health.Band
	list   *listView
	detail *pager
	check  string

	width, height int
}

// healthKeys are the check list's keys.
type healthKeys struct {
	listKeys
	Open, Defaults key.Binding
}

func (k healthKeys) ShortHelp() []key.Binding { return enabled(k.Open, k.Defaults, k.Filter, k.Sort) }
func (k healthKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.all(), {k.Open, k.Defaults, k.Filter, k.Sort}}
}
func (k healthKeys) helpTitles() []string { return []string{"Move", "Health"} }

// healthCheckKeys are an open check's keys: its text scrolls, and d still re-judges.
type healthCheckKeys struct {
	pagerKeys
	Defaults key.Binding
}

func (k healthCheckKeys) ShortHelp() []key.Binding {
	return append(k.pagerKeys.ShortHelp(), enabled(k.Defaults)...)
}
func (k healthCheckKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.all(), {k.Defaults}}
}
func (k healthCheckKeys) helpTitles() []string { return []string{"Scroll", "Health"} }

// NewHealth makes the Health pane.
func NewHealth(c *Common) *HealthPane {
	return &HealthPane{c: c, km: healthKeys{Open: c.Keys.Open,
		Defaults: bind("d", "defaults assumed (toggle)", "d")}}
}

// canRejudge: the health step's input is at hand, so d re-runs the checks without reading.
func (h *HealthPane) canRejudge() bool {
	return h.snap != nil && h.snap.HealthIn != nil && h.res != nil
}

// assumed: the shown result judges unset properties by Hudi's defaults.
func (h *HealthPane) assumed() bool {
	return h.res != nil && h.res.Hudiscope != nil && h.res.Hudiscope.ApplyAllDefaults
}

// KeyMap is the focused view's keys: a check's text, the filter, or the list.
func (h *HealthPane) KeyMap() help.KeyMap {
	switch {
	case h.list == nil:
		return keyColumns{}
	case h.detail != nil:
		return healthCheckKeys{h.detail.keys(h.c.Keys.Nav), when(h.km.Defaults, h.canRejudge())}
	case h.list.filtering:
		return h.c.Keys.filterKeys()
	}
	k := h.km
	k.listKeys = h.list.keys(h.c.Keys)
	k.Open = when(k.Open, h.list.selected() >= 0)
	k.Defaults = when(k.Defaults, h.canRejudge())
	return k
}

func (h *HealthPane) Title() string { return "Health" }

func (h *HealthPane) SetSize(w, ht int) { h.width, h.height = w, ht; h.reflow() }

// reflow fits the open check's text and the filter input to the size.
func (h *HealthPane) reflow() {
	if h.list == nil {
		return
	}
	h.list.sizeFooter(h.width, "checks")
	if h.detail != nil {
		h.detail.set(h.checkLines(h.check, h.width, true), h.width, h.height-1)
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
	if h.detail != nil && (h.base == nil || s.HealthIn == nil || s.HealthIn != h.snapIn || s.Health.Check(h.check) == nil) {
		h.detail = nil
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
	return func() tea.Msg { return rejudgeMsg{applyAll: all} }
}

// setResult shows r, keeping the sort, the filter and the selected check.
func (h *HealthPane) setResult(r *health.Result) {
	keepName, sortBy, filter := "", -1, ""
	if h.list != nil {
		if i := h.list.selected(); i >= 0 && h.res != nil {
			keepName = h.res.Checks[i].Name
		}
		sortBy, filter = h.list.sortBy, h.list.filter
	}
	h.res = r
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
	cols := []lvCol{
		{title: "check", width: 14, txt: func(i int) string { return cs[i].Name }},
		{title: "status", width: statusW, num: func(i int) float64 { return float64(statusRank(cs[i].Status)) }},
		{title: "observed", width: 8, right: true, num: func(i int) float64 { return num(band(i).Observed) }},
		{title: "trigger", width: triggerW, right: true},
		{title: "unhealthy at", width: 12, right: true},
		{title: "state", width: 21, num: func(i int) float64 { return float64(stateRank(band(i).State)) }},
		{title: "measure", width: 20, flex: true, prio: 2},
	}
	h.list = newListView(cols, len(cs), func(i, c int) string {
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
			return dashIf(b.State)
		case 6:
			return dashIf(b.Measure)
		}
		return ""
	}, func(i int) string { return cs[i].Name + " " + cs[i].Status + " " + band(i).State })
	h.list.mark = func(i int) string {
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
		h.list.sortBy, h.list.filter = sortBy, filter
		h.list.input.SetValue(filter)
		h.list.apply(keep)
	}
	h.list.setPage(h.list.n)
	h.reflow()
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
		return humanBytes(*p)
	case p != nil && (*p > 99_999_999 || *p < -9_999_999):
		return humanCount(*p)
	}
	return report.BandValue(b, p)
}

func (h *HealthPane) Capturing() bool { return h.list != nil && h.list.filtering && h.detail == nil }

func (h *HealthPane) Back() bool {
	switch {
	case h.detail != nil:
		h.detail = nil
	case h.list != nil && h.list.closeFilter():
	default:
		return false
	}
	h.reflow()
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
		h.detail.update(k.navKeys, msg)
	case healthKeys:
		switch {
		case isKey && key.Matches(km, k.Open):
			h.check = h.res.Checks[h.list.selected()].Name
			h.detail = newPager()
		case isKey && key.Matches(km, k.Defaults):
			cmd = h.rejudge()
		default:
			h.list.update(h.c.Keys, msg)
		}
	case filterKeys:
		h.list.update(h.c.Keys, msg)
	}
	h.reflow()
	return cmd
}

// Focus selects the check a jump names (closing an open check); none only shows the pane.
func (h *HealthPane) Focus(j Jump) bool {
	jc, _ := j.(JumpCheck)
	if jc.Name == "" {
		return true
	}
	if h.res == nil || h.list == nil {
		return false
	}
	for i, c := range h.res.Checks {
		if c.Name == jc.Name {
			h.detail = nil
			ok := h.list.focusItem(i)
			h.reflow()
			return ok
		}
	}
	return false
}

// Click selects the check at body line y (below the headline and the header).
func (h *HealthPane) Click(y int) tea.Cmd {
	if h.list != nil && h.detail == nil {
		h.list.clickRow(y, 2)
	}
	return nil
}

// CopyValue is the focused check as name=status.
func (h *HealthPane) CopyValue() (string, string, bool) {
	if h.res == nil || h.list == nil {
		return "", "", false
	}
	name := h.check
	if h.detail == nil {
		i := h.list.selected()
		if i < 0 {
			return "", "", false
		}
		name = h.res.Checks[i].Name
	}
	if c := h.res.Check(name); c != nil {
		return "check", c.Name + "=" + c.Status, true
	}
	return "", "", false
}

func (h *HealthPane) Breadcrumb() []string {
	if h.detail != nil {
		return []string{h.check}
	}
	return nil
}

// Help is the focused view's hint-bar keys.
func (h *HealthPane) Help() []key.Binding { return h.KeyMap().ShortHelp() }

func (h *HealthPane) Status() string {
	switch {
	case h.res == nil:
		return ""
	case h.detail != nil:
		return h.detail.status()
	}
	return h.list.status()
}

// ---- view ----

func (h *HealthPane) View(width, height int) string {
	if h.res == nil {
		return noData(StepReason(model.StepHealth, "health check (table services, configuration)")(h.snap), width, height)
	}
	if h.detail != nil {
		lines := []string{h.headline(width)}
		lines = append(lines, h.detail.view()...)
		return fit(lines, width, height)
	}
	st := h.c.Styles
	g := st.G
	lines := []string{h.headline(width)}
	var bottom []string
	legend := " " + g.Warn + " behind, not stopped: past trigger, inside slack (tuning pays)" + g.Sep + g.Bad + " unhealthy"
	bottom = append(bottom, clip(st.Dim.Render(legend), width))
	if h.assumed() {
		bottom = append(bottom, clip(st.Warn.Render(" * defaults assumed ("+h.km.Defaults.Help().Key+"): unset writer properties judged by Hudi's defaults"), width))
	}
	if f := h.list.footer(h.c, width, "checks"); f != "" {
		bottom = append(bottom, f)
	}
	lines = append(lines, h.list.header(st, width))
	rows := h.list.rows(st, width, true)
	if len(rows) == 0 {
		rows = []string{"  no check matches the filter"}
	}
	lines = append(lines, rows...)
	room := height - len(lines) - len(bottom) - 1
	if i := h.list.selected(); i >= 0 && room > 1 {
		lines = append(lines, st.Dim.Render(clip(" "+g.Rule+" "+h.res.Checks[i].Name+" "+strings.Repeat(g.Rule, width), width)))
		det := h.checkLines(h.res.Checks[i].Name, width, false)
		if len(det) > room-1 {
			det = append(det[:room-2], st.Dim.Render("  "+g.Ellipsis+" "+h.km.Open.Help().Key+" shows all"))
		}
		lines = append(lines, det...)
	}
	for len(lines) < height-len(bottom) {
		lines = append(lines, "")
	}
	return fit(append(lines, bottom...), width, height)
}

func (h *HealthPane) headline(width int) string {
	st := h.c.Styles
	g := st.G
	r := h.res
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
	return clip(line, width)
}

// checkLines are a check's summary, band bars, findings and property sources; full adds the
// effective configs (observed.*, effective.*).
func (h *HealthPane) checkLines(name string, width int, full bool) []string {
	st := h.c.Styles
	g := st.G
	c := h.res.Check(name)
	if c == nil {
		return nil
	}
	var out []string
	add := func(prefix, s string) {
		for i, w := range wrap(asciiText(g, s), width-len(prefix)-1) {
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
		if used := defaultsUsed(h.res, name); len(used) > 0 {
			var keys []string
			for _, u := range used {
				keys = append(keys, u.Key+"="+u.Value)
			}
			if full {
				add("", "defaults assumed: "+strings.Join(keys, ", "))
			} else {
				out = append(out, clip(" "+st.Warn.Render("defaults assumed: ")+strings.Join(keys, ", "), width))
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
		out = append(out, clip(" "+dashIf(b.Measure)+": "+state, width))
		for _, r := range []struct {
			n string
			v int64
		}{{"observed", *b.Observed}, {"trigger", *b.Trigger}, {"unhealthy at", *b.Threshold}} {
			out = append(out, "  "+barRow(st, padRight(r.n, 12)+" "+padLeft(bandNum(b, &r.v), 6), 19, float64(r.v), mx, bw, ""))
		}
	}
	for _, f := range c.Findings {
		add("- ", f)
	}
	if src := report.CheckSources(h.res, name); len(src) > 0 {
		out = append(out, " writer properties used:")
		for _, s := range src {
			out = append(out, clip("   "+s.Key+" = "+s.Value+"  ("+s.Source+")", width))
		}
	}
	if full && len(c.EffectiveConfigs) > 0 {
		out = append(out, " effective configs:")
		for _, kv := range c.EffectiveConfigs {
			out = append(out, clip("   "+kv.Key+" = "+kv.Value, width))
		}
	}
	return out
}

func (h *HealthPane) Export() (string, string) {
	name := "table"
	if h.snap != nil && h.snap.Config != nil {
		name = h.snap.Config.Name
	}
	if h.res == nil {
		return "health", "# Health: " + report.Escape(name) + "\n\n" + strings.Join(StepReason(model.StepHealth, "health check")(h.snap), "\n\n") + "\n"
	}
	if h.detail != nil {
		return "health-" + h.check, fmt.Sprintf("# Health: %s, check %s\n\n", report.Escape(name), h.check) + report.HealthCheckMarkdown(h.res, h.check, true)
	}
	var names []string
	for _, i := range h.list.visible() {
		names = append(names, h.res.Checks[i].Name)
	}
	return "health", fmt.Sprintf("# Health: %s\n\n", report.Escape(name)) + report.HealthMarkdown(h.res, names)
}
