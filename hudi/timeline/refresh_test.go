package timeline_test

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
)

// refreshTable is a synthetic timeline folder on local disk that a test changes step by step.
type refreshTable struct {
	t    *testing.T
	root string
	cfg  *tableconfig.Config
	base time.Time
}

func newRefreshTable(t *testing.T, version int) *refreshTable {
	cfg := &tableconfig.Config{Version: version, Zone: time.UTC, TimelineDir: ".hoodie"}
	if version >= 8 {
		cfg.TimelineDir = ".hoodie/timeline"
	}
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, cfg.TimelineDir), 0o755); err != nil {
		t.Fatal(err)
	}
	return &refreshTable{t: t, root: root, cfg: cfg, base: time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)}
}

// ts is the instant time i minutes after the base.
func (rt *refreshTable) ts(i int) string {
	return timeline.FormatInstantTime(rt.base.Add(time.Duration(i)*time.Minute), time.UTC)
}

func (rt *refreshTable) write(name, body string) {
	p := filepath.Join(rt.root, rt.cfg.TimelineDir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		rt.t.Fatal(err)
	}
}

func (rt *refreshTable) remove(name string) {
	if err := os.Remove(filepath.Join(rt.root, rt.cfg.TimelineDir, name)); err != nil {
		rt.t.Fatal(err)
	}
}

// completed is the completed file name of instant i (finishing at minute done) of action.
func (rt *refreshTable) completed(i, done int, action string) string {
	if rt.cfg.Version >= 8 {
		return rt.ts(i) + "_" + rt.ts(done) + "." + action
	}
	return rt.ts(i) + "." + action
}

func (rt *refreshTable) commit(i, done int) {
	rt.write(rt.ts(i)+".commit.requested", "")
	rt.write(rt.ts(i)+".commit.inflight", "")
	rt.write(rt.completed(i, done, "commit"), `{"operationType":"UPSERT"}`)
}

func (rt *refreshTable) reader(st storage.Storage) *timeline.Reader {
	return &timeline.Reader{Store: st, Config: rt.cfg, Problems: &problem.Log{}}
}

// summary renders a timeline for comparison: key, state, completion time.
func summary(tl *timeline.Timeline) string {
	var b strings.Builder
	for _, in := range tl.Instants {
		fmt.Fprintf(&b, "%s %s %s %s\n", in.Key(), in.State, in.CompletionTime, in.Operation)
	}
	return b.String()
}

// TestRefresherMatchesFullListing changes a timeline as writers do (a pending compaction
// completing under an old time, new commits, an inflight rolled back) and checks after each
// step that the incremental refresh equals a full ActiveNames listing.
func TestRefresherMatchesFullListing(t *testing.T) {
	for _, version := range []int{6, 8} {
		t.Run(fmt.Sprint("v", version), func(t *testing.T) {
			ctx := context.Background()
			rt := newRefreshTable(t, version)
			for i := 0; i < 50; i++ {
				if i == 5 { // a compaction scheduled at minute 5, still pending
					rt.write(rt.ts(5)+".compaction.requested", "")
					continue
				}
				rt.commit(i, i)
			}
			st, err := storage.OpenLocal(rt.root)
			if err != nil {
				t.Fatal(err)
			}
			r := rt.reader(st)
			tl, err := r.ActiveNames(ctx)
			if err != nil {
				t.Fatal(err)
			}
			r.LoadCommits(ctx, tl.Instants)
			f := timeline.NewRefresher(r, tl)
			f.FullEvery = 0
			if got, want := f.StartAfter(), rt.ts(5)[:14]; got != want {
				t.Fatalf("start after %q, want %q (the pending compaction)", got, want)
			}
			var stats timeline.RefreshStats // of the last check
			check := func(step string, wantFull bool, wantListedMax int) *timeline.Timeline {
				t.Helper()
				var got *timeline.Timeline
				var err error
				got, stats, err = f.Refresh(ctx, false)
				if err != nil {
					t.Fatalf("%s: %v", step, err)
				}
				want, err := rt.reader(st).ActiveNames(ctx)
				if err != nil {
					t.Fatal(err)
				}
				rt.reader(st).LoadCommits(ctx, want.Instants)
				r.LoadCommits(ctx, got.Instants)
				if summary(got) != summary(want) {
					t.Errorf("%s: refresh differs from a full listing:\n%s\nwant\n%s", step, summary(got), summary(want))
				}
				if stats.Full != wantFull || stats.Listed > wantListedMax {
					t.Errorf("%s: stats %+v, want full=%v and at most %d listed", step, stats, wantFull, wantListedMax)
				}
				return got
			}
			// Nothing changed: only the files from the pending compaction on are listed, and
			// the decoded metadata of the other instants is reused.
			got := check("unchanged", false, 1+3*44)
			if n := len(got.Instants); n != 50 {
				t.Fatalf("%d instants, want 50", n)
			}
			// 49 completed commits (all but the pending compaction at 5) carried, none read.
			if stats.Reused != 49 || stats.Gets != 0 {
				t.Errorf("unchanged: reused %d, %d GETs; want 49 and 0", stats.Reused, stats.Gets)
			}
			// The compaction completes at minute 51: its new name sorts before the newest.
			rt.write(rt.completed(5, 51, "commit"), `{"operationType":"COMPACT"}`)
			check("compaction completed", false, 2+3*44)
			// Compaction is no longer pending: the listing now starts at newest − lookback.
			if got, want := f.StartAfter(), rt.ts(49 - 10)[:14]; got != want {
				t.Errorf("start after %q, want %q (newest − 10 min)", got, want)
			}
			rt.commit(52, 52)
			rt.write(rt.ts(53)+".commit.requested", "")
			rt.write(rt.ts(53)+".commit.inflight", "")
			got = check("new commit and an inflight", false, 40)
			if in := got.Find(rt.ts(53)); in == nil || in.State != timeline.Inflight {
				t.Errorf("instant 53: %+v, want inflight", in)
			}
			// The inflight is rolled back: its files go, a rollback completes. The refresh
			// then lists the whole folder (a rollback can delete older files).
			rt.remove(rt.ts(53) + ".commit.requested")
			rt.remove(rt.ts(53) + ".commit.inflight")
			rt.write(rt.ts(54)+".rollback.requested", "")
			rt.write(rt.ts(54)+".rollback.inflight", "")
			rt.write(rt.completed(54, 54, "rollback"), "")
			got = check("rollback", true, 1000)
			if got.Find(rt.ts(53)) != nil {
				t.Errorf("instant 53 still listed after its rollback")
			}
			// Archival removes the oldest instants: only a full listing sees it.
			for _, n := range []string{rt.ts(0) + ".commit.requested", rt.ts(0) + ".commit.inflight", rt.completed(0, 0, "commit")} {
				rt.remove(n)
			}
			got, stats, err = f.Refresh(ctx, true)
			if err != nil || !stats.Full || got.Find(rt.ts(0)) != nil {
				t.Errorf("full refresh after archival: err %v, stats %+v, instant 0 listed %v", err, stats, got.Find(rt.ts(0)) != nil)
			}
		})
	}
}
