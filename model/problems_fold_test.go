package model

import (
	"fmt"
	"testing"
)

// TestFoldProblems: problems alike (file kind and message, digits aside) fold after FoldKeep;
// a different message or file kind is its own kind; order is kept.
func TestFoldProblems(t *testing.T) {
	var ps []Problem
	for i := range 10 {
		ps = append(ps, Problem{Source: SourceReader, Severity: Warning, Shown: fmt.Sprintf(".hoodie/timeline/%d.clean.requested", 100+i), Message: fmt.Sprintf("bad at offset %d", i)})
	}
	ps = append(ps, Problem{Source: SourceReader, Severity: Warning, Shown: ".hoodie/timeline/1.commit", Message: "bad at offset 1"})
	got := FoldProblems(ps, 3)
	if len(got) != 5 {
		t.Fatalf("%d lines: %v", len(got), got)
	}
	if got[2].Shown != ".hoodie/timeline/102.clean.requested" || got[3].More != 7 || got[4].Shown != ".hoodie/timeline/1.commit" || got[4].More != 0 {
		t.Errorf("lines %+v", got)
	}
	if s := got[3].String(); s != "… and 7 more like this (…/N.clean.requested: bad at offset N; -o json lists all)" {
		t.Errorf("summary %q", s)
	}
	if n := len(FoldProblems(ps[:3], 3)); n != 3 {
		t.Errorf("3 alike fold to %d lines", n)
	}
}
