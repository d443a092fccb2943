package ui

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/report"
)

func i64p(n int64) *int64 { return &n }

// fleetRows are six tables covering every verdict: unreadable, unhealthy, catalog behind,
// pending services, healthy, not judged.
func fleetRows() []model.FleetRow {
	return []model.FleetRow{
		{Name: "sales/orders", Location: "s3://lake/w/sales/orders", TableType: "MERGE_ON_READ", TableVersion: 8, SizeBytes: 52 << 30,
			Partitions: 731, FileGroups: 9120, LastCommit: "20261130114000000", LastCommitAgeSeconds: i64p(1200),
			Pending: []model.FleetPending{{Action: "compaction", Count: 3, Oldest: "20261127100000000", AgeSeconds: i64p(3 * 86400)}},
			Health:  "UNHEALTHY", Verdict: "UNHEALTHY", UnhealthyChecks: []string{"compaction"}, HealthChecks: map[string]int{"UNHEALTHY": 1, "HEALTHY": 6}},
		{Name: "sales/customers", Location: "s3://lake/w/sales/customers", TableType: "COPY_ON_WRITE", TableVersion: 6, SizeBytes: 3 << 20,
			Partitions: 1, FileGroups: 4, LastCommit: "20261101000000000", LastCommitAgeSeconds: i64p(29 * 86400), Pending: []model.FleetPending{},
			Health: "HEALTHY", Verdict: "HEALTHY · 2 of 7 not judged", HealthChecks: map[string]int{"HEALTHY": 5, "SKIPPED": 2}},
		{Name: "ops/broken", Location: "s3://lake/w/ops/broken", Error: "read s3://lake/w/ops/broken/.hoodie/hoodie.properties: AccessDenied"},
		{Name: "ops/events", Location: "s3://lake/w/ops/events", TableType: "COPY_ON_WRITE", TableVersion: 9, SizeBytes: 880 << 20,
			Partitions: 30, FileGroups: 240, LastCommit: "20261130115900000", LastCommitAgeSeconds: i64p(60), Pending: []model.FleetPending{},
			Health: "HEALTHY", MetaSync: "UNHEALTHY", MetaSyncSummary: "Catalog ops.events: sync 4 completed write(s) behind (2h0m0s)"},
		{Name: "ml/features", Location: "s3://lake/w/ml/features", TableType: "MERGE_ON_READ", TableVersion: 9, SizeBytes: 12 << 30,
			Partitions: 12, FileGroups: 96, LastCommit: "20261130100000000", LastCommitAgeSeconds: i64p(7200),
			Pending: []model.FleetPending{{Action: "clean", Count: 1, Oldest: "20261130110000000", AgeSeconds: i64p(3600)}}, Health: "HEALTHY", MetaSync: "HEALTHY"},
		{Name: "tmp/scratch", Location: "s3://lake/w/tmp/scratch", TableType: "COPY_ON_WRITE", TableVersion: 5, Pending: []model.FleetPending{}, Health: "SKIPPED", Verdict: "SKIPPED · 6 of 7 not judged"},
	}
}

func newTestFleet(w, h int, open func(model.FleetRow) Options) *Fleet {
	f := NewFleet(FleetOptions{Source: "s3://lake/w/", Now: func() time.Time { return fixedNow }, Open: open})
	f.Update(tea.WindowSizeMsg{Width: w, Height: h})
	for i, r := range fleetRows() {
		f.Update(FleetRowMsg{I: i, Row: r})
	}
	f.Update(FleetDoneMsg{Discovery: &model.Discovery{Root: "s3://lake/w/", Entries: 420}})
	return f
}

func fleetPress(f *Fleet, keys ...string) {
	for _, k := range keys {
		_, cmd := f.Update(keyMsg(k))
		runFleet(f, cmd)
	}
}

func runFleet(f *Fleet, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch m := cmd().(type) {
	case nil, tea.QuitMsg:
	case tea.BatchMsg:
		for _, c := range m {
			runFleet(f, c)
		}
	default:
		_, next := f.Update(m)
		runFleet(f, next)
	}
}

func fleetScreen(t *testing.T, f *Fleet, w, h int) string {
	t.Helper()
	s := ansi.Strip(f.View().Content)
	lines := strings.Split(s, "\n")
	if len(lines) != h {
		t.Fatalf("view has %d lines, want %d:\n%s", len(lines), h, s)
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n > w {
			t.Fatalf("line %d is %d cells wide, want <= %d: %q", i, n, w, l)
		}
	}
	return s
}

// TestFleetGolden renders the fleet list (worst first), sorted by size, and filtered.
func TestFleetGolden(t *testing.T) {
	for _, c := range []struct {
		name string
		keys []string
	}{
		{"worst-first", nil},
		{"sorted-size", []string{"s", "s", "s", "s"}},
		{"filter-mor", []string{"/", "M", "E", "R", "G", "E", "enter"}},
	} {
		for _, sz := range sizes {
			t.Run(fmt.Sprintf("%s-%dx%d", c.name, sz[0], sz[1]), func(t *testing.T) {
				f := newTestFleet(sz[0], sz[1], nil)
				fleetPress(f, c.keys...)
				golden.RequireEqual(t, fleetScreen(t, f, sz[0], sz[1]))
			})
		}
	}
}

func TestFleetOrderAndKeys(t *testing.T) {
	f := newTestFleet(120, 40, nil)
	var order []string
	for _, i := range f.lv.Visible() {
		order = append(order, f.rows[i].Name)
	}
	want := "ops/broken ops/events sales/orders ml/features sales/customers tmp/scratch"
	if strings.Join(order, " ") != want {
		t.Errorf("order %q, want %q", order, want)
	}
	// Size sort: largest first.
	fleetPress(f, "s", "s", "s", "s") // TABLE, TYPE, V, SIZE
	if got := f.rows[f.lv.Visible()[0]].Name; got != "sales/orders" || f.lv.SortName("") != "SIZE, largest first" {
		t.Errorf("size sort: first %s, %s", got, f.lv.SortName(""))
	}
	fleetPress(f, "/")
	for _, r := range "features" {
		fleetPress(f, string(r))
	}
	fleetPress(f, "enter")
	if n := len(f.lv.Visible()); n != 1 || f.rows[f.lv.Visible()[0]].Name != "ml/features" {
		t.Errorf("filter: %d rows", n)
	}
	fleetPress(f, "esc")
	if n := len(f.lv.Visible()); n != 6 {
		t.Errorf("esc clears the filter: %d rows", n)
	}
	if !strings.Contains(fleetScreen(t, f, 120, 40), "1 unreadable · 2 unhealthy · 2 healthy · 1 not judged") {
		t.Errorf("summary line missing:\n%s", fleetScreen(t, f, 120, 40))
	}
}

// TestFleetEnterAndBack: Enter opens the row in the usual panes (an App loading that
// location), esc comes back to the list, Enter again shows the same explorer.
func TestFleetEnterAndBack(t *testing.T) {
	var opened []string
	f := newTestFleet(100, 30, func(r model.FleetRow) Options {
		opened = append(opened, r.Location)
		return Options{Location: r.Location, Start: "Timeline", Now: func() time.Time { return fixedNow },
			JobControl: func() (bool, string) { return true, "" }, Getenv: func(string) string { return "" },
			Load: func(ctx context.Context, progress func(model.Progress)) {
				s := &model.Snapshot{Options: model.Options{Location: r.Location}, StepErrors: map[model.Step]error{}}
				progress(model.Progress{Step: model.StepProperties, Index: 1, Total: 1, Snapshot: s})
			}}
	})
	fleetPress(f, "j") // ops/events (ops/broken is a failure row: Enter does nothing there)
	fleetPress(f, "enter")
	if f.Table() == nil || len(opened) != 1 || opened[0] != "s3://lake/w/ops/events" {
		t.Fatalf("enter opened %q", opened)
	}
	// The explorer got its load's progress through the fleet.
	if s := f.Table().Snapshot(); s == nil || s.Options.Location != "s3://lake/w/ops/events" {
		t.Fatalf("explorer snapshot %+v", s)
	}
	if scr := fleetScreen(t, f, 100, 30); strings.Contains(scr, "hudiscope fleet") {
		t.Errorf("still the list:\n%s", scr)
	}
	fleetPress(f, "esc")
	if f.Table() != nil || !strings.Contains(fleetScreen(t, f, 100, 30), "hudiscope fleet") {
		t.Fatalf("esc did not come back")
	}
	fleetPress(f, "enter")
	if f.Table() == nil || len(opened) != 1 {
		t.Errorf("reopening built a new explorer: %q", opened)
	}
	fleetPress(f, "esc", "k", "enter")
	if f.Table() != nil {
		t.Errorf("a failure row opened")
	}
}

// Rows arriving in any order keep the natural order a stable sort by report.FleetLess gives
// (worst first, then by name, ties in arrival order): each is inserted, never re-sorted.
func TestFleetArrivalOrder(t *testing.T) {
	f := NewFleet(FleetOptions{})
	rng := rand.New(rand.NewPCG(1, 2))
	var rows []model.FleetRow
	for i := range 400 {
		r := model.FleetRow{Name: fmt.Sprintf("t%02d", rng.IntN(40)), Location: fmt.Sprint(i)}
		switch rng.IntN(4) {
		case 0:
			r.Error = "unreadable"
		case 1:
			r.Health = "UNHEALTHY"
		case 2:
			r.Health = "HEALTHY"
		}
		rows = append(rows, r)
		f.Update(FleetRowMsg{I: i, Row: r})
	}
	want := make([]int, len(rows))
	for i := range want {
		want[i] = i
	}
	sort.SliceStable(want, func(a, b int) bool { return report.FleetLess(rows[want[a]], rows[want[b]]) })
	if !slices.Equal(f.lv.Base, want) {
		t.Fatalf("natural order differs from the stable sort:\n%v\nwant\n%v", f.lv.Base[:20], want[:20])
	}
}
