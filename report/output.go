package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strings"

	"github.com/hudiscope/hudiscope/analyzers/checkpoint"
	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/view"
)

// SchemaVersion is the version of hudiscope's JSON contract: every JSON document hudiscope
// writes carries it (top-level "schemaVersion", or "hudiscope.schemaVersion" in the documents
// whose top level follows a Java tool). Minor versions add fields; a major version removes or
// changes one. docs/json.md documents every field.
const SchemaVersion = "1.3.0"

// WriteJSON writes v as indented JSON. Nothing is HTML-escaped: paths and messages keep their
// < > & as they are.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// jsonStream writes an indented JSON document piece by piece, byte for byte what WriteJSON
// writes for the whole document, holding one element at a time.
type jsonStream struct {
	w   *bufio.Writer
	buf bytes.Buffer
	enc *json.Encoder // compact, into buf
	out []byte        // indented, reused
	err error
}

func newJSONStream(w io.Writer) *jsonStream {
	j := &jsonStream{w: bufio.NewWriterSize(w, 64<<10)}
	j.enc = json.NewEncoder(&j.buf)
	j.enc.SetEscapeHTML(false)
	return j
}

func (j *jsonStream) raw(s string) {
	if j.err == nil {
		_, j.err = j.w.WriteString(s)
	}
}

func (j *jsonStream) indent(depth int) { j.raw(strings.Repeat("  ", depth)) }

// value writes v as it appears at depth (its first line unindented, no newline after).
func (j *jsonStream) value(depth int, v any) {
	if j.err != nil {
		return
	}
	j.buf.Reset()
	if j.err = j.enc.Encode(v); j.err != nil {
		return
	}
	compact := bytes.TrimSuffix(j.buf.Bytes(), []byte("\n"))
	j.out = appendIndented(j.out[:0], compact, strings.Repeat("  ", depth), "  ")
	_, j.err = j.w.Write(j.out)
}

// key starts the member name of an object at depth (first says it opens the object).
func (j *jsonStream) key(depth int, name string, first bool) {
	if !first {
		j.raw(",")
	}
	j.raw("\n")
	j.indent(depth + 1)
	j.raw(`"` + name + `": `)
}

// array writes n elements at depth, each by elem (which writes one value at depth+1).
func (j *jsonStream) array(depth, n int, elem func(i int)) {
	if n == 0 {
		j.raw("[]")
		return
	}
	j.raw("[")
	for i := 0; i < n && j.err == nil; i++ {
		if i > 0 {
			j.raw(",")
		}
		j.raw("\n")
		j.indent(depth + 1)
		elem(i)
	}
	j.raw("\n")
	j.indent(depth)
	j.raw("]")
}

// end closes the top-level object and flushes.
func (j *jsonStream) end() error {
	j.raw("\n}\n")
	if j.err != nil {
		return j.err
	}
	return j.w.Flush()
}

// WriteTimelineJSON writes NewTimelineDocument(s, instants) as WriteJSON would, streaming
// one instant at a time.
// ready(i), when not nil, is called before instants[i] is written and blocks until its metadata
// has been read (model.Snapshot.StreamCommits).
func WriteTimelineJSON(w io.Writer, s *model.Snapshot, instants []*timeline.Instant, ready func(i int)) error {
	return WriteFilteredTimelineJSON(w, s, instants, instants, nil, ready)
}

// WriteFilteredTimelineJSON writes the timeline document of sel, a selection of all
// (view.FilterInstants), with the filter applied (nil: no "filter" member). The late and
// stalled flags are judged over all, as for the whole listing; ready(i) is for sel[i].
func WriteFilteredTimelineJSON(w io.Writer, s *model.Snapshot, all, sel []*timeline.Instant, filter *TimelineFilterJSON, ready func(i int)) error {
	d := NewTimelineDocument(s, nil)
	lateAll := model.LateCompletions(all)
	isLate := make(map[*timeline.Instant]bool)
	for i, l := range lateAll {
		if l {
			isLate[all[i]] = true
		}
	}
	newest := model.NewestCompleted(&timeline.Timeline{Instants: all}) // from names alone: no wait for metadata
	j := newJSONStream(w)
	j.raw("{")
	j.key(0, "schemaVersion", true)
	j.value(1, d.SchemaVersion)
	j.key(0, "table", false)
	j.value(1, d.Table)
	if filter != nil {
		j.key(0, "filter", false)
		j.value(1, filter)
	}
	j.key(0, "instants", false)
	var values instantValues // each row is written before the next fills it
	j.array(1, len(sel), func(i int) {
		if ready != nil {
			ready(i)
		}
		ij := fillInstantJSON(sel[i], &values)
		ij.CompletedAfterLaterStart = isLate[sel[i]]
		ij.Stalled = model.Stalled(sel[i], newest)
		if j.err == nil {
			j.out = appendInstantJSON(j.out[:0], 2, &ij)
			_, j.err = j.w.Write(j.out)
		}
	})
	return j.end()
}

// TimelineFilterJSON is the "filter" object of `timeline -o json` with a filter flag: what
// was asked, the bounds it resolved to and how many instants it kept.
type TimelineFilterJSON struct {
	Limit        int      `json:"limit"`
	Since        *string  `json:"since"`
	SinceInstant *string  `json:"sinceInstant"`
	Until        *string  `json:"until"`
	UntilInstant *string  `json:"untilInstant"`
	Actions      []string `json:"actions"`
	States       []string `json:"states"`
	Sort         string   `json:"sort"`
	Reverse      bool     `json:"reverse"`
	Total        int      `json:"totalInstants"`
	Listed       int      `json:"listedInstants"`
}

// NewTimelineFilterJSON describes filter f and its result r.
func NewTimelineFilterJSON(f view.InstantFilter, r view.Filtered) *TimelineFilterJSON {
	opt := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	states := []string{}
	for _, st := range f.States {
		states = append(states, string(st))
	}
	return &TimelineFilterJSON{Limit: f.Limit, Since: opt(f.Since), SinceInstant: opt(r.SinceInstant),
		Until: opt(f.Until), UntilInstant: opt(r.UntilInstant), Actions: nonNil(f.Actions), States: states,
		Sort: r.Sort, Reverse: f.Reverse, Total: r.Total, Listed: len(r.Instants)}
}

// TimelineTable is the "table" object of the timeline JSON.
type TimelineTable struct {
	Name                       string   `json:"name"`
	Type                       string   `json:"type"`
	Version                    int      `json:"version"`
	BasePath                   string   `json:"basePath"`
	PartitionFields            []string `json:"partitionFields"`
	RecordKeyFields            []string `json:"recordKeyFields"`
	KeyGenerator               string   `json:"keyGenerator"`
	CDCEnabled                 bool     `json:"cdcEnabled"`
	CDCSupplementalLoggingMode string   `json:"cdcSupplementalLoggingMode"`
}

// TimelineDocument is `hudiscope timeline --output json`.
type TimelineDocument struct {
	SchemaVersion string        `json:"schemaVersion"`
	Table         TimelineTable `json:"table"`
	Instants      []InstantJSON `json:"instants"`
}

// NewTimelineDocument describes a snapshot's table and instants (in display order).
func NewTimelineDocument(s *model.Snapshot, instants []*timeline.Instant) TimelineDocument {
	c := s.Config
	return TimelineDocument{SchemaVersion: SchemaVersion, Instants: InstantsJSON(instants),
		Table: TimelineTable{Name: c.Name, Type: c.Type, Version: c.Version, BasePath: s.BasePath(),
			PartitionFields: nonNil(c.PartitionFieldNames()), RecordKeyFields: nonNil(c.RecordKeys),
			KeyGenerator: c.KeyGenerator, CDCEnabled: c.CDCEnabled, CDCSupplementalLoggingMode: c.CDCMode}}
}

// FilesDocument is `hudiscope files --output json`: the latest slice of every live file group.
type FilesDocument struct {
	SchemaVersion string           `json:"schemaVersion"`
	Source        string           `json:"listingSource"`
	Partitions    []FilesPartition `json:"partitions"`
}

// FilesPartition is one partition's file groups.
type FilesPartition struct {
	Path       string           `json:"path"`
	FileGroups []FilesFileGroup `json:"fileGroups"`
	Replaced   []string         `json:"replacedFileGroups,omitempty"`
}

// FilesFileGroup is one file group's latest slice.
type FilesFileGroup struct {
	FileID   string              `json:"fileId"`
	BaseFile *filegroup.BaseFile `json:"baseFile"`
	LogFiles []FilesLogFile      `json:"logFiles"`
	Pending  *FilesPending       `json:"pending"`
	Slices   int                 `json:"sliceCount"`
}

// FilesLogFile is a log file of the latest slice.
type FilesLogFile struct {
	Name string `json:"name"`
	Size int64  `json:"size"`
}

// FilesPending names the pending compaction or clustering that holds a file group.
type FilesPending struct {
	Compaction string `json:"compaction,omitempty"`
	Clustering string `json:"clustering,omitempty"`
}

// NewFilesDocument describes a file-system view.
func NewFilesDocument(view *filegroup.View) FilesDocument {
	parts := make([]FilesPartition, 0, len(view.Partitions))
	for _, p := range view.Partitions {
		pj := FilesPartition{Path: p.Path, FileGroups: []FilesFileGroup{}}
		for _, g := range p.FileGroups {
			pj.FileGroups = append(pj.FileGroups, filesFileGroup(g))
		}
		for _, g := range p.Replaced {
			pj.Replaced = append(pj.Replaced, g.FileID)
		}
		parts = append(parts, pj)
	}
	return FilesDocument{SchemaVersion: SchemaVersion, Source: view.Source, Partitions: parts}
}

func filesFileGroup(g *filegroup.FileGroup) FilesFileGroup {
	s := g.Latest()
	fg := FilesFileGroup{FileID: g.FileID, BaseFile: s.Base, LogFiles: make([]FilesLogFile, 0, len(s.Logs)), Slices: len(g.Slices)}
	for _, l := range s.Logs {
		fg.LogFiles = append(fg.LogFiles, FilesLogFile{Name: l.Name, Size: l.Size})
	}
	if g.PendingCompaction != "" || g.PendingClustering != "" {
		fg.Pending = &FilesPending{Compaction: g.PendingCompaction, Clustering: g.PendingClustering}
	}
	return fg
}

// CheckpointDocument is `hudiscope checkpoint --output json`: the first verdict's fields at
// the top level (the only one when the reading release is named), ReRead over all verdicts,
// and every verdict under Verdicts with its reader line.
type CheckpointDocument struct {
	SchemaVersion string `json:"schemaVersion"`
	*checkpoint.Report
	Instant *CheckpointInstantJSON  `json:"instant"`
	Covered []CheckpointInstantJSON `json:"covered"`
	// ReRead is true when any reader line re-reads (the exit status 3).
	ReRead bool `json:"reRead"`
	// Verdict is the worst over every reader line: "re-read" (exit 3), "not-safe" (exit 4)
	// or "safe".
	Verdict  string              `json:"verdict"`
	Skipped  []InstantJSON       `json:"skipped"`
	Partial  []InstantJSON       `json:"partial"`
	Verdicts []CheckpointVerdict `json:"verdicts"`
}

// CheckpointInstantJSON is a timeline instant (InstantJSON's fields, in its order) whose
// counts are null when its metadata cannot be read (error says why): a read's record count
// must not look like 0 written (issue 31).
type CheckpointInstantJSON struct {
	RequestedTime            string         `json:"requestedTime"`
	CompletionTime           *string        `json:"completionTime"`
	Derived                  bool           `json:"completionTimeDerived"`
	PrecisionMs              *int64         `json:"completionTimePrecisionMs,omitempty"`
	Action                   string         `json:"action"`
	State                    timeline.State `json:"state"`
	Archived                 bool           `json:"archived"`
	Operation                *string        `json:"operation"`
	NumWrites                *int64         `json:"numWrites"`
	NumInserts               *int64         `json:"numInserts"`
	NumUpdateWrites          *int64         `json:"numUpdateWrites"`
	NumDeletes               *int64         `json:"numDeletes"`
	TotalBytesWritten        *int64         `json:"totalBytesWritten"`
	TotalWriteErrors         *int64         `json:"totalWriteErrors"`
	FileCount                *int           `json:"fileCount"`
	PartitionCount           *int           `json:"partitionCount"`
	DurationMs               *int64         `json:"durationMs"`
	PlanAction               string         `json:"planAction,omitempty"`
	Error                    string         `json:"error,omitempty"`
	CompletedAfterLaterStart bool           `json:"completedAfterLaterStart"`
	Stalled                  bool           `json:"stalled"`
}

func checkpointInstants(ins []*timeline.Instant) []CheckpointInstantJSON {
	js := InstantsJSON(ins)
	out := make([]CheckpointInstantJSON, len(js))
	for i := range js {
		j := &js[i]
		c := CheckpointInstantJSON{RequestedTime: j.RequestedTime, CompletionTime: j.CompletionTime, Derived: j.Derived,
			PrecisionMs: j.PrecisionMs, Action: j.Action, State: j.State, Archived: j.Archived, Operation: j.Operation,
			DurationMs: j.DurationMs, PlanAction: j.PlanAction, Error: j.Error, CompletedAfterLaterStart: j.CompletedAfterLaterStart,
			Stalled: j.Stalled}
		if j.Error == "" {
			c.NumWrites, c.NumInserts, c.NumUpdateWrites, c.NumDeletes = &j.NumWrites, &j.NumInserts, &j.NumUpdateWrites, &j.NumDeletes
			c.TotalBytesWritten, c.TotalWriteErrors, c.FileCount, c.PartitionCount = &j.TotalBytesWritten, &j.TotalWriteErrors, &j.FileCount, &j.PartitionCount
		}
		out[i] = c
	}
	return out
}

// CheckpointVerdict is one reader line's verdict.
type CheckpointVerdict struct {
	Reader  checkpoint.Reader `json:"reader"`
	ReRead  bool              `json:"reRead"`
	Verdict string            `json:"verdict"`
	Covered []string          `json:"covered"` // requested times of the writes the read returns
	Skipped []string          `json:"skipped"` // archived writes after the value the reader skips
	Unknown string            `json:"unknown,omitempty"`
}

// NewCheckpointDocument describes checkpoint verdicts (one per reader line, at least one).
func NewCheckpointDocument(rs []*checkpoint.Report) CheckpointDocument {
	r := rs[0]
	d := CheckpointDocument{SchemaVersion: SchemaVersion, Report: r, Covered: checkpointInstants(r.Covered),
		ReRead: checkpoint.AnyReRead(rs), Verdict: checkpoint.Worst(rs), Skipped: InstantsJSON(r.Skipped), Partial: InstantsJSON(r.Partial), Verdicts: []CheckpointVerdict{}}
	if r.Instant != nil {
		d.Instant = &checkpointInstants([]*timeline.Instant{r.Instant})[0]
	}
	for _, v := range rs {
		cv := CheckpointVerdict{Reader: v.Reader, ReRead: v.ReRead, Verdict: v.Verdict(), Covered: []string{}, Skipped: []string{}, Unknown: v.Unknown}
		for _, in := range v.Covered {
			cv.Covered = append(cv.Covered, in.RequestedTime)
		}
		for _, in := range v.Skipped {
			cv.Skipped = append(cv.Skipped, in.RequestedTime)
		}
		d.Verdicts = append(d.Verdicts, cv)
	}
	return d
}
