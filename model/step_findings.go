package model

import (
	"strings"

	"github.com/hudiscope/hudiscope/analyzers/findings"
)

// FindingsResult is the findings engine's result (Snapshot.Findings).
type FindingsResult = findings.Result

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
