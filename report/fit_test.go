package report

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/model"
)

func TestFitSmallUnchanged(t *testing.T) {
	md := "# x\n\n" + Table([]string{"a"}, "l", [][]string{{"1"}, {"2"}})
	if got, cut := Fit(md, 1000); got != md || cut {
		t.Fatalf("changed: %q", got)
	}
}

func TestFitTruncatesTables(t *testing.T) {
	var rows [][]string
	for i := 0; i < 500; i++ {
		rows = append(rows, []string{fmt.Sprint(i), strings.Repeat("x", 40)})
	}
	md := "# r\n\n## big\n\n" + Table([]string{"n", "v"}, "rl", rows) + "\n## small\n\n" + Table([]string{"n"}, "l", [][]string{{"a"}, {"b"}}) + "\n```\n| not | a table |\n|---|---|\n```\n"
	got, cut := Fit(md, 4000)
	if !cut || len(got) > 4000 {
		t.Fatalf("cut %v, %d bytes", cut, len(got))
	}
	checkFitted(t, got)
	if !strings.Contains(got, "| 19 | ") || strings.Contains(got, "| 20 | ") {
		t.Errorf("want the top 20 rows:\n%s", got)
	}
	if !strings.Contains(got, "*… and 480 more rows (500 in all;") {
		t.Errorf("no count of the rest:\n%s", got)
	}
	if strings.Contains(got, "<details>") {
		t.Error("the full table cannot fit in 4000 bytes")
	}
	if !strings.Contains(got, "| b |") || !strings.Contains(got, "| not | a table |") {
		t.Error("short table or code block changed")
	}
	// With room, a whole table follows in <details>; the second does not fit too.
	md2 := md + "\n## again\n\n" + Table([]string{"m", "v"}, "rl", rows)
	got, _ = Fit(md2, len(md2)-15000)
	if strings.Count(got, "<details><summary>All 500 rows</summary>") != 1 || !strings.Contains(got, "| 499 |") {
		t.Errorf("want one details block")
	}
	checkFitted(t, got)
}

// checkFitted: GFM tables are well formed and set off by blank lines, details blocks balanced
// with blank lines around their Markdown, code fences closed.
func checkFitted(t *testing.T, md string) {
	t.Helper()
	checkTables(t, md)
	lines := strings.Split(md, "\n")
	fence := false
	for i, l := range lines {
		if strings.HasPrefix(l, "```") {
			fence = !fence
			continue
		}
		if fence {
			continue
		}
		if i > 0 && strings.HasPrefix(l, "|") && !strings.HasPrefix(lines[i-1], "|") && strings.TrimSpace(lines[i-1]) != "" {
			t.Errorf("line %d: table not after a blank line: %q", i+1, lines[i-1])
		}
		if i > 0 && !strings.HasPrefix(l, "|") && strings.TrimSpace(l) != "" && strings.HasPrefix(lines[i-1], "|") {
			t.Errorf("line %d: text right after a table: %q", i+1, l)
		}
		if strings.HasPrefix(l, "<details>") && (i+1 >= len(lines) || lines[i+1] != "") {
			t.Errorf("line %d: <details> not followed by a blank line", i+1)
		}
		if l == "</details>" && lines[i-1] != "" {
			t.Errorf("line %d: </details> not after a blank line", i+1)
		}
	}
	if fence {
		t.Error("unclosed code fence")
	}
	if o, c := strings.Count(md, "<details>"), strings.Count(md, "</details>"); o != c {
		t.Errorf("%d <details>, %d </details>", o, c)
	}
}

// The largest fixtures' full reports (the explorer's E, `report -o md`) fit a ticket by default.
func TestFitLargestReports(t *testing.T) {
	for _, name := range []string{"mor-services-1.2.0", "cow-services-1.2.0"} {
		dir := filepath.Join("../testdata/fixtures", name)
		logs, _ := filepath.Glob(filepath.Join(dir, "local-*"))
		l2, _ := filepath.Glob(filepath.Join(dir, "eventlog_v2_*"))
		logs = append(logs, l2...)
		if _, err := os.Stat(filepath.Join(dir, "table.zip")); err != nil || len(logs) != 1 {
			t.Skipf("fixture %s not present", dir)
		}
		t.Run(name, func(t *testing.T) {
			s, err := model.Load(context.Background(), model.Options{Location: filepath.Join(dir, "table.zip"), Archived: true,
				Props: filepath.Join(dir, "writer.properties"), EventLog: logs[0], ClusterDefaults: "-",
				Now: func() time.Time { return time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC) }}, nil)
			if err != nil {
				t.Fatal(err)
			}
			full := Markdown(context.Background(), s)
			got, cut := Fit(full, ExportLimit)
			t.Logf("%s: %d bytes full, %d fitted (%d details blocks)", name, len(full), len(got), strings.Count(got, "<details>"))
			if !cut || len(got) > ExportLimit {
				t.Fatalf("fitted report is %d bytes (cut %v)", len(got), cut)
			}
			checkFitted(t, got)
			for _, want := range []string{"## Table", "## Findings", "## Incremental reads", "## Health", "## Layout", "## Event log", "more rows"} {
				if !strings.Contains(got, want) {
					t.Errorf("fitted report lacks %q", want)
				}
			}
		})
	}
}
