package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/internal/safetext"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
)

// detailMsg carries an instant's details read in a Cmd.
type detailMsg struct {
	in  *timeline.Instant
	d   *timeline.Details
	err error
	// snap reads the rows of a write (the Rows tab).
	snap *model.Snapshot
}

func loadDetail(s *model.Snapshot, in *timeline.Instant) tea.Cmd {
	return func() tea.Msg {
		d, err := s.InstantDetails(context.Background(), in)
		return detailMsg{in: in, d: d, err: err, snap: s}
	}
}

// dtable is one sortable table of the detail view.
type dtable struct {
	name    string
	headers []string
	right   []bool
	rows    [][]string
	nums    [][]float64 // numeric sort key per cell; NaN for text cells
	mid     []bool      // columns cut in the middle (long ids keep their ends)
	keep    []bool      // columns never shrunk to fit (a row's record key)
	// partCol is 1 + the column holding a partition (rows link to Layout); 0: none.
	partCol int
	// groupCol is 1 + the column holding a file id (rows link to the file group); 0: none.
	groupCol int
	// raw is the JSON a key/value fallback table was flattened from (the export keeps it).
	raw []string
}

// bytesV is a byte count cell (binary units, sorted by value).
type bytesV int64

func (t *dtable) add(cells ...any) {
	row := make([]string, len(cells))
	num := make([]float64, len(cells))
	for i, c := range cells {
		num[i] = math.NaN()
		switch v := c.(type) {
		case string:
			row[i] = v
		case int:
			row[i], num[i] = strconv.Itoa(v), float64(v)
		case int64:
			row[i], num[i] = strconv.FormatInt(v, 10), float64(v)
		case float64:
			row[i], num[i] = humanNum(v), v
		case bytesV:
			row[i], num[i] = humanBytes(int64(v)), float64(v)
		default:
			row[i] = fmt.Sprint(v)
		}
	}
	t.rows = append(t.rows, row)
	t.nums = append(t.nums, num)
}

// instantDetail is the drill-down view of one instant.
type instantDetail struct {
	in      *timeline.Instant
	loading bool
	err     error
	info    [][2]string
	notes   []string
	tables  []*dtable
	table   int // shown table
	sortCol int // -1: stored order
	cursor  int
	top     int
	page    int // rows shown (reflow)
	km      detailKeys
	// hasLayout, hasEventLog: the snapshot has the pane a link goes to.
	hasLayout, hasEventLog bool
	// rows is the Rows tab of a write (nil for other instants).
	rows *rowsTab
}

// detailKeys are an instant's keys: move in the shown table, sort it, switch tables.
type detailKeys struct {
	navKeys
	Sort, Table, Layout, Stages key.Binding
	// Rows opens the Rows tab; Find looks for a record key there (FindGo runs it, FindCancel
	// closes the input).
	Rows, Find, FindGo, FindCancel key.Binding
}

func (k detailKeys) ShortHelp() []key.Binding {
	return enabled(k.FindGo, k.FindCancel, k.Sort, k.Table, k.Rows, k.Find, k.Layout, k.Stages)
}
func (k detailKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.all(), {k.Sort, k.Table, k.Rows, k.Find, k.FindGo, k.FindCancel, k.Layout, k.Stages}}
}
func (k detailKeys) helpTitles() []string { return []string{"Move", "Instant"} }

// keys are the keys that act on what is shown: more than one row to move over or sort, more
// than one table to switch.
func (d *instantDetail) keys(c *Common) detailKeys {
	k := d.km
	t := d.shown()
	onRows := d.rows != nil && t == d.rows.tbl
	if onRows && d.rows.finding {
		// The find input has focus: every other key is text.
		k.navKeys = c.Keys.Nav.when(false)
		for _, b := range []*key.Binding{&k.Sort, &k.Table, &k.Layout, &k.Stages, &k.Rows, &k.Find} {
			b.SetEnabled(false)
		}
		return k
	}
	k.FindGo.SetEnabled(false)
	k.FindCancel.SetEnabled(false)
	k.navKeys = c.Keys.Nav.when(t != nil && (len(t.rows) > 1 || onRows && d.rows.total > 1))
	k.Sort = when(c.Keys.Sort, t != nil && len(t.rows) > 1 && !onRows)
	k.Rows = when(k.Rows, t != nil && d.rows != nil && !onRows)
	k.Find = when(k.Find, onRows && d.rows.total > 0 && !d.rows.loading)
	k.Table = when(k.Table, t != nil && len(d.tables) > 1)
	k.Layout = when(k.Layout, t != nil && t.partCol > 0 && len(t.rows) > 0 && d.hasLayout)
	if t != nil && t.groupCol > 0 {
		k.Layout.SetHelp("enter", "file group of the row (Layout)")
	}
	k.Stages = when(k.Stages, d.hasEventLog)
	return k
}

// shown is the table on screen (nil while loading or after an error).
func (d *instantDetail) shown() *dtable {
	if d.loading || d.err != nil {
		return nil
	}
	return d.cur()
}

func newInstantDetail(in *timeline.Instant) *instantDetail {
	d := &instantDetail{in: in, loading: true, sortCol: -1, page: 1,
		km: detailKeys{Table: bind("t", "next table", "t"), Layout: bind("enter", "partition of the row (Layout)", "enter"),
			Stages: bind("S", "Spark stages", "S"), Rows: bind("r", "rows this write left", "r"),
			Find: bind("/", "find a record key", "/"), FindGo: bind("enter", "find", "enter"), FindCancel: bind("esc", "cancel", "esc")}}
	d.info = baseInfo(in)
	return d
}

func (d *instantDetail) crumb() string {
	return d.in.RequestedTime + " " + d.in.Action
}

func baseInfo(in *timeline.Instant) [][2]string {
	ct := dashIf(in.CompletionTime)
	switch {
	case in.CoarseCompletion():
		_, hi := in.CompletionBounds()
		ct += fmt.Sprintf(" (derived from the completed file's time, kept to %s: completed before %s)", in.CompletionPrecision, timeline.FormatInstantTime(hi, hi.Location()))
	case in.CompletionDerived:
		ct += " (derived from the completed file's time)"
	}
	info := [][2]string{
		{"instant", in.RequestedTime + " " + in.Action + " " + strings.ToLower(string(in.State))},
		{"times", "requested " + in.RequestedTime + ", completed " + ct + ", took " + tookText(in)},
	}
	if in.HasPlan() {
		info = append(info, [2]string{"plan", in.PlanAction})
	}
	if in.Operation != "" {
		info = append(info, [2]string{"operation", in.Operation})
	}
	if in.Archived {
		info = append(info, [2]string{"archived", "yes (from the archived timeline)"})
	}
	if in.Err != "" {
		info = append(info, [2]string{"unreadable", in.Err})
	}
	return info
}

func (d *instantDetail) set(m detailMsg) {
	d.loading = false
	d.err = m.err
	if m.d == nil {
		return
	}
	det := m.d
	in := d.in
	if c := det.Commit; c != nil {
		tot := c.Totals()
		d.info = append(d.info, [2]string{"written", fmt.Sprintf("%d records (%d inserted, %d updated, %d deleted), %s in %d file(s), %d partition(s)",
			tot.NumWrites, tot.NumInserts, tot.NumUpdateWrites, tot.NumDeletes, humanBytes(tot.TotalBytesWritten), tot.Files, tot.Partitions)})
		if k, v := c.Checkpoint(); k != "" {
			d.info = append(d.info, [2]string{"streamer checkpoint", k + " = " + v})
		}
		if n := countReplaced(c.PartitionToReplaceFileIDs); n > 0 {
			d.info = append(d.info, [2]string{"replaces", fmt.Sprintf("%d file group(s)", n)})
		}
		files, parts, cdc := commitTables(c)
		d.tables = append(d.tables, files, parts)
		if cdc != nil {
			d.tables = append(d.tables, cdc)
		}
	}
	if c := det.Clean; c != nil {
		d.info = append(d.info,
			[2]string{"policy", dashIf(c.Policy)},
			[2]string{"earliest commit to retain", dashIf(c.EarliestCommitToRetain)},
			[2]string{"last completed commit", dashIf(c.LastCompletedCommitTimestamp)},
			[2]string{"files deleted", fmt.Sprintf("%d in %s", c.TotalFilesDeleted, time.Duration(c.TimeTakenInMillis)*time.Millisecond)})
		t := &dtable{partCol: 1, name: "partitions cleaned", headers: []string{"partition", "policy", "deleted", "failed", "partition deleted"}, right: []bool{false, false, true, true, false}}
		for _, p := range report.SortedKeys(c.PartitionMetadata) {
			pm := c.PartitionMetadata[p]
			t.add(partName(p), pm.Policy, len(pm.SuccessDeleteFiles), len(pm.FailedDeleteFiles), yesNo(pm.IsPartitionDeleted))
		}
		d.tables = append(d.tables, t)
	}
	if c := det.CleanerPlan; c != nil {
		if c.EarliestInstantToRetain != nil {
			d.info = append(d.info, [2]string{"plan: earliest instant to retain", c.EarliestInstantToRetain.Timestamp})
		}
		t := &dtable{partCol: 1, name: "clean plan", headers: []string{"partition", "files to delete"}, right: []bool{false, true}}
		for _, p := range report.SortedKeys(c.FilePathsToBeDeletedPerPartition) {
			t.add(partName(p), len(c.FilePathsToBeDeletedPerPartition[p]))
		}
		for _, p := range report.SortedKeys(c.FilesToBeDeletedPerPartition) {
			t.add(partName(p), len(c.FilesToBeDeletedPerPartition[p]))
		}
		d.tables = append(d.tables, t)
	}
	if r := det.Rollback; r != nil {
		d.info = append(d.info,
			[2]string{"rolled back", strings.Join(r.CommitsRollback, ", ")},
			[2]string{"files deleted", fmt.Sprintf("%d in %s", r.TotalFilesDeleted, time.Duration(r.TimeTakenInMillis)*time.Millisecond)})
		t := &dtable{partCol: 1, name: "partitions rolled back", headers: []string{"partition", "deleted", "failed", "rollback logs", "failed-commit logs"}, right: []bool{false, true, true, true, true}}
		for _, p := range report.SortedKeys(r.PartitionMetadata) {
			pm := r.PartitionMetadata[p]
			t.add(partName(p), len(pm.SuccessDeleteFiles), len(pm.FailedDeleteFiles), len(pm.RollbackLogFiles), len(pm.LogFilesFromFailedCommit))
		}
		d.tables = append(d.tables, t)
	}
	if r := det.RollbackPlan; r != nil {
		if r.InstantToRollback != nil {
			d.info = append(d.info, [2]string{"plan: instant to roll back", r.InstantToRollback.CommitTime + " " + r.InstantToRollback.Action})
		}
		t := &dtable{partCol: 1, name: "rollback plan", headers: []string{"partition", "file group", "files to delete", "log blocks"}, right: []bool{false, false, true, true}, mid: []bool{false, true, false, false}}
		for _, rq := range r.RollbackRequests {
			t.add(partName(rq.PartitionPath), rq.FileID, len(rq.FilesToBeDeleted), len(rq.LogBlocksToBeDeleted))
		}
		d.tables = append(d.tables, t)
	}
	if r := det.Restore; r != nil {
		d.info = append(d.info, [2]string{"instants rolled back", fmt.Sprintf("%d in %s", len(r.InstantsToRollback), time.Duration(r.TimeTakenInMillis)*time.Millisecond)})
		t := &dtable{name: "restored instants", headers: []string{"instant", "action", "state"}, right: []bool{false, false, false}}
		for _, ref := range r.RestoreInstantInfo {
			t.add(ref.CommitTime+ref.Timestamp, ref.Action, ref.State)
		}
		if len(r.RestoreInstantInfo) == 0 {
			for _, i := range r.InstantsToRollback {
				t.add(i, "", "")
			}
		}
		d.tables = append(d.tables, t)
	}
	if s := det.Savepoint; s != nil {
		d.info = append(d.info, [2]string{"savepointed by", dashIf(s.SavepointedBy)},
			[2]string{"comments", dashIf(s.Comments)})
		t := &dtable{partCol: 1, name: "savepointed files", headers: []string{"partition", "files"}, right: []bool{false, true}}
		for _, p := range report.SortedKeys(s.PartitionMetadata) {
			t.add(partName(p), len(s.PartitionMetadata[p].SavepointDataFile))
		}
		d.tables = append(d.tables, t)
	}
	if c := det.Compaction; c != nil {
		t := &dtable{partCol: 1, name: "compaction plan", headers: []string{"partition", "file group", "base instant", "log files", "log size"},
			right: []bool{false, false, false, true, true}, mid: []bool{false, true, false, false, false}}
		for _, op := range c.Operations {
			t.add(partName(op.PartitionPath), op.FileID, dashIf(op.BaseInstantTime), len(op.DeltaFilePaths), bytesV(op.Metrics["TOTAL_LOG_FILES_SIZE"]))
		}
		d.info = append(d.info, [2]string{"plan", fmt.Sprintf("%s of %d file group(s)", dashIf(in.PlanAction), len(c.Operations))})
		d.tables = append(d.tables, t)
	}
	if r := det.Replace; r != nil && r.ClusteringPlan != nil {
		t := &dtable{partCol: 2, name: "clustering plan", headers: []string{"group", "partition", "file group", "log files", "output groups"},
			right: []bool{true, false, false, true, true}, mid: []bool{false, false, true, false, false}}
		for gi, g := range r.ClusteringPlan.InputGroups {
			for _, sl := range g.Slices {
				t.add(gi+1, partName(sl.PartitionPath), sl.FileID, len(sl.DeltaFilePaths), g.NumOutputFileGroups)
			}
		}
		if s := r.ClusteringPlan.Strategy; s != nil {
			d.info = append(d.info, [2]string{"clustering strategy", s.StrategyClassName})
		}
		d.tables = append(d.tables, t)
	}
	if x := det.Index; x != nil {
		t := &dtable{name: "indexes", headers: []string{"metadata partition", "indexed up to"}, right: []bool{false, false}}
		for _, p := range x.IndexPartitionInfos {
			t.add(p.MetadataPartitionPath, p.IndexUptoInstant)
		}
		d.tables = append(d.tables, t)
	}
	for _, p := range det.Problems {
		d.notes = append(d.notes, "could not read "+p.String())
	}
	defer func() {
		if m.snap != nil && model.ReturnsRows(in) {
			d.rows = newRowsTab(m.snap, in)
			d.tables = append(d.tables, d.rows.tbl)
		}
	}()
	if len(d.tables) == 0 {
		raw := det.Content
		name := "metadata (JSON)"
		if len(raw) == 0 {
			raw, name = det.Plan, "plan (JSON)"
		}
		t := &dtable{name: name, headers: []string{"key", "value"}, right: []bool{false, false}}
		if len(raw) == 0 {
			t.add("(this instant has no stored metadata)", "")
		} else {
			pretty := raw
			var b bytes.Buffer
			if json.Indent(&b, raw, "", "  ") == nil {
				pretty = b.Bytes() // numbers as written (no float64 round trip)
			}
			t.raw = strings.Split(string(pretty), "\n")
			if !flattenJSON(t, raw) {
				t.headers, t.right, t.rows, t.nums = []string{name}, []bool{false}, nil, nil
				for _, l := range t.raw {
					t.add(l)
				}
			}
		}
		d.tables = append(d.tables, t)
	}
}

func countReplaced(m map[string][]string) int {
	n := 0
	for _, v := range m {
		n += len(v)
	}
	return n
}

func commitTables(c *timeline.CommitMetadata) (files, parts, cdc *dtable) {
	files = &dtable{partCol: 1, groupCol: 2, name: "files written", headers: []string{"partition", "file group", "file", "prev", "writes", "ins", "upd", "del", "written", "size"},
		right: []bool{false, false, false, false, true, true, true, true, true, true}, mid: []bool{false, true, false, false, false, false, false, false, false, false}}
	parts = &dtable{partCol: 1, name: "partitions written", headers: []string{"partition", "files", "writes", "ins", "upd", "del", "written"},
		right: []bool{false, true, true, true, true, true, true}}
	for _, p := range c.Partitions() {
		var pw, pi, pu, pd, pb int64
		stats := c.PartitionToWriteStats[p]
		for _, s := range stats {
			files.add(partName(p), s.FileID, fileKind(s.Path), dashIf(s.PrevCommit), s.NumWrites, s.NumInserts, s.NumUpdateWrites, s.NumDeletes,
				bytesV(s.TotalWriteBytes), bytesV(s.FileSizeInBytes))
			pw, pi, pu, pd, pb = pw+s.NumWrites, pi+s.NumInserts, pu+s.NumUpdateWrites, pd+s.NumDeletes, pb+s.TotalWriteBytes
			if len(s.CDCStats) > 0 {
				if cdc == nil {
					cdc = &dtable{partCol: 1, groupCol: 2, name: "CDC files", headers: []string{"partition", "file group", "cdc file", "size"},
						right: []bool{false, false, false, true}, mid: []bool{false, true, false, false}}
				}
				for _, f := range report.SortedKeys(s.CDCStats) {
					cdc.add(partName(p), s.FileID, f[strings.LastIndexByte(f, '/')+1:], bytesV(s.CDCStats[f]))
				}
			}
		}
		parts.add(partName(p), len(stats), pw, pi, pu, pd, bytesV(pb))
	}
	return files, parts, cdc
}

// fileKind names a written file within its file group: a MOR log file by version and write
// token (".<fileId>_<instant>.log.<version>_<writeToken>" → "log 3 1-0-1"), a base file by
// its format.
func fileKind(path string) string {
	name := path[strings.LastIndexByte(path, '/')+1:]
	if i := strings.Index(name, ".log."); i >= 0 && strings.HasPrefix(name, ".") {
		rest := name[i+len(".log."):]
		if v, tok, ok := strings.Cut(rest, "_"); ok {
			return "log " + v + " " + tok
		}
		return "log " + rest
	}
	if name == "" {
		return "-"
	}
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
}

func partName(p string) string {
	if p == "" {
		return "(non-partitioned)"
	}
	return safetext.Terminal(p)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func (d *instantDetail) cur() *dtable {
	if d.table < len(d.tables) {
		return d.tables[d.table]
	}
	return nil
}

// capturing is true while the Rows tab's find input has focus.
func (d *instantDetail) capturing() bool {
	return d.rows != nil && d.rows.finding && d.shown() == d.rows.tbl
}

// openRows shows the Rows tab, reading its first page the first time.
func (d *instantDetail) openRows() tea.Cmd {
	for i, t := range d.tables {
		if t == d.rows.tbl {
			d.table = i
		}
	}
	d.cursor, d.top, d.sortCol = 0, 0, -1
	if d.rows.total < 0 && !d.rows.loading {
		return d.rows.load(0, "")
	}
	return nil
}

func (d *instantDetail) update(c *Common, msg tea.Msg) tea.Cmd {
	k := d.keys(c)
	t := d.shown()
	if m, ok := msg.(rowsMsg); ok {
		if d.rows != nil && m.in == d.in {
			d.rows.set(d, m)
		}
		return nil
	}
	if d.rows != nil && t == d.rows.tbl {
		if cmd, handled := d.rows.update(d, k, msg); handled {
			return cmd
		}
	}
	n := 0
	if t != nil {
		n = len(t.rows)
	}
	move := func(delta int) {
		d.cursor = max(0, min(n-1, d.cursor+delta))
	}
	switch msg := msg.(type) {
	case tea.MouseWheelMsg:
		if key.Matches(msg, k.Wheel) {
			if msg.Button == tea.MouseWheelUp {
				move(-3)
			} else {
				move(3)
			}
		}
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Up):
			move(-1)
		case key.Matches(msg, k.Down):
			move(1)
		case key.Matches(msg, k.PageUp):
			move(-d.page)
		case key.Matches(msg, k.PageDown):
			move(d.page)
		case key.Matches(msg, k.Top):
			move(-n)
		case key.Matches(msg, k.Bottom):
			move(n)
		case key.Matches(msg, k.Layout):
			p := t.rows[d.cursor][t.partCol-1]
			if p == partName("") {
				p = ""
			}
			j := JumpPartition{Path: p}
			if t.groupCol > 0 {
				j.FileGroup = t.rows[d.cursor][t.groupCol-1]
			}
			return jumpTo(j)
		case key.Matches(msg, k.Stages):
			return jumpTo(JumpInstantStages{Requested: d.in.RequestedTime})
		case key.Matches(msg, k.Rows):
			return d.openRows()
		case key.Matches(msg, k.Table):
			d.table = (d.table + 1) % len(d.tables)
			d.cursor, d.top, d.sortCol = 0, 0, -1
			if d.rows != nil && d.cur() == d.rows.tbl {
				return d.openRows()
			}
		case key.Matches(msg, k.Sort):
			d.sortCol++
			if d.sortCol >= len(t.headers) {
				d.sortCol = 0
			}
			d.sortBy(t, d.sortCol)
			d.cursor, d.top = 0, 0
		}
	}
	return nil
}

// sortBy orders rows by column c: numbers descending (largest first), text ascending.
func (d *instantDetail) sortBy(t *dtable, c int) {
	idx := make([]int, len(t.rows))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		x, y := t.nums[idx[a]][c], t.nums[idx[b]][c]
		if !math.IsNaN(x) && !math.IsNaN(y) {
			return x > y
		}
		return t.rows[idx[a]][c] < t.rows[idx[b]][c]
	})
	rows := make([][]string, len(idx))
	nums := make([][]float64, len(idx))
	for i, j := range idx {
		rows[i], nums[i] = t.rows[j], t.nums[j]
	}
	t.rows, t.nums = rows, nums
}

func (d *instantDetail) status() string {
	t := d.cur()
	if d.rows != nil && t == d.rows.tbl {
		if d.rows.total <= 0 || len(t.rows) == 0 {
			return ""
		}
		return fmt.Sprintf("[%d/%d] rows %d/%d", d.table+1, len(d.tables), d.rows.abs(d)+1, d.rows.total)
	}
	if t == nil || len(t.rows) == 0 {
		return ""
	}
	s := fmt.Sprintf("%s %d/%d", t.name, d.cursor+1, len(t.rows))
	if len(d.tables) > 1 {
		s = fmt.Sprintf("[%d/%d] ", d.table+1, len(d.tables)) + s
	}
	return s
}

// head is the lines above the table's rows: info, notes, the table names and headers; done
// is true when there is no table to show under them.
func (d *instantDetail) head(c *Common, width, height int) (lines []string, done bool) {
	st := c.Styles
	for _, kv := range d.info {
		for i, l := range wrap(kv[0]+": "+safetext.Terminal(kv[1]), width-3) {
			if i == 0 {
				l = st.Dim.Render(kv[0]+":") + strings.TrimPrefix(l, kv[0]+":")
				lines = append(lines, " "+l)
			} else {
				lines = append(lines, "   "+l)
			}
		}
	}
	for _, n := range d.notes {
		lines = append(lines, clip(" "+st.Warn.Render(st.G.Warn+" "+safetext.Terminal(n)), width))
	}
	switch {
	case d.loading:
		return append(lines, "", " reading the instant's plan and metadata..."), true
	case d.err != nil:
		return append(lines, "", " "+st.Bad.Render("could not read details: "+safetext.Terminal(d.err.Error()))), true
	}
	t := d.cur()
	if t == nil {
		return lines, true
	}
	// Keep at least a third of the height for rows when info is long.
	if maxInfo := height - 4; len(lines) > maxInfo && maxInfo > 0 {
		lines = lines[:maxInfo]
	}
	name := func(o *dtable) string {
		if d.rows != nil && o == d.rows.tbl {
			return d.rows.title()
		}
		return o.name
	}
	title := name(t)
	if len(d.tables) > 1 {
		var names []string
		for i, o := range d.tables {
			if i == d.table {
				names = append(names, "["+name(o)+"]")
			} else {
				names = append(names, name(o))
			}
		}
		title = strings.Join(names, "  ") + "   (" + d.km.Table.Help().Key + ": next table)"
	}
	lines = append(lines, "", " "+st.ColHead.Render(clip(title, width-1)))
	if d.rows != nil && t == d.rows.tbl {
		lines = append(lines, d.rows.lines(st, width)...)
	}
	widths := colWidths(t, width-2)
	hdr := make([]string, len(t.headers))
	for i, h := range t.headers {
		if i == d.sortCol {
			h += st.G.Sorted
		}
		hdr[i] = h
	}
	return append(lines, st.ColHead.Render(padRight("  "+joinCells(hdr, widths, t.right, nil, st.G), width))), false
}

// reflow sets the page and scrolls the cursor into it.
func (d *instantDetail) reflow(c *Common, width, height int) {
	lines, _ := d.head(c, width, height)
	d.page = max(1, height-len(lines))
	if d.cursor < d.top {
		d.top = d.cursor
	}
	if d.cursor >= d.top+d.page {
		d.top = d.cursor - d.page + 1
	}
}

func (d *instantDetail) view(c *Common, width, height int) string {
	st := c.Styles
	lines, done := d.head(c, width, height)
	if done {
		return fit(lines, width, height)
	}
	t := d.cur()
	widths := colWidths(t, width-2)
	if len(t.rows) == 0 && (d.rows == nil || t != d.rows.tbl || !d.rows.loading && d.rows.err == nil) {
		lines = append(lines, "  (none)")
	}
	for i := d.top; i < len(t.rows) && i < d.top+d.page; i++ {
		l := "  " + joinCells(t.rows[i], widths, t.right, t.mid, st.G)
		if i == d.cursor {
			l = st.Cursor.Render(padRight(st.G.Cursor+l[1:], width))
		}
		lines = append(lines, l)
	}
	return fit(lines, width, height)
}

// colWidths sizes columns to their content, shrinking the widest text columns to fit.
func colWidths(t *dtable, width int) []int {
	w := make([]int, len(t.headers))
	for i, h := range t.headers {
		w[i] = len([]rune(h)) + 1
	}
	for _, r := range t.rows {
		for i, c := range r {
			if l := len([]rune(c)); l > w[i] {
				w[i] = l
			}
		}
	}
	total := func() int {
		s := len(w) - 1
		for _, x := range w {
			s += x
		}
		return s
	}
	for total() > width {
		wi := -1
		for i := range w {
			if !t.right[i] && (i >= len(t.keep) || !t.keep[i]) && (wi < 0 || w[i] > w[wi]) {
				wi = i
			}
		}
		if wi < 0 || w[wi] <= 6 {
			break
		}
		w[wi]--
	}
	return w
}

func joinCells(cells []string, widths []int, right, mid []bool, g Glyphs) string {
	var b strings.Builder
	for i, c := range cells {
		if i >= len(widths) {
			break
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		c = safeLine(c) // cells are data; a styled cell keeps its styles
		if i < len(mid) && mid[i] && cellWidth(c) > widths[i] && widths[i] > 4 {
			keep := widths[i] - 1
			c = ansi.Truncate(c, keep-keep/3, "") + g.Ellipsis + ansi.TruncateLeft(c, cellWidth(c)-keep/3, "")
		}
		c = trunc(c, widths[i], g.Ellipsis)
		if right[i] {
			b.WriteString(padLeft(c, widths[i]))
		} else {
			b.WriteString(padRight(c, widths[i]))
		}
	}
	return strings.TrimRight(b.String(), " ")
}

// markdown renders the detail: info, then every table.
func (d *instantDetail) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s %s\n\n", d.in.Action, d.in.RequestedTime)
	b.WriteString(report.KeyValues(d.info))
	for _, n := range d.notes {
		fmt.Fprintf(&b, "- %s\n", report.Escape(n))
	}
	if d.loading {
		b.WriteString("\nDetails were still being read when this was exported.\n")
	}
	if d.err != nil {
		fmt.Fprintf(&b, "\nDetails could not be read: %s\n", report.Escape(d.err.Error()))
	}
	for _, t := range d.tables {
		fmt.Fprintf(&b, "\n## %s\n\n", t.name)
		align := ""
		for _, r := range t.right {
			if r {
				align += "r"
			} else {
				align += "l"
			}
		}
		if t.raw != nil {
			b.WriteString("```json\n")
			for _, r := range t.raw {
				b.WriteString(r + "\n")
			}
			b.WriteString("```\n")
			continue
		}
		b.WriteString(report.Table(t.headers, align, t.rows))
	}
	return b.String()
}

// flattenJSON adds one key/value row per JSON leaf, keys as dotted paths in document order
// ("partitionToWriteStats.p1[0].numWrites"), numbers formatted for reading: bytes and sizes
// in binary units, milliseconds as durations, instants and ids (whole numbers of 12 digits
// or more) as written, other numbers by humanNum. False when raw is not JSON.
func flattenJSON(t *dtable, raw []byte) bool {
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	var walk func(path string) error
	walk = func(path string) error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{':
				n := 0
				for dec.More() {
					kt, err := dec.Token()
					if err != nil {
						return err
					}
					k, _ := kt.(string)
					if path != "" {
						k = path + "." + k
					}
					if err := walk(k); err != nil {
						return err
					}
					n++
				}
				if n == 0 && path != "" {
					t.add(path, "{}")
				}
			case '[':
				n := 0
				for dec.More() {
					if err := walk(fmt.Sprintf("%s[%d]", path, n)); err != nil {
						return err
					}
					n++
				}
				if n == 0 && path != "" {
					t.add(path, "[]")
				}
			}
			_, err := dec.Token() // the closing delimiter
			return err
		case json.Number:
			t.add(path, jsonNumber(path, v))
		case string:
			t.add(path, dashIf(v))
		case bool:
			t.add(path, yesNo(v))
		case nil:
			t.add(path, "null")
		}
		return nil
	}
	if err := walk(""); err != nil {
		t.rows, t.nums = nil, nil
		return false
	}
	return true
}

// jsonNumber formats a JSON number by what its key says it counts.
func jsonNumber(key string, n json.Number) any {
	f, err := n.Float64()
	if err != nil {
		return n.String()
	}
	k := strings.ToLower(key[strings.LastIndexAny(key, ".]")+1:])
	whole := f == math.Trunc(f)
	switch {
	case whole && math.Abs(f) >= 1e11:
		return n.String()
	case strings.Contains(k, "bytes") || strings.HasSuffix(k, "size") || strings.HasSuffix(k, "sizeinbytes"):
		return bytesV(int64(f))
	case strings.Contains(k, "millis") || strings.HasSuffix(k, "ms"):
		return msDur(int64(f))
	}
	return f
}

// tookText is the instant's duration in the TUI's short form ("4.6s", "≈1.2s" when the
// completion time is derived and coarse).
func tookText(in *timeline.Instant) string {
	d := report.Duration(in)
	if d == "-" {
		return d
	}
	if strings.HasPrefix(d, "≈") {
		return "≈" + shortDur(in.MidDuration().Seconds())
	}
	return shortDur(in.Duration().Seconds())
}
