//go:build hdfs_it

package hdfs_test

// Integration test against a real HDFS (scripts/hdfs-it.sh starts Hadoop's MiniDFSCluster
// and sets HUDISCOPE_HDFS_URL). It uploads the fixture tables with the plain HDFS client (test
// setup only; the backend itself is read-only) and compares timeline and files with the zips.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/colinmarc/hdfs/v2"

	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/storage"
	_ "github.com/hudiscope/hudiscope/hudi/storage/hdfs"
	"github.com/hudiscope/hudiscope/internal/testutil"
	"github.com/hudiscope/hudiscope/model"
)

func TestHDFSEqualsZip(t *testing.T) {
	base := os.Getenv("HUDISCOPE_HDFS_URL") // hdfs://127.0.0.1:port
	if base == "" {
		t.Skip("HUDISCOPE_HDFS_URL not set (run scripts/hdfs-it.sh)")
	}
	addr := strings.TrimPrefix(base, "hdfs://")
	c, err := hdfs.NewClient(hdfs.ClientOptions{Addresses: []string{addr}, User: "hudiscope", UseDatanodeHostname: true})
	if err != nil {
		t.Fatal(err)
	}
	zips, _ := filepath.Glob("../../../testdata/fixtures/*/table.zip")
	if len(zips) == 0 {
		t.Skip("no fixtures")
	}
	for _, z := range zips {
		name := filepath.Base(filepath.Dir(z))
		t.Run(name, func(t *testing.T) {
			root := "/it/" + name
			upload(t, c, z, root)
			got, want := summary(t, base+root), summary(t, z)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("HDFS and zip differ:\n%s\n---\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			t.Logf("%d lines equal (timeline + files, storage and MDT listing)", len(got))
		})
	}
}

// upload copies a fixture zip's table to root on HDFS with the plain client (test setup only).
func upload(t *testing.T, c *hdfs.Client, z, root string) {
	src, err := storage.Open(z, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c.RemoveAll(root)
	testutil.EachFile(t, src, func(rel string, b []byte) {
		p := path.Join(root, rel)
		c.MkdirAll(path.Dir(p), 0o755)
		w, err := c.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(b)
		err = w.Close()
		for i := 0; i < 20 && errors.Is(err, hdfs.ErrReplicating); i++ {
			time.Sleep(50 * time.Millisecond) // the namenode has not seen the block complete yet
			err = w.Close()
		}
		if errors.Is(err, hdfs.ErrReplicating) {
			// Still "replicating" (seen for small files on the mini cluster): accept
			// the file once the namenode reports its full length.
			if fi, serr := c.Stat(p); serr == nil && fi.Size() == int64(len(b)) {
				err = nil
			}
		}
		if err != nil {
			t.Fatal(err)
		}
	})
}

func summary(t *testing.T, location string) []string {
	ctx := context.Background()
	tab, err := hudi.Open(ctx, location, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tl, err := tab.ActiveTimeline(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, in := range tl.Instants {
		out = append(out, fmt.Sprintf("%s %s %s %s %s %+v", in.RequestedTime, in.CompletionTime, in.Action, in.State, in.Operation, in.Totals))
	}
	for _, src := range []hudi.ListingSource{hudi.ListingStorage, hudi.ListingAuto} {
		v, err := tab.View(ctx, tl, src)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v.String())
		for _, p := range v.Partitions {
			for _, g := range p.FileGroups {
				s := g.Latest()
				line := p.Path + " " + g.FileID
				if s.Base != nil {
					line += fmt.Sprintf(" %s:%d", s.Base.Name, s.Base.Size)
				}
				for _, l := range s.Logs {
					line += fmt.Sprintf(" %s:%d", l.Name, l.Size)
				}
				out = append(out, line)
			}
		}
	}
	for _, p := range tab.Problems() {
		out = append(out, "problem: "+strings.ReplaceAll(p.String(), location, "<root>"))
	}
	return out
}

// Fleet discovery over HDFS: every fixture uploaded by TestHDFSEqualsZip under /it is found
// once, and each row loads (run after it: `-run 'TestHDFSEqualsZip|TestHDFSFleet'`).
func TestHDFSFleet(t *testing.T) {
	base := os.Getenv("HUDISCOPE_HDFS_URL")
	if base == "" {
		t.Skip("HUDISCOPE_HDFS_URL not set (run scripts/hdfs-it.sh)")
	}
	c, err := hdfs.NewClient(hdfs.ClientOptions{Addresses: []string{strings.TrimPrefix(base, "hdfs://")}, User: "hudiscope", UseDatanodeHostname: true})
	if err != nil {
		t.Fatal(err)
	}
	// Tables at different depths, one beside a non-table folder.
	layout := map[string]string{"warehouse/sales/orders": "cow-services-1.2.0", "warehouse/incr": "incr-0.12.2",
		"warehouse/a/b/mor": "mor-v4-0.11.1"}
	c.RemoveAll("/fleet")
	c.MkdirAll("/fleet/warehouse/logs/2026", 0o755)
	for rel, fx := range layout {
		upload(t, c, "../../../testdata/fixtures/"+fx+"/table.zip", "/fleet/"+rel)
	}
	ctx := context.Background()
	d, err := model.Discover(ctx, base+"/fleet", model.DiscoverOptions{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, ft := range d.Tables {
		names = append(names, ft.Name)
	}
	want := []string{"warehouse/a/b/mor", "warehouse/incr", "warehouse/sales/orders"}
	if !reflect.DeepEqual(names, want) || d.Stopped != "" || len(d.Errors) > 0 {
		t.Fatalf("discovered %v (stopped %q, errors %v), want %v", names, d.Stopped, d.Errors, want)
	}
	for _, ft := range d.Tables {
		row, _ := model.LoadFleetRow(ctx, model.Options{Now: time.Now}, ft)
		if row.Error != "" || row.FileGroups == 0 {
			t.Errorf("%s: %+v", ft.Name, row)
		}
		t.Logf("%s: %s v%d, %d file groups, %d partitions", ft.Name, row.TableType, row.TableVersion, row.FileGroups, row.Partitions)
	}
}
