package report

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/hudiscope/hudiscope/model"
)

// TestFindingsGolden renders the Findings section of the fixtures that come with writer
// properties and a Spark event log.
func TestFindingsGolden(t *testing.T) {
	for _, fx := range []string{"incr-1.2.0", "cdc-1.2.0", "cow-services-1.2.0"} {
		t.Run(fx, func(t *testing.T) {
			dir := filepath.Join("../testdata/fixtures", fx)
			logs, _ := filepath.Glob(filepath.Join(dir, "local-*"))
			l2, _ := filepath.Glob(filepath.Join(dir, "eventlog_v2_*"))
			logs = append(logs, l2...)
			if len(logs) == 0 {
				t.Skip("no event log")
			}
			s, err := model.Load(context.Background(), model.Options{Location: filepath.Join(dir, "table.zip"),
				Props: filepath.Join(dir, "writer.properties"), EventLog: logs[0]}, nil)
			if err != nil {
				t.Skip(err)
			}
			if s.Findings == nil {
				t.Fatalf("no findings: %v", s.StepErrors)
			}
			md := FindingsMarkdown(s.Findings)
			checkTables(t, md)
			golden.RequireEqual(t, md)
		})
	}
}
