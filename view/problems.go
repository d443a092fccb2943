package view

import "github.com/hudiscope/hudiscope/model"

// The one problem shape lives in model (the fleet row, built there, counts the same list);
// these names are the view's, for the renderers.

// Problem is one problem as every surface shows it (model.Problem).
type Problem = model.Problem

// Severity says what a problem costs the answers (model.Severity).
type Severity = model.Severity

// Severities and sources of problems.
const (
	Error          = model.Error
	Warning        = model.Warning
	Note           = model.Note
	SourceStep     = model.SourceStep
	SourceReader   = model.SourceReader
	SourceEventLog = model.SourceEventLog
	SourceHealth   = model.SourceHealth
	SourceTimeline = model.SourceTimeline
)

// ProblemCount is the number of problems reading the inputs: what the header badge, the
// Overview and the report count.
func (v *Snapshot) ProblemCount() int { return model.CountProblems(v.Problems) }
