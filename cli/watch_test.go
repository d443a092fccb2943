package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/internal/replay"
	"github.com/hudiscope/hudiscope/model"
)

// TestTimelineWatchJSON replays a fixture's timeline into a folder while `timeline --watch=1s
// -o json` follows it: each step shows as one change line within a few intervals, with the
// instant it wrote, and every field of every line is documented in docs/json.md.
func TestTimelineWatchJSON(t *testing.T) {
	zip := fixture("cow-services-1.2.0")
	if _, err := os.Stat(zip); err != nil {
		t.Skip(err)
	}
	ctx := context.Background()
	base, steps, err := replay.Plan(ctx, zip)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := replay.ApplyAll(dir, append(base, steps[:3]...)); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "timeline", dir, "--watch=1s", "-o", "json", "--cluster-defaults", "-", "--alert", "rollback")
	cmd.Env = append(os.Environ(), "HUDISCOPE_RUN_MAIN=1", "NO_COLOR=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	lines := make(chan map[string]any, 100)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				m = map[string]any{"event": "bad", "line": sc.Text()}
			}
			lines <- m
		}
		close(lines)
	}()
	next := func(what string) map[string]any {
		t.Helper()
		select {
		case m, ok := <-lines:
			if !ok {
				t.Fatalf("output ended waiting for %s", what)
			}
			return m
		case <-time.After(15 * time.Second):
			t.Fatalf("no line within 15 s waiting for %s", what)
		}
		return nil
	}
	documented := jsonDocSections(t)["timeline --watch"]
	seen := map[string]bool{}
	note := func(m map[string]any) {
		for k := range m {
			seen[k] = true
		}
	}
	start := next("the start line")
	note(start)
	if start["event"] != "start" || start["intervalMs"] != float64(1000) {
		t.Fatalf("first line %v, want a start line with intervalMs 1000", start)
	}
	kinds := map[string]int{}
	alerts := 0
	// Steps go in batches of 8 (a refresh can see several); each batch's instants must all
	// show up as changes before the next batch.
	// A batch also ends before deletions, so a rolled-back instant is seen before it goes.
	for i := 3; i < len(steps); {
		j := i + 1
		for j < len(steps) && j-i < 8 && steps[j].Delete == steps[i].Delete {
			j++
		}
		batch := steps[i:j]
		i = j
		want := map[string]bool{}
		for _, op := range batch {
			if err := replay.Apply(dir, op); err != nil {
				t.Fatal(err)
			}
			f, _ := timeline.ParseInstantFileName(filepath.Base(op.Path))
			want[instantKey(op.Instant, f.Action)] = true
		}
		for len(want) > 0 {
			m := next(fmt.Sprint(want))
			note(m)
			if m["event"] == "alert" {
				alerts++
				continue
			}
			if m["event"] != "change" {
				t.Fatalf("line %v", m)
			}
			kinds[m["change"].(string)]++
			rt, _ := m["requestedTime"].(string)
			action, _ := m["action"].(string)
			k := instantKey(rt, action)
			if !want[k] {
				t.Errorf("change %v is about an instant outside the batch %v", m, want)
			}
			delete(want, k)
		}
	}
	n := len(steps) - 3
	t.Logf("%d steps followed: %v, %d alerts", n, kinds, alerts)
	if kinds["new"] == 0 || kinds["rolled-back"] != 1 || alerts != 2 {
		t.Errorf("changes %v, %d alerts; want new instants, one rolled back and its two rollback alerts", kinds, alerts)
	}
	for k := range seen {
		if !documented[k] {
			t.Errorf("`timeline --watch -o json` writes %q, not documented in section \"## timeline --watch\" of %s", k, jsonDocFile)
		}
	}
}

// --exit-on ends a watch with the alert's own exit code; bad rules are usage errors.
func TestTimelineWatchExitOn(t *testing.T) {
	zip := fixture("cow-services-1.2.0")
	if _, err := os.Stat(zip); err != nil {
		t.Skip(err)
	}
	t.Setenv("HUDISCOPE_NOW", "2026-12-01T00:00:00Z")
	// The fixture's timeline plus a commit requested at midnight UTC and never started: a day
	// old at NOW.
	base, steps, err := replay.Plan(context.Background(), zip)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := replay.ApplyAll(dir, append(base, steps...)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".hoodie/timeline/20261130000000000.commit.requested"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"--watch=1s", "--exit-on", "inflight-older=1h"}, 10, "--exit-on inflight-older: commit 20261130000000000 requested for 24h0m0s (over 1h0m0s)"},
		{[]string{"--watch=1s", "--exit-on", "no-commit=1h"}, 14, "--exit-on no-commit: no write completed for"},
		{[]string{"--watch=1s", "--exit-on", "rollback"}, 0, ""},
		// archival-stopped measures the effective keep.max (from --hoodie-conf here) as the Health
		// pane does: 14 completed commits (12 commits, 2 replacecommits; the 12 cleans do not
		// count) alert from ceil(1.1×12) = 14, not from ceil(1.1×13) = 15.
		{[]string{"--watch=1s", "--exit-on", "archival-stopped", "--hoodie-conf", "hoodie.keep.max.commits=13"}, 0, ""},
		{[]string{"--watch=1s", "--exit-on", "archival-stopped", "--hoodie-conf", "hoodie.keep.max.commits=12"}, 13,
			"--exit-on archival-stopped: 14 completed commits (28 completed instants) on the active timeline, archival keeps at most 12 " +
				"(hoodie.keep.max.commits; alert from 14, Hudi 1.1+ (table version 9))"},
		{[]string{"--exit-on", "rollback"}, 2, "--exit-on needs --watch"},
		{[]string{"--watch=1s", "--exit-on", "inflight-older"}, 2, "--exit-on inflight-older needs a duration"},
		{[]string{"--watch=1s", "--exit-on", "slow"}, 2, `--exit-on: unknown alert "slow"`},
		{[]string{"--watch=1s", "--alert", "slow"}, 2, `--alert: unknown alert "slow"`},
		{[]string{"--watch=10ms"}, 2, "the interval is at least 1s"},
	}
	for _, c := range cases {
		// Bounded: a watch that raises nothing stops after one refresh.
		args := append([]string{"timeline", dir, "--cluster-defaults", "-", "--alert", "", "--watch-count", "1"}, c.args...)
		_, stderr, code := runCLI(t, args...)
		if code != c.code || !strings.Contains(stderr, c.stderr) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, stderr, c.code, c.stderr)
		}
	}
}

// The wait the timeline watch takes between refreshes (model.NextWait, kept as its loop keeps it).
func TestWatchBackoff(t *testing.T) {
	wait := time.Second
	throttled := &throttleErr{}
	var got []time.Duration
	for _, err := range []error{throttled, throttled, throttled, throttled, throttled, nil, os.ErrNotExist} {
		wait = model.NextWait(time.Second, wait, err)
		got = append(got, wait)
	}
	want := []time.Duration{2 * time.Second, 4 * time.Second, 8 * time.Second, 8 * time.Second, 8 * time.Second, time.Second, time.Second}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("waits %v, want %v", got, want)
		}
	}
}

// instantKey is the instant's timeline.Instant.Key: a plan and the action it completes as are
// one instant (a savepoint is its own, though it shares its commit's time).
func instantKey(requested, action string) string {
	return (&timeline.Instant{RequestedTime: requested, Action: action}).Key()
}

type throttleErr struct{}

func (throttleErr) Error() string   { return "list s3://b/k/: SlowDown" }
func (throttleErr) Throttled() bool { return true }
