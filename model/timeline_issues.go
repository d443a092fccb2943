package model

import (
	"fmt"
	"strings"

	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// Kinds of InstantIssue.
const (
	// IssueWriteErrors: a completed write whose write stats count failed records.
	IssueWriteErrors = "write errors"
	// IssueStalled: a pending write, clean or rollback older than the newest completed
	// instant: left by an application that died (or, with several writers, one still running).
	IssueStalled = "stalled"
	// IssueIncomplete: a completed write whose completed file is 0 bytes.
	IssueIncomplete = "incomplete"
)

// InstantIssue is something one instant of the timeline says that someone acts on: records
// that failed in a commit that still completed, a write nobody finished, a completed file
// still empty. Message is one line, naming the instant.
type InstantIssue struct {
	In      *timeline.Instant
	Kind    string
	Message string
}

// WriteErrorsText is "29 of 30 records failed to write": numWrites counts only the records
// written (Hudi's write handles count failures apart, in totalWriteErrors).
func WriteErrorsText(t timeline.CommitTotals) string {
	return fmt.Sprintf("%d of %d records failed to write", t.TotalWriteErrors, t.NumWrites+t.TotalWriteErrors)
}

// stallable: pending instants a live table does not leave behind a later completed instant.
// Compaction and clustering plans wait for their executor by design and are listed as pending
// plans; a pending write, clean or rollback behind a completed instant is what a killed
// application leaves (Hudi rolls failed writes back lazily or on the next write).
func stallable(in *timeline.Instant) bool {
	if in.IsCompleted() || in.IsPlannedService("") || in.IsClustering() {
		return false
	}
	return timeline.IsWriteAction(in.Action) || in.IsClean() || in.IsRollback() || in.IsRestore()
}

// PendingName is how a pending instant is named: its plan or action, and state ("commit
// inflight", "clean requested").
func PendingName(in *timeline.Instant) string {
	act := in.Action
	if in.PlanAction != "" {
		act = in.PlanAction
	}
	return act + " " + strings.ToLower(string(in.State))
}

// Stalled reports whether pending instant in was requested before newest, the requested time
// of the newest completed instant (see stallable).
func Stalled(in *timeline.Instant, newest string) bool {
	return stallable(in) && newest != "" && timeline.CompareInstants(in.RequestedTime, newest) < 0
}

// NewestCompleted is the requested time of the newest completed instant of the active
// timeline ("" when none).
func NewestCompleted(tl *timeline.Timeline) string {
	newest := ""
	for _, in := range tl.Instants {
		if in.IsCompleted() && (newest == "" || timeline.CompareInstants(in.RequestedTime, newest) > 0) {
			newest = in.RequestedTime
		}
	}
	return newest
}

// TimelineIssues are the active timeline's instant issues in timeline order. Write errors are
// known only for instants whose metadata was read (a lazily read timeline says nothing of the
// rest until it is).
func TimelineIssues(tl *timeline.Timeline) []InstantIssue {
	if tl == nil {
		return nil
	}
	var out []InstantIssue
	newest := NewestCompleted(tl)
	for _, in := range tl.Instants {
		switch {
		case in.IsCompleted() && in.EmptyCompleted():
			out = append(out, InstantIssue{In: in, Kind: IssueIncomplete,
				Message: fmt.Sprintf("%s %s is incomplete: %s", in.Action, in.RequestedTime, in.Err)})
		case in.IsCompleted() && in.Totals.TotalWriteErrors > 0:
			out = append(out, InstantIssue{In: in, Kind: IssueWriteErrors,
				Message: fmt.Sprintf("%s %s completed with %s (totalWriteErrors in its write stats): those records are not in the table", in.Action, in.RequestedTime, WriteErrorsText(in.Totals))})
		case Stalled(in, newest):
			what, then := "write", "Hudi rolls a failed write back on a later write or clean (lazily with several writers)"
			switch {
			case in.IsClean():
				what, then = "clean", "the next clean runs it again"
			case in.IsRollback() || in.IsRestore():
				what, then = in.Action, "the next write retries it"
			}
			out = append(out, InstantIssue{In: in, Kind: IssueStalled,
				Message: fmt.Sprintf("%s %s is older than the newest completed instant %s: a stalled or abandoned %s (its application died, or another writer is still running it); %s",
					PendingName(in), in.RequestedTime, newest, what, then)})
		}
	}
	return out
}
