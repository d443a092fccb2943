package timeline

import (
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

// isKnownAction is knownActions[a] without a map lookup (once per listed file).
func isKnownAction(a string) bool {
	switch a {
	case ActionCommit, ActionDeltaCommit, ActionReplaceCommit, ActionClustering, ActionCompaction,
		ActionLogCompaction, ActionClean, ActionRollback, ActionRestore, ActionSavepoint, ActionIndexing,
		ActionSchemaCommit:
		return true
	}
	return false
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

// ParseInstantFileName parses a timeline file name: `<ts>.<action>[.<state>]` (layout 1) with
// `_<completion>` added to completed files in layout 2. It returns false for anything that is not
// an instant file (hoodie.properties, .crc side files, unknown actions, directories' names).
// Hand-written rather than a regexp: it runs once per timeline file.
func ParseInstantFileName(name string) (InstantFile, bool) {
	digits := func(s string) int {
		n := 0
		for n < len(s) && s[n] >= '0' && s[n] <= '9' {
			n++
		}
		return n
	}
	n := digits(name)
	if n == 0 || n == len(name) {
		return InstantFile{}, false
	}
	f := InstantFile{Name: name, RequestedTime: name[:n], State: Completed}
	rest := name[n:]
	if rest[0] == '_' {
		m := digits(rest[1:])
		if m == 0 {
			return InstantFile{}, false
		}
		f.CompletionTime = rest[1 : 1+m]
		rest = rest[1+m:]
	}
	if len(rest) < 2 || rest[0] != '.' {
		return InstantFile{}, false
	}
	action, state, hasState := strings.Cut(rest[1:], ".")
	if !isLowerWord(action) || (hasState && !isLowerWord(state)) {
		return InstantFile{}, false
	}
	f.Action = action
	switch {
	case !hasState && action == "inflight":
		// `<ts>.inflight` is the inflight of a commit action, in both layouts.
		f.Action, f.State = ActionCommit, Inflight
	case state == "requested":
		f.State = Requested
	case state == "inflight":
		f.State = Inflight
	case hasState:
		return InstantFile{}, false
	}
	if !isKnownAction(f.Action) || (f.CompletionTime != "" && f.State != Completed) {
		return InstantFile{}, false
	}
	return f, true
}

func isLowerWord(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
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
// Hand-written rather than time.ParseInLocation (a timeline parses two per instant): the same
// range checks, then time.Date, as Parse ends with (TestParseInstantTimeMatchesLayout).
func ParseInstantTime(s string, zone *time.Location) (time.Time, bool) {
	if zone == nil {
		zone = time.UTC
	}
	if len(s) != 14 && len(s) != 17 {
		return time.Time{}, false
	}
	for i := 0; i < 14; i++ { // the layout's fields; the milliseconds are read as before
		if s[i] < '0' || s[i] > '9' {
			return time.Time{}, false
		}
	}
	num := func(a, b int) int {
		n := 0
		for _, c := range s[a:b] {
			n = n*10 + int(c-'0')
		}
		return n
	}
	year, month, day := num(0, 4), num(4, 6), num(6, 8)
	hour, minute, sec := num(8, 10), num(10, 12), num(12, 14)
	if month < 1 || month > 12 || day < 1 || day > daysIn(time.Month(month), year) ||
		hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, false
	}
	if year <= 1970 {
		if len(s) == 14 {
			// As before: the date is returned, but not as a date (MDT-style times).
			return time.Date(year, time.Month(month), day, hour, minute, sec, 0, zone), false
		}
		return time.Time{}, false
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, 0, zone)
	if len(s) == 17 {
		ms := 0
		for _, c := range s[14:] {
			ms = ms*10 + int(c-'0')
		}
		t = t.Add(time.Duration(ms) * time.Millisecond)
	}
	return t, true
}

// daysIn is the number of days in month m (1–12) of year y, from a table (a second time.Date
// per instant time was half of ParseInstantTime).
func daysIn(m time.Month, y int) int {
	if m == time.February && y%4 == 0 && (y%100 != 0 || y%400 == 0) {
		return 29
	}
	return int(monthDays[m-1])
}

var monthDays = [12]uint8{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}

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
