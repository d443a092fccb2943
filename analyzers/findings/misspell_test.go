package findings_test

import (
	"archive/zip"
	"bufio"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/config"
	"github.com/hudiscope/hudiscope/analyzers/findings"
)

// checkKeys runs the key check for writer props against a table of version tv (0: no table).
func checkKeys(t *testing.T, tv string, kv ...string) map[string]findings.KeyProblem {
	t.Helper()
	in := config.Input{Props: map[string]string{}, PropsFile: "w.properties"}
	for i := 0; i+1 < len(kv); i += 2 {
		in.Props[kv[i]] = kv[i+1]
	}
	if tv != "" {
		in.Table = map[string]string{"hoodie.table.name": "t", "hoodie.table.version": tv}
	}
	out := map[string]findings.KeyProblem{}
	for _, p := range findings.Default().CheckKeys(config.New(in)) {
		out[p.Key] = p
	}
	return out
}

// TestNewerKeyIsNotATypo: a 1.x name on a table 0.12 wrote does nothing there; it is reported
// as missing from that release, with the release's own name, not as a misspelling.
func TestNewerKeyIsNotATypo(t *testing.T) {
	ps := checkKeys(t, "5", "hoodie.clean.trigger.max.commits", "3", "hoodie.clean.commits.retained", "5",
		"hoodie.metadata.streaming.write.enabled", "true", "hoodie.cleaner.policy", "KEEP_LATEST_COMMITS")
	p := ps["hoodie.clean.trigger.max.commits"]
	if p.Kind != findings.KeyNewer || p.Suggest != "hoodie.clean.max.commits" || p.Releases != "0.12/0.13" ||
		!slices.Equal(p.In, []string{"1.0", "1.1", "1.2"}) || p.Caveat == "" ||
		!strings.Contains(p.Text, "not in Hudi 0.12/0.13 (from Hudi 1.0)") {
		t.Errorf("trigger.max.commits on v5: %+v", p)
	}
	if p := ps["hoodie.clean.commits.retained"]; p.Kind != findings.KeyNewer || p.Suggest != "hoodie.cleaner.commits.retained" {
		t.Errorf("clean.commits.retained on v5: %+v", p)
	}
	if p := ps["hoodie.metadata.streaming.write.enabled"]; p.Kind != findings.KeyNewer || p.Suggest != "" || p.In[0] != "1.1" {
		t.Errorf("metadata.streaming.write.enabled on v5: %+v", p)
	}
	if _, ok := ps["hoodie.cleaner.policy"]; ok || len(ps) != 3 {
		t.Errorf("problems: %+v", ps)
	}
	// None of them is a misspelling.
	for _, p := range ps {
		if p.Kind == findings.KeyMisspelled {
			t.Errorf("%s called misspelled", p.Key)
		}
	}
}

// TestReleaseKeysAreKnown: the table's release accepts its own names and alternatives; a key
// from 1.1 is fine on a v6 table whose 1.x writer pinned the table version.
func TestReleaseKeysAreKnown(t *testing.T) {
	if ps := checkKeys(t, "9", "hoodie.clean.max.commits", "3", "hoodie.cleaner.commits.retained", "5",
		"hoodie.metadata.streaming.write.enabled", "true", "hoodie.streamer.source.kafka.topic", "t"); len(ps) != 0 {
		t.Errorf("v9: %+v", ps)
	}
	if ps := checkKeys(t, "5", "hoodie.clean.max.commits", "3", "hoodie.metadata.keep.max.commits", "20"); len(ps) != 0 {
		t.Errorf("v5: %+v", ps)
	}
	if ps := checkKeys(t, "6", "hoodie.metadata.streaming.write.enabled", "true"); ps["hoodie.metadata.streaming.write.enabled"].Kind != findings.KeyNewer {
		t.Errorf("v6 without a pinned version: %+v", ps)
	}
	if ps := checkKeys(t, "6", "hoodie.metadata.streaming.write.enabled", "true", "hoodie.write.table.version", "6"); len(ps) != 0 {
		t.Errorf("v6 written by a pinned 1.x writer: %+v", ps)
	}
}

func TestRemovedKey(t *testing.T) {
	p := checkKeys(t, "9", "hoodie.metadata.keep.max.commits", "20")["hoodie.metadata.keep.max.commits"]
	if p.Kind != findings.KeyRemoved || !strings.Contains(p.Text, "last in Hudi 0.12") || p.Releases != "1.1/1.2" {
		t.Errorf("removed: %+v", p)
	}
}

// TestMisspelledPerRelease: a typo is matched against the table's release's names.
func TestMisspelledPerRelease(t *testing.T) {
	p := checkKeys(t, "5", "hoodie.cleaner.commits.retaind", "5")["hoodie.cleaner.commits.retaind"]
	if p.Kind != findings.KeyMisspelled || p.Suggest != "hoodie.cleaner.commits.retained" || p.Distance != 1 {
		t.Errorf("v5 typo: %+v", p)
	}
	p = checkKeys(t, "9", "hoodie.clean.comits.retained", "5")["hoodie.clean.comits.retained"]
	if p.Kind != findings.KeyMisspelled || p.Suggest != "hoodie.clean.commits.retained" ||
		!strings.Contains(p.Text, "does nothing in Hudi 1.1/1.2; did you mean hoodie.clean.commits.retained?") {
		t.Errorf("v9 typo: %+v", p)
	}
	// A typo of a 1.x name on a 0.12 table: 0.12's name for that key is suggested.
	p = checkKeys(t, "5", "hoodie.clean.comits.retained", "5")["hoodie.clean.comits.retained"]
	if p.Kind != findings.KeyMisspelled || p.Suggest != "hoodie.cleaner.commits.retained" || p.Near != "hoodie.clean.commits.retained" || p.Distance != 1 {
		t.Errorf("v5 typo of a 1.x name: %+v", p)
	}
	// Keys the release table does not carry (Streamer sources) still catch typos.
	p = checkKeys(t, "9", "hoodie.streamer.source.kafka.topik", "t")["hoodie.streamer.source.kafka.topik"]
	if p.Kind != findings.KeyMisspelled || p.Suggest != "hoodie.streamer.source.kafka.topic" {
		t.Errorf("streamer typo: %+v", p)
	}
	if ps := checkKeys(t, "9", "hoodie.totally.unrelated.custom.key", "x"); len(ps) != 0 {
		t.Errorf("far from every key: %+v", ps)
	}
}

// TestNoTableVersion: without a table every release counts, so no real key is a typo.
func TestNoTableVersion(t *testing.T) {
	ps := checkKeys(t, "", "hoodie.metadata.keep.max.commits", "20", "hoodie.metadata.streaming.write.enabled", "true",
		"hoodie.parquet.small.file.limt", "1")
	if len(ps) != 1 || ps["hoodie.parquet.small.file.limt"].Suggest != "hoodie.parquet.small.file.limit" ||
		!strings.Contains(ps["hoodie.parquet.small.file.limt"].Text, "any Hudi release") {
		t.Errorf("no table: %+v", ps)
	}
}

// TestMisspellingsListOnlyTypos: Result.Misspellings keeps its meaning (typos only).
func TestMisspellingsListOnlyTypos(t *testing.T) {
	eff := config.New(config.Input{Props: map[string]string{"hoodie.clean.trigger.max.commits": "3", "hoodie.cleaner.commits.retaind": "5"},
		Table: map[string]string{"hoodie.table.name": "t", "hoodie.table.version": "5"}})
	r := findings.Evaluate(findings.Input{Config: eff, PropsPresent: true}, nil)
	if len(r.Misspellings) != 1 || r.Misspellings[0].Key != "hoodie.cleaner.commits.retaind" {
		t.Errorf("misspellings: %+v", r.Misspellings)
	}
}

// TestFixtureWritersKeysKnown: the props real writers of 0.12.2, 0.15.0, 1.0.2 and 1.2.0 ran
// with are known to the release that wrote each table, except the metadata table's own
// archival keys, which no class of 0.14 or later mentions: those writers ignored them.
func TestFixtureWritersKeysKnown(t *testing.T) {
	want := map[string][]string{
		"cow-services-0.15.0": {"hoodie.metadata.keep.max.commits", "hoodie.metadata.keep.min.commits"},
		"cow-services-1.0.2":  {"hoodie.metadata.keep.min.commits"},
		"cow-services-1.2.0":  {"hoodie.metadata.keep.min.commits"},
		// The bootstrap generator passes hoodie.bootstrap.keygen.class, which only 0.12's
		// HoodieBootstrapConfig still defines (the key data of the 0.14 and 1.1 bundles lacks
		// it): those writers took the table's key generator.
		"bootstrap-0.14.0":      {"hoodie.bootstrap.keygen.class"},
		"bootstrap-1.1.1":       {"hoodie.bootstrap.keygen.class"},
		"bootstrap-full-0.14.0": {"hoodie.bootstrap.keygen.class"},
		// The archival settings of the 0.x generator set the metadata table's own keep
		// counts, which 0.14 no longer defines (as cow-services-0.15.0 above).
		"mor-archived-0.14.0": {"hoodie.metadata.keep.max.commits", "hoodie.metadata.keep.min.commits"},
		"tt-archive-0.14.0":   {"hoodie.metadata.keep.max.commits", "hoodie.metadata.keep.min.commits"},
	}
	dirs, _ := filepath.Glob(filepath.Join(fixtures, "*", "writer.properties"))
	if len(dirs) == 0 {
		t.Skip("no fixtures")
	}
	checked := map[string]bool{}
	for _, wp := range dirs {
		dir := filepath.Dir(wp)
		table := tableProps(t, filepath.Join(dir, "table.zip"))
		if table == nil {
			continue
		}
		checked[table["hoodie.table.version"]] = true
		f, err := os.Open(wp)
		if err != nil {
			t.Fatal(err)
		}
		props := readProps(f)
		f.Close()
		ps := findings.Default().CheckKeys(config.New(config.Input{Props: props, PropsFile: wp, Table: table}))
		var got []string
		for _, p := range ps {
			if p.Kind != findings.KeyRemoved {
				t.Errorf("%s: %s", filepath.Base(dir), p.Text)
			}
			got = append(got, p.Key)
		}
		if w := want[filepath.Base(dir)]; !slices.Equal(got, w) {
			t.Errorf("%s (table version %s): %v, want %v", filepath.Base(dir), table["hoodie.table.version"], got, w)
		}
	}
	if !checked["5"] || !checked["6"] || !checked["9"] {
		t.Errorf("fixtures checked cover table versions %v; want at least 5, 6 and 9", checked)
	}
}

// tableProps is the table's own hoodie.properties inside a fixture zip (not the metadata
// table's), or nil.
func tableProps(t *testing.T, path string) map[string]string {
	t.Helper()
	z, err := zip.OpenReader(path)
	if err != nil {
		return nil
	}
	defer z.Close()
	for _, f := range z.File {
		if strings.HasSuffix(f.Name, "/.hoodie/hoodie.properties") && strings.Count(f.Name, "/.hoodie/") == 1 {
			r, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			return readProps(r)
		}
	}
	return nil
}

func readProps(r io.Reader) map[string]string {
	out := map[string]string{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == '!' {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			k, v, _ = strings.Cut(line, " ")
		}
		out[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return out
}
