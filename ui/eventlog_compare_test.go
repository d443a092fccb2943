package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/hudiscope/hudiscope/model"
)

// TestEventLogCompareGolden: the Event log pane's x shows --event-log (the pair's run with
// hoodie.upsert.shuffle.parallelism 200) beside --compare-log (the same job with 2), with
// deltas and what moved most. Refresh with -update.
func TestEventLogCompareGolden(t *testing.T) {
	before, after := "../testdata/fixtures/eventlog-pair-before-1.2.0", "../testdata/fixtures/eventlog-pair-after-1.2.0"
	needFixture(t, before+"/table.zip")
	s, err := model.Load(context.Background(), model.Options{Location: before + "/table.zip",
		EventLog: eventLogIn(t, before), CompareEventLog: eventLogIn(t, after), ClusterDefaults: "-",
		Now: func() time.Time { return fixedNow }}, nil)
	if err != nil || s.EventLogCompare == nil {
		t.Fatalf("load: %v %v %v", err, s.StepErrors, s.CompareErr)
	}
	for _, c := range []struct {
		name string
		keys []string
	}{
		{"eventlog-compare", []string{"5", "x"}},
		{"eventlog-compare-scrolled", []string{"5", "x", "pgdown"}},
	} {
		for _, sz := range sizes {
			w, h := sz[0], sz[1]
			t.Run(fmt.Sprintf("%s/%dx%d", c.name, w, h), func(t *testing.T) {
				a := appWith(t, s, w, h)
				press(a, c.keys...)
				scr := checkScreen(t, a, w, h)
				if c.name == "eventlog-compare" && (!strings.Contains(scr, "phase DEDUP_AND_INDEX_TAGGING") || !strings.Contains(scr, "-35.156s")) {
					t.Errorf("moved most does not lead with the tagging phase's -35.156s:\n%s", scr)
				}
				golden.RequireEqual(t, scr)
			})
		}
	}
	// Without --compare-log, x is not offered and does nothing.
	s2, _ := model.Load(context.Background(), model.Options{Location: before + "/table.zip",
		EventLog: eventLogIn(t, before), ClusterDefaults: "-", Now: func() time.Time { return fixedNow }}, nil)
	a := appWith(t, s2, 120, 40)
	press(a, "5", "x")
	if scr := checkScreen(t, a, 120, 40); strings.Contains(scr, "Moved most") {
		t.Errorf("x without --compare-log opened a comparison:\n%s", scr)
	}
}
