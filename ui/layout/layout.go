// Package layout is the explorer's Layout pane: partitions, their file groups and files.
package layout

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/hudiscope/hudiscope/analyzers/layout"
	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/internal/units"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
	"github.com/hudiscope/hudiscope/ui/common"
	"github.com/hudiscope/hudiscope/view"
)

// LayoutPane is pane 2: partitions (files, bytes, p50, small-file share), the file-size
// histogram of the table and of the selected partition, skew and detectors; Enter opens a
// partition's file groups, then a file group's slices and files.
type LayoutPane struct {
	c     *common.Common
	km    layoutKeys
	snap  *model.Snapshot
	res   *layout.Result
	Parts []layout.ExtraPartition
	byDir map[string]*filegroup.Partition
	out   map[string]bool // skew outliers
	List  *common.ListView
	// HistPart: the histogram shows the selected partition (h toggles; the table otherwise).
	HistPart bool
	Part     *layoutPart

	Width, height int
}

type layoutPart struct {
	P      *filegroup.Partition
	ep     layout.ExtraPartition
	Groups []*filegroup.FileGroup
	// Rows are the groups' rows (view.FileGroupRows), index for index.
	Rows  []view.FileGroupRow
	List  *common.ListView
	group *layoutGroup
}

type layoutGroup struct {
	g     *filegroup.FileGroup
	files []lgFile
	list  *common.ListView
}

type lgFile struct {
	slice string
	report.SliceFile
}

// layoutKeys are the Layout pane's keys at every level (enter and h only where they act).
type layoutKeys struct {
	common.ListKeys
	Open, HistScope, Instants key.Binding
}

func (k layoutKeys) ShortHelp() []key.Binding {
	return common.Enabled(k.Open, k.Filter, k.Sort, k.HistScope, k.Instants)
}
func (k layoutKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.All(), {k.Open, k.Filter, k.Sort, k.HistScope, k.Instants}}
}
func (k layoutKeys) HelpTitles() []string { return []string{"Move", "Layout"} }

// NewLayout makes the Layout pane.
func NewLayout(c *common.Common) *LayoutPane {
	return &LayoutPane{c: c, km: layoutKeys{Open: c.Keys.Open, HistScope: common.Bind("h", "histogram scope", "h"),
		Instants: common.Bind("i", "instants that wrote it (Timeline)", "i")}}
}

// KeyMap is the focused level's keys (none before the analysis is loaded).
func (l *LayoutPane) KeyMap() help.KeyMap {
	lv := l.activeList()
	switch {
	case lv == nil || l.res == nil:
		return common.KeyColumns{}
	case lv.Filtering:
		return l.c.Keys.FilterKeys()
	}
	k := l.km
	k.ListKeys = lv.Keys(l.c.Keys)
	k.Open = common.When(k.Open, (l.Part == nil || l.Part.group == nil) && lv.Selected() >= 0)
	k.HistScope = common.When(k.HistScope, l.Part == nil)
	k.Instants = common.When(k.Instants, l.Part == nil && lv.Selected() >= 0 && l.snap != nil && l.snap.Timeline != nil)
	return k
}

func (l *LayoutPane) Title() string { return "Layout" }

func (l *LayoutPane) SetSize(w, h int) { l.Width, l.height = w, h; l.Reflow() }

// Reflow sets the shown list's page and filter input for the size and level.
func (l *LayoutPane) Reflow() {
	lv := l.activeList()
	if lv == nil || l.res == nil {
		return
	}
	switch {
	case l.Part != nil && l.Part.group != nil:
		lv.SizeFooter(l.Width, "files")
		lv.SetPage(l.height - 1 - len(l.groupHead(l.Width)) - len(l.Footer(lv, "files")))
	case l.Part != nil:
		lv.SizeFooter(l.Width, "file groups")
		lv.SetPage(l.height - 1 - len(l.partHead(l.Width)) - len(l.Footer(lv, "file groups")))
	default:
		lv.SizeFooter(l.Width, "partitions")
		lv.SetPage(max(1, l.height-1-len(l.TopSummary(l.Width))-len(l.topBottom(l.Width))))
	}
}

// Footer is lv's filter line, if any.
func (l *LayoutPane) Footer(lv *common.ListView, what string) []string {
	if f := lv.Footer(l.c, l.Width, what); f != "" {
		return []string{f}
	}
	return nil
}

func (l *LayoutPane) SetSnapshot(s *model.Snapshot) tea.Cmd {
	l.snap = s
	if s == nil || s.Layout == nil || s.Layout == l.res {
		return nil
	}
	l.res, l.Part = s.Layout, nil
	l.Parts = nil
	if s.Layout.Hudiscope != nil {
		l.Parts = s.Layout.Hudiscope.Partitions
	}
	l.byDir = map[string]*filegroup.Partition{}
	if s.View != nil {
		for _, p := range s.View.Partitions {
			l.byDir[p.Path] = p
		}
	}
	l.out = map[string]bool{}
	for _, o := range s.Layout.Skew.Outliers {
		l.out[o.Partition] = true
	}
	ps := l.Parts
	cols := []common.LvCol{
		{Title: "partition", Width: 12, Flex: true},
		{Title: "files", Width: 6, Right: true, Num: func(i int) float64 { return float64(ps[i].BaseFiles) }},
		{Title: "bytes", Width: 6, Right: true, Num: func(i int) float64 { return float64(ps[i].BaseBytes) }},
		{Title: "p50", Width: 6, Right: true, Num: func(i int) float64 { return float64(ps[i].P50) }},
		{Title: "small%", Width: 6, Right: true, Num: func(i int) float64 { return float64(ps[i].SmallFileShare) }},
		{Title: "groups", Width: 6, Right: true, Prio: 2, Num: func(i int) float64 { return float64(ps[i].FileGroups) }},
		{Title: "logs", Width: 5, Right: true, Prio: 3, Num: func(i int) float64 { return float64(ps[i].LogFiles) }},
		{Title: "log b", Width: 6, Right: true, Prio: 4, Num: func(i int) float64 { return float64(ps[i].LogBytes) }},
	}
	l.List = common.NewListView(cols, len(ps), func(i, c int) string {
		p := ps[i]
		switch c {
		case 0:
			return view.PartitionName(p.Partition)
		case 1:
			return units.Count(p.BaseFiles)
		case 2:
			return units.BytesCompact(p.BaseBytes)
		case 3:
			return units.BytesCompact(p.P50)
		case 4:
			return pct0(float64(p.SmallFileShare))
		case 5:
			return units.Count(int64(p.FileGroups))
		case 6:
			return units.Count(int64(p.LogFiles))
		case 7:
			return units.BytesCompact(p.LogBytes)
		}
		return ""
	}, func(i int) string { return view.PartitionName(ps[i].Partition) })
	l.List.Mark = func(i int) string {
		if l.out[ps[i].Partition] {
			return l.c.Styles.G.Warn
		}
		return ""
	}
	l.Reflow()
	return nil
}

func pct0(f float64) string {
	if f < 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*f)
}

func (l *LayoutPane) Capturing() bool {
	if lv := l.activeList(); lv != nil {
		return lv.Filtering
	}
	return false
}

func (l *LayoutPane) activeList() *common.ListView {
	switch {
	case l.Part != nil && l.Part.group != nil:
		return l.Part.group.list
	case l.Part != nil:
		return l.Part.List
	}
	return l.List
}

func (l *LayoutPane) Back() bool {
	lv := l.activeList()
	switch {
	case lv != nil && lv.CloseFilter():
	case l.Part != nil && l.Part.group != nil:
		l.Part.group = nil
	case l.Part != nil:
		l.Part = nil
	default:
		return false
	}
	l.Reflow()
	return true
}

func (l *LayoutPane) Update(msg tea.Msg) tea.Cmd {
	cmd := l.Handle(msg)
	l.Reflow()
	return cmd
}

func (l *LayoutPane) Handle(msg tea.Msg) tea.Cmd {
	lv := l.activeList()
	if lv == nil || l.res == nil {
		return nil
	}
	if !lv.Filtering {
		k := l.KeyMap().(layoutKeys)
		if km, ok := msg.(tea.KeyPressMsg); ok {
			switch {
			case key.Matches(km, k.Open):
				l.enter()
				return nil
			case key.Matches(km, k.HistScope):
				l.HistPart = !l.HistPart
				return nil
			case key.Matches(km, k.Instants):
				return common.JumpTo(common.JumpPartitionWrites{Path: l.Parts[lv.Selected()].Partition})
			}
		}
	}
	lv.Handle(l.c.Keys, msg)
	return nil
}

func (l *LayoutPane) enter() {
	switch {
	case l.Part == nil:
		i := l.List.Selected()
		if i < 0 {
			return
		}
		ep := l.Parts[i]
		p := l.byDir[ep.Partition]
		if p == nil {
			return
		}
		l.Part = newLayoutPart(p, ep)
	case l.Part.group == nil:
		i := l.Part.List.Selected()
		if i < 0 {
			return
		}
		l.Part.group = newLayoutGroup(l.Part.Groups[i])
	}
}

func newLayoutPart(p *filegroup.Partition, ep layout.ExtraPartition) *layoutPart {
	lp := &layoutPart{P: p, ep: ep, Groups: p.FileGroups, Rows: view.FileGroupRows(p.FileGroups)}
	rs := lp.Rows
	baseSize := func(i int) int64 {
		if b := rs[i].LatestBase; b != nil {
			return b.Size
		}
		return -1
	}
	cols := []common.LvCol{
		{Title: "file group", Width: 12, Flex: true, Txt: func(i int) string { return rs[i].Group.FileID }},
		{Title: "slices", Width: 6, Right: true, Num: func(i int) float64 { return float64(rs[i].Slices) }},
		{Title: "base", Width: 6, Right: true, Num: func(i int) float64 { return float64(baseSize(i)) }},
		{Title: "logs", Width: 5, Right: true, Num: func(i int) float64 { return float64(rs[i].ReadLogs) }},
		{Title: "log b", Width: 6, Right: true, Num: func(i int) float64 { return float64(rs[i].ReadLogBytes) }},
		{Title: "base instant", Width: 17, Prio: 3},
		{Title: "pending", Width: 10, Prio: 2},
	}
	lp.List = common.NewListView(cols, len(rs), func(i, c int) string {
		r := &rs[i]
		g := r.Group
		switch c {
		case 0:
			return g.FileID
		case 1:
			return common.Itoa(r.Slices)
		case 2:
			if b := r.LatestBase; b != nil {
				return units.BytesCompact(b.Size)
			}
			return "-"
		case 3:
			return common.Itoa(r.ReadLogs)
		case 4:
			return units.BytesCompact(r.ReadLogBytes)
		case 5:
			if b := r.LatestBase; b != nil {
				return b.Instant
			}
			return "-"
		case 6:
			var s []string
			if g.PendingCompaction != "" {
				s = append(s, "compaction")
			}
			if g.PendingClustering != "" {
				s = append(s, "clustering")
			}
			return common.DashIf(strings.Join(s, ","))
		}
		return ""
	}, func(i int) string { return rs[i].Group.FileID + " " + rs[i].Pending })
	return lp
}

func newLayoutGroup(g *filegroup.FileGroup) *layoutGroup {
	lg := &layoutGroup{g: g}
	for _, s := range g.Slices {
		for _, f := range report.SliceFiles(s) {
			lg.files = append(lg.files, lgFile{slice: s.BaseInstant, SliceFile: f})
		}
	}
	fs := lg.files
	cols := []common.LvCol{
		{Title: "slice", Width: 17, Txt: func(i int) string { return fs[i].slice }},
		{Title: "kind", Width: 4, Txt: func(i int) string { return fs[i].Kind }},
		{Title: "bytes", Width: 6, Right: true, Num: func(i int) float64 { return float64(fs[i].Size) }},
		{Title: "file", Width: 16, Flex: true, Txt: func(i int) string { return fs[i].Name }},
	}
	lg.list = common.NewListView(cols, len(fs), func(i, c int) string {
		f := fs[i]
		switch c {
		case 0:
			return f.slice
		case 1:
			return f.Kind
		case 2:
			return units.BytesCompact(f.Size)
		case 3:
			return fileLabel(f.SliceFile, f.slice)
		}
		return ""
	}, func(i int) string { return fs[i].slice + " " + fs[i].Kind + " " + fs[i].Name })
	return lg
}

// Focus selects the partition a jump names (the pane's top level) or, with a file group, opens
// the partition and selects the group; a jump naming neither only shows the pane.
func (l *LayoutPane) Focus(jm common.Jump) bool {
	j, _ := jm.(common.JumpPartition)
	if j.Path == "" && j.FileGroup == "" {
		return true
	}
	if l.List == nil {
		return false
	}
	defer l.Reflow()
	for i, p := range l.Parts {
		if p.Partition != j.Path {
			continue
		}
		l.Part = nil
		if !l.List.FocusItem(i) {
			return false
		}
		if j.FileGroup == "" {
			return true
		}
		dir := l.byDir[p.Partition]
		if dir == nil {
			return false
		}
		for gi, g := range dir.FileGroups {
			if g.FileID == j.FileGroup {
				l.Part = newLayoutPart(dir, p)
				return l.Part.List.FocusItem(gi)
			}
		}
		return false
	}
	return false
}

// Click selects the list row at body line y (rows start below the summary and the header).
func (l *LayoutPane) Click(y int) tea.Cmd {
	if lv := l.activeList(); lv != nil && l.res != nil {
		var head []string
		switch {
		case l.Part != nil && l.Part.group != nil:
			head = l.groupHead(l.Width)
		case l.Part != nil:
			head = l.partHead(l.Width)
		default:
			head = l.TopSummary(l.Width)
		}
		lv.ClickRow(y, len(head)+1)
	}
	return nil
}

// CopyValue is the focused partition path, file id or file name.
func (l *LayoutPane) CopyValue() (string, string, bool) {
	switch {
	case l.List == nil:
		return "", "", false
	case l.Part != nil && l.Part.group != nil:
		if i := l.Part.group.list.Selected(); i >= 0 {
			f := l.Part.group.files[i]
			return "file", joinPath(l.Part.group.g.Partition, f.Name), true
		}
	case l.Part != nil:
		if i := l.Part.List.Selected(); i >= 0 {
			return "file id", l.Part.Groups[i].FileID, true
		}
	default:
		if i := l.List.Selected(); i >= 0 {
			return "partition", l.Parts[i].Partition, true
		}
	}
	return "", "", false
}

// joinPath is a table-relative path.
func joinPath(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

func (l *LayoutPane) Breadcrumb() []string {
	var out []string
	if l.Part != nil {
		out = append(out, common.PartLabel(l.Part.P.Path))
		if l.Part.group != nil {
			out = append(out, "group "+common.Trunc(l.Part.group.g.FileID, 13, l.c.Styles.G.Ellipsis))
		}
	}
	return out
}

// Help is the focused level's hint-bar keys.
func (l *LayoutPane) Help() []key.Binding { return l.KeyMap().ShortHelp() }

func (l *LayoutPane) Status() string {
	if lv := l.activeList(); lv != nil && l.res != nil {
		return lv.Status()
	}
	return ""
}

// ---- view ----

func (l *LayoutPane) View(width, height int) string {
	if l.res == nil {
		return common.NoData(common.StepReason(model.StepLayout, "layout analysis (partitions, file sizes, skew)")(l.snap), width, height)
	}
	switch {
	case l.Part != nil && l.Part.group != nil:
		return l.groupView(width, height)
	case l.Part != nil:
		return l.partView(width, height)
	}
	return l.topView(width, height)
}

// TopSummary is the partition level's table facts, wrapped between facts.
func (l *LayoutPane) TopSummary(width int) []string {
	g := l.c.Styles.G
	r := l.res
	x := r.Hudiscope
	if x == nil {
		x = &layout.Extra{}
	}
	logs := fmt.Sprintf("%d log files read", x.LogFiles)
	if x.MergedFileGroups > 0 {
		logs += fmt.Sprintf(" (latest slices alone: %d)", x.LatestSliceLogFiles)
	}
	facts := []string{fmt.Sprintf("%d partitions", r.NumPartitions), fmt.Sprintf("%d base files", r.TotalFiles),
		units.BytesCompact(r.TotalBytes), "p50 " + units.BytesCompact(r.TableSizeStats.P50), fmt.Sprintf("%d file groups", x.FileGroups), logs}
	if l.snap != nil && l.snap.View != nil && l.snap.View.Source != "" {
		facts = append(facts, "files from "+l.snap.View.Source) // storage or the metadata table: it changes cost and truth
	}
	return common.PackFacts(facts, g.Sep, width)
}

func (l *LayoutPane) topView(width, height int) string {
	st := l.c.Styles
	bottom := l.topBottom(width)
	page := l.List.Page

	histW := 0
	if width >= 70 {
		histW = min(40, max(26, width/3))
	}
	leftW := width - histW
	if histW > 0 {
		leftW -= 2
	}
	lines := l.TopSummary(width)
	head := l.List.Header(st, leftW)
	rows := l.List.Rows(st, leftW, true)
	if len(rows) == 0 {
		if l.List.Filter != "" {
			rows = []string{"  no partition matches the filter"}
		} else {
			rows = []string{"  the table has no partition with files"}
		}
	}
	var hist []string
	if histW > 0 {
		hist = l.histograms(histW, page+1)
	}
	for i := 0; i < page+1; i++ {
		left := ""
		if i == 0 {
			left = head
		} else if i-1 < len(rows) {
			left = rows[i-1]
		}
		if histW > 0 && i < len(hist) {
			left = common.PadRight(left, leftW) + "  " + hist[i]
		}
		lines = append(lines, left)
	}
	lines = append(lines, bottom...)
	return common.Fit(lines, width, height)
}

// topBottom is the partition level's lines under the list: skew, detectors, what small%
// counts (and the writer's small-file handling when it is off) and the filter line.
func (l *LayoutPane) topBottom(width int) []string {
	g := l.c.Styles.G
	r := l.res
	x := r.Hudiscope
	if x == nil {
		x = &layout.Extra{}
	}
	var bottom []string
	bottom = append(bottom, " "+common.AsciiText(g, report.SkewText(r)))
	bottom = append(bottom, l.detectorLines(width)...)
	bottom = append(bottom, common.Clip(fmt.Sprintf(" small%%: base files under %s, the small-files threshold", units.BytesCompact(x.SmallFileThreshold)), width))
	if x.SmallFileHandling == "off" {
		bottom = append(bottom, common.Clip(" "+l.c.Styles.Warn.Render(g.Warn+" writer small-file handling "+x.WriterSmallFiles(units.BytesCompact)), width))
	}
	if f := l.List.Footer(l.c, width, "partitions"); f != "" {
		bottom = append(bottom, f)
	}
	return bottom
}

// histograms draws the table's histogram, and the selected partition's (h, or both when
// there is room), over the same bucket range so they compare.
func (l *LayoutPane) histograms(w, rows int) []string {
	st := l.c.Styles
	x := l.res.Hudiscope
	if x == nil {
		return nil
	}
	var sel *layout.ExtraPartition
	if i := l.List.Selected(); i >= 0 {
		sel = &l.Parts[i]
	}
	lo, hi := report.HistogramRange(x.Histogram)
	n := hi - lo + 1
	if n <= 0 {
		return []string{st.ColHead.Render("file sizes"), "no base file"}
	}
	block := func(title string, h []layout.Bucket) []string {
		out := []string{st.ColHead.Render(common.Trunc(title, w, st.G.Ellipsis))}
		maxC := 0
		for _, b := range h[lo : hi+1] {
			maxC = max(maxC, b.Count)
		}
		for _, b := range h[lo : hi+1] {
			out = append(out, common.BarRow(st, report.BucketLabel(b, common.IsASCII(st.G)), 7, float64(b.Count), float64(maxC), w-7-1-1-5, common.PadLeft(units.Count(int64(b.Count)), 5)))
		}
		return out
	}
	table := block("file sizes (table)", x.Histogram)
	if sel == nil {
		return table
	}
	part := block("file sizes ("+common.PartLabel(sel.Partition)+")", sel.Histogram)
	if rows >= 2*(n+1)+1 {
		return append(append(table, ""), part...)
	}
	if l.HistPart {
		return part
	}
	return table
}

func (l *LayoutPane) detectorLines(width int) []string {
	st := l.c.Styles
	g := st.G
	c := l.res.TableCharacteristics
	if c == nil {
		return []string{" detectors: not run"}
	}
	bands := map[string]layout.DetectorBand{}
	if x := l.res.Hudiscope; x != nil {
		for _, d := range x.Detectors {
			bands[d.Name] = d
		}
	}
	var out []string
	vw := 8
	for _, b := range bands {
		vw = max(vw, len(b.Verdict))
	}
	for _, d := range c.Detectors {
		// The verdict and its reason, as every surface shows them (layout.DetectorBand).
		verdict, reason := d.Status, common.AsciiText(g, d.Summary)
		if b, ok := bands[d.Name]; ok && b.Verdict != "" {
			verdict, reason = b.Verdict, common.AsciiText(g, b.Reason)
		}
		status := common.PadRight(verdict, vw+1)
		switch verdict {
		case layout.Flagged, layout.Moderate, layout.Severe:
			status = st.Warn.Render(status)
		}
		out = append(out, common.Clip(" "+common.PadRight(d.Name, 15)+" "+status+" "+reason, width))
	}
	return out
}

// partHead is the partition level's facts, wrapped between facts.
func (l *LayoutPane) partHead(width int) []string {
	g := l.c.Styles.G
	lp := l.Part
	ep := lp.ep
	facts := []string{common.PartLabel(lp.P.Path), fmt.Sprintf("%d file groups", ep.FileGroups), fmt.Sprintf("%d slices", ep.FileSlices),
		"base " + units.BytesCompact(ep.BaseBytes), "p50 " + units.BytesCompact(ep.P50), fmt.Sprintf("logs read %d (%s)", ep.LogFiles, units.BytesCompact(ep.LogBytes))}
	var extra []string
	if ep.PendingCompaction > 0 {
		extra = append(extra, fmt.Sprintf("%d in pending compaction", ep.PendingCompaction))
	}
	if ep.MergedFileGroups > 0 {
		extra = append(extra, fmt.Sprintf("latest slices alone: %d logs (%s)", ep.LatestLogFiles, units.BytesCompact(ep.LatestLogBytes)))
	}
	if ep.PendingClustering > 0 {
		extra = append(extra, fmt.Sprintf("%d in pending clustering", ep.PendingClustering))
	}
	extra = append(extra, fmt.Sprintf("%d replaced (hidden until cleaned)", ep.Replaced), fmt.Sprintf("%d uncommitted files", ep.UncommittedFiles))
	return append(common.PackFacts(facts, g.Sep, width), common.PackFacts(extra, g.Sep, width)...)
}

func (l *LayoutPane) partView(width, height int) string {
	st := l.c.Styles
	lp := l.Part
	lines := l.partHead(width)
	bottom := l.Footer(lp.List, "file groups")
	lines = append(lines, lp.List.Header(st, width))
	rows := lp.List.Rows(st, width, true)
	if len(rows) == 0 {
		rows = []string{"  no file group matches"}
	}
	lines = append(lines, rows...)
	for len(lines) < height-len(bottom) {
		lines = append(lines, "")
	}
	return common.Fit(append(lines, bottom...), width, height)
}

// groupHead is the file-group level's facts, wrapped between facts.
func (l *LayoutPane) groupHead(width int) []string {
	g := l.c.Styles.G
	lg := l.Part.group
	r := view.FileGroupRowOf(lg.g)
	n, lb := r.ReadLogs, r.ReadLogBytes
	what := "a read merges"
	if r.Merged {
		what = "a read merges (previous base + both slices)"
	}
	facts := []string{lg.g.FileID, fmt.Sprintf("%d slice(s)", len(lg.g.Slices)), fmt.Sprintf("%s %d log file(s), %s", what, n, units.BytesCompact(lb))}
	pend := r.Pending
	if pend == "" {
		pend = "no pending compaction or clustering"
	} else {
		pend = "pending " + pend
	}
	return append(common.PackFacts(facts, g.Sep, width), common.PackFacts([]string{pend}, g.Sep, width)...)
}

func (l *LayoutPane) groupView(width, height int) string {
	st := l.c.Styles
	lg := l.Part.group
	lines := l.groupHead(width)
	bottom := l.Footer(lg.list, "files")
	lines = append(lines, lg.list.Header(st, width))
	lines = append(lines, lg.list.Rows(st, width, true)...)
	for len(lines) < height-len(bottom) {
		lines = append(lines, "")
	}
	return common.Fit(append(lines, bottom...), width, height)
}

// Export renders the level shown, in its order and filter.
func (l *LayoutPane) Export() (string, string) {
	name := "table"
	if l.snap != nil && l.snap.Config != nil {
		name = l.snap.Config.Name
	}
	if l.res == nil {
		return "layout", "# Layout: " + report.Escape(name) + "\n\n" + strings.Join(common.StepReason(model.StepLayout, "layout analysis")(l.snap), "\n\n") + "\n"
	}
	var b strings.Builder
	switch {
	case l.Part != nil && l.Part.group != nil:
		fmt.Fprintf(&b, "# Layout: %s, file group %s\n\n", report.Escape(name), l.Part.group.g.FileID)
		b.WriteString(report.FileGroupMarkdown(l.Part.group.g))
		return "layout-" + l.Part.group.g.FileID, b.String()
	case l.Part != nil:
		fmt.Fprintf(&b, "# Layout: %s, partition %s\n\n", report.Escape(name), report.Escape(view.PartitionName(l.Part.P.Path)))
		var gs []*filegroup.FileGroup
		for _, i := range l.Part.List.Visible() {
			gs = append(gs, l.Part.Groups[i])
		}
		b.WriteString(report.PartitionFilesMarkdown(l.Part.P, gs))
		return "layout-" + view.PartitionName(l.Part.P.Path), b.String()
	}
	fmt.Fprintf(&b, "# Layout: %s\n\n", report.Escape(name))
	parts := []layout.ExtraPartition{}
	for _, i := range l.List.Visible() {
		parts = append(parts, l.Parts[i])
	}
	if l.List.SortBy >= 0 || l.List.Filter != "" {
		fmt.Fprintf(&b, "Partitions ordered by %s", l.List.SortName("name"))
		if l.List.Filter != "" {
			fmt.Fprintf(&b, ", filter `%s`", l.List.Filter)
		}
		b.WriteString(".\n\n")
	}
	b.WriteString(report.LayoutMarkdown(l.res, parts))
	return "layout", b.String()
}

// fileLabel names a slice's file by what tells it apart in its group (the file id is the
// group's; kind and size have their own columns): a log file by version and write token
// ("v3 1-0-1", "@<instant>" when another instant than the slice's wrote it), a base file by
// format and write token (and instant when not the slice's); the raw name when unparsable.
func fileLabel(f report.SliceFile, slice string) string {
	switch f.Kind {
	case "log":
		m, ok := filegroup.ParseLogFileName(f.Name)
		if !ok {
			return f.Name
		}
		s := fmt.Sprintf("v%d", m.Version)
		if m.WriteToken != "" {
			s += " " + m.WriteToken
		}
		if m.CDC {
			s += " cdc"
		}
		if m.Ext != "log" {
			s += " " + m.Ext
		}
		if m.Instant != "" && m.Instant != slice {
			s += " @" + m.Instant
		}
		return s
	case "base":
		m, ok := filegroup.ParseBaseFileName(f.Name)
		if !ok {
			return f.Name
		}
		s := m.Ext + " " + m.WriteToken
		if m.Instant != slice {
			s += " @" + m.Instant
		}
		return s
	}
	return f.Name
}
