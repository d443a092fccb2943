package eventlog

import (
	"math"
	"strconv"
)

// SchemaVersion is the HoodieSparkEventLogAnalyzer JSON contract this output follows.
const SchemaVersion = "1.1.0"

// Report is the JSON document: HoodieSparkEventLogAnalyzer schemaVersion 1.1.0
// fields in the same order, plus hudiscope's additions under "hudiscope".
type Report struct {
	SchemaVersion    string         `json:"schemaVersion"`
	EventLogPath     string         `json:"eventLogPath"`
	Application      Application    `json:"application"`
	OperationSummary []GroupSummary `json:"operationSummary"`
	PhaseSummary     []GroupSummary `json:"phaseSummary"`
	Stages           []Stage        `json:"stages"`
	Caveats          []string       `json:"caveats"`
	Warnings         []string       `json:"warnings"`
	Hudiscope        Extension      `json:"hudiscope"`
}

// Application is the application block.
type Application struct {
	Name                   *string           `json:"name"`
	ID                     *string           `json:"id"`
	StartTimeEpochMillis   int64             `json:"startTimeEpochMillis"`
	EndTimeEpochMillis     int64             `json:"endTimeEpochMillis"`
	SparkVersion           *string           `json:"sparkVersion"`
	Observed               AppObserved       `json:"observed"`
	ExecutorRemovalReasons map[string]string `json:"executorRemovalReasons"`
}

// AppObserved are application totals.
type AppObserved struct {
	DurationMillis          int64 `json:"durationMillis"`
	CriticalPathMillis      int64 `json:"criticalPathMillis"`
	JobCount                int   `json:"jobCount"`
	FailedJobCount          int   `json:"failedJobCount"`
	StageCount              int   `json:"stageCount"`
	FailedStageCount        int   `json:"failedStageCount"`
	TaskCount               int64 `json:"taskCount"`
	FailedTaskCount         int64 `json:"failedTaskCount"`
	ExecutorRunTimeMillis   int64 `json:"executorRunTimeMillis"`
	ShuffleReadBytes        int64 `json:"shuffleReadBytes"`
	ShuffleWriteBytes       int64 `json:"shuffleWriteBytes"`
	MemoryBytesSpilled      int64 `json:"memoryBytesSpilled"`
	DiskBytesSpilled        int64 `json:"diskBytesSpilled"`
	PeakConcurrentExecutors int   `json:"peakConcurrentExecutors"`
	EventsRead              int64 `json:"eventsRead"`
}

// GroupSummary is one operationSummary or phaseSummary row; Label is emitted
// as "operation" or "phase".
type GroupSummary struct {
	Label                 string `json:"-"`
	labelKey              string
	StageCount            int   `json:"stageCount"`
	TaskCount             int64 `json:"taskCount"`
	StageWallClockMillis  int64 `json:"stageWallClockMillis"`
	ExecutorRunTimeMillis int64 `json:"executorRunTimeMillis"`
	ShuffleBytes          int64 `json:"shuffleBytes"`
	SpilledBytes          int64 `json:"spilledBytes"`
	ShareOfStageWallClock Ratio `json:"shareOfStageWallClock"`
}

// Stage is one stage attempt.
type Stage struct {
	StageID                   int              `json:"stageId"`
	AttemptID                 int              `json:"attemptId"`
	Name                      string           `json:"name"`
	JobID                     *int             `json:"jobId"`
	JobDescription            *string          `json:"jobDescription"`
	Module                    *string          `json:"module"`
	Operation                 string           `json:"operation"`
	OperationSource           string           `json:"operationSource"`
	Phase                     string           `json:"phase"`
	SubPhase                  *string          `json:"subPhase"`
	BundledSteps              []string         `json:"bundledSteps,omitempty"`
	SubmissionTimeEpochMillis int64            `json:"submissionTimeEpochMillis"`
	CompletionTimeEpochMillis int64            `json:"completionTimeEpochMillis"`
	FailureReason             *string          `json:"failureReason"`
	Observed                  StageObserved    `json:"observed"`
	TaskFailureReasons        map[string]int64 `json:"taskFailureReasons"`
}

// StageObserved are a stage attempt's metrics.
type StageObserved struct {
	NumTasksPlanned               int           `json:"numTasksPlanned"`
	NumTasksObserved              int64         `json:"numTasksObserved"`
	DurationMillis                int64         `json:"durationMillis"`
	ExecutorRunTimeMillis         int64         `json:"executorRunTimeMillis"`
	ExecutorDeserializeTimeMillis int64         `json:"executorDeserializeTimeMillis"`
	JvmGcTimeMillis               int64         `json:"jvmGcTimeMillis"`
	GcFractionOfRunTime           Ratio         `json:"gcFractionOfRunTime"`
	ResultSizeBytes               int64         `json:"resultSizeBytes"`
	InputBytes                    int64         `json:"inputBytes"`
	InputRecords                  int64         `json:"inputRecords"`
	OutputBytes                   int64         `json:"outputBytes"`
	OutputRecords                 int64         `json:"outputRecords"`
	ShuffleReadBytes              int64         `json:"shuffleReadBytes"`
	ShuffleReadRecords            int64         `json:"shuffleReadRecords"`
	ShuffleFetchWaitTimeMillis    int64         `json:"shuffleFetchWaitTimeMillis"`
	ShuffleWriteBytes             int64         `json:"shuffleWriteBytes"`
	ShuffleWriteRecords           int64         `json:"shuffleWriteRecords"`
	ShuffleWriteTimeNanos         int64         `json:"shuffleWriteTimeNanos"`
	MemoryBytesSpilled            int64         `json:"memoryBytesSpilled"`
	DiskBytesSpilled              int64         `json:"diskBytesSpilled"`
	TasksSucceeded                int64         `json:"tasksSucceeded"`
	TasksFailed                   int64         `json:"tasksFailed"`
	TasksKilled                   int64         `json:"tasksKilled"`
	TasksSpeculative              int64         `json:"tasksSpeculative"`
	SkewRatio                     Ratio         `json:"skewRatio"`
	TaskDurationMillis            TaskDurations `json:"taskDurationMillis"`
}

// TaskDurations are nearest-rank percentiles of task wall clock (-1 = no tasks).
type TaskDurations struct {
	P50 int64  `json:"p50"`
	P95 int64  `json:"p95"`
	Max int64  `json:"max"`
	P25 *int64 `json:"p25,omitempty"`
	P75 *int64 `json:"p75,omitempty"`
	P99 *int64 `json:"p99,omitempty"`
}

// Ratio is a fraction rounded to 3 decimals (negative values kept, -1 =
// undefined), printed the way Jackson prints a Java double.
type Ratio float64

func round3(v float64) Ratio {
	if v < 0 {
		return Ratio(v)
	}
	return Ratio(math.Floor(v*1000+0.5) / 1000)
}

// MarshalJSON prints 1 as 1.0 and large/small magnitudes in Java's E notation.
func (r Ratio) MarshalJSON() ([]byte, error) {
	v := float64(r)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte("-1.0"), nil
	}
	a := math.Abs(v)
	if a != 0 && (a < 1e-3 || a >= 1e7) {
		s := strconv.FormatFloat(v, 'E', -1, 64) // e.g. 1.5E+07
		mant, exp := s, ""
		for i := 0; i < len(s); i++ {
			if s[i] == 'E' {
				mant, exp = s[:i], s[i+1:]
			}
		}
		if len(exp) > 0 && exp[0] == '+' {
			exp = exp[1:]
		}
		for len(exp) > 1 && exp[0] == '0' {
			exp = exp[1:]
		}
		if len(exp) > 2 && exp[0] == '-' && exp[1] == '0' {
			exp = "-" + exp[2:]
		}
		hasDot := false
		for i := 0; i < len(mant); i++ {
			if mant[i] == '.' {
				hasDot = true
			}
		}
		if !hasDot {
			mant += ".0"
		}
		return []byte(mant + "E" + exp), nil
	}
	s := strconv.FormatFloat(v, 'f', -1, 64)
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			return []byte(s), nil
		}
	}
	return []byte(s + ".0"), nil
}
