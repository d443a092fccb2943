package eventlog

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDurationBuckets(t *testing.T) {
	var h DurationHistogram
	var labels []string
	for _, b := range h.Buckets() {
		labels = append(labels, b.Label)
	}
	want := "<10ms 10-25ms 25-50ms 50-100ms 100-250ms 250-500ms 500ms-1s 1-2.5s 2.5-5s 5-10s 10-30s 30s-1m 1-2m 2-5m 5-10m 10-30m 30m-1h ≥1h"
	if got := strings.Join(labels, " "); got != want {
		t.Errorf("labels\n got %s\nwant %s", got, want)
	}
	// Edges are exclusive upper bounds: 9 → <10ms, 10 → 10-25ms, 3599999 → 30m-1h, 1h → ≥1h.
	for ms, i := range map[int64]int{0: 0, 9: 0, 10: 1, 24: 1, 25: 2, 999: 6, 1000: 7, 3599999: 16, 3600000: 17, 1 << 40: 17} {
		if got := DurationBucketIndex(ms); got != i {
			t.Errorf("%d ms → bucket %d, want %d", ms, got, i)
		}
	}
}

// The cow-services fixture's rolling zstd log (Spark 3.5.8, Hudi 1.2.0): bucket counts checked
// by hand against `zstd -dc events_*` — every SparkListenerTaskEnd's Finish Time − Launch Time,
// binned with the same edges (upper bound exclusive).
//
//	stage 1416.0 (toRdd, clustering), 27 tasks: 36 43 | 148 175 194 207 219 221 228 230 243 244
//	  247 249 | 250 253 255 258 273 279 287 287 295 301 338 418 460 → 25-50ms 2, 100-250ms 12,
//	  250-500ms 13 (250 is the 250-500ms bucket's lower edge).
//	stage 1414.0, 7 tasks: 216 229 | 254 341 361 | 3196 3205 → 100-250ms 2, 250-500ms 3, 2.5-5s 2.
//	stage 234.0, 3 tasks: 1570 2016 | 5205 → 1-2.5s 2, 5-10s 1.
//
// Every stage's counts sum to its task count (1244 stage attempts, 5653 TaskEnd events, all
// with launch and finish times).
func TestStageTaskDurationHistogramCowServices(t *testing.T) {
	p := filepath.Join(repoRoot(t), "testdata", "fixtures", "cow-services-1.2.0", "eventlog_v2_local-1795968726856")
	if _, err := os.Stat(p); err != nil {
		t.Skipf("fixture not present: %s", p)
	}
	r := analyzePath(t, p)
	want := map[int]map[string]int64{
		1416: {"25-50ms": 2, "100-250ms": 12, "250-500ms": 13},
		1414: {"100-250ms": 2, "250-500ms": 3, "2.5-5s": 2},
		234:  {"1-2.5s": 2, "5-10s": 1},
	}
	for id, buckets := range want {
		s := findStage(t, r, id)
		h := r.TaskDurationHistogram(s)
		if h == nil {
			t.Fatalf("stage %d: no histogram", id)
		}
		for _, b := range h.Buckets() {
			if b.Count != buckets[b.Label] {
				t.Errorf("stage %d bucket %s: %d, want %d", id, b.Label, b.Count, buckets[b.Label])
			}
		}
	}
	var stages, tasks int64
	for i := range r.Stages {
		s := &r.Stages[i]
		h := r.TaskDurationHistogram(s)
		if h == nil || h.Total() != s.Observed.NumTasksObserved {
			t.Errorf("stage %d.%d: histogram %v sums to %d, stage observed %d tasks", s.StageID, s.AttemptID, h, h.Total(), s.Observed.NumTasksObserved)
		}
		stages++
		tasks += h.Total()
	}
	if stages != 1244 || tasks != 5653 || r.Application.Observed.TaskCount != 5653 {
		t.Errorf("%d stages, %d tasks in histograms, %d observed", stages, tasks, r.Application.Observed.TaskCount)
	}
	// JSON: the counts array per stage under hudiscope.stages[], the edges once.
	b, _ := json.Marshal(r.Hudiscope)
	if !strings.Contains(string(b), `"taskDurationBucketUpperMillis":[10,25,50,100,250,500,1000,2500,5000,10000,30000,60000,120000,300000,600000,1800000,3600000]`) {
		t.Errorf("edges missing from the hudiscope block")
	}
	x := r.Hudiscope.Stages[0]
	if xb, _ := json.Marshal(x); !strings.Contains(string(xb), `"taskDurationHistogram":[`) {
		t.Errorf("stage extra %s", xb)
	}
}
