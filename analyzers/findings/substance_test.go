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

// evaluate is Evaluate over a loaded snapshot, as every report builds it.
func evaluate(s *model.Snapshot) *findings.Result {
	in := model.FindingsInput(s)
	return findings.Evaluate(in, nil)
}

// signal is the finding's evidence for a condition whose path starts with prefix.
func signal(t *testing.T, f *findings.Finding, prefix string) findings.Evidence {
	t.Helper()
	for _, ev := range f.Signals {
		if strings.HasPrefix(ev.Path, prefix) {
			return ev
		}
	}
	t.Fatalf("%s has no signal %s*: %+v", f.ID, prefix, f.Signals)
	return findings.Evidence{}
}

// TestAnyOfIsThreeValued: incr-1.2.0 (datasource writer, event log) carries neither streamer
// bound, and one form's key cannot be judged for this writer. One form that could still hold makes
// OBS-010's "the writer bounds each sync's batch" unknown, not "no": the row (critical path
// 21 295 ms of 68 040 ms, 43 jobs, median 2 records a commit) stays a hypothesis instead of
// "not observed". Before, any fully-known group made the whole condition known and false.
func TestAnyOfIsThreeValued(t *testing.T) {
	f := evaluate(loadFixture(t, "incr-1.2.0")).Find("OBS-010")
	ev := signal(t, f, "any of")
	if ev.Known || ev.Holds || !strings.Contains(ev.Unknown, "cannot be judged") {
		t.Errorf("batch-bound anyOf: known=%v holds=%v unknown=%q, want unknown", ev.Known, ev.Holds, ev.Unknown)
	}
	if f.Status != findings.StatusHypothesis {
		t.Errorf("OBS-010 = %s (%s), want hypothesis", f.Status, f.Why)
	}
	if v := signal(t, f, "eventlog.application.observed.jobCount"); v.Value != "43" {
		t.Errorf("jobCount = %s, want 43", v.Value)
	}
	if v := signal(t, f, "eventlog.application.observed.criticalPathMillis"); v.Value != "21295" || !strings.HasSuffix(v.Threshold, "= 34020") {
		t.Errorf("critical path = %s against %s, want 21295 against half of 68040", v.Value, v.Threshold)
	}
}

// loadFull loads a fixture table with writer properties, an event log (a path relative to
// the fixtures) and --hoodie-conf entries, at the pinned clock.
func loadFull(t *testing.T, name, props, log string, conf ...string) *model.Snapshot {
	t.Helper()
	dir := filepath.Join(fixtures, name)
	opt := model.Options{Location: filepath.Join(dir, "table.zip"), HoodieConf: conf, ClusterDefaults: "-",
		Now: func() time.Time { return time.Date(2026, 11, 30, 20, 0, 0, 0, time.UTC) }}
	if props != "" {
		opt.Props = filepath.Join(dir, props)
	}
	if log != "" {
		logs, _ := filepath.Glob(filepath.Join(fixtures, log))
		if len(logs) == 0 {
			t.Skipf("no event log %s", log)
		}
		opt.EventLog = logs[0]
	}
	s, err := model.Load(context.Background(), opt, nil)
	if err != nil {
		t.Skipf("fixture %s: %v", name, err)
	}
	for st, e := range s.StepErrors {
		t.Fatalf("%s: step %s: %v", name, st, e)
	}
	return s
}

// TestPartitionStatsOffNeedsTheIndex (issue 30, 1): incr-1.0.2 is unpartitioned (1 partition)
// with partition stats on in its props, but its metadata table holds only column_stats and
// files: turning the key off removes nothing, so OBS-014 is gated and names the missing
// partition_stats index (before: "observation, props + table"). mor-services-1.0.2 holds the
// index (3 partitions) and still gets the observation.
func TestPartitionStatsOffNeedsTheIndex(t *testing.T) {
	f := evaluate(loadFull(t, "incr-1.0.2", "writer.properties", "")).Find("OBS-014")
	if f.Status != findings.StatusGated || !strings.Contains(f.Why, "partition_stats") || !strings.Contains(f.Why, "column_stats,files") {
		t.Errorf("incr-1.0.2 OBS-014 = %s (%s), want gated on the missing partition_stats index", f.Status, f.Why)
	}
	if advised(f, "hoodie.metadata.index.partition.stats.enable") {
		t.Error("incr-1.0.2: partition stats off is still advised")
	}
	g := evaluate(loadFull(t, "mor-services-1.0.2", "writer.properties", "")).Find("OBS-014")
	if g.Status != findings.StatusObservation || !advised(g, "hoodie.metadata.index.partition.stats.enable") {
		t.Errorf("mor-services-1.0.2 OBS-014 = %s (%s), want an observation", g.Status, g.Why)
	}
}

// TestOverParallelSubjectIsGoverned (issue 30, 2): cow-services-1.2.0 with its event log and
// hoodie.simple.index.parallelism=5000. The log's only stages of 200+ tiny tasks are the
// cleaning stages 1340 and 1341 (235 tasks, p50 52 ms and 8 ms), which no parallelism key of
// OBS-009 governs, and its largest tagging stage planned 65 tasks, so 5000 never ran. Before,
// OBS-009 was an observation about "stage 1340 (EXECUTION/cleaning)" advising
// simple.index.parallelism down; now it is not observed and advises nothing.
func TestOverParallelSubjectIsGoverned(t *testing.T) {
	s := loadFull(t, "cow-services-1.2.0", "writer.properties", "cow-services-1.2.0/eventlog_v2_*", "hoodie.simple.index.parallelism=5000")
	in := model.FindingsInput(s)
	rf := findings.DeriveRunFacts(in.EventLog, int64(in.Layout.TotalFiles), 0)
	if rf.TinyTasks.Stage != nil || rf.MaxTasks.Tagging == nil || *rf.MaxTasks.Tagging != 65 {
		t.Errorf("run facts: tiny %v, max tagging tasks %v; want no governed tiny stage and 65", rf.TinyTasks.Stage, rf.MaxTasks.Tagging)
	}
	f := findings.Evaluate(in, nil).Find("OBS-009")
	if f.Status != findings.StatusNotObserved || f.Subject != "" || advised(f, "hoodie.simple.index.parallelism") {
		t.Errorf("OBS-009 = %s subject %q (%s), want not observed with no subject", f.Status, f.Subject, f.Why)
	}
	// The rule itself: a subject no live key governs breaks the invariant.
	r := &findings.Result{Findings: []findings.Finding{{ID: "OBS-009", Status: findings.StatusObservation, Risk: findings.RiskSafe,
		Subject: "stage 1340 (EXECUTION/cleaning)", Agreed: []string{"props", "eventlog"},
		Signals: []findings.Evidence{{Input: "eventlog", Op: "ge", Known: true, Holds: true, Agrees: []string{"props", "eventlog"}}},
		Keys:    []findings.KeyAdvice{{Key: "hoodie.simple.index.parallelism", Direction: "down", Current: "5000", Exists: true, Governs: []string{"DEDUP_AND_INDEX_TAGGING"}}}}}}
	if v := findings.CheckInvariants(r); len(v) != 1 || v[0].Rule != findings.RuleSubject {
		t.Errorf("invariants = %+v, want one subject violation", v)
	}
}

// TestDoNothingNeedsTheProbe (issue 30, 3): cow-services-1.2.0 with a tuned small-file limit
// (80 MB) has 11 KB median files and upserts, but its log ran no smallFileProbe stage: the
// "lever is live and declining" reading has no probe behind it, so OBS-002 is not observed
// (before: "do nothing"), the probe signal named.
func TestDoNothingNeedsTheProbe(t *testing.T) {
	s := loadFull(t, "cow-services-1.2.0", "writer.properties", "cow-services-1.2.0/eventlog_v2_*", "hoodie.parquet.small.file.limit=83886080")
	f := evaluate(s).Find("OBS-002")
	ev := signal(t, f, "eventlog.stages[subPhase=smallFileProbe]")
	if !ev.Known || ev.Holds || ev.Value != "count 0" {
		t.Errorf("probe signal: known %v holds %v value %q, want count 0 known false", ev.Known, ev.Holds, ev.Value)
	}
	if f.Status != findings.StatusNotObserved {
		t.Errorf("OBS-002 = %s (%s), want not observed", f.Status, f.Why)
	}
	if p := signal(t, f, "layout.tableSizeStats.p50"); p.Value != "11183" && !strings.HasPrefix(p.Value, "11") {
		t.Errorf("p50 = %s, want about 11 KB", p.Value)
	}
}

// TestSecondaryIndexNeedsTheMetadataTable (issue 30, 4): mor-services-1.2.0 has a
// record_index partition and the record-level index on in its props; with
// hoodie.metadata.enable=false appended, the writer maintains no metadata table, so CAP-005
// is gated on that precondition (before: a hypothesis that CREATE INDEX was worth it).
func TestSecondaryIndexNeedsTheMetadataTable(t *testing.T) {
	f := evaluate(loadFull(t, "mor-services-1.2.0", "writer.properties", "", "hoodie.metadata.enable=false")).Find("CAP-005")
	if f.Status != findings.StatusGated || !strings.Contains(f.Why, "props.hoodie.metadata.enable = false") {
		t.Errorf("CAP-005 = %s (%s), want gated on the metadata table", f.Status, f.Why)
	}
	g := evaluate(loadFull(t, "mor-services-1.2.0", "writer.properties", "")).Find("CAP-005")
	if g.Status == findings.StatusGated {
		t.Errorf("with the metadata table on CAP-005 is gated: %s", g.Why)
	}
}

// TestForeignEventLogExcluded (issue 30, 5): cow-v4-0.11.1 (table cow_v4) paired with
// cow-services-1.2.0's event log, whose Hudi jobs wrote cow_services and
// cow_services_metadata. The log is excluded with that reason; the report works from 2 of 3
// inputs and no row counts it (before: "3 of 3 inputs", OBS-009 and CAP-002 built on it).
func TestForeignEventLogExcluded(t *testing.T) {
	s := loadFull(t, "cow-v4-0.11.1", "writer.properties", "cow-services-1.2.0/eventlog_v2_*")
	r := evaluate(s)
	if len(r.Excluded) != 1 || r.Excluded[0].Input != findings.InputEventLog ||
		r.Excluded[0].Says != "the Spark event log describes table(s) cow_services, cow_services_metadata, not cow_v4" {
		t.Fatalf("excluded = %+v", r.Excluded)
	}
	if r.Inputs.Count != 2 || r.Inputs.EventLog || !strings.Contains(r.Inputs.Statement, "event log excluded: the Spark event log describes table(s) cow_services") {
		t.Errorf("inputs = %+v", r.Inputs)
	}
	for _, f := range r.Findings {
		if contains(f.Agreed, findings.InputEventLog) {
			t.Errorf("%s counts the foreign event log", f.ID)
		}
	}
	if r.Time != nil {
		t.Error("the time breakdown reads the foreign log")
	}
	// Its own log is kept.
	if own := evaluate(loadFull(t, "cow-services-1.2.0", "writer.properties", "cow-services-1.2.0/eventlog_v2_*")); len(own.Excluded) != 0 || !own.Inputs.EventLog {
		t.Errorf("own log excluded: %+v", own.Excluded)
	}
	// Props naming another table are excluded the same way.
	p := evaluate(loadFull(t, "cow-v4-0.11.1", "writer.properties", "", "hoodie.table.name=orders"))
	if len(p.Excluded) != 1 || p.Excluded[0].Input != findings.InputProps || p.Inputs.Props {
		t.Errorf("props of table orders: excluded %+v, props present %v", p.Excluded, p.Inputs.Props)
	}
}

// TestColumnStatsRowNeedsColumnStats (issue 30, 6a): index-bloom-1.2.0 (13 files a
// partition, column stats on, no clustering) with hoodie.metadata.enable=false: column stats
// cannot be maintained, so OBS-024 is gated (before: a hypothesis to sort for pruning).
func TestColumnStatsRowNeedsColumnStats(t *testing.T) {
	f := evaluate(loadFull(t, "index-bloom-1.2.0", "writer.properties", "", "hoodie.metadata.enable=false")).Find("OBS-024")
	if f.Status != findings.StatusGated || !strings.Contains(f.Why, "metadata table is on") {
		t.Errorf("OBS-024 = %s (%s), want gated", f.Status, f.Why)
	}
}

// TestRecordIndexSizingCountsTheTable (issue 30, 6b): mor-services-1.2.0's snapshot holds 12
// records (hudiscope snapshot --count); the commit-metadata estimate read 0. The sizing now
// reads the latest base files' footers: 12, and says log files are not counted. cow-v4-0.11.1:
// 28 (the estimate was 5).
func TestRecordIndexSizingCountsTheTable(t *testing.T) {
	for _, c := range []struct {
		name, want string
	}{{"mor-services-1.2.0", "Your record count (12, from the latest base files' Parquet footers (base files only"},
		{"cow-v4-0.11.1", "Your record count (28, from the latest base files' Parquet footers)"}} {
		s := loadFull(t, c.name, "writer.properties", "")
		f := s.Findings.Find("CAP-001")
		if f.Estimate == nil || !strings.HasPrefix(f.Estimate.Text, c.want) || f.Estimate.Inputs["records"] != strings.Fields(strings.TrimPrefix(c.want, "Your record count ("))[0][:2] {
			t.Errorf("%s: estimate %+v, want %q", c.name, f.Estimate, c.want)
		}
	}
}

// TestServiceCadenceNoise (issue 30, 7): cow-services-1.2.0's last clean is followed by a
// clustering replacecommit and one commit; with the clean trigger at 1 the cleaner does not
// trail (clustering is not a write it trails), so OBS-016 is not observed (before: an
// observation advising trigger.max.commits, already 1, and clean.async with no evidence).
// mor-services-1.2.0 (4 delta commits since the clean): OBS-016 holds but neither key is
// advised (trigger at its minimum; cleaning 4.3% of stage wall clock); OBS-015 offers at most
// one of max.delta.commits down / target.io up (its compaction execution time is not in the
// log, so neither); OBS-017 leaves archival.batch alone (archival 0.5% of stage wall clock).
func TestServiceCadenceNoise(t *testing.T) {
	cow := evaluate(loadFull(t, "cow-services-1.2.0", "writer.properties", "cow-services-1.2.0/eventlog_v2_*"))
	if f := cow.Find("OBS-016"); f.Status != findings.StatusNotObserved {
		t.Errorf("cow-services OBS-016 = %s (%s)", f.Status, f.Why)
	}
	s := loadFull(t, "mor-services-1.2.0", "writer.properties", "mor-services-1.2.0/local-*")
	r := evaluate(s)
	f16 := r.Find("OBS-016")
	if f16.Status != findings.StatusObservation || advised(f16, "hoodie.clean.trigger.max.commits") || advised(f16, "hoodie.clean.async.enabled") {
		t.Errorf("OBS-016 = %s keys %+v", f16.Status, f16.Keys)
	}
	if k := key(f16, "hoodie.clean.trigger.max.commits"); k == nil || k.Current != "1" || !strings.Contains(k.InertSays, "minimum") {
		t.Errorf("trigger key %+v", k)
	}
	f15 := r.Find("OBS-015")
	if advised(f15, "hoodie.compact.inline.max.delta.commits") && advised(f15, "hoodie.compaction.target.io") {
		t.Errorf("OBS-015 offers both levers: %+v", f15.Keys)
	}
	f17 := r.Find("OBS-017")
	if advised(f17, "hoodie.commits.archival.batch") {
		t.Errorf("OBS-017 lowers archival.batch with archival at %s", signal(t, f17, "eventlog.hudiscope.phaseSummary[phase=ARCHIVAL]").Value)
	}
	if v := signal(t, f17, "eventlog.hudiscope.phaseSummary[phase=ARCHIVAL]").Value; v != "0.005" {
		t.Errorf("archival share %s, want 0.005", v)
	}
	for _, v := range r.Violations {
		t.Errorf("violation %s: %s", v.Rule, v.Says)
	}
}

// TestNotApplicableCheckIsKnown: a health check skipped because the table has nothing for it
// to judge (here mdt-compaction, as on a table without a metadata table) makes a condition on
// its state known and false — "(does not apply: …)" — not unknown. Before, CAP-001's
// counter-signal "the metadata table's compaction is behind" read as unknown and kept the
// handoff open on a question that does not exist.
func TestNotApplicableCheckIsKnown(t *testing.T) {
	in := base(t)
	for i := range in.Health.Checks {
		if in.Health.Checks[i].Name == "mdt-compaction" {
			in.Health.Checks[i].Status, in.Health.Checks[i].Summary = health.Skipped, "No metadata table"
		}
	}
	for i := range in.Health.Hudiscope.Checks {
		if in.Health.Hudiscope.Checks[i].Name == "mdt-compaction" {
			in.Health.Hudiscope.Checks[i].Skip, in.Health.Hudiscope.Checks[i].State = health.NotApplicable, ""
		}
	}
	ev := against(t, findings.Evaluate(in, nil).Find("CAP-001"), "health.hudiscope.checks[name=mdt-compaction].state")
	if !ev.Known || ev.Holds || !strings.HasPrefix(ev.Value, "(does not apply: the mdt-compaction check is not applicable here: No metadata table") {
		t.Errorf("mdt-compaction counter-signal: known %v holds %v value %q unknown %q", ev.Known, ev.Holds, ev.Value, ev.Unknown)
	}
}
