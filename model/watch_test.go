package model

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/internal/replay"
)

func timelineSummary(tl *timeline.Timeline) string {
	var b strings.Builder
	for _, in := range tl.Instants {
		fmt.Fprintf(&b, "%s %s %s\n", in.Key(), in.State, in.Operation)
	}
	return b.String()
}

// TestWatchReplay replays two fixtures' timelines (0.x and 1.x, with a commit that is
// requested, inflight and completed in turn, and an inflight that is rolled back) into a
// folder step by step, refreshing a watcher after each step: every refresh equals a full
// load, and each step shows as the change it is.
func TestWatchReplay(t *testing.T) {
	for _, name := range []string{"cow-services-0.15.0", "cow-services-1.2.0"} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			base, steps, err := replay.Plan(ctx, filepath.Join(ownFixture(t, name), "table.zip"))
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			// Start with the first three instant files, so the table opens with a timeline.
			if err := replay.ApplyAll(dir, append(base, steps[:3]...)); err != nil {
				t.Fatal(err)
			}
			opts := Options{Location: dir, ClusterDefaults: "-", Steps: []Step{StepTimeline, StepHealth}}
			s, err := Load(ctx, opts, nil)
			if err != nil {
				t.Fatal(err)
			}
			w, err := NewWatcher(ctx, s)
			if err != nil {
				t.Fatal(err)
			}
			kinds := map[ChangeKind]int{}
			reanalyzed := 0
			for i, op := range steps[3:] {
				if err := replay.Apply(dir, op); err != nil {
					t.Fatal(err)
				}
				next, res, err := w.Refresh(ctx, false)
				if err != nil {
					t.Fatalf("step %d (%s): %v", i, op.Note, err)
				}
				full, err := Load(ctx, opts, nil)
				if err != nil {
					t.Fatal(err)
				}
				if got, want := timelineSummary(next.Timeline), timelineSummary(full.Timeline); got != want {
					t.Fatalf("after %s the watched timeline differs from a full load:\n%s\nwant\n%s", op.Note, got, want)
				}
				if len(res.Changes) != 1 {
					t.Errorf("after %s: %d changes %v, want 1", op.Note, len(res.Changes), res.Changes)
				}
				for _, c := range res.Changes {
					kinds[c.Kind]++
					if c.Kind != ChangeRolledBack && c.Instant.RequestedTime != op.Instant {
						t.Errorf("after %s: change %s is about another instant", op.Note, c)
					}
				}
				if res.Reanalyze {
					reanalyzed++
					again, seq := w.Reanalyze(ctx)
					if again.Health == nil || again.Timeline != next.Timeline || seq != res.Seq+1 {
						t.Errorf("after %s: health not rerun on the refreshed timeline (seq %d after %d)", op.Note, seq, res.Seq)
					}
				}
			}
			t.Logf("%d steps: changes %v, %d reanalyses, %d storage calls", len(steps)-3, kinds, reanalyzed, w.Total)
			if kinds[ChangeNew] == 0 || kinds[ChangeState] == 0 || kinds[ChangeRolledBack] != 1 || reanalyzed == 0 {
				t.Errorf("changes %v, %d reanalyses; want new, state, one rolled-back and reanalyses", kinds, reanalyzed)
			}
		})
	}
}

func TestAlerts(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	mk := func(ts time.Time, action string, st timeline.State) *timeline.Instant {
		in := &timeline.Instant{RequestedTime: timeline.FormatInstantTime(ts, time.UTC), Action: action, State: st, Started: ts}
		if st == timeline.Completed {
			in.Ended = ts.Add(time.Minute)
		}
		return in
	}
	tl := &timeline.Timeline{Instants: []*timeline.Instant{
		mk(now.Add(-3*time.Hour), "commit", timeline.Completed),
		mk(now.Add(-2*time.Hour), "compaction", timeline.Requested),
		mk(now.Add(-90*time.Minute), "commit", timeline.Inflight),
		mk(now.Add(-time.Minute), "commit", timeline.Inflight),
	}}
	rules, err := ParseAlertRules("--alert", "inflight-older=1h,pending-older=1h,no-commit=2h,rollback,archival-stopped")
	if err != nil {
		t.Fatal(err)
	}
	rb := Change{Kind: ChangeRolledBack, Instant: mk(now, "deltacommit", timeline.Inflight)}
	got := Alerts(tl, []Change{rb}, now, rules, ArchivalSettings{KeepMax: 1})
	var lines []string
	for _, a := range got {
		lines = append(lines, string(a.Kind)+": "+a.Message)
	}
	want := []string{
		"pending-older: compaction 20261130100000000 requested for 2h0m0s (over 1h0m0s)",
		"inflight-older: commit 20261130103000000 inflight for 1h30m0s (over 1h0m0s)",
		"rollback: deltacommit 20261130120000000 was rolled back",
		"no-commit: no write completed for 2h59m0s (last at 20261130090100000, over 2h0m0s)",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("alerts:\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	for _, bad := range []string{"inflight-older", "rollback=1h", "foo", "no-commit=-1m"} {
		if _, err := ParseAlertRules("--alert", bad); err == nil {
			t.Errorf("ParseAlertRules(%q) accepted", bad)
		}
	}
}

// archival-stopped measures what the Health pane's archival check measures: completed commits
// against keep.max plus the release line's lag (10% slack). Cleans do not count: a 0.12 writer
// that cleans after every commit holds 2×keep.max completed instants at steady state, which
// the first version of the alert (completed instants > 2×keep.max) reported as a stall, while a
// real stall of commits alone went unreported until twice the retention.
func TestArchivalStoppedAlertMatchesHealth(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	timelineOf := func(commits int, cleans bool) *timeline.Timeline {
		tl := &timeline.Timeline{}
		for i := 0; i < commits; i++ {
			ts := now.Add(time.Duration(i-commits) * time.Minute)
			tl.Instants = append(tl.Instants, &timeline.Instant{RequestedTime: timeline.FormatInstantTime(ts, time.UTC),
				Action: "commit", State: timeline.Completed, Started: ts, Ended: ts.Add(time.Second)})
			if cleans {
				tl.Instants = append(tl.Instants, &timeline.Instant{RequestedTime: timeline.FormatInstantTime(ts.Add(2*time.Second), time.UTC),
					Action: "clean", State: timeline.Completed, Started: ts, Ended: ts.Add(3 * time.Second)})
			}
		}
		return tl
	}
	rules := AlertRules{ArchivalStopped: true}
	v5 := ArchivalSettings{KeepMax: 30, TableVersion: 5}
	cases := []struct {
		name    string
		commits int
		cleans  bool
		arch    ArchivalSettings
		want    string
	}{
		// 0.12 steady state: keep.max+1 commits, each with its clean (62 completed instants).
		{"0.12 steady state with cleans", 31, true, v5, ""},
		{"0.12 at the threshold (ceil(1.1×31))", 34, true, v5, ""},
		{"0.12 stalled", 35, false, v5, "35 completed commits (35 completed instants) on the active timeline, archival keeps at most 30 " +
			"(hoodie.keep.max.commits; alert from 35, Hudi 0.12.x-0.13.x (table version 5)): archival is not running or is blocked"},
		// 1.x archives after the commit: keep.max is the steady state; the default applies when unknown.
		{"1.1 default keep.max, stalled", 33, false, ArchivalSettings{TableVersion: 9}, "33 completed commits (33 completed instants) on the " +
			"active timeline, archival keeps at most 30 (hoodie.keep.max.commits; alert from 33, Hudi 1.1+ (table version 9)): archival is not running or is blocked"},
		{"1.1 keep.max 100", 60, true, ArchivalSettings{KeepMax: 100, TableVersion: 9}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Alerts(timelineOf(c.commits, c.cleans), nil, now, rules, c.arch)
			msg := ""
			if len(got) > 0 {
				msg = got[0].Message
			}
			if len(got) > 1 || msg != c.want {
				t.Errorf("alerts %v\nwant %q", got, c.want)
			}
		})
	}
}

// With CountRequests every request of a refresh is counted: an unchanged local table costs
// one listing and no reads.
func TestWatchCountsRequests(t *testing.T) {
	ctx := context.Background()
	dir := replayedTable(t, "cow-services-1.2.0")
	s, err := Load(ctx, Options{Location: dir, ClusterDefaults: "-", Steps: []Step{StepTimeline}, CountRequests: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewWatcher(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		next, res, err := w.Refresh(ctx, false)
		if err != nil || res.Lists != 1 || res.Gets != 0 || len(res.Changes) != 0 || len(next.Problems()) != 0 {
			t.Errorf("unchanged refresh %d: err %v, %d lists, %d gets, changes %v, problems %v; want 1, 0, none, none", i, err, res.Lists, res.Gets, res.Changes, next.Problems())
		}
		if got, want := timelineSummary(next.Timeline), timelineSummary(s.Timeline); got != want {
			t.Errorf("refresh %d changed the timeline:\n%s\nwant\n%s", i, got, want)
		}
	}
}

// A running application's event log (.inprogress, appended a few lines at a time) is followed
// by the watcher's refreshes; once Spark renames it, the snapshot's analysis equals the
// one-shot analysis of the whole file.
func TestWatchFollowsEventLog(t *testing.T) {
	fx := ownFixture(t, "cdc-1.2.0")
	full, err := os.ReadFile(filepath.Join(fx, "local-1795967842896"))
	if err != nil {
		t.Skip(err)
	}
	ctx := context.Background()
	final := filepath.Join(t.TempDir(), "local-1795967842896")
	live := final + ".inprogress"
	lines := bytes.SplitAfter(full, []byte("\n"))
	if err := os.WriteFile(live, bytes.Join(lines[:40], nil), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := Options{Location: filepath.Join(fx, "table.zip"), EventLog: live, ClusterDefaults: "-",
		Steps: []Step{StepTimeline, StepEventLog}, FollowEventLog: true}
	s, err := Load(ctx, opts, nil)
	if err != nil || s.EventLog == nil || !s.Following() {
		t.Fatalf("load: %v, event log %v, following %v", err, s.EventLog != nil, s.Following())
	}
	w, err := NewWatcher(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(live, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	stages, grew := len(s.EventLog.Stages), 0
	for i := 40; i < len(lines); i += 25 {
		if _, err := f.Write(bytes.Join(lines[i:min(i+25, len(lines))], nil)); err != nil {
			t.Fatal(err)
		}
		next, res, err := w.Refresh(ctx, false)
		if err != nil {
			t.Fatal(err)
		}
		if res.EventLogGrew {
			grew++
		}
		if len(next.EventLog.Stages) < stages {
			t.Fatalf("stages went from %d to %d", stages, len(next.EventLog.Stages))
		}
		stages = len(next.EventLog.Stages)
	}
	f.Close()
	if err := os.Rename(live, final); err != nil {
		t.Fatal(err)
	}
	last, _, err := w.Refresh(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	want, err := AnalyzeEventLog(ctx, final, storage.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := last.EventLog
	gj, _ := json.Marshal(got)
	wj, _ := json.Marshal(want)
	if !bytes.Equal(gj, wj) {
		t.Errorf("followed analysis (%d bytes of JSON) differs from the one-shot one (%d)", len(gj), len(wj))
	}
	if last.Following() || grew < 10 {
		t.Errorf("still following after the rename (%v), or only %d refreshes saw new events", last.Following(), grew)
	}
	cur, running := CurrentStage(got)
	if cur == nil || running {
		t.Errorf("current stage %+v running %v; want the last stage, finished", cur, running)
	}
	t.Logf("%d refreshes with new events; %d stages; last stage %d (%s)", grew, len(got.Stages), cur.StageID, cur.Phase)
}

// FuzzParseAlertRules: an accepted rule set has only positive durations and prints no panic.
func FuzzParseAlertRules(f *testing.F) {
	for _, s := range []string{"inflight-older=1h,no-commit=2h,rollback", "pending-older=90m, archival-stopped", "x=1", "rollback=", ",,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseAlertRules("--alert", s)
		if err == nil && (r.InflightOlder < 0 || r.PendingOlder < 0 || r.NoCommit < 0) {
			t.Fatalf("%q: negative duration accepted: %+v", s, r)
		}
	})
}

// With the archived timeline loaded, an unchanged refresh reads the LSM _version_ file (one
// GET) beside the listing; archival seen by a full listing (the oldest instant gone from the
// active timeline) reloads the archived timeline.
func TestWatchArchived(t *testing.T) {
	ctx := context.Background()
	dir := replayedTable(t, "cow-services-1.2.0")
	s, err := Load(ctx, Options{Location: dir, ClusterDefaults: "-", Steps: []Step{StepTimeline}, Archived: true, CountRequests: true}, nil)
	if err != nil || len(s.Timeline.Archived) == 0 {
		t.Fatalf("load: %v, %d archived", err, len(s.Timeline.Archived))
	}
	archived := len(s.Timeline.Archived)
	w, err := NewWatcher(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	next, res, err := w.Refresh(ctx, false)
	if err != nil || res.Lists != 1 || res.Gets != 1 || len(next.Timeline.Archived) != archived {
		t.Fatalf("unchanged refresh: %v, %d lists, %d gets, %d archived; want 1, 1 (_version_), %d", err, res.Lists, res.Gets, len(next.Timeline.Archived), archived)
	}
	oldest := next.Timeline.Instants[0]
	for _, f := range oldest.Files {
		if err := os.Remove(filepath.Join(dir, filepath.FromSlash(oldest.FilePath(f)))); err != nil {
			t.Fatal(err)
		}
	}
	next, res, err = w.Refresh(ctx, true)
	if err != nil || len(res.Changes) != 1 || res.Changes[0].Kind != ChangeRemoved || len(next.Timeline.Archived) != archived || res.Lists < 2 {
		t.Fatalf("after archival: %v, changes %v, %d archived, %d lists; want one removal, the archived timeline read again", err, res.Changes, len(next.Timeline.Archived), res.Lists)
	}
}

// replayedTable replays every file of the fixture's table into a temporary folder (a local
// table a watcher can refresh) and returns the folder.
func replayedTable(t *testing.T, fixture string) string {
	t.Helper()
	base, steps, err := replay.Plan(context.Background(), filepath.Join(ownFixture(t, fixture), "table.zip"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := replay.ApplyAll(dir, append(base, steps...)); err != nil {
		t.Fatal(err)
	}
	return dir
}
