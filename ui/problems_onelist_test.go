package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
	"github.com/hudiscope/hudiscope/view"
)

// TestProblemsOneList (issue 28): a table with a corrupt instant file, loaded with a --props
// file that is not properties (a zstd event log). Before the view layer the Overview and the
// badge counted 2 (reader log + failed step), the problems view listed 2, and `report -o json`
// listed only the reader's 1. Now every surface shows the view's one list: the same 2 problems,
// the same messages, in the same order.
func TestProblemsOneList(t *testing.T) {
	table := "../testdata/bad/instant-invalid-json/table"
	props := "../testdata/fixtures/cdc-0.15.0/local-1796078932238.zstd"
	needFixture(t, table)
	needFixture(t, props)
	s, err := model.Load(context.Background(), model.Options{Location: table, Props: props,
		ClusterDefaults: "-", Now: func() time.Time { return fixedNow }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"step effective configuration: read --props: " + props + ": not a properties file: binary content (byte 0x00 at offset 4)",
		".hoodie/timeline/20261129155626253_20261129155631861.commit: neither valid JSON nor an Avro object container file",
		".hoodie/metadata: cannot list files from the metadata table, listing storage instead: metadata table: " +
			"read .hoodie/metadata/.hoodie/hoodie.properties: open .hoodie/metadata/.hoodie/hoodie.properties: no such file or directory",
	}
	v := view.Build(s)
	var got []string
	for _, p := range v.Problems {
		got = append(got, p.String())
	}
	if v.ProblemCount() != len(want) || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("view: %d problems\n%s\nwant\n%s", v.ProblemCount(), strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The fleet row counts the same list (before, only the reader's log: 2, not 3).
	if row := model.RowFromSnapshot(model.FleetTarget{Name: "t", Location: table}, s, nil, fixedNow); row.Problems != len(want) {
		t.Errorf("fleet row: %d problems, want %d as the Overview counts", row.Problems, len(want))
	}
	if p := v.Problems[0]; p.Source != view.SourceStep || p.Severity != view.Error {
		t.Errorf("the failed step is %s/%s, want step/error", p.Source, p.Severity)
	}
	if p := v.Problems[1]; p.Source != view.SourceReader || p.Severity != view.Warning ||
		p.File != table+"/.hoodie/timeline/20261129155626253_20261129155631861.commit" {
		t.Errorf("the corrupt instant is %s/%s %q, want reader/warning and the file as given", p.Source, p.Severity, p.File)
	}

	// report -o json: problems is the same list; problemDetails the same in the one shape.
	var buf bytes.Buffer
	if err := report.JSON(context.Background(), &buf, s); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Problems       []string       `json:"problems"`
		ProblemDetails []view.Problem `json:"problemDetails"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if strings.Join(doc.Problems, "\n") != strings.Join(want, "\n") {
		t.Errorf("report -o json problems:\n%s\nwant\n%s", strings.Join(doc.Problems, "\n"), strings.Join(want, "\n"))
	}
	if len(doc.ProblemDetails) != len(want) || doc.ProblemDetails[0].Severity != view.Error || doc.ProblemDetails[0].Source != "step" {
		t.Errorf("report -o json problemDetails: %+v", doc.ProblemDetails)
	}
	// The Markdown report's problems section lists the same lines.
	md := report.Markdown(context.Background(), s)
	for _, w := range want {
		if !strings.Contains(md, "- "+report.Escape(w)+"\n") {
			t.Errorf("Markdown report lacks %q", w)
		}
	}

	// The Overview's count, the badge and the problems view.
	a := overviewApp(t, s, 120, 40)
	scr := checkScreen(t, a, 120, 40)
	if !strings.Contains(scr, "problems     3 problem(s) reading the inputs") || !strings.Contains(scr, "⚠ 3 problem(s)") {
		t.Errorf("Overview and badge do not count 3:\n%s", scr)
	}
	press(a, "p")
	scr = screen(a)
	if !strings.Contains(scr, "(3; paths relative to the table; the rest loaded)") {
		t.Errorf("problems view does not count 3:\n%s", scr)
	}
	flat := strings.Join(strings.Fields(scr), " ")
	for _, w := range want {
		file, msg, _ := strings.Cut(w, ": ")
		if !strings.Contains(flat, file) || !strings.Contains(flat, strings.Join(strings.Fields(msg), " ")) {
			t.Errorf("problems view lacks %q", w)
		}
	}
}
