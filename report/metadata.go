package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/hudiscope/hudiscope/analyzers/mdt"
	"github.com/hudiscope/hudiscope/internal/safetext"
)

// MetadataValidateDocument is `hudiscope metadata validate-files -o json`.
type MetadataValidateDocument struct {
	SchemaVersion string `json:"schemaVersion"`
	Table         string `json:"table"`
	mdt.Validation
}

// MetadataStatsDocument is `hudiscope metadata stats -o json`.
type MetadataStatsDocument struct {
	SchemaVersion string `json:"schemaVersion"`
	Table         string `json:"table"`
	mdt.Stats
}

// MetadataTimelineDocument is `hudiscope metadata timeline -o json`.
type MetadataTimelineDocument struct {
	SchemaVersion string `json:"schemaVersion"`
	Table         string `json:"table"`
	mdt.TimelineState
}

func partName(p string) string {
	if p == "" {
		return "(non-partitioned)"
	}
	return p
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// validateVerdict is the one-line verdict of a validation.
func validateVerdict(v *mdt.Validation) string {
	if v.Match {
		s := fmt.Sprintf("MATCH: the metadata table lists the same %d file(s) as storage in %d partition(s)", v.FilesCompared-v.Uncommitted, len(v.Partitions))
		if v.Uncommitted > 0 {
			s += fmt.Sprintf(" (%d uncommitted file(s) on storage, rightly absent from it)", v.Uncommitted)
		}
		return s
	}
	return fmt.Sprintf("MISMATCH: %d file(s) differ — %d missing on storage, %d missing in the metadata table, %d with another size",
		v.Mismatches, v.MissingOnStorage, v.MissingInMDT, v.SizeDiffers)
}

// MetadataValidateText writes the validation as aligned columns: partitions, then the files
// that are not ok, then the verdict.
func MetadataValidateText(w io.Writer, table string, v *mdt.Validation) error {
	fmt.Fprintf(w, "metadata table files vs storage · %s\n\n", safetext.Terminal(table))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "partition\tin mdt\ton storage\tmdt files\tmdt bytes\tstorage files\tstorage bytes\tuncommitted\tmismatches")
	for _, p := range v.Partitions {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\n", safetext.Terminal(partName(p.Partition)), yesNo(p.InMDT), yesNo(p.OnStorage),
			p.MDTFiles, p.MDTBytes, p.StorageFiles, p.StorageBytes, p.Uncommitted, p.Mismatches)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(v.Files) > 0 {
		fmt.Fprintln(w)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "partition\tfile\tstatus\tmdt size\tstorage size")
		for _, f := range v.Files {
			ms, ss := "-", "-"
			if f.InMDT {
				ms = i64(f.MDTSize)
			}
			if f.OnStorage {
				ss = i64(f.StorageSize)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", safetext.Terminal(partName(f.Partition)), safetext.Terminal(f.File), f.Status, ms, ss)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(w, "\n%s\n", validateVerdict(v))
	return err
}

// MetadataValidateMarkdown is the validation as Markdown.
func MetadataValidateMarkdown(table string, v *mdt.Validation) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Metadata table files vs storage: %s\n\n**%s**\n\n", Escape(table), Escape(validateVerdict(v)))
	var rows [][]string
	for _, p := range v.Partitions {
		rows = append(rows, []string{partName(p.Partition), yesNo(p.InMDT), yesNo(p.OnStorage), strconv.Itoa(p.MDTFiles), i64(p.MDTBytes),
			strconv.Itoa(p.StorageFiles), i64(p.StorageBytes), strconv.Itoa(p.Uncommitted), strconv.Itoa(p.Mismatches)})
	}
	b.WriteString(Table([]string{"partition", "in MDT", "on storage", "MDT files", "MDT bytes", "storage files", "storage bytes", "uncommitted", "mismatches"}, "lllrrrrrr", rows))
	if len(v.Files) > 0 {
		rows = nil
		for _, f := range v.Files {
			ms, ss := "-", "-"
			if f.InMDT {
				ms = i64(f.MDTSize)
			}
			if f.OnStorage {
				ss = i64(f.StorageSize)
			}
			rows = append(rows, []string{partName(f.Partition), f.File, f.Status, ms, ss})
		}
		b.WriteString("\n")
		b.WriteString(Table([]string{"partition", "file", "status", "MDT size", "storage size"}, "lllrr", rows))
	}
	return b.String()
}

func statsRow(p mdt.PartitionStats) []string {
	rec := "-"
	if p.BaseRecords != nil {
		rec = i64(*p.BaseRecords)
	}
	state := "not enabled"
	switch {
	case p.Inflight:
		state = "inflight"
	case p.Enabled:
		state = "enabled"
	}
	return []string{p.Name, p.Kind, state, yesNo(p.OnStorage), strconv.Itoa(p.FileGroups), strconv.Itoa(p.BaseFiles), i64(p.BaseBytes),
		strconv.Itoa(p.LogFiles), i64(p.LogBytes), rec}
}

var statsHeaders = []string{"partition", "kind", "hoodie.properties", "on storage", "file groups", "base files", "base bytes", "log files", "log bytes", "base records"}

func statsTotal(s *mdt.Stats) []string {
	return []string{"total", "", "", "", strconv.Itoa(s.FileGroups), strconv.Itoa(s.BaseFiles), i64(s.BaseBytes), strconv.Itoa(s.LogFiles), i64(s.LogBytes), ""}
}

// MetadataStatsText writes the metadata table's partitions as aligned columns.
func MetadataStatsText(w io.Writer, table string, s *mdt.Stats) error {
	fmt.Fprintf(w, "metadata table partitions · %s · table version %d · latest file slices\n\n", safetext.Terminal(table), s.TableVersion)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(statsHeaders, "\t"))
	for _, p := range s.Partitions {
		cells := statsRow(p)
		for i := range cells {
			cells[i] = safetext.Terminal(cells[i])
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	fmt.Fprintln(tw, strings.Join(statsTotal(s), "\t"))
	return tw.Flush()
}

// MetadataStatsMarkdown is the metadata table's partitions as Markdown.
func MetadataStatsMarkdown(table string, s *mdt.Stats) string {
	var rows [][]string
	for _, p := range s.Partitions {
		rows = append(rows, statsRow(p))
	}
	rows = append(rows, statsTotal(s))
	return fmt.Sprintf("## Metadata table partitions: %s\n\nTable version %d; latest file slice of each file group.\n\n", Escape(table), s.TableVersion) +
		Table(statsHeaders, "llllrrrrrr", rows)
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// timelineSummary is the compaction and sync state, one line each.
func timelineSummary(t *mdt.TimelineState) []string {
	maxd := "unknown"
	if t.MaxDeltaCommits > 0 {
		maxd = fmt.Sprintf("%d (%s)", t.MaxDeltaCommits, t.MaxDeltaCommitsSource)
	}
	due := ""
	if t.CompactionDue {
		due = " — compaction due"
	}
	sync := "in sync: the metadata table has applied the latest data-table write"
	if t.Lagging {
		sync = fmt.Sprintf("LAGGING: %d completed data-table write(s) not in the metadata table: %s", len(t.NotSynced), strings.Join(t.NotSynced, ", "))
	}
	pending := "none"
	if len(t.PendingCompactions) > 0 {
		pending = strings.Join(t.PendingCompactions, ", ")
	}
	return []string{
		fmt.Sprintf("last compaction: %s; delta commits since: %d; hoodie.metadata.compact.max.delta.commits: %s%s", orNone(t.LastCompaction), t.DeltaCommitsSinceCompaction, maxd, due),
		"pending compactions: " + pending,
		fmt.Sprintf("latest data-table write: %s; latest metadata-table delta commit: %s", orNone(t.LatestDataInstant), orNone(t.LatestSynced)),
		sync,
	}
}

// MetadataTimelineText writes the metadata table's instants and its compaction and sync state.
func MetadataTimelineText(w io.Writer, table string, t *mdt.TimelineState) error {
	fmt.Fprintf(w, "metadata table timeline · %s · %d instant(s)\n\n", safetext.Terminal(table), len(t.Instants))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "requested\taction\tstate\tcompleted")
	for _, i := range t.Instants {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", i.RequestedTime, i.Action, i.State, orDash(i.CompletionTime))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	for _, l := range timelineSummary(t) {
		fmt.Fprintln(w, l)
	}
	return nil
}

// MetadataTimelineMarkdown is the metadata table's timeline as Markdown.
func MetadataTimelineMarkdown(table string, t *mdt.TimelineState) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Metadata table timeline: %s\n\n", Escape(table))
	for _, l := range timelineSummary(t) {
		fmt.Fprintf(&b, "- %s\n", Escape(l))
	}
	b.WriteString("\n")
	var rows [][]string
	for _, i := range t.Instants {
		rows = append(rows, []string{i.RequestedTime, i.Action, i.State, orDash(i.CompletionTime)})
	}
	b.WriteString(Table([]string{"requested", "action", "state", "completed"}, "llll", rows))
	return b.String()
}
