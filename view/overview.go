package view

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hudiscope/hudiscope/analyzers/checkpoint"
	"github.com/hudiscope/hudiscope/analyzers/health"
	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/internal/clock"
	"github.com/hudiscope/hudiscope/internal/safetext"
	"github.com/hudiscope/hudiscope/internal/units"
	"github.com/hudiscope/hudiscope/model"
)

// Link is where a fact leads: the pane and the row behind it (empty fields: the pane's top).
type Link struct {
	Pane, Instant, Partition, Check, Finding string
}

// ProblemsPane is the Link.Pane of the problems list.
const ProblemsPane = "Problems"

// Seg is one piece of a fact's value. Times are kept raw so each surface shows them its own
// way (the explorer's zone key, the report's instant strings); the rest is text.
type Seg struct {
	Text string
	// Instant is an instant time string in the table's zone, shown as the surface shows
	// instants.
	Instant string
	// Age, when set, is shown as how long ago it was ("3h ago").
	Age time.Time
	// Sep is the surface's separator between two parts of a value (" · ").
	Sep bool
}

// Fact is one labelled line of the Overview: the facts an on-call engineer asks first. Label
// is "" on a continuation line.
type Fact struct {
	Label string
	Value []Seg
	Link  Link
	// CopyLabel and CopyValue are the raw value a surface copies ("" when there is none).
	CopyLabel, CopyValue string
	// Bad: the fact needs attention (a pending plan, an unhealthy check, a problem).
	Bad bool
}

// Format says how a surface shows the parts of a value.
type Format struct {
	Sep     string
	Instant func(raw string) string
	Age     func(t time.Time) string
}

// Text is the fact's value laid out in format f.
func (x Fact) Text(f Format) string {
	var b strings.Builder
	for _, s := range x.Value {
		switch {
		case s.Sep:
			b.WriteString(f.Sep)
		case s.Instant != "":
			b.WriteString(f.Instant(s.Instant))
		case !s.Age.IsZero():
			b.WriteString(f.Age(s.Age))
		default:
			b.WriteString(s.Text)
		}
	}
	return b.String()
}

// Age is how long before now t was ("3h ago"; "in 5m" for a time ahead of now; "-" unknown).
func Age(now, t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	d := now.Sub(t)
	switch {
	case d < 0:
		return "in " + units.Age(-d)
	case d < time.Second:
		return "just now"
	}
	return units.Age(d) + " ago"
}

// Begins are the incremental begin values the Overview shows, once computed (they read instant
// details, so a surface may compute them off the main loop): Known is false until then.
type Begins struct {
	List  []checkpoint.Begins
	Known bool
}

// overview is what Build computes of the Overview: the facts before the begin values and
// after them (the begins are spliced in by Overview).
type overview struct {
	before, after []Fact
	hasTimeline   bool
}

// Overview is the Overview's facts, with the begin values b.
func (v *Snapshot) Overview(b Begins) []Fact {
	o := v.overview
	out := append([]Fact(nil), o.before...)
	// Two begin values per reader line, each labelled with the question it answers: the one a
	// pipeline stores next (reading from the earliest one re-reads what it consumed) and how
	// far back the cleaner still serves.
	for _, x := range b.List {
		out = append(out, Fact{Label: "incr. " + x.Reader.Line, Value: text("resume after the latest commit: " + x.Resume),
			Link:      Link{Pane: "Timeline", Instant: x.ResumeAfter},
			CopyLabel: "begin.instanttime", CopyValue: "hoodie.datasource.read.begin.instanttime=" + x.Resume})
		out = append(out, Fact{Value: text("earliest readable (" + x.EarliestLabel() + "): " + x.Earliest.Begin),
			Link:      Link{Pane: "Timeline", Instant: x.Earliest.ReadsFrom},
			CopyLabel: "begin.instanttime", CopyValue: "hoodie.datasource.read.begin.instanttime=" + x.Earliest.Begin})
	}
	if o.hasTimeline && len(b.List) == 0 && b.Known {
		out = append(out, Fact{Label: "incr. begin", Value: text("no write to read on the active timeline"), Link: Link{Pane: "Timeline"}})
	}
	return append(out, o.after...)
}

// Zone is the zone the table's instant strings are written in.
func (v *Snapshot) Zone() *time.Location {
	if s := v.Model; s != nil && s.Config != nil && s.Config.Zone != nil {
		return s.Config.Zone
	}
	return time.UTC
}

// Now is the snapshot's clock (model.Options.Now; internal/clock by default).
func (v *Snapshot) Now() time.Time {
	if s := v.Model; s != nil && s.Options.Now != nil {
		return s.Options.Now()
	}
	return clock.Now()
}

func text(s string) []Seg { return []Seg{{Text: s}} }

var sep = Seg{Sep: true}

// HudiLine is the Hudi release line that writes a table version.
func HudiLine(v int) string {
	switch v {
	case 4:
		return "0.11"
	case 5:
		return "0.12/0.13"
	case 6:
		return "0.14/0.15"
	case 7:
		return "1.0 beta"
	case 8:
		return "1.0"
	case 9:
		return "1.1+"
	}
	return "unknown"
}

// PartitionName is a partition path as shown: the table root has a name.
func PartitionName(p string) string {
	if p == "" {
		return "(table root)"
	}
	return p
}

// DerivedMark is the mark after a completion time: `≈` when derived from a file time kept to a
// second or coarser, `~` when derived from a finer one, "" when stored.
func DerivedMark(in *timeline.Instant) string {
	switch {
	case in.CompletionTime == "":
		return ""
	case in.CoarseCompletion():
		return "≈"
	case in.CompletionDerived:
		return "~"
	}
	return ""
}

// LastCommit is the completed write that completed last on the active timeline (nil: none),
// and what is pending in timeline order: compaction and clustering plans, and writes, cleans
// and rollbacks not completed (a killed writer's inflight commit, a clean.requested). A
// pending savepoint or indexing instant is not listed.
func LastCommit(tl *timeline.Timeline) (last *timeline.Instant, pending []*timeline.Instant) {
	last = model.LastCommit(tl) // the fleet row's too
	for _, in := range tl.Instants {
		if in.IsCompleted() {
			continue
		}
		// Pending: the table type decides only completed commits.
		if in.IsPlannedService("") || timeline.IsWriteAction(in.Action) || in.IsClean() || in.IsRollback() || in.IsRestore() {
			pending = append(pending, in)
		}
	}
	return last, pending
}

// stepState says plainly why a step's facts are missing.
func stepState(s *model.Snapshot, st model.Step) string {
	switch {
	case s.StepErrors[st] != nil:
		return "failed: " + s.StepErrors[st].Error()
	case s.HasRun(st):
		return "not available"
	case !s.LoadedAt.IsZero():
		// The load is over (LoadedAt is set at its end): what was not read will not be.
		return "not read"
	}
	return "not read yet"
}

// maxPending is how many pending plans the Overview names before "and N more".
const maxPending = 3

func buildOverview(v *Snapshot) overview {
	s := v.Model
	var o overview
	add := func(f Fact) { o.before = append(o.before, f) }
	if c := s.Config; c != nil {
		val := []Seg{{Text: c.Name}, sep, {Text: c.Type}}
		if c.Database != "" {
			val[0].Text = c.Database + "." + c.Name
		}
		add(Fact{Label: "table", Value: val, Link: Link{Pane: "Layout"}, CopyLabel: "table name", CopyValue: c.Name})
		add(Fact{Label: "version", Value: []Seg{{Text: fmt.Sprintf("table version %d", c.Version)}, sep, {Text: "written by Hudi " + HudiLine(c.Version)}},
			Link: Link{Pane: "Timeline"}, CopyLabel: "hoodie.table.version", CopyValue: "hoodie.table.version=" + strconv.Itoa(c.Version)})
	}
	if r := s.Layout; r != nil {
		big := ""
		if len(r.Rows) > 0 {
			big = r.Rows[0].Partition
		}
		add(Fact{Label: "size", Value: text(units.Bytes(r.TotalBytes) + " (latest base files)"), Link: Link{Pane: "Layout"},
			CopyLabel: "size in bytes", CopyValue: strconv.FormatInt(r.TotalBytes, 10)})
		pv := []Seg{{Text: strconv.Itoa(r.NumPartitions)}}
		if big != "" && r.NumPartitions > 1 {
			pv = append(pv, sep, Seg{Text: "largest " + safetext.Terminal(PartitionName(big)) + " (" + units.Bytes(r.Rows[0].TotalBytes) + ")"})
		}
		add(Fact{Label: "partitions", Value: pv, Link: Link{Pane: "Layout", Partition: big}, CopyLabel: "partition", CopyValue: big})
		fv := []Seg{{Text: strconv.FormatInt(r.TotalFiles, 10) + " base files"}}
		if st := r.TableSizeStats; st.Count > 0 {
			fv = append(fv, sep, Seg{Text: "median " + units.Bytes(st.P50)})
		}
		add(Fact{Label: "files", Value: fv, Link: Link{Pane: "Layout"}, CopyLabel: "files", CopyValue: strconv.FormatInt(r.TotalFiles, 10)})
	} else {
		add(Fact{Label: "size", Value: text(stepState(s, model.StepLayout)), Link: Link{Pane: "Layout"}})
	}
	if s.Timeline != nil {
		o.hasTimeline = true
		last, pending := LastCommit(s.Timeline)
		if last != nil {
			what := last.Action
			if last.Operation != "" {
				what += " " + last.Operation
			}
			add(Fact{Label: "last commit", Value: []Seg{{Instant: last.CompletionTime}, {Text: DerivedMark(last) + " ("}, {Age: last.Ended}, {Text: ")"}, sep, {Text: what}},
				Link: Link{Pane: "Timeline", Instant: last.RequestedTime}, CopyLabel: "instant", CopyValue: last.RequestedTime})
		} else {
			add(Fact{Label: "last commit", Value: text("none on the active timeline"), Link: Link{Pane: "Timeline"}})
		}
		if len(pending) == 0 {
			add(Fact{Label: "pending", Value: text("no compaction or clustering plan"), Link: Link{Pane: "Timeline"}})
		}
		newest := model.NewestCompleted(s.Timeline)
		for i, in := range pending {
			if i == maxPending {
				add(Fact{Value: text(fmt.Sprintf("and %d more pending", len(pending)-maxPending)),
					Link: Link{Pane: "Timeline", Instant: pending[i].RequestedTime}})
				break
			}
			label := ""
			if i == 0 {
				label = "pending"
			}
			val := []Seg{{Text: model.PendingName(in) + " "}, {Instant: in.RequestedTime}, {Text: " ("}, {Age: in.Started}, {Text: ")"}}
			if model.Stalled(in, newest) {
				// Behind a completed instant: nobody is finishing it (a killed writer).
				val = append(val, sep, Seg{Text: "stalled: older than the newest completed instant"})
			}
			add(Fact{Label: label, Value: val,
				Link: Link{Pane: "Timeline", Instant: in.RequestedTime}, CopyLabel: "instant", CopyValue: in.RequestedTime, Bad: true})
		}
		// Commits completed with failed records: the table lacks them, exit 0 from the writer.
		var failed []*timeline.Instant
		for _, in := range s.Timeline.Instants {
			if in.IsCompleted() && in.Totals.TotalWriteErrors > 0 {
				failed = append(failed, in)
			}
		}
		for i, in := range failed {
			if i == maxPending {
				add(Fact{Value: text(fmt.Sprintf("and %d more commits with write errors", len(failed)-maxPending)),
					Link: Link{Pane: "Timeline", Instant: in.RequestedTime}})
				break
			}
			label := ""
			if i == 0 {
				label = "write errors"
			}
			add(Fact{Label: label, Value: []Seg{{Text: in.Action + " "}, {Instant: in.RequestedTime}, {Text: ": " + model.WriteErrorsText(in.Totals)}},
				Link: Link{Pane: "Timeline", Instant: in.RequestedTime}, CopyLabel: "instant", CopyValue: in.RequestedTime, Bad: true})
		}
	}
	if h := s.Health; h != nil {
		add(healthFact(h))
	} else {
		add(Fact{Label: "health", Value: text(stepState(s, model.StepHealth)), Link: Link{Pane: "Health"}})
	}
	if f := s.Findings; f != nil {
		if top := f.TopFinding(); top.ID != "" {
			add(Fact{Label: "top finding", Value: text(top.Says), Link: Link{Pane: "Findings", Finding: top.ID}, CopyLabel: "finding", CopyValue: top.ID})
		} else {
			add(Fact{Label: "top finding", Value: text(top.Says), Link: Link{Pane: "Findings"}})
		}
	} else {
		add(Fact{Label: "top finding", Value: text(stepState(s, model.StepFindings)), Link: Link{Pane: "Findings"}})
	}
	n := v.ProblemCount()
	onTimeline := 0
	for _, p := range v.Problems {
		if p.Source == model.SourceTimeline && p.Counted() {
			onTimeline++
		}
	}
	var pvs []string
	if r := n - onTimeline; r > 0 {
		pvs = append(pvs, fmt.Sprintf("%d problem(s) reading the inputs", r))
	}
	if onTimeline > 0 {
		var kinds []string
		for _, is := range model.TimelineIssues(s.Timeline) {
			k := is.Kind
			if k == model.IssueStalled {
				k = "stalled instants"
			}
			if is.Kind != model.IssueIncomplete && !slices.Contains(kinds, k) {
				kinds = append(kinds, k)
			}
		}
		pvs = append(pvs, fmt.Sprintf("%d on the timeline (%s)", onTimeline, strings.Join(kinds, ", ")))
	}
	pv := "none"
	if len(pvs) > 0 {
		pv = strings.Join(pvs, " · ")
	}
	o.after = []Fact{{Label: "problems", Value: text(pv), Link: Link{Pane: ProblemsPane}, Bad: n > 0}}
	return o
}

// healthFact is the roll-up verdict with its reason: the unhealthy checks, or how many checks
// judged it, and checks that failed to run.
func healthFact(h *health.Result) Fact {
	var bad []string
	for _, c := range h.Checks {
		if c.Status == health.Unhealthy {
			bad = append(bad, c.Name)
		}
	}
	val := []Seg{{Text: h.Verdict()}}
	if len(bad) > 0 {
		val[0].Text += ": " + strings.Join(bad, ", ")
	} else if n, _ := h.NotJudged(); n == 0 {
		val[0].Text += fmt.Sprintf(" (%d checks)", len(h.Checks))
	}
	if len(h.Errors) > 0 {
		val = append(val, sep, Seg{Text: fmt.Sprintf("%d check(s) failed to run", len(h.Errors))})
	}
	if h.Hudiscope != nil && h.Hudiscope.ApplyAllDefaults {
		// Judged by Hudi's defaults for keys nobody supplied (--apply-all-defaults, the Health
		// pane's d, a table opened from the Fleet view): said where the verdict is, as the
		// Health header says it.
		val = append(val, sep, Seg{Text: "defaults assumed"})
	}
	first := ""
	if len(bad) > 0 {
		first = bad[0]
	}
	return Fact{Label: "health", Value: val, Link: Link{Pane: "Health", Check: first}, Bad: len(bad) > 0,
		CopyLabel: "health", CopyValue: h.Verdict()}
}
