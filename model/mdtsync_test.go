package model

import (
	"archive/zip"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/health"
	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/internal/clock"
)

func mdtSync(t *testing.T, location string) health.Check {
	t.Helper()
	ctx := context.Background()
	tbl, err := hudi.Open(ctx, location, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tl, err := tbl.ActiveTimeline(ctx)
	if err != nil {
		t.Fatal(err)
	}
	eff, err := LoadConfig("", []string{"hoodie.metadata.enable=true"}, "spark", tbl.Config)
	if err != nil {
		t.Fatal(err)
	}
	r := health.Run(HealthInput(ctx, tbl, tl, clock.Now()), health.Options{Config: eff, Checks: []string{"mdt-sync"}})
	c := r.Check("mdt-sync")
	if c == nil {
		t.Fatalf("no mdt-sync check: %+v", r)
	}
	return *c
}

func configValue(c health.Check, key string) string {
	for _, kv := range c.EffectiveConfigs {
		if kv.Key == key {
			return kv.Value
		}
	}
	return ""
}

// mdt-sync compares the metadata table's listing with storage for the sampled partitions (all
// three of cow-services): in sync on the fixture as written; after one latest base file is
// deleted from storage behind the table's back, that partition is reported by name.
func TestMDTSyncListingComparison(t *testing.T) {
	zipPath := filepath.Join("..", "testdata", "fixtures", "cow-services-1.2.0", "table.zip")
	c := mdtSync(t, zipPath)
	if c.Status != health.Healthy || configValue(c, "observed.partitions.sampled") != "3" || configValue(c, "observed.partitions.inconsistent") != "0" {
		t.Fatalf("in sync: %+v", c)
	}

	dir := t.TempDir()
	zr, err := zip.OpenReader(zipPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if f.FileInfo().IsDir() {
			os.MkdirAll(p, 0o755)
			continue
		}
		os.MkdirAll(filepath.Dir(p), 0o755)
		rc, _ := f.Open()
		w, _ := os.Create(p)
		io.Copy(w, rc)
		w.Close()
		rc.Close()
		os.Chtimes(p, f.Modified, f.Modified)
	}
	zr.Close()
	table := filepath.Join(dir, "cow_services")
	tbl, _ := hudi.Open(context.Background(), table, storage.Options{})
	tl, _ := tbl.ActiveTimeline(context.Background())
	view, _ := tbl.View(context.Background(), tl, hudi.ListingStorage)
	victim := view.Partitions[1].FileGroups[0].Latest().Base
	if err := os.Remove(filepath.Join(table, filepath.FromSlash(victim.Path))); err != nil {
		t.Fatal(err)
	}
	c = mdtSync(t, table)
	if c.Status != health.Unhealthy || configValue(c, "observed.partitions.inconsistent") != "1" ||
		!strings.Contains(strings.Join(c.Findings, "\n"), victim.Name) {
		t.Errorf("drift not reported: %+v", c)
	}
}
