package hudi_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/internal/synth"
	"github.com/hudiscope/hudiscope/hudi/metadata"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/internal/testutil"
)

// mdtTables lists every corpus and fixture zip; tables without a `files` MDT partition are
// filtered by the caller.
func mdtTables(t *testing.T) []string {
	var zips []string
	if dir, err := filepath.Abs("../../shared/testdata/hudi-rs/crates/test/data"); err == nil {
		if _, err := os.Stat(dir); err == nil {
			_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() && strings.HasSuffix(p, ".zip") {
					zips = append(zips, p)
				}
				return nil
			})
		} else {
			t.Logf("external corpus not present at %s; checking our fixtures only", dir)
		}
	}
	fx, _ := filepath.Glob("../testdata/fixtures/*/table.zip")
	return append(zips, fx...)
}

// dataFiles renders a listing as sorted "partition/name size" lines of base and log files.
func dataFiles(parts map[string][]storage.Entry) []string {
	var out []string
	for p, es := range parts {
		for _, e := range es {
			_, isBase := filegroup.ParseBaseFileName(e.Name)
			_, isLog := filegroup.ParseLogFileName(e.Name)
			if isBase || isLog {
				out = append(out, fmt.Sprintf("%s/%s %d", p, e.Name, e.Size))
			}
		}
	}
	sort.Strings(out)
	return out
}

func viewSummary(v *filegroup.View) []string {
	var out []string
	for _, p := range v.Partitions {
		for _, g := range p.FileGroups {
			for _, s := range g.Slices {
				line := fmt.Sprintf("%s %s %s", p.Path, g.FileID, s.BaseInstant)
				if s.Base != nil {
					line += fmt.Sprintf(" base=%s:%d", s.Base.Name, s.Base.Size)
				}
				for _, l := range s.Logs {
					line += fmt.Sprintf(" log=%s:%d", l.Name, l.Size)
				}
				out = append(out, line)
			}
		}
		for _, g := range p.Replaced {
			out = append(out, p.Path+" replaced "+g.FileID)
		}
	}
	return out
}

// TestMDTListingEqualsStorage: for every table with a metadata-table `files` partition, the
// MDT listing equals the storage listing (names and sizes), and so do the views built on them.
func TestMDTListingEqualsStorage(t *testing.T) {
	ctx := context.Background()
	checked := 0
	for _, z := range mdtTables(t) {
		tab, err := hudi.Open(ctx, z, storage.Options{})
		if err != nil || !metadata.CanListFiles(tab.Config) {
			continue
		}
		checked++
		name := filepath.Base(filepath.Dir(z)) + "/" + filepath.Base(z)
		t.Run(name, func(t *testing.T) {
			tl, err := tab.ActiveTimeline(ctx)
			if err != nil {
				t.Fatal(err)
			}
			fromStore, err := tab.ListPartitions(ctx, tl, hudi.ListingStorage)
			if err != nil {
				t.Fatal(err)
			}
			fromMDT, err := tab.ListPartitions(ctx, tl, hudi.ListingMetadata)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := sortedKeys(fromMDT), sortedKeys(fromStore); strings.Join(got, ",") != strings.Join(want, ",") {
				t.Errorf("partitions: MDT %q, storage %q", got, want)
			}
			got, want := dataFiles(fromMDT), dataFiles(fromStore)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("files differ\nMDT:\n%s\nstorage:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			vm := tab.BuildView(ctx, tl, fromMDT, filegroup.SourceMetadata)
			vs := tab.BuildView(ctx, tl, fromStore, filegroup.SourceStorage)
			if a, b := strings.Join(viewSummary(vm), "\n"), strings.Join(viewSummary(vs), "\n"); a != b {
				t.Errorf("views differ\nMDT:\n%s\nstorage:\n%s", a, b)
			}
			auto, err := tab.View(ctx, tl, hudi.ListingAuto)
			if err != nil || auto.Source != filegroup.SourceMetadata {
				t.Errorf("View(ListingAuto): source %v, err %v", auto, err)
			}
			if v, _ := tab.View(ctx, tl, hudi.ListingStorage); v.Source != filegroup.SourceStorage {
				t.Errorf("View(ListingStorage) used %q", v.Source)
			}
			for _, p := range tab.Problems() {
				t.Logf("problem: %s", p)
			}
		})
	}
	if checked == 0 {
		t.Skip("no table with a metadata-table files partition found")
	}
	t.Logf("%d tables with an MDT files partition checked", checked)
}

func sortedKeys(m map[string][]storage.Entry) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestMDTFallback: a table whose metadata table cannot be read falls back to storage listing
// and records a problem.
func TestMDTFallback(t *testing.T) {
	ctx := context.Background()
	for _, z := range mdtTables(t) {
		tab, err := hudi.Open(ctx, z, storage.Options{})
		if err != nil || !metadata.CanListFiles(tab.Config) {
			continue
		}
		tl, err := tab.ActiveTimeline(ctx)
		if err != nil {
			t.Fatal(err)
		}
		tab.Store = hideMDT{tab.Store}
		v, err := tab.View(ctx, tl, hudi.ListingAuto)
		if err != nil {
			t.Fatal(err)
		}
		if v.Source != filegroup.SourceStorage {
			t.Errorf("source %q, want storage listing", v.Source)
		}
		found := false
		for _, p := range tab.Problems() {
			found = found || strings.Contains(p.Err, "metadata table")
		}
		if !found {
			t.Errorf("no problem recorded: %v", tab.Problems())
		}
		return
	}
	t.Skip("no table with a metadata-table files partition found")
}

// hideMDT makes `.hoodie/metadata` unreadable.
type hideMDT struct{ storage.Storage }

func (h hideMDT) ReadFile(ctx context.Context, p string) ([]byte, error) {
	if strings.HasPrefix(p, metadata.TablePath) {
		return nil, fmt.Errorf("read %s: access denied", p)
	}
	return h.Storage.ReadFile(ctx, p)
}

// TestMDTListingSynthetic: a synthetic table (minimal HFile writer, reduced writer schema)
// lists the same from its metadata table as from storage.
func TestMDTListingSynthetic(t *testing.T) {
	dir := testutil.WriteFiles(t, synth.Table("synth", 7, 5))
	ctx := context.Background()
	tab, err := hudi.Open(ctx, dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tl, err := tab.ActiveTimeline(ctx)
	if err != nil {
		t.Fatal(err)
	}
	fromStore, err := tab.ListPartitions(ctx, tl, hudi.ListingStorage)
	if err != nil {
		t.Fatal(err)
	}
	fromMDT, err := tab.ListPartitions(ctx, tl, hudi.ListingMetadata)
	if err != nil {
		t.Fatal(err)
	}
	got, want := dataFiles(fromMDT), dataFiles(fromStore)
	if len(want) != 35 || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("MDT listing (%d files) != storage listing (%d files)", len(got), len(want))
	}
	if len(tab.Problems()) > 0 {
		t.Errorf("problems: %v", tab.Problems())
	}
}
