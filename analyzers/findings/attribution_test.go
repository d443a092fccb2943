package findings_test

import (
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/findings"
	"github.com/hudiscope/hudiscope/model"
)

// "Where the time went" is hudiscope's attribution, the Java tool's share beside each phase,
// and leads with the time no job covers. cow-services-1.2.0's log (checked with `hudiscope
// eventlog -o json`): 605028 ms of application, 207177 ms in no job (0.342);
// DEDUP_AND_INDEX_TAGGING 0.354 in hudiscope's attribution, 0.51 in the Java tool's (which
// files the metadata table's "Building workload profile:…_metadata" stages there);
// METADATA_TABLE_WRITE 0.295 against the Java tool's 0.02.
func TestTimeBreakdownIsHudiscopesAttribution(t *testing.T) {
	in := model.FindingsInput(loadFixture(t, "cow-services-1.2.0"))
	tb := findings.Evaluate(in, nil).Time
	if tb == nil {
		t.Fatal("no time breakdown")
	}
	if tb.Attribution != "hudiscope" || tb.DurationMillis != 605028 || tb.UncoveredMillis != 207177 || tb.UncoveredShare != 0.342 {
		t.Errorf("attribution %q, duration %d, uncovered %d (%v)", tb.Attribution, tb.DurationMillis, tb.UncoveredMillis, tb.UncoveredShare)
	}
	got := map[string][2]float64{}
	for _, p := range tb.Phases {
		got[p.Phase] = [2]float64{p.Share, p.JavaShare}
	}
	if tb.Phases[0].Phase != "DEDUP_AND_INDEX_TAGGING" || got["DEDUP_AND_INDEX_TAGGING"] != [2]float64{0.354, 0.51} ||
		got["METADATA_TABLE_WRITE"] != [2]float64{0.295, 0.02} {
		t.Errorf("phases %v", got)
	}
	for _, want := range []string{"No Spark job ran for 3m27s of the application's 10m5s (34.2%)",
		"The largest phase is DEDUP_AND_INDEX_TAGGING at 35.4% of stage wall clock; the Java tool's attribution gives it 51.0%"} {
		if !strings.Contains(tb.Lead, want) {
			t.Errorf("lead lacks %q: %s", want, tb.Lead)
		}
	}
}

// CAP-001 (SIMPLE or BLOOM → record-level index) reads the tagging share hudiscope
// attributes, not the Java tool's. On index-bloom-1.2.0 the Java tool gives
// DEDUP_AND_INDEX_TAGGING 0.396 of stage wall clock, most of it the metadata table's own
// writes reusing the data table's job texts (its caveat says so); hudiscope gives 0.069, so
// the counter-signal "tagging share already small: no headroom" (< 0.1) holds and the
// "material share" signal (> 0.2) does not.
func TestCapabilityReadsHudiscopesTaggingShare(t *testing.T) {
	in := model.FindingsInput(loadFixture(t, "index-bloom-1.2.0"))
	f := findings.Evaluate(in, nil).Find("CAP-001")
	if f == nil {
		t.Fatal("no CAP-001")
	}
	const path = "eventlog.hudiscope.phaseSummary[phase=DEDUP_AND_INDEX_TAGGING].shareOfStageWallClock"
	var sig, against *findings.Evidence
	for i := range f.Signals {
		if f.Signals[i].Path == path {
			sig = &f.Signals[i]
		}
	}
	for i := range f.Against {
		if f.Against[i].Path == path {
			against = &f.Against[i]
		}
	}
	if sig == nil || against == nil {
		t.Fatalf("CAP-001 does not read %s: signals %+v against %+v", path, f.Signals, f.Against)
	}
	if !sig.Known || sig.Holds || !strings.HasPrefix(sig.Value, "0.069") {
		t.Errorf("signal: known %v holds %v value %q, want 0.069 not holding", sig.Known, sig.Holds, sig.Value)
	}
	if !against.Known || !against.Holds || !strings.HasPrefix(against.Value, "0.069") {
		t.Errorf("counter-signal: known %v holds %v value %q, want 0.069 holding", against.Known, against.Holds, against.Value)
	}
}
