package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/hudiscope/hudiscope/analyzers/duplicates"
	"github.com/hudiscope/hudiscope/internal/safetext"
	"github.com/hudiscope/hudiscope/internal/units"
)

// DuplicatesDocument is `hudiscope duplicates -o json` (docs/json.md, section duplicates).
type DuplicatesDocument struct {
	SchemaVersion string                 `json:"schemaVersion"`
	Table         string                 `json:"table"`
	TableType     string                 `json:"tableType"`
	Rows          int64                  `json:"rows"`
	DistinctKeys  int64                  `json:"distinctKeys"`
	DuplicateKeys int64                  `json:"duplicateKeys"`
	ExtraCopies   int64                  `json:"extraCopies"`
	ByKind        DuplicatesByKind       `json:"byKind"`
	Spill         DuplicatesSpill        `json:"spill"`
	Truncated     bool                   `json:"truncated"`
	Duplicates    []duplicates.Duplicate `json:"duplicates"`
}

// DuplicatesByKind counts duplicated keys by how their copies are spread.
type DuplicatesByKind struct {
	Partitions int64 `json:"partitions"`
	FileGroups int64 `json:"fileGroups"`
	FileGroup  int64 `json:"fileGroup"`
}

// DuplicatesSpill says how the search used its memory budget.
type DuplicatesSpill struct {
	MemBudget int64 `json:"memBudget"`
	Runs      int   `json:"runs"`
	Bytes     int64 `json:"bytes"`
}

// NewDuplicatesDocument is the document of r on table name (type tableType).
func NewDuplicatesDocument(name, tableType string, memBudget int64, r *duplicates.Result) *DuplicatesDocument {
	d := &DuplicatesDocument{SchemaVersion: SchemaVersion, Table: name, TableType: tableType, Rows: r.Rows,
		DistinctKeys: r.DistinctKeys, DuplicateKeys: r.DuplicateKeys, ExtraCopies: r.ExtraCopies,
		ByKind: DuplicatesByKind{Partitions: r.ByKind[duplicates.KindPartitions], FileGroups: r.ByKind[duplicates.KindFileGroups],
			FileGroup: r.ByKind[duplicates.KindFileGroup]},
		Spill:     DuplicatesSpill{MemBudget: memBudget, Runs: r.SpilledRuns, Bytes: r.SpilledBytes},
		Truncated: r.Truncated, Duplicates: r.Duplicates}
	if d.Duplicates == nil {
		d.Duplicates = []duplicates.Duplicate{}
	}
	return d
}

// kindText says in words where a kind's copies are.
var kindText = map[duplicates.Kind]string{
	duplicates.KindPartitions: "in more than one partition",
	duplicates.KindFileGroups: "in more than one file group of a partition",
	duplicates.KindFileGroup:  "more than once in one file group",
}

func (d *DuplicatesDocument) summary() string {
	if d.DuplicateKeys == 0 {
		return fmt.Sprintf("No duplicate record keys: %d rows, %d distinct keys.", d.Rows, d.DistinctKeys)
	}
	return fmt.Sprintf("%d duplicated record key(s), %d extra copies: %d rows, %d distinct keys.", d.DuplicateKeys, d.ExtraCopies, d.Rows, d.DistinctKeys)
}

func (d *DuplicatesDocument) kinds() []string {
	var out []string
	for _, k := range []struct {
		n    int64
		kind duplicates.Kind
	}{{d.ByKind.Partitions, duplicates.KindPartitions}, {d.ByKind.FileGroups, duplicates.KindFileGroups}, {d.ByKind.FileGroup, duplicates.KindFileGroup}} {
		if k.n > 0 {
			out = append(out, fmt.Sprintf("%d %s (%s)", k.n, kindText[k.kind], k.kind))
		}
	}
	return out
}

func (d *DuplicatesDocument) spillLine() string {
	if d.Spill.Runs == 0 {
		return fmt.Sprintf("Sorted in memory (budget %s).", units.Bytes(d.Spill.MemBudget))
	}
	return fmt.Sprintf("Spilled %d sorted run(s), %s, to a temporary directory (budget %s; removed).", d.Spill.Runs, units.Bytes(d.Spill.Bytes), units.Bytes(d.Spill.MemBudget))
}

func (d *DuplicatesDocument) truncatedLine() string {
	return fmt.Sprintf("…and %d more duplicated key(s) (--limit 0 lists every one).", d.DuplicateKeys-int64(len(d.Duplicates)))
}

// DuplicatesText writes the text form: the summary, then one line per copy.
func DuplicatesText(w io.Writer, d *DuplicatesDocument) error {
	fmt.Fprintf(w, "%s · %s\n%s\n", safetext.Terminal(d.Table), d.TableType, d.summary())
	for _, k := range d.kinds() {
		fmt.Fprintf(w, "  %s\n", k)
	}
	fmt.Fprintln(w, d.spillLine())
	if len(d.Duplicates) > 0 {
		fmt.Fprintln(w)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "record key\tcopies\tkind\tpartition\tfile group\tfile\tcommit")
		for _, dup := range d.Duplicates {
			for i, l := range dup.Locations {
				key, copies, kind := "", "", ""
				if i == 0 {
					key, copies, kind = dup.Key, fmt.Sprint(dup.Copies), string(dup.Kind)
				}
				cells := []string{key, copies, kind, l.Partition, l.FileID, l.FileName, l.CommitTime}
				for j, c := range cells {
					cells[j] = safetext.Terminal(c)
				}
				fmt.Fprintln(tw, strings.Join(cells, "\t"))
			}
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if d.Truncated {
		_, err := fmt.Fprintln(w, d.truncatedLine())
		return err
	}
	return nil
}

// DuplicatesMarkdown is the Markdown form: summary, kinds, one table row per copy.
func DuplicatesMarkdown(d *DuplicatesDocument) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Duplicate record keys: %s (%s)\n\n%s\n\n", Escape(d.Table), d.TableType, d.summary())
	for _, k := range d.kinds() {
		fmt.Fprintf(&b, "- %s\n", k)
	}
	if len(d.kinds()) > 0 {
		b.WriteString("\n")
	}
	if len(d.Duplicates) > 0 {
		var rows [][]string
		for _, dup := range d.Duplicates {
			for _, l := range dup.Locations {
				rows = append(rows, []string{dup.Key, fmt.Sprint(dup.Copies), string(dup.Kind), l.Partition, l.FileID, l.FileName, l.CommitTime})
			}
		}
		b.WriteString(Table([]string{"record key", "copies", "kind", "partition", "file group", "file", "commit"}, "lrlllll", rows))
		if d.Truncated {
			b.WriteString("\n" + d.truncatedLine() + "\n")
		}
		b.WriteString("\n")
	}
	b.WriteString(d.spillLine() + "\n")
	return b.String()
}

// DuplicatesSQL is the Spark SQL GROUP BY that finds the same keys (one row per key: its copies,
// and partition|_hoodie_file_name|_hoodie_commit_time of each).
const DuplicatesSQL = "SELECT _hoodie_record_key, COUNT(*) AS copies, " +
	"sort_array(collect_list(concat_ws('|', _hoodie_partition_path, _hoodie_file_name, _hoodie_commit_time))) AS locations " +
	"FROM %s GROUP BY _hoodie_record_key HAVING COUNT(*) > 1 ORDER BY _hoodie_record_key"

// DuplicatesSpark is the Spark form of the duplicates search on the latest snapshot.
func DuplicatesSpark(table, loc string) SparkRead {
	r := SparkRead{Format: "hudi", Load: loc,
		Chain: []string{`.groupBy("_hoodie_record_key").count().filter("count > 1")`}}
	from := table
	if table == "" {
		from = "hudiscope_snapshot"
		r.SQL = "CREATE OR REPLACE TEMPORARY VIEW hudiscope_snapshot USING hudi OPTIONS (path " + SQLString(loc) + ");\n"
	}
	r.SQL += fmt.Sprintf(DuplicatesSQL, from) + ";"
	return r
}
