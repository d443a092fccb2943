package checkpoint

import (
	"fmt"
	"sort"

	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// Query is one incremental read's options, as a pipeline passes them to Spark.
type Query struct {
	Begin string
	End   string // "" unbounded
	// Fallback is hoodie.datasource.read.incr.fallback.fulltablescan.enable (nil: unset).
	Fallback *bool
	// MOR is true for a merge-on-read table (the lines differ there at the archive).
	MOR bool
}

// Plan is what one incremental read returns under a reader line's measured rule: the
// writes whose records come back, the active and the archived ones, or the whole table, or
// "not reproduced" with the reason. Check's verdict and the record reader's rows both come
// from it, so `checkpoint` and `incremental` cannot disagree on what a value reads.
type Plan struct {
	// Writes are the completed writes whose records the read returns, oldest first by the
	// time the reader compares.
	Writes []*timeline.Instant
	// WholeTable: the read returns every record of the table (a full table scan, or a begin
	// older than every write with no end).
	WholeTable bool
	// Skipped are the archived writes after the begin value that the read does NOT return
	// (0.x reads only the active timeline): a pipeline resuming from the value misses them.
	Skipped []*timeline.Instant
	// SkipReason says why they are skipped.
	SkipReason string
	// Partial are returned writes (also in Writes) whose records come back only in part: a
	// pipeline resuming from the value misses the rest.
	Partial       []*timeline.Instant
	PartialReason string
	// Unknown, when set, says why the read's result is not reproduced; Writes are then the
	// ones it returns at least.
	Unknown string
}

// PlanRead applies rd's rule to every completed write of tl, active and archived (the
// archived timeline must be loaded for values older than the active one).
//
// Measured with real Spark (docs/incremental-semantics.md): a value inside the active
// timeline reads the active writes after it. Older values:
//   - 0.x reads only the active writes (the archived ones in between are skipped, fallback
//     unset or false); with the fallback on, a value older than every archived write scans
//     the whole table.
//   - 1.0.x copy-on-write and 1.1+ (both table types) apply the rule to archived writes too
//     (Hudi's IncrementalQueryAnalyzer concatenates the archived timeline); a value older than
//     every write with no end reads the whole table.
//   - 1.0.x merge-on-read depends on the fallback and may miss active writes: not reproduced.
func PlanRead(tl *timeline.Timeline, q Query, rd Reader) Plan {
	var p Plan
	active := activeWrites(tl)
	for _, w := range active {
		if Returns(rd, w, q.Begin) && UpTo(rd, w, q.End) {
			p.Writes = append(p.Writes, w)
		}
	}
	archived := ArchivedWrites(tl)
	inside := len(active) > 0 && timeline.CompareInstants(q.Begin, shiftMillis(active[0].RequestedTime, -1)) >= 0
	// No archived write after the value: the active timeline answers — except for 1.0.x on
	// merge-on-read, whose read from before the active timeline is not reproduced at all
	// (measured: mor-services-1.0.2 p042 returns 0 rows where the active writes have 12).
	if len(archived) == 0 || len(archivedAfter(archived, rd, q)) == 0 && (inside || rd.Line != "1.0.x" || !q.MOR) {
		p.sort(rd)
		return p
	}
	switch {
	case rd.Line == "0.x":
		if q.Fallback != nil && *q.Fallback && q.End == "" && timeline.CompareInstants(q.Begin, archived[0].RequestedTime) < 0 {
			p.WholeTable = true
			p.Writes = append(archivedAfter(archived, rd, q), p.Writes...)
			break
		}
		if q.MOR {
			// The span filter keeps their records wherever an active compaction rewrote them
			// into its base files (measured: mor-archived-0.14.0 p016–p032).
			p.Partial = archivedAfter(archived, rd, q)
			p.Writes = append(append([]*timeline.Instant(nil), p.Partial...), p.Writes...)
			p.PartialReason = "Hudi 0.x reads only the files the active writes name: records of these archived writes come back only where an active compaction rewrote them into its base files"
			break
		}
		p.Skipped = archivedAfter(archived, rd, q)
		p.SkipReason = "Hudi 0.x reads only the active timeline"
	case rd.Line == "1.0.x" && q.MOR:
		p.Unknown = "Hudi 1.0.x's incremental read of a merge-on-read table from before the active timeline depends on the fallback setting and may miss active writes; its result is not reproduced"
	default:
		in := archivedAfter(archived, rd, q)
		// Hudi 1.x finds completion times through CompletionTimeQueryView, whose cursor is
		// the first instant on the active timeline (any action): an archived write requested
		// at or after it has no completion time Java can find, is taken for pending and is
		// not returned. Archival around a savepoint or a restore that stays active leaves
		// such writes (measured: restore-cow-1.1.1, 5 of 9 rows from 000 with Spark 1.1.1).
		cursor := firstInstant(tl)
		var kept []*timeline.Instant
		for _, w := range in {
			if cursor != "" && timeline.CompareInstants(w.RequestedTime, cursor) >= 0 {
				p.Skipped = append(p.Skipped, w)
				p.SkipReason = fmt.Sprintf("they are archived but requested after the active timeline's first instant %s (%s): Hudi %s finds no completion time for them, takes them for pending and does not return them", cursor, firstInstantAction(tl), rd.Line)
				continue
			}
			kept = append(kept, w)
		}
		p.WholeTable = len(kept) == len(archived) && q.End == "" && len(p.Writes) == len(active)
		p.Writes = append(kept, p.Writes...)
	}
	p.sort(rd)
	return p
}

func (p *Plan) sort(rd Reader) {
	sort.SliceStable(p.Writes, func(a, b int) bool {
		return timeline.CompareInstants(Compared(rd, p.Writes[a]), Compared(rd, p.Writes[b])) < 0
	})
}

// firstInstant is the requested time of the oldest instant on the active timeline, any
// action (CompletionTimeQueryView's cursor); "" for an empty timeline.
func firstInstant(tl *timeline.Timeline) string {
	if in := firstActive(tl); in != nil {
		return in.RequestedTime
	}
	return ""
}

// firstInstantAction names the oldest active instant's action, for the reason text.
func firstInstantAction(tl *timeline.Timeline) string {
	if in := firstActive(tl); in != nil {
		return "a " + in.Action
	}
	return ""
}

func firstActive(tl *timeline.Timeline) *timeline.Instant {
	var first *timeline.Instant
	for _, in := range tl.Instants {
		if first == nil || timeline.CompareInstants(in.RequestedTime, first.RequestedTime) < 0 {
			first = in
		}
	}
	return first
}

// archivedAfter are the archived writes rd returns for q.
func archivedAfter(archived []*timeline.Instant, rd Reader, q Query) []*timeline.Instant {
	var out []*timeline.Instant
	for _, w := range archived {
		if Returns(rd, w, q.Begin) && UpTo(rd, w, q.End) {
			out = append(out, w)
		}
	}
	return out
}

// Returns applies the reader's rule to one write: is it after begin?
func Returns(rd Reader, w *timeline.Instant, begin string) bool {
	c := timeline.CompareInstants(Compared(rd, w), begin)
	return c > 0 || rd.Inclusive && c == 0
}

// UpTo reports whether w is within an inclusive end bound ("" is unbounded).
func UpTo(rd Reader, w *timeline.Instant, end string) bool {
	return end == "" || timeline.CompareInstants(Compared(rd, w), end) <= 0
}

// activeWrites are the completed active writes that return records, oldest requested first.
func activeWrites(tl *timeline.Timeline) []*timeline.Instant {
	var out []*timeline.Instant
	for _, in := range tl.Instants {
		if returnsRecords(in) {
			out = append(out, in)
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return timeline.CompareInstants(out[a].RequestedTime, out[b].RequestedTime) < 0 })
	return out
}

// ArchivedWrites are the completed archived writes that return records, oldest requested
// first.
func ArchivedWrites(tl *timeline.Timeline) []*timeline.Instant {
	var out []*timeline.Instant
	for _, in := range tl.Archived {
		if returnsRecords(in) {
			out = append(out, in)
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return timeline.CompareInstants(out[a].RequestedTime, out[b].RequestedTime) < 0 })
	return out
}
