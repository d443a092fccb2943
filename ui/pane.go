package ui

import (
	"github.com/hudiscope/hudiscope/ui/common"
	eventlogui "github.com/hudiscope/hudiscope/ui/eventlog"
	findingsui "github.com/hudiscope/hudiscope/ui/findings"
	healthui "github.com/hudiscope/hudiscope/ui/health"
	layoutui "github.com/hudiscope/hudiscope/ui/layout"
	overviewui "github.com/hudiscope/hudiscope/ui/overview"
	timelineui "github.com/hudiscope/hudiscope/ui/timeline"
)

// Pane and Common are the shared contract every pane package builds on (ui/common); ui names
// them too so Options.Panes reads as before for callers outside ui.
type (
	Pane   = common.Pane
	Common = common.Common
)

// DefaultPanes are the six panes in key order.
func DefaultPanes(c *Common) []Pane {
	return []Pane{
		overviewui.NewOverview(c),
		timelineui.NewTimeline(c),
		layoutui.NewLayout(c),
		healthui.NewHealth(c),
		eventlogui.NewEventLog(c),
		findingsui.NewFindings(c),
	}
}
