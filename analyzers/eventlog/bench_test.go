package eventlog

// BenchmarkStreamPlain measures the streaming analyzer on a ≥ 1 GiB plain
// event log built by repeating a real one (application_1603128018386_7846,
// Spark 3.1.1, 36.5 MB, 8,630 tasks), against a plain encoding/json decode of
// every line of the same file, in the same run.
//
// Measured on this 2-core machine, shared with other builds at the time
// (go test -run '^$' -bench StreamPlain -benchtime 1x ./analyzers/eventlog/):
//
//	log: 1,096,673,670 B (30 copies), 531,510 events
//	hudiscope stream:     4.76 s = 230 MB/s, peak RSS 92 MB (whole test process)
//	encoding/json decode: 67.6 s =  16 MB/s (bufio.Scanner + json.Unmarshal into a small struct)
//	ratio 14.2x
//
// Parallel reader (GOMAXPROCS parsers), same command, machine at load ≈ 8:
// 1.20 s = 914 MB/s (serial reader in the same conditions: 427 MB/s), peak RSS 93 MB.

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/analyzers/eventlog/codec"
)

func buildBigLog(b *testing.B) (string, int64) {
	src := filepath.Join(sharedLogs(b), "spark-codecs-reencoded", "application_1603128018386_7846.lz4")
	f, err := os.Open(src)
	if err != nil {
		b.Skip(err)
	}
	defer f.Close()
	r, _, _ := codec.Open(f, src)
	one, err := io.ReadAll(r)
	if err != nil {
		b.Fatal(err)
	}
	out := filepath.Join(b.TempDir(), "big-eventlog")
	w, err := os.Create(out)
	if err != nil {
		b.Fatal(err)
	}
	var n int64
	for n < 1<<30 {
		m, err := w.Write(one)
		if err != nil {
			b.Fatal(err)
		}
		n += int64(m)
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	return out, n
}

func maxRSSMB() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Maxrss) / 1024
}

// jsonTaskEnd is what a straightforward encoding/json reader would decode.
type jsonEvent struct {
	Event    string `json:"Event"`
	StageID  int    `json:"Stage ID"`
	TaskInfo *struct {
		LaunchTime int64 `json:"Launch Time"`
		FinishTime int64 `json:"Finish Time"`
		Failed     bool  `json:"Failed"`
	} `json:"Task Info"`
	TaskMetrics *struct {
		ExecutorRunTime int64 `json:"Executor Run Time"`
		JVMGCTime       int64 `json:"JVM GC Time"`
	} `json:"Task Metrics"`
	JobID      *int              `json:"Job ID"`
	Properties map[string]string `json:"Properties"`
}

func BenchmarkStreamPlain(b *testing.B) {
	path, size := buildBigLog(b)
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		r, err := Analyze(context.Background(), path, Options{})
		if err != nil {
			b.Fatal(err)
		}
		el := time.Since(start)
		rss := maxRSSMB()
		b.ReportMetric(float64(size)/el.Seconds()/1e6, "MB/s")
		b.ReportMetric(rss, "peakRSS_MB")

		start = time.Now()
		f, _ := os.Open(path)
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		var events int64
		for sc.Scan() {
			var e jsonEvent
			if json.Unmarshal(sc.Bytes(), &e) == nil {
				events++
			}
		}
		f.Close()
		elJSON := time.Since(start)
		b.ReportMetric(float64(size)/elJSON.Seconds()/1e6, "encjson_MB/s")
		b.ReportMetric(elJSON.Seconds()/el.Seconds(), "speedup")
		if events != r.Application.Observed.EventsRead {
			b.Fatalf("encoding/json read %d events, stream %d", events, r.Application.Observed.EventsRead)
		}
		b.Logf("size %d B: stream %v (%.0f MB/s, peak RSS %.0f MB); encoding/json %v (%.0f MB/s); ratio %.1fx; events %d",
			size, el, float64(size)/el.Seconds()/1e6, rss, elJSON, float64(size)/elJSON.Seconds()/1e6, elJSON.Seconds()/el.Seconds(), events)
	}
}
