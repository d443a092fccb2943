package eventlog

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// Job descriptions from Hudi sources (eventlog.md §4.2, analyzers.md §2.3/§6)
// in the 1.x "<Module>:<text>" encoding; the 0.x job-group encoding is the
// same text without the prefix and is checked alongside.
func TestResolvePhase(t *testing.T) {
	for _, tc := range []struct{ desc, phase, sub string }{
		{"Fetching next batch: trips", PhaseSourceRead, "sourceFetch"},
		{"Checking if input is empty: trips", PhaseSourceRead, "emptyInputCheck"},
		{"Tagging: my_table", PhaseDedupTagging, "tagging"},
		{"Obtain key ranges for file slices (range pruning=on): t", PhaseDedupTagging, "bloomRangePruning"},
		{"Load meta index key ranges for file slices: t", PhaseDedupTagging, "bloomMetaIndexRanges"},
		{"Compute all comparisons needed between records and files: t", PhaseDedupTagging, "bloomComparisonFanout"},
		{"Load latest base files from all partitions: t", PhaseDedupTagging, "baseFileListing"},
		{"Building workload profile:my_table", PhaseDedupTagging, "workloadProfile"},
		{"Building workload profile: my_table", PhaseDedupTagging, "workloadProfile"},
		{"Doing partition and writing data: t", PhaseDataWrite, "write"},
		{"Commit write status collect: t", PhaseDataWrite, "writeStatusCollect"},
		{"Committing stats: t", PhaseDataWrite, "commitStats"},
		{"Getting small files from partitions: t", PhaseDataWrite, "smallFileProbe"},
		{"Getting ExistingFileIds of all partitions", PhaseDataWrite, "partitionReplace"},
		{"Getting ExistingFileIds of matching static partitions", PhaseDataWrite, "partitionReplace"},
		{"Resolving file groups being replaced across all partitions", PhaseDataWrite, "partitionReplace"},
		{"Committing to metadata table: t", PhaseMetadataWrite, ""},
		{"Listing 12 partitions from filesystem", PhaseMetadataWrite, ""},
		{"Creating 4 file groups for partition files", PhaseMetadataWrite, ""},
		{"Creating records for metadata FILES partition", PhaseMetadataWrite, "filesPartition"},
		{"Record Index: reading record keys from [3] base files", PhaseMetadataWrite, "recordIndex"},
		{"Obtaining marker files for all created, merged paths", PhaseMarkers, ""},
		{"Delete invalid files generated during the write operation: t", PhaseMarkers, ""},
		{"Wait for all files to appear/disappear: t", PhaseMarkers, ""},
		{"Generating writeStat for missing log files", PhaseMarkers, "missingFileStats"},
		{"Compaction: generating compaction plan", PhasePlanning, "compactionPlan"},
		{"Looking for files to compact: t", PhasePlanning, "compactionCandidateScan"},
		{"Compacting file slices: t", PhaseExecution, "compaction"},
		{"Collect compaction write status and commit compaction: t", PhaseExecution, "compactionCommit"},
		{"Clustering records for t", PhaseExecution, "clustering"},
		{"Handling updates which are under clustering: t", PhaseExecution, "clusteringUpdateHandling"},
		{"Obtaining list of partitions to be cleaned: t", PhasePlanning, "cleanPartitionScan"},
		{"Generating list of file slices to be cleaned: t", PhasePlanning, "cleanFileSliceScan"},
		{"Perform cleaning of table: t", PhaseExecution, "cleaning"},
		{"Creating Listing Rollback Plan: t", PhasePlanning, "rollbackInstantListing"},
		{"Perform rollback actions: t", PhaseExecution, "rollback"},
		{"Collecting latest files for savepoint 001 t", PhasePlanning, "savepointFileListing"},
		{"Run metadata-only bootstrap operation: t", PhaseExecution, "bootstrap"},
		{"Delete archived instants: t", PhaseArchival, "archivedInstantDelete"},
		// UNKNOWN
		{"Listing leaf files and directories for 200 paths", PhaseUnknown, ""},
		{"count at MyApplication.scala:42", PhaseUnknown, ""},
		{"SomeOtherEngine:doing things", PhaseUnknown, ""},
		{"", PhaseUnknown, ""},
		{":", PhaseUnknown, ""},
	} {
		for _, desc := range []string{tc.desc, "SparkUpsertCommitActionExecutor:" + tc.desc} {
			if tc.desc == "" && desc != "" {
				continue
			}
			m := ResolvePhase(desc)
			if m.Phase != tc.phase || m.SubPhase != tc.sub {
				t.Errorf("%q: %s/%s want %s/%s", desc, m.Phase, m.SubPhase, tc.phase, tc.sub)
			}
		}
	}
	if m := ResolvePhase("FSUtils:Parallel listing paths s3://b/t/.hoodie/metadata/files"); m.Phase != PhaseMetadataWrite || m.SubPhase != "metadataListing" {
		t.Errorf("MDT listing %+v", m)
	}
	if m := ResolvePhase("FSUtils:Parallel listing paths s3://b/t/.hoodie/.temp/001/MARKERS0"); m.Phase != PhaseUnknown {
		t.Errorf("marker listing %+v", m)
	}
	g := "SparkUpsertCommitActionExecutor"
	if m := ResolveModule(strPtr("Tagging: t"), &g); sp(m) != g {
		t.Errorf("0.x module %s", sp(m))
	}
	if m := ResolveModule(strPtr("HoodieWriteHelper:Tagging: t"), nil); sp(m) != "HoodieWriteHelper" {
		t.Errorf("1.x module %s", sp(m))
	}
	if m := ResolveModule(strPtr("FSUtils:Parallel listing paths x"), nil); m != nil {
		t.Errorf("listing module %s", sp(m))
	}
}

// synthetic builds an event log from job descriptions; each job has one stage
// whose duration is given, with tasks of the given durations.
type synJob struct {
	desc, group, stageName string
	stageMillis            int64
	tasks                  []int64
}

func synthetic(jobs []synJob) [][]byte {
	var lines []string
	add := func(f string, a ...any) { lines = append(lines, fmt.Sprintf(f, a...)) }
	add(`{"Event":"SparkListenerLogStart","Spark Version":"3.5.1"}`)
	add(`{"Event":"SparkListenerApplicationStart","App Name":"syn","App ID":"app-1","Timestamp":1000,"User":"u"}`)
	add(`{"Event":"SparkListenerExecutorAdded","Timestamp":1000,"Executor ID":"1","Executor Info":{"Host":"h","Total Cores":2}}`)
	add(`{"Event":"SparkListenerExecutorAdded","Timestamp":1001,"Executor ID":"2","Executor Info":{"Host":"h","Total Cores":2}}`)
	now := int64(2000)
	for i, j := range jobs {
		props := map[string]string{}
		if j.desc != "" {
			props["spark.job.description"] = j.desc
		}
		if j.group != "" {
			props["spark.jobGroup.id"] = j.group
		}
		pj, _ := json.Marshal(props)
		name := j.stageName
		if name == "" {
			name = fmt.Sprintf("collect at X.java:%d", i)
		}
		add(`{"Event":"SparkListenerJobStart","Job ID":%d,"Submission Time":%d,"Stage Infos":[],"Stage IDs":[%d],"Properties":%s}`, i, now, i, pj)
		add(`{"Event":"SparkListenerStageSubmitted","Stage Info":{"Stage ID":%d,"Stage Attempt ID":0,"Stage Name":%q,"Number of Tasks":%d,"Submission Time":%d},"Properties":%s}`, i, name, len(j.tasks), now, pj)
		for k, d := range j.tasks {
			add(`{"Event":"SparkListenerTaskEnd","Stage ID":%d,"Stage Attempt ID":0,"Task Type":"ResultTask","Task End Reason":{"Reason":"Success"},"Task Info":{"Task ID":%d,"Launch Time":%d,"Finish Time":%d,"Failed":false,"Killed":false,"Speculative":false,"Accumulables":[{"ID":1,"Name":"x","Value":"5"}]},"Task Metrics":{"Executor Run Time":%d,"JVM GC Time":1,"Shuffle Read Metrics":{"Remote Bytes Read":10,"Local Bytes Read":5,"Total Records Read":2},"Shuffle Write Metrics":{"Shuffle Bytes Written":7,"Shuffle Write Time":100,"Shuffle Records Written":1},"Input Metrics":{"Bytes Read":3,"Records Read":1},"Output Metrics":{"Bytes Written":0,"Records Written":0}}}`,
				i, k, now, now+d, d)
		}
		add(`{"Event":"SparkListenerStageCompleted","Stage Info":{"Stage ID":%d,"Stage Attempt ID":0,"Stage Name":%q,"Number of Tasks":%d,"Submission Time":%d,"Completion Time":%d}}`, i, name, len(j.tasks), now, now+j.stageMillis)
		now += j.stageMillis
		add(`{"Event":"SparkListenerJobEnd","Job ID":%d,"Completion Time":%d,"Job Result":{"Result":"JobSucceeded"}}`, i, now)
		now += 10
	}
	add(`{"Event":"SparkListenerApplicationEnd","Timestamp":%d}`, now+100)
	out := make([][]byte, len(lines))
	for i, l := range lines {
		out[i] = []byte(l)
	}
	return out
}

func TestSyntheticWrite(t *testing.T) {
	for _, enc := range []string{"1.x", "0.x"} {
		mk := func(module, text string) synJob {
			if enc == "1.x" {
				return synJob{desc: module + ":" + text}
			}
			return synJob{desc: text, group: module}
		}
		jobs := []synJob{
			mk("HoodieWriteHelper", "Tagging: trips"),
			mk("SparkUpsertCommitActionExecutor", "Building workload profile:trips"),
			mk("UpsertPartitioner", "Getting small files from partitions: trips"),
			mk("SparkUpsertCommitActionExecutor", "Doing partition and writing data: trips"),
			mk("SparkRDDWriteClient", "Committing stats: trips"),
			mk("SparkUpsertPreppedDeltaCommitActionExecutor", "Doing partition and writing data: trips_metadata"),
			mk("DirectWriteMarkers", "Obtaining marker files for all created, merged paths"),
		}
		for i := range jobs {
			jobs[i].stageMillis = 100
			jobs[i].tasks = []int64{50}
		}
		jobs[1].stageMillis, jobs[1].tasks = 1000, []int64{100, 200, 1000}
		jobs[1].stageName = "countByKey at HoodieJavaPairRDD.java:115"
		r := AnalyzeLines(synthetic(jobs), Options{})
		want := []struct{ phase, sub, op, src string }{
			{PhaseDedupTagging, "tagging", OpWrite, SourceModule},
			{PhaseDedupTagging, "workloadProfile", OpWrite, SourceModule},
			{PhaseDataWrite, "smallFileProbe", OpWrite, SourceModule},
			{PhaseDataWrite, "write", OpWrite, SourceModule},
			{PhaseDataWrite, "commitStats", OpWrite, SourceModule},
			{PhaseMetadataWrite, "write", OpWrite, SourceSequence}, // MDT commit: hudiscope fix
			{PhaseMarkers, "", OpWrite, SourceSequence},
		}
		ours := r.HudiscopeStages()
		for i, w := range want {
			s := ours[i]
			if s.Phase != w.phase || sp(s.SubPhase) != or(w.sub, "<nil>") || s.Operation != w.op || s.OperationSource != w.src {
				t.Errorf("%s stage %d (%s): %s/%s %s/%s want %+v", enc, i, sp(s.JobDescription), s.Phase, sp(s.SubPhase), s.Operation, s.OperationSource, w)
			}
		}
		// The Java fields keep the Java tool's attribution of the metadata-table commit.
		if j, x := r.Stages[5], r.Hudiscope.Stages[5]; j.Phase != PhaseDataWrite || sp(j.SubPhase) != "write" || j.Operation != OpWrite || j.OperationSource != SourceModule ||
			x.Table != "trips_metadata" || strings.Join(x.DiffersFromJava, ",") != "operationSource,phase" {
			t.Errorf("%s: MDT stage java %s/%s %s/%s, hudiscope %+v", enc, j.Phase, sp(j.SubPhase), j.Operation, j.OperationSource, x)
		}
		s := r.Stages[1]
		if s.Observed.TaskDurationMillis.P50 != 200 || s.Observed.TaskDurationMillis.Max != 1000 || s.Observed.SkewRatio != 5.0 ||
			len(s.BundledSteps) != 2 || s.Observed.ShuffleReadBytes != 45 || s.Observed.NumTasksObserved != 3 {
			t.Errorf("%s: stage 1 metrics %+v bundled %v", enc, s.Observed, s.BundledSteps)
		}
		if r.Hudiscope.Hudi.Encoding != enc || r.Hudiscope.Hudi.WriteOperations["upsert"] != 2 {
			t.Errorf("hudi info %+v", r.Hudiscope.Hudi)
		}
		o := r.Application.Observed
		if o.CriticalPathMillis != 1600 || o.PeakConcurrentExecutors != 2 || o.JobCount != 7 || o.TaskCount != 9 {
			t.Errorf("%s: app %+v", enc, o)
		}
	}
}

func or(a, b string) string {
	if a == "" {
		return b
	}
	return a
}

func TestOperationFixes(t *testing.T) {
	mk := func(d string) synJob { return synJob{desc: d, stageMillis: 10, tasks: []int64{5}} }
	// Restore with plan + perform + stats jobs per instant: 2 rollbacks = 6 jobs.
	r := AnalyzeLines(synthetic([]synJob{
		mk("ListingBasedRollbackStrategy:Creating Listing Rollback Plan: t"),
		mk("BaseRollbackHelper:Perform rollback actions: t"),
		mk("BaseRollbackHelper:Collect rollback stats: t"),
		mk("ListingBasedRollbackStrategy:Creating Listing Rollback Plan: t"),
		mk("BaseRollbackHelper:Perform rollback actions: t"),
		mk("BaseRollbackHelper:Collect rollback stats: t"),
	}), Options{})
	for i, s := range r.Stages {
		if s.Operation != OpRestore || r.Hudiscope.Stages[i].Operation != OpRollback {
			t.Errorf("rollbacks: stage %d java op %s, hudiscope %s", i, s.Operation, r.Hudiscope.Stages[i].Operation)
		}
	}
	if r.Hudiscope.Application.RollbackExecutions != 2 {
		t.Errorf("rollback executions %d", r.Hudiscope.Application.RollbackExecutions)
	}
	var three []synJob
	for range 3 {
		three = append(three, mk("ListingBasedRollbackStrategy:Creating Listing Rollback Plan: t"), mk("BaseRollbackHelper:Perform rollback actions: t"))
	}
	r = AnalyzeLines(synthetic(three), Options{})
	if x := r.Hudiscope.Stages[0]; x.Operation != OpRestore || x.OperationSource != SourceSequence {
		t.Errorf("restore: %s/%s", x.Operation, x.OperationSource)
	}

	r = AnalyzeLines(synthetic([]synJob{
		mk("HoodieLogCompactionPlanGenerator:Compaction: generating compaction plan"),
		mk("Handling updates which are under clustering: t"),
		mk("HoodieCompactor:Compacting file slices: t"),
		mk("SparkHoodieBackedTableMetadataWriter:Committing to metadata table: t"),
		mk(":"),
		mk(""),
	}), Options{})
	want := []struct{ op, java string }{{OpLogCompaction, OpCompaction}, {OpWrite, OpClustering}, {OpCompaction, OpCompaction}, {OpCompaction, OpIndexing}, {OpUnknown, OpUnknown}, {OpUnknown, OpUnknown}}
	for i, w := range want {
		if r.Hudiscope.Stages[i].Operation != w.op || r.Stages[i].Operation != w.java {
			t.Errorf("stage %d: %s (java %q) want %s (java %q)", i, r.Hudiscope.Stages[i].Operation, r.Stages[i].Operation, w.op, w.java)
		}
	}
	hasColon := false
	for _, c := range r.Caveats {
		hasColon = hasColon || strings.Contains(c, `":"`)
	}
	if !hasColon {
		t.Errorf("UNKNOWN caveat missing: %q", r.Caveats)
	}
}

func TestStreamingMetadataWrite(t *testing.T) {
	r := AnalyzeLines(synthetic([]synJob{
		{desc: "SparkRDDWriteClient:Committing stats: t", stageMillis: 1000, tasks: []int64{5}},
		{desc: "SparkRDDWriteClient:Committing stats: t", stageName: "mapToPair at SparkStreamingMetadataWriteHandler.java:61", stageMillis: 10000, tasks: []int64{5}},
	}), Options{})
	x := r.Hudiscope.Stages[1]
	if x.Phase != PhaseMetadataWrite || sp(x.SubPhase) != SubPhaseStreamingMetadataWrite || r.Stages[1].Phase != PhaseDataWrite || sp(r.Stages[1].SubPhase) != "commitStats" {
		t.Errorf("streaming stage %s/%s (java %s)", x.Phase, sp(x.SubPhase), r.Stages[1].Phase)
	}
	// Undescribed streaming stage: the Java tool's caveat fires on its UNKNOWN share (91%).
	r = AnalyzeLines(synthetic([]synJob{
		{desc: "HoodieWriteHelper:Tagging: t", stageMillis: 1000, tasks: []int64{5}},
		{stageName: "mapToPair at SparkStreamingMetadataWriteHandler.java:61", stageMillis: 10000, tasks: []int64{5}},
	}), Options{})
	if r.Hudiscope.Stages[1].Phase != PhaseMetadataWrite || r.Stages[1].Phase != PhaseUnknown || sp(r.Stages[1].SubPhase) != SubPhaseStreamingMetadataWrite {
		t.Errorf("undescribed streaming stage %s (java %s)", r.Hudiscope.Stages[1].Phase, r.Stages[1].Phase)
	}
	if len(r.Caveats) == 0 || !strings.Contains(r.Caveats[0], "91%") {
		t.Errorf("Java streaming caveat missing: %q", r.Caveats)
	}
}

func TestJSONShape(t *testing.T) {
	r := AnalyzeLines(synthetic([]synJob{{desc: "HoodieWriteHelper:Tagging: t", stageMillis: 10, tasks: []int64{5}}}), Options{DisplayPath: "/logs/x"})
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	order := []string{`"schemaVersion":"1.1.0"`, `"eventLogPath":"/logs/x"`, `"application":{"name":"syn"`, `"sparkVersion":"3.5.1"`,
		`"operationSummary":[{"operation":"WRITE_OPERATION","stageCount":1`, `"shareOfStageWallClock":1.0`, `"phaseSummary":[{"phase":"DEDUP_AND_INDEX_TAGGING"`,
		`"stages":[{"stageId":0,"attemptId":0,"name":"collect at X.java:0","jobId":0,"jobDescription":"HoodieWriteHelper:Tagging: t","module":"HoodieWriteHelper","operation":"WRITE_OPERATION","operationSource":"module","phase":"DEDUP_AND_INDEX_TAGGING","subPhase":"tagging","bundledSteps":["deduplication","index tagging"],"submissionTimeEpochMillis":2000,"completionTimeEpochMillis":2010,"failureReason":null,"observed":{"numTasksPlanned":1,"numTasksObserved":1,"durationMillis":10`,
		`"gcFractionOfRunTime":0.2`, `"skewRatio":1.0,"taskDurationMillis":{"p50":5,"p95":5,"max":5}},"taskFailureReasons":{}}]`,
		`"caveats":[`, `"warnings":[]`, `"hudiscope":{"version":"1"`}
	pos := 0
	for _, o := range order {
		i := strings.Index(s[pos:], o)
		if i < 0 {
			t.Fatalf("missing or out of order: %s\nin %s", o, s)
		}
		pos += i
	}
	for _, v := range []struct {
		r    Ratio
		want string
	}{{1, "1.0"}, {0.667, "0.667"}, {-1, "-1.0"}, {0, "0.0"}, {12345678, "1.2345678E7"}} {
		b, _ := v.r.MarshalJSON()
		if string(b) != v.want {
			t.Errorf("Ratio(%v) = %s want %s", float64(v.r), b, v.want)
		}
	}
}

func FuzzLine(f *testing.F) {
	for _, l := range synthetic([]synJob{{desc: "HoodieWriteHelper:Tagging: t", stageMillis: 10, tasks: []int64{5}}}) {
		f.Add(l)
	}
	f.Add([]byte(`{"Event":"SparkListenerTaskEnd","Stage ID":"3","Task Info":{"Launch Time":1.5e3}}`))
	f.Add([]byte(`{"Job ID":1,"Event":"SparkListenerJobStart","Stage IDs":[1,2],"Properties":null}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		st := newState()
		ok, blank := st.Line(line)
		if ok && !blank && !json.Valid(line) && st.eventsRead != 1 {
			t.Fatalf("inconsistent result for %q", line)
		}
		if json.Valid(line) && !blank && !ok {
			t.Fatalf("valid JSON rejected: %q: %v", line, st.p.sc.Err())
		}
	})
}

// A data-table marker-directory listing is UNKNOWN to the Java tool; hudiscope gives it to
// the write of its instant, even when the metadata table's own clean ran in between.
func TestMarkerListing(t *testing.T) {
	mk := func(d string) synJob { return synJob{desc: d, stageMillis: 10, tasks: []int64{5}} }
	r := AnalyzeLines(synthetic([]synJob{
		mk("RunCompactionActionExecutor:Preparing compaction metadata: t"),
		mk("SparkUpsertPreppedDeltaCommitActionExecutor:Building workload profile:t_metadata"),
		mk("DirectWriteMarkers:Obtaining marker files for all created, merged paths"),
		mk("FSUtils:Parallel listing paths s3://b/t/.hoodie/metadata/.hoodie/.temp/20260101000000000/files"),
		mk("CleanPlanActionExecutor:Generating list of file slices to be cleaned: t_metadata"),
		mk("FSUtils:Parallel listing paths s3://b/t/.hoodie/.temp/20260101000000000/MARKERS.type,s3://b/t/.hoodie/.temp/20260101000000000/MARKERS0"),
		mk("FSUtils:Parallel listing paths s3://b/t/.hoodie/timeline/history/manifest_1"),
	}), Options{})
	j, x := r.Stages[5], r.Hudiscope.Stages[5]
	if j.Phase != PhaseUnknown || j.SubPhase != nil || j.Operation != OpUnknown {
		t.Errorf("Java: %s/%s %s", j.Phase, sp(j.SubPhase), j.Operation)
	}
	if x.Phase != PhaseMarkers || sp(x.SubPhase) != SubPhaseMarkerListing || x.Operation != OpCompaction || x.Instant != "20260101000000000" {
		t.Errorf("hudiscope: %+v", x)
	}
	if m := r.Hudiscope.Stages[3]; m.Phase != PhaseMetadataWrite || sp(m.SubPhase) != "metadataListing" || m.Operation != OpCompaction || m.Instant != "20260101000000000" {
		t.Errorf("metadata-table marker listing: %+v", m)
	}
	if o := r.Hudiscope.Stages[6]; o.Phase != PhaseUnknown || o.Instant != "" {
		t.Errorf("timeline listing: %+v", o)
	}
	if got := r.Hudiscope.Caveats; len(got) < 2 || !strings.Contains(got[len(got)-1], "1 stage(s) list a write's marker directory") {
		t.Errorf("caveats %q", got)
	}
}
