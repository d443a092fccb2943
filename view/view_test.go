package view

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/eventlog"
	"github.com/hudiscope/hudiscope/analyzers/health"
	"github.com/hudiscope/hudiscope/model"
)

// TestBuildNil: a nil snapshot (nothing loaded yet) gives an empty view, and any view is stale
// for another snapshot.
func TestBuildNil(t *testing.T) {
	v := Build(nil)
	if v == nil || v.Model != nil {
		t.Fatalf("Build(nil) = %+v", v)
	}
	s, err := model.Load(context.Background(), model.Options{Location: "../testdata/bad/instant-invalid-json/table", ClusterDefaults: "-", Steps: []model.Step{model.StepProperties}}, nil)
	if err != nil {
		t.Skipf("fixture: %v", err)
	}
	if !v.Stale(s) || Build(s).Stale(s) {
		t.Errorf("stale: want a view stale for another snapshot and fresh for its own")
	}
}

// TestProblemsShapes: every shape a problem comes in lands in the one list, in order (failed
// steps, the reader's log, event-log warnings, checks that did not run, then notes); notes are
// listed but not counted; messages are redacted and escaped once, here.
func TestProblemsShapes(t *testing.T) {
	s := &model.Snapshot{
		Options:    model.Options{Location: "/t", EventLog: "/logs/app-1"},
		Done:       []model.Step{model.StepProperties, model.StepEventLog},
		StepErrors: map[model.Step]error{model.StepEventLog: errors.New("read https://user:SEKRET@host/x: EOF"), model.StepFindings: errors.New("late")},
		EventLog:   &eventlog.Report{Warnings: []string{"line 7: not JSON\x1b[2J"}},
		Health:     &health.Result{Errors: []string{"retention: timeline unreadable"}, Hudiscope: &health.Extra{Notes: []string{"mdt-sync: not compared"}}},
	}
	s.EventLog.Hudiscope.Source.Notes = []string{"ignored 2 file(s) that are not rolling parts"}
	v := Build(s)
	want := []string{
		"error step step event log: read https://user:***@host/x: EOF",
		"error step step findings: late",
		"warning event log /logs/app-1: line 7: not JSON\\x1b[2J",
		"error health health: retention: timeline unreadable",
		"note event log /logs/app-1: ignored 2 file(s) that are not rolling parts",
		"note health health: mdt-sync: not compared",
	}
	var got []string
	for _, p := range v.Problems {
		got = append(got, string(p.Severity)+" "+p.Source+" "+p.String())
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if n := v.ProblemCount(); n != 4 {
		t.Errorf("ProblemCount = %d, want 4 (the 2 notes are not problems)", n)
	}
}
