package hudi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// Every fixture we generated with real Spark + Hudi carries what Hudi itself said about the
// table (oracle/): the reader must agree with it instant by instant and file by file.
func TestReaderMatchesFixtureOracles(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join("..", "testdata", "fixtures", "*", "oracle"))
	if len(dirs) == 0 {
		t.Fatal("no fixtures with oracles under testdata/fixtures")
	}
	for _, od := range dirs {
		dir := filepath.Dir(od)
		if _, err := os.Stat(filepath.Join(od, "summary.json")); err != nil {
			continue // a fixture still being generated
		}
		t.Run(filepath.Base(dir), func(t *testing.T) { checkReaderFixture(t, dir) })
	}
}

type readerOracle struct {
	Columns []string `json:"columns"`
	Rows    [][]any  `json:"rows"`
}

func (o readerOracle) col(row []any, name string) any {
	for i, c := range o.Columns {
		if c == name {
			return row[i]
		}
	}
	return nil
}

func readOracle(t *testing.T, dir, name string, v any) bool {
	b, err := os.ReadFile(filepath.Join(dir, "oracle", name))
	if err != nil {
		return false
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return true
}

func checkReaderFixture(t *testing.T, dir string) {
	ctx := context.Background()
	var sum struct {
		TableName string         `json:"table_name"`
		TableType string         `json:"table_type"`
		Version   int            `json:"table_version"`
		Completed map[string]int `json:"completed_by_action"`
		Pending   map[string]int `json:"pending_by_action"`
		Active    []struct {
			Requested  string `json:"requested_time"`
			Action     string `json:"action"`
			State      string `json:"state"`
			Completion string `json:"completion_time"`
		} `json:"active_timeline"`
	}
	readOracle(t, dir, "summary.json", &sum)
	tbl, err := hudi.Open(ctx, filepath.Join(dir, "table.zip"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := tbl.Config
	if c.Name != sum.TableName || c.Type != sum.TableType || c.Version != sum.Version {
		t.Errorf("table %s %s v%d, oracle %s %s v%d", c.Name, c.Type, c.Version, sum.TableName, sum.TableType, sum.Version)
	}
	tl, err := tbl.ActiveTimeline(ctx)
	if err != nil {
		t.Fatal(err)
	}
	completed, pending := map[string]int{}, map[string]int{}
	byKey := map[string]*timeline.Instant{}
	for _, in := range tl.Instants {
		byKey[in.RequestedTime+"/"+in.Action] = in
		if in.State == timeline.Completed {
			completed[in.Action]++
		} else {
			pending[in.Action]++
		}
	}
	if !sameCounts(completed, sum.Completed) || !sameCounts(pending, sum.Pending) {
		t.Errorf("completed %v pending %v; oracle %v %v", completed, pending, sum.Completed, sum.Pending)
	}
	for _, a := range sum.Active {
		in := byKey[a.Requested+"/"+a.Action]
		if in == nil {
			t.Errorf("oracle instant %s %s missing", a.Requested, a.Action)
			continue
		}
		// Table versions < 8 store no completion time (the oracle has none) and ours is derived
		// from the file's mtime, which a zip keeps to the second.
		if string(in.State) != a.State || (in.CompletionTime != a.Completion && !(in.CompletionDerived && a.Completion == "")) {
			t.Errorf("%s %s: %s %s, oracle %s %s", a.Requested, a.Action, in.State, in.CompletionTime, a.State, a.Completion)
		}
	}
	// CALL show_commits: one row per completed write instant, with Spark's own totals.
	var sc readerOracle
	if readOracle(t, dir, "show_commits.json", &sc) {
		for _, row := range sc.Rows {
			// Hudi 0.12's show_commits has no action or state_transition_time column.
			action, _ := sc.col(row, "action").(string)
			key := sc.col(row, "commit_time").(string) + "/" + action
			in := byKey[key]
			if action == "" {
				for _, a := range []string{timeline.ActionCommit, timeline.ActionDeltaCommit, timeline.ActionReplaceCommit} {
					if in == nil {
						key = sc.col(row, "commit_time").(string) + "/" + a
						in = byKey[key]
					}
				}
			}
			if in == nil {
				t.Errorf("show_commits %s not on our timeline", key)
				continue
			}
			tt := in.Totals
			if !sameCompletion(in, sc.col(row, "state_transition_time")) ||
				float64(tt.TotalBytesWritten) != sc.col(row, "total_bytes_written") ||
				float64(tt.NumWrites) != sc.col(row, "total_records_written") ||
				float64(tt.NumUpdateWrites) != sc.col(row, "total_update_records_written") ||
				float64(tt.Partitions) != sc.col(row, "total_partitions_written") {
				t.Errorf("show_commits %s: ours %s %+v, oracle %v", key, in.CompletionTime, tt, row)
			}
		}
	}
	// CALL show_archived_commits: the archived write instants, with their totals.
	var sa readerOracle
	if readOracle(t, dir, "show_archived_commits.json", &sa) {
		if err := tbl.LoadArchived(ctx, tl); err != nil {
			t.Fatal(err)
		}
		archived := map[string]*timeline.Instant{}
		writes := 0
		for _, in := range tl.Archived {
			if !in.Archived {
				t.Errorf("%s not marked archived", in.RequestedTime)
			}
			if timeline.IsWriteAction(in.Action) {
				archived[in.RequestedTime] = in
				writes++
			}
		}
		if writes != len(sa.Rows) {
			t.Errorf("archived writes = %d, show_archived_commits has %d", writes, len(sa.Rows))
		}
		for _, row := range sa.Rows {
			ts := sa.col(row, "commit_time").(string)
			in := archived[ts]
			if in == nil {
				t.Errorf("archived %s missing", ts)
				continue
			}
			tt := in.Totals
			if !sameCompletion(in, sa.col(row, "state_transition_time")) ||
				float64(tt.TotalBytesWritten) != sa.col(row, "total_bytes_written") ||
				float64(tt.NumWrites) != sa.col(row, "total_records_written") ||
				float64(tt.NumUpdateWrites) != sa.col(row, "total_update_records_written") ||
				float64(tt.Partitions) != sa.col(row, "total_partitions_written") {
				t.Errorf("archived %s: ours %s %+v, oracle %v", ts, in.CompletionTime, tt, row)
			}
		}
		if p := tbl.Problems(); len(p) > 0 {
			t.Errorf("problems: %v", p)
		}
	}
	// Java's archived timeline (HoodieTableMetaClient.getArchivedTimeline) via py4j: every
	// COMPLETED archived instant, all actions, with its completion time.
	var ja struct {
		Instants []struct {
			Action     string `json:"action"`
			State      string `json:"state"`
			Requested  string `json:"requested_time"`
			Completion string `json:"completion_time"`
		} `json:"instants"`
	}
	if readOracle(t, dir, "java_archived_timeline.json", &ja) {
		if tl.Archived == nil {
			if err := tbl.LoadArchived(ctx, tl); err != nil {
				t.Fatal(err)
			}
		}
		ours := map[string]string{}
		for _, in := range tl.Archived {
			if in.State == timeline.Completed {
				ours[in.RequestedTime+"/"+in.Action] = in.CompletionTime
			}
		}
		n := 0
		for _, j := range ja.Instants {
			if j.State != "COMPLETED" {
				continue
			}
			n++
			got, ok := ours[j.Requested+"/"+j.Action]
			if !ok || got != j.Completion {
				t.Errorf("Java archived %s %s completed %s; ours %q (present %v)", j.Requested, j.Action, j.Completion, got, ok)
			}
		}
		if n != len(ours) {
			t.Errorf("Java lists %d completed archived instants, we read %d", n, len(ours))
		}
	}
	// The Java file-system view's latest slices, file by file.
	var fsv struct {
		Partitions map[string][]struct {
			FileID      string `json:"file_id"`
			BaseInstant string `json:"base_instant"`
			BaseFile    *struct {
				Name string `json:"name"`
				Size int64  `json:"size"`
			} `json:"base_file"`
			LogFiles []struct {
				Name string `json:"name"`
				Size int64  `json:"size"`
			} `json:"log_files"`
		} `json:"partitions"`
	}
	// CALL show_fsview_latest per partition (present for every release, also where the Java
	// view could not be taken through py4j): file id, base instant, base file, size, log count.
	var sfl struct {
		Partitions map[string]readerOracle `json:"partitions"`
	}
	if readOracle(t, dir, "latest_file_slices.json", &sfl) {
		view, err := tbl.View(ctx, tl, hudi.ListingStorage)
		if err != nil {
			t.Fatal(err)
		}
		ours := map[string]string{}
		for _, p := range view.Partitions {
			for _, g := range p.FileGroups {
				// show_fsview_latest leaves out slices opened by a pending compaction (it asks for
				// the latest slices without those), so it shows the slice before it, as it is.
				s := *g.Latest()
				if len(g.Slices) > 1 && g.PendingCompaction == s.BaseInstant {
					s = *g.Slices[len(g.Slices)-2]
				}
				base, size := "", int64(0)
				if s.Base != nil {
					base, size = s.Base.Name, s.Base.Size
				}
				ours[p.Path+"/"+g.FileID] = fmt.Sprintf("@%s %s:%d logs=%d", s.BaseInstant, base, size, len(s.Logs))
			}
		}
		rows := 0
		for part, tab := range sfl.Partitions {
			for _, row := range tab.Rows {
				rows++
				id, _ := tab.col(row, "file_id").(string)
				inst, _ := tab.col(row, "base_instant").(string)
				file, _ := tab.col(row, "data_file").(string)
				size, _ := tab.col(row, "data_file_size").(float64)
				logs, _ := tab.col(row, "num_delta_files").(float64)
				if file != "" {
					file = path.Base(file)
				}
				want := fmt.Sprintf("@%s %s:%d logs=%d", inst, file, int64(size), int64(logs))
				if got := ours[part+"/"+id]; got != want {
					t.Errorf("show_fsview_latest %s/%s: ours %q, Spark %q", part, id, got, want)
				}
			}
		}
		// The procedure returns at most 10 rows per partition by default, so it is checked row by
		// row; the full count is checked against the Java view below where it exists.
		if rows == 0 && len(ours) > 0 {
			t.Errorf("show_fsview_latest lists no file group, we have %d live", len(ours))
		}
	}
	if !readOracle(t, dir, "java_fsview_latest.json", &fsv) {
		return
	}
	view, err := tbl.View(ctx, tl, hudi.ListingStorage)
	if err != nil {
		t.Fatal(err)
	}
	ours := map[string]string{}
	for _, p := range view.Partitions {
		for _, g := range p.FileGroups {
			ours[p.Path+"/"+g.FileID] = describeSlice(g.Latest().BaseInstant, g.Latest())
		}
	}
	want := map[string]string{}
	for part, slices := range fsv.Partitions {
		for _, s := range slices {
			fs := &filegroup.FileSlice{BaseInstant: s.BaseInstant}
			if s.BaseFile != nil {
				fs.Base = &filegroup.BaseFile{Name: s.BaseFile.Name, Size: s.BaseFile.Size}
			}
			for _, l := range s.LogFiles {
				fs.Logs = append(fs.Logs, filegroup.LogFile{Name: l.Name, Size: l.Size})
			}
			want[part+"/"+s.FileID] = describeSlice(s.BaseInstant, fs)
		}
	}
	for k, w := range want {
		if ours[k] != w {
			t.Errorf("slice %s:\n ours %s\n java %s", k, ours[k], w)
		}
	}
	for k := range ours {
		if _, ok := want[k]; !ok {
			t.Errorf("file group %s is live for us but not for Java", k)
		}
	}
}

func describeSlice(instant string, s *filegroup.FileSlice) string {
	var parts []string
	parts = append(parts, "@"+instant)
	if s.Base != nil {
		parts = append(parts, s.Base.Name+":"+itoa(s.Base.Size))
	}
	var logs []string
	for _, l := range s.Logs {
		logs = append(logs, l.Name+":"+itoa(l.Size))
	}
	sort.Strings(logs)
	return strings.Join(append(parts, logs...), " ")
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

func sameCounts(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// sameCompletion compares our completion time with Spark's state_transition_time. Hudi 0.x
// reports the completed file's modification time to the millisecond; a zip keeps mtimes to the
// second (extended timestamp), so a derived time must fall in the same second or the next.
func sameCompletion(in *timeline.Instant, oracle any) bool {
	o, _ := oracle.(string)
	if oracle == nil {
		return true // not reported by this Hudi release
	}
	if !in.CompletionDerived {
		return in.CompletionTime == o
	}
	ours, ok1 := timeline.ParseInstantTime(in.CompletionTime, time.UTC)
	theirs, ok2 := timeline.ParseInstantTime(o, time.UTC)
	d := theirs.Sub(ours)
	return ok1 && ok2 && d > -time.Second && d < 2*time.Second
}
