package eventlog

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/hudiscope/hudiscope/analyzers/config"
	"github.com/hudiscope/hudiscope/analyzers/eventlog/jscan"
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

func (p *parser) taskEnd(line []byte, b *batch) bool {
	sc := &p.sc
	sc.Reset(line)
	b.tasks = append(b.tasks, taskEnd{stageID: -1, launch: -1, finish: -1})
	t := &b.tasks[len(b.tasks)-1]
	sc.ObjectKeys(&p.kTask, func(k []byte) {
		switch string(k) {
		case "Stage ID":
			t.stageID = int(sc.Int(-1))
		case "Stage Attempt ID":
			t.attempt = int(sc.Int(0))
		case "Task End Reason":
			sc.ObjectKeys(&p.kReason, func(k []byte) {
				switch string(k) {
				case "Reason":
					t.reason, _ = sc.String()
				case "Class Name":
					t.className, _ = sc.String()
				default:
					sc.Skip()
				}
			})
		case "Task Info":
			sc.ObjectKeys(&p.kInfo, func(k []byte) {
				switch string(k) {
				case "Launch Time":
					t.launch = sc.Int(-1)
				case "Finish Time":
					t.finish = sc.Int(-1)
				case "Failed":
					t.failed = sc.Bool()
				case "Killed":
					t.killed = sc.Bool()
				case "Speculative":
					t.speculative = sc.Bool()
				default:
					sc.Skip()
				}
			})
		case "Task Metrics":
			t.hasMetrics = sc.ObjectKeys(&p.kMetrics, func(k []byte) {
				switch string(k) {
				case "Executor Run Time":
					t.runTime = sc.Int(0)
				case "Executor Deserialize Time":
					t.deserTime = sc.Int(0)
				case "JVM GC Time":
					t.gcTime = sc.Int(0)
				case "Result Size":
					t.resultSize = sc.Int(0)
				case "Memory Bytes Spilled":
					t.memSpill = sc.Int(0)
				case "Disk Bytes Spilled":
					t.diskSpill = sc.Int(0)
				case "Executor CPU Time":
					t.cpuTime = sc.Int(0)
				case "Peak Execution Memory":
					t.peakExecMem = sc.Int(0)
				case "Input Metrics":
					sc.ObjectKeys(&p.kIn, func(k []byte) {
						switch string(k) {
						case "Bytes Read":
							t.inBytes = sc.Int(0)
						case "Records Read":
							t.inRecords = sc.Int(0)
						default:
							sc.Skip()
						}
					})
				case "Output Metrics":
					sc.ObjectKeys(&p.kOut, func(k []byte) {
						switch string(k) {
						case "Bytes Written":
							t.outBytes = sc.Int(0)
						case "Records Written":
							t.outRecords = sc.Int(0)
						default:
							sc.Skip()
						}
					})
				case "Shuffle Read Metrics":
					sc.ObjectKeys(&p.kShRead, func(k []byte) {
						switch string(k) {
						case "Remote Bytes Read":
							t.remoteRead = sc.Int(0)
						case "Local Bytes Read":
							t.localRead = sc.Int(0)
						case "Total Records Read":
							t.totalRecordsRead = sc.Int(0)
							t.hasTotalRecordsRead = true
						case "Records Read":
							t.recordsRead = sc.Int(0)
						case "Fetch Wait Time":
							t.fetchWait = sc.Int(0)
						default:
							sc.Skip()
						}
					})
				case "Shuffle Write Metrics":
					sc.ObjectKeys(&p.kShWrite, func(k []byte) {
						switch string(k) {
						case "Shuffle Bytes Written":
							t.shWriteBytes = sc.Int(0)
						case "Shuffle Records Written":
							t.shWriteRecs = sc.Int(0)
						case "Shuffle Write Time":
							t.shTime = sc.Int(0)
						default:
							sc.Skip()
						}
					})
				default:
					sc.Skip()
				}
			})
		default:
			sc.Skip()
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
				st.hoodieConfigs[k] = config.Redact(k, v)
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
