package findings_test

import (
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/findings"
)

// Every row encodes its verification step: checks a pair of event logs evaluates, or why an
// event log cannot verify it.
func TestEveryRowHasVerification(t *testing.T) {
	checks := 0
	for _, r := range findings.Default().Rows {
		v := r.Verification
		if (len(v.Checks) == 0) == (v.Unverifiable == "") {
			t.Errorf("%s: checks %d, unverifiable %q: want exactly one", r.ID, len(v.Checks), v.Unverifiable)
		}
		if len(v.Checks) > 0 {
			checks++
		}
	}
	if checks != 15 {
		t.Errorf("%d rows verifiable from an event log, want 15", checks)
	}
}

func ptrEq(p *float64, w float64) bool { return p != nil && *p == w }

// The real pair: the same upsert job with hoodie.upsert.shuffle.parallelism 200 (before) and
// 2 (after) — OBS-009's change ("reduce the offending parallelism config toward two to three
// times the executor-core count"; local[2] has 2 cores).
func TestVerifyRealPair(t *testing.T) {
	before, after := pairReports(t)
	type want struct {
		before, after, delta float64
		outcome              string
	}
	cases := []struct {
		row     string
		b, a    bool // reversed: after → before (raising 2 → 200)
		verdict string
		checks  []want
	}{
		// OBS-009: the gap durationMillis - criticalPathMillis narrows (104172-53860 → 78904-35945),
		// the task count falls, and stage wall clock (the sum of stage durations) does not rise.
		{"OBS-009", false, false, findings.VerdictMoved, []want{
			{50312, 42959, -7353, findings.OutcomeMoved},
			{1274, 86, -1188, findings.OutcomeMoved},
			{74311, 43762, -30549, findings.OutcomeMoved}}},
		// OBS-011: the DEDUP_AND_INDEX_TAGGING share of stage wall clock falls.
		{"OBS-011", false, false, findings.VerdictMoved, []want{{0.769, 0.502, -0.267, findings.OutcomeMoved}}},
		// OBS-006 read on the reversed pair (raising the parallelism 2 → 200, its direction):
		// the tagging stages' planned tasks rise, but their wall clock rises too — the stages
		// were not parallelism-bound, the catalog's "if duration does not fall" case.
		{"OBS-006", true, false, findings.VerdictWrong, []want{
			{46, 1234, 1188, findings.OutcomeMoved},
			{21986, 57142, 35156, findings.OutcomeWrong},
			{6.167, 8.035, 1.868, findings.OutcomeWrong}}},
		// OBS-010: the job count is the same 26 (the same job), and critical path / duration
		// falls (0.517 → 0.456): the pair does not move what OBS-010's change moves.
		{"OBS-010", false, false, findings.VerdictWrong, []want{
			{0.517, 0.456, -0.061, findings.OutcomeWrong},
			{26, 26, 0, findings.OutcomeNone}}},
		// OBS-002: three smallFileProbe stages in both runs.
		{"OBS-002", false, false, findings.VerdictNone, []want{{3, 3, 0, findings.OutcomeNone}}},
		// OBS-005: no speculative task in either run: nothing fell to zero.
		{"OBS-005", false, false, findings.VerdictNone, []want{{0, 0, 0, findings.OutcomeNone}}},
		// OBS-014: no METADATA_TABLE_WRITE in either run (metadata table off): absent reads 0.
		{"OBS-014", false, false, findings.VerdictNone, []want{{0, 0, 0, findings.OutcomeNone}}},
	}
	for _, c := range cases {
		b, a := before, after
		if c.b {
			b, a = after, before
		}
		r, err := findings.Verify(nil, c.row, b, a)
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != c.verdict || len(r.Checks) != len(c.checks) {
			t.Errorf("%s: %s (%s), %d checks; want %s, %d", c.row, r.Verdict, r.Why, len(r.Checks), c.verdict, len(c.checks))
			continue
		}
		for i, w := range c.checks {
			g := r.Checks[i]
			if !ptrEq(g.Before, w.before) || !ptrEq(g.After, w.after) || !ptrEq(g.Delta, w.delta) || g.Outcome != w.outcome {
				t.Errorf("%s check %d (%s): before %v after %v delta %v %s; want %v %v %v %s", c.row, i, g.Says,
					deref(g.Before), deref(g.After), deref(g.Delta), g.Outcome, w.before, w.after, w.delta, w.outcome)
			}
		}
	}
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

// Unknown is never "no change": a missing log, and a row an event log cannot verify.
func TestVerifyUnknown(t *testing.T) {
	before, _ := pairReports(t)
	r, err := findings.Verify(nil, "OBS-009", before, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != findings.VerdictUnknown || r.Checks[0].Before == nil || r.Checks[0].After != nil || r.Checks[0].Outcome != findings.OutcomeUnknown {
		t.Errorf("after missing: %s, %+v", r.Verdict, r.Checks[0])
	}
	r, _ = findings.Verify(nil, "obs-013", before, before)
	if r.Verdict != findings.VerdictUnknown || r.Row != "OBS-013" || r.Unverifiable == "" {
		t.Errorf("query-plan row: %+v", r)
	}
	if _, err := findings.Verify(nil, "OBS-031", before, before); err == nil {
		t.Error("OBS-031: no error")
	}
	// The same log twice: nothing moved.
	r, _ = findings.Verify(nil, "OBS-009", before, before)
	if r.Verdict != findings.VerdictNone {
		t.Errorf("same log twice: %s (%s)", r.Verdict, r.Why)
	}
}

// The pair's recorded properties differ in one key, and four rows move it.
func TestVerifyAppliedPair(t *testing.T) {
	before, after := pairReports(t)
	d := findings.ChangedKeys(before, after)
	if len(d) != 1 || d[0].Key != "hoodie.upsert.shuffle.parallelism" || *d[0].Before != "200" || *d[0].After != "2" {
		t.Fatalf("changed keys: %+v", d)
	}
	var got []string
	for _, a := range findings.VerifyApplied(nil, nil, before, after) {
		got = append(got, a.Row+" "+a.Verify.Verdict)
	}
	want := []string{"OBS-006 moved the wrong way", "OBS-007 no change", "OBS-009 moved as predicted", "OBS-027 moved the wrong way"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("applied: %v, want %v", got, want)
	}
	if len(findings.ChangedKeys(before, before)) != 0 || findings.ChangedKeys(before, nil) != nil {
		t.Error("same log: keys differ")
	}
}
