package view

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/internal/testutil"
	"github.com/hudiscope/hudiscope/model"
)

// issuesTable is testutil.WriteErrorsTable (cow-services-0.15.0, newest completed instant
// 20261129165727052, commit 20261129165634001 counting 3+3 failed records) plus, behind
// completed instants, the inflight commit 20261129165700000 with a real inflight plan and a
// requested clean 20261129165710000 (what a killed application leaves), and an inflight
// commit 20261129165800000 after the newest completed one (a write still running).
func issuesTable(t *testing.T) string {
	t.Helper()
	dir := testutil.WriteErrorsTable(t, "..")
	hd := filepath.Join(dir, ".hoodie")
	inflight, err := os.ReadFile(filepath.Join(hd, "20261129165634001.inflight"))
	if err != nil {
		t.Fatal(err)
	}
	plan, err := os.ReadFile(filepath.Join(hd, "20261129165700553.clean.requested"))
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string][]byte{
		"20261129165700000.commit.requested": nil, "20261129165700000.inflight": inflight,
		"20261129165710000.clean.requested":  plan,
		"20261129165800000.commit.requested": nil, "20261129165800000.inflight": inflight,
	} {
		if err := os.WriteFile(filepath.Join(hd, name), content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func loadIssues(t *testing.T, dir string) *Snapshot {
	t.Helper()
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	s, err := model.Load(context.Background(), model.Options{Location: dir, ClusterDefaults: "-",
		Steps: []model.Step{model.StepTimeline}, Now: func() time.Time { return now }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return Build(s)
}

// A commit completed with failed records, and pending work a killed writer leaves, are shown:
// the Overview lists the pending writes and the clean (the two behind a completed instant as
// stalled), names the commit's write errors, and counts three timeline problems, where it
// said "pending: no compaction or clustering plan" and "problems: none".
func TestOverviewShowsWriteErrorsAndPendingWork(t *testing.T) {
	v := loadIssues(t, issuesTable(t))
	f := Format{Sep: " · ", Instant: func(s string) string { return s }, Age: func(time.Time) string { return "AGE" }}
	var lines []string
	for _, x := range v.Overview(Begins{}) {
		switch x.Label {
		case "pending", "write errors", "problems", "":
			lines = append(lines, x.Label+": "+x.Text(f))
		}
	}
	want := []string{
		"pending: commit inflight 20261129165700000 (AGE) · stalled: older than the newest completed instant",
		": clean requested 20261129165710000 (AGE) · stalled: older than the newest completed instant",
		": commit inflight 20261129165800000 (AGE)",
		"write errors: commit 20261129165634001: 6 of 20 records failed to write",
		"problems: 3 on the timeline (write errors, stalled instants)",
	}
	if !slices.Equal(lines, want) {
		t.Errorf("Overview:\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	var msgs []string
	for _, p := range v.Problems {
		if p.Source == SourceTimeline {
			msgs = append(msgs, p.File+": "+p.Message)
		}
	}
	if len(msgs) != 3 || !strings.HasPrefix(msgs[0], "instant 20261129165634001: commit 20261129165634001 completed with 6 of 20 records failed to write") ||
		!strings.HasPrefix(msgs[1], "instant 20261129165700000: commit inflight 20261129165700000 is older than the newest completed instant 20261129165727052: a stalled or abandoned write") ||
		!strings.HasPrefix(msgs[2], "instant 20261129165710000: clean requested 20261129165710000 is older than the newest completed instant 20261129165727052: a stalled or abandoned clean") {
		t.Errorf("timeline problems:\n%s", strings.Join(msgs, "\n"))
	}
	if v.ProblemCount() != 3 {
		t.Errorf("%d problems counted, want 3", v.ProblemCount())
	}
	// The timeline rows carry the same notes.
	notes := map[string][]string{}
	for _, r := range TimelineRows(v.Model.Timeline.Instants) {
		if len(r.Notes) > 0 {
			notes[r.In.RequestedTime] = r.Notes
		}
	}
	if len(notes) != 3 || notes["20261129165634001"][0] != "6 of 20 records failed to write" ||
		notes["20261129165700000"][0] != StalledNote || notes["20261129165710000"][0] != StalledNote {
		t.Errorf("row notes %v", notes)
	}
}

// The drill-down into a commit with write errors says how many records failed and lists the
// files that counted them (3 failed beside 4 written, and 3 beside 1, in 2024-01-02).
func TestInstantDetailShowsWriteErrors(t *testing.T) {
	v := loadIssues(t, issuesTable(t))
	var in *timeline.Instant
	for _, x := range v.Model.Timeline.Instants {
		if x.RequestedTime == "20261129165634001" {
			in = x
		}
	}
	if in == nil {
		t.Fatal("no commit 20261129165634001")
	}
	d, err := v.Model.InstantDetails(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	det := InstantDetail(in, d)
	got := ""
	for _, kv := range det.Info {
		if kv[0] == "write errors" {
			got = kv[1]
		}
	}
	if got != "6 of 20 records failed to write (totalWriteErrors); the commit completed without them" {
		t.Errorf("write errors info %q", got)
	}
	var rows []string
	for _, tb := range det.Tables {
		if tb.Title == "write errors" {
			for i := range tb.Rows {
				c := tb.Texts(i)
				rows = append(rows, c[0]+" "+c[3]+" "+c[4])
			}
		}
	}
	if !slices.Equal(rows, []string{"2024-01-02 4 3", "2024-01-02 1 3"}) {
		t.Errorf("write errors table %v", rows)
	}
}

// The same on a 1.x timeline (cow-services-1.2.0, newest completed instant requested at
// 20261129162134323): an inflight commit and a requested clean left before it are pending and
// stalled, and the problems line names only the kind there is.
func TestOverviewStalledOnV9Timeline(t *testing.T) {
	zip := "../testdata/fixtures/cow-services-1.2.0/table.zip"
	if _, err := os.Stat(zip); err != nil {
		t.Skipf("fixture %s not present: %v", zip, err)
	}
	dir := testutil.UnzipTable(t, zip, t.TempDir())
	tl := filepath.Join(dir, ".hoodie", "timeline")
	plan, err := os.ReadFile(filepath.Join(tl, "20261129162049827.clean.requested"))
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string][]byte{"20261129162100000.commit.requested": nil, "20261129162100000.inflight": nil, "20261129162100500.clean.requested": plan} {
		if err := os.WriteFile(filepath.Join(tl, name), content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	v := loadIssues(t, dir)
	f := Format{Sep: " · ", Instant: func(s string) string { return s }, Age: func(time.Time) string { return "AGE" }}
	var lines []string
	for _, x := range v.Overview(Begins{}) {
		switch x.Label {
		case "pending", "write errors", "problems":
			lines = append(lines, x.Label+": "+x.Text(f))
		case "":
			if strings.Contains(x.Text(f), "requested") || strings.Contains(x.Text(f), "inflight") {
				lines = append(lines, ": "+x.Text(f))
			}
		}
	}
	want := []string{
		"pending: commit inflight 20261129162100000 (AGE) · stalled: older than the newest completed instant",
		": clean requested 20261129162100500 (AGE) · stalled: older than the newest completed instant",
		"problems: 2 on the timeline (stalled instants)",
	}
	if !slices.Equal(lines, want) {
		t.Errorf("Overview:\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

// The same on tables real Hudi 0.14.0 wrote (issue 29 items 7 and 9): killed-writer-0.14.0
// holds an inflight commit of a SIGKILLed application (20261201235909641) and a clean
// scheduled but never run (20261201235846045); bootstrap-full-0.14.0's FULL_RECORD bootstrap
// commit 00000000000002 completed with 8 failed records and 1 written (show_commits:
// total_records_written 1, total_errors 8).
func TestOverviewOnRealKilledWriterAndWriteErrors(t *testing.T) {
	f := Format{Sep: " · ", Instant: func(s string) string { return s }, Age: func(time.Time) string { return "AGE" }}
	lines := func(fx string) []string {
		zip := filepath.Join("..", "testdata", "fixtures", fx, "table.zip")
		if _, err := os.Stat(zip); err != nil {
			t.Skipf("fixture %s not present: %v", zip, err)
		}
		var out []string
		for _, x := range loadIssues(t, zip).Overview(Begins{}) {
			switch x.Label {
			case "pending", "write errors", "":
				out = append(out, x.Label+": "+x.Text(f))
			}
		}
		return out
	}
	if got, want := lines("killed-writer-0.14.0"), []string{
		"pending: clean requested 20261201235846045 (AGE)",
		": commit inflight 20261201235909641 (AGE)",
	}; !slices.Equal(got, want) {
		t.Errorf("killed-writer-0.14.0 Overview:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	got := lines("bootstrap-full-0.14.0")
	if !slices.Contains(got, "write errors: commit 00000000000002: 8 of 9 records failed to write") {
		t.Errorf("bootstrap-full-0.14.0 Overview:\n%s", strings.Join(got, "\n"))
	}
	v := loadIssues(t, filepath.Join("..", "testdata", "fixtures", "bootstrap-full-0.14.0", "table.zip"))
	in := v.Model.Timeline.Instants[0]
	if in.RequestedTime != "00000000000002" || in.Totals.TotalWriteErrors != 8 || in.Totals.NumWrites != 1 {
		t.Errorf("bootstrap commit %s: %d errors, %d written; show_commits 8 and 1", in.RequestedTime, in.Totals.TotalWriteErrors, in.Totals.NumWrites)
	}
}
