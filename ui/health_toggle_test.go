package ui

import (
	"strings"
	"testing"
)

// d in the Health pane re-judges the loaded read with Hudi's defaults and back, marking the
// result as assumed; the snapshot itself (and the other panes' view of it) is left as loaded.
func TestHealthDefaultsToggle(t *testing.T) {
	s := morServicesSnapshot(t)
	loaded := s.Health
	a := appWith(t, s, 120, 40)
	press(a, "4")
	if sc := screen(a); strings.Contains(sc, "defaults assumed") || !strings.Contains(sc, "d:defaults") {
		t.Fatalf("before d:\n%s", sc)
	}
	press(a, "d")
	sc := screen(a)
	if !strings.Contains(sc, "engine spark · props writer.properties · defaults assumed") || !strings.Contains(sc, "HEALTHY*") ||
		!strings.Contains(sc, "since compaction at 20261129163015967 (archived)") {
		t.Errorf("after d:\n%s", sc)
	}
	press(a, "j", "d", "d")
	if sc := screen(a); !strings.Contains(sc, "▶⚠ cleaner") {
		t.Errorf("selection not kept on cleaner:\n%s", sc)
	}
	if a.Snapshot().Health != loaded || loaded.Hudiscope.ApplyAllDefaults {
		t.Error("the snapshot's result changed")
	}
	press(a, "d")
	if sc := screen(a); strings.Contains(sc, "defaults assumed") || strings.Contains(sc, "HEALTHY*") {
		t.Errorf("after d d:\n%s", sc)
	}
}

// The header's event-log mark: ✓ only once the log parsed; … while it is read; ✗ with the
// Event log pane's key when it failed.
func TestHeaderEventLogMark(t *testing.T) {
	s := badEventLogSnapshot(t)
	a := appWith(t, s, 120, 40)
	if h := strings.SplitN(screen(a), "\n", 2)[0]; !strings.Contains(h, "event log ✗ (5)") {
		t.Errorf("failed: %q", h)
	}
	press(a, "5")
	if !strings.Contains(screen(a), "could not be analysed") {
		t.Errorf("pane 5 does not say why:\n%s", screen(a))
	}
	pending := *s
	pending.StepErrors, pending.Done = nil, pending.Done[:len(pending.Done)-1]
	a = newTestApp(120, 40)
	a.Update(ProgressMsg{Step: "event log", Index: 1, Total: 2, Snapshot: &pending})
	if h := strings.SplitN(screen(a), "\n", 2)[0]; !strings.Contains(h, "event log …") {
		t.Errorf("pending: %q", h)
	}
	if h := strings.SplitN(screen(appWith(t, incrSnapshot(t), 120, 40)), "\n", 2)[0]; !strings.Contains(h, "event log ✓") {
		t.Errorf("parsed: %q", h)
	}
}
