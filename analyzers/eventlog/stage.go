package eventlog

import (
	"slices"
)

type stageKey struct{ id, attempt int }

// stageAgg holds one stage attempt as running totals; tasks are folded in as
// they end and only their durations are kept (for exact percentiles).
type stageAgg struct {
	id, attempt     int
	name            string
	numTasksPlanned int
	submission      int64
	completion      int64
	failureReason   *string

	// Job attribution: the job whose JobStart most recently listed this stage
	// when it was submitted (-1 none), plus the submit-time job properties.
	jobID     int
	jobKnown  bool
	propDesc  *string
	propGroup *string

	durations []int64
	sorted    bool
	// hist is the fixed log-scale task-duration histogram (same tasks as durations).
	hist DurationHistogram

	executorRunTime, executorDeserializeTime, jvmGCTime, resultSize int64
	memorySpilled, diskSpilled                                      int64
	inputBytes, inputRecords, outputBytes, outputRecords            int64
	shuffleReadBytes, shuffleReadRecords, shuffleFetchWait          int64
	shuffleWriteBytes, shuffleWriteRecords, shuffleWriteTimeNanos   int64
	tasksSucceeded, tasksFailed, tasksKilled, tasksSpeculative      int64
	cpuTimeNanos, peakExecutionMemory                               int64
	failureCounts                                                   map[string]int64
}

func newStage(id, attempt int) *stageAgg {
	return &stageAgg{id: id, attempt: attempt, submission: -1, completion: -1, jobID: -1}
}

func (s *stageAgg) duration() int64 {
	if s.submission >= 0 && s.completion >= s.submission {
		return s.completion - s.submission
	}
	return -1
}

func (s *stageAgg) observed() int64 { return s.tasksSucceeded + s.tasksFailed + s.tasksKilled }

// percentile is nearest-rank: sorted[ceil(p/100*n)-1], clamped; -1 without tasks.
func (s *stageAgg) percentile(p float64) int64 {
	n := len(s.durations)
	if n == 0 {
		return -1
	}
	if !s.sorted {
		slices.Sort(s.durations)
		s.sorted = true
	}
	idx := int(ceil(p/100*float64(n))) - 1
	idx = max(0, min(idx, n-1))
	return s.durations[idx]
}

func ceil(f float64) float64 {
	i := float64(int64(f))
	if f > i {
		return i + 1
	}
	return i
}

func (s *stageAgg) maxDuration() int64 {
	if len(s.durations) == 0 {
		return -1
	}
	return s.percentile(100)
}

func (s *stageAgg) skewRatio() float64 {
	med, mx := s.percentile(50), s.maxDuration()
	if med <= 0 || mx < 0 {
		return -1
	}
	return float64(mx) / float64(med)
}

func (s *stageAgg) gcFraction() float64 {
	if s.executorRunTime > 0 {
		return float64(s.jvmGCTime) / float64(s.executorRunTime)
	}
	return -1
}

// taskEnd is one parsed SparkListenerTaskEnd, applied only when the line parsed fully.
type taskEnd struct {
	stageID, attempt                  int
	launch, finish                    int64
	failed, killed, speculative       bool
	reason, className                 string
	hasMetrics                        bool
	runTime, deserTime, gcTime        int64
	resultSize, memSpill, diskSpill   int64
	inBytes, inRecords                int64
	outBytes, outRecords              int64
	remoteRead, localRead             int64
	totalRecordsRead, recordsRead     int64
	hasTotalRecordsRead               bool
	fetchWait                         int64
	shWriteBytes, shWriteRecs, shTime int64
	cpuTime, peakExecMem              int64
}

func (s *stageAgg) addTask(t *taskEnd) {
	if t.launch >= 0 && t.finish >= t.launch {
		s.durations = append(s.durations, t.finish-t.launch)
		s.sorted = false
		s.hist.add(t.finish - t.launch)
	}
	switch {
	case t.failed:
		s.tasksFailed++
	case t.killed:
		s.tasksKilled++
	default:
		s.tasksSucceeded++
	}
	if t.speculative {
		s.tasksSpeculative++
	}
	if t.reason != "" && t.reason != "Success" {
		label := t.reason
		if t.className != "" {
			label += ": " + t.className
		}
		if s.failureCounts == nil {
			s.failureCounts = map[string]int64{}
		}
		s.failureCounts[label]++
	}
	if !t.hasMetrics {
		return
	}
	s.executorRunTime += t.runTime
	s.executorDeserializeTime += t.deserTime
	s.jvmGCTime += t.gcTime
	s.resultSize += t.resultSize
	s.memorySpilled += t.memSpill
	s.diskSpilled += t.diskSpill
	s.inputBytes += t.inBytes
	s.inputRecords += t.inRecords
	s.outputBytes += t.outBytes
	s.outputRecords += t.outRecords
	s.shuffleReadBytes += t.remoteRead + t.localRead
	if t.hasTotalRecordsRead {
		s.shuffleReadRecords += t.totalRecordsRead
	} else {
		s.shuffleReadRecords += t.recordsRead
	}
	s.shuffleFetchWait += t.fetchWait
	s.shuffleWriteBytes += t.shWriteBytes
	s.shuffleWriteRecords += t.shWriteRecs
	s.shuffleWriteTimeNanos += t.shTime
	s.cpuTimeNanos += t.cpuTime
	s.peakExecutionMemory = max(s.peakExecutionMemory, t.peakExecMem)
}
