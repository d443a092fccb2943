package common

import (
	tea "charm.land/bubbletea/v2"

	"github.com/hudiscope/hudiscope/view"
)

// Jump asks the App to show a pane and, when the pane implements Focus, the row the jump
// names. There is one message type per target, each handled by the pane that owns it; any
// pane's Cmd may return one (see JumpTo). A jump whose row field is empty only shows the pane.
type Jump interface {
	// Pane is the title of the pane that shows the jump (ProblemsPane: the problems view).
	Pane() string
	// Target names the row, for "not found in <pane>: <target>".
	Target() string
}

// JumpPane shows a pane's top.
type JumpPane struct{ Title string }

// JumpInstant selects an instant (by requested time) in the Timeline.
type JumpInstant struct{ Requested string }

// JumpInstantDetail opens, in the Timeline, the detail of an instant (by requested time), as
// Enter on its row does (the Trends view's Enter).
type JumpInstantDetail struct{ Requested string }

// JumpPartitionWrites lists, in the Timeline, the instants that wrote a partition.
type JumpPartitionWrites struct{ Path string }

// JumpPartition selects a partition in the Layout pane and, with FileGroup (a file id in
// it), opens the partition and selects the group.
type JumpPartition struct{ Path, FileGroup string }

// JumpInstantStages lists, in the Event log, the stages of an instant.
type JumpInstantStages struct{ Requested string }

// JumpStage selects an Event log stage (stage 0 is a stage).
type JumpStage struct{ ID int }

// JumpCheck selects a health check.
type JumpCheck struct{ Name string }

// JumpFinding selects a finding by id.
type JumpFinding struct{ ID string }

// JumpProblems opens the problems view.
type JumpProblems struct{}

func (j JumpPane) Pane() string              { return j.Title }
func (JumpInstant) Pane() string             { return "Timeline" }
func (JumpPartitionWrites) Pane() string     { return "Timeline" }
func (JumpInstantDetail) Pane() string       { return "Timeline" }
func (JumpPartition) Pane() string           { return "Layout" }
func (JumpInstantStages) Pane() string       { return "Event log" }
func (JumpStage) Pane() string               { return "Event log" }
func (JumpCheck) Pane() string               { return "Health" }
func (JumpFinding) Pane() string             { return "Findings" }
func (JumpProblems) Pane() string            { return ProblemsPane }
func (JumpPane) Target() string              { return "the row" }
func (j JumpInstant) Target() string         { return target("instant ", j.Requested, j.Requested) }
func (j JumpPartitionWrites) Target() string { return target("partition ", j.Path, PartLabel(j.Path)) }
func (j JumpInstantDetail) Target() string   { return target("instant ", j.Requested, j.Requested) }
func (j JumpInstantStages) Target() string   { return target("instant ", j.Requested, j.Requested) }
func (j JumpStage) Target() string           { return "stage " + Itoa(j.ID) }
func (j JumpCheck) Target() string           { return target("check ", j.Name, j.Name) }
func (j JumpFinding) Target() string         { return target("finding ", j.ID, j.ID) }
func (JumpProblems) Target() string          { return "the row" }

func (j JumpPartition) Target() string {
	if j.FileGroup != "" {
		return "file group " + j.FileGroup + " in partition " + PartLabel(j.Path)
	}
	return target("partition ", j.Path, PartLabel(j.Path))
}

// target is kind+label, or "the row" when the jump names none (field is empty: it only
// shows the pane).
func target(kind, field, label string) string {
	if field == "" {
		return "the row"
	}
	return kind + label
}

// LinkJump is the jump behind a view.Link (the Overview's facts): the field the Link sets
// picks the message; a Link with none only shows its pane.
func LinkJump(l view.Link) Jump {
	switch {
	case l.Pane == ProblemsPane:
		return JumpProblems{}
	case l.Pane == "Timeline" && l.Instant != "":
		return JumpInstant{Requested: l.Instant}
	case l.Pane == "Timeline" && l.Partition != "":
		return JumpPartitionWrites{Path: l.Partition}
	case l.Pane == "Event log" && l.Instant != "":
		return JumpInstantStages{Requested: l.Instant}
	case l.Pane == "Layout" && l.Partition != "":
		return JumpPartition{Path: l.Partition}
	case l.Pane == "Health" && l.Check != "":
		return JumpCheck{Name: l.Check}
	case l.Pane == "Findings" && l.Finding != "":
		return JumpFinding{ID: l.Finding}
	}
	return JumpPane{Title: l.Pane}
}

func JumpTo(j Jump) tea.Cmd { return func() tea.Msg { return j } }

// ProblemsPane is the jump target (Jump.Pane) that opens the problems view.
const ProblemsPane = view.ProblemsPane
