package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/hudiscope/hudiscope/report"
)

// Click selects the stage row at body line y (rows start below the lines over the list and
// its header); it does nothing while a stage, the caveats or phase picking has the pane.
func (e *EventLogPane) Click(y int) tea.Cmd {
	if e.list == nil || e.stage != nil || e.caveats != nil || e.phaseFocus || e.list.filtering {
		return nil
	}
	rowsY := len(e.top(e.width, e.height)) + 1
	e.list.clickRow(y, rowsY)
	e.reflow()
	return nil
}

// CopyValue is the focused phase's name while picking phases, else the open or selected
// stage's id.
func (e *EventLogPane) CopyValue() (string, string, bool) {
	switch {
	case e.list == nil, e.caveats != nil:
		return "", "", false
	case e.phaseFocus:
		if e.phaseCur >= 0 && e.phaseCur < len(e.phases) {
			return "phase", e.phases[e.phaseCur].Label, true
		}
		return "", "", false
	case e.stage != nil:
		return "stage", report.StageID(&e.stages[e.stageAt]), true
	}
	if i := e.selected(); i >= 0 {
		return "stage", report.StageID(&e.stages[i]), true
	}
	return "", "", false
}
