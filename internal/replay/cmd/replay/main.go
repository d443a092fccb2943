// Command replay rebuilds a fixture table's timeline in a folder step by step (the tmux watch
// harness and the soak script drive hudiscope --watch against it):
//
//	go run ./internal/replay/cmd/replay -src testdata/fixtures/cow-services-1.2.0/table.zip -dst /tmp/t -start 3 -every 2s
//	go run ./internal/replay/cmd/replay -src … -dst /tmp/t -commits 360 -every 10s   # soak: synthetic commits
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/internal/replay"
)

func main() {
	src := flag.String("src", "", "fixture table (.zip or directory)")
	dst := flag.String("dst", "", "folder to build the table in (created)")
	start := flag.Int("start", 3, "instant files written before the first pause")
	every := flag.Duration("every", 2*time.Second, "pause between steps (negative: build the initial table only)")
	commits := flag.Int("commits", 0, "after the replay, write this many synthetic commits (soak)")
	ready := flag.String("ready", "", "file touched once the initial table is in place")
	step := flag.Int("step", -1, "apply only step N (0-based, the table holding steps before it) and print it as `STEP <requested time> <state|deleted> <note>`; -1: run the whole replay")
	count := flag.Bool("count", false, "print the number of steps and exit")
	flag.Parse()
	if *step >= 0 || *count {
		if err := one(*src, *dst, *step, *count); err != nil {
			fmt.Fprintln(os.Stderr, "replay:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*src, *dst, *start, *every, *commits, *ready); err != nil {
		fmt.Fprintln(os.Stderr, "replay:", err)
		os.Exit(1)
	}
}

// one applies a single step, for harnesses that check the screen after each.
func one(src, dst string, n int, count bool) error {
	_, steps, err := replay.Plan(context.Background(), src)
	if err != nil {
		return err
	}
	if count {
		fmt.Println(len(steps))
		return nil
	}
	if n >= len(steps) {
		return fmt.Errorf("step %d: the replay has %d steps", n, len(steps))
	}
	op := steps[n]
	if err := replay.Apply(dst, op); err != nil {
		return err
	}
	state := "deleted"
	if op.Delete {
		// A rollback deletes the instant's files one by one: "partly-deleted" until the last.
		if m, _ := filepath.Glob(filepath.Join(dst, filepath.Dir(filepath.FromSlash(op.Path)), op.Instant+".*")); len(m) > 0 {
			state = "partly-deleted"
		}
	} else {
		f, _ := timeline.ParseInstantFileName(filepath.Base(op.Path))
		state = strings.ToLower(string(f.State))
	}
	fmt.Printf("STEP %s %s %s\n", op.Instant, state, op.Note)
	return nil
}

func run(src, dst string, start int, every time.Duration, commits int, ready string) error {
	ctx := context.Background()
	base, steps, err := replay.Plan(ctx, src)
	if err != nil {
		return err
	}
	start = min(start, len(steps))
	if err := replay.ApplyAll(dst, append(base, steps[:start]...)); err != nil {
		return err
	}
	if ready != "" {
		if err := os.WriteFile(ready, nil, 0o644); err != nil {
			return err
		}
	}
	if every < 0 {
		return nil
	}
	for i, op := range steps[start:] {
		time.Sleep(every)
		if err := replay.Apply(dst, op); err != nil {
			return err
		}
		fmt.Printf("%s step %d/%d: %s\n", time.Now().Format("15:04:05"), start+i+1, len(steps), op.Note)
	}
	if commits == 0 {
		return nil
	}
	// Synthetic commits reuse the last completed write's metadata under new instant times.
	var body []byte
	var dir, action string
	v2 := false
	for i := len(steps) - 1; i >= 0 && body == nil; i-- {
		f, ok := timeline.ParseInstantFileName(filepath.Base(steps[i].Path))
		if ok && f.State == timeline.Completed && timeline.IsWriteAction(f.Action) && !steps[i].Delete {
			body, dir, action, v2 = steps[i].Data, filepath.Dir(steps[i].Path), f.Action, f.CompletionTime != ""
		}
	}
	if body == nil {
		return fmt.Errorf("no completed write to copy for synthetic commits")
	}
	for i := 0; i < commits; i++ {
		time.Sleep(every)
		ts := timeline.FormatInstantTime(time.Now(), time.UTC)
		for _, name := range []string{ts + "." + action + ".requested", ts + "." + action + ".inflight"} {
			if err := replay.Apply(dst, replay.Op{Path: dir + "/" + name}); err != nil {
				return err
			}
		}
		done := ts + "." + action
		if v2 {
			done = ts + "_" + timeline.FormatInstantTime(time.Now().Add(time.Millisecond), time.UTC) + "." + action
		}
		if err := replay.Apply(dst, replay.Op{Path: dir + "/" + done, Data: body}); err != nil {
			return err
		}
		fmt.Printf("%s synthetic commit %d/%d: %s\n", time.Now().Format("15:04:05"), i+1, commits, ts)
	}
	return nil
}
