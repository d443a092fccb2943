package view

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/model"
)

// trendsFixture loads a fixture's active and archived timelines (clock pinned) and its trends.
func trendsFixture(t *testing.T, name string) (*model.Snapshot, *TrendSet) {
	t.Helper()
	zip := filepath.Join("..", "testdata", "fixtures", name, "table.zip")
	if _, err := os.Stat(zip); err != nil {
		t.Skipf("fixture %s not present: %v", zip, err)
	}
	now := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	s, err := model.Load(context.Background(), model.Options{Location: zip, ClusterDefaults: "-", Archived: true,
		Steps: []model.Step{model.StepTimeline, model.StepArchived}, Now: func() time.Time { return now }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s, Trends(s, TrendOptions{})
}

type oracleTable struct {
	Columns []string `json:"columns"`
	Rows    [][]any  `json:"rows"`
}

func (o *oracleTable) col(row []any, name string) any {
	for i, c := range o.Columns {
		if c == name && i < len(row) {
			return row[i]
		}
	}
	return nil
}

// Every row of Spark's CALL show_commits and show_archived_commits is one trends point with
// the same totals: bytes, files added and updated, partitions, records written and updated,
// errors and (where the release reports it) the completion time; and the write points are
// exactly those rows, active and archived alike.
func TestTrendsMatchShowCommits(t *testing.T) {
	fixtures := []string{"mor-archived-1.1.1", "mor-archived-0.14.0", "tt-archive-0.14.0", "tt-archive-1.1.1",
		"cow-services-0.12.2", "cow-services-0.15.0", "cow-services-1.0.2", "cow-services-1.2.0"}
	for _, fx := range fixtures {
		t.Run(fx, func(t *testing.T) {
			_, tr := trendsFixture(t, fx)
			byKey := map[string]*TrendPoint{}
			writes := map[bool]int{}
			for i := range tr.Points {
				p := &tr.Points[i]
				if p.IsWrite() {
					byKey[p.Requested+"/"+archivedKey(p.Archived)] = p
					writes[p.Archived]++
				}
			}
			if tr.Pending != 0 {
				t.Errorf("%d write instants without metadata", tr.Pending)
			}
			compared := 0
			for _, archived := range []bool{false, true} {
				name := "show_commits.json"
				if archived {
					name = "show_archived_commits.json"
				}
				var o oracleTable
				b, err := os.ReadFile(filepath.Join("..", "testdata", "fixtures", fx, "oracle", name))
				if err != nil {
					t.Fatal(err)
				}
				if err := json.Unmarshal(b, &o); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if len(o.Rows) != writes[archived] {
					t.Errorf("%s: %d rows, trends have %d write points (archived %v)", name, len(o.Rows), writes[archived], archived)
				}
				for _, row := range o.Rows {
					ct, _ := o.col(row, "commit_time").(string)
					p := byKey[ct+"/"+archivedKey(archived)]
					if p == nil {
						t.Errorf("%s %s: no trends point", name, ct)
						continue
					}
					if a, ok := o.col(row, "action").(string); ok && a != p.Action {
						t.Errorf("%s %s: action %s, oracle %s", name, ct, p.Action, a)
					}
					if st, ok := o.col(row, "state_transition_time").(string); ok && !sameCompletionTime(p.In, st) {
						t.Errorf("%s %s: completed %s, oracle %s", name, ct, p.Completed, st)
					}
					got := []int64{p.BytesWritten, int64(p.FilesAdded), int64(p.FilesUpdated), int64(p.Partitions),
						p.RecordsWritten, p.Updated, p.Errors}
					for i, c := range []string{"total_bytes_written", "total_files_added", "total_files_updated",
						"total_partitions_written", "total_records_written", "total_update_records_written", "total_errors"} {
						if v, _ := o.col(row, c).(float64); int64(v) != got[i] {
							t.Errorf("%s %s: %s = %d, oracle %v", name, ct, c, got[i], o.col(row, c))
						}
					}
					compared++
				}
			}
			t.Logf("%d rows compared", compared)
			if compared < 15 {
				t.Errorf("only %d rows compared", compared)
			}
		})
	}
}

func archivedKey(a bool) string {
	if a {
		return "archived"
	}
	return "active"
}

// sameCompletionTime: a stored completion time equals Hudi's; one derived from a file's
// modification time (a zip keeps it to the second) is within the second after it.
func sameCompletionTime(in *timeline.Instant, oracle string) bool {
	if !in.CompletionDerived {
		return in.CompletionTime == oracle
	}
	ours, ok1 := timeline.ParseInstantTime(in.CompletionTime, time.UTC)
	theirs, ok2 := timeline.ParseInstantTime(oracle, time.UTC)
	d := theirs.Sub(ours)
	return ok1 && ok2 && d > -time.Second && d < 2*time.Second
}

// An LSM-archived write keeps only its sums; its detail reads the metadata from the history
// file again: the same records written as the point, and the write stats' JSON.
func TestArchivedLSMDetailReadsAgain(t *testing.T) {
	s, tr := trendsFixture(t, "tt-archive-1.1.1")
	for _, p := range tr.Points {
		if !p.Archived || !p.IsWrite() || p.RecordsWritten == 0 {
			continue
		}
		if p.In.Commit != nil {
			t.Errorf("%s keeps its full metadata", p.Requested)
		}
		d, err := s.InstantDetails(context.Background(), p.In)
		if err != nil || d.Commit == nil || !strings.Contains(string(d.Content), `"partitionToWriteStats"`) {
			t.Fatalf("%s: %v %v %.200s", p.Requested, err, d, d.Content)
		}
		if got := d.Commit.Totals(); got.NumWrites != p.RecordsWritten || got.TotalBytesWritten != p.BytesWritten {
			t.Errorf("%s: detail %+v, point %d records %d bytes", p.Requested, got, p.RecordsWritten, p.BytesWritten)
		}
		return
	}
	t.Fatal("no archived write with records")
}
