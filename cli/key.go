package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/hudiscope/hudiscope/hudi/problem"
	"github.com/hudiscope/hudiscope/hudi/records"
	"github.com/hudiscope/hudiscope/internal/safetext"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
)

// KeyCmd tells one record's story: where its key lives, its current value, and every version
// of it still on storage.
type KeyCmd struct {
	Table     string `arg:"" help:"Table path: directory, .zip, s3://, s3a:// or hdfs:// URI."`
	Key       string `arg:"" help:"Record key: the value, or f1:v1,f2:v2 for a composite key (as _hoodie_record_key holds it)."`
	Partition string `name:"partition" placeholder:"P" help:"Look in partition path P only."`
	Buckets   int    `name:"buckets" placeholder:"N" help:"Bucket index: the bucket count (hoodie.bucket.index.num.buckets; default: inferred from the file ids)."`
	Scan      bool   `name:"scan" help:"Ignore the table's index and footers: read every file group's keys (to check an index that may be wrong)."`
	OutputFlags
	TableFlags
	ScaleFlags
}

func (c *KeyCmd) Help() string {
	return `Finds a record key through the table's own index — the metadata table's record-level index, the bucket index (hash of the key mod the bucket count), or the bloom filters and min/max record keys in base-file footers — or else by reading every file group's keys, and says which. Prints the key's current value (the snapshot row, merge-on-read merged) and every version still on storage: rows in the base files of every file slice the cleaner kept, records and deletes in log blocks, each with the commit that wrote it (requested and completion time, action, operation), and which one is current. Past --max-scan-bytes/--max-scan-files it prints the Spark SQL of the current row instead (--spark runs it).`
}

func (c *KeyCmd) examples() []string {
	return []string{
		`hudiscope key table.zip 8`,
		`hudiscope key s3://bucket/orders order-1017 --partition 2024-01-01 -o json`,
		`hudiscope key table.zip 'id:8,region:eu' -o md`,
	}
}

// errHandedOff: the read went to Spark (or its SQL was printed); err is what to return.
type errHandedOff struct{ err error }

func (e errHandedOff) Error() string { return "handed off to Spark" }

func (c *KeyCmd) Run(ctx context.Context) error {
	f, err := c.format("text", "text", "json", "md")
	if err != nil {
		return codeError{exitUsage, err.Error()}
	}
	if c.Key == "" {
		return codeError{exitUsage, "the record key is empty"}
	}
	opts := c.options(c.Table, []model.Step{model.StepFiles}, nil)
	opts.Archived = true // versions written by archived commits still name their commit
	// On a terminal, stderr counts the files listed, the archived instants and the slices
	// read for the key, cleared before the output (opened once the lookup is done).
	line := progressHooks(&opts)
	defer line.Done()
	s, err := load(ctx, opts, model.StepTimeline, model.StepFiles)
	if err != nil {
		return err
	}
	defer reportProblems(s)
	return c.writeOutputAfterWork(line.Done, func(w io.Writer) error {
		q := model.KeyQuery{Key: c.Key, Partition: c.Partition, Buckets: c.Buckets, Scan: c.Scan}
		q.Before = func(size model.ScanSize) error {
			done, err := c.handOff(ctx, w, size, func() (report.SparkRead, error) {
				loc, err := sparkLocation(c.Table)
				return report.SnapshotSpark(c.SparkTable, loc, "", report.SparkSelect{Where: keyWhere(c.Key, c.Partition)}), err
			})
			if done {
				return errHandedOff{err}
			}
			return err
		}
		st, err := s.KeyLookup(ctx, q)
		line.Done()
		var off errHandedOff
		if errors.As(err, &off) {
			return off.err
		}
		if err != nil {
			return err
		}
		for _, p := range st.Problems {
			warn("warning:", safetext.Terminal(p.String()))
		}
		switch f {
		case "json":
			return writeKeyJSON(w, c.Partition, st)
		case "md":
			return writeKeyMarkdown(w, st)
		}
		return writeKeyText(w, st)
	})
}

// keyWhere is the Spark predicate of one key (and partition).
func keyWhere(key, partition string) []string {
	out := []string{"_hoodie_record_key = " + report.SQLString(key)}
	if partition != "" {
		out = append(out, "_hoodie_partition_path = "+report.SQLString(partition))
	}
	return out
}

// keyDoc is the JSON form of a key's story (docs/json.md, "key").
type keyDoc struct {
	SchemaVersion string            `json:"schemaVersion"`
	Key           string            `json:"key"`
	Partition     string            `json:"partition,omitempty"`
	Method        string            `json:"method"`
	How           string            `json:"how"`
	GroupsChecked int               `json:"fileGroupsRead"`
	GroupsPruned  int               `json:"fileGroupsPruned"`
	Status        string            `json:"status"`
	Locations     []keyLocationDoc  `json:"locations"`
	Current       any               `json:"current"` // an orderedRow, or nil (null)
	Versions      []keyVersionDoc   `json:"versions"`
	Changes       []keyChangeDoc    `json:"changes,omitempty"`
	Notes         []string          `json:"notes,omitempty"`
	Problems      []problem.Problem `json:"problems,omitempty"`
}

type keyLocationDoc struct {
	Partition string `json:"partition"`
	FileID    string `json:"fileId"`
	Bucket    *int   `json:"bucket,omitempty"`
	Replaced  bool   `json:"replaced,omitempty"`
}

type keyVersionDoc struct {
	Partition      string `json:"partition"`
	FileID         string `json:"fileId"`
	SliceInstant   string `json:"sliceInstant"`
	File           string `json:"file"`
	InLog          bool   `json:"inLog"`
	CommitTime     string `json:"commitTime"`
	CompletionTime string `json:"completionTime,omitempty"`
	Action         string `json:"action,omitempty"`
	Operation      string `json:"operation,omitempty"`
	Archived       bool   `json:"archived,omitempty"`
	Replaced       bool   `json:"replaced,omitempty"`
	CarriedOver    bool   `json:"carriedOver"`
	Current        bool   `json:"current"`
	Deleted        bool   `json:"deleted"`
	Row            any    `json:"row"` // an orderedRow, or nil (null)
}

type keyChangeDoc struct {
	Op        string `json:"op"`
	TsMs      string `json:"ts_ms"`
	Partition string `json:"partition"`
	FileID    string `json:"fileId"`
	Source    string `json:"source"`
	Before    any    `json:"before"`
	After     any    `json:"after"`
}

// imageJSON is a CDC image as changes prints it (an object of JSON values, or nil).
func imageJSON(img map[string]any) any {
	if img == nil {
		return nil
	}
	out := make(map[string]any, len(img))
	for k, v := range img {
		out[k] = records.JSONValue(v)
	}
	return out
}

// imageText is a CDC image's data columns as sorted k=v pairs ("-" when none).
func imageText(img map[string]any) string {
	if img == nil {
		return "-"
	}
	var parts []string
	for _, k := range report.SortedKeys(img) {
		if !strings.HasPrefix(k, "_hoodie_") {
			parts = append(parts, k+"="+records.Text(img[k]))
		}
	}
	return strings.Join(parts, " ")
}

// rowOf is a record's columns in its file's order, values as the row commands print them.
func rowOf(r records.Record) orderedRow {
	if len(r.Fields) == 0 {
		return nil
	}
	row := make(orderedRow, 0, len(r.Fields))
	for _, c := range r.Fields {
		row = append(row, [2]any{c, records.JSONValue(r.Values[c])})
	}
	return row
}

func writeKeyJSON(w io.Writer, partition string, st *model.KeyStory) error {
	doc := keyDoc{SchemaVersion: report.SchemaVersion, Key: st.Key, Partition: partition, Method: st.Method, How: st.How,
		GroupsChecked: st.GroupsChecked, GroupsPruned: st.GroupsPruned, Status: st.Status, Notes: st.Notes, Problems: st.Problems,
		Locations: []keyLocationDoc{}, Versions: []keyVersionDoc{}}
	for _, l := range st.Locations {
		d := keyLocationDoc{Partition: l.Partition, FileID: l.FileID, Replaced: l.Replaced}
		if l.Bucket >= 0 {
			b := l.Bucket
			d.Bucket = &b
		}
		doc.Locations = append(doc.Locations, d)
	}
	if st.Current != nil {
		doc.Current = rowOf(*st.Current)
	}
	for _, v := range st.Versions {
		d := keyVersionDoc{Partition: v.Partition, FileID: v.FileID, SliceInstant: v.SliceInstant, File: v.File, InLog: v.InLog,
			CommitTime: v.CommitTime, CompletionTime: v.CompletionTime, Action: v.Action, Operation: v.Operation, Archived: v.Archived,
			CarriedOver: v.CarriedOver, Current: v.Current, Deleted: v.Deleted, Replaced: v.Replaced}
		if !v.Deleted {
			d.Row = rowOf(v.Record)
		}
		doc.Versions = append(doc.Versions, d)
	}
	for _, c := range st.Changes {
		doc.Changes = append(doc.Changes, keyChangeDoc{Op: c.Op, TsMs: c.TsMs, Partition: c.Partition, FileID: c.FileID, Source: c.Source,
			Before: imageJSON(c.Before), After: imageJSON(c.After)})
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// versionState is a version's one-word state for text and Markdown.
func versionState(v model.KeyVersion) string {
	switch {
	case v.Current:
		return "current"
	case v.Deleted:
		return "deleted"
	case v.Replaced:
		return "replaced"
	case v.CarriedOver:
		return "copy"
	}
	return "older"
}

// dataText is a record's data columns (meta columns left out) as k=v pairs.
func dataText(r records.Record) string {
	var parts []string
	for _, c := range r.Fields {
		if strings.HasPrefix(c, "_hoodie_") {
			continue
		}
		parts = append(parts, c+"="+records.Text(r.Values[c]))
	}
	return strings.Join(parts, " ")
}

func writeKeyText(w io.Writer, st *model.KeyStory) error {
	t := safetext.Terminal
	fmt.Fprintf(w, "Key        %s\n", t(st.Key))
	fmt.Fprintf(w, "Found by   %s: %s\n", st.Method, t(st.How))
	fmt.Fprintf(w, "Status     %s\n", st.Status)
	for _, l := range st.Locations {
		fmt.Fprintf(w, "Location   %s / %s%s\n", t(partOrQuote(l.Partition)), t(l.FileID), replacedMark(l))
	}
	if st.Current != nil {
		fmt.Fprintf(w, "Current    %s (written by %s)\n", t(dataText(*st.Current)), st.Current.CommitTime)
	}
	for _, n := range st.Notes {
		fmt.Fprintf(w, "Note       %s\n", t(n))
	}
	if len(st.Versions) == 0 {
		_, err := fmt.Fprintln(w, "\nNo version of the key is on storage.")
		return err
	}
	fmt.Fprintf(w, "\nVersions on storage (%d, oldest first):\n", len(st.Versions))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "COMMIT\tCOMPLETED\tACTION\tOPERATION\tSTATE\tFILE\tVALUES")
	for _, v := range st.Versions {
		vals := ""
		if !v.Deleted {
			vals = dataText(v.Record)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", v.CommitTime, dash(v.CompletionTime), dash(v.Action), dash(v.Operation), versionState(v), t(v.File), t(vals))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(st.Changes) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\nCDC images (%d):\n", len(st.Changes))
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TS_MS\tOP\tSOURCE\tBEFORE\tAFTER")
	for _, c := range st.Changes {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", c.TsMs, c.Op, c.Source, t(imageText(c.Before)), t(imageText(c.After)))
	}
	return tw.Flush()
}

func writeKeyMarkdown(w io.Writer, st *model.KeyStory) error {
	pairs := [][2]string{{"Found by", st.Method + " — " + st.How}, {"Status", st.Status}}
	for _, l := range st.Locations {
		pairs = append(pairs, [2]string{"Location", partOrQuote(l.Partition) + " / " + l.FileID + replacedMark(l)})
	}
	if st.Current != nil {
		pairs = append(pairs, [2]string{"Current", dataText(*st.Current) + " (written by " + st.Current.CommitTime + ")"})
	}
	for _, n := range st.Notes {
		pairs = append(pairs, [2]string{"Note", n})
	}
	out := "# Key " + report.Escape(st.Key) + "\n\n" + report.KeyValues(pairs)
	if len(st.Versions) == 0 {
		out += "\nNo version of the key is on storage.\n"
	} else {
		rows := make([][]string, 0, len(st.Versions))
		for _, v := range st.Versions {
			vals := ""
			if !v.Deleted {
				vals = dataText(v.Record)
			}
			rows = append(rows, []string{v.CommitTime, dash(v.CompletionTime), dash(v.Action), dash(v.Operation), versionState(v), v.File, vals})
		}
		out += "\n## Versions on storage\n\n" + report.Table([]string{"Commit", "Completed", "Action", "Operation", "State", "File", "Values"}, "lllllll", rows)
	}
	if len(st.Changes) > 0 {
		rows := make([][]string, 0, len(st.Changes))
		for _, c := range st.Changes {
			rows = append(rows, []string{c.TsMs, c.Op, c.Source, imageText(c.Before), imageText(c.After)})
		}
		out += "\n## CDC images\n\n" + report.Table([]string{"ts_ms", "op", "Source", "Before", "After"}, "lllll", rows)
	}
	_, err := io.WriteString(w, out)
	return err
}

// replacedMark marks a replaced file group's location.
func replacedMark(l model.KeyLocation) string {
	if l.Replaced {
		return " (replaced, not yet cleaned)"
	}
	return ""
}

func partOrQuote(p string) string {
	if p == "" {
		return `""`
	}
	return p
}
