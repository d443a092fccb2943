package hudi

import (
	"regexp"
	"strings"
	"time"
)

// State of an instant on the timeline.
type State string

const (
	Requested State = "REQUESTED"
	Inflight  State = "INFLIGHT"
	Completed State = "COMPLETED"
)

// Timeline actions (file extensions).
const (
	ActionCommit        = "commit"
	ActionDeltaCommit   = "deltacommit"
	ActionReplaceCommit = "replacecommit"
	ActionClustering    = "clustering"
	ActionCompaction    = "compaction"
	ActionLogCompaction = "logcompaction"
	ActionClean         = "clean"
	ActionRollback      = "rollback"
	ActionRestore       = "restore"
	ActionSavepoint     = "savepoint"
	ActionIndexing      = "indexing"
	ActionSchemaCommit  = "schemacommit"
)

var knownActions = map[string]bool{
	ActionCommit: true, ActionDeltaCommit: true, ActionReplaceCommit: true, ActionClustering: true,
	ActionCompaction: true, ActionLogCompaction: true, ActionClean: true, ActionRollback: true,
	ActionRestore: true, ActionSavepoint: true, ActionIndexing: true, ActionSchemaCommit: true,
}

// completedAs maps plan actions to the action their completed file carries.
var completedAs = map[string]string{
	ActionCompaction:    ActionCommit,
	ActionLogCompaction: ActionDeltaCommit,
	ActionClustering:    ActionReplaceCommit,
}

// IsWriteAction reports whether an action's completed metadata is commit metadata.
func IsWriteAction(action string) bool {
	switch action {
	case ActionCommit, ActionDeltaCommit, ActionReplaceCommit:
		return true
	}
	return false
}

// InstantFile is one parsed timeline file name.
type InstantFile struct {
	Name           string
	RequestedTime  string
	CompletionTime string // layout 2 completed files only
	Action         string
	State          State
}

// Layout 1: <ts>.<action>[.<state>]; layout 2 adds _<completion> to completed files.
var instantNameRe = regexp.MustCompile(`^(\d+)(?:_(\d+))?\.([a-z]+)(?:\.([a-z]+))?$`)

// ParseInstantFileName parses a timeline file name. It returns false for anything that is not
// an instant file (hoodie.properties, .crc side files, unknown actions, directories' names).
func ParseInstantFileName(name string) (InstantFile, bool) {
	m := instantNameRe.FindStringSubmatch(name)
	if m == nil {
		return InstantFile{}, false
	}
	f := InstantFile{Name: name, RequestedTime: m[1], CompletionTime: m[2], Action: m[3], State: Completed}
	switch {
	case m[4] == "" && f.Action == "inflight":
		// `<ts>.inflight` is the inflight of a commit action, in both layouts.
		f.Action, f.State = ActionCommit, Inflight
	case m[4] == "requested":
		f.State = Requested
	case m[4] == "inflight":
		f.State = Inflight
	case m[4] != "":
		return InstantFile{}, false
	}
	if !knownActions[f.Action] {
		return InstantFile{}, false
	}
	if f.CompletionTime != "" && f.State != Completed {
		return InstantFile{}, false
	}
	return f, true
}

// FormatInstantTime renders a time as an instant string (yyyyMMddHHmmssSSS) in zone.
func FormatInstantTime(t time.Time, zone *time.Location) string {
	if zone == nil {
		zone = time.UTC
	}
	t = t.In(zone)
	return t.Format("20060102150405") + strings.TrimPrefix(t.Format(".000"), ".")
}

// ParseInstantTime parses a 14- or 17-digit instant string in zone; false for MDT-style
// instants (all zeros, 20 digits) and anything else that is not a date.
func ParseInstantTime(s string, zone *time.Location) (time.Time, bool) {
	if zone == nil {
		zone = time.UTC
	}
	switch len(s) {
	case 14:
		t, err := time.ParseInLocation("20060102150405", s, zone)
		return t, err == nil && t.Year() > 1970
	case 17:
		t, err := time.ParseInLocation("20060102150405", s[:14], zone)
		if err != nil || t.Year() <= 1970 {
			return time.Time{}, false
		}
		ms := 0
		for _, c := range s[14:] {
			ms = ms*10 + int(c-'0')
		}
		return t.Add(time.Duration(ms) * time.Millisecond), true
	}
	return time.Time{}, false
}

// CompareInstants orders instant strings as Java does: 14-digit values are padded with 999.
func CompareInstants(a, b string) int {
	return strings.Compare(padInstant(a), padInstant(b))
}

func padInstant(s string) string {
	if len(s) == 14 {
		return s + "999"
	}
	return s
}
