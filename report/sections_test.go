package report

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/hudiscope/hudiscope/analyzers/config"
	"github.com/hudiscope/hudiscope/analyzers/health"
	"github.com/hudiscope/hudiscope/analyzers/layout"
	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/model"
)

var fixedNow = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// analysed adds the layout and health analyses (fixed clock, no cluster defaults) and, when
// evlog is set, the event-log analysis.
func analysed(t *testing.T, table, props, evlog string, applyDefaults bool) *model.Snapshot {
	t.Helper()
	s, tb := openSnapshot(t, table)
	ctx := context.Background()
	view, err := tb.View(ctx, s.Timeline, hudi.ListingStorage)
	if err != nil {
		t.Fatal(err)
	}
	eff, err := config.Load(config.Files{Engine: "spark", PropsFile: props, ClusterDefaults: "-", Table: s.Config.Props})
	if err != nil {
		t.Fatal(err)
	}
	opt := model.LayoutOptions(eff)
	opt.PartitionStats, opt.Characteristics, opt.PrintTopK = true, true, 10
	in, err := model.LayoutInput(ctx, tb, s.Timeline, view, opt, fixedNow)
	if err != nil {
		t.Fatal(err)
	}
	in.Now, in.Zone = fixedNow, time.UTC
	hin := model.HealthInput(ctx, tb, s.Timeline, fixedNow)
	hin.Zone = time.UTC
	s.View, s.Effective = view, eff
	s.Layout = layout.Analyze(in, opt)
	s.Health = health.Run(hin, health.Options{Config: eff, ApplyAllDefaults: applyDefaults})
	if evlog != "" {
		r, err := model.AnalyzeEventLog(ctx, evlog, storage.Options{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		s.EventLog = r
	}
	return s
}

// TestSectionsGolden renders the Layout, Health and Event log report sections.
func TestSectionsGolden(t *testing.T) {
	mor := corpus + "sample_table/mor/avro/v9_txns_simple_meta.zip"
	incr := "../testdata/fixtures/incr-1.2.0"
	logs, _ := filepath.Glob(incr + "/local-*")
	cases := []struct {
		name string
		snap func(t *testing.T) *model.Snapshot
	}{
		{"mor-defaults", func(t *testing.T) *model.Snapshot { return analysed(t, mor, "", "", true) }},
		{"incr", func(t *testing.T) *model.Snapshot {
			if len(logs) == 0 {
				t.Skip("incr-1.2.0 event log not present")
			}
			return analysed(t, incr+"/table.zip", incr+"/writer.properties", logs[0], false)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := c.snap(t)
			for _, sec := range []struct {
				name string
				md   func() (string, bool)
			}{
				{"layout", func() (string, bool) { return LayoutMarkdown(s.Layout, nil), true }},
				{"health", func() (string, bool) { return HealthMarkdown(s.Health, nil), true }},
				{"eventlog", func() (string, bool) {
					if s.EventLog == nil {
						return "", false
					}
					return EventLogMarkdown(s.EventLog, nil), true
				}},
			} {
				t.Run(sec.name, func(t *testing.T) {
					md, ok := sec.md()
					if !ok {
						t.Skip("no event log for this fixture")
					}
					if strings.Contains(md, "\x1b") {
						t.Fatal("ANSI escape in Markdown")
					}
					checkTables(t, md)
					golden.RequireEqual(t, md)
				})
			}
			// The full report carries the registered sections.
			full := Markdown(context.Background(), s)
			for _, h := range []string{"\n## Layout\n", "\n## Health\n"} {
				if !strings.Contains(full, h) {
					t.Errorf("full report lacks %q", h)
				}
			}
			if s.EventLog != nil && !strings.Contains(full, "\n## Event log\n") {
				t.Error("full report lacks the event log section")
			}
		})
	}
}

func TestDrillMarkdown(t *testing.T) {
	s := analysed(t, corpus+"sample_table/mor/avro/v9_txns_simple_meta.zip", "", "", true)
	p := s.View.Partitions[0]
	md := PartitionFilesMarkdown(p, p.FileGroups) + FileGroupMarkdown(p.FileGroups[0]) + HealthCheckMarkdown(s.Health, "compaction", true)
	checkTables(t, md)
	golden.RequireEqual(t, md)
}
