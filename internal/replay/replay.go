// Package replay rebuilds a fixture table's timeline in a folder step by step, in the order its
// writers wrote it, for watch tests and the tmux harness: every file that is not an instant is
// copied first, then each instant file at its time (requested, inflight, completed), and an
// instant a rollback removed is written back as pending and deleted when the rollback completes.
package replay

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// Op is one file-system step.
type Op struct {
	Path   string // table-relative, slash-separated
	Data   []byte
	Delete bool
	// Note says what the step is, for logs: "20261129165634001 commit inflight".
	Note string
	// Instant is the requested time the step belongs to ("" for the initial copy).
	Instant string
	at      time.Time
	rank    int
}

// Plan reads the table in src (a directory or .zip, possibly with the table in a subfolder)
// and returns the initial copy (everything but instant files) and the timeline steps in order.
func Plan(ctx context.Context, src string) (base, steps []Op, err error) {
	st, err := storage.Open(src, storage.Options{})
	if err != nil {
		return nil, nil, err
	}
	root, err := findRoot(ctx, st, "", 3)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", src, err)
	}
	if root != "" {
		st = storage.NewPrefixed(st, root)
	}
	t, err := hudi.OpenStorage(ctx, st)
	if err != nil {
		return nil, nil, err
	}
	tl, err := t.ActiveTimelineNames(ctx)
	if err != nil {
		return nil, nil, err
	}
	instantFiles := map[string]bool{}
	for _, in := range tl.Instants {
		for _, f := range in.Files {
			instantFiles[in.FilePath(f)] = true
		}
	}
	var walk func(dir string) error
	walk = func(dir string) error {
		es, err := st.List(ctx, dir)
		if err != nil {
			return err
		}
		for _, e := range es {
			if e.IsDir {
				if err := walk(e.Path); err != nil {
					return err
				}
				continue
			}
			if instantFiles[e.Path] || strings.HasSuffix(e.Name, ".crc") {
				continue
			}
			b, err := st.ReadFile(ctx, e.Path)
			if err != nil {
				return err
			}
			base = append(base, Op{Path: e.Path, Data: b, Note: "copy " + e.Path})
		}
		return nil
	}
	if err := walk(""); err != nil {
		return nil, nil, err
	}
	for _, in := range tl.Instants {
		for _, f := range in.Files {
			pf, _ := timeline.ParseInstantFileName(f.Name)
			p := in.FilePath(f)
			b, err := st.ReadFile(ctx, p)
			if err != nil {
				return nil, nil, err
			}
			op := Op{Path: p, Data: b, Instant: in.RequestedTime, at: in.Started,
				Note: fmt.Sprintf("%s %s %s", in.RequestedTime, pf.Action, strings.ToLower(string(pf.State)))}
			switch pf.State {
			case timeline.Requested:
				op.rank = 0
			case timeline.Inflight:
				op.rank, op.at = 1, in.Started.Add(time.Millisecond)
			default:
				// A derived completion clamped to the request must still come after the inflight.
				op.rank, op.at = 2, in.Ended
				if !op.at.After(in.Started) {
					op.at = in.Started.Add(2 * time.Millisecond)
				}
			}
			steps = append(steps, op)
		}
		if in.IsRollback() {
			steps = append(steps, rolledBack(ctx, t, tl, in)...)
		}
	}
	sort.SliceStable(steps, func(i, j int) bool {
		a, b := steps[i], steps[j]
		if !a.at.Equal(b.at) {
			return a.at.Before(b.at)
		}
		if a.rank != b.rank {
			return a.rank < b.rank
		}
		return a.Path < b.Path
	})
	return base, steps, nil
}

// rolledBack recreates the pending files of the instant a rollback removed (when they are
// gone from the table) and deletes them as the rollback completes.
func rolledBack(ctx context.Context, t *hudi.Table, tl *timeline.Timeline, rb *timeline.Instant) []Op {
	d, err := t.Details(ctx, rb)
	if err != nil || d.RollbackPlan == nil || d.RollbackPlan.InstantToRollback == nil {
		return nil
	}
	ref := d.RollbackPlan.InstantToRollback
	ts := ref.CommitTime
	if ts == "" {
		ts = ref.Timestamp
	}
	if ts == "" || ref.Action == "" || tl.Find(ts) != nil || strings.ContainsAny(ts+ref.Action, "/\\.") {
		return nil
	}
	started, _ := timeline.ParseInstantTime(ts, t.Config.Zone)
	dir := t.Config.TimelineDir
	var ops []Op
	for i, suffix := range []string{".requested", ".inflight"} {
		p := dir + "/" + ts + "." + ref.Action + suffix
		ops = append(ops, Op{Path: p, Instant: ts, at: started.Add(time.Duration(i) * time.Millisecond), rank: i,
			Note: fmt.Sprintf("%s %s %s (rolled back later)", ts, ref.Action, strings.TrimPrefix(suffix, "."))})
		ops = append(ops, Op{Path: p, Delete: true, Instant: ts, at: rb.Ended, rank: 3,
			Note: fmt.Sprintf("%s %s %s deleted by rollback %s", ts, ref.Action, strings.TrimPrefix(suffix, "."), rb.RequestedTime)})
	}
	return ops
}

// findRoot finds the folder holding .hoodie, at most depth levels down.
func findRoot(ctx context.Context, st storage.Storage, dir string, depth int) (string, error) {
	es, err := st.List(ctx, dir)
	if err != nil {
		return "", err
	}
	for _, e := range es {
		if e.IsDir && e.Name == ".hoodie" {
			return dir, nil
		}
	}
	if depth > 0 {
		for _, e := range es {
			if e.IsDir && !strings.HasPrefix(e.Name, ".") {
				if r, err := findRoot(ctx, st, e.Path, depth-1); err == nil {
					return r, nil
				}
			}
		}
	}
	return "", fmt.Errorf("no .hoodie folder found")
}

// Apply performs one step in the table folder dir.
func Apply(dir string, op Op) error {
	p := filepath.Join(dir, filepath.FromSlash(op.Path))
	if op.Delete {
		if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("replay: delete %s: %w", p, err)
		}
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	// Write then rename, as Hudi's storage does on HDFS, so a watcher never reads half a file.
	tmp := filepath.Join(filepath.Dir(p), ".replay-"+filepath.Base(p))
	if err := os.WriteFile(tmp, op.Data, 0o644); err != nil {
		return fmt.Errorf("replay: write %s: %w", p, err)
	}
	if err := os.Rename(tmp, p); err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	return nil
}

// ApplyAll performs the steps in order, stopping at the first that fails.
func ApplyAll(dir string, ops []Op) error {
	for _, op := range ops {
		if err := Apply(dir, op); err != nil {
			return err
		}
	}
	return nil
}
