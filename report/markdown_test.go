package report

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/model"
)

const corpus = "../../shared/testdata/hudi-rs/crates/test/data/"

var fixtures = map[string]string{
	"v9_txns_simple_meta":   corpus + "sample_table/cow/v9_txns_simple_meta.zip",
	"v6_mor_overwritetable": corpus + "sample_table/mor/parquet/v6_simplekeygen_nonhivestyle_overwritetable.zip",
	"incr":                  "../testdata/fixtures/incr-1.2.0/table.zip",
}

// snapshot reads properties and the timeline only, so the golden files do not change when
// later analysis steps are added to model.Load.
func snapshot(t *testing.T, path string) *model.Snapshot {
	t.Helper()
	s, _ := openSnapshot(t, path)
	return s
}

// openSnapshot is snapshot with the table it read, for tests that run analysis steps themselves.
func openSnapshot(t *testing.T, path string) (*model.Snapshot, *hudi.Table) {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		t.Skipf("fixture %s not present: %v", path, err)
	}
	ctx := context.Background()
	tb, err := hudi.Open(ctx, path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tl, err := tb.ActiveTimeline(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// A finished load (LoadedAt set) on a pinned clock: the summary's ages and "not read" hold
	// on any date.
	s := model.NewSnapshot(model.Options{Location: filepath.Base(path), Now: func() time.Time { return fixedNow }}, tb, tl, model.StepProperties, model.StepTimeline)
	s.LoadedAt = fixedNow
	return s, tb
}

func TestMarkdownGolden(t *testing.T) {
	for name, path := range fixtures {
		t.Run(name, func(t *testing.T) {
			md := Markdown(context.Background(), snapshot(t, path))
			if strings.Contains(md, "\x1b") {
				t.Fatal("ANSI escape in Markdown")
			}
			checkTables(t, md)
			golden.RequireEqual(t, md)
		})
	}
}

// checkTables asserts every table row has as many cells as its header.
func checkTables(t *testing.T, md string) {
	t.Helper()
	cols := -1
	for _, l := range strings.Split(md, "\n") {
		if !strings.HasPrefix(l, "|") {
			cols = -1
			continue
		}
		n := strings.Count(strings.ReplaceAll(l, `\|`, ""), "|") - 1
		if cols < 0 {
			cols = n
		} else if n != cols {
			t.Fatalf("row has %d cells, header %d: %s", n, cols, l)
		}
	}
}

func TestTableEscapes(t *testing.T) {
	got := Table([]string{"a", "b"}, "lr", [][]string{{"x|y", "1\n2"}})
	want := "| a | b |\n|---|---:|\n| x\\|y | 1\\n2 |\n"
	if got != want {
		t.Fatalf("got %q want %q", got, want)
	}
}

func TestJSON(t *testing.T) {
	s := snapshot(t, fixtures["incr"])
	var buf bytes.Buffer
	if err := JSON(context.Background(), &buf, s); err != nil {
		t.Fatal(err)
	}
	var d Document
	if err := json.Unmarshal(buf.Bytes(), &d); err != nil {
		t.Fatal(err)
	}
	if d.Table == nil || d.Table.Name != "incr" || len(d.Instants) != 3 || d.IncrementalStart == nil {
		t.Fatalf("unexpected document: %+v", d)
	}
	if d.Instants[0].RequestedTime != "20261129155610512" || *d.Instants[0].CompletionTime != "20261129155625814" {
		t.Fatalf("first instant %+v", d.Instants[0])
	}
}

func TestSectionsAppearWithData(t *testing.T) {
	s := snapshot(t, fixtures["incr"])
	old := sections
	defer func() { sections = old }()
	sections = append(append([]section(nil), old...),
		section{title: "Layout", render: func(_ context.Context, s *model.Snapshot) (string, bool) { return "", false }},
		section{title: "Health", render: func(_ context.Context, s *model.Snapshot) (string, bool) { return "all good", true }})
	md := Markdown(context.Background(), s)
	if strings.Contains(md, "## Layout") || !strings.Contains(md, "## Health\n\nall good\n") {
		t.Fatalf("sections:\n%s", md)
	}
}
