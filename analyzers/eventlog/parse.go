package eventlog

import (
	"bytes"
	"strings"

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
	sc jscan.Scanner

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

var eventPrefix = []byte(`{"Event":"`)

// isBlank reports a line holding only whitespace.
func isBlank(b []byte) bool {
	return len(bytes.TrimSpace(b)) == 0
}

// eventName finds the event name: by prefix when Spark wrote the line, by a
// scan of the top-level keys otherwise. ok is false for malformed JSON.
func (st *state) eventName(line []byte) (string, bool) {
	if bytes.HasPrefix(line, eventPrefix) {
		rest := line[len(eventPrefix):]
		if end := bytes.IndexByte(rest, '"'); end >= 0 && bytes.IndexByte(rest[:end], '\\') < 0 {
			return string(rest[:end]), true
		}
	}
	sc := &st.sc
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
	if isBlank(line) {
		return true, true
	}
	name, ok := st.eventName(line)
	if !ok {
		return false, false
	}
	var good bool
	switch name {
	case "SparkListenerTaskEnd":
		good = st.taskEnd(line)
	case "SparkListenerStageSubmitted", "SparkListenerStageCompleted":
		good = st.stageEvent(line, name == "SparkListenerStageSubmitted")
	case "SparkListenerJobStart":
		good = st.jobStart(line)
	case "SparkListenerJobEnd":
		good = st.jobEnd(line)
	case "SparkListenerApplicationStart", "SparkListenerApplicationEnd", "SparkListenerLogStart",
		"SparkListenerExecutorAdded", "SparkListenerExecutorRemoved":
		good = st.simpleEvent(line, name)
	case "SparkListenerEnvironmentUpdate":
		good = st.envUpdate(line)
	default:
		sc := &st.sc
		sc.Reset(line)
		sc.Skip()
		good = sc.End()
	}
	if !good {
		return false, false
	}
	st.eventsRead++
	st.eventCounts[name]++
	return true, false
}

func (st *state) taskEnd(line []byte) bool {
	sc := &st.sc
	sc.Reset(line)
	t := taskEnd{stageID: -1, launch: -1, finish: -1}
	sc.Object(func(k []byte) {
		switch string(k) {
		case "Stage ID":
			t.stageID = int(sc.Int(-1))
		case "Stage Attempt ID":
			t.attempt = int(sc.Int(0))
		case "Task End Reason":
			sc.Object(func(k []byte) {
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
			sc.Object(func(k []byte) {
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
			t.hasMetrics = sc.Object(func(k []byte) {
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
					sc.Object(func(k []byte) {
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
					sc.Object(func(k []byte) {
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
					sc.Object(func(k []byte) {
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
					sc.Object(func(k []byte) {
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
		return false
	}
	st.stage(t.stageID, t.attempt).addTask(&t)
	return true
}

// props reads the job-properties keys the analysis uses.
func props(sc *jscan.Scanner, desc, group, sqlID **string) {
	sc.Object(func(k []byte) {
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

func (st *state) stageEvent(line []byte, submitted bool) bool {
	sc := &st.sc
	sc.Reset(line)
	id, attempt, numTasks := -1, 0, int64(0)
	var name, failure, desc, group *string
	sub, comp, evSub := int64(-1), int64(-1), int64(-1)
	sawProps := false
	sc.Object(func(k []byte) {
		switch string(k) {
		case "Stage Info":
			sc.Object(func(k []byte) {
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
			props(sc, &desc, &group, nil)
		default:
			sc.Skip()
		}
	})
	if !sc.End() {
		return false
	}
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
		return true
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
	return true
}

func (st *state) jobStart(line []byte) bool {
	sc := &st.sc
	sc.Reset(line)
	id := -1
	sub := int64(-1)
	var desc, group, sqlID *string
	var stageIDs []int
	sc.Object(func(k []byte) {
		switch string(k) {
		case "Job ID":
			id = int(sc.Int(-1))
		case "Submission Time":
			sub = sc.Int(-1)
		case "Stage IDs":
			sc.Array(func() { stageIDs = append(stageIDs, int(sc.Int(0))) })
		case "Properties":
			props(sc, &desc, &group, &sqlID)
		default:
			sc.Skip()
		}
	})
	if !sc.End() {
		return false
	}
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
	return true
}

func (st *state) jobEnd(line []byte) bool {
	sc := &st.sc
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
		return false
	}
	j := st.job(id)
	j.completion, j.result, j.ended = comp, result, true
	return true
}

func (st *state) simpleEvent(line []byte, name string) bool {
	sc := &st.sc
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
		return false
	}
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
	return true
}

func (st *state) envUpdate(line []byte) bool {
	sc := &st.sc
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
		return false
	}
	if seen {
		st.sparkPropsSeen = true
		st.sparkVersionProp = version
		for k, v := range hoodie {
			if len(st.hoodieConfigs) < 500 {
				// Redacted here, so no output (JSON, text, report, TUI) can show a credential.
				st.hoodieConfigs[k] = config.Redact(k, v)
			}
		}
	}
	return true
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
