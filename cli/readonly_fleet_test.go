package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/hudiscope/hudiscope/internal/testutil/gluefake"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/ui"
)

// TestReadOnlyProofFleet extends the read-only proof to fleet mode: the fleet command (every
// output, walking a location and through a Glue catalog) and a scripted Fleet view session
// (sort, filter, open a table, every pane exported, back to the list) over read-only copies of
// fixtures change no byte, size, mode or modification time, and create or remove no file.
func TestReadOnlyProofFleet(t *testing.T) {
	work := t.TempDir()
	inputs := filepath.Join(work, "warehouse")
	var tables []string
	for _, fx := range []string{"cow-services-1.2.0", "mor-services-1.2.0", "incr-1.2.0"} {
		if _, err := os.Stat(fixture(fx)); err != nil {
			t.Skipf("fixture %s: %v", fx, err)
		}
		tables = append(tables, unzipTable(t, fixture(fx), filepath.Join(inputs, "db", fx)))
	}
	makeReadOnly(t, inputs)
	before := hashTree(t, inputs)
	out := t.TempDir()

	hoodie := "org.apache.hudi.hadoop.HoodieParquetInputFormat"
	f := gluefake.New(t, map[string][]gluefake.Table{"db": {
		{Name: "cow", Location: tables[0], InputFormat: hoodie, PartitionKeys: []string{"dt"},
			Parameters: map[string]string{"last_commit_time_sync": "20261129162031337"},
			Partitions: []gluefake.Partition{{Values: []string{"2024-01-01"}, Location: tables[0] + "/2024-01-01"}}},
		{Name: "mor", Location: tables[1], InputFormat: hoodie},
	}})
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDTEST")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "SECRETTEST")
	t.Setenv("AWS_CONFIG_FILE", "/nonexistent")
	for _, args := range [][]string{
		{"fleet", inputs}, {"fleet", inputs, "-o", "json"}, {"fleet", inputs, "-o", "md", "--output-file", filepath.Join(out, "fleet.md")},
		{"fleet", "--glue", "db", "--glue-endpoint", f.URL, "-o", "json"}, {"fleet", "--glue", "*", "--glue-endpoint", f.URL, "-o", "md"},
	} {
		if _, stderr, code := runCLI(t, args...); code != 0 {
			t.Errorf("%v: exit %d %.300s", args, code, stderr)
		}
	}
	exports := fleetSession(t, inputs, out)
	if exports < 7 {
		t.Errorf("fleet session exported %d files, want at least 7 (6 panes + report)", exports)
	}
	changed := treeChanges(t, before, hashTree(t, inputs))
	t.Logf("%d input files hashed before and after, %d changed; %d exports", len(before), changed, exports)
}

// fleetSession drives the Fleet view as a user: rows stream in, sort, filter, open the
// filtered table, visit and export every pane and the report, come back, quit.
func fleetSession(t *testing.T, location, exportDir string) int {
	t.Helper()
	flags := FleetFlags{Depth: 4, MaxEntries: 100000, Parallel: 8}
	base := model.Options{ClusterDefaults: "-"}
	base.Health.ApplyAllDefaults = true
	now := func() time.Time { return time.Unix(1800000000, 0) }
	fl := ui.NewFleet(ui.FleetOptions{Source: location, Now: now,
		Run: func(ctx context.Context, row func(int, model.FleetRow)) (*model.Discovery, error) {
			d, _, err := model.RunFleet(ctx, flags.source(location), base, row)
			return d, err
		},
		// Load nil: the session feeds the table's progress itself, as tuiSession does.
		Open: func(r model.FleetRow) ui.Options {
			return ui.Options{Location: r.Location, ExportDir: exportDir, Now: now}
		},
	})
	var a tea.Model = fl
	a, _ = a.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	drive(&a, fl.Init(), 0)
	if !fl.Done() || len(fl.Rows()) != 3 {
		t.Fatalf("fleet: done %v, %d rows", fl.Done(), len(fl.Rows()))
	}
	press := func(keys ...tea.KeyPressMsg) {
		for _, k := range keys {
			var cmd tea.Cmd
			a, cmd = a.Update(k)
			drive(&a, cmd, 0)
		}
	}
	enter, esc := tea.KeyPressMsg{Code: tea.KeyEnter}, tea.KeyPressMsg{Code: tea.KeyEscape}
	press(key("s"), key("s"), key("/"), key("m"), key("o"), key("r"), enter, enter)
	child := fl.Table()
	if child == nil {
		t.Fatal("enter opened no table")
	}
	loc := ""
	for _, r := range fl.Rows() {
		if strings.Contains(r.Name, "mor") {
			loc = r.Location
		}
	}
	opts := model.Options{Location: loc, Archived: true, ClusterDefaults: "-"}
	_, _ = model.Load(context.Background(), opts, func(p model.Progress) {
		var cmd tea.Cmd
		a, cmd = a.Update(ui.ProgressMsg(p))
		drive(&a, cmd, 0)
	})
	if s := child.Snapshot(); s == nil || s.Options.Location != loc {
		t.Fatalf("the opened explorer did not get %s's load", loc)
	}
	// esc closes the instant detail first; only an esc with nothing to close leaves.
	press(key("2"), key("j"), enter, esc)
	if fl.Table() == nil {
		t.Fatal("esc on an open detail left the table")
	}
	for _, pane := range "123456" {
		press(key(string(pane)), key("j"), key("e"))
	}
	press(key("E"))
	for i := 0; i < 4 && fl.Table() != nil; i++ {
		press(esc)
	}
	if fl.Table() != nil {
		t.Error("esc did not come back to the fleet")
	}
	press(key("q"))
	exports, _ := filepath.Glob(filepath.Join(exportDir, "hudiscope-*.md"))
	return len(exports)
}
