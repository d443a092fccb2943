package eventlog

import (
	"bytes"
	"encoding/json"
)

// ExtensionVersion versions the "hudiscope" block.
const ExtensionVersion = "1"

// Extension is everything hudiscope adds to the 1.1.0 document.
type Extension struct {
	// SchemaVersion is hudiscope's JSON contract version, the same in every document it writes;
	// Version is this block's own (kept for readers of earlier output).
	SchemaVersion string         `json:"schemaVersion,omitempty"`
	Version       string         `json:"version"`
	Source        SourceInfo     `json:"source"`
	Files         []FileInfo     `json:"files"`
	Damage        []DamageRecord `json:"damage"`
	Application   AppExtra       `json:"application"`
	Hudi          HudiInfo       `json:"hudi"`
	// OperationSummary, PhaseSummary and Caveats are hudiscope's own attribution
	// (the top-level ones are the Java tool's); same shape as the top-level summaries.
	OperationSummary []GroupSummary `json:"operationSummary"`
	PhaseSummary     []GroupSummary `json:"phaseSummary"`
	Caveats          []string       `json:"caveats"`
	// Stages has one row per element of the top-level stages, in the same order:
	// hudiscope's attribution of the stage, what differs from the Java tool's, and
	// extra metrics.
	Stages []StageExtra `json:"stages"`
	// TaskDurationBucketUpperMillis are the upper bounds of every stage's
	// taskDurationHistogram buckets (the last bucket, past the final edge, is open).
	TaskDurationBucketUpperMillis []int64 `json:"taskDurationBucketUpperMillis"`
}

// SourceInfo says how the log was found.
type SourceInfo struct {
	Layout        string   `json:"layout"` // file | rolling | databricks
	HistoryServer string   `json:"historyServer,omitempty"`
	InProgress    bool     `json:"inProgress"`
	Compacted     bool     `json:"compacted"`
	Notes         []string `json:"notes"`
}

// FileInfo is one part of the log as read.
type FileInfo struct {
	Path           string `json:"path"`
	Index          int64  `json:"index"`
	Codec          string `json:"codec"`
	CodecFromName  string `json:"codecFromName"`
	EncodedBytes   int64  `json:"encodedBytes"`
	DecodedBytes   int64  `json:"decodedBytes"`
	Lines          int64  `json:"lines"`
	Events         int64  `json:"events"`
	MalformedLines int64  `json:"malformedLines"`
	// Truncated: the codec stream or the last line was cut (in-progress or crashed writer).
	Truncated bool `json:"truncated"`
}

// DamageRecord locates one piece of damage: a codec problem (byte offsets) or
// a malformed line (line number and the decoded byte offset of its start).
type DamageRecord struct {
	File          string `json:"file"`
	Kind          string `json:"kind"` // truncated | corrupt | checksum | malformed-line
	Offset        *int64 `json:"offset,omitempty"`
	DecodedOffset int64  `json:"decodedOffset"`
	Line          *int64 `json:"line,omitempty"`
	Detail        string `json:"detail"`
}

// AppExtra are application facts the 1.1.0 document lacks.
type AppExtra struct {
	AttemptID          *string `json:"attemptId"`
	User               *string `json:"user"`
	SparkVersionSource string  `json:"sparkVersionSource"` // spark.version | SparkListenerLogStart | none
	Complete           bool    `json:"complete"`           // an ApplicationEnd was read
	UnfinishedJobCount int     `json:"unfinishedJobCount"`
	JobWallClockMillis int64   `json:"jobWallClockMillis"` // union of job intervals
	UncoveredMillis    int64   `json:"uncoveredMillis"`    // duration not covered by any job (driver-side work, idle); -1 if unknown
	// UncoveredShare is UncoveredMillis over the application's duration (3 decimals); -1 when
	// either is unknown. It is the share no phase share counts (those are of stage wall clock).
	UncoveredShare     Ratio            `json:"uncoveredShare"`
	RollbackExecutions int              `json:"rollbackExecutions"`
	EventCounts        map[string]int64 `json:"eventCounts"`
}

// HudiInfo summarises the Hudi work recognised.
type HudiInfo struct {
	Detected        bool              `json:"detected"`
	Encoding        string            `json:"encoding"` // "1.x" (<Module>:<text>), "0.x" (job group + text), "mixed" or ""
	Tables          []string          `json:"tables"`
	WriteOperations map[string]int    `json:"writeOperations"` // write operation type -> jobs
	Configs         map[string]string `json:"configs"`         // hoodie.* and spark.sql.extensions from Spark Properties, redacted
}

// StageExtra is hudiscope's view of one stage attempt: its own attribution
// (same fields as the top-level stage, which holds the Java tool's) and extras.
type StageExtra struct {
	StageID         int      `json:"stageId"`
	AttemptID       int      `json:"attemptId"`
	JobID           *int     `json:"jobId"`
	JobDescription  *string  `json:"jobDescription"`
	Module          *string  `json:"module"`
	Operation       string   `json:"operation"`
	OperationSource string   `json:"operationSource"`
	Phase           string   `json:"phase"`
	SubPhase        *string  `json:"subPhase"`
	BundledSteps    []string `json:"bundledSteps,omitempty"`
	// Instant is the write a marker-directory listing belongs to ("" otherwise).
	Instant string `json:"instant,omitempty"`
	// DiffersFromJava names the attribution fields whose value differs from the
	// Java tool's (the top-level stage), in field order; empty when none do.
	DiffersFromJava          []string `json:"differsFromJava,omitempty"`
	Table                    string   `json:"table,omitempty"`
	WriteOperationType       string   `json:"writeOperationType,omitempty"`
	ExecutorCPUTimeNanos     int64    `json:"executorCpuTimeNanos"`
	PeakExecutionMemoryBytes int64    `json:"peakExecutionMemoryBytes"`
	// TaskDurationHistogram counts the stage attempt's task durations per bucket of
	// TaskDurationBucketUpperMillis.
	TaskDurationHistogram DurationHistogram `json:"taskDurationHistogram"`
}

// AsStage is the stage with hudiscope's attribution in place of the Java
// tool's (s is the top-level stage of the same index).
func (x *StageExtra) AsStage(s Stage) Stage {
	s.JobID, s.JobDescription, s.Module = x.JobID, x.JobDescription, x.Module
	s.Operation, s.OperationSource, s.Phase, s.SubPhase = x.Operation, x.OperationSource, x.Phase, x.SubPhase
	s.BundledSteps = x.BundledSteps
	return s
}

// HudiscopeStages are the stages with hudiscope's attribution, in the order of r.Stages.
func (r *Report) HudiscopeStages() []Stage {
	out := make([]Stage, len(r.Stages))
	for i, s := range r.Stages {
		out[i] = s
		if i < len(r.Hudiscope.Stages) {
			out[i] = r.Hudiscope.Stages[i].AsStage(s)
		}
	}
	return out
}

// MarshalJSON writes the label under "operation" or "phase" first.
func (g GroupSummary) MarshalJSON() ([]byte, error) {
	type plain GroupSummary
	body, err := json.Marshal(plain(g))
	if err != nil {
		return nil, err
	}
	key := g.labelKey
	if key == "" {
		key = "label"
	}
	head, _ := json.Marshal(map[string]string{key: g.Label})
	var b bytes.Buffer
	b.Write(head[:len(head)-1])
	b.WriteByte(',')
	b.Write(body[1:])
	return b.Bytes(), nil
}
