package findings_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/analyzers/findings"
	"github.com/hudiscope/hudiscope/analyzers/health"
	"github.com/hudiscope/hudiscope/model"
)

// loadWithProps loads a fixture table with its writer properties (plus conf) and no event log.
func loadWithProps(t *testing.T, name string, conf ...string) *model.Snapshot {
	t.Helper()
	return loadProps(t, name, filepath.Join(fixtures, name, "writer.properties"), conf...)
}

// loadProps loads a fixture with props ("" for none) and --hoodie-conf entries.
func loadProps(t *testing.T, name, props string, conf ...string) *model.Snapshot {
	t.Helper()
	dir := filepath.Join(fixtures, name)
	s, err := model.Load(context.Background(), model.Options{Location: filepath.Join(dir, "table.zip"),
		Props: props, HoodieConf: conf, ClusterDefaults: "-",
		Now: func() time.Time { return time.Date(2026, 11, 30, 20, 0, 0, 0, time.UTC) }}, nil)
	if err != nil {
		t.Skipf("fixture %s: %v", name, err)
	}
	for st, e := range s.StepErrors {
		t.Fatalf("%s: step %s: %v", name, st, e)
	}
	return s
}

func against(t *testing.T, f *findings.Finding, path string) findings.Evidence {
	t.Helper()
	for _, ev := range f.Against {
		if ev.Path == path {
			return ev
		}
	}
	t.Fatalf("%s has no counter-signal %s", f.ID, path)
	return findings.Evidence{}
}

const compactionState = "health.hudiscope.checks[name=compaction].state"

// TestClusteringCounterUnknownWhenCompactionSkipped: mor-services-1.2.0 with its writer
// properties is 6 delta commits past its last compaction (trigger 3); when its health
// compaction check is SKIPPED (the trigger strategy's default not known), the
// counter-signal "compaction already behind" read from that check is unknown, not "does not
// hold", so clustering is not a candidate and the row says which signal is unknown. (The
// heavy-updates counter-signal, which fires on this table, is set below its threshold so the
// compaction one decides.)
func TestClusteringCounterUnknownWhenCompactionSkipped(t *testing.T) {
	// With the writer properties the check judges the table at the writing release's default
	// trigger strategy. It is still skipped when that default is not known (release lines
	// that disagree on it, an unknown writing release): stand such a check in.
	s := loadWithProps(t, "mor-services-1.2.0")
	in := model.FindingsInput(s)
	h := *in.Health
	h.Checks = append([]health.Check(nil), h.Checks...)
	c := h.Check("compaction")
	if c == nil || c.Status != health.Healthy {
		t.Fatalf("compaction check: %+v, want HEALTHY judged at the release default", c)
	}
	c.Status, c.Summary = health.Skipped, "hoodie.compact.inline.trigger.strategy is not known for the writing release"
	in.Health = &h
	in.Facts = findings.DeriveTableFacts(in.TableConfig, in.Timeline, in.View)
	if n := in.Facts.Compactions.DeltaCommitsSince; n == nil || *n != 6 {
		t.Fatalf("delta commits since compaction = %v, want 6", n)
	}
	if f := findings.Evaluate(in, nil).Find("OBS-015"); f.Status != findings.StatusObservation {
		t.Fatalf("OBS-015 %s (%s): the timeline says compaction trails its trigger", f.Status, f.Why)
	}
	in.Facts.Commits.UpdatedFileGroupShare = ptr(0.2)
	f := findings.Evaluate(in, nil).Find("CAP-003")
	ev := against(t, f, compactionState)
	if ev.Known || ev.Holds || !strings.Contains(ev.Unknown, "compaction health check was skipped") {
		t.Errorf("compaction counter-signal known=%v holds=%v unknown=%q, want known=false from the skipped check", ev.Known, ev.Holds, ev.Unknown)
	}
	if f.Status != findings.StatusHypothesis {
		t.Errorf("CAP-003 status %q, want hypothesis (a deciding counter-signal is unknown): %s", f.Status, f.Why)
	}
	if !strings.Contains(f.Why, "compaction already behind") || !strings.Contains(f.Why, "unknown") || !strings.Contains(f.Why, compactionState) {
		t.Errorf("CAP-003 why does not name the unknown signal: %s", f.Why)
	}
	// A durable row is refused either way, but its why says what was not judged: without the
	// event log, CAP-002's tagging share is unknown.
	if f := findings.Evaluate(in, nil).Find("CAP-002"); f.Status != findings.StatusRefused || !strings.Contains(f.Why, `"index tagging is a large share"`) || !strings.Contains(f.Why, "unknown") {
		t.Errorf("CAP-002 %s: %s", f.Status, f.Why)
	}
	// With the writer properties the check judges the table at the release's default trigger
	// strategy NUM_COMMITS (6 against trigger 3, threshold 6: behind, not stopped) and the
	// counter-signal fires.
	in2 := model.FindingsInput(loadWithProps(t, "mor-services-1.2.0"))
	in2.Facts = findings.DeriveTableFacts(in2.TableConfig, in2.Timeline, in2.View)
	in2.Facts.Commits.UpdatedFileGroupShare = ptr(0.2)
	if f := findings.Evaluate(in2, nil).Find("OBS-015"); f.Status != findings.StatusObservation {
		t.Errorf("OBS-015 %s (%s), want an observation: props and table agree", f.Status, f.Why)
	}
	f = findings.Evaluate(in2, nil).Find("CAP-003")
	ev = against(t, f, compactionState)
	if !ev.Known || !ev.Holds || ev.Value != health.Behind || f.Status != findings.StatusDont {
		t.Errorf("judged: counter %+v, CAP-003 %s (%s); want %q holding and don't", ev, f.Status, f.Why, health.Behind)
	}
}

// TestCompactionCounterDoesNotApplyOnCopyOnWrite: on cow-services-1.2.0 the compaction check
// is SKIPPED because a Copy-on-Write table has no compaction; the counter-signal is then known
// not to hold (it does not apply), so it neither stops nor blocks clustering.
func TestCompactionCounterDoesNotApplyOnCopyOnWrite(t *testing.T) {
	in := model.FindingsInput(loadWithProps(t, "cow-services-1.2.0"))
	if c := in.Health.Check("compaction"); c == nil || c.Status != health.Skipped || !strings.Contains(c.Summary, "Copy-on-Write") {
		t.Fatalf("compaction check: %+v", c)
	}
	f := findings.Evaluate(in, nil).Find("CAP-003")
	ev := against(t, f, compactionState)
	if !ev.Known || ev.Holds || !strings.Contains(ev.Value, "does not apply") || !strings.Contains(ev.Value, "COPY_ON_WRITE") {
		t.Errorf("COW counter-signal %+v, want known, not holding, 'does not apply … COPY_ON_WRITE'", ev)
	}
}

// TestLazyCommitFactsUnknown: a fleet load reads instants without their commit metadata, so
// mor-compaction-1.2.0's 5 instants carry no totals and no operation. The commit facts are then unknown
// (nil), not the zeros the unread totals hold; a full load measures them.
func TestLazyCommitFactsUnknown(t *testing.T) {
	zip := filepath.Join(fixtures, "mor-compaction-1.2.0", "table.zip")
	base := model.Options{ClusterDefaults: "-", Now: func() time.Time { return time.Date(2026, 11, 30, 20, 0, 0, 0, time.UTC) }}
	s, err := model.Load(context.Background(), model.FleetOptions(base, model.FleetTarget{Name: "m", Location: zip}), nil)
	if err != nil || s.Timeline == nil {
		t.Skipf("fixture: %v", err)
	}
	f := findings.DeriveTableFacts(s.Config, s.Timeline, s.View)
	if f.Cleans.CommitsSince != nil {
		t.Errorf("lazy commits: writes since the last clean %v, want unknown", *f.Cleans.CommitsSince)
	}
	if c := f.Commits; c.Count != nil || c.NumInserts != nil || c.RecordsPerCommit.Median != nil || c.UpdateShare != nil || c.DominantOperation != nil {
		t.Errorf("lazy commits: count %v, inserts %v, median %v, update share %v, operation %v; want all unknown",
			c.Count, c.NumInserts, c.RecordsPerCommit.Median, c.UpdateShare, c.DominantOperation)
	}
	// The 5 instants are 4 delta commits (inserts 4, 0, 0, 1) and a compaction commit.
	full := loadWithProps(t, "mor-compaction-1.2.0")
	ff := findings.DeriveTableFacts(full.Config, full.Timeline, full.View)
	if c := ff.Commits; c.Count == nil || *c.Count != 4 || c.NumInserts == nil || *c.NumInserts != 5 {
		t.Errorf("full load: count %v, inserts %v; want 4 and 5", c.Count, c.NumInserts)
	}
}
