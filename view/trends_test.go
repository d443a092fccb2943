package view

import (
	"slices"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// hudi-cli's `stats wa`: records written over records updated, none without updates.
func TestWriteAmplificationOfSums(t *testing.T) {
	if w := WriteAmplificationOf(1000, 10); !w.OK || w.Factor != 100 {
		t.Errorf("1000/10 = %+v", w)
	}
	if w := WriteAmplificationOf(6, 0); w.OK || w.Factor != 0 {
		t.Errorf("no updates: %+v", w)
	}
}

// The change rule on a series that steps from 1 s to 3.1 s at value 25 and back at 50
// (k = 10, ratio 2): two changes, at 25 (3.1× the previous 10) and at 50 (1/3.1); with noise
// under the ratio added, the same two within two values of the steps.
func TestChangePoints(t *testing.T) {
	var sr TrendSeries
	var points []TrendPoint
	for i := range 70 {
		v := 1.0
		if i >= 25 && i < 50 {
			v = 3.1
		}
		sr.Values = append(sr.Values, v)
		sr.Points = append(sr.Points, int32(i))
		points = append(points, TrendPoint{Requested: "2026120100" + string(rune('0'+i/10)) + string(rune('0'+i%10)) + "00000", Action: "commit"})
	}
	sr.Label, sr.Min, sr.Max = "duration", 1, 3.1
	got := changePoints(sr, points, 10, 2)
	if len(got) != 2 || got[0].Index != 25 || got[1].Index != 50 {
		t.Fatalf("changes %+v", got)
	}
	if got[0].Before != 1 || got[0].After != 3.1 || got[0].Note != "from commit 20261201002500000, duration median 3.1× the previous 10" {
		t.Errorf("first change %+v", got[0])
	}
	if r := got[1].Ratio; r != 1/3.1 {
		t.Errorf("drop ratio %v", r)
	}
	noisy := sr
	noisy.Values = slices.Clone(sr.Values)
	for i := range noisy.Values {
		noisy.Values[i] += float64(i%3) * 0.1 // +0 +0.1 +0.2
	}
	noisy.Max = 3.3
	got = changePoints(noisy, points, 10, 2)
	if len(got) != 2 || got[0].Index < 23 || got[0].Index > 27 || got[1].Index < 48 || got[1].Index > 52 {
		t.Errorf("noisy changes %+v", got)
	}
	// A flat series has none.
	flat := TrendSeries{Values: make([]float64, 30), Points: sr.Points[:30], Min: 2, Max: 2}
	if got := changePoints(flat, points, 10, 2); len(got) != 0 {
		t.Errorf("flat: %+v", got)
	}
	// Fewer than 2k values: no change is looked for.
	sr.Values, sr.Points = sr.Values[15:34], sr.Points[15:34]
	if got := changePoints(sr, points, 10, 2); len(got) != 0 {
		t.Errorf("19 values: %+v", got)
	}
}

// The archival runs of mor-archived-1.1.1's layer-0 files (TestArchivalRuns): intervals from
// one file time to the next, the medians, and --since keeping the runs after its start.
func TestArchivalOf(t *testing.T) {
	at := func(s string) time.Time {
		v, err := time.Parse(time.TimeOnly, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	runs := []timeline.ArchivalRun{
		{Time: at("23:14:26"), Instants: 4}, {Time: at("23:14:46"), Instants: 1}, {Time: at("23:15:14"), Instants: 1},
	}
	a := archivalOf(runs, time.Time{})
	if len(a.Runs) != 3 || a.Runs[0].Interval != 0 || a.Runs[1].Interval != 20*time.Second || a.Runs[2].Interval != 28*time.Second ||
		a.MedianInstants != 1 || a.MedianInterval != 24*time.Second || a.Rule != timeline.ArchivalRule {
		t.Fatalf("%+v", a)
	}
	a = archivalOf(runs, at("23:14:30"))
	if len(a.Runs) != 2 || a.Runs[0].Interval != 20*time.Second || a.MedianInterval != 24*time.Second {
		t.Fatalf("since: %+v", a)
	}
}
