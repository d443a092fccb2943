package view

import (
	"time"

	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/model"
)

// LateNote explains the out-of-order mark (the explorer's ↯).
const LateNote = "completed after a later-started instant"

// TimelineRow is one instant as every timeline listing shows it: the instant, whether it
// completed after a later-started one (↯), the derived-completion mark and its duration.
type TimelineRow struct {
	In *timeline.Instant
	// Late: requested and completion order disagree here (model.LateCompletions over the list).
	Late bool
	// Mark follows the completion time: Approx when derived from a time kept to a second or
	// coarser, Derived when from a finer one, "" when stored.
	Mark string
	// Dur is the requested→completion duration (0: unknown, shown "-"); DurApprox says it is
	// the middle of the possible durations of a coarse completion time (shown with `≈`).
	Dur       time.Duration
	DurApprox bool
	// Kind is what the instant does, by the timeline's predicates (Kinds, in drawing order).
	Kind Kind
	// Notes are what the instant says that needs acting on: records that failed in a
	// completed commit, a pending write or clean behind a completed instant (stalled).
	Notes []string
}

// ErrLabel names an instant's Err: "incomplete" for a completed file still 0 bytes (a write
// finishing it, or killed doing so), else "unreadable".
func ErrLabel(in *timeline.Instant) string {
	if in.EmptyCompleted() {
		return "incomplete"
	}
	return "unreadable"
}

// StalledNote marks a pending write, clean or rollback older than the newest completed instant.
const StalledNote = "stalled: older than the newest completed instant"

// instantNotes are TimelineRow.Notes of in, newest the newest completed requested time.
func instantNotes(in *timeline.Instant, newest string) []string {
	var out []string
	if in.IsCompleted() && in.Totals.TotalWriteErrors > 0 {
		out = append(out, model.WriteErrorsText(in.Totals))
	}
	if model.Stalled(in, newest) {
		out = append(out, StalledNote)
	}
	return out
}

// Kind is an instant's kind for drawing and grouping.
type Kind int

// The kinds, in the order a legend lists them.
const (
	KindCommit Kind = iota
	KindDeltaCommit
	KindClustering
	KindCompaction
	KindClean
	KindRollback
	KindSavepoint
	KindOther
)

// Kinds are the kinds' names, indexed by Kind.
var Kinds = []string{"commit", "deltacommit", "clustering", "compaction", "clean", "rollback", "savepoint", "other"}

func (k Kind) String() string { return Kinds[k] }

// KindOf is the kind of an instant. A replacecommit that is not clustering (insert_overwrite,
// delete_partition) is a write; a restore undoes writes as a rollback does.
func KindOf(in *timeline.Instant) Kind {
	switch {
	case in.IsClustering():
		return KindClustering
	case in.IsCompaction("") || in.IsLogCompaction():
		return KindCompaction
	case in.IsCommit() || in.IsReplaceCommit():
		return KindCommit
	case in.IsDeltaCommit():
		return KindDeltaCommit
	case in.IsClean():
		return KindClean
	case in.IsRollback() || in.IsRestore():
		return KindRollback
	case in.IsSavepoint():
		return KindSavepoint
	}
	return KindOther
}

// The derived-completion marks (ASCII surfaces swap the glyphs, keyed on these).
const (
	Approx  = "≈"
	Derived = "~"
)

// TimelineRows are the rows of instants in the order given (the late mark compares each with
// the ones listed after it).
func TimelineRows(instants []*timeline.Instant) []TimelineRow {
	late := model.LateCompletions(instants)
	newest := model.NewestCompleted(&timeline.Timeline{Instants: instants})
	out := make([]TimelineRow, len(instants))
	for i, in := range instants {
		r := TimelineRow{In: in, Late: late[i], Mark: DerivedMark(in), Kind: KindOf(in), Notes: instantNotes(in, newest)}
		r.Dur, r.DurApprox = Duration(in)
		out[i] = r
	}
	return out
}

// TimelineRowsOf are the rows of sel, a selection of all (view.FilterInstants), in sel's
// order: the late mark and the stalled note are judged over all, so a filtered listing marks
// the same instants as the whole one.
func TimelineRowsOf(all, sel []*timeline.Instant) []TimelineRow {
	late := model.LateCompletions(all)
	isLate := make(map[*timeline.Instant]bool)
	for i, l := range late {
		if l {
			isLate[all[i]] = true
		}
	}
	newest := model.NewestCompleted(&timeline.Timeline{Instants: all})
	out := make([]TimelineRow, len(sel))
	for i, in := range sel {
		r := TimelineRow{In: in, Late: isLate[in], Mark: DerivedMark(in), Kind: KindOf(in), Notes: instantNotes(in, newest)}
		r.Dur, r.DurApprox = Duration(in)
		out[i] = r
	}
	return out
}

// Duration is an instant's requested→completion duration (0: unknown) and whether it is only
// the middle of the possible durations (a completion time known to about a second).
func Duration(in *timeline.Instant) (time.Duration, bool) {
	if in.CoarseCompletion() && in.IsCompleted() && !in.Started.IsZero() && !in.Ended.IsZero() && !in.IsSavepoint() {
		return in.MidDuration(), true
	}
	return max(0, in.Duration()), false
}
