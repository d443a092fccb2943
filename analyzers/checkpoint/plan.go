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
	archived := archivedWrites(tl)
	inside := len(active) > 0 && timeline.CompareInstants(q.Begin, shiftMillis(active[0].RequestedTime, -1)) >= 0
	// No archived write after the value: the active timeline answers — except for 1.0.x on
	// merge-on-read, whose read from before the active timeline is not reproduced at all
	// (measured: mor-services-1.0.2 p042 returns 0 rows where the active writes have 12).
	if len(archivedAfter(archived, rd, q)) == 0 && (inside || rd.Line != "1.0.x" || !q.MOR) {
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
		// Hudi's IncrementalQueryAnalyzer takes an instant for archived only when it was
		// requested before the active timeline's first non-savepoint write
		// (CompletionTimeQueryView.isArchived), and looks every later one up on the active
		// timeline. An archived write past that point — a hole left by archival around a
		// savepoint or a restore — is in neither list: the read silently drops it.
		fns := firstNonSavepointWrite(tl)
		restore := firstRestore(tl)
		var kept []*timeline.Instant
		for _, w := range in {
			switch {
			case restore != "" && timeline.CompareInstants(w.RequestedTime, restore) > 0 && rd.Line != "1.1+":
				// Not measured for this line: say so rather than guess.
				kept = append(kept, w)
				p.Unknown = fmt.Sprintf("the restore %s is still on the active timeline with archived writes after it; what Hudi %s returns then was not measured (1.1+ skips those writes)", restore, rd.Line)
			case restore != "" && timeline.CompareInstants(w.RequestedTime, restore) > 0:
				// Measured (restore-cow-1.1.1, Spark 1.1.1): with a restore still on the active
				// timeline, archived writes requested after it are not returned, whatever the
				// fallback. The rule is not found in Hudi's source; it is reproduced as measured.
				p.Skipped = append(p.Skipped, w)
				p.SkipReason = fmt.Sprintf("they are archived but requested after the restore %s, which is still on the active timeline: Hudi %s does not return them (measured with Spark 1.1.1; a restore at %s limits what this reader returns)", restore, rd.Line, restore)
			case fns != "" && timeline.CompareInstants(w.RequestedTime, fns) >= 0:
				p.Skipped = append(p.Skipped, w)
				p.SkipReason = fmt.Sprintf("they are archived but requested after the active timeline's first non-savepoint write %s (a hole archival left around a savepoint or restore): Hudi %s looks them up on the active timeline and drops them", fns, rd.Line)
			default:
				kept = append(kept, w)
			}
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

// firstNonSavepointWrite is the requested time of the first instant on the active write
// timeline (commits, delta commits, replace commits, compaction and clustering, any state)
// that no savepoint names: where Hudi 1.x considers the archive to end.
func firstNonSavepointWrite(tl *timeline.Timeline) string {
	saved := map[string]bool{}
	for _, in := range tl.Instants {
		if in.Action == timeline.ActionSavepoint {
			saved[in.RequestedTime] = true
		}
	}
	first := ""
	for _, in := range tl.Instants {
		switch in.Action {
		case timeline.ActionCommit, timeline.ActionDeltaCommit, timeline.ActionReplaceCommit, timeline.ActionCompaction, timeline.ActionClustering, timeline.ActionLogCompaction:
		default:
			continue
		}
		if saved[in.RequestedTime] {
			continue
		}
		if first == "" || timeline.CompareInstants(in.RequestedTime, first) < 0 {
			first = in.RequestedTime
		}
	}
	return first
}

// firstRestore is the requested time of the oldest restore on the active timeline ("" none).
func firstRestore(tl *timeline.Timeline) string {
	first := ""
	for _, in := range tl.Instants {
		if in.Action == timeline.ActionRestore && (first == "" || timeline.CompareInstants(in.RequestedTime, first) < 0) {
			first = in.RequestedTime
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

// archivedWrites are the completed archived writes that return records, oldest first.
func archivedWrites(tl *timeline.Timeline) []*timeline.Instant {
	var out []*timeline.Instant
	for _, in := range tl.Archived {
		if returnsRecords(in) {
			out = append(out, in)
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return timeline.CompareInstants(out[a].RequestedTime, out[b].RequestedTime) < 0 })
	return out
}
