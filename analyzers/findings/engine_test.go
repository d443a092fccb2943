package findings_test

import (
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/config"
	"github.com/hudiscope/hudiscope/analyzers/findings"
)

func TestMisspelledKey(t *testing.T) {
	in := base(t)
	props(&in, "hoodie.parquet.small.file.limt", "1", "hoodie.upsert.shuffle.parallelism", "4", "hoodie.totally.unrelated.custom.key", "x")
	r := findings.Evaluate(in, nil)
	if len(r.Misspellings) != 1 || r.Misspellings[0].Key != "hoodie.parquet.small.file.limt" || r.Misspellings[0].Suggest != "hoodie.parquet.small.file.limit" {
		t.Fatalf("misspellings: %+v", r.Misspellings)
	}
}

func TestFixturePropsHaveNoMisspellings(t *testing.T) {
	for _, fx := range []string{"incr-1.2.0", "cdc-1.2.0", "cow-services-1.2.0"} {
		s := loadFixture(t, fx)
		if m := s.Findings.Misspellings; len(m) != 0 {
			t.Errorf("%s: real keys reported as misspelled: %+v", fx, m)
		}
	}
}

// TestOneInputIsHypothesis: with the table alone (no props, no event log) nothing is
// recommended; every firing row is a hypothesis naming the input that would settle it.
func TestOneInputIsHypothesis(t *testing.T) {
	in := base(t)
	in.PropsPresent, in.EventLog = false, nil
	in.Config = config.New(config.Input{Table: in.TableConfig.Props})
	r := findings.Evaluate(in, nil)
	if r.Inputs.Count != 1 || r.Inputs.Confidence != findings.Describe {
		t.Fatalf("inputs %+v", r.Inputs)
	}
	fired := 0
	for _, f := range r.Findings {
		switch f.Status {
		case findings.StatusObservation, findings.StatusCandidate:
			t.Errorf("%s recommended from one input: %s", f.ID, f.Why)
		case findings.StatusHypothesis:
			fired++
			if f.Settle == "" {
				t.Errorf("%s: hypothesis without the input that would settle it", f.ID)
			}
		}
	}
	if fired == 0 {
		t.Error("no hypothesis at all from the table alone")
	}
	if len(r.Missing) != 2 {
		t.Errorf("missing inputs: %+v", r.Missing)
	}
}

func TestConfidenceLevels(t *testing.T) {
	in := base(t)
	if r := findings.Evaluate(in, nil); r.Inputs.Confidence != findings.RecommendWithVerifies || r.Time == nil {
		t.Fatalf("three inputs: %+v", r.Inputs)
	}
	in.EventLog = nil
	if r := findings.Evaluate(in, nil); r.Inputs.Confidence != findings.Recommend || r.Time != nil {
		t.Fatalf("two inputs: %+v", r.Inputs)
	}
}

// TestDefaultsAreEngineEffective: a key the writer never set is reported as "you are on the
// default", with the engine-effective value (SIMPLE on Spark, INMEMORY on Flink).
func TestDefaultsAreEngineEffective(t *testing.T) {
	in := base(t)
	f := findings.Evaluate(in, nil).Find("CAP-001")
	for _, e := range f.Signals {
		if e.Path == "props.hoodie.index.type" && (e.Value != "SIMPLE" || !strings.Contains(e.Source, "you are on the default")) {
			t.Fatalf("spark index type: %+v", e)
		}
	}
	c := *in.Config
	c.Engine = "flink"
	in.Config = &c
	f = findings.Evaluate(in, nil).Find("CAP-001")
	if f.Signals[0].Value != "INMEMORY" || f.Fired {
		t.Fatalf("flink: %+v fired=%v", f.Signals[0], f.Fired)
	}
}

func TestCatalogRows(t *testing.T) {
	c := findings.Default()
	for _, r := range c.Rows {
		if r.Risk == findings.RiskDurable && (r.Handoff == "" || len(r.Change.Keys) > 0) {
			t.Errorf("%s: durable rows carry a handoff and no config keys", r.ID)
		}
		if r.Kind == findings.KindCapability && len(r.Against) == 0 {
			t.Errorf("%s: a capability row must be able to say don't", r.ID)
		}
		if len(r.Corroborate) < 2 {
			t.Errorf("%s: fewer than two corroborating inputs", r.ID)
		}
	}
	for _, id := range []string{"OBS-002", "OBS-019"} {
		if c.Row(id).Outcome != findings.OutcomeDoNothing {
			t.Errorf("%s should answer do nothing", id)
		}
	}
}
