package testutil

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// FleetZip is one table of the fleet corpus: its zip and the slash-separated directory under
// the fleet root it is extracted into (the table is that directory's one child).
type FleetZip struct{ Zip, Dir string }

// FleetCorpus lists every fixture table (testdata/fixtures/*/table.zip) and every shared
// hudi-rs table zip (skipped when ../shared is absent) under nested prefixes 2–3 levels deep,
// plus one table 4 levels deep (the default discovery depth). repo is the repository root
// relative to the calling test's directory.
func FleetCorpus(t testing.TB, repo string) []FleetZip {
	t.Helper()
	var out []FleetZip
	fx, _ := filepath.Glob(filepath.Join(repo, "testdata", "fixtures", "*", "table.zip"))
	for i, z := range fx {
		dir := "fixtures/" + filepath.Base(filepath.Dir(z))
		if i == 0 {
			dir = "deep/a/b" // the table itself is the 4th level
		}
		out = append(out, FleetZip{Zip: z, Dir: dir})
	}
	rs := filepath.Join(repo, "..", "shared", "testdata", "hudi-rs", "crates", "test", "data")
	_ = filepath.Walk(rs, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !strings.HasSuffix(p, ".zip") {
			return nil
		}
		rel, _ := filepath.Rel(rs, filepath.Dir(p))
		// sample_table/mor/avro → hudi-rs/sample_table-mor-avro: tables of the same name in
		// cow and mor stay apart.
		out = append(out, FleetZip{Zip: p, Dir: "hudi-rs/" + strings.ReplaceAll(filepath.ToSlash(rel), "/", "-")})
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Zip < out[j].Zip })
	if len(out) == 0 {
		t.Skip("no fixture tables found")
	}
	return out
}

// ExtractFleet unzips the corpus under root and returns each table's slash path relative to
// root, in corpus order. Non-table noise (a loose file, an empty directory, a _temporary
// directory holding a .hoodie copy) goes in too, so discovery has something to ignore.
func ExtractFleet(t testing.TB, corpus []FleetZip, root string) []string {
	t.Helper()
	var rels []string
	for _, z := range corpus {
		dir := UnzipTable(t, z.Zip, filepath.Join(root, filepath.FromSlash(z.Dir)))
		rel, err := filepath.Rel(root, dir)
		if err != nil {
			t.Fatal(err)
		}
		rels = append(rels, filepath.ToSlash(rel))
	}
	for _, d := range []string{"empty/dir", "logs/2024", "fixtures/_temporary/.hoodie"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.FromSlash(d)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"README.txt", "logs/2024/app.log", "fixtures/_temporary/.hoodie/hoodie.properties"} {
		if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(f)), []byte("not a table\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return rels
}
