package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/internal/testutil"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/view"
)

// TestTimelineTextLateMark (issue 28): `timeline -o text` lays out the view layer's rows, so
// it marks what the explorer's Timeline pane marks ↯ and the report notes. Before, its notes
// column was always empty. On the corpus table with its first commit moved to complete at
// 20261129155632000 (after 20261129155626253, requested later, completed), 20261129155610512 is late and
// 20261129155626253 (neither JSON nor Avro) unreadable.
func TestTimelineTextLateMark(t *testing.T) {
	dir := testutil.LateTable(t, "..")
	s, err := model.Load(context.Background(), model.Options{Location: dir, ClusterDefaults: "-", Steps: []model.Step{model.StepTimeline}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	instants := s.Timeline.Instants
	for i := range instants {
		s.StreamCommits(context.Background(), instants, true)(i)
	}
	rows := view.TimelineRows(instants)
	var late []string
	for _, r := range rows {
		if r.Late {
			late = append(late, r.In.RequestedTime)
		}
	}
	if strings.Join(late, ",") != "20261129155610512" {
		t.Fatalf("view: late %v, want [20261129155610512]", late)
	}
	var b bytes.Buffer
	if err := writeTimelineText(&b, s.Config, instants, instants); err != nil {
		t.Fatal(err)
	}
	lines := map[string]string{}
	for _, l := range strings.Split(b.String(), "\n") {
		if f := strings.Fields(l); len(f) > 0 {
			lines[f[0]] = l
		}
	}
	if l := lines["20261129155610512"]; !strings.Contains(l, "20261129155632000") || !strings.HasSuffix(strings.TrimSpace(l), view.LateNote) {
		t.Errorf("late instant's line %q: want its completion 20261129155632000 and %q", l, view.LateNote)
	}
	if l := lines["20261129155626253"]; !strings.Contains(l, "unreadable: ") || strings.Contains(l, view.LateNote) {
		t.Errorf("unreadable instant's line %q: want the read error, no late note", l)
	}
	if l := lines["20261129155632267"]; strings.Contains(l, view.LateNote) || strings.Contains(l, "unreadable") {
		t.Errorf("clean instant's line %q has notes", l)
	}
}

// `timeline -o text` notes a commit's write errors and a stalled pending write, set off from
// the duration column (the notes cell used to follow it with no gap: "39.166sunreadable"), on a
// copy of cow-services-0.15.0: commit 20261129165634001 edited to count 3+3 failed records of
// 20 attempted, an inflight commit 20261129165700000 left behind later completed ones.
func TestTimelineTextWriteErrorsAndStalled(t *testing.T) {
	dir := testutil.WriteErrorsTable(t, "..")
	s, err := model.Load(context.Background(), model.Options{Location: dir, ClusterDefaults: "-", Steps: []model.Step{model.StepTimeline}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	instants := s.Timeline.Instants
	for i := range instants {
		s.StreamCommits(context.Background(), instants, true)(i)
	}
	var out bytes.Buffer
	if err := writeTimelineText(&out, s.Config, instants, instants); err != nil {
		t.Fatal(err)
	}
	lines := map[string]string{}
	for _, l := range strings.Split(out.String(), "\n") {
		if f := strings.Fields(l); len(f) > 0 {
			lines[f[0]] = l
		}
	}
	if l := lines["20261129165634001"]; !strings.HasSuffix(l, "  6 of 20 records failed to write") {
		t.Errorf("commit with write errors: %q", l)
	}
	if l := lines["20261129165700000"]; !strings.Contains(l, "INFLIGHT") || !strings.HasSuffix(l, "  "+view.StalledNote) {
		t.Errorf("stalled inflight commit: %q", l)
	}
}
