package s3_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/hudi/problem"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/tableconfig"
	"github.com/hudiscope/hudiscope/hudi/timeline"
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
			put := func(name, body string) { f.put(t, "w/"+cfg.TimelineDir+"/"+name, []byte(body)) }
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
			t.Logf("initial load: %v", f.rt.snapshot())
			rf := timeline.NewRefresher(r, tl)
			rf.FullEvery = 0
			for i := 0; i < 3; i++ {
				f.rt.reset()
				got, stats, err := rf.Refresh(ctx, false)
				if err != nil {
					t.Fatal(err)
				}
				r.LoadCommits(ctx, got.Instants)
				if n := f.rt.total(); n > 3 || len(got.Instants) != 1000 {
					t.Fatalf("refresh %d: %d requests %v (stats %+v), %d instants; want ≤ 3 and 1000", i, n, f.rt.snapshot(), stats, len(got.Instants))
				}
				if i == 0 {
					t.Logf("unchanged refresh: %v, %+v", f.rt.snapshot(), stats)
				}
			}
			commit(1000)
			f.rt.reset()
			got, stats, err := rf.Refresh(ctx, false)
			if err != nil {
				t.Fatal(err)
			}
			r.LoadCommits(ctx, got.Instants)
			c := f.rt.snapshot()
			if len(got.Instants) != 1001 || c["LIST"] != 1 || c["GET"] != 1 || f.rt.total() != 2 {
				t.Errorf("after a new commit: %d instants, requests %v (stats %+v); want 1001, one LIST and one GET", len(got.Instants), c, stats)
			}
		})
	}
}
