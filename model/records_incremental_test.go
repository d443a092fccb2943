package model

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/checkpoint"
	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/records"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// incrProbeFile is oracle/incremental_probes*.json (testdata/README.md): real Spark
// incremental queries, one per begin value, by the named reader release.
type incrProbeFile struct {
	Reader string `json:"reader"`
	Probes []struct {
		ID        string          `json:"id"`
		Kind      string          `json:"kind"`
		Begin     string          `json:"begin"`
		End       *string         `json:"end"`
		Fallback  *bool           `json:"fallback_full_table_scan"`
		RowCount  *int            `json:"row_count"`
		PerCommit map[string]int  `json:"rows_per_commit_time"`
		Error     json.RawMessage `json:"error"`
	} `json:"probes"`
}

// `incremental --count --by commit` equals every Spark probe without an end time that
// succeeded, for the probe's reader release. Probes with an end time are checked too, but
// only reported (Spark reads them as of the end, from older file slices that a clean may
// have deleted).
func TestIncrementalCountsAgreeWithSparkProbes(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "fixtures", "*", "oracle", "incremental_probes*.json"))
	if len(files) == 0 {
		t.Skip("no incremental probe oracles in testdata/fixtures")
	}
	ctx := context.Background()
	for _, f := range files {
		fx := filepath.Base(filepath.Dir(filepath.Dir(f)))
		name := fx + "/" + strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			var pf incrProbeFile
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &pf); err != nil {
				t.Fatal(err)
			}
			ft := openTable(t, filepath.Join(filepath.Dir(filepath.Dir(f)), "table.zip"), true)
			tbl, tl, view := ft.t, ft.tl, ft.view
			rds, err := checkpoint.ReadersFor(pf.Reader, tbl.Version())
			if err != nil {
				t.Skipf("reader %s cannot read table version %d: %v", pf.Reader, tbl.Version(), err)
			}
			agree, total, skipped := 0, 0, 0
			for _, p := range pf.Probes {
				if p.End != nil || failed(p.Error) || p.RowCount == nil {
					continue
				}
				total++
				q := IncrementalQuery{Begin: p.Begin, Reader: rds[0], Fallback: p.Fallback}
				got, err := incrCounts(ctx, tbl, tl, view, q)
				var unknown ErrRowsUnknown
				if errors.As(err, &unknown) {
					skipped++
					t.Logf("%s %s skipped: %v", p.ID, p.Kind, err)
					continue
				}
				if err != nil {
					t.Errorf("%s %s begin %s: %v", p.ID, p.Kind, p.Begin, err)
					continue
				}
				want := p.PerCommit
				if want == nil {
					want = map[string]int{}
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s %s begin %s fallback %v (Hudi %s): got %v, Spark %d rows %v", p.ID, p.Kind, p.Begin, fmtBool(p.Fallback), pf.Reader, got, *p.RowCount, want)
					continue
				}
				agree++
			}
			t.Logf("%s: %d of %d probes agree, %d skipped", name, agree, total, skipped)
			// Only a read at the archive boundary may be left unreproduced: a table that archived
			// nothing is answered in full.
			if skipped > 0 && len(tl.Archived) == 0 {
				t.Errorf("%s: %d probes skipped on a table with no archived instant", name, skipped)
			}
			// Windows with an end are read as of the end: reported, not judged (a clean may
			// have deleted the older slices Spark read).
			endAgree, endTotal := 0, 0
			for _, p := range pf.Probes {
				if p.End == nil || failed(p.Error) || p.RowCount == nil {
					continue
				}
				endTotal++
				got, err := incrCounts(ctx, tbl, tl, view, IncrementalQuery{Begin: p.Begin, End: *p.End, Reader: rds[0], Fallback: p.Fallback})
				if err == nil && len(got) == len(p.PerCommit) && (len(got) == 0 || reflect.DeepEqual(got, p.PerCommit)) {
					endAgree++
				} else {
					t.Logf("%s %s begin %s end %s: got %v (%v), Spark %v", p.ID, p.Kind, p.Begin, *p.End, got, err, p.PerCommit)
				}
			}
			if endTotal > 0 {
				t.Logf("%s: with an end time, %d of %d probes agree (not judged)", name, endAgree, endTotal)
			}
		})
	}
}

func failed(e json.RawMessage) bool { return len(e) > 0 && string(e) != "null" }

func fmtBool(b *bool) string {
	if b == nil {
		return "unset"
	}
	if *b {
		return "true"
	}
	return "false"
}

func incrCounts(ctx context.Context, t *hudi.Table, tl *timeline.Timeline, view *filegroup.View, q IncrementalQuery) (map[string]int, error) {
	got, _, err := CountRows(func(fn func(records.Record) error) (records.Stats, error) {
		return IncrementalRows(ctx, t, tl, view, q, fn)
	})
	return got, err
}
