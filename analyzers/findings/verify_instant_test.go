package findings_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/findings"
	"github.com/hudiscope/hudiscope/assets"
)

// The rows with instant checks, and what the others say: every row is verifiable from an event
// log, from the table's instants, or says why neither.
func TestInstantVerificationRows(t *testing.T) {
	var got []string
	for _, r := range findings.Default().Rows {
		if r.InstantVerifiable() {
			got = append(got, r.ID)
			continue
		}
		res, err := findings.VerifyInstants(nil, r.ID, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != findings.VerdictUnknown || !strings.HasPrefix(res.Why, "not verifiable from the table's instants: ") || res.Unverifiable == "" {
			t.Errorf("%s: %q / %q, want unknown saying why the instants cannot verify it", r.ID, res.Verdict, res.Why)
		}
	}
	if want := "OBS-001 OBS-003 OBS-012 OBS-015 OBS-016 OBS-026 OBS-028 CAP-003"; strings.Join(got, " ") != want {
		t.Errorf("rows with instant checks: %v, want %s", got, want)
	}
}

// An instant that is missing or unknown makes the verdict unknown, never "no change"; figures
// on both sides decide as on event logs.
func TestVerifyInstantsVerdicts(t *testing.T) {
	at := func(v float64) *findings.InstantMeasure {
		return &findings.InstantMeasure{Instant: "x", Values: map[string]float64{"instant.fileGroups": v}}
	}
	for _, c := range []struct {
		before, after *findings.InstantMeasure
		verdict, why  string
	}{
		{at(62), at(3), findings.VerdictMoved, ""},
		{at(3), at(5), findings.VerdictWrong, ""},
		{at(5), at(5), findings.VerdictNone, ""},
		{nil, at(3), findings.VerdictUnknown, "before: the instant is missing"},
		{&findings.InstantMeasure{Instant: "20261129163053361.compaction", Unknown: "20261129163053361.compaction is requested, not completed"}, at(3),
			findings.VerdictUnknown, "before: 20261129163053361.compaction is requested, not completed"},
		{&findings.InstantMeasure{Instant: "y", Why: map[string]string{"instant.fileGroups": "earlier writes were archived"}}, at(3),
			findings.VerdictUnknown, "before: earlier writes were archived"},
	} {
		res, err := findings.VerifyInstants(nil, "obs-003", c.before, c.after)
		if err != nil {
			t.Fatal(err)
		}
		if res.Row != "OBS-003" || res.Verdict != c.verdict || (c.why != "" && res.Checks[0].Why != c.why) {
			t.Errorf("%+v → %+v: %q (%q), want %q (%q)", c.before, c.after, res.Verdict, res.Checks[0].Why, c.verdict, c.why)
		}
	}
	if _, err := findings.VerifyInstants(nil, "OBS-099", nil, nil); err == nil {
		t.Error("OBS-099 verified")
	}
	// an event-log verification of a row only instants verify points to them
	res, _ := findings.Verify(nil, "OBS-015", nil, nil)
	if !strings.Contains(res.Why, "--table T --before INSTANT --after INSTANT") {
		t.Errorf("OBS-015 on event logs: %q", res.Why)
	}
}

// A catalog whose instant check names an unknown measure, or aggregates one, does not load.
func TestInstantCheckCompile(t *testing.T) {
	for _, c := range []struct {
		check map[string]any
		want  string
	}{
		{map[string]any{"path": "instant.fileGroup", "expect": "down", "says": "s"}, `"instant.fileGroup": an instant check reads one instant.* measure`},
		{map[string]any{"path": "instant.fileGroups", "agg": "sum", "expect": "down", "says": "s"}, "without agg, minus or over"},
		{map[string]any{"path": "instant.fileGroups", "expect": "sideways", "says": "s"}, `unknown expect "sideways"`},
		{map[string]any{"path": "instant.fileGroups", "expect": "down", "guard": true, "says": "s"}, "instant checks are only guards"},
	} {
		var doc map[string]any
		if err := json.Unmarshal(assets.FindingsCatalog, &doc); err != nil {
			t.Fatal(err)
		}
		for _, r := range doc["rows"].([]any) {
			if row := r.(map[string]any); row["id"] == "OBS-003" {
				row["verification"].(map[string]any)["instant"] = []any{c.check}
			}
		}
		b, _ := json.Marshal(doc)
		_, err := findings.Parse(b, assets.FindingsKnownKeys, assets.KnownConfigs, assets.EngineDefaults)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "OBS-003") {
			t.Errorf("%v: %v, want an error naming OBS-003 and %q", c.check, err, c.want)
		}
	}
}
