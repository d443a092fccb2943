package s3_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/hudi/problem"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/tableconfig"
	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/internal/replay"
	"github.com/hudiscope/hudiscope/internal/testutil/s3fake"
	"github.com/hudiscope/hudiscope/model"
)

// TestWatchRequestsPerRefresh: a watched 1,000-instant table costs at most 3 requests per
// refresh when nothing changed (one LIST with StartAfter), in both timeline layouts, and a
// new commit is seen with one LIST and one GET.
func TestWatchRequestsPerRefresh(t *testing.T) {
	for _, version := range []int{6, 8} {
		t.Run(fmt.Sprint("v", version), func(t *testing.T) {
			f := newFake(t)
			ctx := context.Background()
			cfg := &tableconfig.Config{Version: version, Zone: time.UTC, TimelineDir: ".hoodie"}
			if version >= 8 {
				cfg.TimelineDir = ".hoodie/timeline"
			}
			base := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
			ts := func(i int) string {
				return timeline.FormatInstantTime(base.Add(time.Duration(i)*time.Minute), time.UTC)
			}
			put := func(name, body string) { f.Put(t, "w/"+cfg.TimelineDir+"/"+name, []byte(body)) }
			commit := func(i int) {
				put(ts(i)+".commit.requested", "")
				put(ts(i)+".commit.inflight", "")
				if version >= 8 {
					put(ts(i)+"_"+ts(i)+".commit", `{"operationType":"UPSERT"}`)
				} else {
					put(ts(i)+".commit", `{"operationType":"UPSERT"}`)
				}
			}
			for i := 0; i < 1000; i++ {
				commit(i)
			}
			put("hoodie.properties", "hoodie.table.name=w\n")
			st, err := storage.Open("s3://"+bucket+"/w", fakeOpts)
			if err != nil {
				t.Fatal(err)
			}
			r := &timeline.Reader{Store: st, Config: cfg, Problems: &problem.Log{}}
			tl, err := r.Active(ctx)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("initial load: %v", f.Requests())
			rf := timeline.NewRefresher(r, tl)
			rf.FullEvery = 0
			for i := 0; i < 3; i++ {
				f.Reset()
				got, stats, err := rf.Refresh(ctx, false)
				if err != nil {
					t.Fatal(err)
				}
				r.LoadCommits(ctx, got.Instants)
				if n := f.Total(); n > 3 || len(got.Instants) != 1000 {
					t.Fatalf("refresh %d: %d requests %v (stats %+v), %d instants; want ≤ 3 and 1000", i, n, f.Requests(), stats, len(got.Instants))
				}
				if i == 0 {
					t.Logf("unchanged refresh: %v, %+v", f.Requests(), stats)
				}
			}
			commit(1000)
			f.Reset()
			got, stats, err := rf.Refresh(ctx, false)
			if err != nil {
				t.Fatal(err)
			}
			r.LoadCommits(ctx, got.Instants)
			c := f.Requests()
			if len(got.Instants) != 1001 || c["LIST"] != 1 || c["GET"] != 1 || f.Total() != 2 {
				t.Errorf("after a new commit: %d instants, requests %v (stats %+v); want 1001, one LIST and one GET", len(got.Instants), c, stats)
			}
		})
	}
}

// TestWatchReplayOnS3 replays a fixture's timeline into the fake bucket step by step while a
// model.Watcher refreshes: every refresh equals a full load of the same bucket, an unchanged
// refresh costs ≤ 3 requests, and with every 4th request throttled (503 SlowDown) the
// backend's retries absorb it (or the watch backs off: model.NextWait).
func TestWatchReplayOnS3(t *testing.T) {
	zip := filepath.Join("..", "..", "..", "testdata", "fixtures", "cow-services-1.2.0", "table.zip")
	if _, err := os.Stat(zip); err != nil {
		t.Skip(err)
	}
	f := newFake(t)
	ctx := context.Background()
	base, steps, err := replay.Plan(ctx, zip)
	if err != nil {
		t.Fatal(err)
	}
	apply := func(op replay.Op) {
		if op.Delete {
			f.Delete(t, "r/"+op.Path)
			return
		}
		f.Put(t, "r/"+op.Path, op.Data)
	}
	for _, op := range append(base, steps[:3]...) {
		apply(op)
	}
	opts := model.Options{Location: "s3://" + bucket + "/r", Storage: fakeOpts, ClusterDefaults: "-",
		Steps: []model.Step{model.StepTimeline}, CountRequests: true}
	s, err := model.Load(ctx, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	w, err := model.NewWatcher(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	summary := func(s *model.Snapshot) string {
		var b strings.Builder
		for _, in := range s.Timeline.Instants {
			fmt.Fprintf(&b, "%s %s %s\n", in.Key(), in.State, in.Operation)
		}
		return b.String()
	}
	f.SetFaults(s3fake.Faults{ThrottleEvery: 4})
	maxUnchanged := 0
	for i, op := range steps[3:] {
		apply(op)
		next, res, err := w.Refresh(ctx, false)
		if err != nil {
			t.Fatalf("step %d (%s): %v", i, op.Note, err)
		}
		f.Reset()
		_, res2, err := w.Refresh(ctx, false)
		if err != nil || len(res2.Changes) != 0 {
			t.Fatalf("unchanged refresh after %s: %v, changes %v", op.Note, err, res2.Changes)
		}
		maxUnchanged = max(maxUnchanged, f.Total()-f.Throttled())
		full, err := model.Load(ctx, opts, nil)
		if err != nil {
			t.Fatal(err)
		}
		if summary(next) != summary(full) {
			t.Fatalf("after %s the watched timeline differs from a full load:\n%s\nwant\n%s", op.Note, summary(next), summary(full))
		}
		_ = res
	}
	if maxUnchanged > 3 {
		t.Errorf("an unchanged refresh made %d requests (not counting throttled retries), want ≤ 3", maxUnchanged)
	}
	t.Logf("%d steps replayed on S3; an unchanged refresh made at most %d requests", len(steps)-3, maxUnchanged)

	// S3 answers nothing but 503 SlowDown: the refresh fails as throttled (after the
	// backend's retries) and the watch doubles its interval, up to 8×.
	f.SetFaults(s3fake.Faults{ThrottleEvery: 1})
	_, _, err = w.Refresh(ctx, false)
	if !storage.IsThrottled(err) {
		t.Fatalf("refresh under SlowDown: %v, want a throttling error", err)
	}
	wait := 30 * time.Second
	for range 4 {
		wait = model.NextWait(30*time.Second, wait, err)
	}
	if wait != 4*time.Minute || model.NextWait(30*time.Second, wait, nil) != 30*time.Second {
		t.Errorf("back-off reached %s, want 4m0s (8× 30s), and 30s again after a good refresh", wait)
	}
}
