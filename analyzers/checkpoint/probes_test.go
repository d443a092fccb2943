package checkpoint_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/checkpoint"
	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/storage"
)

// probeFile is oracle/incremental_probes*.json: real Spark incremental queries, one per begin
// value, made by testdata/gen/probe_incremental.py with the named reader release.
type probeFile struct {
	Reader       string `json:"reader"`
	TableVersion int    `json:"tableVersion"`
	Probes       []struct {
		ID       string  `json:"id"`
		Kind     string  `json:"kind"`
		Begin    string  `json:"begin"`
		End      *string `json:"end"`
		Fallback *bool   `json:"fallback_full_table_scan"`
		Instant  *struct {
			Requested  string `json:"requested_time"`
			Completion string `json:"completion_time"`
			Action     string `json:"action"`
		} `json:"instant"`
		RowCount    int             `json:"row_count"`
		CommitTimes []string        `json:"commit_times"`
		PerCommit   map[string]int  `json:"rows_per_commit_time"`
		Error       json.RawMessage `json:"error"` // null, or {class, message, …}
	} `json:"probes"`
}

// Every probe Spark answered agrees with `hudiscope checkpoint` for the same reader release:
// the rows came only from writes the check says the read covers, a read the check calls empty
// returned nothing, and the re-read verdict is exactly "the named instant's rows came back".
func TestCheckpointAgreesWithSparkProbes(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "fixtures", "*", "oracle", "incremental_probes*.json"))
	if len(files) == 0 {
		t.Skip("no incremental probe oracles in testdata/fixtures")
	}
	ctx := context.Background()
	checked := 0
	for _, f := range files {
		fx := filepath.Base(filepath.Dir(filepath.Dir(f)))
		t.Run(fx+"/"+strings.TrimSuffix(filepath.Base(f), ".json"), func(t *testing.T) {
			var pf probeFile
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &pf); err != nil {
				t.Fatal(err)
			}
			rd, err := checkpoint.ReaderFor(pf.Reader)
			if err != nil {
				t.Fatal(err)
			}
			tbl, err := hudi.Open(ctx, filepath.Join(filepath.Dir(filepath.Dir(f)), "table.zip"), storage.Options{})
			if err != nil {
				t.Fatal(err)
			}
			tl, err := tbl.ActiveTimeline(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if err := tbl.LoadArchived(ctx, tl); err != nil {
				t.Fatal(err)
			}
			// Commits whose rows survive at all: a full read (begin 000, no end) shows them.
			surviving := map[string]bool{}
			for _, p := range pf.Probes {
				if p.Begin == "000" && p.End == nil && !failed(p.Error) {
					for _, c := range p.CommitTimes {
						surviving[c] = true
					}
				}
			}
			for _, p := range pf.Probes {
				if p.End != nil || failed(p.Error) {
					continue // windows with an end and failed reads are documented, not judged here
				}
				r := checkpoint.Check(ctx, tbl, tl, p.Begin, rd)
				// The probe's own fallback setting: 0.x scans the whole table with it on.
				plan := checkpoint.PlanRead(tl, checkpoint.Query{Begin: p.Begin, Fallback: p.Fallback, MOR: tbl.IsMOR()}, rd)
				covered := map[string]bool{}
				for _, in := range plan.Writes {
					covered[in.RequestedTime] = true
				}
				if plan.Unknown == "" && !plan.WholeTable { // archived begins too: the plan reads the archived timeline
					for _, c := range p.CommitTimes {
						if !covered[c] {
							t.Errorf("%s %s begin %s (Hudi %s): Spark returned rows of %s, which the check does not cover (covers %v)",
								p.ID, p.Kind, p.Begin, pf.Reader, c, keys(covered))
						}
					}
					if len(plan.Writes) == 0 && p.RowCount != 0 {
						t.Errorf("%s %s begin %s: the check covers nothing, Spark returned %d rows", p.ID, p.Kind, p.Begin, p.RowCount)
					}
				}
				if p.Instant != nil && (p.Kind == "requested" || p.Kind == "completion" || strings.HasPrefix(p.Kind, "savepoint") || strings.HasPrefix(p.Kind, "clustering")) {
					own := p.Instant.Requested
					returned := p.PerCommit[own] > 0
					if !surviving[own] && !returned {
						continue // none of its rows survive later writes: nothing to re-read either way
					}
					if r.ReRead != returned {
						t.Errorf("%s %s begin %s (Hudi %s, %s %s): check says reRead=%v, Spark returned %d of its rows",
							p.ID, p.Kind, p.Begin, pf.Reader, p.Instant.Action, own, r.ReRead, p.PerCommit[own])
					}
				}
				checked++
			}
		})
	}
	t.Logf("%d probes checked in %d oracle files", checked, len(files))
}

func failed(e json.RawMessage) bool { return len(e) > 0 && string(e) != "null" }

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
