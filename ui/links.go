package ui

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/model"
)

func jumpTo(j jumpMsg) tea.Cmd { return func() tea.Msg { return j } }

// Focus selects the instant j names, or lists the instants that wrote j's partition.
func (t *Timeline) Focus(j jumpMsg) bool {
	if t.snap == nil || t.snap.Timeline == nil {
		return false
	}
	if j.Partition == "" && j.Instant == "" {
		return true
	}
	t.detail, t.ckpt = nil, nil
	if j.Partition != "" && j.Instant == "" {
		t.listView.filtering = false
		t.listView.filter = "part:" + j.Partition
		t.listView.input.SetValue(t.listView.filter)
		t.listView.apply(t.listView.selected())
		t.reflow()
		return true
	}
	for i, r := range t.byComp {
		if r.in.RequestedTime != j.Instant {
			continue
		}
		if !t.listView.match(t.listView.filter)(i) {
			t.listView.closeFilter()
		}
		t.listView.apply(i)
		t.reflow()
		return true
	}
	return false
}

// wrotePartition reports whether a commit's write stats name partition p.
func wrotePartition(r tlRow, p string) bool {
	c := r.in.Commit
	if c == nil {
		return false
	}
	for k := range c.PartitionToWriteStats {
		if strings.EqualFold(k, p) {
			return true
		}
	}
	return false
}

// instantNumber finds a 17-digit instant time in a job description.
var instantNumber = regexp.MustCompile(`(?:^|\D)(\d{17})(?:\D|$)`)

// findInstant is the snapshot's instant with requested time rt, or nil.
func findInstant(s *model.Snapshot, rt string) *timeline.Instant {
	if s == nil || s.Timeline == nil || rt == "" {
		return nil
	}
	for _, in := range s.TimelineInstants() {
		if in.RequestedTime == rt {
			return in
		}
	}
	return nil
}

// stageInstant is the instant stage i belongs to and how that is known: named in its job
// description (or its marker listing), else the write whose requested→completed window holds
// the stage's submission. "" when there is no timeline or no such instant.
func (e *EventLogPane) stageInstant(i int) (string, string) {
	if i < 0 || i >= len(e.stages) || e.snap == nil || e.snap.Timeline == nil {
		return "", ""
	}
	if i < len(e.rep.Hudiscope.Stages) {
		if in := e.rep.Hudiscope.Stages[i].Instant; findInstant(e.snap, in) != nil {
			return in, "its marker listing names it"
		}
	}
	s := &e.stages[i]
	if s.JobDescription != nil {
		if m := instantNumber.FindStringSubmatch(*s.JobDescription); m != nil && findInstant(e.snap, m[1]) != nil {
			return m[1], "its job description names it"
		}
	}
	sub := time.UnixMilli(s.SubmissionTimeEpochMillis)
	var best *timeline.Instant
	for _, in := range e.snap.TimelineInstants() {
		if in.Started.IsZero() || sub.Before(in.Started) || (!in.Ended.IsZero() && sub.After(in.Ended)) ||
			(in.Ended.IsZero() && in.IsCompleted()) {
			continue
		}
		if best == nil || in.Started.After(best.Started) {
			best = in
		}
	}
	if best == nil {
		return "", ""
	}
	return best.RequestedTime, "submitted while it ran"
}

// instantStages are the stages of instant rt: those naming it, and those submitted between
// its request and completion.
func (e *EventLogPane) instantStages(rt string) (idx []int, named int) {
	in := findInstant(e.snap, rt)
	idx = []int{}
	for i := range e.stages {
		s := &e.stages[i]
		switch {
		case i < len(e.rep.Hudiscope.Stages) && e.rep.Hudiscope.Stages[i].Instant == rt,
			s.JobDescription != nil && strings.Contains(*s.JobDescription, rt):
			idx = append(idx, i)
			named++
		case in != nil && !in.Started.IsZero():
			sub := time.UnixMilli(s.SubmissionTimeEpochMillis)
			if !sub.Before(in.Started) && (in.Ended.IsZero() && !in.IsCompleted() || !sub.After(in.Ended)) {
				idx = append(idx, i)
			}
		}
	}
	return idx, named
}

// Focus lists the stages of the instant j names, or selects stage j.Stage.
func (e *EventLogPane) Focus(j jumpMsg) bool {
	if e.list == nil {
		return false
	}
	if j.Instant == "" && !j.HasStage {
		return true
	}
	e.stage, e.caveats, e.phaseFocus = nil, nil, false
	if j.Instant != "" {
		idx, named := e.instantStages(j.Instant)
		e.setScope(idx, "instant "+j.Instant)
		e.note = fmt.Sprintf("%d named, %d in its time window", named, len(idx)-named)
		return len(idx) > 0
	}
	e.list.closeFilter()
	e.setScope(nil, "")
	for _, i := range e.view {
		if e.stages[i].StageID == j.Stage {
			e.list.apply(i)
			e.reflow()
			return true
		}
	}
	return false
}
