package report

import (
	"context"
	"io"

	"github.com/hudiscope/hudiscope/analyzers/checkpoint"
	"github.com/hudiscope/hudiscope/analyzers/findings"
	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/view"
)

// Document is the JSON report. Instant fields use the names of `hudiscope timeline --json`.
type Document struct {
	SchemaVersion    string           `json:"schemaVersion"`
	Table            *TableJSON       `json:"table"`
	IncrementalStart *IncrementalJSON `json:"incrementalStart"`
	// IncrementalStarts are the same per reader release line (IncrementalStart is the first).
	IncrementalStarts []checkpoint.Start `json:"incrementalStarts"`
	// IncrementalBegins are, per reader line, the value to resume after the latest commit and
	// the earliest readable one (as the Overview and the Timeline pane show them).
	IncrementalBegins []checkpoint.Begins `json:"incrementalBegins"`
	Instants          []InstantJSON       `json:"instants"`
	Steps             []StepJSON          `json:"steps"`
	Problems          []string            `json:"problems"`
	// ProblemDetails are the same problems (and the notes after them) in the view layer's
	// one shape: source, file, severity, message.
	ProblemDetails []view.Problem    `json:"problemDetails"`
	Sections       map[string]string `json:"sections,omitempty"` // later analyses, as Markdown
	Findings       *findings.Result  `json:"findings,omitempty"` // the optimization catalogs' findings
	// AppliedChanges are the rows whose keys differ between --event-log and --compare-log,
	// each verified on the two runs (omitted without --compare-log).
	AppliedChanges []findings.Applied `json:"appliedChanges,omitempty"`
}

// TableJSON identifies the table.
type TableJSON struct {
	Location                   string   `json:"location"`
	Name                       string   `json:"name"`
	Type                       string   `json:"type"`
	Version                    int      `json:"version"`
	PartitionFields            []string `json:"partitionFields"`
	RecordKeyFields            []string `json:"recordKeyFields"`
	KeyGenerator               string   `json:"keyGenerator"`
	CDCEnabled                 bool     `json:"cdcEnabled"`
	CDCSupplementalLoggingMode string   `json:"cdcSupplementalLoggingMode"`
}

// IncrementalJSON is the oldest point an incremental read can start from.
type IncrementalJSON struct {
	// Instant is the begin value to use (accepted by `hudiscope checkpoint` for ReaderLine).
	Instant    string `json:"instant"`
	Reason     string `json:"reason"`
	ReaderLine string `json:"readerLine"`
	ReadsFrom  string `json:"readsFrom"`
}

// InstantJSON is one instant.
type InstantJSON struct {
	RequestedTime  string  `json:"requestedTime"`
	CompletionTime *string `json:"completionTime"`
	Derived        bool    `json:"completionTimeDerived"`
	// PrecisionMs: how coarse a derived completion time's source is (see docs/json.md).
	PrecisionMs       *int64         `json:"completionTimePrecisionMs,omitempty"`
	Action            string         `json:"action"`
	State             timeline.State `json:"state"`
	Archived          bool           `json:"archived"`
	Operation         *string        `json:"operation"`
	NumWrites         int64          `json:"numWrites"`
	NumInserts        int64          `json:"numInserts"`
	NumUpdateWrites   int64          `json:"numUpdateWrites"`
	NumDeletes        int64          `json:"numDeletes"`
	TotalBytesWritten int64          `json:"totalBytesWritten"`
	// TotalWriteErrors sums the write stats' totalWriteErrors: records that failed in a
	// commit that still completed (see docs/json.md).
	TotalWriteErrors int64  `json:"totalWriteErrors"`
	FileCount        int    `json:"fileCount"`
	PartitionCount   int    `json:"partitionCount"`
	DurationMs       *int64 `json:"durationMs"`
	PlanAction       string `json:"planAction,omitempty"`
	Error            string `json:"error,omitempty"`
	// CompletedAfterLaterStart marks instants where requested and completion order disagree.
	CompletedAfterLaterStart bool `json:"completedAfterLaterStart"`
	// Stalled marks a pending write, clean or rollback older than the newest completed
	// instant (model.Stalled): a killed writer's leftover.
	Stalled bool `json:"stalled"`
}

// StepJSON is one load step's outcome.
type StepJSON struct {
	Step  string `json:"step"`
	Error string `json:"error,omitempty"`
}

// BuildDocument collects the JSON report.
func BuildDocument(ctx context.Context, s *model.Snapshot) Document {
	d := Document{SchemaVersion: SchemaVersion, Instants: []InstantJSON{}, Steps: []StepJSON{}, Problems: []string{}}
	if c := s.Config; c != nil {
		d.Table = &TableJSON{Location: s.Options.Location, Name: c.Name, Type: c.Type, Version: c.Version,
			PartitionFields: nonNil(c.PartitionFieldNames()), RecordKeyFields: nonNil(c.RecordKeys),
			KeyGenerator: c.KeyGenerator, CDCEnabled: c.CDCEnabled, CDCSupplementalLoggingMode: c.CDCMode}
	}
	d.IncrementalBegins = s.IncrementalBegins(ctx)
	for _, b := range d.IncrementalBegins {
		d.IncrementalStarts = append(d.IncrementalStarts, b.Earliest)
	}
	if len(d.IncrementalStarts) > 0 {
		st := d.IncrementalStarts[0]
		d.IncrementalStart = &IncrementalJSON{Instant: st.Begin, Reason: st.Reason, ReaderLine: st.Reader.Line, ReadsFrom: st.ReadsFrom}
	}
	d.Instants = InstantsJSON(s.TimelineInstants())
	for _, st := range s.Done {
		sj := StepJSON{Step: string(st)}
		if err := s.StepErrors[st]; err != nil {
			sj.Error = err.Error()
		}
		d.Steps = append(d.Steps, sj)
	}
	// The view layer's one list of problems, the one the explorer's problems view shows.
	d.ProblemDetails = append([]view.Problem{}, view.Build(s).Problems...)
	for _, p := range d.ProblemDetails {
		if p.Counted() {
			d.Problems = append(d.Problems, p.String())
		}
	}
	d.Findings = s.Findings
	if s.CompareLog != nil {
		d.AppliedChanges = append([]findings.Applied{}, s.Applied...)
	}
	for _, sec := range sections {
		if !sec.inJSON {
			continue
		}
		if body, ok := sec.render(ctx, s); ok {
			if d.Sections == nil {
				d.Sections = map[string]string{}
			}
			d.Sections[sec.title] = body
		}
	}
	return d
}

// JSON writes the JSON report, indented.
func JSON(ctx context.Context, w io.Writer, s *model.Snapshot) error {
	return WriteJSON(w, BuildDocument(ctx, s))
}

// InstantsJSON converts instants (in display order) for JSON output, marking those that
// completed after a later-started instant. `hudiscope timeline --json` uses it too.
func InstantsJSON(instants []*timeline.Instant) []InstantJSON {
	late := model.LateCompletions(instants)
	newest := model.NewestCompleted(&timeline.Timeline{Instants: instants})
	out := make([]InstantJSON, 0, len(instants))
	for i, in := range instants {
		j := instantJSON(in)
		j.CompletedAfterLaterStart = late[i]
		j.Stalled = model.Stalled(in, newest)
		out = append(out, j)
	}
	return out
}

func instantJSON(in *timeline.Instant) InstantJSON {
	return fillInstantJSON(in, new(instantValues))
}

// instantValues holds what an InstantJSON's optional fields point to: one allocation an
// instant instead of one per field, and none a row when the streamed writer reuses one.
type instantValues struct {
	completion, operation string
	precisionMs, duration int64
}

// fillInstantJSON is instantJSON with the optional fields pointing into v.
func fillInstantJSON(in *timeline.Instant, v *instantValues) InstantJSON {
	j := InstantJSON{RequestedTime: in.RequestedTime, Derived: in.CompletionDerived, Action: in.Action,
		State: in.State, Archived: in.Archived, NumWrites: in.Totals.NumWrites, NumInserts: in.Totals.NumInserts,
		NumUpdateWrites: in.Totals.NumUpdateWrites, NumDeletes: in.Totals.NumDeletes,
		TotalBytesWritten: in.Totals.TotalBytesWritten, TotalWriteErrors: in.Totals.TotalWriteErrors, FileCount: in.Totals.Files,
		PartitionCount: in.Totals.Partitions, PlanAction: in.PlanAction, Error: in.Err}
	if in.CompletionTime != "" {
		v.completion = in.CompletionTime
		j.CompletionTime = &v.completion
		if in.CompletionDerived {
			v.precisionMs = max(in.CompletionPrecision.Milliseconds(), 1)
			j.PrecisionMs = &v.precisionMs
		}
	}
	if in.Operation != "" {
		v.operation = in.Operation
		j.Operation = &v.operation
	}
	if d := in.Duration(); d > 0 || (in.IsCompleted() && !in.Started.IsZero() && !in.Ended.IsZero()) {
		v.duration = d.Milliseconds()
		j.DurationMs = &v.duration
	}
	return j
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
