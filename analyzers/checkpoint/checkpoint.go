// Package checkpoint answers "what does an incremental read from this begin time read?" for
// a Hudi table: which instant the value names, whether the read still has the timeline and
// the files it needs, and which writes it returns.
package checkpoint

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// Match says what a checkpoint value is on the timeline.
type Match string

const (
	MatchRequested  Match = "requested"  // an instant's requested (instant) time
	MatchCompletion Match = "completion" // an instant's completion time
	MatchNone       Match = "none"
)

// Report answers "what does an incremental read from this value read?" for one reader line.
type Report struct {
	Value string `json:"value"`
	Match Match  `json:"match"`
	// Reader is the release line whose rule the verdict follows.
	Reader Reader `json:"reader"`
	// Instant is the instant VALUE names (by requested or completion time), if any. A
	// savepoint shares its commit's requested time; the commit is the one named.
	Instant *timeline.Instant `json:"-"`
	// CompletionOrdered is true when the reader compares begin.instanttime with completion
	// times (1.x); 0.x readers compare requested times.
	CompletionOrdered bool `json:"completionOrdered"`
	// InActiveTimeline is false when VALUE is older than the active timeline's first write:
	// the instants between it and the timeline start are archived.
	InActiveTimeline bool   `json:"inActiveTimeline"`
	ActiveStart      string `json:"activeTimelineStart"`
	// InCleanerRetention is false when the read from VALUE needs a write older than the last
	// clean's earliestCommitToRetain: files it needs may already be deleted.
	InCleanerRetention     bool   `json:"inCleanerRetention"`
	EarliestCommitToRetain string `json:"earliestCommitToRetain,omitempty"`
	// Covered are the completed writes whose records the read returns, active and archived,
	// in the order the reader compares (completion for 1.x, requested for 0.x).
	// Clustering and compaction rewrite records without changing them and are never
	// returned.
	Covered []*timeline.Instant `json:"-"`
	// ReRead is true when the instant VALUE names is among the covered ones: a checkpoint
	// taken from _hoodie_commit_time (or, for an inclusive reader, from the completion time)
	// reads its own batch again.
	ReRead bool `json:"reRead"`
	// Skipped are archived writes after VALUE that the reader does not return (0.x reads
	// only the active timeline): a pipeline resuming from VALUE never sees them.
	Skipped []*timeline.Instant `json:"-"`
	// SkipReason says why they are skipped.
	SkipReason string `json:"skipReason,omitempty"`
	// Partial are covered writes whose records come back only in part (Hudi 0.x on
	// merge-on-read from before the active timeline), and why.
	Partial       []*timeline.Instant `json:"-"`
	PartialReason string              `json:"partialReason,omitempty"`
	// Unknown, when set, says why what the read returns is not reproduced.
	Unknown string `json:"unknown,omitempty"`
	// WholeTable: the read returns every record of the table.
	WholeTable bool `json:"wholeTable,omitempty"`
	// Rows, when counted (checkpoint --rows), are the rows the read returns, counted by the
	// record reader `incremental` uses.
	Rows *Rows `json:"rows,omitempty"`
	// RecordsWritten sums the covered writes' numWrites; nil when a covered write's metadata
	// could not be read (Unreadable names them by requested time): unknown is not 0.
	RecordsWritten *int64   `json:"recordsWritten"`
	Unreadable     []string `json:"unreadable,omitempty"`
}

// Rows are the rows one incremental read returns.
type Rows struct {
	Total int `json:"total"`
	// ReRead are the rows the instant VALUE names wrote (the batch read again).
	ReRead int `json:"reRead"`
	// Error says why they could not be counted (Total and ReRead are then unknown).
	Error string `json:"error,omitempty"`
}

// MarshalJSON writes unknown counts as null beside the error: a script reading 0 would take
// "nothing re-read" from a read that was never counted.
func (r Rows) MarshalJSON() ([]byte, error) {
	type counted struct {
		Total  *int   `json:"total"`
		ReRead *int   `json:"reRead"`
		Error  string `json:"error,omitempty"`
	}
	c := counted{Error: r.Error}
	if r.Error == "" {
		c.Total, c.ReRead = &r.Total, &r.ReRead
	}
	return json.Marshal(c)
}

// Verdict is what a pipeline acts on, one of:
//   - "re-read": the read returns VALUE's own instant again;
//   - "not-safe": nothing is re-read, but the value is older than the cleaner's retention
//     (files the read needs may be gone), the reader skips archived writes after it, or what
//     it returns is not reproduced (Unknown);
//   - "safe".
func (r *Report) Verdict() string {
	switch {
	case r.ReRead:
		return VerdictReRead
	case !r.InCleanerRetention || len(r.Skipped) > 0 || len(r.Partial) > 0 || r.Unknown != "":
		return VerdictNotSafe
	}
	return VerdictSafe
}

// The verdicts Report.Verdict gives.
const (
	VerdictSafe    = "safe"
	VerdictReRead  = "re-read"
	VerdictNotSafe = "not-safe"
)

// Table is the table a begin time is checked against; *hudi.Table is one. Details is read
// for the last clean only.
type Table interface {
	Version() int
	// IsMOR is true for a merge-on-read table: the reader lines differ there at the archive.
	IsMOR() bool
	Details(ctx context.Context, in *timeline.Instant) (*timeline.Details, error)
}

// returnsRecords reports whether an incremental read returns the records a completed
// instant wrote: writes do; clustering and compaction only rewrite files (measured: a begin
// value just before a clustering's completion returns no row of it).
func returnsRecords(in *timeline.Instant) bool {
	// The table type is not known here: a compaction is told by its plan or its metadata.
	return in.State == timeline.Completed && in.IsDataWrite("")
}

// Check evaluates an incremental-read begin time against tl, t's timeline, for one reader.
func Check(ctx context.Context, t Table, tl *timeline.Timeline, value string, rd Reader) *Report {
	r := &Report{Value: value, Match: MatchNone, Reader: rd, CompletionOrdered: rd.CompletionOrdered()}
	var writes []*timeline.Instant
	for _, in := range tl.Instants {
		if returnsRecords(in) {
			writes = append(writes, in)
		}
	}
	r.Match, r.Instant = match(value, tl.Instants)
	if r.Match == MatchNone {
		r.Match, r.Instant = match(value, tl.Archived)
	}
	if len(writes) > 0 {
		first := writes[0]
		for _, w := range writes {
			if timeline.CompareInstants(w.RequestedTime, first.RequestedTime) < 0 {
				first = w
			}
		}
		r.ActiveStart = first.RequestedTime
		// Anything from one millisecond before the first active write's requested time on is
		// still answerable from the active timeline: no archived write lies after such a value
		// (instant times have millisecond resolution), and it is the earliest begin a 0.x
		// reader, exclusive on requested times, needs to read that first write.
		r.InActiveTimeline = timeline.CompareInstants(value, shiftMillis(first.RequestedTime, -1)) >= 0
	}
	p := PlanRead(tl, Query{Begin: value, MOR: t.IsMOR()}, rd)
	r.Covered, r.Skipped, r.SkipReason, r.Partial, r.PartialReason, r.Unknown, r.WholeTable = p.Writes, p.Skipped, p.SkipReason, p.Partial, p.PartialReason, p.Unknown, p.WholeTable
	r.InCleanerRetention = true
	if ect := lastCleanRetain(ctx, t, tl); ect != "" {
		r.EarliestCommitToRetain = ect
		// The value is inside the retention when the read needs no write the cleaner may have
		// passed: every write it returns (or skips) was requested at or after the earliest
		// retained commit. Comparing the value itself would call the earliest safe begin of
		// an exclusive reader (one millisecond before that commit) too old.
		for _, w := range append(append([]*timeline.Instant(nil), r.Covered...), r.Skipped...) {
			if timeline.CompareInstants(w.RequestedTime, ect) < 0 {
				r.InCleanerRetention = false
				break
			}
		}
	}
	for _, w := range r.Covered {
		if w == r.Instant {
			r.ReRead = true
		}
	}
	var recs int64
	for _, w := range r.Covered {
		if w.Err != "" {
			r.Unreadable = append(r.Unreadable, w.RequestedTime)
		}
		recs += w.Totals.NumWrites
	}
	if len(r.Unreadable) == 0 {
		r.RecordsWritten = &recs
	}
	return r
}

// match finds the instant a value names: a requested time first (a write rather than the
// savepoint or clean that shares it), else a stored completion time.
func match(value string, instants []*timeline.Instant) (Match, *timeline.Instant) {
	var byRequested, byCompletion *timeline.Instant
	for _, in := range instants {
		switch value {
		case in.RequestedTime:
			if byRequested == nil || timeline.IsWriteAction(in.Action) && !timeline.IsWriteAction(byRequested.Action) {
				byRequested = in
			}
		case in.CompletionTime:
			if byCompletion == nil && !in.CompletionDerived {
				byCompletion = in
			}
		}
	}
	switch {
	case byRequested != nil:
		return MatchRequested, byRequested
	case byCompletion != nil:
		return MatchCompletion, byCompletion
	}
	return MatchNone, nil
}

// ValidValue refuses a value that cannot be a begin instant time: Hudi compares instant times
// as strings, so a value with anything but digits is never a commit's time and its verdict
// (nothing re-read, whatever it sorts after) would be a promise about a typo.
func ValidValue(v string) error {
	if v == "" {
		return fmt.Errorf("the checkpoint value is empty")
	}
	for _, r := range v {
		if r < '0' || r > '9' {
			return fmt.Errorf("checkpoint value %q is not an instant time: Hudi's begin.instanttime is digits (yyyyMMddHHmmss or yyyyMMddHHmmssSSS; 0 or 000 for the start of the timeline)", v)
		}
	}
	return nil
}

// CheckAll judges a value for every reader in rds (one verdict per release line).
func CheckAll(ctx context.Context, t Table, tl *timeline.Timeline, value string, rds []Reader) []*Report {
	out := make([]*Report, 0, len(rds))
	for _, rd := range rds {
		out = append(out, Check(ctx, t, tl, value, rd))
	}
	return out
}

// Worst is the verdict a pipeline acts on over every reader line: re-read wins, then
// not-safe.
func Worst(rs []*Report) string {
	out := VerdictSafe
	for _, r := range rs {
		switch r.Verdict() {
		case VerdictReRead:
			return VerdictReRead
		case VerdictNotSafe:
			out = VerdictNotSafe
		}
	}
	return out
}

// AnyReRead reports whether any verdict re-reads (the exit status a pipeline acts on).
func AnyReRead(rs []*Report) bool {
	for _, r := range rs {
		if r.ReRead {
			return true
		}
	}
	return false
}

// Start is the earliest begin value with which a reader still reads every retained write.
type Start struct {
	Reader Reader `json:"reader"`
	// Begin is the value to pass as begin.instanttime.
	Begin string `json:"begin"`
	// ReadsFrom is the requested time of the first write the read returns.
	ReadsFrom string `json:"readsFrom"`
	// Reason says what bounds it: the active timeline's start or the cleaner's retention.
	Reason string `json:"reason"`
}

// EarliestStart is the begin value that reads every write still on the active timeline and
// inside the cleaner's retention, in the reader's own terms, so that Check accepts it.
func EarliestStart(ctx context.Context, t Table, tl *timeline.Timeline, rd Reader) (Start, bool) {
	// Only the cleaner's retention is needed: a whole Check lists every write it covers (at
	// 200k commits, megabytes per reader each time a pane takes a snapshot).
	ect := lastCleanRetain(ctx, t, tl)
	var first *timeline.Instant
	reason := "active timeline start"
	for _, in := range tl.Instants {
		if !returnsRecords(in) {
			continue
		}
		if ect != "" && timeline.CompareInstants(in.RequestedTime, ect) < 0 {
			reason = "cleaner's earliest retained commit"
			continue
		}
		if first == nil || timeline.CompareInstants(in.RequestedTime, first.RequestedTime) < 0 {
			first = in
		}
	}
	if first == nil {
		return Start{}, false
	}
	key := first.RequestedTime
	if rd.CompletionOrdered() {
		key = first.CompletionTime
	}
	// One millisecond before the first write's compared time reads it under every rule and
	// names no instant, so no reader re-reads a batch from it.
	return Start{Reader: rd, Begin: shiftMillis(key, -1), ReadsFrom: first.RequestedTime, Reason: reason}, true
}

// Begins are a reader line's two answers to "which begin value?": the one a pipeline stores
// after consuming the latest write (the read from it returns nothing already read), and the
// earliest one whose files the cleaner still keeps. Both are in the reader's own terms, so
// Check accepts each for rd; renderers lay them out and compute nothing.
type Begins struct {
	Reader Reader `json:"reader"`
	// Resume is the begin value that continues after the latest completed write: Check
	// covers nothing and re-reads nothing from it until a new write completes.
	Resume string `json:"resume"`
	// ResumeAfter is the requested time of that latest write.
	ResumeAfter string `json:"resumeAfter"`
	// Earliest is the earliest begin value that still reads every retained write.
	Earliest Start `json:"earliest"`
}

// EarliestLabel names what bounds Earliest: "cleaner retention" or "active timeline".
func (b Begins) EarliestLabel() string {
	if strings.Contains(b.Earliest.Reason, "cleaner") {
		return "cleaner retention"
	}
	return "active timeline"
}

// ReaderBegins computes both begin values for rd; false when no completed write returns
// records (there is nothing to resume after or to read).
func ReaderBegins(ctx context.Context, t Table, tl *timeline.Timeline, rd Reader) (Begins, bool) {
	early, ok := EarliestStart(ctx, t, tl, rd)
	if !ok {
		return Begins{}, false
	}
	b := Begins{Reader: rd, Earliest: early}
	var latest *timeline.Instant
	for _, in := range tl.Instants {
		if !returnsRecords(in) || Compared(rd, in) == "" {
			continue
		}
		// "Latest" in the reader's own order: a 0.x reader compares requested times, so a
		// write that completed last but was requested earlier is not the one to resume after.
		if latest == nil || timeline.CompareInstants(Compared(rd, in), Compared(rd, latest)) > 0 {
			latest = in
		}
	}
	if latest == nil {
		return Begins{}, false
	}
	b.Resume, b.ResumeAfter = ResumeValue(rd, latest), latest.RequestedTime
	return b, true
}

// Compared is the time of in that rd compares begin.instanttime with.
func Compared(rd Reader, in *timeline.Instant) string {
	if rd.CompletionOrdered() {
		return in.CompletionTime
	}
	return in.RequestedTime
}

// ResumeValue is the begin value after which rd returns nothing of in: its compared time
// for an exclusive reader, one millisecond later for an inclusive one (1.0.x).
func ResumeValue(rd Reader, in *timeline.Instant) string {
	key := Compared(rd, in)
	if rd.Inclusive {
		return shiftMillis(key, 1)
	}
	return key
}

// shiftMillis moves an instant time by d milliseconds. A 14-digit time stands for its last
// millisecond (Hudi pads it with 999 when comparing), so the result always has 17 digits.
func shiftMillis(instant string, d int) string {
	t, ok := timeline.ParseInstantTime(instant, time.UTC)
	if !ok {
		// The bootstrap instants (00000000000001, 00000000000002) are no dates: counted as
		// numbers, one before the METADATA_ONLY bootstrap is Hudi's init time 00000000000000,
		// which every reader's rule places before it.
		if n, err := strconv.ParseUint(instant, 10, 64); err == nil && int64(n)+int64(d) >= 0 && len(instant) <= 17 {
			return fmt.Sprintf("%0*d", len(instant), int64(n)+int64(d))
		}
		return instant
	}
	if len(instant) == 14 {
		t = t.Add(999 * time.Millisecond)
	}
	return timeline.FormatInstantTime(t.Add(time.Duration(d)*time.Millisecond), time.UTC)
}

// lastCleanRetain returns earliestCommitToRetain of the newest completed clean.
func lastCleanRetain(ctx context.Context, t Table, tl *timeline.Timeline) string {
	for i := len(tl.Instants) - 1; i >= 0; i-- {
		in := tl.Instants[i]
		if !in.IsClean() || in.State != timeline.Completed {
			continue
		}
		d, err := t.Details(ctx, in)
		if err == nil && d.Clean != nil && d.Clean.EarliestCommitToRetain != "" {
			return d.Clean.EarliestCommitToRetain
		}
	}
	return ""
}
