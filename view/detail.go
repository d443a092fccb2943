package view

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hudiscope/hudiscope/hudi/records"
	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/internal/safetext"
	"github.com/hudiscope/hudiscope/internal/units"
	"github.com/hudiscope/hudiscope/model"
)

// Detail is what a drill-down into one instant shows (the explorer's Enter on a Timeline
// instant, later `hudiscope show TABLE INSTANT`): labelled facts, notes on what could not be
// read, and the tables of its plan and metadata. It is plain data: a surface lays it out.
type Detail struct {
	// Info is the instant's labelled facts ("instant", "times", "written", ...), in order.
	Info [][2]string
	// Notes are what could not be read while reading the details.
	Notes []string
	// Tables are the instant's tables in the order shown; at least one when details were read
	// (a key/value table of the stored JSON when no typed table applies).
	Tables []DetailTable
}

// DetailTable is one table of an instant's details.
type DetailTable struct {
	Title   string
	Columns []string
	// Right marks the numeric columns (right-aligned).
	Right []bool
	// Mid marks the columns of long ids, cut in the middle when too wide (both ends kept).
	Mid []bool
	// Keep marks the columns never shrunk to fit (a row's record key).
	Keep []bool
	Rows [][]Cell
	// PartCol is 1 + the column holding a partition (a row leads to Layout); 0: none.
	PartCol int
	// GroupCol is 1 + the column holding a file id (a row leads to its file group); 0: none.
	GroupCol int
	// Raw is the indented JSON a key/value fallback table was made from (an export prints
	// it as written); nil for typed tables.
	Raw []string
}

// Cell is one table cell: its text as shown and, for a number, the value it sorts by.
type Cell struct {
	Text string
	// Num is the value behind a numeric cell (Numeric true): a count, a byte count.
	Num     float64
	Numeric bool
}

// bytesCell is a byte count cell (binary units, sorted by value).
type bytesCell int64

func (t *DetailTable) add(cells ...any) {
	row := make([]Cell, len(cells))
	for i, c := range cells {
		switch v := c.(type) {
		case string:
			row[i] = Cell{Text: v}
		case int:
			row[i] = Cell{Text: strconv.Itoa(v), Num: float64(v), Numeric: true}
		case int64:
			row[i] = Cell{Text: strconv.FormatInt(v, 10), Num: float64(v), Numeric: true}
		case float64:
			row[i] = Cell{Text: units.Num(v), Num: v, Numeric: true}
		case bytesCell:
			row[i] = Cell{Text: units.BytesCompact(int64(v)), Num: float64(v), Numeric: true}
		default:
			row[i] = Cell{Text: fmt.Sprint(v)}
		}
	}
	t.Rows = append(t.Rows, row)
}

// Texts are the cells' texts of row i.
func (t *DetailTable) Texts(i int) []string {
	out := make([]string, len(t.Rows[i]))
	for j, c := range t.Rows[i] {
		out[j] = c.Text
	}
	return out
}

// PartName is how a detail shows a partition path: escaped for the terminal, the empty path
// of a non-partitioned table named.
func PartName(p string) string {
	if p == "" {
		return "(non-partitioned)"
	}
	return safetext.Terminal(p)
}

// InstantInfo is the facts every instant has, known from the timeline alone (shown while its
// details are read).
func InstantInfo(in *timeline.Instant) [][2]string {
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
		info = append(info, [2]string{ErrLabel(in), in.Err})
	}
	return info
}

// tookText is the instant's duration in short form ("4.6s", "≈1.2s" when the completion time
// is derived and coarse, "-" when unknown).
func tookText(in *timeline.Instant) string {
	d, approx := Duration(in)
	switch {
	case approx:
		return "≈" + units.Seconds(d.Seconds())
	case d > 0:
		return units.Seconds(d.Seconds())
	}
	return "-"
}

// InstantDetail is the drill-down of instant in from its details d (nil: not read, only the
// timeline's facts).
func InstantDetail(in *timeline.Instant, d *timeline.Details) Detail {
	out := Detail{Info: InstantInfo(in)}
	if d == nil {
		return out
	}
	info := func(k, v string) { out.Info = append(out.Info, [2]string{k, v}) }
	if c := d.Commit; c != nil {
		tot := c.Totals()
		info("written", fmt.Sprintf("%d records (%d inserted, %d updated, %d deleted), %s in %d file(s), %d partition(s)",
			tot.NumWrites, tot.NumInserts, tot.NumUpdateWrites, tot.NumDeletes, units.BytesCompact(tot.TotalBytesWritten), tot.Files, tot.Partitions))
		if tot.TotalWriteErrors > 0 {
			// Completed anyway (0.14.0 commits with 29 of 30 failed): the failed records are
			// not in the table.
			info("write errors", model.WriteErrorsText(tot)+" (totalWriteErrors); the commit completed without them")
		}
		if k, v := c.Checkpoint(); k != "" {
			info("streamer checkpoint", k+" = "+v)
		}
		if n := countReplaced(c.PartitionToReplaceFileIDs); n > 0 {
			info("replaces", fmt.Sprintf("%d file group(s)", n))
		}
		files, parts, cdc := commitTables(c)
		out.Tables = append(out.Tables, files, parts)
		if cdc != nil {
			out.Tables = append(out.Tables, *cdc)
		}
		if tot.TotalWriteErrors > 0 {
			out.Tables = append(out.Tables, writeErrorsTable(c))
		}
	}
	if c := d.Clean; c != nil {
		info("policy", dashIf(c.Policy))
		info("earliest commit to retain", dashIf(c.EarliestCommitToRetain))
		info("last completed commit", dashIf(c.LastCompletedCommitTimestamp))
		info("files deleted", fmt.Sprintf("%d in %s", c.TotalFilesDeleted, time.Duration(c.TimeTakenInMillis)*time.Millisecond))
		t := DetailTable{PartCol: 1, Title: "partitions cleaned", Columns: []string{"partition", "policy", "deleted", "failed", "partition deleted"}, Right: []bool{false, false, true, true, false}}
		for _, p := range sortedKeys(c.PartitionMetadata) {
			pm := c.PartitionMetadata[p]
			t.add(PartName(p), pm.Policy, len(pm.SuccessDeleteFiles), len(pm.FailedDeleteFiles), yesNo(pm.IsPartitionDeleted))
		}
		out.Tables = append(out.Tables, t)
	}
	if c := d.CleanerPlan; c != nil {
		if c.EarliestInstantToRetain != nil {
			info("plan: earliest instant to retain", c.EarliestInstantToRetain.Timestamp)
		}
		t := DetailTable{PartCol: 1, Title: "clean plan", Columns: []string{"partition", "files to delete"}, Right: []bool{false, true}}
		for _, p := range sortedKeys(c.FilePathsToBeDeletedPerPartition) {
			t.add(PartName(p), len(c.FilePathsToBeDeletedPerPartition[p]))
		}
		for _, p := range sortedKeys(c.FilesToBeDeletedPerPartition) {
			t.add(PartName(p), len(c.FilesToBeDeletedPerPartition[p]))
		}
		out.Tables = append(out.Tables, t)
	}
	if r := d.Rollback; r != nil {
		info("rolled back", strings.Join(r.CommitsRollback, ", "))
		info("files deleted", fmt.Sprintf("%d in %s", r.TotalFilesDeleted, time.Duration(r.TimeTakenInMillis)*time.Millisecond))
		t := DetailTable{PartCol: 1, Title: "partitions rolled back", Columns: []string{"partition", "deleted", "failed", "rollback logs", "failed-commit logs"}, Right: []bool{false, true, true, true, true}}
		for _, p := range sortedKeys(r.PartitionMetadata) {
			pm := r.PartitionMetadata[p]
			t.add(PartName(p), len(pm.SuccessDeleteFiles), len(pm.FailedDeleteFiles), len(pm.RollbackLogFiles), len(pm.LogFilesFromFailedCommit))
		}
		out.Tables = append(out.Tables, t)
	}
	if r := d.RollbackPlan; r != nil {
		if r.InstantToRollback != nil {
			info("plan: instant to roll back", r.InstantToRollback.CommitTime+" "+r.InstantToRollback.Action)
		}
		t := DetailTable{PartCol: 1, Title: "rollback plan", Columns: []string{"partition", "file group", "files to delete", "log blocks"}, Right: []bool{false, false, true, true}, Mid: []bool{false, true, false, false}}
		for _, rq := range r.RollbackRequests {
			t.add(PartName(rq.PartitionPath), rq.FileID, len(rq.FilesToBeDeleted), len(rq.LogBlocksToBeDeleted))
		}
		out.Tables = append(out.Tables, t)
	}
	if r := d.Restore; r != nil {
		info("instants rolled back", fmt.Sprintf("%d in %s", len(r.InstantsToRollback), time.Duration(r.TimeTakenInMillis)*time.Millisecond))
		t := DetailTable{Title: "restored instants", Columns: []string{"instant", "action", "state"}, Right: []bool{false, false, false}}
		for _, ref := range r.RestoreInstantInfo {
			t.add(ref.CommitTime+ref.Timestamp, ref.Action, ref.State)
		}
		if len(r.RestoreInstantInfo) == 0 {
			for _, i := range r.InstantsToRollback {
				t.add(i, "", "")
			}
		}
		out.Tables = append(out.Tables, t)
	}
	if s := d.Savepoint; s != nil {
		info("savepointed by", dashIf(s.SavepointedBy))
		info("comments", dashIf(s.Comments))
		t := DetailTable{PartCol: 1, Title: "savepointed files", Columns: []string{"partition", "files"}, Right: []bool{false, true}}
		for _, p := range sortedKeys(s.PartitionMetadata) {
			t.add(PartName(p), len(s.PartitionMetadata[p].SavepointDataFile))
		}
		out.Tables = append(out.Tables, t)
	}
	if c := d.Compaction; c != nil {
		t := DetailTable{PartCol: 1, Title: "compaction plan", Columns: []string{"partition", "file group", "base instant", "log files", "log size"},
			Right: []bool{false, false, false, true, true}, Mid: []bool{false, true, false, false, false}}
		for _, op := range c.Operations {
			t.add(PartName(op.PartitionPath), op.FileID, dashIf(op.BaseInstantTime), len(op.DeltaFilePaths), bytesCell(op.Metrics["TOTAL_LOG_FILES_SIZE"]))
		}
		info("plan", fmt.Sprintf("%s of %d file group(s)", dashIf(in.PlanAction), len(c.Operations)))
		out.Tables = append(out.Tables, t)
	}
	if r := d.Replace; r != nil && r.ClusteringPlan != nil {
		t := DetailTable{PartCol: 2, Title: "clustering plan", Columns: []string{"group", "partition", "file group", "log files", "output groups"},
			Right: []bool{true, false, false, true, true}, Mid: []bool{false, false, true, false, false}}
		for gi, g := range r.ClusteringPlan.InputGroups {
			for _, sl := range g.Slices {
				t.add(gi+1, PartName(sl.PartitionPath), sl.FileID, len(sl.DeltaFilePaths), g.NumOutputFileGroups)
			}
		}
		if s := r.ClusteringPlan.Strategy; s != nil {
			info("clustering strategy", s.StrategyClassName)
		}
		out.Tables = append(out.Tables, t)
	}
	if x := d.Index; x != nil {
		t := DetailTable{Title: "indexes", Columns: []string{"metadata partition", "indexed up to"}, Right: []bool{false, false}}
		for _, p := range x.IndexPartitionInfos {
			t.add(p.MetadataPartitionPath, p.IndexUptoInstant)
		}
		out.Tables = append(out.Tables, t)
	}
	for _, p := range d.Problems {
		out.Notes = append(out.Notes, "could not read "+p.String())
	}
	if len(out.Tables) == 0 {
		out.Tables = append(out.Tables, jsonTable(d))
	}
	return out
}

// RecordTable is a page of the records a write left (the explorer's Rows tab): record key,
// partition, then the data columns in schema order (by name when the records carry no schema
// order; Hudi's meta columns left out), values in their logical types' notation.
func RecordTable(recs []records.Record) DetailTable {
	t := DetailTable{Title: "rows", PartCol: 2, Columns: []string{"record key", "partition"}, Right: []bool{false, false}, Keep: []bool{true}}
	var cols []string
	seen := map[string]bool{}
	for _, r := range recs {
		for _, f := range r.Fields {
			if !seen[f] && !strings.HasPrefix(f, "_hoodie_") {
				seen[f] = true
				cols = append(cols, f)
			}
		}
	}
	if len(recs) > 0 && len(recs[0].Fields) == 0 {
		// No schema order: columns by name.
		for _, r := range recs {
			for f := range r.Values {
				if !seen[f] && !strings.HasPrefix(f, "_hoodie_") {
					seen[f] = true
					cols = append(cols, f)
				}
			}
		}
		slices.Sort(cols)
	}
	t.Columns = append(t.Columns, cols...)
	for range cols {
		t.Right = append(t.Right, false)
	}
	for _, r := range recs {
		cells := []any{r.Key, PartName(r.Partition)}
		for _, c := range cols {
			v, ok := r.Values[c]
			if !ok {
				cells = append(cells, "")
				continue
			}
			cells = append(cells, records.Text(v))
		}
		t.add(cells...)
	}
	return t
}

// jsonTable is the fallback of an instant no typed table applies to: its stored metadata (or
// plan) flattened to key/value rows, or its lines when it is not JSON.
func jsonTable(d *timeline.Details) DetailTable {
	raw := d.Content
	name := "metadata (JSON)"
	if len(raw) == 0 {
		raw, name = d.Plan, "plan (JSON)"
	}
	t := DetailTable{Title: name, Columns: []string{"key", "value"}, Right: []bool{false, false}}
	if len(raw) == 0 {
		t.add("(this instant has no stored metadata)", "")
		return t
	}
	pretty := raw
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") == nil {
		pretty = b.Bytes() // numbers as written (no float64 round trip)
	}
	t.Raw = strings.Split(string(pretty), "\n")
	if !flattenJSON(&t, raw) {
		t.Columns, t.Right, t.Rows = []string{name}, []bool{false}, nil
		for _, l := range t.Raw {
			t.add(l)
		}
	}
	return t
}

func countReplaced(m map[string][]string) int {
	n := 0
	for _, v := range m {
		n += len(v)
	}
	return n
}

// commitTables are a write's tables: one row per file written, one per partition, and the CDC
// files when the write logged any (nil otherwise).
func commitTables(c *timeline.CommitMetadata) (files, parts DetailTable, cdc *DetailTable) {
	files = DetailTable{PartCol: 1, GroupCol: 2, Title: "files written", Columns: []string{"partition", "file group", "file", "prev", "writes", "ins", "upd", "del", "written", "size"},
		Right: []bool{false, false, false, false, true, true, true, true, true, true}, Mid: []bool{false, true, false, false, false, false, false, false, false, false}}
	parts = DetailTable{PartCol: 1, Title: "partitions written", Columns: []string{"partition", "files", "writes", "ins", "upd", "del", "written"},
		Right: []bool{false, true, true, true, true, true, true}}
	for _, p := range c.Partitions() {
		var pw, pi, pu, pd, pb int64
		stats := c.PartitionToWriteStats[p]
		for _, s := range stats {
			files.add(PartName(p), s.FileID, FileKind(s.Path), dashIf(s.PrevCommit), s.NumWrites, s.NumInserts, s.NumUpdateWrites, s.NumDeletes,
				bytesCell(s.TotalWriteBytes), bytesCell(s.FileSizeInBytes))
			pw, pi, pu, pd, pb = pw+s.NumWrites, pi+s.NumInserts, pu+s.NumUpdateWrites, pd+s.NumDeletes, pb+s.TotalWriteBytes
			if len(s.CDCStats) > 0 {
				if cdc == nil {
					cdc = &DetailTable{PartCol: 1, GroupCol: 2, Title: "CDC files", Columns: []string{"partition", "file group", "cdc file", "size"},
						Right: []bool{false, false, false, true}, Mid: []bool{false, true, false, false}}
				}
				for _, f := range sortedKeys(s.CDCStats) {
					cdc.add(PartName(p), s.FileID, f[strings.LastIndexByte(f, '/')+1:], bytesCell(s.CDCStats[f]))
				}
			}
		}
		parts.add(PartName(p), len(stats), pw, pi, pu, pd, bytesCell(pb))
	}
	return files, parts, cdc
}

// writeErrorsTable lists the write stats that count failed records (a table of its own: the
// files table keeps its columns for the commits that have none).
func writeErrorsTable(c *timeline.CommitMetadata) DetailTable {
	t := DetailTable{PartCol: 1, GroupCol: 2, Title: "write errors", Columns: []string{"partition", "file group", "file", "written", "failed"},
		Right: []bool{false, false, false, true, true}, Mid: []bool{false, true, false, false, false}}
	for _, p := range c.Partitions() {
		for _, s := range c.PartitionToWriteStats[p] {
			if s.TotalWriteErrors > 0 {
				t.add(PartName(p), s.FileID, FileKind(s.Path), s.NumWrites, s.TotalWriteErrors)
			}
		}
	}
	return t
}

// FileKind names a written file within its file group: a MOR log file by version and write
// token (".<fileId>_<instant>.log.<version>_<writeToken>" → "log 3 1-0-1"), a base file by
// its format.
func FileKind(path string) string {
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

// flattenJSON adds one key/value row per JSON leaf, keys as dotted paths in document order
// ("partitionToWriteStats.p1[0].numWrites"), numbers formatted for reading: bytes and sizes
// in binary units, milliseconds as durations, instants and ids (whole numbers of 12 digits
// or more) as written, other numbers by units.Num. False when raw is not JSON.
func flattenJSON(t *DetailTable, raw []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(raw))
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
		t.Rows = nil
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
		return bytesCell(int64(f))
	case strings.Contains(k, "millis") || strings.HasSuffix(k, "ms"):
		if ms := int64(f); ms >= 0 {
			return units.Seconds(float64(ms) / 1000)
		}
		return "-"
	}
	return f
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

func dashIf(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
