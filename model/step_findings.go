package model

import (
	"context"
	"strings"

	"github.com/hudiscope/hudiscope/analyzers/findings"
)

// StepFindings evaluates the optimization catalogs against everything loaded before it.
const StepFindings Step = "findings"

// FindingsResult is the findings engine's result (Snapshot.Findings).
type FindingsResult = findings.Result

// The findings step runs last: this file sorts after analyzers.go and step_eventlog.go, so its
// init appends after theirs. It reads every earlier step's output and does no I/O.
func init() {
	steps = append(steps, step{StepFindings, always, func(ctx context.Context, s *Snapshot) error {
		if s.Config == nil {
			return errSkipped(StepProperties)
		}
		s.Findings = findings.Evaluate(FindingsInput(s), nil)
		return nil
	}})
}

// FindingsInput points the findings engine at a snapshot's parts.
func FindingsInput(s *Snapshot) findings.Input {
	in := findings.Input{Config: s.Effective, EventLog: s.EventLog, Layout: s.Layout, Health: s.Health,
		TableConfig: s.Config, Timeline: s.Timeline, View: s.View, TablePath: s.Options.Location}
	var origins []string
	if s.Options.Props != "" {
		origins = append(origins, s.Options.Props)
	}
	if len(s.Options.HoodieConf) > 0 {
		origins = append(origins, "--hoodie-conf")
	}
	in.PropsPresent = len(origins) > 0
	in.PropsOrigin = strings.Join(origins, " + ")
	return in
}
