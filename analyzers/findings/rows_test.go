package findings_test

import (
	"context"
	"maps"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/config"
	"github.com/hudiscope/hudiscope/analyzers/eventlog"
	"github.com/hudiscope/hudiscope/analyzers/findings"
	"github.com/hudiscope/hudiscope/analyzers/health"
	"github.com/hudiscope/hudiscope/analyzers/layout"
	"github.com/hudiscope/hudiscope/model"
)

const fixtures = "../../testdata/fixtures"

// loadFixture loads a fixture table with its writer properties and event log.
func loadFixture(t *testing.T, name string) *model.Snapshot {
	t.Helper()
	dir := filepath.Join(fixtures, name)
	logs, _ := filepath.Glob(filepath.Join(dir, "local-*"))
	l2, _ := filepath.Glob(filepath.Join(dir, "eventlog_v2_*"))
	logs = append(logs, l2...)
	opt := model.Options{Location: filepath.Join(dir, "table.zip"), Props: filepath.Join(dir, "writer.properties")}
	if len(logs) == 0 {
		t.Skipf("fixture %s has no event log", name)
	}
	opt.EventLog = logs[0]
	s, err := model.Load(context.Background(), opt, nil)
	if err != nil {
		t.Skipf("fixture %s: %v", name, err)
	}
	for st, e := range s.StepErrors {
		t.Fatalf("%s: step %s: %v", name, st, e)
	}
	return s
}

var (
	baseOnce sync.Once
	baseSnap *model.Snapshot
)

// base is the cow-services fixture (all three inputs), loaded once.
func base(t *testing.T) findings.Input {
	t.Helper()
	baseOnce.Do(func() { baseSnap = loadFixture(t, "cow-services-1.2.0") })
	if baseSnap == nil {
		t.Skip("cow-services fixture not loadable")
	}
	in := model.FindingsInput(baseSnap)
	in.Facts = findings.DeriveTableFacts(in.TableConfig, in.Timeline, in.View)
	return copyInput(in)
}

// copyInput copies every part a test may modify.
func copyInput(in findings.Input) findings.Input {
	facts := *in.Facts
	in.Facts = &facts
	if in.Layout == nil || in.Health == nil || in.EventLog == nil {
		return in
	}
	l := *in.Layout
	if l.TableCharacteristics != nil {
		c := *l.TableCharacteristics
		c.Detectors = append([]layout.Detector(nil), c.Detectors...)
		l.TableCharacteristics = &c
	}
	in.Layout = &l
	h := *in.Health
	h.Checks = append([]health.Check(nil), h.Checks...)
	if h.Hudiscope != nil {
		x := *h.Hudiscope
		x.Checks = append([]health.Band(nil), x.Checks...)
		h.Hudiscope = &x
	}
	in.Health = &h
	e := *in.EventLog
	e.PhaseSummary = append([]eventlog.GroupSummary(nil), e.PhaseSummary...)
	e.OperationSummary = append([]eventlog.GroupSummary(nil), e.OperationSummary...)
	e.Hudiscope.PhaseSummary = append([]eventlog.GroupSummary(nil), e.Hudiscope.PhaseSummary...)
	e.Hudiscope.OperationSummary = append([]eventlog.GroupSummary(nil), e.Hudiscope.OperationSummary...)
	e.Stages = append([]eventlog.Stage(nil), e.Stages...)
	in.EventLog = &e
	return in
}

func ptr[T any](v T) *T { return &v }

// props puts key=value pairs on top of the writer properties.
func props(in *findings.Input, kv ...string) {
	l := config.Layer{Source: config.SourceProps, Origin: "test", Values: map[string]string{}}
	for i := 0; i+1 < len(kv); i += 2 {
		l.Values[kv[i]] = kv[i+1]
	}
	e := *in.Config
	e.Layers = append([]config.Layer{l}, e.Layers...)
	in.Config = &e
}

// unsetProps removes keys from every layer.
func unsetProps(in *findings.Input, keys ...string) {
	e := *in.Config
	e.Layers = nil
	for _, l := range in.Config.Layers {
		v := maps.Clone(l.Values)
		for _, k := range keys {
			delete(v, k)
		}
		l.Values = v
		e.Layers = append(e.Layers, l)
	}
	in.Config = &e
}

// phase sets a phase's share in both attributions (hudiscope's, which the rows and the time
// breakdown read, and the Java tool's).
func phase(in *findings.Input, name string, share float64) {
	in.EventLog.PhaseSummary = setShare(in.EventLog.PhaseSummary, name, share)
	in.EventLog.Hudiscope.PhaseSummary = setShare(in.EventLog.Hudiscope.PhaseSummary, name, share)
}

func setShare(rows []eventlog.GroupSummary, name string, share float64) []eventlog.GroupSummary {
	for i := range rows {
		if rows[i].Label == name {
			rows[i].ShareOfStageWallClock = eventlog.Ratio(share)
			return rows
		}
	}
	g := rows[0]
	g.Label, g.ShareOfStageWallClock = name, eventlog.Ratio(share)
	return append(rows, g)
}

func stages(in *findings.Input, ph string, f func(s *eventlog.Stage)) {
	for i := range in.EventLog.Stages {
		if ph == "" || in.EventLog.Stages[i].Phase == ph {
			f(&in.EventLog.Stages[i])
		}
	}
}

func check(in *findings.Input, name string, kv ...string) {
	c := health.Check{Name: name, Status: health.Healthy}
	for i := 0; i+1 < len(kv); i += 2 {
		c.EffectiveConfigs = append(c.EffectiveConfigs, health.KV{Key: kv[i], Value: kv[i+1]})
	}
	for i := range in.Health.Checks {
		if in.Health.Checks[i].Name == name {
			in.Health.Checks[i] = c
			return
		}
	}
	in.Health.Checks = append(in.Health.Checks, c)
}

// band sets a health check's band state, and the check's status to the one that state comes
// with: a check that judged the table was not skipped.
func band(in *findings.Input, name, state string) {
	if in.Health.Hudiscope == nil {
		in.Health.Hudiscope = &health.Extra{}
	}
	status := health.Healthy
	if state == health.Stopped {
		status = health.Unhealthy
	}
	if c := in.Health.Check(name); c != nil {
		c.Status = status
	} else {
		in.Health.Checks = append(in.Health.Checks, health.Check{Name: name, Status: status})
	}
	for i := range in.Health.Hudiscope.Checks {
		if in.Health.Hudiscope.Checks[i].Name == name {
			in.Health.Hudiscope.Checks[i].State = state
			return
		}
	}
	in.Health.Hudiscope.Checks = append(in.Health.Hudiscope.Checks, health.Band{Name: name, State: state})
}

func detector(in *findings.Input, name, status string) {
	if in.Layout.TableCharacteristics == nil {
		in.Layout.TableCharacteristics = &layout.Characteristics{}
	}
	for i := range in.Layout.TableCharacteristics.Detectors {
		if in.Layout.TableCharacteristics.Detectors[i].Name == name {
			in.Layout.TableCharacteristics.Detectors[i].Status = status
			return
		}
	}
	in.Layout.TableCharacteristics.Detectors = append(in.Layout.TableCharacteristics.Detectors, layout.Detector{Name: name, Status: status})
}

func op(in *findings.Input, name string, wall int64) {
	for i := range in.EventLog.OperationSummary {
		if in.EventLog.OperationSummary[i].Label == name {
			in.EventLog.OperationSummary[i].StageWallClockMillis = wall
			return
		}
	}
	g := in.EventLog.OperationSummary[0]
	g.Label, g.StageWallClockMillis = name, wall
	in.EventLog.OperationSummary = append(in.EventLog.OperationSummary, g)
}

func dropOps(in *findings.Input, names ...string) {
	var keep []eventlog.GroupSummary
	for _, g := range in.EventLog.OperationSummary {
		drop := false
		for _, n := range names {
			drop = drop || g.Label == n
		}
		if !drop {
			keep = append(keep, g)
		}
	}
	in.EventLog.OperationSummary = keep
}

const mb = 1 << 20

type rowCase struct {
	id   string
	fire func(in *findings.Input)
	// fireStatus is the status when it fires; stop makes a counter-signal, gate or failing
	// signal stop it, with stopStatus (and stopWhy, a phrase of Why).
	fireStatus string
	stop       func(in *findings.Input)
	stopStatus string
	stopWhy    string
	// check runs extra assertions on the firing finding.
	check func(t *testing.T, f *findings.Finding)
}

var smallFiles = func(in *findings.Input) {
	in.Layout.TableSizeStats.P50, in.Layout.TableSizeStats.Mean, in.Layout.TotalFiles = 1*mb, 1*mb, 50
	in.Facts.Commits.DominantOperation = ptr("upsert")
	in.Facts.Clustering.Completed = ptr(0)
}

func inert(key string) func(t *testing.T, f *findings.Finding) {
	return func(t *testing.T, f *findings.Finding) {
		t.Helper()
		for _, k := range f.Keys {
			if k.Key == key {
				if !k.Inert {
					t.Errorf("%s: key %s should be inert here", f.ID, key)
				}
				return
			}
		}
		t.Errorf("%s: key %s not listed", f.ID, key)
	}
}

var rowCases = []rowCase{
	{id: "OBS-001", fireStatus: findings.StatusObservation,
		fire: func(in *findings.Input) {
			smallFiles(in)
			props(in, "hoodie.parquet.small.file.limit", "1000")
			in.Facts.Commits.BytesPerPartitionCommit = ptr(5.0 * mb)
		},
		stop: func(in *findings.Input) {
			smallFiles(in)
			props(in, "hoodie.parquet.small.file.limit", "1000")
			in.Facts.Commits.BytesPerPartitionCommit = ptr(5.0 * mb)
			in.Facts.Commits.DominantOperation = ptr("bulk_insert")
		}, stopStatus: findings.StatusGated, stopWhy: "small-file handling"},
	{id: "OBS-002", fireStatus: findings.StatusDoNothing,
		fire: func(in *findings.Input) {
			smallFiles(in)
			props(in, "hoodie.parquet.small.file.limit", "83886080")
			in.Facts.Commits.BytesPerPartitionCommit = ptr(1.0 * mb)
			probe(in)
		},
		stop: func(in *findings.Input) {
			smallFiles(in)
			in.Facts.Commits.BytesPerPartitionCommit = ptr(1.0 * mb)
			probe(in)
		}, stopStatus: findings.StatusGated, stopWhy: "limit of 0"},
	{id: "OBS-003", fireStatus: findings.StatusObservation,
		fire: func(in *findings.Input) {
			in.Facts.Clustering.Completed, in.Facts.Clustering.Pending = ptr(0), ptr(0)
			detector(in, layout.SmallFiles, layout.Moderate)
			props(in, "hoodie.clustering.inline", "false")
			// The cow-services log ran clustering: with it, the log contradicts "never scheduled".
			dropOps(in, "CLUSTERING")
		},
		stop: func(in *findings.Input) {
			in.Facts.Clustering.Completed, in.Facts.Clustering.Pending = ptr(0), ptr(0)
			detector(in, layout.SmallFiles, layout.Severe)
			props(in, "hoodie.clustering.inline", "false")
			in.Layout.TotalFiles = 200000
		}, stopStatus: findings.StatusStopped, stopWhy: "multi-day outage"},
	{id: "OBS-004", fireStatus: findings.StatusObservation,
		fire: func(in *findings.Input) {
			in.Layout.TableSizeStats.Min, in.Layout.TableSizeStats.Max = 1000, 100000
			in.Facts.Commits.RecordsPerCommit.CV, in.Facts.Schema.Columns = ptr(0.1), ptr(40)
		},
		stop: func(in *findings.Input) {
			in.Layout.TableSizeStats.Min, in.Layout.TableSizeStats.Max = 1000, 100000
			in.Facts.Commits.RecordsPerCommit.CV, in.Facts.Schema.Columns = ptr(0.1), ptr(40)
			props(in, "hoodie.copyonwrite.record.size.estimate", "200")
		}, stopStatus: "not observed", stopWhy: "record.size.estimate"},
	{id: "OBS-005", fireStatus: findings.StatusObservation,
		fire: func(in *findings.Input) {
			stages(in, eventlog.PhaseDataWrite, func(s *eventlog.Stage) { s.Observed.TasksFailed = 3 })
			props(in, "spark.speculation", "true")
		},
		stop: func(in *findings.Input) {
			n := 0
			stages(in, eventlog.PhaseDataWrite, func(s *eventlog.Stage) {
				s.Observed.TasksFailed = 0
				if n == 0 {
					s.Observed.TasksFailed = 1
				}
				n++
			})
			props(in, "spark.speculation", "true")
		}, stopStatus: findings.StatusDoNothing, stopWhy: "benign"},
	{id: "OBS-006", fireStatus: findings.StatusObservation,
		fire: func(in *findings.Input) {
			stages(in, eventlog.PhaseDedupTagging, func(s *eventlog.Stage) {
				s.Observed.DurationMillis, s.Observed.NumTasksPlanned, s.Observed.SkewRatio = 120000, 1, 1
			})
			props(in, "hoodie.upsert.shuffle.parallelism", "1")
			in.Facts.Commits.DominantOperation = ptr("upsert")
		},
		stop:       func(in *findings.Input) {},
		stopStatus: "not observed", stopWhy: "a minute or more",
		check: func(t *testing.T, f *findings.Finding) {
			inert("hoodie.bulkinsert.shuffle.parallelism")(t, f)
			inert("hoodie.streamer.source.kafka.minPartitions")(t, f)
			if !strings.HasPrefix(f.Subject, "stage ") {
				t.Errorf("OBS-006 names no stage: %q", f.Subject)
			}
		}},
	{id: "OBS-007", fireStatus: findings.StatusObservation,
		fire: func(in *findings.Input) {
			in.EventLog.Stages[firstStage(in, eventlog.PhaseDedupTagging)].Observed.MemoryBytesSpilled = 1 << 30
			in.Facts.Commits.DominantOperation = ptr("upsert")
		},
		stop: func(in *findings.Input) {}, stopStatus: "not observed", stopWhy: "spilled",
		check: func(t *testing.T, f *findings.Finding) {
			inert("hoodie.memory.merge.max.size")(t, f)
			inert("spark.memory.fraction")(t, f)
		}},
	{id: "OBS-008", fireStatus: findings.StatusObservation,
		fire: func(in *findings.Input) {
			in.EventLog.Stages[3].Observed.SkewRatio, in.EventLog.Stages[3].Observed.DurationMillis = 20, 20000
			// The table agrees only with partition skew (0.4 on the fixture contradicts it).
			in.Layout.Skew.LargestPartitionShare = 0.6
		},
		stop: func(in *findings.Input) {
			in.EventLog.Stages[3].Observed.SkewRatio, in.EventLog.Stages[3].Observed.DurationMillis = 20, 20000
			in.Layout.NumPartitions = 1
		}, stopStatus: "not observed", stopWhy: "partitioned",
		check: func(t *testing.T, f *findings.Finding) {
			inert("hoodie.bloom.index.bucketized.checking")(t, f)
			if !strings.HasPrefix(f.Subject, "stage ") {
				t.Errorf("OBS-008 names no stage: %q", f.Subject)
			}
		}},
	{id: "OBS-009", fireStatus: findings.StatusObservation,
		fire: func(in *findings.Input) {
			tinyStage(in, eventlog.PhaseDedupTagging, 500)
			props(in, "hoodie.simple.index.parallelism", "1000")
			// A critical path over half the run (the fixture's) contradicts "overhead, not work".
			in.EventLog.Application.Observed.CriticalPathMillis = 1000
		},
		stop: func(in *findings.Input) {
			tinyStage(in, eventlog.PhaseDedupTagging, 500)
			props(in, "hoodie.simple.index.parallelism", "2")
		}, stopStatus: "not observed", stopWhy: "far above the task slots"},
	{id: "OBS-010", fireStatus: findings.StatusObservation,
		fire: func(in *findings.Input) {
			in.EventLog.Application.Observed.CriticalPathMillis = 1000
			props(in, "hoodie.streamer.kafka.source.maxEvents", "1000")
			dropOps(in, "COMPACTION", "CLUSTERING")
		},
		stop: func(in *findings.Input) {
			in.EventLog.Application.Observed.CriticalPathMillis = 1000
			props(in, "hoodie.streamer.kafka.source.maxEvents", "1000")
		}, stopStatus: "not observed", stopWhy: "async table service"},
	{id: "OBS-011", fireStatus: findings.StatusObservation,
		fire: func(in *findings.Input) {
			stages(in, eventlog.PhaseDedupTagging, func(s *eventlog.Stage) { s.Observed.NumTasksPlanned = int(in.Layout.TotalFiles) })
		},
		stop:       func(in *findings.Input) { phase(in, eventlog.PhaseDedupTagging, 0.1) },
		stopStatus: "not observed", stopWhy: "above 30%", check: inert("hoodie.bloom.index.keys.per.bucket")},
	{id: "OBS-012", fireStatus: findings.StatusObservation,
		fire: func(in *findings.Input) {
			in.Layout.TableSizeStats.Mean, in.Layout.FileCountPerPartition.Mean = 1*mb, 100
			in.Facts.Commits.NewFileGroupShare, in.Facts.Clustering.Completed = ptr(0.9), ptr(0)
		},
		stop: func(in *findings.Input) {
			in.Layout.TableSizeStats.Mean, in.Layout.FileCountPerPartition.Mean = 1*mb, 100
			in.Facts.Commits.NewFileGroupShare = ptr(0.9)
		}, stopStatus: findings.StatusStopped, stopWhy: "clustering already"},
	{id: "OBS-013", fireStatus: findings.StatusObservation,
		fire:       func(in *findings.Input) { props(in, "hoodie.enable.data.skipping", "false") },
		stop:       func(in *findings.Input) { props(in, "hoodie.enable.data.skipping", "true") },
		stopStatus: "not observed", stopWhy: "data.skipping"},
	{id: "OBS-014", fireStatus: findings.StatusObservation, fire: func(in *findings.Input) { in.Facts.Version = ptr(8) },
		stop: func(in *findings.Input) {
			in.Facts.Version = ptr(8)
			props(in, "hoodie.metadata.index.column.stats.enable", "false", "hoodie.metadata.index.partition.stats.enable", "true")
		},
		stopStatus: findings.StatusGated, stopWhy: "no independent effect"},
	{id: "OBS-015", fireStatus: findings.StatusObservation,
		fire: func(in *findings.Input) {
			in.Facts.Type, in.Facts.Compactions.DeltaCommitsSince = ptr("MERGE_ON_READ"), ptr(7)
			props(in, "hoodie.compact.inline.max.delta.commits", "5")
		},
		stop: func(in *findings.Input) {
			in.Facts.Type, in.Facts.Compactions.DeltaCommitsSince = ptr("MERGE_ON_READ"), ptr(12)
			props(in, "hoodie.compact.inline.max.delta.commits", "5")
		}, stopStatus: "not observed", stopWhy: "compaction trails"},
	{id: "OBS-016", fireStatus: findings.StatusObservation,
		fire: func(in *findings.Input) {
			props(in, "hoodie.clean.trigger.max.commits", "1")
			in.Facts.Cleans.Completed, in.Facts.Cleans.CommitsSince, in.Facts.Commits.NewFileGroupShare = ptr(2), ptr(4), ptr(0.2)
		},
		stop: func(in *findings.Input) {
			props(in, "hoodie.clean.trigger.max.commits", "1")
			in.Facts.Cleans.Completed, in.Facts.Cleans.CommitsSince, in.Facts.Commits.NewFileGroupShare = ptr(2), ptr(4), ptr(0.95)
		}, stopStatus: findings.StatusStopped, stopWhy: "nothing to clean"},
	{id: "OBS-017", fireStatus: findings.StatusObservation,
		fire: func(in *findings.Input) {
			check(in, "archival", "observed.write.instants", "40")
			band(in, "archival", health.Behind)
			in.Facts.Savepoints = ptr(0)
		},
		stop: func(in *findings.Input) {
			check(in, "archival", "observed.write.instants", "40")
			band(in, "archival", health.Behind)
		}, stopStatus: findings.StatusStopped, stopWhy: "savepoint pins archival"},
	{id: "OBS-018", fireStatus: findings.StatusObservation,
		fire:       func(in *findings.Input) { in.Facts.Clustering.PendingPlanBytes = ptr(int64(5e6)) },
		stop:       func(in *findings.Input) { in.Facts.Clustering.PendingPlanBytes = ptr(int64(1000)) },
		stopStatus: "not observed", stopWhy: "over 2 MB"},
	{id: "OBS-019", fireStatus: findings.StatusDoNothing,
		fire: func(in *findings.Input) {
			in.Facts.Commits.NewFileGroupShare = ptr(0.95)
			band(in, "cleaner", health.OnTrack)
		},
		stop: func(in *findings.Input) {
			in.Facts.Commits.NewFileGroupShare = ptr(0.95)
			band(in, "cleaner", health.Stopped)
		}, stopStatus: "not observed", stopWhy: "not stopped"},
	{id: "OBS-020", fireStatus: findings.StatusObservation, fire: func(in *findings.Input) {},
		stop:       func(in *findings.Input) { props(in, "hoodie.archive.beyond.savepoint", "true") },
		stopStatus: "not observed", stopWhy: "beyond savepoints"},
	{id: "OBS-021", fireStatus: findings.StatusObservation,
		fire: func(in *findings.Input) { in.Layout.TotalFiles = 200000 },
		stop: func(in *findings.Input) {
			in.Layout.TotalFiles = 200000
			props(in, "hoodie.filesystem.view.type", "SPILLABLE_DISK")
		}, stopStatus: "not observed", stopWhy: "MEMORY"},
	{id: "OBS-022", fireStatus: findings.StatusObservation,
		fire: func(in *findings.Input) {
			props(in, "hoodie.metadata.enable", "false")
			in.Layout.MDTEnabled, in.Layout.NumPartitions = false, 500
		},
		stop: func(in *findings.Input) {
			props(in, "hoodie.metadata.enable", "false")
			in.Layout.MDTEnabled = false
		}, stopStatus: "not observed", stopWhy: "partitions"},
	{id: "OBS-023", fireStatus: findings.StatusObservation, fire: func(in *findings.Input) { phase(in, eventlog.PhaseMetadataWrite, 0.3) },
		stop:       func(in *findings.Input) { phase(in, eventlog.PhaseMetadataWrite, 0.05) },
		stopStatus: "not observed", stopWhy: "METADATA_TABLE_WRITE", check: inert("hoodie.metadata.index.bloom.filter.enable")},
	{id: "OBS-024", fireStatus: findings.StatusHypothesis,
		fire: func(in *findings.Input) {
			unsetProps(in, "hoodie.clustering.plan.strategy.sort.columns")
			in.Facts.Clustering.Completed, in.Layout.FileCountPerPartition.Mean = ptr(0), 10
		},
		stop: func(in *findings.Input) {
			in.Facts.Clustering.Completed, in.Layout.FileCountPerPartition.Mean = ptr(0), 10
		},
		stopStatus: "not observed", stopWhy: "sort columns"},
	{id: "OBS-025", fireStatus: findings.StatusRefused,
		fire: func(in *findings.Input) {
			in.Facts.Type, in.Facts.Commits.Count, in.Facts.Commits.UpdateShare = ptr("MERGE_ON_READ"), ptr(5), ptr(0.001)
		},
		stop: func(in *findings.Input) {
			in.Facts.Type, in.Facts.Commits.Count, in.Facts.Commits.UpdateShare = ptr("MERGE_ON_READ"), ptr(5), ptr(0.4)
		}, stopStatus: "not observed", stopWhy: "numUpdateWrites near zero",
		check: func(t *testing.T, f *findings.Finding) {
			if !strings.Contains(f.Refusal, "design decision, not a tuning step") {
				t.Errorf("OBS-025 refusal: %q", f.Refusal)
			}
		}},
	{id: "OBS-026", fireStatus: findings.StatusObservation,
		fire: func(in *findings.Input) {
			phase(in, eventlog.PhaseSourceRead, 0.5)
			in.Facts.Commits.RecordsPerCommit.Median = ptr(10.0)
		},
		stop: func(in *findings.Input) {
			phase(in, eventlog.PhaseSourceRead, 0.5)
			in.Facts.Commits.RecordsPerCommit.Median = ptr(10000.0)
		}, stopStatus: "not observed", stopWhy: "almost nothing",
		check: func(t *testing.T, f *findings.Finding) {
			if len(f.Caveats) == 0 || !strings.Contains(strings.Join(f.Caveats, " "), "SOURCE_READ_AND_TRANSFORM") {
				t.Errorf("OBS-026 must carry the source-read bundling caveat: %q", f.Caveats)
			}
		}},
	{id: "OBS-027", fireStatus: findings.StatusObservation,
		fire: func(in *findings.Input) {
			unsetProps(in, "hoodie.upsert.shuffle.parallelism", "hoodie.insert.shuffle.parallelism", "hoodie.bulkinsert.shuffle.parallelism", "hoodie.delete.shuffle.parallelism")
			in.Facts.Commits.DominantOperation = ptr("upsert")
			in.EventLog.Stages[0].Phase = eventlog.PhaseSourceRead
			in.EventLog.Stages[0].Observed.NumTasksPlanned = in.EventLog.Stages[firstStage(in, eventlog.PhaseDedupTagging)].Observed.NumTasksPlanned
		},
		stop: func(in *findings.Input) {}, stopStatus: "not observed", stopWhy: "upsert.shuffle.parallelism",
		check: inert("hoodie.bulkinsert.shuffle.parallelism")},
	{id: "OBS-028", fireStatus: findings.StatusObservation,
		fire: func(in *findings.Input) {
			unsetProps(in, "hoodie.compaction.target.io")
			op(in, "COMPACTION", 120000)
			in.Facts.Compactions.DeltaCommitsSince = ptr(12)
			props(in, "hoodie.compact.inline.max.delta.commits", "5")
			in.Facts.Compactions.Completed = ptr(2)
		},
		stop: func(in *findings.Input) {
			unsetProps(in, "hoodie.compaction.target.io")
			op(in, "COMPACTION", 1000)
			in.Facts.Compactions.DeltaCommitsSince = ptr(12)
			props(in, "hoodie.compact.inline.max.delta.commits", "5")
			in.Facts.Compactions.Completed = ptr(2)
		}, stopStatus: "not observed", stopWhy: "a minute or more"},
	{id: "OBS-029", fireStatus: findings.StatusObservation,
		fire: func(in *findings.Input) {
			phase(in, eventlog.PhaseSourceRead, 0.5)
			in.EventLog.Stages[0].Phase, in.EventLog.Stages[0].Observed.InputBytes = eventlog.PhaseSourceRead, 1000
			props(in, "hoodie.streamer.source.kafka.topic", "t")
		},
		stop: func(in *findings.Input) {
			phase(in, eventlog.PhaseSourceRead, 0.5)
			in.EventLog.Stages[0].Phase, in.EventLog.Stages[0].Observed.InputBytes = eventlog.PhaseSourceRead, 1<<30
			props(in, "hoodie.streamer.source.kafka.topic", "t")
		}, stopStatus: "not observed", stopWhy: "100 MB"},
	{id: "OBS-030", fireStatus: findings.StatusObservation,
		fire: func(in *findings.Input) {
			phase(in, eventlog.PhaseMarkers, 0.1)
			in.Facts.Instants.Active, in.Facts.Savepoints = ptr(5), ptr(0)
		},
		stop: func(in *findings.Input) {
			phase(in, eventlog.PhaseMarkers, 0.1)
			in.Facts.Instants.Active = ptr(5)
		}, stopStatus: findings.StatusStopped, stopWhy: "savepoint"},
	{id: "CAP-001", fireStatus: findings.StatusRefused,
		fire: func(in *findings.Input) {
			in.Facts.Commits.UpdateShare, in.Facts.Updates.NewestPartitionShare = ptr(0.3), ptr(0.3)
			in.Layout.TotalFiles = 5000
			stages(in, eventlog.PhaseDedupTagging, func(s *eventlog.Stage) { s.Observed.NumTasksPlanned = 5000 })
		},
		stop: func(in *findings.Input) {
			in.Facts.Commits.UpdateShare, in.Facts.Updates.NewestPartitionShare = ptr(0.3), ptr(0.95)
			in.Layout.TotalFiles = 5000
			stages(in, eventlog.PhaseDedupTagging, func(s *eventlog.Stage) { s.Observed.NumTasksPlanned = 5000 })
		}, stopStatus: findings.StatusRefused, stopWhy: "Counter-signals fire (updates concentrate",
		check: func(t *testing.T, f *findings.Finding) {
			if f.Estimate == nil || f.Estimate.Value < 1 || !strings.Contains(f.Refusal, "design decision, not a tuning step") {
				t.Errorf("CAP-001 needs a file-group estimate and the refusal: %+v %q", f.Estimate, f.Refusal)
			}
			if !strings.Contains(f.Why, "point at a change") {
				t.Errorf("CAP-001 why: %q", f.Why)
			}
			for _, e := range f.Signals {
				if e.Path == "props.hoodie.index.type" && !strings.Contains(e.Source, "you are on the default") {
					t.Errorf("index type source %q should say 'you are on the default'", e.Source)
				}
			}
		}},
	{id: "CAP-002", fireStatus: findings.StatusRefused,
		fire: func(in *findings.Input) {
			in.Facts.Commits.RecordsPerCommit.CV, in.Facts.Commits.UpdateShare, in.Facts.Commits.RecordsPerCommit.Growth = ptr(0.1), ptr(0.7), ptr(1.0)
			in.Layout.Skew.LargestPartitionShare = 0.3
		},
		stop: func(in *findings.Input) {
			in.Facts.Commits.RecordsPerCommit.CV, in.Facts.Commits.UpdateShare, in.Facts.Commits.RecordsPerCommit.Growth = ptr(0.1), ptr(0.7), ptr(3.0)
			in.Layout.Skew.LargestPartitionShare = 0.3
		}, stopStatus: findings.StatusRefused, stopWhy: "Counter-signals fire (records per commit trending up"},
	{id: "CAP-003", fireStatus: findings.StatusCandidate,
		fire: func(in *findings.Input) {
			smallFiles(in)
			props(in, "hoodie.clustering.inline", "false")
			in.Facts.Commits.UpdatedFileGroupShare = ptr(0.1)
		},
		stop: func(in *findings.Input) {
			smallFiles(in)
			props(in, "hoodie.clustering.inline", "false")
			in.Facts.Commits.UpdatedFileGroupShare = ptr(0.9)
		}, stopStatus: findings.StatusDont, stopWhy: "heavy updates"},
	{id: "CAP-004", fireStatus: findings.StatusCandidate,
		fire: func(in *findings.Input) {
			props(in, "hoodie.metadata.index.column.stats.enable", "false")
			in.Facts.MDTPartitions = []string{"files"}
		},
		stop: func(in *findings.Input) {
			props(in, "hoodie.metadata.index.column.stats.enable", "false", "hoodie.metadata.enable", "false")
			in.Facts.MDTPartitions = []string{"files"}
		}, stopStatus: findings.StatusGated, stopWhy: "CAP-007 first"},
	{id: "CAP-005", fireStatus: findings.StatusCandidate,
		fire: func(in *findings.Input) {
			props(in, "hoodie.metadata.global.record.level.index.enable", "true")
			in.Facts.MDTPartitions = []string{"files", "record_index"}
		},
		stop: func(in *findings.Input) {
			props(in, "hoodie.metadata.global.record.level.index.enable", "true")
			in.Facts.MDTPartitions = []string{"files", "record_index"}
			phase(in, eventlog.PhaseMetadataWrite, 0.5)
		}, stopStatus: findings.StatusDont, stopWhy: "another partition"},
	{id: "CAP-006", fireStatus: findings.StatusRefused,
		fire: func(in *findings.Input) {
			in.Facts.Commits.WriteAmplification, in.Facts.Commits.UpdateShare, in.Facts.Commits.UpdatedFileGroupShare = ptr(50.0), ptr(0.3), ptr(0.3)
			phase(in, eventlog.PhaseDataWrite, 0.4)
		},
		stop: func(in *findings.Input) {
			in.Facts.Commits.WriteAmplification, in.Facts.Commits.UpdateShare, in.Facts.Commits.UpdatedFileGroupShare = ptr(50.0), ptr(0.3), ptr(0.3)
			in.Facts.Partitioned = ptr(false)
		}, stopStatus: findings.StatusRefused, stopWhy: "Counter-signals fire (a non-partitioned MOR table"},
	{id: "CAP-007", fireStatus: findings.StatusCandidate,
		fire: func(in *findings.Input) {
			props(in, "hoodie.metadata.enable", "false")
			in.Layout.MDTEnabled, in.Layout.NumPartitions = false, 500
			in.Facts.Commits.RecordsPerCommit.Median = ptr(10000.0)
		},
		stop: func(in *findings.Input) {
			props(in, "hoodie.metadata.enable", "false")
			in.Layout.MDTEnabled = false
			in.Facts.Commits.RecordsPerCommit.Median = ptr(10000.0)
		}, stopStatus: findings.StatusDont, stopWhy: "small or unpartitioned"},
}

// tinyStage makes the first stage of a phase plan n tasks whose median ran 10 ms.
func tinyStage(in *findings.Input, ph string, n int) {
	i := firstStage(in, ph)
	in.EventLog.Stages[i].Observed.NumTasksPlanned, in.EventLog.Stages[i].Observed.TaskDurationMillis.P50 = n, 10
}

// probe files the first data-write stage as the small-file probe.
func probe(in *findings.Input) {
	in.EventLog.Stages[firstStage(in, eventlog.PhaseDataWrite)].SubPhase = ptr("smallFileProbe")
}

func firstStage(in *findings.Input, ph string) int {
	for i, s := range in.EventLog.Stages {
		if s.Phase == ph {
			return i
		}
	}
	return 0
}

// TestRows: every catalog row has a case where it fires and one where a counter-signal, a
// gate or a failing signal stops it.
func TestRows(t *testing.T) {
	cat := findings.Default()
	covered := map[string]bool{}
	for _, rc := range rowCases {
		covered[rc.id] = true
		t.Run(rc.id, func(t *testing.T) {
			in := base(t)
			rc.fire(&in)
			r := findings.Evaluate(in, cat)
			f := r.Find(rc.id)
			if f == nil {
				t.Fatal("row missing from the result")
			}
			if f.Status != rc.fireStatus {
				t.Fatalf("fire: status %q, want %q (%s)\n%+v", f.Status, rc.fireStatus, f.Why, f.Signals)
			}
			if len(f.Agreed) < 2 {
				t.Errorf("fire: only %v agreed", f.Agreed)
			}
			if rc.check != nil {
				rc.check(t, f)
			}
			in = base(t)
			rc.stop(&in)
			f = findings.Evaluate(in, cat).Find(rc.id)
			if f.Status != rc.stopStatus || !strings.Contains(f.Why, rc.stopWhy) {
				t.Fatalf("stop: status %q (%s), want %q containing %q", f.Status, f.Why, rc.stopStatus, rc.stopWhy)
			}
		})
	}
	for _, r := range cat.Rows {
		if !covered[r.ID] {
			t.Errorf("row %s has no test case", r.ID)
		}
	}
	if len(cat.Rows) != 37 {
		t.Errorf("catalog has %d rows, want 37 (OBS-001…030, CAP-001…007)", len(cat.Rows))
	}
}
