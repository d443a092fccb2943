package report

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
				Props: filepath.Join(dir, "writer.properties"), EventLog: logs[0], Now: func() time.Time { return fixedNow }}, nil)
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

// TestFindingsEngine: --engine reaches the findings: a Flink writer is on INMEMORY and
// streaming metadata writes off by default, and the report says so; every report explains
// its labels.
func TestFindingsEngine(t *testing.T) {
	dir := "../testdata/fixtures/cow-services-1.2.0"
	for _, c := range []struct{ engine, index string }{{"spark", "SIMPLE"}, {"flink", "INMEMORY"}, {"java", "SIMPLE"}} {
		s, err := model.Load(context.Background(), model.Options{Location: filepath.Join(dir, "table.zip"),
			Props: filepath.Join(dir, "writer.properties"), Engine: c.engine}, nil)
		if err != nil || s.Findings == nil {
			t.Skipf("fixture: %v", err)
		}
		md := FindingsMarkdown(s.Findings)
		f := s.Findings.Find("CAP-001")
		got := ""
		for _, e := range f.Signals {
			if e.Path == "props.hoodie.index.type" {
				got = e.Value
				if !strings.Contains(e.Source, c.engine+" engine-effective default") && c.engine != "java" {
					t.Errorf("%s: index type source %q", c.engine, e.Source)
				}
			}
		}
		if got != c.index {
			t.Errorf("%s: index type %q, want %q", c.engine, got, c.index)
		}
		if !strings.Contains(md, "### What the labels mean") || !strings.Contains(md, "| gated |") || !strings.Contains(md, "| durable |") {
			t.Errorf("%s: no label legend", c.engine)
		}
		if len(s.Findings.Violations) > 0 {
			t.Errorf("%s: %+v", c.engine, s.Findings.Violations)
		}
	}
}
