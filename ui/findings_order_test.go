package ui

import (
	"context"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/model"
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
	p := a.view().(*Findings)
	lacking := 0
	for _, f := range p.all {
		if lacksInputs(f) {
			lacking++
		}
	}
	if lacking == 0 || lacking == len(p.all) {
		t.Skipf("fixture has %d of %d findings lacking inputs: nothing to order", lacking, len(p.all))
	}
	for sorts := 0; sorts <= len(p.order.cols); sorts++ {
		seen := false
		for i, l := range p.lines {
			switch {
			case l.f == nil:
				seen = false // a new section
			case lacksInputs(l.f):
				seen = true
			case seen:
				t.Errorf("sort %d: %s has its inputs but follows a finding lacking them (line %d)", sorts, l.f.ID, i)
			}
		}
		press(a, "s")
	}
}
