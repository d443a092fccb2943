package checkpoint

import "fmt"

// Lines explains a report in plain words; the CLI and the TUI's
// checkpoint helper show the same text.
func Lines(r *Report) []string {
	var out []string
	order := "requested (instant) times"
	if r.CompletionOrdered {
		order = "completion times"
	}
	switch r.Match {
	case MatchRequested:
		in := r.Instant
		s := fmt.Sprintf("%s is the requested (instant) time of %s %s", r.Value, in.Action, in.RequestedTime)
		if in.CompletionTime != "" {
			s += fmt.Sprintf(", which completed at %s", in.CompletionTime)
			if in.CompletionDerived {
				s += " (derived from file time)"
			}
		}
		if in.Archived {
			s += " (archived)"
		}
		out = append(out, s+".")
	case MatchCompletion:
		out = append(out, fmt.Sprintf("%s is the completion time of %s %s (requested %s).", r.Value, r.Instant.Action, r.Instant.RequestedTime, r.Instant.RequestedTime))
	default:
		out = append(out, fmt.Sprintf("%s is neither the requested nor the completion time of any instant on the timeline.", r.Value))
	}
	out = append(out, fmt.Sprintf("Incremental reads on this table compare begin.instanttime with %s.", order))
	if r.ActiveStart != "" {
		if r.InActiveTimeline {
			out = append(out, fmt.Sprintf("Inside the active timeline (it starts at %s).", r.ActiveStart))
		} else {
			out = append(out, fmt.Sprintf("OLDER than the active timeline (it starts at %s): instants in between are archived; the read falls back to a full table scan or fails.", r.ActiveStart))
		}
	}
	if r.EarliestCommitToRetain != "" {
		if r.InCleanerRetention {
			out = append(out, fmt.Sprintf("Inside the cleaner's retention (earliest commit retained: %s).", r.EarliestCommitToRetain))
		} else {
			out = append(out, fmt.Sprintf("OLDER than the cleaner's retention (earliest commit retained: %s): files the read needs may be deleted.", r.EarliestCommitToRetain))
		}
	}
	var recs int64
	for _, in := range r.Covered {
		recs += in.Totals.NumWrites
	}
	out = append(out, fmt.Sprintf("An incremental read with begin.instanttime=%s covers %d instant(s), %d record(s) written:", r.Value, len(r.Covered), recs))
	for _, in := range r.Covered {
		mark := ""
		if r.ReRead && in == r.Instant {
			mark = "   ← RE-READ"
		}
		out = append(out, fmt.Sprintf("  %s → %s  %-13s %-16s %d written (%d inserted, %d updated, %d deleted)%s",
			in.RequestedTime, in.CompletionTime, in.Action, in.Operation, in.Totals.NumWrites, in.Totals.NumInserts,
			in.Totals.NumUpdateWrites, in.Totals.NumDeletes, mark))
	}
	if r.ReRead {
		out = append(out, fmt.Sprintf("WARNING: %s is an instant time (as in _hoodie_commit_time), not a completion time. "+
			"The read returns instant %s again, so the previous batch is re-read. Use its completion time %s as the checkpoint.",
			r.Value, r.Instant.RequestedTime, r.Instant.CompletionTime))
	}
	return out
}
