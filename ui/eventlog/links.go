package eventlog

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/ui/common"
)

// instantNumber finds a 17-digit instant time in a job description.
var instantNumber = regexp.MustCompile(`(?:^|\D)(\d{17})(?:\D|$)`)

// stageInstant is the instant stage i belongs to and how that is known: named in its job
// description (or its marker listing), else the write whose requested→completed window holds
// the stage's submission. "" when there is no timeline or no such instant.
func (e *EventLogPane) stageInstant(i int) (string, string) {
	if i < 0 || i >= len(e.Stages) || e.snap == nil || e.snap.Timeline == nil {
		return "", ""
	}
	if i < len(e.Rep.Hudiscope.Stages) {
		if in := e.Rep.Hudiscope.Stages[i].Instant; common.FindInstant(e.snap, in) != nil {
			return in, "its marker listing names it"
		}
	}
	s := &e.Stages[i]
	if s.JobDescription != nil {
		if m := instantNumber.FindStringSubmatch(*s.JobDescription); m != nil && common.FindInstant(e.snap, m[1]) != nil {
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
	in := common.FindInstant(e.snap, rt)
	idx = []int{}
	for i := range e.Stages {
		s := &e.Stages[i]
		switch {
		case i < len(e.Rep.Hudiscope.Stages) && e.Rep.Hudiscope.Stages[i].Instant == rt,
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
func (e *EventLogPane) Focus(j common.Jump) bool {
	if e.List == nil {
		return false
	}
	var instant string
	stage, hasStage := 0, false
	switch j := j.(type) {
	case common.JumpInstantStages:
		instant = j.Requested
	case common.JumpStage:
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
	e.List.CloseFilter()
	e.setScope(nil, "")
	for _, i := range e.InView {
		if e.Stages[i].StageID == stage {
			e.List.Apply(i)
			e.Reflow()
			return true
		}
	}
	return false
}
