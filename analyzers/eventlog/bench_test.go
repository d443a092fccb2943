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
//
// Vector skip (AVX2 masks of quotes and brackets for the values not read, a
// task's Accumulables above all), word-at-a-time keys and integers, and the
// plain file read through a mapping instead of read(2). The log is now built
// by streaming through files, so peak RSS is the analyzer's own (the builder
// held ~60 MB before). MB/cpu-s is the log size over the user+system CPU the
// analysis took: on this shared machine it moves far less than the wall rate.
// Same command, 2026-12-01, 2 vCPUs shared with three other engineers:
//
//	load 8.1: stream 1.22 s =  899 MB/s, 1180 MB/cpu-s, peak RSS 31 MB; encoding/json 70 MB/s; ratio 12.8x
//	load 6.2: stream 1.56 s =  702 MB/s, 1166 MB/cpu-s, peak RSS 32 MB
//	best seen, same Analyze call in a scratch loop, 3 runs: 0.557 s = 1,970 MB/s average
//	(last run 2,021 MB/s) in a quiet moment of a load-11 minute
//
// Old and new readers alternated in the same minutes (load 9-11), the same
// Analyze call: 460-495 MB/cpu-s before, 800-1,360 after. One parser over the
// lines in memory (the loop of BenchmarkParseLines, -cpu 1): 400 MB/cpu-s
// before, 1,520 after; BenchmarkParseLines at load 7: 959 MB/s wall.
// Two cores at the parse rate give the ≥ 2.2 GB/s goal only on a quiet machine;
// the stream's own rate per core (1.1-1.35 GB/cpu-s here) is what limits it:
// the first touch of each byte of the page cache, the key-by-key walk of
// "Task Info" and "Task Metrics" (~55 members a task), then the skips.
//
// Issue 17 (work per byte), measured as instructions, which the load of this
// shared machine does not change: callgrind over block.parse of the whole
// 36.5 MB log in memory (valgrind --tool=callgrind --toggle-collect='*block*parse*',
// GODEBUG=asyncpreemptoff=1), 264.7M instructions before, 183.6M after
// (-31%): keys of task ends, stage and job events read by the order learnt
// from the last one (jscan.Keys, ObjectIDs), the skip's masks outside strings
// from the assembly and stopped where the container may end, backslash
// chunks by mask, one-digit integers and numbers skipped without the byte
// loops, the end reason interned (392k -> 134k allocations a run). The
// stream, old and new test binaries alternated on the same 1 GiB log, 8 pairs
// at load 5.6-7.7: 744-1,216 MB/cpu-s before, 1,030-1,744 after (1.31-1.67x,
// median 1.39x), 593-1,186 MB/s before, 938-1,712 after; peak RSS 25 MB both.
// This benchmark, old and new alternated, load 5.4-7.1: 983 and 1,079 MB/cpu-s
// (847, 957 MB/s) before; 1,561 and 1,220 MB/cpu-s (1,468, 940 MB/s) after;
// peak RSS 22 MB.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
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
	// Streamed through files, not held in memory: the peak RSS reported is
	// then the analyzer's, not this builder's.
	one := filepath.Join(b.TempDir(), "one")
	if err := copyTo(one, func(w io.Writer) error {
		r, _, _ := codec.Open(f, src)
		_, err := io.Copy(w, r)
		return err
	}); err != nil {
		b.Fatal(err)
	}
	out := filepath.Join(b.TempDir(), "big-eventlog")
	var n int64
	if err := copyTo(out, func(w io.Writer) error {
		for n < 1<<30 {
			in, err := os.Open(one)
			if err != nil {
				return err
			}
			m, err := io.Copy(w, in)
			in.Close()
			if err != nil {
				return err
			}
			n += m
		}
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	return out, n
}

func copyTo(path string, fill func(io.Writer) error) error {
	w, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := fill(w); err != nil {
		w.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return w.Close()
}

// cpuSeconds is the process's user+system CPU time: on a shared machine the
// rate per CPU-second says more than the wall clock.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
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
		start, cpu := time.Now(), cpuSeconds()
		r, err := Analyze(context.Background(), path, Options{})
		if err != nil {
			b.Fatal(err)
		}
		el, cpu := time.Since(start), cpuSeconds()-cpu
		rss := maxRSSMB()
		b.ReportMetric(float64(size)/el.Seconds()/1e6, "MB/s")
		b.ReportMetric(float64(size)/cpu/1e6, "MB/cpu-s")
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
		b.Logf("size %d B: stream %v (%.0f MB/s, %.0f MB per CPU-second, peak RSS %.0f MB); encoding/json %v (%.0f MB/s); ratio %.1fx; events %d",
			size, el, float64(size)/el.Seconds()/1e6, float64(size)/cpu/1e6, rss, elJSON, float64(size)/elJSON.Seconds()/1e6, elJSON.Seconds()/el.Seconds(), events)
	}
}

// BenchmarkParseLines is the per-core parse rate that bounds the stream: every
// line of the real log (in memory) through one parser, no reading, no merge.
// Run with -cpu 1.
func BenchmarkParseLines(b *testing.B) {
	src := filepath.Join(sharedLogs(b), "spark-codecs-reencoded", "application_1603128018386_7846.lz4")
	f, err := os.Open(src)
	if err != nil {
		b.Skip(err)
	}
	defer f.Close()
	r, _, _ := codec.Open(f, src)
	data, err := io.ReadAll(r)
	if err != nil {
		b.Fatal(err)
	}
	lines := bytes.Split(data, []byte("\n"))
	b.SetBytes(int64(len(data)))
	var p parser
	var bt batch
	b.ResetTimer()
	for range b.N {
		for _, l := range lines {
			p.line(l, &bt)
			if len(bt.events) >= 4096 {
				bt.reset()
			}
		}
		bt.reset()
	}
}
