package eventlog

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Bundled steps per composite phase, flagged on stages with ≥ 15 % of stage wall clock.
var bundledSteps = map[string][]string{
	PhaseSourceRead:   {"source read", "transformation", "record creation"},
	PhaseDedupTagging: {"deduplication", "index tagging"},
}

const (
	bundledShareThreshold   = 0.15
	unattributedShareCaveat = 0.25
)

// attribution is one way of assigning a stage to a job (Java's or ours).
type attribution struct {
	jobID    int
	hasJob   bool
	desc     *string
	module   *string
	match    PhaseMatch
	phase    string
	subPhase string
	// indexBuild: metadata-table partition initialisation (an index build).
	indexBuild bool
	// streaming: reattributed by the SparkStreamingMetadataWriteHandler stage name.
	streaming bool
	// markerInstant: a data-table marker-directory listing of this instant.
	markerInstant string
}

var indexBuildPrefixes = []string{"bulk inserting at ", "creating records for metadata files partition",
	"record index: reading record keys from ", "secondary index: reading secondary keys from "}

func (a *analysis) attribute(s *stageAgg, jobID int, hasJob bool, java bool) attribution {
	st := a.st
	at := attribution{jobID: jobID, hasJob: hasJob}
	var group *string
	if hasJob {
		if j := st.jobs[jobID]; j != nil {
			at.desc, group = j.description, j.group
		}
	}
	if !java && at.desc == nil && s.propDesc != nil {
		// No JobStart for the owning job (compacted or cut log): use the
		// job properties the stage was submitted with.
		at.desc, group = s.propDesc, s.propGroup
	}
	if java && !hasJob {
		at.desc = nil
	}
	at.module = ResolveModule(at.desc, group)
	m := ResolvePhase(deref(at.desc))
	if m.Phase == PhaseUnknown && strings.Contains(s.name, "SparkStreamingMetadataWriteHandler") {
		m = PhaseMatch{Phase: PhaseUnknown, SubPhase: SubPhaseStreamingMetadataWrite}
	}
	at.match = m
	at.phase = m.Phase
	if !java && isMetadataTable(m.Table) {
		switch m.Phase {
		case PhaseDedupTagging, PhaseDataWrite, PhaseMarkers:
			at.phase = PhaseMetadataWrite // a metadata-table commit reusing the write texts
		}
	}
	at.subPhase = m.SubPhase
	if r := refineSubPhase(m.Phase, s.name); r != "" {
		at.subPhase = r
	}
	if !java && strings.Contains(s.name, "SparkStreamingMetadataWriteHandler") {
		// The RDD was built by the streaming metadata-table writer; whatever
		// description the forcing job carries, the work is the MDT write.
		at.phase, at.subPhase, at.streaming = PhaseMetadataWrite, SubPhaseStreamingMetadataWrite, true
	}
	if !java && (at.phase == PhaseUnknown || at.subPhase == "metadataListing") {
		if inst, mdt := markerListingInstant(deref(at.desc)); inst != "" {
			at.markerInstant = inst
			if !mdt {
				at.phase, at.subPhase = PhaseMarkers, SubPhaseMarkerListing
			}
		}
	}
	if m.Phase == PhaseMetadataWrite {
		lower := strings.ToLower(m.Activity)
		for _, p := range indexBuildPrefixes {
			if strings.HasPrefix(lower, p) {
				at.indexBuild = true
			}
		}
		for _, r := range countedRules {
			if r.re.MatchString(m.Activity) {
				at.indexBuild = true
			}
		}
	}
	return at
}

// SubPhaseMarkerListing marks FSUtils listings of a write's marker directory (hudiscope's attribution only).
const SubPhaseMarkerListing = "markerListing"

// markerDir finds ".temp/<instant>/" (or ".temp/<instant>" ending a path) in a listing.
var markerDir = regexp.MustCompile(`(?:^|/)\.temp/(\d+)(?:/|,|$)`)

// markerListingInstant is the instant of a marker-directory listing
// ("Parallel listing paths …/.hoodie/.temp/<instant>/MARKERS…"; "" otherwise)
// and whether it is the metadata table's (which keeps the Java rule's phase).
func markerListingInstant(desc string) (string, bool) {
	const listing = "Parallel listing paths "
	i := strings.Index(desc, listing)
	if i < 0 {
		return "", false
	}
	paths := desc[i+len(listing):]
	if m := markerDir.FindStringSubmatch(paths); m != nil {
		return m[1], strings.Contains(paths, "/metadata/")
	}
	return "", false
}

func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func (a *analysis) build(display string) *Report {
	st := a.st
	keys := make([]stageKey, 0, len(st.stages))
	for k := range st.stages {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].id != keys[j].id {
			return keys[i].id < keys[j].id
		}
		return keys[i].attempt < keys[j].attempt
	})
	stages := make([]*stageAgg, len(keys))
	ours := make([]attribution, len(keys))
	java := make([]attribution, len(keys))
	var totalWall int64
	for i, k := range keys {
		s := st.stages[k]
		stages[i] = s
		jj, jok := st.stageToJob[s.id]
		java[i] = a.attribute(s, jj, jok, true)
		oj, ook := s.jobID, s.jobKnown
		if !ook {
			oj, ook = jj, jok
		}
		ours[i] = a.attribute(s, oj, ook, false)
		if d := s.duration(); d > 0 {
			totalWall += d
		}
	}

	// Operations per job, for both attributions.
	resolve := func(atts []attribution) map[int]*jobView {
		views := map[int]*jobView{}
		var list []*jobView
		for _, at := range atts {
			if !at.hasJob {
				continue
			}
			v := views[at.jobID]
			if v == nil {
				order := 1 << 30
				if j := st.jobs[at.jobID]; j != nil {
					order = j.order
				}
				v = &jobView{id: at.jobID, order: order, module: deref(at.module), mdtOnly: true, markerOnly: true}
				views[at.jobID] = v
				list = append(list, v)
			}
			v.phases = append(v.phases, at.phase)
			v.subPhases = append(v.subPhases, at.subPhase)
			v.tables = append(v.tables, at.match.Table)
			// Undescribed (UNKNOWN) stages ride along: in 1.x the commit job that
			// forces the streaming metadata-table write often has no description.
			if at.phase == PhaseMetadataWrite && !at.indexBuild {
				v.hasMDT = true
			} else if at.phase != PhaseUnknown {
				v.mdtOnly = false
			}
			if at.markerInstant == "" {
				v.markerOnly = false
			}
			v.instant = at.markerInstant
		}
		for _, v := range list {
			v.mdtOnly = v.mdtOnly && v.hasMDT
		}
		a.rollbackExecutions = resolveOperations(list)
		return views
	}
	javaViews := resolve(java)
	ourViews := resolve(ours)

	r := &Report{SchemaVersion: SchemaVersion, EventLogPath: display, Caveats: []string{}, Warnings: a.warnings}
	if r.Warnings == nil {
		r.Warnings = []string{}
	}
	ext := &r.Hudiscope
	ext.Version = ExtensionVersion
	ext.Files, ext.Damage = a.files, a.damage
	if ext.Damage == nil {
		ext.Damage = []DamageRecord{}
	}
	ext.Stages = []StageExtra{}
	ext.TaskDurationBucketUpperMillis = TaskDurationEdgesMillis[:]
	hudi := HudiInfo{Tables: []string{}, WriteOperations: map[string]int{}, Configs: st.hoodieConfigs}
	tables := map[string]bool{}
	writeOpJobs := map[int]string{}
	enc1x, enc0x := false, false

	// Java caveat inputs come from the Java attribution; counts for hudiscope's caveats from ours.
	var unknownWall int64
	sawStreaming := false
	present := map[string]bool{}
	streamingStages, mdtReuseStages, markerStages, differing := 0, 0, 0, 0
	bundled := func(d int64, phase string) []string {
		if d > 0 && totalWall > 0 && float64(d)/float64(totalWall) >= bundledShareThreshold {
			return bundledSteps[phase]
		}
		return nil
	}
	for i, s := range stages {
		at, jt := ours[i], java[i]
		op, src := OpUnknown, SourceNone
		if v := ourViews[at.jobID]; at.hasJob && v != nil {
			op, src = v.op, v.src
		}
		jop, jsrc := OpUnknown, SourceNone
		if v := javaViews[jt.jobID]; jt.hasJob && v != nil {
			jop, jsrc = v.javaOp, v.javaSrc
		}
		d := s.duration()
		out := Stage{
			StageID: s.id, AttemptID: s.attempt, Name: s.name,
			JobID: jobIDPtr(jt), JobDescription: jt.desc, Module: jt.module,
			Operation: jop, OperationSource: jsrc, Phase: jt.phase, SubPhase: strPtr(jt.subPhase),
			BundledSteps:              bundled(d, jt.phase),
			SubmissionTimeEpochMillis: s.submission, CompletionTimeEpochMillis: s.completion,
			FailureReason: s.failureReason, TaskFailureReasons: s.failureCounts,
		}
		if out.TaskFailureReasons == nil {
			out.TaskFailureReasons = map[string]int64{}
		}
		out.Observed = StageObserved{
			NumTasksPlanned: s.numTasksPlanned, NumTasksObserved: s.observed(), DurationMillis: d,
			ExecutorRunTimeMillis: s.executorRunTime, ExecutorDeserializeTimeMillis: s.executorDeserializeTime,
			JvmGcTimeMillis: s.jvmGCTime, GcFractionOfRunTime: round3(s.gcFraction()), ResultSizeBytes: s.resultSize,
			InputBytes: s.inputBytes, InputRecords: s.inputRecords, OutputBytes: s.outputBytes, OutputRecords: s.outputRecords,
			ShuffleReadBytes: s.shuffleReadBytes, ShuffleReadRecords: s.shuffleReadRecords, ShuffleFetchWaitTimeMillis: s.shuffleFetchWait,
			ShuffleWriteBytes: s.shuffleWriteBytes, ShuffleWriteRecords: s.shuffleWriteRecords, ShuffleWriteTimeNanos: s.shuffleWriteTimeNanos,
			MemoryBytesSpilled: s.memorySpilled, DiskBytesSpilled: s.diskSpilled,
			TasksSucceeded: s.tasksSucceeded, TasksFailed: s.tasksFailed, TasksKilled: s.tasksKilled, TasksSpeculative: s.tasksSpeculative,
			SkewRatio:          round3(s.skewRatio()),
			TaskDurationMillis: TaskDurations{P50: s.percentile(50), P95: s.percentile(95), Max: s.maxDuration()},
		}
		if a.opt.IncludeTasks {
			p25, p75, p99 := s.percentile(25), s.percentile(75), s.percentile(99)
			out.Observed.TaskDurationMillis.P25, out.Observed.TaskDurationMillis.P75, out.Observed.TaskDurationMillis.P99 = &p25, &p75, &p99
		}
		r.Stages = append(r.Stages, out)

		present[jt.phase] = true
		if d > 0 && jt.phase == PhaseUnknown {
			unknownWall += d
		}
		if jt.subPhase == SubPhaseStreamingMetadataWrite {
			sawStreaming = true
		}

		// hudiscope's row: its own attribution, then extras.
		x := StageExtra{StageID: s.id, AttemptID: s.attempt,
			JobID: jobIDPtr(at), JobDescription: at.desc, Module: at.module,
			Operation: op, OperationSource: src, Phase: at.phase, SubPhase: strPtr(at.subPhase),
			BundledSteps: bundled(d, at.phase), Instant: at.markerInstant,
			Table:                at.match.Table,
			ExecutorCPUTimeNanos: s.cpuTimeNanos, PeakExecutionMemoryBytes: s.peakExecutionMemory,
			TaskDurationHistogram: s.hist}
		x.DiffersFromJava = differences(&out, &x)
		if len(x.DiffersFromJava) > 0 {
			differing++
		}
		switch {
		case at.streaming:
			streamingStages++
		case at.markerInstant != "" && at.phase == PhaseMarkers:
			markerStages++
		case at.phase != jt.phase && at.phase == PhaseMetadataWrite && isMetadataTable(at.match.Table):
			mdtReuseStages++
		}
		if at.module != nil {
			x.WriteOperationType = WriteOperationType(*at.module)
			if x.WriteOperationType != "" && at.hasJob {
				writeOpJobs[at.jobID] = x.WriteOperationType
			}
		}
		ext.Stages = append(ext.Stages, x)

		if at.match.Phase != PhaseUnknown {
			hudi.Detected = true
			if at.match.Table != "" && !tables[at.match.Table] {
				tables[at.match.Table] = true
				hudi.Tables = append(hudi.Tables, at.match.Table)
			}
			if at.desc != nil && at.match.Activity != *at.desc {
				enc1x = true
			} else {
				enc0x = true
			}
		}
	}
	if r.Stages == nil {
		r.Stages = []Stage{}
	}
	sort.Strings(hudi.Tables)
	for _, w := range writeOpJobs {
		hudi.WriteOperations[w]++
	}
	switch {
	case enc1x && enc0x:
		hudi.Encoding = "mixed"
	case enc1x:
		hudi.Encoding = "1.x"
	case enc0x:
		hudi.Encoding = "0.x"
	}
	ext.Hudi = hudi

	r.OperationSummary = summarise(r.Stages, "operation", func(s *Stage) string { return s.Operation })
	r.PhaseSummary = summarise(r.Stages, "phase", func(s *Stage) string { return s.Phase })
	r.Caveats = caveats(present, sawStreaming, totalWall, unknownWall)
	ours2 := r.HudiscopeStages()
	ext.OperationSummary = summarise(ours2, "operation", func(s *Stage) string { return s.Operation })
	ext.PhaseSummary = summarise(ours2, "phase", func(s *Stage) string { return s.Phase })
	ext.Caveats = hudiscopeCaveats(len(stages), differing, streamingStages, mdtReuseStages, markerStages)
	a.application(r)
	return r
}

func jobIDPtr(at attribution) *int {
	if !at.hasJob {
		return nil
	}
	id := at.jobID
	return &id
}

// differences names the attribution fields in which hudiscope's row differs from the Java stage.
func differences(j *Stage, x *StageExtra) []string {
	var d []string
	add := func(differ bool, field string) {
		if differ {
			d = append(d, field)
		}
	}
	add((j.JobID == nil) != (x.JobID == nil) || j.JobID != nil && *j.JobID != *x.JobID, "jobId")
	add(deref(j.JobDescription) != deref(x.JobDescription) || (j.JobDescription == nil) != (x.JobDescription == nil), "jobDescription")
	add(deref(j.Module) != deref(x.Module) || (j.Module == nil) != (x.Module == nil), "module")
	add(j.Operation != x.Operation, "operation")
	add(j.OperationSource != x.OperationSource, "operationSource")
	add(j.Phase != x.Phase, "phase")
	add(deref(j.SubPhase) != deref(x.SubPhase), "subPhase")
	return d
}

// hudiscopeCaveats say how hudiscope's attribution (hudiscope.phaseSummary and
// friends) departs from the Java tool's top-level one.
func hudiscopeCaveats(stages, differing, streaming, mdtReuse, markers int) []string {
	c := []string{fmt.Sprintf("hudiscope's attribution (hudiscope.phaseSummary, hudiscope.operationSummary, hudiscope.stages) differs "+
		"from HoodieSparkEventLogAnalyzer's (the top-level fields, computed by its rules) for %d of %d stage(s); "+
		"hudiscope.stages[].differsFromJava names the fields.", differing, stages)}
	if mdtReuse > 0 {
		c = append(c, fmt.Sprintf("%d stage(s) of metadata-table writes that reuse the data-table job texts (table <name>_metadata) are "+
			"METADATA_TABLE_WRITE here; the Java tool counts them as DEDUP_AND_INDEX_TAGGING, DATA_TABLE_WRITE or MARKER_RECONCILIATION.", mdtReuse))
	}
	if streaming > 0 {
		c = append(c, fmt.Sprintf("%d stage(s) built by SparkStreamingMetadataWriteHandler (streaming metadata-table writes, "+
			"which Hudi runs without a job description) are METADATA_TABLE_WRITE/%s here, by their stage name; "+
			"the Java tool leaves them in whichever bucket forced them (often DATA_TABLE_WRITE/commitStats) or in UNKNOWN.",
			streaming, SubPhaseStreamingMetadataWrite))
	}
	if markers > 0 {
		c = append(c, fmt.Sprintf("%d stage(s) list a write's marker directory (FSUtils \"Parallel listing paths …/.temp/<instant>/…\", "+
			"run when the commit ends) and are MARKER_RECONCILIATION/%s here, with the operation of that write and its instant in "+
			"hudiscope.stages[].instant; the Java tool leaves them UNKNOWN.", markers, SubPhaseMarkerListing))
	}
	return c
}

func summarise(stages []Stage, key string, label func(*Stage) string) []GroupSummary {
	by := map[string]*GroupSummary{}
	for i := range stages {
		s := &stages[i]
		l := label(s)
		g := by[l]
		if g == nil {
			g = &GroupSummary{Label: l, labelKey: key}
			by[l] = g
		}
		g.StageCount++
		g.TaskCount += s.Observed.NumTasksObserved
		g.ExecutorRunTimeMillis += s.Observed.ExecutorRunTimeMillis
		g.ShuffleBytes += s.Observed.ShuffleReadBytes + s.Observed.ShuffleWriteBytes
		g.SpilledBytes += s.Observed.MemoryBytesSpilled + s.Observed.DiskBytesSpilled
		if s.Observed.DurationMillis > 0 {
			g.StageWallClockMillis += s.Observed.DurationMillis
		}
	}
	out := make([]GroupSummary, 0, len(by))
	var total int64
	for _, g := range by {
		out = append(out, *g)
		total += g.StageWallClockMillis
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].StageWallClockMillis != out[j].StageWallClockMillis {
			return out[i].StageWallClockMillis > out[j].StageWallClockMillis
		}
		return out[i].Label < out[j].Label
	})
	for i := range out {
		if total > 0 {
			out[i].ShareOfStageWallClock = round3(float64(out[i].StageWallClockMillis) / float64(total))
		} else {
			out[i].ShareOfStageWallClock = -1
		}
	}
	return out
}

func caveats(present map[string]bool, sawStreaming bool, total, unknown int64) []string {
	var c []string
	if sawStreaming && total > 0 && float64(unknown)/float64(total) >= unattributedShareCaveat {
		c = append(c, fmt.Sprintf("Streaming writes to the metadata table look enabled (hoodie.metadata.streaming.write.enabled, "+
			"the Spark default). Hudi sets no job description on that path, so %.0f%% of stage wall clock here is UNKNOWN and the "+
			"phase shares understate the write path. Its stages carry subPhase %q; set the config to false for a fully attributable breakdown.",
			100*float64(unknown)/float64(total), SubPhaseStreamingMetadataWrite))
	}
	c = append(c, "A bucket names where work was forced, not where it logically belongs: Hudi sets the job description before "+
		"the Spark action and Spark evaluates lazily, so a bucket can carry the cost of an untagged step that ran before it. "+
		"Read a share as an attribution, not as a measurement of one step.")
	if present[PhaseSourceRead] {
		c = append(c, "SOURCE_READ_AND_TRANSFORM covers source read, user transformation and record creation together; "+
			"the streamer applies the transformer and creates records without a job status, so the three cannot be separated.")
	}
	if present[PhaseDedupTagging] {
		c = append(c, "DEDUP_AND_INDEX_TAGGING covers deduplication and index tagging together: only tagging is labelled and "+
			"deduplication runs untagged right before it.")
	}
	if present[PhaseDataWrite] {
		c = append(c, "DATA_TABLE_WRITE includes the small-file probe and can absorb earlier write work that was not forced until "+
			"the commit action ran; each stage's subPhase says which part it was.")
	}
	if present[PhaseUnknown] {
		c = append(c, "Some stages carry no recognised job description and are reported as UNKNOWN: Hudi work that is not "+
			"instrumented, or work of the surrounding application. A job description of just \":\" is one known case, seen on the source read.")
	}
	if present[PhaseArchival] {
		c = append(c, "ARCHIVAL is mostly driver-side and normally absent or trivial in a Spark log; a non-trivial duration here is worth investigating.")
	}
	c = append(c, "outputBytes and outputRecords are structurally zero for Hudi writes: Hudi writes its files itself and bypasses "+
		"Spark's output metrics, so read written bytes from the commit metadata instead.")
	c = append(c, "-1 means undefined (not derivable from this log), never zero.")
	return c
}

func (a *analysis) application(r *Report) {
	st := a.st
	app := &r.Application
	app.Name, app.ID = st.appName, st.appID
	app.StartTimeEpochMillis, app.EndTimeEpochMillis = st.startTime, st.endTime
	ext := &r.Hudiscope.Application
	ext.AttemptID, ext.User = st.appAttempt, st.user
	switch {
	case st.sparkVersionProp != nil:
		app.SparkVersion, ext.SparkVersionSource = st.sparkVersionProp, "spark.version"
	case st.logStartVersion != nil:
		app.SparkVersion, ext.SparkVersionSource = st.logStartVersion, "SparkListenerLogStart"
	default:
		ext.SparkVersionSource = "none"
	}
	ext.Complete = st.sawAppEnd
	ext.EventCounts = st.eventCounts
	ext.RollbackExecutions = a.rollbackExecutions

	o := &app.Observed
	// Duration: end - start, else the span of stage activity.
	if st.startTime >= 0 && st.endTime >= st.startTime {
		o.DurationMillis = st.endTime - st.startTime
	} else {
		lo, hi := int64(-1), int64(-1)
		for i := range r.Stages {
			s := &r.Stages[i]
			if s.SubmissionTimeEpochMillis >= 0 && (lo < 0 || s.SubmissionTimeEpochMillis < lo) {
				lo = s.SubmissionTimeEpochMillis
			}
			if s.CompletionTimeEpochMillis >= 0 && s.CompletionTimeEpochMillis > hi {
				hi = s.CompletionTimeEpochMillis
			}
		}
		o.DurationMillis = -1
		if lo >= 0 && hi >= 0 {
			o.DurationMillis = hi - lo
		}
	}
	longest := map[int]int64{}
	for i := range r.Stages {
		s := &r.Stages[i]
		o.TaskCount += s.Observed.NumTasksObserved
		o.FailedTaskCount += s.Observed.TasksFailed
		o.ExecutorRunTimeMillis += s.Observed.ExecutorRunTimeMillis
		o.ShuffleReadBytes += s.Observed.ShuffleReadBytes
		o.ShuffleWriteBytes += s.Observed.ShuffleWriteBytes
		o.MemoryBytesSpilled += s.Observed.MemoryBytesSpilled
		o.DiskBytesSpilled += s.Observed.DiskBytesSpilled
		if s.FailureReason != nil {
			o.FailedStageCount++
		}
		if s.JobID != nil && s.Observed.DurationMillis >= 0 {
			if d, ok := longest[*s.JobID]; !ok || s.Observed.DurationMillis > d {
				longest[*s.JobID] = s.Observed.DurationMillis
			}
		}
	}
	for _, d := range longest {
		o.CriticalPathMillis += d
	}
	o.StageCount = len(r.Stages)
	o.JobCount = len(st.jobs)
	for _, j := range st.jobs {
		switch {
		case !j.ended:
			ext.UnfinishedJobCount++
		case j.result != "JobSucceeded":
			o.FailedJobCount++
		}
	}
	o.EventsRead = st.eventsRead

	// Peak executors: removals first on equal timestamps.
	ev := append([]execEvent(nil), st.execEvents...)
	sort.SliceStable(ev, func(i, j int) bool {
		if ev[i].ts != ev[j].ts {
			return ev[i].ts < ev[j].ts
		}
		return ev[i].delta < ev[j].delta
	})
	var live, peak int64
	for _, e := range ev {
		live += e.delta
		peak = max(peak, live)
	}
	o.PeakConcurrentExecutors = int(peak)
	app.ExecutorRemovalReasons = st.removalReasons

	// Union of job intervals; unfinished jobs run to the app end (or last stage completion).
	horizon := st.endTime
	for i := range r.Stages {
		horizon = max(horizon, r.Stages[i].CompletionTimeEpochMillis)
	}
	type iv struct{ lo, hi int64 }
	var ivs []iv
	for _, j := range st.jobs {
		if j.submission < 0 {
			continue
		}
		hi := j.completion
		if !j.ended || hi < j.submission {
			hi = horizon
		}
		if hi >= j.submission {
			ivs = append(ivs, iv{j.submission, hi})
		}
	}
	sort.Slice(ivs, func(i, j int) bool { return ivs[i].lo < ivs[j].lo })
	var union, curLo, curHi int64 = 0, -1, -1
	for _, x := range ivs {
		if curHi < 0 || x.lo > curHi {
			if curHi >= 0 {
				union += curHi - curLo
			}
			curLo, curHi = x.lo, x.hi
		} else if x.hi > curHi {
			curHi = x.hi
		}
	}
	if curHi >= 0 {
		union += curHi - curLo
	}
	ext.JobWallClockMillis = union
	ext.UncoveredMillis, ext.UncoveredShare = -1, -1
	if o.DurationMillis >= 0 {
		ext.UncoveredMillis = max(0, o.DurationMillis-union)
	}
	if o.DurationMillis > 0 {
		ext.UncoveredShare = round3(float64(ext.UncoveredMillis) / float64(o.DurationMillis))
	}
}
