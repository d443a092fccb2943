package eventlog

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/hudiscope/hudiscope/analyzers/eventlog/jscan"
	"github.com/hudiscope/hudiscope/internal/redact"
)

// jobRec is one job as seen in JobStart/JobEnd.
type jobRec struct {
	id          int
	submission  int64
	completion  int64
	result      string
	ended       bool
	started     bool
	description *string
	group       *string
	sqlExecID   *string
	stageIDs    []int
	order       int
}

type execEvent struct {
	ts    int64
	delta int64
}

// state is everything kept while streaming: it grows with jobs, stages and
// executors, not with the size of the log.
type state struct {
	p parser // for Line
	b batch

	appName, appID, appAttempt, user *string
	startTime, endTime               int64
	sawAppStart, sawAppEnd           bool
	logStartVersion                  *string
	sparkPropsSeen                   bool
	sparkVersionProp                 *string
	hoodieConfigs                    map[string]string

	stages     map[stageKey]*stageAgg
	jobs       map[int]*jobRec
	jobOrder   []int
	stageToJob map[int]int // last JobStart listing each stage id, as of now

	execEvents     []execEvent
	removalReasons map[string]string
	eventsRead     int64
	eventCounts    map[string]int64
}

func newState() *state {
	return &state{
		startTime: -1, endTime: -1,
		stages:         map[stageKey]*stageAgg{},
		jobs:           map[int]*jobRec{},
		stageToJob:     map[int]int{},
		removalReasons: map[string]string{},
		hoodieConfigs:  map[string]string{},
		eventCounts:    map[string]int64{},
	}
}

func (st *state) stage(id, attempt int) *stageAgg {
	k := stageKey{id, attempt}
	s := st.stages[k]
	if s == nil {
		s = newStage(id, attempt)
		st.stages[k] = s
	}
	return s
}

func (st *state) job(id int) *jobRec {
	j := st.jobs[id]
	if j == nil {
		j = &jobRec{id: id, submission: -1, completion: -1, order: len(st.jobOrder)}
		st.jobs[id] = j
		st.jobOrder = append(st.jobOrder, id)
	}
	return j
}

// parser turns lines into events without touching the state, so that
// several can run at once; each worker owns one.
type parser struct {
	sc    jscan.Scanner
	names map[string]string // interned event names

	// The key order of each object of a task end read, learnt from the
	// last one: most of the bytes of a log are task ends.
	kTask, kReason, kInfo, kMetrics, kIn, kOut, kShRead, kShWrite jscan.Keys
	// Likewise for stage and job events, whose properties repeat too.
	kStage, kStageInfo, kStageProps, kJob, kJobProps jscan.Keys
}

// event is one parsed line, applied to the state in log order.
type event struct {
	name  string
	task  int32        // index into batch.tasks, or -1
	apply func(*state) // order-dependent effect; nil for counted-only events
}

// batch holds the events parsed from consecutive lines.
type batch struct {
	events []event
	tasks  []taskEnd
}

func (b *batch) reset() {
	clear(b.events) // drop closures
	b.events, b.tasks = b.events[:0], b.tasks[:0]
}

// apply folds a batch into the state, in order.
func (st *state) apply(b *batch) {
	for i := range b.events {
		e := &b.events[i]
		if e.task >= 0 {
			t := &b.tasks[e.task]
			st.stage(t.stageID, t.attempt).addTask(t)
		} else if e.apply != nil {
			e.apply(st)
		}
		st.eventsRead++
		st.eventCounts[e.name]++
	}
}

// intern returns b as a string, allocating once per distinct name.
func (p *parser) intern(b []byte) string {
	if s, ok := p.names[string(b)]; ok {
		return s
	}
	s := string(b)
	if p.names == nil {
		p.names = map[string]string{}
	}
	if len(p.names) < 1000 {
		p.names[s] = s
	}
	return s
}

var eventPrefix = []byte(`{"Event":"`)

// isBlank reports a line holding only whitespace.
func isBlank(b []byte) bool {
	if len(b) > 0 && b[0] > ' ' && b[0] < utf8.RuneSelf {
		return false // the usual '{', without looking at the end
	}
	return len(bytes.TrimSpace(b)) == 0
}

// eventName finds the event name: by prefix when Spark wrote the line, by a
// scan of the top-level keys otherwise. ok is false for malformed JSON.
func (p *parser) eventName(line []byte) (string, bool) {
	if bytes.HasPrefix(line, eventPrefix) {
		rest := line[len(eventPrefix):]
		if end := bytes.IndexByte(rest, '"'); end >= 0 && bytes.IndexByte(rest[:end], '\\') < 0 {
			return p.intern(rest[:end]), true
		}
	}
	sc := &p.sc
	sc.Reset(line)
	name := ""
	if sc.Peek() == '{' {
		sc.Object(func(k []byte) {
			if string(k) == "Event" && name == "" {
				name, _ = sc.String()
				return
			}
			sc.Skip()
		})
	} else {
		sc.Skip()
	}
	sc.End()
	return name, sc.Err() == nil
}

// Line consumes one line of the log. It returns false for a line that is not
// valid JSON (counted by the caller); blank lines return true without counting.
func (st *state) Line(line []byte) (parsed bool, blank bool) {
	parsed, blank = st.p.line(line, &st.b)
	st.apply(&st.b)
	st.b.reset()
	return parsed, blank
}

// line parses one line into b; see state.Line.
func (p *parser) line(line []byte, b *batch) (parsed bool, blank bool) {
	if isBlank(line) {
		return true, true
	}
	name, ok := p.eventName(line)
	if !ok {
		return false, false
	}
	var good bool
	var fn func(*state)
	task := int32(-1)
	switch name {
	case "SparkListenerTaskEnd":
		good = p.taskEnd(line, b)
		task = int32(len(b.tasks) - 1)
	case "SparkListenerStageSubmitted", "SparkListenerStageCompleted":
		fn, good = p.stageEvent(line, name == "SparkListenerStageSubmitted")
	case "SparkListenerJobStart":
		fn, good = p.jobStart(line)
	case "SparkListenerJobEnd":
		fn, good = p.jobEnd(line)
	case "SparkListenerApplicationStart", "SparkListenerApplicationEnd", "SparkListenerLogStart",
		"SparkListenerExecutorAdded", "SparkListenerExecutorRemoved":
		fn, good = p.simpleEvent(line, name)
	case "SparkListenerEnvironmentUpdate":
		fn, good = p.envUpdate(line)
	default:
		sc := &p.sc
		sc.Reset(line)
		sc.Skip()
		good = sc.End()
	}
	if !good {
		return false, false
	}
	b.events = append(b.events, event{name: name, task: task, apply: fn})
	return true, false
}

// Numbers of the task-end keys read (0: skipped), per object; see
// jscan.ObjectIDs.
const (
	_ = iota
	keyStageID
	keyStageAttempt
	keyEndReason
	keyTaskInfo
	keyTaskMetrics
)

func taskKey(k []byte) int {
	switch string(k) {
	case "Stage ID":
		return keyStageID
	case "Stage Attempt ID":
		return keyStageAttempt
	case "Task End Reason":
		return keyEndReason
	case "Task Info":
		return keyTaskInfo
	case "Task Metrics":
		return keyTaskMetrics
	}
	return 0
}

const (
	_ = iota
	keyReason
	keyClassName
)

func reasonKey(k []byte) int {
	switch string(k) {
	case "Reason":
		return keyReason
	case "Class Name":
		return keyClassName
	}
	return 0
}

const (
	_ = iota
	keyLaunch
	keyFinish
	keyFailed
	keyKilled
	keySpeculative
)

func infoKey(k []byte) int {
	switch string(k) {
	case "Launch Time":
		return keyLaunch
	case "Finish Time":
		return keyFinish
	case "Failed":
		return keyFailed
	case "Killed":
		return keyKilled
	case "Speculative":
		return keySpeculative
	}
	return 0
}

const (
	_ = iota
	keyRunTime
	keyDeserTime
	keyGCTime
	keyResultSize
	keyMemSpill
	keyDiskSpill
	keyCPUTime
	keyPeakExecMem
	keyInput
	keyOutput
	keyShuffleRead
	keyShuffleWrite
)

func metricsKey(k []byte) int {
	switch string(k) {
	case "Executor Run Time":
		return keyRunTime
	case "Executor Deserialize Time":
		return keyDeserTime
	case "JVM GC Time":
		return keyGCTime
	case "Result Size":
		return keyResultSize
	case "Memory Bytes Spilled":
		return keyMemSpill
	case "Disk Bytes Spilled":
		return keyDiskSpill
	case "Executor CPU Time":
		return keyCPUTime
	case "Peak Execution Memory":
		return keyPeakExecMem
	case "Input Metrics":
		return keyInput
	case "Output Metrics":
		return keyOutput
	case "Shuffle Read Metrics":
		return keyShuffleRead
	case "Shuffle Write Metrics":
		return keyShuffleWrite
	}
	return 0
}

// The members of the four metrics objects, one numbering.
const (
	_ = iota
	keyInBytes
	keyInRecords
	keyOutBytes
	keyOutRecords
	keyRemoteRead
	keyLocalRead
	keyTotalRecordsRead
	keyRecordsRead
	keyFetchWait
	keyShWriteBytes
	keyShWriteRecs
	keyShTime
)

func inputKey(k []byte) int {
	switch string(k) {
	case "Bytes Read":
		return keyInBytes
	case "Records Read":
		return keyInRecords
	}
	return 0
}

func outputKey(k []byte) int {
	switch string(k) {
	case "Bytes Written":
		return keyOutBytes
	case "Records Written":
		return keyOutRecords
	}
	return 0
}

func shuffleReadKey(k []byte) int {
	switch string(k) {
	case "Remote Bytes Read":
		return keyRemoteRead
	case "Local Bytes Read":
		return keyLocalRead
	case "Total Records Read":
		return keyTotalRecordsRead
	case "Records Read":
		return keyRecordsRead
	case "Fetch Wait Time":
		return keyFetchWait
	}
	return 0
}

func shuffleWriteKey(k []byte) int {
	switch string(k) {
	case "Shuffle Bytes Written":
		return keyShWriteBytes
	case "Shuffle Records Written":
		return keyShWriteRecs
	case "Shuffle Write Time":
		return keyShTime
	}
	return 0
}

// taskEnd reads the members of a task end the analysis uses, by number
// (jscan.ObjectIDs): the keys of most task ends are matched to the last
// one's, and the members not used are skipped without a call.
func (p *parser) taskEnd(line []byte, b *batch) bool {
	sc := &p.sc
	sc.Reset(line)
	b.tasks = append(b.tasks, taskEnd{stageID: -1, launch: -1, finish: -1})
	t := &b.tasks[len(b.tasks)-1]
	metric := func(id int) {
		switch id {
		case keyInBytes:
			t.inBytes = sc.Int(0)
		case keyInRecords:
			t.inRecords = sc.Int(0)
		case keyOutBytes:
			t.outBytes = sc.Int(0)
		case keyOutRecords:
			t.outRecords = sc.Int(0)
		case keyRemoteRead:
			t.remoteRead = sc.Int(0)
		case keyLocalRead:
			t.localRead = sc.Int(0)
		case keyTotalRecordsRead:
			t.totalRecordsRead = sc.Int(0)
			t.hasTotalRecordsRead = true
		case keyRecordsRead:
			t.recordsRead = sc.Int(0)
		case keyFetchWait:
			t.fetchWait = sc.Int(0)
		case keyShWriteBytes:
			t.shWriteBytes = sc.Int(0)
		case keyShWriteRecs:
			t.shWriteRecs = sc.Int(0)
		case keyShTime:
			t.shTime = sc.Int(0)
		}
	}
	sc.ObjectIDs(&p.kTask, taskKey, func(id int) {
		switch id {
		case keyStageID:
			t.stageID = int(sc.Int(-1))
		case keyStageAttempt:
			t.attempt = int(sc.Int(0))
		case keyEndReason:
			sc.ObjectIDs(&p.kReason, reasonKey, func(id int) {
				switch id {
				case keyReason:
					t.reason, _ = sc.StringInterned(p.intern)
				case keyClassName:
					t.className, _ = sc.StringInterned(p.intern)
				}
			})
		case keyTaskInfo:
			sc.ObjectIDs(&p.kInfo, infoKey, func(id int) {
				switch id {
				case keyLaunch:
					t.launch = sc.Int(-1)
				case keyFinish:
					t.finish = sc.Int(-1)
				case keyFailed:
					t.failed = sc.Bool()
				case keyKilled:
					t.killed = sc.Bool()
				case keySpeculative:
					t.speculative = sc.Bool()
				}
			})
		case keyTaskMetrics:
			t.hasMetrics = sc.ObjectIDs(&p.kMetrics, metricsKey, func(id int) {
				switch id {
				case keyRunTime:
					t.runTime = sc.Int(0)
				case keyDeserTime:
					t.deserTime = sc.Int(0)
				case keyGCTime:
					t.gcTime = sc.Int(0)
				case keyResultSize:
					t.resultSize = sc.Int(0)
				case keyMemSpill:
					t.memSpill = sc.Int(0)
				case keyDiskSpill:
					t.diskSpill = sc.Int(0)
				case keyCPUTime:
					t.cpuTime = sc.Int(0)
				case keyPeakExecMem:
					t.peakExecMem = sc.Int(0)
				case keyInput:
					sc.ObjectIDs(&p.kIn, inputKey, metric)
				case keyOutput:
					sc.ObjectIDs(&p.kOut, outputKey, metric)
				case keyShuffleRead:
					sc.ObjectIDs(&p.kShRead, shuffleReadKey, metric)
				case keyShuffleWrite:
					sc.ObjectIDs(&p.kShWrite, shuffleWriteKey, metric)
				}
			})
		}
	})
	if !sc.End() {
		b.tasks = b.tasks[:len(b.tasks)-1]
		return false
	}
	return true
}

// props reads the job-properties keys the analysis uses.
func props(sc *jscan.Scanner, ks *jscan.Keys, desc, group, sqlID **string) {
	sc.ObjectKeys(ks, func(k []byte) {
		switch string(k) {
		case "spark.job.description":
			*desc = sc.StringPtr()
		case "spark.jobGroup.id":
			*group = sc.StringPtr()
		case "spark.sql.execution.id":
			if sqlID != nil {
				*sqlID = sc.StringPtr()
			} else {
				sc.Skip()
			}
		default:
			sc.Skip()
		}
	})
}

func (p *parser) stageEvent(line []byte, submitted bool) (func(*state), bool) {
	sc := &p.sc
	sc.Reset(line)
	id, attempt, numTasks := -1, 0, int64(0)
	var name, failure, desc, group *string
	sub, comp, evSub := int64(-1), int64(-1), int64(-1)
	sawProps := false
	sc.ObjectKeys(&p.kStage, func(k []byte) {
		switch string(k) {
		case "Stage Info":
			sc.ObjectKeys(&p.kStageInfo, func(k []byte) {
				switch string(k) {
				case "Stage ID":
					id = int(sc.Int(-1))
				case "Stage Attempt ID":
					attempt = int(sc.Int(0))
				case "Stage Name":
					name = sc.StringPtr()
				case "Number of Tasks":
					numTasks = sc.Int(0)
				case "Submission Time":
					sub = sc.Int(-1)
				case "Completion Time":
					comp = sc.Int(-1)
				case "Failure Reason":
					failure = sc.StringPtr()
				default:
					sc.Skip()
				}
			})
		case "Submission Time":
			evSub = sc.Int(-1)
		case "Properties":
			sawProps = true
			props(sc, &p.kStageProps, &desc, &group, nil)
		default:
			sc.Skip()
		}
	})
	if !sc.End() {
		return nil, false
	}
	return func(st *state) {
		st.stageApply(submitted, id, attempt, numTasks, name, failure, desc, group, sub, comp, evSub, sawProps)
	}, true
}

func (st *state) stageApply(submitted bool, id, attempt int, numTasks int64, name, failure, desc, group *string, sub, comp, evSub int64, sawProps bool) {
	s := st.stage(id, attempt)
	if submitted {
		s.name = deref(name)
		s.numTasksPlanned = int(numTasks)
		if sub < 0 {
			sub = evSub
		}
		if sub >= 0 {
			s.submission = sub
		}
		if !s.jobKnown {
			if j, ok := st.stageToJob[id]; ok {
				s.jobID, s.jobKnown = j, true
			}
		}
		if sawProps {
			s.propDesc, s.propGroup = desc, group
		}
		return
	}
	if s.name == "" {
		s.name = deref(name)
	}
	if s.numTasksPlanned == 0 {
		s.numTasksPlanned = int(numTasks)
	}
	if s.submission < 0 {
		s.submission = sub
	}
	s.completion = comp
	if failure != nil && *failure != "" {
		f := firstLine(*failure)
		s.failureReason = &f
	}
}

func (p *parser) jobStart(line []byte) (func(*state), bool) {
	sc := &p.sc
	sc.Reset(line)
	id := -1
	sub := int64(-1)
	var desc, group, sqlID *string
	var stageIDs []int
	sc.ObjectKeys(&p.kJob, func(k []byte) {
		switch string(k) {
		case "Job ID":
			id = int(sc.Int(-1))
		case "Submission Time":
			sub = sc.Int(-1)
		case "Stage IDs":
			sc.Array(func() { stageIDs = append(stageIDs, int(sc.Int(0))) })
		case "Properties":
			props(sc, &p.kJobProps, &desc, &group, &sqlID)
		default:
			sc.Skip()
		}
	})
	if !sc.End() {
		return nil, false
	}
	return func(st *state) {
		j := st.job(id)
		j.started = true
		j.submission = sub
		if desc != nil {
			j.description = desc
		}
		j.group, j.sqlExecID = group, sqlID
		j.stageIDs = stageIDs
		for _, s := range stageIDs {
			st.stageToJob[s] = id
		}
	}, true
}

func (p *parser) jobEnd(line []byte) (func(*state), bool) {
	sc := &p.sc
	sc.Reset(line)
	id := -1
	comp := int64(-1)
	result := ""
	sc.Object(func(k []byte) {
		switch string(k) {
		case "Job ID":
			id = int(sc.Int(-1))
		case "Completion Time":
			comp = sc.Int(-1)
		case "Job Result":
			sc.Object(func(k []byte) {
				if string(k) == "Result" {
					result, _ = sc.String()
					return
				}
				sc.Skip()
			})
		default:
			sc.Skip()
		}
	})
	if !sc.End() {
		return nil, false
	}
	return func(st *state) {
		j := st.job(id)
		j.completion, j.result, j.ended = comp, result, true
	}, true
}

func (p *parser) simpleEvent(line []byte, name string) (func(*state), bool) {
	sc := &p.sc
	sc.Reset(line)
	var appName, appID, attempt, user, version, execID, reason *string
	ts := int64(-1)
	sc.Object(func(k []byte) {
		switch string(k) {
		case "App Name":
			appName = sc.StringPtr()
		case "App ID":
			appID = sc.StringPtr()
		case "App Attempt ID":
			attempt = sc.StringPtr()
		case "User":
			user = sc.StringPtr()
		case "Spark Version":
			version = sc.StringPtr()
		case "Timestamp":
			ts = sc.Int(-1)
		case "Executor ID":
			execID = sc.StringPtr()
		case "Removed Reason":
			reason = sc.StringPtr()
		default:
			sc.Skip()
		}
	})
	if !sc.End() {
		return nil, false
	}
	return func(st *state) { st.simpleApply(name, appName, appID, attempt, user, version, execID, reason, ts) }, true
}

func (st *state) simpleApply(name string, appName, appID, attempt, user, version, execID, reason *string, ts int64) {
	switch name {
	case "SparkListenerApplicationStart":
		st.appName, st.appID, st.appAttempt, st.user = appName, appID, attempt, user
		st.startTime, st.sawAppStart = ts, true
	case "SparkListenerApplicationEnd":
		st.endTime, st.sawAppEnd = ts, true
	case "SparkListenerLogStart":
		st.logStartVersion = version
	case "SparkListenerExecutorAdded":
		if ts >= 0 {
			st.execEvents = append(st.execEvents, execEvent{ts, 1})
		}
	case "SparkListenerExecutorRemoved":
		if ts >= 0 {
			st.execEvents = append(st.execEvents, execEvent{ts, -1})
		}
		if execID != nil && reason != nil && *reason != "" {
			st.removalReasons[*execID] = firstLine(*reason)
		}
	}
}

func (p *parser) envUpdate(line []byte) (func(*state), bool) {
	sc := &p.sc
	sc.Reset(line)
	seen := false
	var version *string
	hoodie := map[string]string{}
	sc.Object(func(k []byte) {
		if string(k) != "Spark Properties" {
			sc.Skip()
			return
		}
		seen = sc.Object(func(k []byte) {
			key := string(k)
			switch {
			case key == "spark.version":
				v, _ := sc.String()
				version = &v
			case strings.HasPrefix(key, "hoodie.") || key == "spark.sql.extensions" || key == "spark.serializer":
				hoodie[key], _ = sc.String()
			default:
				sc.Skip()
			}
		})
	})
	if !sc.End() {
		return nil, false
	}
	return func(st *state) {
		if !seen {
			return
		}
		st.sparkPropsSeen = true
		st.sparkVersionProp = version
		for k, v := range hoodie {
			if len(st.hoodieConfigs) < 500 {
				// Redacted here, so no output (JSON, text, report, TUI) can show a credential.
				st.hoodieConfigs[k] = redact.Value(k, v)
			}
		}
	}, true
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
