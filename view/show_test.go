package view

import (
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/hudi/timeline"
)

func instants() []*timeline.Instant {
	ins := []*timeline.Instant{
		{RequestedTime: "20240101000000000", CompletionTime: "20240101000001000", Action: "commit", State: timeline.Completed},
		{RequestedTime: "20240101000000000", CompletionTime: "20240101000009000", Action: "savepoint", State: timeline.Completed},
		{RequestedTime: "20240101000002000", CompletionTime: "20240101000008000", Action: "deltacommit", State: timeline.Completed},
		{RequestedTime: "20240101000003000", CompletionTime: "20240101000004000", Action: "commit", PlanAction: "compaction", State: timeline.Completed},
		{RequestedTime: "20240101000005000", CompletionTime: "20240101000006000", Action: "clean", State: timeline.Completed},
		{RequestedTime: "20240101000007000", Action: "commit", State: timeline.Inflight},
		{RequestedTime: "20240101000010000", CompletionTime: "20240101000011000", Action: "commit", State: timeline.Completed, CompletionDerived: true},
	}
	for _, in := range ins {
		in.Started, _ = timeline.ParseInstantTime(in.RequestedTime, time.UTC)
		in.Ended, _ = timeline.ParseInstantTime(in.CompletionTime, time.UTC)
	}
	return ins
}

// latest is the last write by completion time; a time shared by two instants is ambiguous
// until TIME.ACTION names one; a derived completion time does not match.
func TestFindInstant(t *testing.T) {
	ins := instants()[:6]
	one := func(arg, want, by string) {
		t.Helper()
		m := FindInstant(ins, arg)
		if len(m) != 1 || m[0].In.RequestedTime+"."+m[0].In.Action != want || m[0].By != by {
			t.Errorf("%s: %+v", arg, m)
		}
	}
	one("latest", "20240101000002000.deltacommit", "latest")
	one("20240101000000000.savepoint", "20240101000000000.savepoint", "requested time")
	one("20240101000003000.compaction", "20240101000003000.commit", "requested time")
	one("20240101000008000", "20240101000002000.deltacommit", "completion time")
	if m := FindInstant(ins, "20240101000000000"); len(m) != 2 {
		t.Errorf("ambiguous: %+v", m)
	}
	if m := FindInstant(instants(), "20240101000011000"); len(m) != 0 {
		t.Errorf("derived completion matched: %+v", m)
	}
	if m := FindInstant(ins[4:], "latest"); len(m) != 0 {
		t.Errorf("latest without a completed write: %+v", m)
	}
	near := NearestInstants(ins, "20240101000005100", 2)
	if len(near) != 2 || near[0].RequestedTime != "20240101000005000" || near[1].RequestedTime != "20240101000003000" {
		t.Errorf("nearest: %v %v", near[0], near[1])
	}
	if near := NearestInstants(ins, "yesterday", 3); len(near) != 3 || near[0].RequestedTime != "20240101000007000" {
		t.Errorf("nearest to a word: %v", near)
	}
}

// The comparison's deltas are A − B, its change relative to B; a value that grew from zero
// moved most.
func TestNewCompare(t *testing.T) {
	ins := instants()
	a := Show{In: ins[0], Stats: &WriteStats{RecordsWritten: 12, RecordsUpdated: 3, BytesWritten: 1000, FileCount: 2, PartitionCount: 1,
		WriteAmplification: WA{Written: 12, Updated: 3, Factor: 4, OK: true}}}
	b := Show{In: ins[2], Stats: &WriteStats{RecordsWritten: 10, RecordsUpdated: 5, BytesWritten: 800, FileCount: 2, PartitionCount: 1,
		WriteAmplification: WA{Written: 10, Updated: 5, Factor: 2, OK: true}}}
	c := NewCompare(a, b)
	by := map[string]Metric{}
	for _, m := range c.Metrics {
		by[m.Name] = m
	}
	if m := by["records written"]; m.Delta != 2 || !m.ChangeOK || m.Change != 0.2 || ChangeText(m) != "+20.0%" {
		t.Errorf("records written %+v", m)
	}
	if m := by["duration"]; m.A != 1000 || m.B != 6000 || m.Delta != -5000 || MetricText(m, m.Delta) != "-5s" {
		t.Errorf("duration %+v", m)
	}
	if c.MovedMost < 0 || c.Metrics[c.MovedMost].Name != "write amplification" {
		t.Errorf("moved most %d", c.MovedMost)
	}
	a.Stats.Errors = 4
	if c := NewCompare(a, b); c.Metrics[c.MovedMost].Name != "write errors" || ChangeText(c.Metrics[c.MovedMost]) != "new" {
		t.Errorf("from zero: %+v", c.Metrics[c.MovedMost])
	}
	if c := NewCompare(a, a); c.MovedMost != -1 {
		t.Errorf("same write moved %d", c.MovedMost)
	}
}

// FindInstant and NearestInstants take any argument without panicking, and every match fits it.
func FuzzFindInstant(f *testing.F) {
	for _, s := range []string{"latest", "20240101000000000", "20240101000000000.savepoint", "2024", "", ".", "99999999999999999999", "2024010100000.commit"} {
		f.Add(s)
	}
	ins := instants()
	f.Fuzz(func(t *testing.T, arg string) {
		for _, m := range FindInstant(ins, arg) {
			if m.By != "latest" && m.In.RequestedTime == "" {
				t.Fatalf("%q matched %+v", arg, m)
			}
		}
		if n := len(NearestInstants(ins, arg, 3)); n != 3 {
			t.Fatalf("%q: %d nearest", arg, n)
		}
	})
}
