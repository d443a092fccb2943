package findings_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/config"
	"github.com/hudiscope/hudiscope/analyzers/eventlog"
	"github.com/hudiscope/hudiscope/analyzers/findings"
	"github.com/hudiscope/hudiscope/analyzers/health"
	"github.com/hudiscope/hudiscope/assets"
	"github.com/hudiscope/hudiscope/model"
)

func key(f *findings.Finding, k string) *findings.KeyAdvice {
	for i := range f.Keys {
		if f.Keys[i].Key == k {
			return &f.Keys[i]
		}
	}
	return nil
}

// advised: the finding prints k as a change.
func advised(f *findings.Finding, k string) bool {
	a := key(f, k)
	return a != nil && !a.Inert && (f.Status == findings.StatusObservation || f.Status == findings.StatusHypothesis || f.Status == findings.StatusCandidate)
}

func noViolations(t *testing.T, r *findings.Result) {
	t.Helper()
	for _, v := range r.Violations {
		t.Errorf("invariant %s: %s", v.Rule, v.Says)
	}
}

// A large simple.index.parallelism must never read "up" (OBS-011) beside "down" (OBS-009).
func TestNoTwoDirectionsSimpleIndexParallelism(t *testing.T) {
	in := base(t)
	props(&in, "hoodie.simple.index.parallelism", "10000")
	stages(&in, eventlog.PhaseDedupTagging, func(s *eventlog.Stage) {
		s.Observed.NumTasksPlanned, s.Observed.DurationMillis, s.Observed.SkewRatio = 1, 120000, 1
	})
	// One tagging stage ran the configured 10000 as tiny tasks (OBS-009's subject).
	i := firstStage(&in, eventlog.PhaseDedupTagging)
	in.EventLog.Stages[i].Observed.NumTasksPlanned, in.EventLog.Stages[i].Observed.TaskDurationMillis.P50 = 10000, 10
	in.EventLog.Stages[i].Observed.DurationMillis = 5000
	r := findings.Evaluate(in, nil)
	noViolations(t, r)
	if advised(r.Find("OBS-011"), "hoodie.simple.index.parallelism") {
		t.Errorf("OBS-011 raises simple.index.parallelism already at 10000: %+v", key(r.Find("OBS-011"), "hoodie.simple.index.parallelism"))
	}
	if !advised(r.Find("OBS-009"), "hoodie.simple.index.parallelism") {
		t.Errorf("OBS-009 should reduce it: %s %s", r.Find("OBS-009").Status, r.Find("OBS-009").Why)
	}
}

// With small.file.limit set, OBS-001 ("raise it") and OBS-002 ("change nothing") never both speak.
func TestSmallFileLimitOneReading(t *testing.T) {
	for _, perPart := range []float64{1 * mb, 500 * mb} {
		in := base(t)
		smallFiles(&in)
		props(&in, "hoodie.parquet.small.file.limit", "104857600")
		in.Facts.Commits.BytesPerPartitionCommit = ptr(perPart)
		r := findings.Evaluate(in, nil)
		noViolations(t, r)
		o1, o2 := r.Find("OBS-001"), r.Find("OBS-002")
		if advised(o1, "hoodie.parquet.small.file.limit") && (o2.Status == findings.StatusDoNothing || o2.Status == findings.StatusHypothesis) {
			t.Errorf("batch %v: OBS-001 %s and OBS-002 %s", perPart, o1.Status, o2.Status)
		}
	}
}

// A 0.15 table's report never names the 1.1 streaming-write key.
func TestStreamingKeyOnlyFrom11(t *testing.T) {
	for _, v := range []struct {
		version int
		want    bool
	}{{6, false}, {8, false}, {9, true}} {
		in := base(t)
		in.Facts.Version = ptr(v.version)
		phase(&in, eventlog.PhaseUnknown, 0.6)
		r := findings.Evaluate(in, nil)
		if got := strings.Contains(r.Time.Lead, "streaming.write"); got != v.want {
			t.Errorf("table version %d: lead mentions streaming write = %v: %s", v.version, got, r.Time.Lead)
		}
	}
}

// OBS-014's switch exists only in 1.0.
func TestPartitionStatsOnlyOn10(t *testing.T) {
	for _, v := range []int{5, 6, 9} {
		in := base(t)
		in.Facts.Version = ptr(v)
		f := findings.Evaluate(in, nil).Find("OBS-014")
		if advised(f, "hoodie.metadata.index.partition.stats.enable") || f.Status == findings.StatusObservation {
			t.Errorf("table version %d: OBS-014 %s recommends a key the release lacks", v, f.Status)
		}
	}
}

// On 0.12 the cleaner trigger is hoodie.clean.max.commits; the 1.x name is ignored by that writer.
func TestCleanerKeyByRelease(t *testing.T) {
	in := base(t)
	in.Facts.Version = ptr(5)
	unsetProps(&in, "hoodie.clean.trigger.max.commits")
	props(&in, "hoodie.clean.max.commits", "1", "hoodie.metadata.streaming.write.enabled", "false")
	in.Facts.Cleans.Completed, in.Facts.Cleans.CommitsSince, in.Facts.Commits.NewFileGroupShare = ptr(2), ptr(4), ptr(0.2)
	r := findings.Evaluate(in, nil)
	f := r.Find("OBS-016")
	if f.Status != findings.StatusObservation {
		t.Fatalf("OBS-016 on 0.12 with hoodie.clean.max.commits: %s %s", f.Status, f.Why)
	}
	if key(f, "hoodie.clean.max.commits") == nil || key(f, "hoodie.clean.async") == nil || key(f, "hoodie.clean.trigger.max.commits") != nil {
		t.Errorf("OBS-016 keys on 0.12: %+v", f.Keys)
	}
	got := false
	for _, k := range r.ReleaseKeys {
		got = got || k.Key == "hoodie.metadata.streaming.write.enabled"
	}
	if !got {
		t.Errorf("a 1.1 key on a 0.12 table is not reported as ignored: %+v", r.ReleaseKeys)
	}
	in = base(t)
	in.Facts.Version = ptr(5)
	props(&in, "hoodie.clean.trigger.max.commits", "1")
	in.Facts.Cleans.Completed, in.Facts.Cleans.CommitsSince, in.Facts.Commits.NewFileGroupShare = ptr(2), ptr(40), ptr(0.2)
	r = findings.Evaluate(in, nil)
	for _, k := range r.ReleaseKeys {
		if k.Key == "hoodie.clean.trigger.max.commits" && k.Instead == "hoodie.clean.max.commits" {
			return
		}
	}
	t.Errorf("hoodie.clean.trigger.max.commits on 0.12 not reported with its 0.12 name: %+v", r.ReleaseKeys)
}

// CAP-001 needs 0.14+ and the metadata table; CAP-005 needs 1.0+.
func TestCapabilityPreconditions(t *testing.T) {
	fire := func(in *findings.Input) {
		in.Facts.Commits.UpdateShare, in.Facts.Updates.NewestPartitionShare = ptr(0.3), ptr(0.3)
		in.Layout.TotalFiles = 5000
		stages(in, eventlog.PhaseDedupTagging, func(s *eventlog.Stage) { s.Observed.NumTasksPlanned = 5000 })
	}
	in := base(t)
	fire(&in)
	in.Facts.Version = ptr(5)
	if f := findings.Evaluate(in, nil).Find("CAP-001"); f.Status != findings.StatusGated {
		t.Errorf("CAP-001 on 0.12: %s", f.Status)
	}
	in = base(t)
	fire(&in)
	in.Layout.MDTEnabled, in.Facts.MDTPartitions = false, []string{}
	if f := findings.Evaluate(in, nil).Find("CAP-001"); f.Status != findings.StatusGated {
		t.Errorf("CAP-001 without the metadata table: %s", f.Status)
	}
	in = base(t)
	in.Facts.Version = ptr(6)
	props(&in, "hoodie.metadata.record.index.enable", "true")
	in.Facts.MDTPartitions = []string{"files", "record_index"}
	if f := findings.Evaluate(in, nil).Find("CAP-005"); f.Status != findings.StatusGated {
		t.Errorf("CAP-005 on 0.15: %s %s", f.Status, f.Why)
	}
}

// "0 = inherit" holds from 0.14; the 0.12 line defaults to 200.
func TestInheritedParallelismByRelease(t *testing.T) {
	setup := func(v int) findings.Input {
		in := base(t)
		in.Facts.Version = ptr(v)
		unsetProps(&in, "hoodie.upsert.shuffle.parallelism", "hoodie.insert.shuffle.parallelism", "hoodie.bulkinsert.shuffle.parallelism", "hoodie.delete.shuffle.parallelism")
		in.EventLog.Stages[0].Phase = eventlog.PhaseSourceRead
		in.EventLog.Stages[0].Observed.NumTasksPlanned = in.EventLog.Stages[firstStage(&in, eventlog.PhaseDedupTagging)].Observed.NumTasksPlanned
		return in
	}
	if f := findings.Evaluate(setup(5), nil).Find("OBS-027"); f.Status == findings.StatusObservation {
		t.Errorf("OBS-027 on 0.12 (default 200): %s", f.Why)
	}
	if f := findings.Evaluate(setup(9), nil).Find("OBS-027"); f.Status != findings.StatusObservation {
		t.Errorf("OBS-027 on 1.2: %s %s", f.Status, f.Why)
	}
}

// An empty props file is not evidence: defaults never promote a row to an observation.
func TestEmptyPropsAreNotEvidence(t *testing.T) {
	in := base(t)
	e := *in.Config
	e.Layers = nil
	for _, l := range in.Config.Layers {
		if l.Source != config.SourceProps && l.Source != config.SourceCluster {
			e.Layers = append(e.Layers, l)
		}
	}
	e.Layers = append([]config.Layer{{Source: config.SourceProps, Origin: "empty.properties", Values: map[string]string{}}}, e.Layers...)
	in.Config = &e
	phase(&in, eventlog.PhaseMetadataWrite, 0.3)
	r := findings.Evaluate(in, nil)
	noViolations(t, r)
	for _, f := range r.Findings {
		if (f.Status == findings.StatusObservation || f.Status == findings.StatusCandidate) && contains(f.Agreed, findings.InputProps) {
			t.Errorf("%s: %s with props agreeing from an empty props file", f.ID, f.Status)
		}
	}
	for _, id := range []string{"OBS-011", "OBS-013", "OBS-014", "OBS-023", "OBS-027"} {
		if f := r.Find(id); f.Status == findings.StatusObservation {
			t.Errorf("%s promoted to an observation by defaults: %s", id, f.Why)
		}
	}
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// A signal that can never be false fails the catalog load.
func TestTautologicalSignalFailsLoad(t *testing.T) {
	for _, c := range []string{
		`{"path":"props.hoodie.index.type","op":"exists","says":"x"}`,
		`{"path":"eventlog.stages.stageId","agg":"count","op":"exists","says":"x"}`,
	} {
		var doc map[string]any
		_ = json.Unmarshal(assets.FindingsCatalog, &doc)
		row := doc["rows"].([]any)[0].(map[string]any)
		var cond any
		_ = json.Unmarshal([]byte(c), &cond)
		row["signals"] = append(row["signals"].([]any), cond)
		b, _ := json.Marshal(doc)
		if _, err := findings.Parse(b, assets.FindingsKnownKeys, assets.KnownConfigs, assets.EngineDefaults); err == nil || !strings.Contains(err.Error(), "never be false") {
			t.Errorf("%s loaded: %v", c, err)
		}
	}
}

// OBS-005 never says "speculation off" while it is off.
func TestSpeculationOffNotRecommendedWhenOff(t *testing.T) {
	in := base(t)
	stages(&in, eventlog.PhaseDataWrite, func(s *eventlog.Stage) { s.Observed.TasksFailed = 3 })
	props(&in, "spark.speculation", "false")
	if f := findings.Evaluate(in, nil).Find("OBS-005"); advised(f, "spark.speculation") {
		t.Errorf("spark.speculation off recommended while off: %s", f.Status)
	}
}

// Tagging-phase spill is never answered with less managed memory.
func TestTaggingSpillNoMemoryFraction(t *testing.T) {
	in := base(t)
	i := firstStage(&in, eventlog.PhaseDedupTagging)
	in.EventLog.Stages[i].Observed.MemoryBytesSpilled, in.EventLog.Stages[i].Observed.GcFractionOfRunTime = 1<<30, 0.5
	in.Facts.Commits.DominantOperation = ptr("upsert")
	f := findings.Evaluate(in, nil).Find("OBS-007")
	if f.Status != findings.StatusObservation || advised(f, "spark.memory.fraction") || !advised(f, "hoodie.upsert.shuffle.parallelism") {
		t.Errorf("OBS-007 on tagging spill: %s, keys %+v", f.Status, f.Keys)
	}
}

// minPartitions only for a Kafka streamer, on a release that has it.
func TestMinPartitionsOnlyForKafka(t *testing.T) {
	setup := func(kafka bool) *findings.Finding {
		in := base(t)
		stages(&in, eventlog.PhaseDedupTagging, func(s *eventlog.Stage) {
			s.Observed.DurationMillis, s.Observed.NumTasksPlanned, s.Observed.SkewRatio = 120000, 1, 1
		})
		props(&in, "hoodie.upsert.shuffle.parallelism", "1")
		if kafka {
			props(&in, "hoodie.streamer.source.kafka.topic", "events")
		}
		in.Facts.Commits.DominantOperation = ptr("upsert")
		return findings.Evaluate(in, nil).Find("OBS-006")
	}
	if f := setup(false); advised(f, "hoodie.streamer.source.kafka.minPartitions") {
		t.Error("minPartitions recommended to a job that is not a Kafka streamer")
	}
	if f := setup(true); !advised(f, "hoodie.streamer.source.kafka.minPartitions") {
		t.Errorf("minPartitions not recommended to a Kafka streamer: %s %+v", f.Status, key(f, "hoodie.streamer.source.kafka.minPartitions"))
	}
}

// metadata compact.max.delta.commits only when metadata-table compaction is behind.
func TestMDTCompactionLeverGated(t *testing.T) {
	for _, st := range []string{health.OnTrack, health.Behind} {
		in := base(t)
		phase(&in, eventlog.PhaseMetadataWrite, 0.3)
		band(&in, "mdt-compaction", st)
		f := findings.Evaluate(in, nil).Find("OBS-023")
		if got := advised(f, "hoodie.metadata.compact.max.delta.commits"); got != (st == health.Behind) {
			t.Errorf("mdt compaction %s: advised %v", st, got)
		}
	}
}

// OBS-008: the skew and the duration must belong to one stage, and the finding names it.
func TestSkewAndDurationFromOneStage(t *testing.T) {
	in := base(t)
	for i := range in.EventLog.Stages {
		in.EventLog.Stages[i].Observed.SkewRatio = 1
	}
	in.EventLog.Stages[1].Observed.SkewRatio, in.EventLog.Stages[1].Observed.DurationMillis = 19, 294
	in.EventLog.Stages[2].Observed.SkewRatio, in.EventLog.Stages[2].Observed.DurationMillis = 1.8, 11000
	if f := findings.Evaluate(in, nil).Find("OBS-008"); f.Fired {
		t.Errorf("OBS-008 fired from two stages: %s", f.Why)
	}
	in.EventLog.Stages[2].Observed.SkewRatio = 19
	in.Layout.Skew.LargestPartitionShare = 0.6 // the table agrees only with partition skew
	f := findings.Evaluate(in, nil).Find("OBS-008")
	if f.Status != findings.StatusObservation || !strings.Contains(f.Subject, "stage ") {
		t.Errorf("OBS-008 on one skewed long stage: %s subject %q", f.Status, f.Subject)
	}
}

// OBS-011: one matching stage among many does not make the SIMPLE signature.
func TestSimpleSignatureNeedsTheBulk(t *testing.T) {
	in := base(t)
	n := 0
	stages(&in, eventlog.PhaseDedupTagging, func(s *eventlog.Stage) {
		s.Observed.NumTasksPlanned = 999999
		if n == 0 {
			s.Observed.NumTasksPlanned = int(in.Layout.TotalFiles)
		}
		n++
	})
	if n < 3 {
		t.Skip("fixture has too few tagging stages")
	}
	if f := findings.Evaluate(in, nil).Find("OBS-011"); f.Fired {
		t.Errorf("OBS-011 fired on 1 of %d stages: %s", n, f.Why)
	}
	props(&in, "hoodie.index.type", "BLOOM")
	sp := "bloomIndexLookup"
	in.EventLog.Stages[firstStage(&in, eventlog.PhaseDedupTagging)].SubPhase = &sp
	in.Facts.Commits.UpdateShare = ptr(0.2)
	if f := findings.Evaluate(in, nil).Find("OBS-011"); f.Status != findings.StatusObservation || !advised(f, "hoodie.bloom.index.parallelism") {
		t.Errorf("OBS-011 bloom branch unreachable: %s %s", f.Status, f.Why)
	}
}

// OBS-006 counts executor cores, not two per executor.
func TestSlotsAreCores(t *testing.T) {
	in := base(t)
	in.EventLog.Application.Observed.PeakConcurrentExecutors = 4
	props(&in, "spark.executor.cores", "8", "hoodie.upsert.shuffle.parallelism", "16")
	stages(&in, eventlog.PhaseDedupTagging, func(s *eventlog.Stage) {
		s.Observed.DurationMillis, s.Observed.NumTasksPlanned, s.Observed.SkewRatio = 120000, 10, 1
	})
	in.Facts.Commits.DominantOperation = ptr("upsert")
	f := findings.Evaluate(in, nil).Find("OBS-006")
	if f.Status != findings.StatusObservation {
		t.Errorf("10 tasks on 32 cores is under-parallel: %s %s", f.Status, f.Why)
	}
}

// OBS-009's shuffle-parallelism branch.
func TestOverParallelShuffle(t *testing.T) {
	in := base(t)
	tinyStage(&in, eventlog.PhaseDataWrite, 1500)
	props(&in, "hoodie.upsert.shuffle.parallelism", "1500")
	in.EventLog.Application.Observed.CriticalPathMillis = 1000
	f := findings.Evaluate(in, nil).Find("OBS-009")
	if f.Status != findings.StatusObservation || !advised(f, "hoodie.upsert.shuffle.parallelism") || advised(f, "hoodie.simple.index.parallelism") {
		t.Errorf("OBS-009 shuffle branch: %s keys %+v", f.Status, f.Keys)
	}
}

// OBS-010 corroborates with the writer properties, as the catalog says.
func TestSchedulingRowCorroboratesProps(t *testing.T) {
	r := findings.Default().Row("OBS-010")
	if !contains(r.Corroborate, findings.InputProps) {
		t.Errorf("OBS-010 corroborates %v", r.Corroborate)
	}
}

// OBS-015 needs no trigger-strategy key in the props, and reads time triggers.
func TestCompactionTrailsWithoutStrategyKey(t *testing.T) {
	in := base(t)
	unsetProps(&in, "hoodie.compact.inline.trigger.strategy")
	props(&in, "hoodie.compact.inline.max.delta.commits", "3")
	in.Facts.Type, in.Facts.Compactions.DeltaCommitsSince = ptr("MERGE_ON_READ"), ptr(6)
	if f := findings.Evaluate(in, nil).Find("OBS-015"); f.Status != findings.StatusObservation {
		t.Errorf("MOR 6 delta commits behind a trigger of 3: %s %s", f.Status, f.Why)
	}
	in = base(t)
	props(&in, "hoodie.compact.inline.trigger.strategy", "TIME_ELAPSED", "hoodie.compact.inline.max.delta.seconds", "3600")
	in.Facts.Type, in.Facts.Compactions.DeltaCommitsSince, in.Facts.Compactions.SecondsSince = ptr("MERGE_ON_READ"), ptr(1), ptr(5000.0)
	// One short compaction execution of the data table: the lever is the trigger.
	x := append([]eventlog.StageExtra(nil), in.EventLog.Hudiscope.Stages...)
	x[0].Operation, x[0].Phase, x[0].Table = "COMPACTION", eventlog.PhaseExecution, "cow_services"
	in.EventLog.Hudiscope.Stages = x
	f := findings.Evaluate(in, nil).Find("OBS-015")
	if f.Status != findings.StatusObservation || !advised(f, "hoodie.compact.inline.max.delta.seconds") || advised(f, "hoodie.compact.inline.max.delta.commits") {
		t.Errorf("TIME_ELAPSED: %s %s %+v", f.Status, f.Why, f.Keys)
	}
}

// OBS-016's band is trigger < commits since the last clean ≤ max(2T, 5).
func TestCleanerBand(t *testing.T) {
	for _, c := range []struct {
		trigger, since int
		want           bool
	}{{1, 2, true}, {1, 5, true}, {1, 6, false}, {4, 7, true}, {4, 9, false}, {4, 4, false}} {
		in := base(t)
		props(&in, "hoodie.clean.trigger.max.commits", itoa(c.trigger))
		in.Facts.Cleans.Completed, in.Facts.Cleans.CommitsSince, in.Facts.Commits.NewFileGroupShare = ptr(2), ptr(c.since), ptr(0.2)
		f := findings.Evaluate(in, nil).Find("OBS-016")
		if got := f.Status == findings.StatusObservation; got != c.want {
			t.Errorf("trigger %d, %d since: %s", c.trigger, c.since, f.Status)
		}
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// OBS-029 fires for a Kinesis streamer and names its pacing keys.
func TestSourcePacingKinesis(t *testing.T) {
	in := base(t)
	phase(&in, eventlog.PhaseSourceRead, 0.5)
	in.EventLog.Stages[0].Phase, in.EventLog.Stages[0].Observed.InputBytes = eventlog.PhaseSourceRead, 1000
	props(&in, "hoodie.streamer.source.kinesis.stream.name", "s")
	r := findings.Evaluate(in, nil)
	f := r.Find("OBS-029")
	if f.Status != findings.StatusObservation || !advised(f, "hoodie.streamer.source.kinesis.get.records.interval.ms") {
		t.Errorf("Kinesis: %s %s %+v (release %+v)", f.Status, f.Why, f.Keys, r.Release)
	}
}

// variants are props and engine changes every fixture is evaluated under.
var variants = []struct {
	name string
	mod  func(in *findings.Input)
}{
	{"as-is", func(in *findings.Input) {}},
	{"empty-props", func(in *findings.Input) {
		e := *in.Config
		e.Layers = []config.Layer{{Source: config.SourceProps, Origin: "empty", Values: map[string]string{}}}
		for _, l := range in.Config.Layers {
			if l.Source == config.SourceTable {
				e.Layers = append(e.Layers, l)
			}
		}
		in.Config = &e
	}},
	{"large-simple-index-parallelism", func(in *findings.Input) { props(in, "hoodie.simple.index.parallelism", "20000") }},
	{"small-file-limit", func(in *findings.Input) { props(in, "hoodie.parquet.small.file.limit", "104857600") }},
	{"0.x-keys", func(in *findings.Input) {
		props(in, "hoodie.clean.max.commits", "2", "hoodie.clean.async", "true", "hoodie.cleaner.commits.retained", "3",
			"hoodie.deltastreamer.source.kafka.topic", "t", "hoodie.metadata.record.index.enable", "true")
	}},
	{"1.x-keys", func(in *findings.Input) {
		props(in, "hoodie.clean.trigger.max.commits", "2", "hoodie.metadata.streaming.write.enabled", "true",
			"hoodie.metadata.index.partition.stats.enable", "true")
	}},
	{"kafka-streamer", func(in *findings.Input) {
		props(in, "hoodie.streamer.source.kafka.topic", "t", "hoodie.streamer.kafka.source.maxEvents", "1000")
	}},
	{"kinesis-streamer", func(in *findings.Input) { props(in, "hoodie.streamer.source.kinesis.stream.name", "s") }},
	{"speculation", func(in *findings.Input) { props(in, "spark.speculation", "true", "spark.executor.cores", "4") }},
	{"flink", func(in *findings.Input) {
		e := *in.Config
		e.Engine = "flink"
		in.Config, in.EventLog = &e, nil
	}},
	{"java", func(in *findings.Input) {
		e := *in.Config
		e.Engine = "java"
		in.Config, in.EventLog = &e, nil
	}},
	// Contradicting props: the metadata table off while the table has one.
	{"metadata-off", func(in *findings.Input) { props(in, "hoodie.metadata.enable", "false") }},
	{"partition-stats-on", func(in *findings.Input) {
		props(in, "hoodie.metadata.index.partition.stats.enable", "true", "hoodie.clean.trigger.max.commits", "1")
	}},
	// Inputs of another table: excluded, never counted.
	{"other-table-props", func(in *findings.Input) { props(in, "hoodie.table.name", "some_other_table") }},
	{"foreign-log", func(in *findings.Input) { in.EventLog = foreignLog(in) }},
}

var (
	foreignOnce sync.Once
	foreignLogs map[string]*eventlog.Report
)

// foreignLog is an event log of another fixture table: cow-services-1.2.0's, or for that
// table mor-services-1.2.0's.
func foreignLog(in *findings.Input) *eventlog.Report {
	foreignOnce.Do(func() {
		foreignLogs = map[string]*eventlog.Report{}
		for _, n := range []string{"cow-services-1.2.0", "mor-services-1.2.0"} {
			dir := filepath.Join(fixtures, n)
			logs, _ := filepath.Glob(filepath.Join(dir, "local-*"))
			l2, _ := filepath.Glob(filepath.Join(dir, "eventlog_v2_*"))
			if logs = append(logs, l2...); len(logs) == 0 {
				continue
			}
			s, err := model.Load(context.Background(), model.Options{Location: filepath.Join(dir, "table.zip"), EventLog: logs[0]}, nil)
			if err == nil && s.EventLog != nil {
				foreignLogs[s.Config.Name] = s.EventLog
			}
		}
	})
	if in.TableConfig != nil && in.TableConfig.Name == "cow_services" {
		return foreignLogs["mor_services"]
	}
	return foreignLogs["cow_services"]
}

// TestInvariantsOverFixtures: every fixture × every variant yields a report with no invariant
// violation (no key in two directions, no change beside a do-nothing reading of its lever,
// every recommended key in the table's release, every observation corroborated by two
// falsifiable inputs).
func TestInvariantsOverFixtures(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join(fixtures, "*"))
	// FINDINGS_SWEEP_FIXTURES adds fixture directories not (yet) in this tree, e.g. another
	// worktree's new fixtures: FINDINGS_SWEEP_FIXTURES=/work/wt-fixtures/testdata/fixtures.
	for _, extra := range filepath.SplitList(os.Getenv("FINDINGS_SWEEP_FIXTURES")) {
		more, _ := filepath.Glob(filepath.Join(extra, "*"))
		dirs = append(dirs, more...)
	}
	n, reports := 0, 0
	for _, dir := range dirs {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			continue
		}
		name := filepath.Base(dir)
		if _, err := os.Stat(filepath.Join(dir, "table.zip")); err != nil {
			continue
		}
		opt := model.Options{Location: filepath.Join(dir, "table.zip")}
		if _, err := os.Stat(filepath.Join(dir, "writer.properties")); err == nil {
			opt.Props = filepath.Join(dir, "writer.properties")
		}
		logs, _ := filepath.Glob(filepath.Join(dir, "local-*"))
		l2, _ := filepath.Glob(filepath.Join(dir, "eventlog_v2_*"))
		if logs = append(logs, l2...); len(logs) > 0 {
			opt.EventLog = logs[0]
		}
		s, err := model.Load(context.Background(), opt, nil)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		n++
		for _, v := range variants {
			in := model.FindingsInput(s)
			in.Facts = findings.DeriveTableFacts(in.TableConfig, in.Timeline, in.View)
			in = copyInput(in)
			v.mod(&in)
			r := findings.Evaluate(in, nil)
			reports++
			for _, x := range r.Violations {
				t.Errorf("%s/%s: %s: %s", name, v.name, x.Rule, x.Says)
			}
			switch v.name {
			case "other-table-props":
				if len(r.Excluded) != 1 || r.Excluded[0].Input != findings.InputProps {
					t.Errorf("%s/%s: props of another table not excluded: %+v", name, v.name, r.Excluded)
				}
			case "foreign-log":
				if in.EventLog != nil && (len(r.Excluded) != 1 || r.Excluded[0].Input != findings.InputEventLog) {
					t.Errorf("%s/%s: foreign event log not excluded: %+v", name, v.name, r.Excluded)
				}
			}
			for i := range r.Findings {
				f := &r.Findings[i]
				for _, k := range f.Keys {
					if advised(f, k.Key) && !k.Exists {
						t.Errorf("%s/%s: %s advises %s, not a key of %s", name, v.name, f.ID, k.Key, r.Release.Words())
					}
				}
			}
		}
	}
	if n == 0 {
		t.Skip("no fixtures")
	}
	t.Logf("%d fixtures × %d variants: %d reports", n, len(variants), reports)
}

// TestInvariantChecker: each rule catches its violation, and a violating finding is withheld.
func TestInvariantChecker(t *testing.T) {
	ev := func(in ...string) []findings.Evidence {
		return []findings.Evidence{{Input: in[0], Op: "gt", Known: true, Holds: true, Agrees: in}}
	}
	r := &findings.Result{Findings: []findings.Finding{
		{ID: "A", Status: findings.StatusObservation, Risk: findings.RiskSafe, Signals: ev("props", "eventlog"), Keys: []findings.KeyAdvice{{Key: "k", Direction: "up", Exists: true}}},
		{ID: "B", Status: findings.StatusObservation, Risk: findings.RiskSafe, Signals: ev("props", "table"), Keys: []findings.KeyAdvice{{Key: "k", Direction: "down", Exists: true}}},
		{ID: "C", Status: findings.StatusDoNothing, Risk: findings.RiskSafe, Signals: ev("props", "table"), Levers: []string{"l"}},
		{ID: "D", Status: findings.StatusHypothesis, Risk: findings.RiskSafe, Signals: ev("table"), Keys: []findings.KeyAdvice{{Key: "l", Direction: "up", Exists: true}, {Key: "gone", Direction: "on"}}},
		{ID: "E", Status: findings.StatusObservation, Risk: findings.RiskSafe, Signals: ev("table")},
	}}
	got := map[string]bool{}
	for _, v := range findings.CheckInvariants(r) {
		got[v.Rule+":"+strings.Join(v.Findings, ",")] = true
	}
	for _, want := range []string{"direction:A,B", "do-nothing:D", "release:D", "corroboration:E"} {
		if !got[want] {
			t.Errorf("missing violation %s (got %v)", want, got)
		}
	}
}
