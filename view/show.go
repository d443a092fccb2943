package view

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// Show is `hudiscope show TABLE INSTANT`: the explorer's drill-down of one instant (Detail)
// and, for a write, its write statistics.
type Show struct {
	In     *timeline.Instant
	Detail Detail
	// Stats is nil for an instant without commit metadata (clean, rollback, a pending plan).
	Stats *WriteStats
}

// NewShow builds the show of instant in from its details d.
func NewShow(in *timeline.Instant, d *timeline.Details) Show {
	s := Show{In: in, Detail: InstantDetail(in, d)}
	if d != nil && d.Commit != nil && in.IsCompleted() {
		s.Stats = CommitWriteStats(d.Commit)
	}
	return s
}

// StatsFacts are the labelled write statistics a show prints before its tables.
func (w *WriteStats) StatsFacts() [][2]string {
	fs := w.FileSizes
	return [][2]string{
		{"files", fmt.Sprintf("%d added, %d updated", w.FilesAdded, w.FilesUpdated)},
		{"records", fmt.Sprintf("%d written (%d inserted, %d updated, %d deleted), %d errors", w.RecordsWritten, w.RecordsInserted, w.RecordsUpdated, w.RecordsDeleted, w.Errors)},
		{"bytes written", fmt.Sprintf("%d, average record size %d", w.BytesWritten, w.AvgRecordSize)},
		{"write amplification", w.WriteAmplification.Text() + fmt.Sprintf(" (%d written / %d updated)", w.WriteAmplification.Written, w.WriteAmplification.Updated)},
		{"file sizes", fmt.Sprintf("%d file(s): min %d, p10 %s, median %s, mean %s, p95 %s, max %d, std dev %s",
			fs.N, fs.Min, num(fs.P10), num(fs.P50), num(fs.Mean), num(fs.P95), fs.Max, num(fs.StdDv))},
	}
}

// num prints a statistic with at most one decimal.
func num(f float64) string { return strconv.FormatFloat(math.Round(f*10)/10, 'f', -1, 64) }

// InstantMatch is why an instant matches a show argument.
type InstantMatch struct {
	In *timeline.Instant
	// By is "requested time", "completion time" or "latest".
	By string
}

// FindInstant resolves a show argument among instants: "latest" (the last completed write by
// completion order), a requested time, or a completion time; "TIME.ACTION" (an instant file's
// name without its state: 20261129161800076.savepoint) picks one of several instants that
// share a time. It returns the one match, or all matches when several instants fit (ambiguous)
// and none when no instant does.
func FindInstant(instants []*timeline.Instant, arg string) []InstantMatch {
	arg = strings.TrimSpace(arg)
	if strings.EqualFold(arg, "latest") {
		var best *timeline.Instant
		for _, in := range instants {
			if in.IsCompleted() && timeline.IsWriteAction(in.Action) && (best == nil || completedAfter(in, best)) {
				best = in
			}
		}
		if best == nil {
			return nil
		}
		return []InstantMatch{{In: best, By: "latest"}}
	}
	t, action, _ := strings.Cut(arg, ".")
	var out []InstantMatch
	for _, in := range instants {
		if action != "" && in.Action != action && in.PlanAction != action {
			continue
		}
		switch {
		case in.RequestedTime == t:
			out = append(out, InstantMatch{In: in, By: "requested time"})
		case in.CompletionTime == t && !in.CompletionDerived:
			out = append(out, InstantMatch{In: in, By: "completion time"})
		}
	}
	return out
}

func completedAfter(a, b *timeline.Instant) bool {
	if c := timeline.CompareInstants(a.CompletionTime, b.CompletionTime); c != 0 {
		return c > 0
	}
	return timeline.CompareInstants(a.RequestedTime, b.RequestedTime) > 0
}

// NearestInstants are up to n instants whose requested or completion time is nearest to arg
// (by the instant-time digits as a number), nearest first: what an unknown show argument
// suggests.
func NearestInstants(instants []*timeline.Instant, arg string, n int) []*timeline.Instant {
	target, ok := instantNumber(arg)
	if !ok {
		// Not a time: the latest instants.
		out := slices.Clone(instants)
		slices.SortStableFunc(out, func(a, b *timeline.Instant) int { return timeline.CompareInstants(b.RequestedTime, a.RequestedTime) })
		return out[:min(n, len(out))]
	}
	dist := func(in *timeline.Instant) float64 {
		d := math.Inf(1)
		for _, s := range []string{in.RequestedTime, in.CompletionTime} {
			if v, ok := instantNumber(s); ok {
				d = min(d, math.Abs(v-target))
			}
		}
		return d
	}
	out := slices.Clone(instants)
	slices.SortStableFunc(out, func(a, b *timeline.Instant) int {
		da, db := dist(a), dist(b)
		switch {
		case da < db:
			return -1
		case da > db:
			return 1
		}
		return 0
	})
	return out[:min(n, len(out))]
}

// instantNumber is an instant time as a number comparable across precisions: the digits
// padded to milliseconds (yyyyMMddHHmmssSSS).
func instantNumber(s string) (float64, bool) {
	s, _, _ = strings.Cut(strings.TrimSpace(s), ".")
	if len(s) < 8 || len(s) > 17 {
		return 0, false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return 0, false
		}
	}
	s += strings.Repeat("0", 17-len(s))
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil
}

// InstantLabel names an instant in a suggestion: requested time, action, state, completion.
func InstantLabel(in *timeline.Instant) string {
	s := in.RequestedTime + " " + in.Action + " " + strings.ToLower(string(in.State))
	if in.CompletionTime != "" {
		s += ", completed " + in.CompletionTime
	}
	if in.Archived {
		s += " (archived)"
	}
	return s
}

// Metric is one compared value of two writes.
type Metric struct {
	Name string
	// A and B are the values of the first and second write; Delta is A − B.
	A, B, Delta float64
	// Change is Delta / B (a fraction); valid only when ChangeOK (B is not zero).
	Change   float64
	ChangeOK bool
	// Millis marks durations in milliseconds (how a surface formats them).
	Millis bool
}

// Compare is `hudiscope show A --compare B`: two writes' statistics side by side.
type Compare struct {
	A, B    Show
	Metrics []Metric
	// MovedMost is the index in Metrics of the value that changed most (largest |Change|; a
	// value that appeared from zero counts as the largest); -1 when nothing changed.
	MovedMost int
}

// NewCompare compares writes a and b; both must have write statistics.
func NewCompare(a, b Show) Compare {
	c := Compare{A: a, B: b, MovedMost: -1}
	sa, sb := a.Stats, b.Stats
	add := func(name string, x, y float64, millis bool) {
		m := Metric{Name: name, A: x, B: y, Delta: x - y, Millis: millis}
		if y != 0 {
			m.Change, m.ChangeOK = m.Delta/y, true
		}
		c.Metrics = append(c.Metrics, m)
	}
	f := func(v int64) float64 { return float64(v) }
	add("records written", f(sa.RecordsWritten), f(sb.RecordsWritten), false)
	add("records inserted", f(sa.RecordsInserted), f(sb.RecordsInserted), false)
	add("records updated", f(sa.RecordsUpdated), f(sb.RecordsUpdated), false)
	add("records deleted", f(sa.RecordsDeleted), f(sb.RecordsDeleted), false)
	add("write errors", f(sa.Errors), f(sb.Errors), false)
	add("bytes written", f(sa.BytesWritten), f(sb.BytesWritten), false)
	add("average record size", f(sa.AvgRecordSize), f(sb.AvgRecordSize), false)
	add("files", f(int64(sa.FileCount)), f(int64(sb.FileCount)), false)
	add("files added", f(sa.FilesAdded), f(sb.FilesAdded), false)
	add("files updated", f(sa.FilesUpdated), f(sb.FilesUpdated), false)
	add("partitions", f(int64(sa.PartitionCount)), f(int64(sb.PartitionCount)), false)
	add("write amplification", sa.WriteAmplification.Factor, sb.WriteAmplification.Factor, false)
	da, _ := Duration(a.In)
	db, _ := Duration(b.In)
	add("duration", f(da.Milliseconds()), f(db.Milliseconds()), true)
	best := 0.0
	for i, m := range c.Metrics {
		score := math.Abs(m.Change)
		if !m.ChangeOK {
			if m.Delta == 0 {
				continue
			}
			score = math.Inf(1)
		}
		if score > best {
			best, c.MovedMost = score, i
		}
	}
	return c
}

// MetricText formats one side of a metric (v) for a text or Markdown table.
func MetricText(m Metric, v float64) string {
	switch {
	case m.Millis:
		return (time.Duration(v) * time.Millisecond).String()
	case m.Name == "write amplification":
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// ChangeText is a metric's relative change ("+25.0%", "-" when the second value is zero).
func ChangeText(m Metric) string {
	switch {
	case m.Delta == 0:
		return "0.0%"
	case !m.ChangeOK:
		return "new"
	}
	return fmt.Sprintf("%+.1f%%", m.Change*100)
}

// Tables are the show's tables in order: for a write its partitions and files in Hudi's
// terms (StatsTables), then the drill-down's other tables (CDC files, write errors, plans);
// for any other instant the drill-down's tables.
func (s Show) Tables() []DetailTable {
	if s.Stats == nil {
		return s.Detail.Tables
	}
	return append(s.Stats.StatsTables(), s.OtherTables()...)
}

// OtherTables are the drill-down's tables other than its files and partitions written
// (which a write's statistics replace).
func (s Show) OtherTables() []DetailTable {
	if s.Stats == nil {
		return s.Detail.Tables
	}
	var out []DetailTable
	for _, t := range s.Detail.Tables {
		if t.Title != "files written" && t.Title != "partitions written" {
			out = append(out, t)
		}
	}
	return out
}

// StatsTables are a write's partitions (show_commit_partitions) and files (show_commit_files).
func (w *WriteStats) StatsTables() []DetailTable {
	parts := DetailTable{PartCol: 1, Title: "partitions written", Columns: []string{"partition", "files added", "files updated", "inserted", "updated", "deleted", "written", "bytes", "errors"},
		Right: []bool{false, true, true, true, true, true, true, true, true}}
	for _, p := range w.Partitions {
		parts.add(PartName(p.Partition), p.FilesAdded, p.FilesUpdated, p.RecordsInserted, p.RecordsUpdated, p.RecordsDeleted, p.RecordsWritten, p.BytesWritten, p.Errors)
	}
	files := DetailTable{PartCol: 1, GroupCol: 2, Title: "files written", Columns: []string{"partition", "file group", "file", "prev commit", "written", "inserted", "updated", "deleted", "bytes", "errors", "file size"},
		Right: []bool{false, false, false, false, true, true, true, true, true, true, true}, Mid: []bool{false, true}}
	for _, f := range w.Files {
		files.add(PartName(f.Partition), f.FileID, FileKind(f.Path), dashIf(f.PrevCommit), f.RecordsWritten, f.RecordsInserted, f.RecordsUpdated, f.RecordsDeleted, f.BytesWritten, f.Errors, f.FileSize)
	}
	return []DetailTable{parts, files}
}
