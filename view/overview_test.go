package view

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/model"
)

func TestHudiLine(t *testing.T) {
	for v, want := range map[int]string{4: "0.11", 5: "0.12/0.13", 6: "0.14/0.15", 8: "1.0", 9: "1.1+"} {
		if got := HudiLine(v); got != want {
			t.Errorf("v%d: %s, want %s", v, got, want)
		}
	}
}

// TestLastCommitOneRule: the Overview's last commit and the fleet row's are the same instant
// (model.LastCommit) on cow-services-1.2.0: the UPSERT that completed at 20261129162151912.
func TestLastCommitOneRule(t *testing.T) {
	zip := "../testdata/fixtures/cow-services-1.2.0/table.zip"
	if _, err := os.Stat(zip); err != nil {
		t.Skipf("fixture %s not present: %v", zip, err)
	}
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	s, err := model.Load(context.Background(), model.Options{Location: zip, ClusterDefaults: "-", Steps: []model.Step{model.StepTimeline},
		Now: func() time.Time { return now }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var fact *Fact
	facts := Build(s).Overview(Begins{})
	for i := range facts {
		if facts[i].Label == "last commit" {
			fact = &facts[i]
		}
	}
	if fact == nil {
		t.Fatalf("no last commit fact: %+v", facts)
	}
	row := model.RowFromSnapshot(model.FleetTarget{Name: "t", Location: zip}, s, nil, now)
	last := model.LastCommit(s.Timeline)
	if last == nil || last.CompletionTime != "20261129162151912" || last.Operation != "UPSERT" {
		t.Fatalf("last commit %+v, want the UPSERT completed at 20261129162151912", last)
	}
	if fact.Link.Instant != last.RequestedTime || row.LastCommit != last.RequestedTime {
		t.Errorf("Overview links %s, fleet row says %s, want %s", fact.Link.Instant, row.LastCommit, last.RequestedTime)
	}
}
