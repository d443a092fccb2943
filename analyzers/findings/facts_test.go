package findings

import (
	"reflect"
	"strings"
	"testing"
)

// TestEveryFactIsAPath: each TableFacts leaf is addressable as table.<json names> and reads as
// "not derived" on an empty TableFacts (no fact defaults to a zero a row could misread).
func TestEveryFactIsAPath(t *testing.T) {
	var names []string
	var visit func(reflect.Type, string)
	visit = func(tt reflect.Type, prefix string) {
		for i := range tt.NumField() {
			f := tt.Field(i)
			n, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if n == "" {
				t.Errorf("%s%s has no JSON name", prefix, f.Name)
				continue
			}
			if f.Type.Kind() == reflect.Struct {
				visit(f.Type, prefix+n+".")
				continue
			}
			names = append(names, prefix+n)
		}
	}
	visit(reflect.TypeFor[TableFacts](), "")
	for _, n := range names {
		p, err := compilePath("table." + n)
		if err != nil {
			t.Errorf("table.%s: %v", n, err)
			continue
		}
		if v := factValue(&TableFacts{}, p.fact); v != nil {
			t.Errorf("table.%s reads %v on empty facts", n, v)
		}
	}
	if len(names) < 30 {
		t.Errorf("only %d facts found", len(names))
	}
}

// TestDocPaths: the custom-JSON report types are outlined the way they print.
func TestDocPaths(t *testing.T) {
	for _, p := range []string{
		"eventlog.phaseSummary[phase=ARCHIVAL].shareOfStageWallClock",
		"eventlog.operationSummary[operation=COMPACTION].stageCount",
		"eventlog.stages.observed.taskDurationMillis.p50",
		"layout.skew.largestPartitionShare",
		"layout.partitions[partition=x].sizeStats.p50",
		`health.checks[name=cleaner].effectiveConfigs["observed.commits.since.last.clean"]`,
		`layout.tableCharacteristics.detectors[name=small-files].effectiveConfigs["observed.flagged.pct"]`,
	} {
		if _, err := compilePath(p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	for _, p := range []string{
		"layout.skew.gin",
		"layout.totalFiles.x",
		"layout.skew[cv=1]",
		"eventlog.phaseSummary[phse=ARCHIVAL].shareOfStageWallClock",
		"health.checks[name=cleaner].effectiveConfig",
		"eventlog",
		"props.",
	} {
		if _, err := compilePath(p); err == nil {
			t.Errorf("%s: accepted", p)
		}
	}
}
