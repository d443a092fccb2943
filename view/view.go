// Package view is the layer between the table model and the front ends: the rows, facts,
// verdict lines and problems every surface shows, computed once from a model.Snapshot. The ui
// panes lay them out, report formats them and cli prints them; none of them computes a number
// or a verdict of its own, so every surface gives the same answer to the same question.
package view

import (
	"github.com/hudiscope/hudiscope/model"
)

// Snapshot is what the front ends show for one model snapshot. It is built once (Build) and
// read-only afterwards.
type Snapshot struct {
	// Model is the snapshot this view was built from.
	Model *model.Snapshot
	// Problems is every problem the load met, in one shape (see Problem): failed steps first,
	// then bad input the reader worked around, the event log's warnings, checks that failed to
	// run, and last the notes that qualify an answer.
	Problems []Problem
	overview overview
	// readerProblems is how many problems the reader's log held when this view was built
	// (the reader keeps logging after the load: instant details read on a drill-down).
	readerProblems int
}

// Build computes the view of s. A nil s gives an empty view.
func Build(s *model.Snapshot) *Snapshot {
	v := &Snapshot{Model: s}
	if s == nil {
		return v
	}
	v.readerProblems = len(s.Problems())
	v.Problems = s.ProblemList()
	v.overview = buildOverview(v)
	return v
}

// Stale reports whether v no longer answers for s: another snapshot, or the reader has met
// more bad input since v was built.
func (v *Snapshot) Stale(s *model.Snapshot) bool {
	return v == nil || v.Model != s || (s != nil && len(s.Problems()) != v.readerProblems)
}
