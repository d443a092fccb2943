package checkpoint

import (
	"fmt"
	"strings"

	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// Lines explains a report in plain words; the CLI and the TUI's
// checkpoint helper show the same text.
func Lines(r *Report) []string {
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
	out = append(out, fmt.Sprintf("Hudi %s readers compare begin.instanttime with %s (%s).", r.Reader.name(), order, edge))
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
		safe := SafeBegin(r.Reader, r.Instant)
		if r.Match == MatchRequested {
			out = append(out, fmt.Sprintf("WARNING: %s is an instant time (as in _hoodie_commit_time), not a completion time. "+
				"The read returns instant %s again, so the previous batch is re-read. Use %s as the checkpoint.",
				r.Value, r.Instant.RequestedTime, safe))
		} else {
			out = append(out, fmt.Sprintf("WARNING: Hudi %s returns writes completed AT the begin value too: the read returns instant %s again, "+
				"so the previous batch is re-read. Use %s as the checkpoint.", r.Reader.name(), r.Instant.RequestedTime, safe))
		}
	}
	return out
}

// name is the reader as a user named it (the release) or its line.
func (r Reader) name() string {
	if r.Release != "" {
		return r.Release + " (" + r.Line + ")"
	}
	return r.Line
}

// SafeBegin is the begin value that continues after instant in without reading it again.
func SafeBegin(rd Reader, in *timeline.Instant) string {
	key := compared(rd, in)
	if rd.Inclusive {
		return resumeValue(rd, in) + " (one millisecond after its completion time " + key + ")"
	}
	if rd.CompletionOrdered() {
		return "its completion time " + key
	}
	return "its instant time " + key
}

// VerdictLines explains one verdict per reader line. When they agree only one is told; when
// they differ each is told under its release line, so nobody acts on the wrong one.
func VerdictLines(rs []*Report) []string {
	if len(rs) == 1 {
		return Lines(rs[0])
	}
	var names []string
	same := true
	for _, r := range rs {
		names = append(names, r.Reader.Line)
		same = same && r.ReRead == rs[0].ReRead && len(r.Covered) == len(rs[0].Covered)
	}
	if same {
		out := Lines(rs[0])
		out[1] = fmt.Sprintf("Hudi %s readers agree on this value (the release that reads is not known; name it with --hudi-version).", strings.Join(names, " and "))
		return out
	}
	lines := []string{fmt.Sprintf("The verdict depends on the Hudi release that reads (%s); name it with --hudi-version.", strings.Join(names, " or "))}
	for _, r := range rs {
		lines = append(lines, "", fmt.Sprintf("If read by Hudi %s:", r.Reader.name()))
		for _, l := range Lines(r) {
			lines = append(lines, "  "+l)
		}
	}
	return lines
}
