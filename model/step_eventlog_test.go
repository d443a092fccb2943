package model

import (
	"context"
	"path/filepath"
	"testing"
)

func TestEventLogStep(t *testing.T) {
	dir := ownFixture(t, "incr-1.2.0")
	logs, _ := filepath.Glob(filepath.Join(dir, "local-*"))
	if len(logs) == 0 {
		t.Skip("incr-1.2.0 event log not present")
	}
	ctx := context.Background()
	s, err := Load(ctx, Options{Location: filepath.Join(dir, "table.zip"), EventLog: logs[0]}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !s.HasRun(StepEventLog) || s.StepErrors[StepEventLog] != nil || s.EventLog == nil || len(s.EventLog.Stages) == 0 {
		t.Fatalf("event log step: ran %v err %v", s.HasRun(StepEventLog), s.StepErrors[StepEventLog])
	}
	if s.Done[len(s.Done)-1] != StepEventLog && !s.HasRun(StepHealth) {
		t.Fatalf("event log runs after the table analyses: %v", s.Done)
	}
	if p := s.EventLog.Stages[0].Observed.TaskDurationMillis.P25; p == nil {
		t.Error("task percentiles p25/p75/p99 are included for the stage view")
	}

	s, err = Load(ctx, Options{Location: filepath.Join(dir, "table.zip")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.HasRun(StepEventLog) || s.EventLog != nil {
		t.Fatal("no --event-log: the step does not run")
	}

	s, _ = Load(ctx, Options{Location: filepath.Join(dir, "table.zip"), EventLog: filepath.Join(dir, "missing")}, nil)
	if s.StepErrors[StepEventLog] == nil || s.Layout == nil {
		t.Fatal("a bad event log fails its own step only")
	}
}
