package report

import (
	"fmt"
	"strings"

	"github.com/hudiscope/hudiscope/analyzers/checkpoint"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// CheckpointLines explains a report in plain words; the CLI and the TUI's
// checkpoint helper show the same text.
func CheckpointLines(r *checkpoint.Report) []string {
	var out []string
	order := "requested (instant) times"
	if r.CompletionOrdered {
		order = "completion times"
	}
	edge := "a write whose time equals the begin value is not returned"
	if r.Reader.Inclusive {
		edge = "a write whose time equals the begin value IS returned"
	}
	switch r.Match {
	case checkpoint.MatchRequested:
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
	case checkpoint.MatchCompletion:
		out = append(out, fmt.Sprintf("%s is the completion time of %s %s (requested %s).", r.Value, r.Instant.Action, r.Instant.RequestedTime, r.Instant.RequestedTime))
	default:
		out = append(out, fmt.Sprintf("%s is neither the requested nor the completion time of any instant on the timeline.", r.Value))
	}
	out = append(out, fmt.Sprintf("Hudi %s readers compare begin.instanttime with %s (%s).", readerName(r.Reader), order, edge))
	if r.Reader.Note != "" {
		out = append(out, "Note: "+r.Reader.Note+".")
	}
	if r.ActiveStart != "" {
		if r.InActiveTimeline {
			out = append(out, fmt.Sprintf("Inside the active timeline (it starts at %s).", r.ActiveStart))
		} else {
			out = append(out, fmt.Sprintf("OLDER than the active timeline (it starts at %s): instants in between are archived. %s", r.ActiveStart, r.Reader.BeforeActive()))
		}
	}
	if r.EarliestCommitToRetain != "" {
		if r.InCleanerRetention {
			out = append(out, fmt.Sprintf("Inside the cleaner's retention (earliest commit retained: %s).", r.EarliestCommitToRetain))
		} else {
			out = append(out, fmt.Sprintf("OLDER than the cleaner's retention (earliest commit retained: %s): files the read needs may be deleted.", r.EarliestCommitToRetain))
		}
	}
	written := "unknown record(s) written"
	if r.RecordsWritten != nil {
		written = fmt.Sprintf("%d record(s) written", *r.RecordsWritten)
	} else {
		written += fmt.Sprintf(" (the metadata of %d of them cannot be read)", len(r.Unreadable))
	}
	out = append(out, fmt.Sprintf("An incremental read with begin.instanttime=%s covers %d instant(s), %s:", r.Value, len(r.Covered), written))
	for _, in := range r.Covered {
		mark := ""
		if r.ReRead && in == r.Instant {
			mark = "   ← RE-READ"
		}
		if in.Archived {
			mark = "   (archived)" + mark
		}
		counts := fmt.Sprintf("%d written (%d inserted, %d updated, %d deleted)", in.Totals.NumWrites, in.Totals.NumInserts,
			in.Totals.NumUpdateWrites, in.Totals.NumDeletes)
		if in.Err != "" {
			counts = "? written (unreadable: " + in.Err + ")"
		}
		out = append(out, fmt.Sprintf("  %s → %s  %-13s %-16s %s%s",
			in.RequestedTime, in.CompletionTime, in.Action, in.Operation, counts, mark))
	}
	if rw := r.Rows; rw != nil {
		if rw.Error != "" {
			out = append(out, "  rows returned: unknown ("+rw.Error+")")
		} else if r.Instant != nil {
			out = append(out, fmt.Sprintf("  rows returned: %d, of them %d written by %s %s (the instant the value names)", rw.Total, rw.ReRead, r.Instant.Action, r.Instant.RequestedTime))
		} else {
			out = append(out, fmt.Sprintf("  rows returned: %d", rw.Total))
		}
	}
	if r.WholeTable {
		out = append(out, "  (older than every write: the read returns every record of the table)")
	}
	if len(r.Skipped) > 0 {
		out = append(out, fmt.Sprintf("NOT SAFE: %d archived write(s) after %s are skipped by this reader (%s … %s; %s): a pipeline resuming from this value never reads their records.",
			len(r.Skipped), r.Value, r.Skipped[0].RequestedTime, r.Skipped[len(r.Skipped)-1].RequestedTime, r.SkipReason))
	}
	if len(r.Partial) > 0 {
		out = append(out, fmt.Sprintf("NOT SAFE: %d archived write(s) after %s come back only in part (%s): a pipeline resuming from this value misses the rest of their records.",
			len(r.Partial), r.Value, r.PartialReason))
	}
	if r.Unknown != "" {
		out = append(out, "NOT SAFE: "+r.Unknown+".")
	}
	if !r.ReRead && !r.InCleanerRetention && r.EarliestCommitToRetain != "" {
		out = append(out, fmt.Sprintf("NOT SAFE: the value is older than the cleaner's retention (%s): the read depends on files the cleaner may have deleted; start from a value inside it.", r.EarliestCommitToRetain))
	}
	if r.ReRead {
		safe := CheckpointSafeBegin(r.Reader, r.Instant)
		if r.Match == checkpoint.MatchRequested {
			out = append(out, fmt.Sprintf("WARNING: %s is an instant time (as in _hoodie_commit_time), not a completion time. "+
				"The read returns instant %s again, so the previous batch is re-read. Use %s as the checkpoint.",
				r.Value, r.Instant.RequestedTime, safe))
		} else {
			out = append(out, fmt.Sprintf("WARNING: Hudi %s returns writes completed AT the begin value too: the read returns instant %s again, "+
				"so the previous batch is re-read. Use %s as the checkpoint.", readerName(r.Reader), r.Instant.RequestedTime, safe))
		}
	}
	return out
}

// readerName is the reader as a user named it (the release) or its line.
func readerName(r checkpoint.Reader) string {
	if r.Release != "" {
		return r.Release + " (" + r.Line + ")"
	}
	return r.Line
}

// CheckpointSafeBegin is the begin value that continues after instant in without reading it again.
func CheckpointSafeBegin(rd checkpoint.Reader, in *timeline.Instant) string {
	key := checkpoint.Compared(rd, in)
	if rd.Inclusive {
		return checkpoint.ResumeValue(rd, in) + " (one millisecond after its completion time " + key + ")"
	}
	if rd.CompletionOrdered() {
		return "its completion time " + key
	}
	return "its instant time " + key
}

// CheckpointVerdictLines explains one verdict per reader line. When they agree only one is told; when
// they differ each is told under its release line, so nobody acts on the wrong one.
func CheckpointVerdictLines(rs []*checkpoint.Report) []string {
	if len(rs) == 1 {
		return CheckpointLines(rs[0])
	}
	var names []string
	same := true
	for _, r := range rs {
		names = append(names, r.Reader.Line)
		same = same && r.ReRead == rs[0].ReRead && r.Verdict() == rs[0].Verdict() && len(r.Covered) == len(rs[0].Covered)
	}
	if same {
		out := CheckpointLines(rs[0])
		out[1] = fmt.Sprintf("Hudi %s readers agree on this value (the release that reads is not known; name it with --hudi-version).", strings.Join(names, " and "))
		return out
	}
	lines := []string{fmt.Sprintf("The verdict depends on the Hudi release that reads (%s); name it with --hudi-version.", strings.Join(names, " or "))}
	for _, r := range rs {
		lines = append(lines, "", fmt.Sprintf("If read by Hudi %s:", readerName(r.Reader)))
		for _, l := range CheckpointLines(r) {
			lines = append(lines, "  "+l)
		}
	}
	return lines
}
