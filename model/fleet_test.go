package model

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/internal/testutil"
)

func fleetBase() Options {
	return Options{ClusterDefaults: "-", Now: timeNowForTest}
}

// TestDiscoverLocalFleet: every fixture table (and the shared hudi-rs tables) extracted under
// nested directories is found once, nothing else is, and each fleet row equals the row made
// from that table's own single-table load.
func TestDiscoverLocalFleet(t *testing.T) {
	corpus := testutil.FleetCorpus(t, "..")
	root := t.TempDir()
	rels := testutil.ExtractFleet(t, corpus, root)
	ctx := context.Background()
	var streamed []string
	d, err := Discover(ctx, root, DiscoverOptions{}, func(ft FleetTarget) { streamed = append(streamed, ft.Name) })
	if err != nil {
		t.Fatal(err)
	}
	want := append([]string(nil), rels...)
	sort.Strings(want)
	var got []string
	for _, ft := range d.Tables {
		got = append(got, ft.Name)
		if ft.Location != filepath.Join(root, filepath.FromSlash(ft.Name)) {
			t.Errorf("location %s for %s", ft.Location, ft.Name)
		}
	}
	sort.Strings(streamed)
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(streamed, want) {
		t.Fatalf("found %d tables, want %d:\n got %q\nwant %q", len(got), len(want), got, want)
	}
	if d.Stopped != "" || len(d.Errors) != 0 {
		t.Errorf("stopped %q errors %q", d.Stopped, d.Errors)
	}
	t.Logf("%d tables found, %d entries listed", len(got), d.Entries)

	// Rows stream in through LoadFleet; each equals the table's own load.
	ch := make(chan FleetTarget)
	go func() {
		for _, ft := range d.Tables {
			ch <- ft
		}
		close(ch)
	}()
	rows := map[string]FleetRow{}
	LoadFleet(ctx, fleetBase(), ch, 4, func(i int, r FleetRow) { rows[r.Name] = r })
	if len(rows) != len(want) {
		t.Fatalf("%d rows for %d tables", len(rows), len(want))
	}
	failed := 0
	for _, ft := range d.Tables {
		o := FleetOptions(fleetBase(), ft)
		s, err := Load(ctx, o, nil)
		own := RowFromSnapshot(ft, s, err, timeNowForTest())
		if !reflect.DeepEqual(rows[ft.Name], own) {
			t.Errorf("%s: fleet row differs from the table's own\nfleet %+v\n own  %+v", ft.Name, rows[ft.Name], own)
		}
		if own.Error != "" {
			failed++
			t.Logf("%s: %s", ft.Name, own.Error)
		}
	}
	if failed > 0 {
		t.Errorf("%d tables failed to load", failed)
	}
}

// TestFleetRowFigures pins one fixture's row against known figures.
func TestFleetRowFigures(t *testing.T) {
	dir := testutil.UnzipTable(t, "../testdata/fixtures/mor-compaction-1.2.0/table.zip", t.TempDir())
	r, _ := LoadFleetRow(context.Background(), fleetBase(), FleetTarget{Name: "m", Location: dir})
	if r.Error != "" || r.TableType != "MERGE_ON_READ" || r.TableVersion != 9 {
		t.Fatalf("%+v", r)
	}
	want := FleetRow{Name: "m", Location: dir, TableType: "MERGE_ON_READ", TableVersion: 9, SizeBytes: 10638, Partitions: 1,
		FileGroups: 1, ListingSource: "metadata table", LastCommit: "20261130200226754", Pending: []FleetPending{},
		// The fleet reads no commit metadata (LazyCommits): the commit facts are unknown, not
		// zeros. OBS-025 (MOR carrying append-only) is refused with its decisive update share
		// unknown — reported, never read as "no" — and OBS-026 no longer reads "median 0
		// records per commit" from totals that were never read. record-index is not
		// applicable (no record index); the other six lack writer properties.
		Health: "SKIPPED", Verdict: "SKIPPED · 6 of 7 not judged", HealthChecks: map[string]int{"SKIPPED": 7}, Findings: map[string]int{"hypothesis": 4, "refused": 1}}
	if r.LastCommitAgeSeconds == nil {
		t.Fatal("no last-commit age")
	}
	r.LastCommitAgeSeconds = nil
	if !reflect.DeepEqual(r, want) {
		t.Errorf("row\n got %+v\nwant %+v", r, want)
	}
}

func TestDiscoverDepthAndLimit(t *testing.T) {
	corpus := testutil.FleetCorpus(t, "..")
	root := t.TempDir()
	var three []testutil.FleetZip
	for _, z := range corpus {
		if z.Dir == "deep/a/b" || len(three) < 2 && !strings.HasPrefix(z.Dir, "deep") {
			three = append(three, z)
		}
	}
	testutil.ExtractFleet(t, three, root)
	ctx := context.Background()
	// corpus[0] sits 4 levels down: depth 3 does not reach it.
	d, err := Discover(ctx, root, DiscoverOptions{Depth: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, ft := range d.Tables {
		if strings.HasPrefix(ft.Name, "deep/") {
			t.Errorf("depth 3 found %s", ft.Name)
		}
	}
	if len(d.Tables) != 2 {
		t.Errorf("depth 3: %d tables", len(d.Tables))
	}
	d, err = Discover(ctx, root, DiscoverOptions{MaxEntries: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(d.Stopped, "stopped after listing ") || len(d.Tables) != 0 {
		t.Errorf("limit: stopped %q, %d tables", d.Stopped, len(d.Tables))
	}
	// A zip is a fleet of one.
	z := "../testdata/fixtures/incr-1.2.0/table.zip"
	if d, err := Discover(ctx, z, DiscoverOptions{}, nil); err != nil || len(d.Tables) != 1 || d.Tables[0].Location != z {
		t.Errorf("zip: %+v %v", d, err)
	}
	if _, err := Discover(ctx, filepath.Join(root, "missing"), DiscoverOptions{}, nil); err == nil {
		t.Error("missing root: no error")
	}
}

// TestFleetRowMatchesOverview: a row's size, partitions and file groups are the figures the
// explorer's Overview shows, from the full load's layout analysis.
func TestFleetRowMatchesOverview(t *testing.T) {
	for _, fx := range []string{"cow-services-1.2.0", "mor-services-1.2.0", "mor-compaction-1.0.2", "cow-v4-0.11.1"} {
		z := "../testdata/fixtures/" + fx + "/table.zip"
		ft := FleetTarget{Name: fx, Location: z}
		row, _ := LoadFleetRow(context.Background(), fleetBase(), ft)
		full, err := Load(context.Background(), Options{Location: z, ClusterDefaults: "-", Now: timeNowForTest}, nil)
		if err != nil || full.Layout == nil || row.Error != "" {
			t.Fatalf("%s: %v %s", fx, err, row.Error)
		}
		if row.SizeBytes != full.Layout.TotalBytes || row.Partitions != full.Layout.NumPartitions || row.FileGroups != full.View.NumFileGroups() {
			t.Errorf("%s: fleet size %d partitions %d groups %d; overview %d %d %d", fx, row.SizeBytes, row.Partitions, row.FileGroups,
				full.Layout.TotalBytes, full.Layout.NumPartitions, full.View.NumFileGroups())
		}
		if row.Health != full.RunHealth(false).OverallStatus {
			t.Errorf("%s: health %s, the table's own %s", fx, row.Health, full.Health.OverallStatus)
		}
	}
}

// Issue 28 item 7: fleet on a table's .hoodie folder listed its metadata table
// (.hoodie/metadata, which has a .hoodie/hoodie.properties of its own) as a table. The folder
// names its table; with the table's hoodie.properties gone, the metadata table is still no table
// of the fleet, and Skipped says why.
func TestDiscoverOnHoodieFolder(t *testing.T) {
	dir := testutil.UnzipTable(t, "../testdata/fixtures/mor-services-1.2.0/table.zip", t.TempDir())
	ctx := context.Background()
	d, err := Discover(ctx, filepath.Join(dir, ".hoodie"), DiscoverOptions{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Tables) != 1 || d.Tables[0].Location != dir || d.Tables[0].Name != filepath.Base(dir) {
		t.Fatalf("tables %+v", d.Tables)
	}
	if err := os.Remove(filepath.Join(dir, ".hoodie", "hoodie.properties")); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, ".hoodie", "hoodie.properties.backup"))
	d, err = Discover(ctx, filepath.Join(dir, ".hoodie"), DiscoverOptions{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Tables) != 0 || len(d.Skipped) != 1 || !strings.Contains(d.Skipped[0], filepath.Join(".hoodie", "metadata")+": a metadata table inside") {
		t.Fatalf("without hoodie.properties: tables %+v skipped %q", d.Tables, d.Skipped)
	}
}

// Issue 28 item 8: the fleet row said HEALTHY (a fleet judges with Hudi's defaults) and Enter
// on it showed "health SKIPPED" (the explorer did not). The table opened from a row is judged as
// the row was: mor-services-1.2.0 as a fleet row and as the table it opens give the same verdict.
func TestFleetRowAndOpenedTableAgree(t *testing.T) {
	dir := testutil.UnzipTable(t, "../testdata/fixtures/mor-services-1.2.0/table.zip", t.TempDir())
	base := fleetBase()
	base.Health.ApplyAllDefaults = true // the Fleet view's
	r, _ := LoadFleetRow(context.Background(), base, FleetTarget{Name: "m", Location: dir})
	explorer := Options{ClusterDefaults: "-", Now: timeNowForTest, EarlyTimeline: true}
	s, err := Load(context.Background(), FleetTableOptions(explorer, base, r), nil)
	if err != nil || s.Health == nil {
		t.Fatalf("open: %v %v", err, s.StepErrors)
	}
	if r.Verdict != "HEALTHY" || s.Health.Verdict() != r.Verdict || s.Health.Check("compaction").Status != "HEALTHY" {
		t.Errorf("row %q, opened %q (compaction %s)", r.Verdict, s.Health.Verdict(), s.Health.Check("compaction").Status)
	}
}

// Issue 28 item 7: a fleet row's verdict carries its reason. cow-services-1.2.0 with its
// writer.properties (keep.max.commits=6): savepoint (20261129161800076 blocks archival) and
// archival (14 completed commits, threshold 7) are UNHEALTHY; compaction (Copy-on-Write) and
// record-index (none) have nothing to judge, the rest are judged.
func TestFleetRowNamesUnhealthyChecks(t *testing.T) {
	dir := testutil.UnzipTable(t, "../testdata/fixtures/cow-services-1.2.0/table.zip", t.TempDir())
	base := fleetBase()
	base.Props = "../testdata/fixtures/cow-services-1.2.0/writer.properties"
	r, _ := LoadFleetRow(context.Background(), base, FleetTarget{Name: "c", Location: dir})
	if r.Verdict != "UNHEALTHY" || !reflect.DeepEqual(r.UnhealthyChecks, []string{"savepoint", "archival"}) {
		t.Errorf("verdict %q, unhealthy %v", r.Verdict, r.UnhealthyChecks)
	}
}

// TestDiscoverBrokenTable: a folder with .hoodie/ but neither hoodie.properties nor its
// .backup is a broken table, listed as a failure row naming what is missing (issue 31), beside
// the healthy table; its subfolders are not walked as tables of their own.
func TestDiscoverBrokenTable(t *testing.T) {
	root := t.TempDir()
	good := testutil.UnzipTable(t, filepath.Join("..", "testdata", "fixtures", "incr-1.2.0", "table.zip"), filepath.Join(root, "good"))
	goodName, _ := filepath.Rel(root, good)
	broken := filepath.Join(root, "broken")
	if err := os.MkdirAll(filepath.Join(broken, ".hoodie", "timeline"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(broken, "p=1", ".hoodie"), 0o755); err != nil {
		t.Fatal(err)
	}
	d, err := Discover(context.Background(), root, DiscoverOptions{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Tables) != 2 || d.Tables[0].Name != "broken" || d.Tables[1].Name != filepath.ToSlash(goodName) {
		t.Fatalf("tables %+v", d.Tables)
	}
	const want = "a broken table: .hoodie/ holds neither hoodie.properties nor hoodie.properties.backup"
	if d.Tables[0].Err != want || d.Tables[1].Err != "" {
		t.Errorf("errors %q / %q, want %q / none", d.Tables[0].Err, d.Tables[1].Err, want)
	}
	if row, _ := LoadFleetRow(context.Background(), fleetBase(), d.Tables[0]); row.Error != want || row.Location != broken {
		t.Errorf("row %+v", row)
	}
}
