package eventlog

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"time"
)

// TaskDurationEdgesMillis are the upper bounds of the fixed log-scale task-duration buckets:
// a task of d ms falls in the first bucket whose edge is > d, and past the last edge in the
// final, open bucket (≥ 1 h). Roughly ×2–×2.5 per step from 10 ms to 1 h: 18 buckets.
var TaskDurationEdgesMillis = [...]int64{
	10, 25, 50, 100, 250, 500,
	1000, 2500, 5000, 10000, 30000,
	60000, 120000, 300000, 600000, 1800000, 3600000,
}

// NumDurationBuckets is the number of task-duration buckets (one more than the edges).
const NumDurationBuckets = len(TaskDurationEdgesMillis) + 1

// DurationHistogram counts a stage attempt's task wall-clock durations (finish − launch) in the
// fixed buckets of TaskDurationEdgesMillis: constant memory per stage however many tasks it
// ran. It counts exactly the tasks the percentiles are taken over (those with a launch and a
// finish time), so Total() equals the number of durations behind taskDurationMillis. In JSON
// it is the bare array of counts; the edges are given once, as
// hudiscope.taskDurationBucketUpperMillis.
type DurationHistogram [NumDurationBuckets]int64

// DurationBucketIndex is the bucket of a duration in milliseconds.
func DurationBucketIndex(ms int64) int {
	return sort.Search(len(TaskDurationEdgesMillis), func(i int) bool { return TaskDurationEdgesMillis[i] > ms })
}

func (h *DurationHistogram) add(ms int64) { h[DurationBucketIndex(ms)]++ }

// Total is the number of tasks counted.
func (h *DurationHistogram) Total() int64 {
	var n int64
	for _, c := range h {
		n += c
	}
	return n
}

// DurationBucket is one bucket for display: tasks with LoMillis ≤ d < HiMillis (HiMillis -1 =
// unbounded).
type DurationBucket struct {
	LoMillis, HiMillis int64
	Label              string
	Count              int64
}

// Buckets lists every bucket with its label, lowest first ("<10ms", "10-25ms", …, "30m-1h",
// "≥1h").
func (h *DurationHistogram) Buckets() []DurationBucket {
	out := make([]DurationBucket, NumDurationBuckets)
	var lo int64
	for i := range out {
		hi := int64(-1)
		if i < len(TaskDurationEdgesMillis) {
			hi = TaskDurationEdgesMillis[i]
		}
		b := DurationBucket{LoMillis: lo, HiMillis: hi, Count: h[i]}
		switch {
		case i == 0:
			b.Label = "<" + shortMillis(hi)
		case hi < 0:
			b.Label = "≥" + shortMillis(lo)
		default:
			b.Label = rangeLabel(lo, hi)
		}
		out[i] = b
		lo = hi
	}
	return out
}

// MarshalJSON writes the counts as an array.
func (h DurationHistogram) MarshalJSON() ([]byte, error) {
	return json.Marshal([NumDurationBuckets]int64(h))
}

// rangeLabel names lo–hi with the unit written once when both ends share it: "100-250ms",
// "1-2.5s", "10-30m", else "500ms-1s", "30m-1h".
func rangeLabel(lo, hi int64) string {
	a, b := shortMillis(lo), shortMillis(hi)
	ua, ub := strings.TrimLeft(a, "0123456789."), strings.TrimLeft(b, "0123456789.")
	if ua == ub {
		return strings.TrimSuffix(a, ua) + "-" + b
	}
	return a + "-" + b
}

func shortMillis(ms int64) string {
	d := time.Duration(ms) * time.Millisecond
	switch {
	case d >= time.Hour && d%time.Hour == 0:
		return strconv.FormatInt(int64(d/time.Hour), 10) + "h"
	case d >= time.Minute && d%time.Minute == 0:
		return strconv.FormatInt(int64(d/time.Minute), 10) + "m"
	case d >= time.Second && d%time.Second == 0:
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	case d >= time.Second:
		return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + "s"
	}
	return strconv.FormatInt(ms, 10) + "ms"
}

// TaskDurationHistogram returns the task-duration histogram of stage s (nil if the report
// has no extension row for it).
func (r *Report) TaskDurationHistogram(s *Stage) *DurationHistogram {
	for i := range r.Hudiscope.Stages {
		x := &r.Hudiscope.Stages[i]
		if x.StageID == s.StageID && x.AttemptID == s.AttemptID {
			return &x.TaskDurationHistogram
		}
	}
	return nil
}
