package report

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/hudiscope/hudiscope/analyzers/layout"
	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/internal/safetext"
	"github.com/hudiscope/hudiscope/internal/units"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/view"
)

func layoutSection(_ context.Context, s *model.Snapshot) (string, bool) {
	if s.Layout == nil {
		return "", false
	}
	return LayoutMarkdown(s.Layout, nil), true
}

// LayoutMarkdown renders the layout analysis: totals, the partitions table, the table's
// file-size histogram, skew and the detectors with their observed and threshold numbers.
// parts are the partition rows to list, in order (nil: every partition, in name order).
func LayoutMarkdown(r *layout.Result, parts []layout.ExtraPartition) string {
	var b strings.Builder
	x := r.Hudiscope
	if x == nil {
		x = &layout.Extra{}
	}
	all := parts == nil
	if all {
		parts = x.Partitions
	}
	kv := [][2]string{
		{"partitions", strconv.Itoa(r.NumPartitions)},
		{"latest base files", i64(r.TotalFiles)},
		{"base bytes", units.Bytes(r.TotalBytes)},
		{"base file size p50", units.Bytes(r.TableSizeStats.P50)},
		{"file groups / slices", fmt.Sprintf("%d / %d", x.FileGroups, x.FileSlices)},
		{"log files a snapshot read merges", fmt.Sprintf("%d (%s)", x.LogFiles, units.Bytes(x.LogBytes))},
		{"small files", x.SmallShare(units.Bytes)},
		{"writer small-file handling", x.WriterSmallFiles(units.Bytes)},
		{"listing", orDash(x.ListingSource)},
	}
	if x.MergedFileGroups > 0 {
		// Across a pending compaction the latest slice is not what a reader reads.
		kv = append(kv[:6], append([][2]string{{"log files in latest slices only", fmt.Sprintf("%d (%s); %d file group(s) read across a pending compaction",
			x.LatestSliceLogFiles, units.Bytes(x.LatestSliceLogBytes), x.MergedFileGroups)}}, kv[6:]...)...)
	}
	b.WriteString(KeyValues(kv))
	b.WriteString("\n### Partitions\n\n")
	if !all {
		fmt.Fprintf(&b, "%d of %d partitions, in the order shown.\n\n", len(parts), len(x.Partitions))
	}
	if len(parts) == 0 {
		b.WriteString("No partition.\n")
	} else {
		rows := make([][]string, 0, len(parts))
		for _, p := range parts {
			rows = append(rows, []string{view.PartitionName(p.Partition), i64(p.BaseFiles), units.Bytes(p.BaseBytes), units.Bytes(p.P50),
				Pct(float64(p.SmallFileShare)), strconv.Itoa(p.FileGroups), strconv.Itoa(p.LogFiles), units.Bytes(p.LogBytes), partitionNotes(p)})
		}
		b.WriteString(Table([]string{"partition", "base files", "bytes", "p50", "small files", "file groups", "read log files", "read log bytes", "notes"},
			"lrrrrrrrl", rows))
	}
	b.WriteString("\n### File sizes (latest base files, whole table)\n\n")
	b.WriteString(HistogramMarkdown(x.Histogram))
	b.WriteString("\n### Skew\n\n")
	b.WriteString(SkewText(r) + "\n")
	b.WriteString("\n### Detectors\n\n")
	b.WriteString(DetectorsMarkdown(r))
	return b.String()
}

func partitionNotes(p layout.ExtraPartition) string {
	var n []string
	if p.PendingCompaction > 0 {
		n = append(n, fmt.Sprintf("%d pending compaction", p.PendingCompaction))
	}
	if p.PendingClustering > 0 {
		n = append(n, fmt.Sprintf("%d pending clustering", p.PendingClustering))
	}
	if p.Replaced > 0 {
		n = append(n, fmt.Sprintf("%d replaced", p.Replaced))
	}
	if p.UncommittedFiles > 0 {
		n = append(n, fmt.Sprintf("%d uncommitted files", p.UncommittedFiles))
	}
	return strings.Join(n, "; ")
}

// HistogramMarkdown is a log-scale file-size histogram as a table (the non-empty range only).
func HistogramMarkdown(h []layout.Bucket) string {
	lo, hi := HistogramRange(h)
	if lo > hi {
		return "No base file.\n"
	}
	var rows [][]string
	for _, bk := range h[lo : hi+1] {
		rows = append(rows, []string{BucketLabel(bk, false), strconv.Itoa(bk.Count), units.Bytes(bk.Bytes)})
	}
	return Table([]string{"size", "files", "bytes"}, "lrr", rows)
}

// HistogramRange is the first and last non-empty bucket (lo > hi when all are empty).
func HistogramRange(hs ...[]layout.Bucket) (lo, hi int) {
	lo, hi = 1<<30, -1
	for _, h := range hs {
		for i, bk := range h {
			if bk.Count > 0 {
				lo, hi = min(lo, i), max(hi, i)
			}
		}
	}
	return lo, hi
}

// BucketLabel names a bucket's range compactly ("1-4M", "256K-1M", "<1K", "≥1G"; ">=1G" with
// ascii).
func BucketLabel(bk layout.Bucket, ascii bool) string {
	switch {
	case bk.Hi == 0:
		if ascii {
			return ">=" + units.BytesExact(bk.Lo)
		}
		return "≥" + units.BytesExact(bk.Lo)
	case bk.Lo == 0:
		return "<" + units.BytesExact(bk.Hi)
	}
	l, h := units.BytesExact(bk.Lo), units.BytesExact(bk.Hi)
	if l[len(l)-1] == h[len(h)-1] {
		l = l[:len(l)-1]
	}
	return l + "-" + h
}

// SkewText is the partition-size skew in one line.
func SkewText(r *layout.Result) string {
	s := r.Skew
	if s.Degenerate {
		return "skew: not defined (fewer than 2 partitions or no bytes)"
	}
	out := fmt.Sprintf("skew: cv %.2f, gini %.2f, largest partition %s, top %d share %s", s.CV, s.Gini, Pct(s.LargestPartitionShare), s.TopN, Pct(s.TopNShare))
	if len(s.Outliers) > 0 {
		out += fmt.Sprintf(", %d outlier(s) above mean+2σ", len(s.Outliers))
	}
	return out
}

// DetectorsMarkdown lists the detectors (status, observed vs threshold, summary, findings).
func DetectorsMarkdown(r *layout.Result) string {
	c := r.TableCharacteristics
	if c == nil {
		return "Not run.\n"
	}
	var b strings.Builder
	overall := c.OverallStatus
	if v := r.Hudiscope.Verdict(); v != "" {
		overall = v
	}
	fmt.Fprintf(&b, "Overall: **%s** (table age %d days).\n\n", overall, c.TableAgeDays)
	bands := map[string]layout.DetectorBand{}
	if r.Hudiscope != nil {
		for _, d := range r.Hudiscope.Detectors {
			bands[d.Name] = d
		}
	}
	var rows [][]string
	for _, d := range c.Detectors {
		verdict, reason := d.Status, "-"
		if bd, ok := bands[d.Name]; ok && bd.Verdict != "" {
			verdict, reason = bd.Verdict, bd.Reason
		}
		rows = append(rows, []string{d.Name, verdict, reason, d.Summary})
	}
	b.WriteString(Table([]string{"detector", "verdict", "reason", "summary"}, "llll", rows))
	for _, d := range c.Detectors {
		for _, f := range d.Findings {
			fmt.Fprintf(&b, "\n- %s: %s", d.Name, Escape(strings.TrimSpace(f)))
		}
	}
	if b.String()[b.Len()-1] != '\n' {
		b.WriteString("\n")
	}
	return b.String()
}

// PartitionFilesMarkdown lists a partition's file groups (in the order given).
func PartitionFilesMarkdown(p *filegroup.Partition, groups []*filegroup.FileGroup) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Partition `%s`: %d live file groups, %d replaced, %d uncommitted files.\n\n",
		safetext.Terminal(view.PartitionName(p.Path)), len(p.FileGroups), len(p.Replaced), len(p.Uncommitted))
	var rows [][]string
	for _, g := range groups {
		c := FileGroupCells(g)
		rows = append(rows, c)
	}
	b.WriteString(Table([]string{"file id", "slices", "latest base instant", "latest base bytes", "read log files", "read log bytes", "pending"}, "lrlrrrl", rows))
	return b.String()
}

// FileGroupCells are a file group's cells: id, slices, latest base instant and size, the log
// files and bytes a snapshot read merges (filegroup.Merged), and pending service marks.
func FileGroupCells(g *filegroup.FileGroup) []string {
	r := view.FileGroupRowOf(g)
	inst, size := "-", "-"
	if b := r.LatestBase; b != nil {
		inst, size = b.Instant, units.Bytes(b.Size)
	}
	return []string{g.FileID, strconv.Itoa(r.Slices), inst, size, strconv.Itoa(r.ReadLogs), units.Bytes(r.ReadLogBytes), r.Pending}
}

// FileGroupMarkdown lists a file group's slices, oldest first, with their base and log files.
func FileGroupMarkdown(g *filegroup.FileGroup) string {
	var b strings.Builder
	fmt.Fprintf(&b, "File group `%s` in partition `%s`: %d slice(s).", safetext.Terminal(g.FileID), safetext.Terminal(view.PartitionName(g.Partition)), len(g.Slices))
	if p := view.Pending(g); p != "" {
		fmt.Fprintf(&b, " Pending: %s.", Escape(p))
	}
	if s, merged := g.Merged(); merged {
		fmt.Fprintf(&b, " A snapshot read merges the base file of slice %s with the logs of both slices (%d log files).", Escape(s.BaseInstant), len(s.Logs))
	}
	b.WriteString("\n\n")
	var rows [][]string
	for _, s := range g.Slices {
		for _, f := range SliceFiles(s) {
			rows = append(rows, []string{s.BaseInstant, f.Kind, f.Name, units.Bytes(f.Size)})
		}
	}
	b.WriteString(Table([]string{"slice", "kind", "file", "bytes"}, "lllr", rows))
	return b.String()
}

// SliceFile is one file of a slice.
type SliceFile struct {
	Kind string // "base", "src" (a skeleton base file's bootstrap source, Name its full path) or "log"
	Name string
	Size int64
}

// SliceFiles are a slice's base file (if any) and its bootstrap source, then its log files in order.
func SliceFiles(s *filegroup.FileSlice) []SliceFile {
	var out []SliceFile
	if s.Base != nil {
		out = append(out, SliceFile{"base", s.Base.Name, s.Base.Size})
		if bf := s.Base.Bootstrap; bf != nil {
			out = append(out, SliceFile{"src", bf.Path, bf.Size})
		}
	}
	for _, l := range s.Logs {
		out = append(out, SliceFile{"log", l.Name, l.Size})
	}
	return out
}

// Pct renders a fraction as a percentage.
func Pct(f float64) string {
	if f < 0 {
		return "-"
	}
	return strconv.FormatFloat(100*f, 'f', 1, 64) + "%"
}
