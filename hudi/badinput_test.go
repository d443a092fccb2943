package hudi_test

import (
	"archive/zip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// extractTable unpacks a corpus zip into a temp dir and returns the table directory.
func extractTable(t *testing.T, rel string) string {
	t.Helper()
	zr, err := zip.OpenReader(filepath.Join(corpusDir(t), rel))
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	dst := t.TempDir()
	var top string
	for _, f := range zr.File {
		if strings.HasPrefix(f.Name, "__MACOSX") {
			continue
		}
		if top == "" {
			top = strings.SplitN(f.Name, "/", 2)[0]
		}
		p := filepath.Join(dst, filepath.FromSlash(f.Name))
		if f.FileInfo().IsDir() {
			os.MkdirAll(p, 0o755)
			continue
		}
		os.MkdirAll(filepath.Dir(p), 0o755)
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		out, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(out, rc)
		out.Close()
		rc.Close()
	}
	return filepath.Join(dst, top)
}

func TestOpenBadTables(t *testing.T) {
	ctx := context.Background()
	t.Run("missing .hoodie", func(t *testing.T) {
		dir := extractTable(t, "sample_table/cow/v6_nonpartitioned.zip")
		os.RemoveAll(filepath.Join(dir, ".hoodie"))
		_, err := hudi.Open(ctx, dir, storage.Options{})
		if !errors.Is(err, hudi.ErrNotHudiTable) || !strings.Contains(err.Error(), dir) {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("missing path", func(t *testing.T) {
		_, err := hudi.Open(ctx, "/nonexistent/table", storage.Options{})
		if err == nil || !strings.Contains(err.Error(), "/nonexistent/table") {
			t.Errorf("err = %v", err)
		}
	})
	cases := []struct {
		name, content, want string
	}{
		{"garbage properties", "\x00\x01\x02garbage\n", "no hoodie.table.name"},
		{"truncated properties", "hoodie.table.name=t\nhoodie.table.ty", "no hoodie.table.version"},
		{"unknown version", "hoodie.table.name=t\nhoodie.table.version=3\n", "unsupported table version 3"},
		{"future version", "hoodie.table.name=t\nhoodie.table.version=10\n", "unsupported table version 10"},
		{"bad type", "hoodie.table.name=t\nhoodie.table.version=6\nhoodie.table.type=MERGE\n", "unknown hoodie.table.type"},
		{"empty", "", "empty file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := extractTable(t, "sample_table/cow/v6_nonpartitioned.zip")
			props := filepath.Join(dir, ".hoodie", "hoodie.properties")
			os.WriteFile(props, []byte(c.content), 0o644)
			_, err := hudi.Open(ctx, dir, storage.Options{})
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "hoodie.properties") {
				t.Errorf("err = %v, want it to name hoodie.properties and say %q", err, c.want)
			}
		})
	}
	t.Run("backup used when main is corrupt", func(t *testing.T) {
		dir := extractTable(t, "sample_table/cow/v6_nonpartitioned.zip")
		props := filepath.Join(dir, ".hoodie", "hoodie.properties")
		good, _ := os.ReadFile(props)
		os.WriteFile(props+".backup", good, 0o644)
		os.WriteFile(props, good[:len(good)/3], 0o644)
		tbl, err := hudi.Open(ctx, dir, storage.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if tbl.Config.Name != "v6_nonpartitioned" || len(tbl.Problems()) != 1 || !strings.Contains(tbl.Problems()[0].Err, "backup") {
			t.Errorf("name %s problems %v", tbl.Config.Name, tbl.Problems())
		}
	})
}

// A corrupt instant file is listed with its error and named in Problems; every other instant
// still loads.
func TestCorruptInstants(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		zip, file, content, want string
	}{
		{"sample_table/cow/v6_complexkeygen_hivestyle.zip", ".hoodie/20240418173235694.commit", "{not json", "neither valid JSON"},
		{"sample_table/cow/v6_complexkeygen_hivestyle.zip", ".hoodie/20240418173235694.commit", "", "completed file is empty (0 bytes)"}, // a write still finishing its completed file
		{"sample_table/cow/v6_complexkeygen_hivestyle.zip", ".hoodie/20240418173235694.commit", "[1,2]", "cannot unmarshal array"},
		{"sample_table/cow/v9_txns_simple_meta.zip", ".hoodie/timeline/20260307162442820_20260307162443659.commit", "Obj\x01\x02garbage", "avro"},
	}
	for _, c := range cases {
		t.Run(filepath.Base(c.zip)+"/"+c.want, func(t *testing.T) {
			dir := extractTable(t, c.zip)
			before := countInstants(t, dir)
			if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(c.file)), []byte(c.content), 0o644); err != nil {
				t.Fatal(err)
			}
			tbl, err := hudi.Open(ctx, dir, storage.Options{})
			if err != nil {
				t.Fatal(err)
			}
			tl, err := tbl.ActiveTimeline(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(tl.Instants) != before {
				t.Errorf("instants = %d, want %d (all still listed)", len(tl.Instants), before)
			}
			var bad, good, writes int
			for _, in := range tl.Instants {
				if timeline.IsWriteAction(in.Action) {
					writes++
				}
				if in.Err != "" {
					bad++
				} else if in.Commit != nil {
					good++
				}
			}
			if bad != 1 || good != writes-1 {
				t.Errorf("bad %d good %d", bad, good)
			}
			p := tbl.Problems()
			if len(p) != 1 || !strings.HasSuffix(p[0].File, c.file) || !strings.Contains(p[0].Err, c.want) {
				t.Errorf("problems = %v, want one naming %s with %q", p, c.file, c.want)
			}
		})
	}
}

func countInstants(t *testing.T, dir string) int {
	tbl, err := hudi.Open(context.Background(), dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tl, err := tbl.ActiveTimeline(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return len(tl.Instants)
}
