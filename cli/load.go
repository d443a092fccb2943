package cli

import (
	"context"
	"fmt"

	"github.com/hudiscope/hudiscope/internal/progress"
	"github.com/hudiscope/hudiscope/model"
)

// load runs model.Load for a command and fails when one of the steps whose result the
// command prints failed; other steps' failures go to stderr, and the rest of the output
// stands. Commands defer reportProblems: the reader also meets damaged files after loading
// (instant details, the last clean), and those warnings belong on stderr too.
func load(ctx context.Context, opts model.Options, needed ...model.Step) (*model.Snapshot, error) {
	return loadProgress(ctx, opts, true, needed...)
}

// loadProgress is load showing, when showProgress and stderr is a terminal, the files listed
// and the archived instants decoded so far on one stderr line ("listing 1,200 files…",
// "reading archived timeline: 12,000 instants…"), cleared before it returns: before any
// warning and the command's output. Hooks the command set itself are kept.
func loadProgress(ctx context.Context, opts model.Options, showProgress bool, needed ...model.Step) (*model.Snapshot, error) {
	var line *progress.Line
	if showProgress && opts.OnListed == nil && opts.OnArchived == nil && opts.OnSlices == nil {
		line = progressHooks(&opts)
	}
	s, err := model.Load(ctx, opts, nil)
	line.Done()
	if err != nil {
		return s, err
	}
	for _, st := range needed {
		if e := s.StepErrors[st]; e != nil {
			reportProblems(s)
			return s, e
		}
	}
	for _, st := range s.Done {
		if e := s.StepErrors[st]; e != nil {
			warn(string(st)+":", fmt.Sprint(e))
		}
	}
	return s, nil
}

// progressHooks points opts' progress hooks at one stderr line when stderr is a terminal (else
// it leaves them nil and returns nil): files listed, archived instants decoded, file slices read.
func progressHooks(opts *model.Options) *progress.Line {
	line := progress.LineOnStderr()
	opts.OnListed = line.Counter("listing %s files…")
	opts.OnArchived = line.Counter("reading archived timeline: %s instants…")
	opts.OnSlices = line.Counter("reading %s file slices…")
	return line
}

// reportProblems prints the damaged files the reader worked around: the view layer's problems
// from the reader's log (failed steps went to stderr when load met them).
func reportProblems(s *model.Snapshot) {
	var reader []model.Problem
	for _, p := range s.ProblemList() {
		if p.Source == model.SourceReader {
			reader = append(reader, p)
		}
	}
	// Folded: many damaged files alike print a few lines and a count (-o json lists all).
	for _, l := range model.FoldProblems(reader, model.FoldKeep) {
		if l.More > 0 {
			warn("warning:", l.String())
			continue
		}
		warn("warning:", l.File+": "+l.Message)
	}
}

// readerProblems are the view layer's problems from the reader's log, as stderr prints them
// ("FILE: message", the file as given).
func readerProblems(s *model.Snapshot) []string {
	var out []string
	for _, p := range s.ProblemList() {
		if p.Source == model.SourceReader {
			out = append(out, p.File+": "+p.Message)
		}
	}
	return out
}
