package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/hudiscope/hudiscope/analyzers/layout"
	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/internal/safetext"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
)

// LayoutPane is pane 2: partitions (files, bytes, p50, small-file share), the file-size
// histogram of the table and of the selected partition, skew and detectors; Enter opens a
// partition's file groups, then a file group's slices and files.
type LayoutPane struct {
	c     *Common
	km    layoutKeys
	snap  *model.Snapshot
	res   *layout.Result
	parts []layout.ExtraPartition
	byDir map[string]*filegroup.Partition
	out   map[string]bool // skew outliers
	list  *listView
	// histPart: the histogram shows the selected partition (h toggles; the table otherwise).
	histPart bool
	part     *layoutPart

	width, height int
}

type layoutPart struct {
	p      *filegroup.Partition
	ep     layout.ExtraPartition
	groups []*filegroup.FileGroup
	list   *listView
	group  *layoutGroup
}

type layoutGroup struct {
	g     *filegroup.FileGroup
	files []lgFile
	list  *listView
}

type lgFile struct {
	slice string
	report.SliceFile
}

// layoutKeys are the Layout pane's keys at every level (enter and h only where they act).
type layoutKeys struct {
	listKeys
	Open, HistScope, Instants key.Binding
}

func (k layoutKeys) ShortHelp() []key.Binding {
	return enabled(k.Open, k.Filter, k.Sort, k.HistScope, k.Instants)
}
func (k layoutKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.all(), {k.Open, k.Filter, k.Sort, k.HistScope, k.Instants}}
}
func (k layoutKeys) helpTitles() []string { return []string{"Move", "Layout"} }

// NewLayout makes the Layout pane.
func NewLayout(c *Common) *LayoutPane {
	return &LayoutPane{c: c, km: layoutKeys{Open: c.Keys.Open, HistScope: bind("h", "histogram scope", "h"),
		Instants: bind("i", "instants that wrote it (Timeline)", "i")}}
}

// KeyMap is the focused level's keys (none before the analysis is loaded).
func (l *LayoutPane) KeyMap() help.KeyMap {
	lv := l.activeList()
	switch {
	case lv == nil || l.res == nil:
		return keyColumns{}
	case lv.filtering:
		return l.c.Keys.filterKeys()
	}
	k := l.km
	k.listKeys = lv.keys(l.c.Keys)
	k.Open = when(k.Open, (l.part == nil || l.part.group == nil) && lv.selected() >= 0)
	k.HistScope = when(k.HistScope, l.part == nil)
	k.Instants = when(k.Instants, l.part == nil && lv.selected() >= 0 && l.snap != nil && l.snap.Timeline != nil)
	return k
}

func (l *LayoutPane) Title() string { return "Layout" }

func (l *LayoutPane) SetSize(w, h int) { l.width, l.height = w, h; l.reflow() }

// reflow sets the shown list's page and filter input for the size and level.
func (l *LayoutPane) reflow() {
	lv := l.activeList()
	if lv == nil || l.res == nil {
		return
	}
	switch {
	case l.part != nil && l.part.group != nil:
		lv.sizeFooter(l.width, "files")
		lv.setPage(l.height - 1 - len(l.groupHead(l.width)) - len(l.footer(lv, "files")))
	case l.part != nil:
		lv.sizeFooter(l.width, "file groups")
		lv.setPage(l.height - 1 - len(l.partHead(l.width)) - len(l.footer(lv, "file groups")))
	default:
		lv.sizeFooter(l.width, "partitions")
		lv.setPage(max(1, l.height-1-len(l.topSummary(l.width))-len(l.topBottom(l.width))))
	}
}

// footer is lv's filter line, if any.
func (l *LayoutPane) footer(lv *listView, what string) []string {
	if f := lv.footer(l.c, l.width, what); f != "" {
		return []string{f}
	}
	return nil
}

func (l *LayoutPane) SetSnapshot(s *model.Snapshot) tea.Cmd {
	l.snap = s
	if s == nil || s.Layout == nil || s.Layout == l.res {
		return nil
	}
	l.res, l.part = s.Layout, nil
	l.parts = nil
	if s.Layout.Hudiscope != nil {
		l.parts = s.Layout.Hudiscope.Partitions
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
	ps := l.parts
	cols := []lvCol{
		{title: "partition", width: 12, flex: true},
		{title: "files", width: 6, right: true, num: func(i int) float64 { return float64(ps[i].BaseFiles) }},
		{title: "bytes", width: 6, right: true, num: func(i int) float64 { return float64(ps[i].BaseBytes) }},
		{title: "p50", width: 6, right: true, num: func(i int) float64 { return float64(ps[i].P50) }},
		{title: "small%", width: 6, right: true, num: func(i int) float64 { return float64(ps[i].SmallFileShare) }},
		{title: "groups", width: 6, right: true, prio: 2, num: func(i int) float64 { return float64(ps[i].FileGroups) }},
		{title: "logs", width: 5, right: true, prio: 3, num: func(i int) float64 { return float64(ps[i].LogFiles) }},
		{title: "log b", width: 6, right: true, prio: 4, num: func(i int) float64 { return float64(ps[i].LogBytes) }},
	}
	l.list = newListView(cols, len(ps), func(i, c int) string {
		p := ps[i]
		switch c {
		case 0:
			return report.PartitionName(p.Partition)
		case 1:
			return humanCount(p.BaseFiles)
		case 2:
			return humanBytes(p.BaseBytes)
		case 3:
			return humanBytes(p.P50)
		case 4:
			return pct0(float64(p.SmallFileShare))
		case 5:
			return humanCount(int64(p.FileGroups))
		case 6:
			return humanCount(int64(p.LogFiles))
		case 7:
			return humanBytes(p.LogBytes)
		}
		return ""
	}, func(i int) string { return report.PartitionName(ps[i].Partition) })
	l.list.mark = func(i int) string {
		if l.out[ps[i].Partition] {
			return l.c.Styles.G.Warn
		}
		return ""
	}
	l.reflow()
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
		return lv.filtering
	}
	return false
}

func (l *LayoutPane) activeList() *listView {
	switch {
	case l.part != nil && l.part.group != nil:
		return l.part.group.list
	case l.part != nil:
		return l.part.list
	}
	return l.list
}

func (l *LayoutPane) Back() bool {
	lv := l.activeList()
	switch {
	case lv != nil && lv.closeFilter():
	case l.part != nil && l.part.group != nil:
		l.part.group = nil
	case l.part != nil:
		l.part = nil
	default:
		return false
	}
	l.reflow()
	return true
}

func (l *LayoutPane) Update(msg tea.Msg) tea.Cmd {
	cmd := l.update(msg)
	l.reflow()
	return cmd
}

func (l *LayoutPane) update(msg tea.Msg) tea.Cmd {
	lv := l.activeList()
	if lv == nil || l.res == nil {
		return nil
	}
	if !lv.filtering {
		k := l.KeyMap().(layoutKeys)
		if km, ok := msg.(tea.KeyPressMsg); ok {
			switch {
			case key.Matches(km, k.Open):
				l.enter()
				return nil
			case key.Matches(km, k.HistScope):
				l.histPart = !l.histPart
				return nil
			case key.Matches(km, k.Instants):
				return jumpTo(JumpPartitionWrites{Path: l.parts[lv.selected()].Partition})
			}
		}
	}
	lv.update(l.c.Keys, msg)
	return nil
}

func (l *LayoutPane) enter() {
	switch {
	case l.part == nil:
		i := l.list.selected()
		if i < 0 {
			return
		}
		ep := l.parts[i]
		p := l.byDir[ep.Partition]
		if p == nil {
			return
		}
		l.part = newLayoutPart(p, ep)
	case l.part.group == nil:
		i := l.part.list.selected()
		if i < 0 {
			return
		}
		l.part.group = newLayoutGroup(l.part.groups[i])
	}
}

func latestBaseOf(g *filegroup.FileGroup) *filegroup.BaseFile {
	for i := len(g.Slices) - 1; i >= 0; i-- {
		if b := g.Slices[i].Base; b != nil {
			return b
		}
	}
	return nil
}

// readLogs are the log files a snapshot read merges with the group's base file: across a
// pending compaction those of both slices (filegroup.Merged), not only the latest slice's.
func readLogs(g *filegroup.FileGroup) (int, int64) {
	s, _ := g.Merged()
	if s == nil {
		return 0, 0
	}
	var n int64
	for _, f := range s.Logs {
		n += f.Size
	}
	return len(s.Logs), n
}

func newLayoutPart(p *filegroup.Partition, ep layout.ExtraPartition) *layoutPart {
	lp := &layoutPart{p: p, ep: ep, groups: p.FileGroups}
	gs := lp.groups
	baseSize := func(i int) int64 {
		if b := latestBaseOf(gs[i]); b != nil {
			return b.Size
		}
		return -1
	}
	cols := []lvCol{
		{title: "file group", width: 12, flex: true, txt: func(i int) string { return gs[i].FileID }},
		{title: "slices", width: 6, right: true, num: func(i int) float64 { return float64(len(gs[i].Slices)) }},
		{title: "base", width: 6, right: true, num: func(i int) float64 { return float64(baseSize(i)) }},
		{title: "logs", width: 5, right: true, num: func(i int) float64 { n, _ := readLogs(gs[i]); return float64(n) }},
		{title: "log b", width: 6, right: true, num: func(i int) float64 { _, b := readLogs(gs[i]); return float64(b) }},
		{title: "base instant", width: 17, prio: 3},
		{title: "pending", width: 10, prio: 2},
	}
	lp.list = newListView(cols, len(gs), func(i, c int) string {
		g := gs[i]
		switch c {
		case 0:
			return g.FileID
		case 1:
			return itoa(len(g.Slices))
		case 2:
			if b := latestBaseOf(g); b != nil {
				return humanBytes(b.Size)
			}
			return "-"
		case 3:
			n, _ := readLogs(g)
			return itoa(n)
		case 4:
			_, b := readLogs(g)
			return humanBytes(b)
		case 5:
			if b := latestBaseOf(g); b != nil {
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
			return dashIf(strings.Join(s, ","))
		}
		return ""
	}, func(i int) string { return gs[i].FileID + " " + report.Pending(gs[i]) })
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
	cols := []lvCol{
		{title: "slice", width: 17, txt: func(i int) string { return fs[i].slice }},
		{title: "kind", width: 4, txt: func(i int) string { return fs[i].Kind }},
		{title: "bytes", width: 6, right: true, num: func(i int) float64 { return float64(fs[i].Size) }},
		{title: "file", width: 16, flex: true, txt: func(i int) string { return fs[i].Name }},
	}
	lg.list = newListView(cols, len(fs), func(i, c int) string {
		f := fs[i]
		switch c {
		case 0:
			return f.slice
		case 1:
			return f.Kind
		case 2:
			return humanBytes(f.Size)
		case 3:
			return fileLabel(f.SliceFile, f.slice)
		}
		return ""
	}, func(i int) string { return fs[i].slice + " " + fs[i].Kind + " " + fs[i].Name })
	return lg
}

// Focus selects the partition a jump names (the pane's top level) or, with a file group, opens
// the partition and selects the group; a jump naming neither only shows the pane.
func (l *LayoutPane) Focus(jm Jump) bool {
	j, _ := jm.(JumpPartition)
	if j.Path == "" && j.FileGroup == "" {
		return true
	}
	if l.list == nil {
		return false
	}
	defer l.reflow()
	for i, p := range l.parts {
		if p.Partition != j.Path {
			continue
		}
		l.part = nil
		if !l.list.focusItem(i) {
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
				l.part = newLayoutPart(dir, p)
				return l.part.list.focusItem(gi)
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
		case l.part != nil && l.part.group != nil:
			head = l.groupHead(l.width)
		case l.part != nil:
			head = l.partHead(l.width)
		default:
			head = l.topSummary(l.width)
		}
		lv.clickRow(y, len(head)+1)
	}
	return nil
}

// CopyValue is the focused partition path, file id or file name.
func (l *LayoutPane) CopyValue() (string, string, bool) {
	switch {
	case l.list == nil:
		return "", "", false
	case l.part != nil && l.part.group != nil:
		if i := l.part.group.list.selected(); i >= 0 {
			f := l.part.group.files[i]
			return "file", joinPath(l.part.group.g.Partition, f.Name), true
		}
	case l.part != nil:
		if i := l.part.list.selected(); i >= 0 {
			return "file id", l.part.groups[i].FileID, true
		}
	default:
		if i := l.list.selected(); i >= 0 {
			return "partition", l.parts[i].Partition, true
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
	if l.part != nil {
		out = append(out, partLabel(l.part.p.Path))
		if l.part.group != nil {
			out = append(out, "group "+trunc(l.part.group.g.FileID, 13, l.c.Styles.G.Ellipsis))
		}
	}
	return out
}

// Help is the focused level's hint-bar keys.
func (l *LayoutPane) Help() []key.Binding { return l.KeyMap().ShortHelp() }

func (l *LayoutPane) Status() string {
	if lv := l.activeList(); lv != nil && l.res != nil {
		return lv.status()
	}
	return ""
}

// ---- view ----

func (l *LayoutPane) View(width, height int) string {
	if l.res == nil {
		return noData(StepReason(model.StepLayout, "layout analysis (partitions, file sizes, skew)")(l.snap), width, height)
	}
	switch {
	case l.part != nil && l.part.group != nil:
		return l.groupView(width, height)
	case l.part != nil:
		return l.partView(width, height)
	}
	return l.topView(width, height)
}

// packFacts lays facts out on lines of at most width cells, joined by sep, breaking only
// between facts (a fact longer than the width is cut); every line starts with a space.
func packFacts(facts []string, sep string, width int) []string {
	var out []string
	line := ""
	for _, f := range facts {
		switch {
		case line == "":
			line = " " + f
		case cellWidth(line)+cellWidth(sep)+cellWidth(f) <= width:
			line += sep + f
		default:
			out = append(out, clip(line, width))
			line = " " + f
		}
	}
	if line != "" {
		out = append(out, clip(line, width))
	}
	return out
}

// topSummary is the partition level's table facts, wrapped between facts.
func (l *LayoutPane) topSummary(width int) []string {
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
		humanBytes(r.TotalBytes), "p50 " + humanBytes(r.TableSizeStats.P50), fmt.Sprintf("%d file groups", x.FileGroups), logs}
	if l.snap != nil && l.snap.View != nil && l.snap.View.Source != "" {
		facts = append(facts, "files from "+l.snap.View.Source) // storage or the metadata table: it changes cost and truth
	}
	return packFacts(facts, g.Sep, width)
}

func (l *LayoutPane) topView(width, height int) string {
	st := l.c.Styles
	bottom := l.topBottom(width)
	page := l.list.page

	histW := 0
	if width >= 70 {
		histW = min(40, max(26, width/3))
	}
	leftW := width - histW
	if histW > 0 {
		leftW -= 2
	}
	lines := l.topSummary(width)
	head := l.list.header(st, leftW)
	rows := l.list.rows(st, leftW, true)
	if len(rows) == 0 {
		if l.list.filter != "" {
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
			left = padRight(left, leftW) + "  " + hist[i]
		}
		lines = append(lines, left)
	}
	lines = append(lines, bottom...)
	return fit(lines, width, height)
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
	bottom = append(bottom, " "+asciiText(g, report.SkewText(r)))
	bottom = append(bottom, l.detectorLines(width)...)
	bottom = append(bottom, clip(fmt.Sprintf(" small%%: base files under %s, the small-files threshold", humanBytes(x.SmallFileThreshold)), width))
	if x.SmallFileHandling == "off" {
		bottom = append(bottom, clip(" "+l.c.Styles.Warn.Render(g.Warn+" writer small-file handling "+x.WriterSmallFiles(humanBytes)), width))
	}
	if f := l.list.footer(l.c, width, "partitions"); f != "" {
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
	if i := l.list.selected(); i >= 0 {
		sel = &l.parts[i]
	}
	lo, hi := report.HistogramRange(x.Histogram)
	n := hi - lo + 1
	if n <= 0 {
		return []string{st.ColHead.Render("file sizes"), "no base file"}
	}
	block := func(title string, h []layout.Bucket) []string {
		out := []string{st.ColHead.Render(trunc(title, w, st.G.Ellipsis))}
		maxC := 0
		for _, b := range h[lo : hi+1] {
			maxC = max(maxC, b.Count)
		}
		for _, b := range h[lo : hi+1] {
			out = append(out, barRow(st, report.BucketLabel(b, isASCII(st.G)), 7, float64(b.Count), float64(maxC), w-7-1-1-5, padLeft(humanCount(int64(b.Count)), 5)))
		}
		return out
	}
	table := block("file sizes (table)", x.Histogram)
	if sel == nil {
		return table
	}
	part := block("file sizes ("+partLabel(sel.Partition)+")", sel.Histogram)
	if rows >= 2*(n+1)+1 {
		return append(append(table, ""), part...)
	}
	if l.histPart {
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
		verdict, reason := d.Status, asciiText(g, d.Summary)
		if b, ok := bands[d.Name]; ok && b.Verdict != "" {
			verdict, reason = b.Verdict, asciiText(g, b.Reason)
		}
		status := padRight(verdict, vw+1)
		switch verdict {
		case layout.Flagged, layout.Moderate, layout.Severe:
			status = st.Warn.Render(status)
		}
		out = append(out, clip(" "+padRight(d.Name, 15)+" "+status+" "+reason, width))
	}
	return out
}

// partHead is the partition level's facts, wrapped between facts.
func (l *LayoutPane) partHead(width int) []string {
	g := l.c.Styles.G
	lp := l.part
	ep := lp.ep
	facts := []string{partLabel(lp.p.Path), fmt.Sprintf("%d file groups", ep.FileGroups), fmt.Sprintf("%d slices", ep.FileSlices),
		"base " + humanBytes(ep.BaseBytes), "p50 " + humanBytes(ep.P50), fmt.Sprintf("logs read %d (%s)", ep.LogFiles, humanBytes(ep.LogBytes))}
	var extra []string
	if ep.PendingCompaction > 0 {
		extra = append(extra, fmt.Sprintf("%d in pending compaction", ep.PendingCompaction))
	}
	if ep.MergedFileGroups > 0 {
		extra = append(extra, fmt.Sprintf("latest slices alone: %d logs (%s)", ep.LatestLogFiles, humanBytes(ep.LatestLogBytes)))
	}
	if ep.PendingClustering > 0 {
		extra = append(extra, fmt.Sprintf("%d in pending clustering", ep.PendingClustering))
	}
	extra = append(extra, fmt.Sprintf("%d replaced (hidden until cleaned)", ep.Replaced), fmt.Sprintf("%d uncommitted files", ep.UncommittedFiles))
	return append(packFacts(facts, g.Sep, width), packFacts(extra, g.Sep, width)...)
}

func (l *LayoutPane) partView(width, height int) string {
	st := l.c.Styles
	lp := l.part
	lines := l.partHead(width)
	bottom := l.footer(lp.list, "file groups")
	lines = append(lines, lp.list.header(st, width))
	rows := lp.list.rows(st, width, true)
	if len(rows) == 0 {
		rows = []string{"  no file group matches"}
	}
	lines = append(lines, rows...)
	for len(lines) < height-len(bottom) {
		lines = append(lines, "")
	}
	return fit(append(lines, bottom...), width, height)
}

// groupHead is the file-group level's facts, wrapped between facts.
func (l *LayoutPane) groupHead(width int) []string {
	g := l.c.Styles.G
	lg := l.part.group
	n, lb := readLogs(lg.g)
	what := "a read merges"
	if _, merged := lg.g.Merged(); merged {
		what = "a read merges (previous base + both slices)"
	}
	facts := []string{lg.g.FileID, fmt.Sprintf("%d slice(s)", len(lg.g.Slices)), fmt.Sprintf("%s %d log file(s), %s", what, n, humanBytes(lb))}
	pend := report.Pending(lg.g)
	if pend == "" {
		pend = "no pending compaction or clustering"
	} else {
		pend = "pending " + pend
	}
	return append(packFacts(facts, g.Sep, width), packFacts([]string{pend}, g.Sep, width)...)
}

func (l *LayoutPane) groupView(width, height int) string {
	st := l.c.Styles
	lg := l.part.group
	lines := l.groupHead(width)
	bottom := l.footer(lg.list, "files")
	lines = append(lines, lg.list.header(st, width))
	lines = append(lines, lg.list.rows(st, width, true)...)
	for len(lines) < height-len(bottom) {
		lines = append(lines, "")
	}
	return fit(append(lines, bottom...), width, height)
}

// Export renders the level shown, in its order and filter.
func (l *LayoutPane) Export() (string, string) {
	name := "table"
	if l.snap != nil && l.snap.Config != nil {
		name = l.snap.Config.Name
	}
	if l.res == nil {
		return "layout", "# Layout: " + report.Escape(name) + "\n\n" + strings.Join(StepReason(model.StepLayout, "layout analysis")(l.snap), "\n\n") + "\n"
	}
	var b strings.Builder
	switch {
	case l.part != nil && l.part.group != nil:
		fmt.Fprintf(&b, "# Layout: %s, file group %s\n\n", report.Escape(name), l.part.group.g.FileID)
		b.WriteString(report.FileGroupMarkdown(l.part.group.g))
		return "layout-" + l.part.group.g.FileID, b.String()
	case l.part != nil:
		fmt.Fprintf(&b, "# Layout: %s, partition %s\n\n", report.Escape(name), report.Escape(report.PartitionName(l.part.p.Path)))
		var gs []*filegroup.FileGroup
		for _, i := range l.part.list.visible() {
			gs = append(gs, l.part.groups[i])
		}
		b.WriteString(report.PartitionFilesMarkdown(l.part.p, gs))
		return "layout-" + report.PartitionName(l.part.p.Path), b.String()
	}
	fmt.Fprintf(&b, "# Layout: %s\n\n", report.Escape(name))
	parts := []layout.ExtraPartition{}
	for _, i := range l.list.visible() {
		parts = append(parts, l.parts[i])
	}
	if l.list.sortBy >= 0 || l.list.filter != "" {
		fmt.Fprintf(&b, "Partitions ordered by %s", l.list.sortName("name"))
		if l.list.filter != "" {
			fmt.Fprintf(&b, ", filter `%s`", l.list.filter)
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

// partLabel is a partition's display name, escaped for the terminal.
func partLabel(p string) string { return safetext.Terminal(report.PartitionName(p)) }
