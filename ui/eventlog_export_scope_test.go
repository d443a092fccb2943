package ui

import (
	"fmt"
	"strings"
	"testing"

	eventlogui "github.com/hudiscope/hudiscope/ui/eventlog"
)

// TestEventLogExportScoped: exporting the stage list while it is scoped to one phase exports
// that phase's stages, the ones the list shows (before, the list's positions were read as
// stage indices, so a phase's export listed the log's first stages, of every phase).
func TestEventLogExportScoped(t *testing.T) {
	a := appWith(t, servicesSnapshot(t), 120, 40)
	press(a, "5", "P", "enter")
	e := a.view().(*eventlogui.EventLogPane)
	const phase = "DEDUP_AND_INDEX_TAGGING"
	if bc := strings.Join(e.Breadcrumb(), " "); bc != "phase "+phase {
		t.Fatalf("breadcrumb %q, want the phase %s scoped", bc, phase)
	}
	n := 0
	for i := range e.Stages {
		if e.Stages[i].Phase == phase {
			n++
		}
	}
	if n != 333 {
		t.Fatalf("phase %s has %d stages in hudiscope's attribution, want 333", phase, n)
	}
	_, md := e.Export()
	if want := fmt.Sprintf("%d of 1244 stages, in the order shown.", n); !strings.Contains(md, want) {
		t.Fatalf("export lacks %q", want)
	}
	table := md[strings.Index(md, "### Stages"):strings.Index(md, "### Caveats")]
	rows := 0
	for _, l := range strings.Split(table, "\n") {
		cells := strings.Split(l, "|")
		if len(cells) < 4 || strings.TrimSpace(cells[1]) == "stage" || strings.HasPrefix(strings.TrimSpace(cells[1]), "-") || strings.HasPrefix(strings.TrimSpace(cells[1]), ":") {
			continue
		}
		rows++
		if ph := strings.TrimSpace(cells[3]); !strings.HasPrefix(ph, phase) {
			t.Errorf("exported stage %s is in phase %s, not %s", strings.TrimSpace(cells[1]), ph, phase)
		}
	}
	if rows != n {
		t.Errorf("exported %d stage rows, want %d", rows, n)
	}
}
