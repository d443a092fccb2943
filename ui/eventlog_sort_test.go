package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/hudiscope/hudiscope/analyzers/eventlog"
	"github.com/hudiscope/hudiscope/ui/common"
	eventlogui "github.com/hudiscope/hudiscope/ui/eventlog"
)

// TestEventLogSkewSort: skew▼ orders every stage by the skew shown, largest first, equal skews
// by stage id, stages without one last (before, stages shorter than 1% of the app sorted last
// in stage order whatever their skew, so 1.3x came after pages of 1.0x). The gc column shows
// a share that fits its four cells (124% for stage 628, whose GC time is 1.244 of its run time,
// was "1.24"; a tenfold one was cut to "11.…" and is "11x").
func TestEventLogSkewSort(t *testing.T) {
	a := appWith(t, servicesSnapshot(t), 80, 24)
	press(a, "5", "s", "s", "s", "s")
	e := a.view().(*eventlogui.EventLogPane)
	if e.List.SortBy != 5 {
		t.Fatalf("sorted by column %d, want skew (5)", e.List.SortBy)
	}
	var prev struct {
		skew float64
		id   int
	}
	for n, i := range e.List.Idx {
		st := &e.Stages[e.InView[i]]
		sk, id := eventlogui.ShownSkew(st.Observed.SkewRatio), st.StageID
		if n > 0 && (sk > prev.skew || sk == prev.skew && id < prev.id) {
			t.Fatalf("row %d: stage %d skew %v after stage %d skew %v", n, id, sk, prev.id, prev.skew)
		}
		prev.skew, prev.id = sk, id
	}
	var top []string
	for _, i := range e.List.Idx[:4] {
		st := &e.Stages[e.InView[i]]
		top = append(top, fmt.Sprintf("%d %s", st.StageID, eventlogui.SkewCell(st.Observed.SkewRatio)))
	}
	// Before, 1340 (8.0 s, 11.4x) came first, and 122 (294 ms, 19.1x) and 628 (259 ms, 9.1x),
	// shorter than 6 s, sorted among the last in stage order.
	if got, want := strings.Join(top, ", "), "122 19.1x, 1340 11.4x, 1414 9.4x, 628 9.1x"; got != want {
		t.Errorf("top stages by skew: %s, want %s", got, want)
	}
	for _, c := range []struct {
		r    float64
		want string
	}{{-1, "-"}, {0, "0%"}, {0.004, "<1%"}, {0.0149, "1%"}, {0.42, "42%"}, {8, "800%"}, {9.994, "999%"}, {11.23, "11x"}, {250, ">99x"}} {
		if got := eventlogui.GcCell(eventlog.Ratio(c.r)); got != c.want || common.CellWidth(got) > 4 {
			t.Errorf("gcCell(%v) = %q, want %q (at most 4 cells)", c.r, got, c.want)
		}
	}
	scr := checkScreen(t, a, 80, 24)
	if !strings.Contains(scr, "   628.0  297 ARCHIVAL/archivedInstantDe…    12  259ms  9.1x     0B 124%   15ms") {
		t.Errorf("stage 628's row:\n%s", scr)
	}
	golden.RequireEqual(t, scr)
}
