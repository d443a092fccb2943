package findings_test

import (
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/findings"
)

// TestTopFinding: the top finding is the highest-ranked observation, however high a hypothesis
// or a do-nothing reading ranks; without one it is "none (N hypotheses)".
func TestTopFinding(t *testing.T) {
	obs := func(id, status string, score float64) findings.Finding {
		return findings.Finding{ID: id, Kind: findings.KindObservation, Title: "t " + id, Status: status, Risk: findings.RiskSafe, Score: score}
	}
	r := &findings.Result{Findings: []findings.Finding{
		obs("OBS-008", findings.StatusHypothesis, 0.9),
		obs("OBS-019", findings.StatusDoNothing, 0.8),
		obs("OBS-016", findings.StatusObservation, 0.2),
		obs("OBS-020", findings.StatusObservation, 0.3),
		obs("OBS-026", findings.StatusHypothesis, 0.1),
	}}
	if got := r.TopFinding(); got.ID != "OBS-020" || got.Hypotheses != 2 || got.Says != "OBS-020 t OBS-020" {
		t.Errorf("top %+v, want OBS-020 with 2 hypotheses", got)
	}
	r.Findings = r.Findings[:2]
	if got := r.TopFinding(); got.ID != "" || got.Says != "none (1 hypothesis)" {
		t.Errorf("top %+v, want none (1 hypothesis)", got)
	}
}
