package report

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/hudiscope/hudiscope/model"
)

// The full report (`hudiscope report --props --event-log`, and E in the TUI) of every fixture
// that carries writer properties and a Spark event log, from the real load path, with a fixed
// clock and no cluster defaults so that it is the same on every machine.
func TestFullReportGolden(t *testing.T) {
	dirs, _ := filepath.Glob("../testdata/fixtures/*-1.2.0*")
	if len(dirs) == 0 {
		t.Fatal("no fixtures")
	}
	for _, dir := range dirs {
		logs, _ := filepath.Glob(filepath.Join(dir, "local-*"))
		l2, _ := filepath.Glob(filepath.Join(dir, "eventlog_v2_*"))
		logs = append(logs, l2...)
		if _, err := os.Stat(filepath.Join(dir, "writer.properties")); err != nil || len(logs) != 1 {
			continue
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			s, err := model.Load(context.Background(), model.Options{Location: filepath.Join(dir, "table.zip"), Archived: true,
				Props: filepath.Join(dir, "writer.properties"), EventLog: logs[0], ClusterDefaults: "-",
				Now: func() time.Time { return time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC) }}, nil)
			if err != nil {
				t.Fatal(err)
			}
			for st, err := range s.StepErrors {
				t.Errorf("step %s: %v", st, err)
			}
			md := Markdown(context.Background(), s)
			checkTables(t, md)
			for _, want := range []string{"## Table", "## Findings", "## Layout", "## Health", "## Event log"} {
				if !strings.Contains(md, want) {
					t.Errorf("report lacks %q", want)
				}
			}
			if strings.Contains(md, "\x1b[") {
				t.Error("ANSI escape in Markdown")
			}
			golden.RequireEqual(t, md)
		})
	}
}
