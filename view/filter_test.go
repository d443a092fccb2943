package view

import (
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

func TestResolveBound(t *testing.T) {
	now := time.Date(2026, 12, 1, 9, 30, 0, 0, time.UTC)
	ist := time.FixedZone("IST", 5*3600+1800)
	for _, c := range []struct {
		v    string
		zone *time.Location
		want string
	}{
		{"20261201", time.UTC, "20261201"},
		{"20261201093000123", time.UTC, "20261201093000123"},
		{"7d", time.UTC, "20261124093000000"},
		{"36h", time.UTC, "20261129213000000"},
		{"1d12h", time.UTC, "20261129213000000"},
		{"2w", time.UTC, "20261117093000000"},
		{"90m", time.UTC, "20261201080000000"},
		// The table writes instant times in its zone (hoodie.table.timeline.timezone LOCAL).
		{"90m", ist, "20261201133000000"},
		{"2026-12-01T10:00:00+01:00", time.UTC, "20261201090000000"},
	} {
		got, err := resolveBound(c.v, now, c.zone)
		if err != nil || got != c.want {
			t.Errorf("resolveBound(%q) = %q, %v; want %q", c.v, got, err, c.want)
		}
	}
	for _, bad := range []string{"yesterday", "123", "202612010930001234", "7x", "d", "-5h", "1.5d"} {
		if got, err := resolveBound(bad, now, time.UTC); err == nil {
			t.Errorf("resolveBound(%q) = %q, want an error", bad, got)
		}
	}
}

func TestComparePrefix(t *testing.T) {
	for _, c := range []struct {
		instant, bound string
		want           int
	}{
		{"20261201093000123", "20261201", 0},
		{"20261130235959999", "20261201", -1},
		{"20261202000000000", "20261201", 1},
		{"20261201093000", "20261201093000500", -1}, // a 14-digit instant time is second .000
		{"20261201093000", "20261201093000000", 0},
	} {
		if got := comparePrefix(c.instant, c.bound); got != c.want {
			t.Errorf("comparePrefix(%s, %s) = %d, want %d", c.instant, c.bound, got, c.want)
		}
	}
}

func TestParseInstantFilterWords(t *testing.T) {
	f, err := ParseInstantFilter(0, "", "", []string{"Clean,rollback", "clean"}, []string{"inflight, requested"}, "", false)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Actions) != 2 || f.Actions[0] != "clean" || f.Actions[1] != "rollback" || len(f.States) != 2 || f.States[0] != "INFLIGHT" || !f.Active() {
		t.Errorf("got %+v", f)
	}
	if f, _ := ParseInstantFilter(0, "", "", nil, nil, SortTable, false); f.Active() {
		t.Errorf("the table's order alone is not a filter")
	}
}

func TestFileFilter(t *testing.T) {
	for _, c := range []struct {
		pat, part string
		want      bool
	}{
		{"dt=2024-*", "dt=2024-01-01", true},
		{"dt=2024-*", "dt=2024-01-01/hour=00", true},
		{"dt=2024-*", "dt=2023-12-31", false},
		{"*/hour=00", "dt=2024-01-01/hour=00", true},
		{"*/hour=00", "dt=2024-01-01/hour=01", false},
		{"2024-01-02", "2024-01-02", true},
		{"2024-01-0", "2024-01-02", false},
	} {
		f, err := ParseFileFilter(c.pat, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.MatchPartition(c.part); got != c.want {
			t.Errorf("%q matches %q: %v, want %v", c.pat, c.part, got, c.want)
		}
	}
	v := &filegroup.View{Partitions: []*filegroup.Partition{
		{Path: "a", FileGroups: make([]*filegroup.FileGroup, 3)},
		{Path: "b", FileGroups: make([]*filegroup.FileGroup, 2)},
		{Path: "c", FileGroups: make([]*filegroup.FileGroup, 4)},
	}}
	got := FilterView(v, FileFilter{Partition: "[bc]", Limit: 4})
	if len(got.Partitions) != 2 || len(got.Partitions[0].FileGroups) != 2 || len(got.Partitions[1].FileGroups) != 2 || got.NumFileGroups() != 4 {
		t.Errorf("got %v", got)
	}
	if len(v.Partitions[2].FileGroups) != 4 {
		t.Errorf("the input view was cut")
	}
}

// FuzzInstantFilter: no word panics the parser, and what parses resolves.
func FuzzInstantFilter(f *testing.F) {
	for _, s := range []string{"7d", "20261201", "1d12h30m", "2026-12-01T00:00:00Z", "99999999w", "1e9h", ""} {
		f.Add(s, "commit,clean", "requested")
	}
	f.Fuzz(func(t *testing.T, when, action, state string) {
		flt, err := ParseInstantFilter(3, when, when, []string{action}, []string{state}, "", true)
		if err != nil {
			return
		}
		if _, err := FilterInstants(nil, flt, FilterTable{Now: time.Date(2026, 12, 1, 9, 30, 0, 0, time.UTC)}); err != nil {
			t.Errorf("%q parsed but does not resolve: %v", when, err)
		}
	})
}

// BenchmarkFilterInstants filters a synthetic 200k-instant timeline (commits, cleans and
// compactions a second apart, the newest 5% pending) by time, action and state, keeping the
// newest 50 in requested order.
func BenchmarkFilterInstants(b *testing.B) {
	const n = 200_000
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	actions := []string{timeline.ActionCommit, timeline.ActionCommit, timeline.ActionClean, timeline.ActionCompaction}
	instants := make([]*timeline.Instant, n)
	for i := range instants {
		t := start.Add(time.Duration(i) * time.Second)
		in := &timeline.Instant{RequestedTime: timeline.FormatInstantTime(t, time.UTC), Action: actions[i%len(actions)], State: timeline.Completed}
		if i > n*95/100 {
			in.State = timeline.Inflight
		} else {
			in.CompletionTime = timeline.FormatInstantTime(t.Add(500*time.Millisecond), time.UTC)
		}
		instants[i] = in
	}
	now := start.Add(n * time.Second)
	f, err := ParseInstantFilter(50, "1d", "", []string{"commit,compaction"}, []string{"completed"}, SortRequested, true)
	if err != nil {
		b.Fatal(err)
	}
	tab := FilterTable{Now: now, Zone: time.UTC, TableType: "COPY_ON_WRITE"}
	b.ReportAllocs()
	for b.Loop() {
		res, err := FilterInstants(instants, f, tab)
		if err != nil || len(res.Instants) != 50 {
			b.Fatalf("%d instants, %v", len(res.Instants), err)
		}
	}
}
