package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/report"
)

// d in the Health pane re-judges the loaded read with Hudi's defaults and back, marking the
// result as assumed. The app publishes the re-judged snapshot (a copy: the loaded one is never
// changed), so the Overview and the exports say what the pane says.
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
	// With writer.properties every key they leave unset is already at Hudi 1.x's default
	// (source "Hudi 1.1/1.2 default"), so d assumes nothing more: no check is starred.
	if !strings.Contains(sc, "engine spark · props writer.properties · defaults assumed") || strings.Contains(sc, "HEALTHY*") ||
		!strings.Contains(sc, "since compaction at 20261129163015967 (archived)") ||
		!strings.Contains(sc, "hoodie.compact.inline.trigger.strategy = NUM_COMMITS  (Hudi 1.1/1.2 default)") {
		t.Errorf("after d:\n%s", sc)
	}
	press(a, "j", "d", "d")
	if sc := screen(a); !strings.Contains(sc, "▶⚠ cleaner") {
		t.Errorf("selection not kept on cleaner:\n%s", sc)
	}
	if loaded.Hudiscope.ApplyAllDefaults || s.Options.Health.ApplyAllDefaults {
		t.Error("the loaded snapshot changed")
	}
	if h := a.Snapshot().Health; h == loaded || !h.Hudiscope.ApplyAllDefaults || !a.Snapshot().Options.Health.ApplyAllDefaults {
		t.Error("the shown snapshot is not the re-judged one")
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

// Issue 28 item 8: E (the full report) written while Health showed "defaults assumed" exported
// the loaded, unassumed verdict. After d every surface reads the re-judged snapshot: the
// Overview's health line, the exported report's Health section and the pane agree, and a later
// load step keeps the toggle. The table: incr-1.2.0 without writer properties (nothing supplied,
// so without defaults cleaner, savepoint, archival and the mdt checks are not judged).
func TestHealthToggleReachesOverviewAndExport(t *testing.T) {
	needFixture(t, fxIncrDir+"/table.zip")
	s := analysisSnapshot(t, fxIncrDir+"/table.zip", "", "")
	a := appWith(t, s, 120, 40)
	if got := a.Snapshot().Health.Verdict(); got != "SKIPPED · 5 of 7 not judged" {
		t.Fatalf("loaded verdict %q", got)
	}
	press(a, "4", "d")
	want := a.Snapshot().Health.Verdict()
	if want != "HEALTHY" {
		t.Fatalf("after d: %q", want)
	}
	press(a, "1")
	if sc := screen(a); !strings.Contains(sc, "health       HEALTHY (7 checks) · defaults assumed") {
		t.Errorf("Overview after d:\n%s", sc)
	}
	md := report.Markdown(context.Background(), a.Snapshot())
	if !strings.Contains(md, "Overall: **HEALTHY** (COPY_ON_WRITE, engine spark; defaults assumed") || strings.Contains(md, "### cleaner: SKIPPED") {
		t.Errorf("export after d does not carry the toggle:\n%s", md[strings.Index(md, "Overall: **"):][:300])
	}
	// A later load event (a watch refresh, the findings step) is judged as toggled.
	next := *s
	feed(a, &next)
	if got := a.Snapshot().Health.Verdict(); got != want || !a.Snapshot().Options.Health.ApplyAllDefaults {
		t.Errorf("after a new snapshot: %q", got)
	}
}
