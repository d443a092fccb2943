package ui

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/model"
)

// Focus selects the instant a JumpInstant names, or lists the instants that wrote a
// JumpPartitionWrites partition; any other jump only shows the pane.
func (t *Timeline) Focus(j Jump) bool {
	if t.snap == nil || t.snap.Timeline == nil {
		return false
	}
	var instant, part string
	switch j := j.(type) {
	case JumpInstant:
		instant = j.Requested
	case JumpPartitionWrites:
		part = j.Path
	}
	if part == "" && instant == "" {
		return true
	}
	t.detail, t.ckpt = nil, nil
	if part != "" {
		t.listView.filtering = false
		t.listView.filter = "part:" + part
		t.listView.input.SetValue(t.listView.filter)
		t.listView.apply(t.listView.selected())
		t.reflow()
		return true
	}
	for i, r := range t.byComp {
		if r.in.RequestedTime != instant {
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

// Focus lists the stages of the instant a JumpInstantStages names, or selects the stage a
// JumpStage names; any other jump only shows the pane.
func (e *EventLogPane) Focus(j Jump) bool {
	if e.list == nil {
		return false
	}
	var instant string
	stage, hasStage := 0, false
	switch j := j.(type) {
	case JumpInstantStages:
		instant = j.Requested
	case JumpStage:
		stage, hasStage = j.ID, true
	}
	if instant == "" && !hasStage {
		return true
	}
	e.stage, e.caveats, e.phaseFocus = nil, nil, false
	if instant != "" {
		idx, named := e.instantStages(instant)
		e.setScope(idx, "instant "+instant)
		e.note = fmt.Sprintf("%d named, %d in its time window", named, len(idx)-named)
		return len(idx) > 0
	}
	e.list.closeFilter()
	e.setScope(nil, "")
	for _, i := range e.view {
		if e.stages[i].StageID == stage {
			e.list.apply(i)
			e.reflow()
			return true
		}
	}
	return false
}
