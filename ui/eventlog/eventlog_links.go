package eventlog

import (
	tea "charm.land/bubbletea/v2"
)

// Click selects the stage row at body line y (rows start below the lines over the list and
// its header); it does nothing while a stage, the caveats or phase picking has the pane.
func (e *EventLogPane) Click(y int) tea.Cmd {
	if e.List == nil || e.stage != nil || e.caveats != nil || e.phaseFocus || e.List.Filtering {
		return nil
	}
	rowsY := len(e.Top(e.Width, e.Height)) + 1
	e.List.ClickRow(y, rowsY)
	e.Reflow()
	return nil
}

// CopyValue is the focused phase's name while picking phases, else the open or selected
// stage's id.
func (e *EventLogPane) CopyValue() (string, string, bool) {
	switch {
	case e.List == nil, e.caveats != nil:
		return "", "", false
	case e.phaseFocus:
		if e.phaseCur >= 0 && e.phaseCur < len(e.Phases) {
			return "phase", e.Phases[e.phaseCur].Label, true
		}
		return "", "", false
	case e.stage != nil:
		return "stage", e.Rows[e.stageAt].ID, true
	}
	if i := e.Selected(); i >= 0 {
		return "stage", e.Rows[i].ID, true
	}
	return "", "", false
}
