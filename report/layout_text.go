package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/hudiscope/hudiscope/analyzers/layout"
	"github.com/hudiscope/hudiscope/internal/safetext"
	"github.com/hudiscope/hudiscope/internal/units"
)

// LayoutText renders the report for a terminal in the Java tool's TABLE spirit: the partition
// table with PartitionStats (plus numRecords / avgRowSize with IncludeRowCounts), the
// table-level blocks with TableStats or without PartitionStats, as emitTable does.
func LayoutText(w io.Writer, r *layout.Result, opt layout.Options) error {
	partitionStats, topN := opt.PartitionStats, opt.TopN
	mdt := "off"
	if r.MDTEnabled {
		mdt = "on"
	}
	fmt.Fprintf(w, "Table: %s  (MDT=%s)\n\n", safetext.Terminal(r.BasePath), mdt)
	if partitionStats && len(r.Rows) > 0 {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		head := "partition\tfiles\ttotalBytes\tmin\tmax\tmean\tp50\tp95"
		if opt.IncludeRowCounts {
			head += "\tnumRecords\tavgRowSize"
		}
		fmt.Fprintln(tw, head)
		rows := r.Rows
		if topN > 0 && len(rows) > topN {
			rows = rows[:topN]
		}
		for _, p := range rows {
			s := p.SizeStats
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s", safetext.Terminal(layoutPartition(p.Partition)), p.Files, units.Bytes(p.TotalBytes),
				units.Bytes(s.Min), units.Bytes(s.Max), units.Bytes(s.Mean), units.Bytes(s.Median), units.Bytes(s.P95))
			if opt.IncludeRowCounts {
				n, avg := "-", "-"
				if p.NumRecords != nil {
					n = fmt.Sprint(*p.NumRecords)
					if *p.NumRecords > 0 {
						avg = units.Bytes(p.AvgRowSize())
					}
				}
				fmt.Fprintf(tw, "\t%s\t%s", n, avg)
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()
		if topN > 0 && len(r.Rows) > topN {
			fmt.Fprintf(w, "\n(showing top %d of %d partitions by totalBytes; raise --top-n to see more)\n", topN, len(r.Rows))
		}
		fmt.Fprintln(w)
	}
	if opt.TableStats || !partitionStats {
		layoutTableBlocks(w, r)
	}
	if x := r.Hudiscope; x != nil {
		fmt.Fprintf(w, "hudiscope: %d file groups, %d slices; a snapshot read merges %d log files (%s) with the base files, base+log %s\n",
			x.FileGroups, x.FileSlices, x.LogFiles, units.Bytes(x.LogBytes), units.Bytes(x.TotalBytesWithLogs))
		if x.MergedFileGroups > 0 {
			fmt.Fprintf(w, "  %d file group(s) read across a pending compaction (previous slice's base + logs of both slices); the latest slices alone hold %d log files (%s)\n",
				x.MergedFileGroups, x.LatestSliceLogFiles, units.Bytes(x.LatestSliceLogBytes))
		}
		fmt.Fprintf(w, "small files: %s\nwriter small-file handling: %s\n\n", x.SmallShare(units.Bytes), x.WriterSmallFiles(units.Bytes))
	}
	if c := r.TableCharacteristics; c != nil {
		overall := c.OverallStatus
		bands := map[string]layout.DetectorBand{}
		if x := r.Hudiscope; x != nil {
			if v := x.Verdict(); v != "" {
				overall = v
			}
			for _, b := range x.Detectors {
				bands[b.Name] = b
			}
		}
		fmt.Fprintf(w, "Table characteristics (age %dd): %s\n", c.TableAgeDays, overall)
		for _, d := range c.Detectors {
			// hudiscope's verdict and its reason; the Java summary after it.
			if b, ok := bands[d.Name]; ok && b.Verdict != "" {
				fmt.Fprintf(w, "  %-16s %-16s %s\n    %s\n", d.Name, b.Verdict, b.Reason, d.Summary)
			} else {
				fmt.Fprintf(w, "  %-16s %-9s %s\n", d.Name, d.Status, d.Summary)
			}
			for _, f := range d.Findings {
				fmt.Fprintf(w, "    - %s\n", safetext.Terminal(strings.TrimSpace(f)))
			}
		}
	}
	return nil
}

// layoutTableBlocks is the table-level file-size, file-count and skew blocks.
func layoutTableBlocks(w io.Writer, r *layout.Result) {
	ts := r.TableSizeStats
	fmt.Fprintln(w, "Table-level file size distribution:")
	fmt.Fprintf(w, "  numFiles=%d  totalBytes=%s\n", ts.Count, units.Bytes(r.TotalBytes))
	fmt.Fprintf(w, "  min=%s  max=%s  mean=%s  median=%s\n", units.Bytes(ts.Min), units.Bytes(ts.Max), units.Bytes(ts.Mean), units.Bytes(ts.Median))
	fmt.Fprintf(w, "  p50=%s  p90=%s  p95=%s  p99=%s\n", units.Bytes(ts.P50), units.Bytes(ts.P90), units.Bytes(ts.P95), units.Bytes(ts.P99))
	if n := r.TotalRecords; n != nil {
		avg := "-"
		if *n > 0 {
			avg = units.Bytes(r.TotalBytes / *n)
		}
		fmt.Fprintf(w, "  numRecords=%d  avgRowSize=%s\n", *n, avg)
	}
	fmt.Fprintln(w)
	fc := r.FileCountPerPartition
	fmt.Fprintln(w, "Per-partition file-count distribution:")
	fmt.Fprintf(w, "  numPartitions=%d  totalFiles=%d\n", r.NumPartitions, r.TotalFiles)
	fmt.Fprintf(w, "  min=%d  max=%d  mean=%d  p50=%d  p95=%d  p99=%d\n\n", fc.Min, fc.Max, fc.Mean, fc.P50, fc.P95, fc.P99)
	if !r.Skew.Degenerate {
		s := r.Skew
		fmt.Fprintln(w, "Partition-size skew:")
		fmt.Fprintf(w, "  CV (stdev/mean)        = %.3f\n", s.CV)
		fmt.Fprintf(w, "  Gini coefficient       = %.3f  (0=equal, 1=one-partition-takes-all)\n", s.Gini)
		fmt.Fprintf(w, "  largest partition share = %.1f%%  (%s)\n", 100*s.LargestPartitionShare, safetext.Terminal(layoutPartition(r.Rows[0].Partition)))
		fmt.Fprintf(w, "  top-%d partitions share  = %.1f%%\n", s.TopN, 100*s.TopNShare)
		if len(s.Outliers) > 0 {
			fmt.Fprintf(w, "  outliers (>mean+2σ): %d partition(s)\n", len(s.Outliers))
		}
		fmt.Fprintln(w)
	}
}

// layoutPartition names a partition as the Java tool's TABLE output does: the table root is "(root)".
func layoutPartition(p string) string {
	if p == "" {
		return "(root)"
	}
	return p
}
