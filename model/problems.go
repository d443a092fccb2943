package model

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/hudiscope/hudiscope/analyzers/findings"
	"github.com/hudiscope/hudiscope/internal/redact"
	"github.com/hudiscope/hudiscope/internal/safetext"
)

// Severity says what a problem costs the answers.
type Severity string

const (
	// Error: a load step or a check did not run; what it would have said is unknown.
	Error Severity = "error"
	// Warning: bad input the reader worked around; the rest loaded.
	Warning Severity = "warning"
	// Note: a remark that qualifies an answer (how the event log was found, what a health
	// judgement assumed); not a problem reading the inputs, so never counted as one.
	Note Severity = "note"
)

// Sources of problems.
const (
	SourceStep     = "step"      // a load step failed (File is "step NAME")
	SourceReader   = "reader"    // the table reader's log of damaged files
	SourceEventLog = "event log" // the event-log analyzer's warnings and notes
	SourceHealth   = "health"    // a health check that failed to run, a health note
	// SourceTimeline: what an instant says that needs acting on (TimelineIssues): a commit
	// completed with failed records, a stalled pending write or clean. Not a problem reading
	// the inputs, but counted: the table is not as its last commit suggests.
	SourceTimeline = "timeline"
	// SourceConfig: a supplied writer key the release writing the table does not know (a 1.x
	// name in a 0.14 writer's props): Hudi ignores it silently, so its default applies.
	SourceConfig = "config"
)

// Problem is one problem in the one shape every surface shows: where it came from, the file
// (or step) it is about, how bad it is and what is wrong. Shown and Message are redacted and
// terminal-safe (done here, once); File is the name redacted but not escaped, for copying.
type Problem struct {
	Source   string   `json:"source"`
	File     string   `json:"file"`
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
	// Shown is File relative to the table when it lies inside it, redacted and terminal-safe.
	Shown string `json:"-"`
}

// String is the problem as one line, "FILE: message" (the JSON report's and stderr's form).
func (p Problem) String() string {
	if p.Shown == "" {
		return p.Message
	}
	return p.Shown + ": " + p.Message
}

// Counted reports whether the problem counts as a problem reading the inputs (badge, Overview,
// report): errors and warnings; notes are listed, not counted.
func (p Problem) Counted() bool { return p.Severity != Note }

// CountProblems is the number of problems reading the inputs in ps: what the header badge,
// the Overview, the report and the fleet row count.
func CountProblems(ps []Problem) int {
	n := 0
	for _, p := range ps {
		if p.Counted() {
			n++
		}
	}
	return n
}

// clean is a message or a name as every surface may show it: credentials redacted, unsafe
// runes escaped.
func clean(s string) string { return safetext.Terminal(redact.Text(s)) }

// ProblemList is every problem of the snapshot in one shape, in the order every surface lists
// them: failed steps, the reader's log, the timeline's issues, event-log warnings, health checks that failed to run,
// then the notes. The view layer builds it once per snapshot (view.Build).
func (s *Snapshot) ProblemList() []Problem {
	var out []Problem
	// Paths are shown relative to the table (without a location there is no table to be
	// relative to: "/" would eat every slash).
	root := strings.TrimSuffix(s.Options.Location, "/") + "/"
	add := func(src, file string, sev Severity, msg string) {
		shown := file
		if root != "/" {
			if rel, ok := strings.CutPrefix(file, root); ok && rel != "" {
				shown = rel
			}
			msg = strings.ReplaceAll(msg, root, "")
		}
		// File too is redacted (not escaped: it is for copying): the JSON report, exports and
		// the clipboard carry it (a partition directory named password=…, issue 31).
		out = append(out, Problem{Source: src, File: redact.Text(file), Severity: sev, Message: clean(msg), Shown: clean(shown)})
	}
	// Failed steps in the order they ran; a failure recorded for a step not (yet) in Done
	// still counts (sorted, so the list is stable).
	seen := map[Step]bool{}
	for _, st := range s.Done {
		if err := s.StepErrors[st]; err != nil && !seen[st] {
			seen[st] = true
			add(SourceStep, "step "+string(st), Error, err.Error())
		}
	}
	var rest []string
	for st, err := range s.StepErrors {
		if err != nil && !seen[st] {
			rest = append(rest, string(st))
		}
	}
	sort.Strings(rest)
	for _, st := range rest {
		add(SourceStep, "step "+st, Error, s.StepErrors[Step(st)].Error())
	}
	for _, p := range s.Problems() {
		add(SourceReader, p.File, Warning, p.Err)
	}
	// Keys the writing release ignores (only in a newer release, or dropped before it);
	// misspellings are the findings' (Findings.Misspellings).
	if s.Effective != nil {
		for _, kp := range findings.Default().CheckKeys(s.Effective) {
			if kp.Kind == findings.KeyNewer || kp.Kind == findings.KeyRemoved {
				add(SourceConfig, kp.Origin, Warning, "ignored: "+kp.Text)
			}
		}
	}
	// A 0-byte completed file is already in the reader's log (it names the file).
	for _, is := range TimelineIssues(s.Timeline) {
		if is.Kind != IssueIncomplete {
			add(SourceTimeline, "instant "+is.In.RequestedTime, Warning, is.Message)
		}
	}
	if r := s.EventLog; r != nil {
		for _, w := range r.Warnings {
			add(SourceEventLog, s.Options.EventLog, Warning, w)
		}
	}
	if h := s.Health; h != nil {
		for _, e := range h.Errors {
			add(SourceHealth, "health", Error, e)
		}
	}
	// Notes last: they qualify answers and are not problems reading the inputs.
	if r := s.EventLog; r != nil {
		for _, n := range r.Hudiscope.Source.Notes {
			add(SourceEventLog, s.Options.EventLog, Note, n)
		}
	}
	if h := s.Health; h != nil && h.Hudiscope != nil {
		for _, n := range h.Hudiscope.Notes {
			add(SourceHealth, "health", Note, n)
		}
	}
	return out
}

// FoldKeep is how many problems of one kind the text forms list before folding the rest.
const FoldKeep = 3

// ProblemLine is a line of a folded problem list: a problem, or (More > 0) the note that More
// further problems like Problem follow in the full list (-o json).
type ProblemLine struct {
	Problem
	More int
}

// String is the line as stderr and the Markdown report print it.
func (l ProblemLine) String() string {
	if l.More == 0 {
		return l.Problem.String()
	}
	return fmt.Sprintf("… and %d more like this (%s; -o json lists all)", l.More, problemLike(l.Problem))
}

// FoldProblems bounds the noise of a damaged table (100,000 garbage plans were 100,000 warning
// lines): problems alike (same source, severity, file kind and message, digits aside) are listed
// keep at a time, then one line counting the rest, in the place of the first one left out.
func FoldProblems(ps []Problem, keep int) []ProblemLine {
	total := map[string]int{}
	for _, p := range ps {
		total[problemShape(p)]++
	}
	seen := map[string]int{}
	out := make([]ProblemLine, 0, min(len(ps), len(total)*(keep+1)))
	for _, p := range ps {
		k := problemShape(p)
		seen[k]++
		switch n := seen[k]; {
		case n <= keep:
			out = append(out, ProblemLine{Problem: p})
		case n == keep+1:
			out = append(out, ProblemLine{Problem: p, More: total[k] - keep})
		}
	}
	return out
}

// problemShape is what problems alike share: the file's base name and the message with runs of
// digits as "N" (instant times, offsets, sizes), under the source and severity.
func problemShape(p Problem) string {
	return string(p.Severity) + " " + p.Source + " " + problemLike(p)
}

// problemLike is the shape as shown: "…/N.compaction.requested: neither valid JSON …".
func problemLike(p Problem) string {
	shown := p.Shown
	if i := strings.LastIndexByte(shown, '/'); i >= 0 {
		shown = "…/" + shown[i+1:]
	}
	return digitRuns.ReplaceAllString(shown, "N") + ": " + digitRuns.ReplaceAllString(p.Message, "N")
}

var digitRuns = regexp.MustCompile(`[0-9]+`)
