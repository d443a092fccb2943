package ui

import (
	"context"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/model"
	findingsui "github.com/hudiscope/hudiscope/ui/findings"
)

// TestFindingsMissingInputsLast: in every section and every sort, a finding that needs an
// input that was not given comes after the findings that have their inputs.
func TestFindingsMissingInputsLast(t *testing.T) {
	needFixture(t, fxServices+"/table.zip")
	s, err := model.Load(context.Background(), model.Options{Location: fxServices + "/table.zip",
		Props: fxServices + "/writer.properties", ClusterDefaults: "-", Now: func() time.Time { return fixedNow }}, nil)
	if err != nil || s.Findings == nil {
		t.Fatalf("load: %v %v", err, s.StepErrors)
	}
	a := appWith(t, s, 120, 40)
	showPane(a, "Findings")
	p := a.view().(*findingsui.Findings)
	lacking := 0
	for _, f := range p.All {
		if findingsui.LacksInputs(f) {
			lacking++
		}
	}
	if lacking == 0 || lacking == len(p.All) {
		t.Skipf("fixture has %d of %d findings lacking inputs: nothing to order", lacking, len(p.All))
	}
	for sorts := 0; sorts <= len(p.Order.Cols); sorts++ {
		seen := false
		for i, l := range p.Lines {
			switch {
			case l.F == nil:
				seen = false // a new section
			case findingsui.LacksInputs(l.F):
				seen = true
			case seen:
				t.Errorf("sort %d: %s has its inputs but follows a finding lacking them (line %d)", sorts, l.F.ID, i)
			}
		}
		press(a, "s")
	}
}
