package checkpoint_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/checkpoint"
	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/storage"
)

func mustReader(t testing.TB, release string) checkpoint.Reader {
	t.Helper()
	rd, err := checkpoint.ReaderFor(release)
	if err != nil {
		t.Fatal(err)
	}
	return rd
}

// fixture returns a path under the project's own testdata/fixtures.
func fixture(t testing.TB, rel string) string {
	t.Helper()
	p := filepath.Join("..", "..", "testdata", "fixtures", rel)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("fixture %s missing: %v", p, err)
	}
	return p
}

// The incr fixture: COW, three commits written by Hudi 1.2.0 (table version 9). Spark's own
// incremental query (oracle/incremental.json) returned 4 rows from c1's requested time and 3
// from its completion time: the checkpoint trap this tool exists to catch.
func TestCheckpointIncrFixture(t *testing.T) {
	ctx := context.Background()
	dir := fixture(t, "incr-1.2.0")
	var oracle struct {
		C1Requested  string `json:"c1_requested_time"`
		C1Completion string `json:"c1_completion_time"`
		Commits      []struct {
			Requested  string `json:"requested_time"`
			Completion string `json:"completion_time"`
		} `json:"commits"`
		BeginRequested struct {
			RowCount int `json:"row_count"`
		} `json:"begin_requested"`
		BeginCompletion struct {
			RowCount int `json:"row_count"`
		} `json:"begin_completion"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "oracle", "incremental.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &oracle); err != nil {
		t.Fatal(err)
	}
	// Checked by hand against the timeline file names in table.zip.
	if oracle.C1Requested != "20261129155610512" || oracle.C1Completion != "20261129155625814" {
		t.Fatalf("oracle c1 = %s/%s; fixture changed?", oracle.C1Requested, oracle.C1Completion)
	}
	if oracle.BeginRequested.RowCount != 4 || oracle.BeginCompletion.RowCount != 3 {
		t.Fatalf("oracle rows = %d/%d, want 4/3", oracle.BeginRequested.RowCount, oracle.BeginCompletion.RowCount)
	}
	tbl, err := hudi.Open(ctx, filepath.Join(dir, "table.zip"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tl, err := tbl.ActiveTimeline(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(tl.Instants) != len(oracle.Commits) {
		t.Fatalf("instants = %d, want %d", len(tl.Instants), len(oracle.Commits))
	}
	for i, c := range oracle.Commits {
		in := tl.Instants[i]
		if in.RequestedTime != c.Requested || in.CompletionTime != c.Completion || in.CompletionDerived {
			t.Errorf("instant %d = %s→%s, want %s→%s", i, in.RequestedTime, in.CompletionTime, c.Requested, c.Completion)
		}
	}
	// c1 inserted 3 rows; c2 upserted 2 (1 update, 1 insert); c3 updated 1.
	wantTotals := [][3]int64{{3, 3, 0}, {4, 1, 1}, {4, 0, 1}} // writes, inserts, updates
	for i, w := range wantTotals {
		tt := tl.Instants[i].Totals
		if tt.NumWrites != w[0] || tt.NumInserts != w[1] || tt.NumUpdateWrites != w[2] {
			t.Errorf("instant %d totals = %+v, want writes/inserts/updates %v", i, tt, w)
		}
	}

	rd := mustReader(t, "1.2.0")
	r := checkpoint.Check(ctx, tbl, tl, oracle.C1Requested, rd)
	if r.Match != checkpoint.MatchRequested || !r.ReRead || len(r.Covered) != 3 || r.Covered[0] != tl.Instants[0] {
		t.Errorf("c1 requested: match %s reRead %v covered %d, want requested/true/3", r.Match, r.ReRead, len(r.Covered))
	}
	r = checkpoint.Check(ctx, tbl, tl, oracle.C1Completion, rd)
	if r.Match != checkpoint.MatchCompletion || r.ReRead || len(r.Covered) != 2 {
		t.Errorf("c1 completion: match %s reRead %v covered %d, want completion/false/2", r.Match, r.ReRead, len(r.Covered))
	}
	if !r.InActiveTimeline || r.ActiveStart != oracle.C1Requested {
		t.Errorf("active start = %s (in %v), want %s", r.ActiveStart, r.InActiveTimeline, oracle.C1Requested)
	}
	r = checkpoint.Check(ctx, tbl, tl, "20200101000000000", rd)
	if r.Match != checkpoint.MatchNone || r.InActiveTimeline || len(r.Covered) != 3 {
		t.Errorf("old value: match %s inActive %v covered %d", r.Match, r.InActiveTimeline, len(r.Covered))
	}
}

// Table version 6 compares begin.instanttime with requested times: c1's own instant time does
// not re-read c1.
func TestCheckpointV6RequestedOrder(t *testing.T) {
	ctx := context.Background()
	tbl, err := hudi.Open(ctx, filepath.Join(corpusDir(t), "sample_table/cow/v6_complexkeygen_hivestyle.zip"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tl, _ := tbl.ActiveTimeline(ctx)
	r := checkpoint.Check(ctx, tbl, tl, "20240418173213674", mustReader(t, "0.15.0"))
	if r.CompletionOrdered || r.ReRead || len(r.Covered) != 1 || r.Covered[0].RequestedTime != "20240418173235694" {
		t.Errorf("v6: completionOrdered %v reRead %v covered %v", r.CompletionOrdered, r.ReRead, r.Covered)
	}
}

// The same workload on Hudi 0.15 (table version 6) and 0.12 (table version 5): Spark's
// incremental query from c1's instant time returned 3 rows, all written by c2 and c3 — no
// re-read, because 0.x compares begin.instanttime with requested times. The check must agree.
func TestCheckpointIncr0x(t *testing.T) {
	for _, fx := range []string{"incr-0.15.0", "incr-0.12.2"} {
		t.Run(fx, func(t *testing.T) { checkIncr0x(t, fx) })
	}
}

func checkIncr0x(t *testing.T, fx string) {
	ctx := context.Background()
	dir := fixture(t, fx)
	var oracle struct {
		C1             string `json:"c1_requested_time"`
		BeginRequested struct {
			RowCount int     `json:"row_count"`
			Rows     [][]any `json:"rows"`
		} `json:"begin_requested"`
	}
	b, _ := os.ReadFile(filepath.Join(dir, "oracle", "incremental.json"))
	if err := json.Unmarshal(b, &oracle); err != nil {
		t.Fatal(err)
	}
	if oracle.C1 == "" || oracle.BeginRequested.RowCount != 3 {
		t.Fatalf("oracle: %s %d", oracle.C1, oracle.BeginRequested.RowCount)
	}
	tbl, err := hudi.Open(ctx, filepath.Join(dir, "table.zip"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tl, _ := tbl.ActiveTimeline(ctx)
	r := checkpoint.Check(ctx, tbl, tl, oracle.C1, mustReader(t, strings.TrimPrefix(fx, "incr-")))
	if r.CompletionOrdered || r.ReRead || r.Match != checkpoint.MatchRequested || len(r.Covered) != 2 {
		t.Fatalf("v6 checkpoint: ordered %v reRead %v match %s covered %d", r.CompletionOrdered, r.ReRead, r.Match, len(r.Covered))
	}
	covered := map[string]bool{}
	for _, in := range r.Covered {
		covered[in.RequestedTime] = true
	}
	for _, row := range oracle.BeginRequested.Rows {
		if !covered[row[0].(string)] {
			t.Errorf("Spark returned a row of %v, which the check does not cover", row[0])
		}
	}
}

// corpusDir is the external hudi-rs test corpus (../shared from the repo root).
func corpusDir(t testing.TB) string {
	t.Helper()
	dir, err := filepath.Abs("../../../shared/testdata/hudi-rs/crates/test/data")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("external corpus not present at %s (it lives in ../shared/testdata): %v", dir, err)
	}
	return dir
}

// The two begin values the views show per reader line: "resume after the latest commit" is
// what a pipeline stores after consuming c3 (the read from it returns nothing, so nothing is
// read twice) and "earliest readable" reads every retained write without re-reading one.
// Times checked by hand against the fixtures' oracle/incremental.json commits (c3 is the
// latest write of each incr table); 1.0.x compares completion times inclusively, so its
// resume value is one millisecond after c3's completion.
func TestReaderBeginsResumeAndEarliest(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		fx, release                      string
		resume, after, earliest, readsFr string
		covered                          int
	}{
		{"incr-1.2.0", "1.2.0", "20261129155639090", "20261129155632267", "20261129155625813", "20261129155610512", 3},
		{"incr-1.0.2", "1.0.2", "20261130195834189", "20261130195828786", "20261130195817815", "20261130195734674", 3},
		{"incr-1.0.2", "1.2.0", "20261130195834188", "20261130195828786", "20261130195817815", "20261130195734674", 3},
		{"incr-0.15.0", "0.15.0", "20261129165255808", "20261129165255808", "20261129165222975", "20261129165222976", 3},
	}
	for _, c := range cases {
		tbl, err := hudi.Open(ctx, filepath.Join(fixture(t, c.fx), "table.zip"), storage.Options{})
		if err != nil {
			t.Fatal(err)
		}
		tl, err := tbl.ActiveTimeline(ctx)
		if err != nil {
			t.Fatal(err)
		}
		rd := mustReader(t, c.release)
		b, ok := checkpoint.ReaderBegins(ctx, tbl, tl, rd)
		if !ok {
			t.Fatalf("%s/%s: no begins", c.fx, c.release)
		}
		if b.Resume != c.resume || b.ResumeAfter != c.after || b.Earliest.Begin != c.earliest || b.Earliest.ReadsFrom != c.readsFr {
			t.Errorf("%s/%s: resume %s after %s, earliest %s from %s; want %s after %s, %s from %s", c.fx, c.release,
				b.Resume, b.ResumeAfter, b.Earliest.Begin, b.Earliest.ReadsFrom, c.resume, c.after, c.earliest, c.readsFr)
		}
		if r := checkpoint.Check(ctx, tbl, tl, b.Resume, rd); r.ReRead || len(r.Covered) != 0 {
			t.Errorf("%s/%s: resume %s re-reads %v, covers %d, want nothing", c.fx, c.release, b.Resume, r.ReRead, len(r.Covered))
		}
		if r := checkpoint.Check(ctx, tbl, tl, b.Earliest.Begin, rd); r.ReRead || len(r.Covered) != c.covered || !r.InCleanerRetention || !r.InActiveTimeline {
			t.Errorf("%s/%s: earliest %s: reRead %v covers %d (want %d), retained %v, active %v", c.fx, c.release,
				b.Earliest.Begin, r.ReRead, len(r.Covered), c.covered, r.InCleanerRetention, r.InActiveTimeline)
		}
	}
}
