package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/internal/testutil"
	"github.com/hudiscope/hudiscope/report"
)

// metadataGolden compares out with testdata/golden/name (rewritten with -update).
func metadataGolden(t *testing.T, name, out string) {
	t.Helper()
	assertGolden(t, filepath.Join("testdata", "golden", name), out)
}

// mdtDoc is the part of the metadata documents the tests read.
type mdtDoc struct {
	SchemaVersion string `json:"schemaVersion"`
	Partitions    []struct {
		Partition    string `json:"partition"`
		InMDT        bool   `json:"inMetadataTable"`
		MDTFiles     int    `json:"metadataTableFiles"`
		MDTBytes     int64  `json:"metadataTableBytes"`
		StorageBytes int64  `json:"storageBytes"`
		Name         string `json:"name"`
		Enabled      bool   `json:"enabled"`
		FileGroups   int    `json:"fileGroups"`
		BaseFiles    int    `json:"baseFiles"`
		BaseBytes    int64  `json:"baseBytes"`
		LogFiles     int    `json:"logFiles"`
		LogBytes     int64  `json:"logBytes"`
		BaseRecords  *int64 `json:"baseRecords"`
	} `json:"partitions"`
	Files []struct {
		Partition   string `json:"partition"`
		File        string `json:"file"`
		Status      string `json:"status"`
		InMDT       bool   `json:"inMetadataTable"`
		OnStorage   bool   `json:"onStorage"`
		MDTSize     int64  `json:"metadataTableSize"`
		StorageSize int64  `json:"storageSize"`
	} `json:"files"`
	FilesCompared               int      `json:"filesCompared"`
	Mismatches                  int      `json:"mismatches"`
	Match                       bool     `json:"match"`
	LastCompaction              string   `json:"lastCompaction"`
	DeltaCommitsSinceCompaction int      `json:"deltaCommitsSinceCompaction"`
	MaxDeltaCommits             int      `json:"maxDeltaCommits"`
	LatestDataInstant           string   `json:"latestDataInstant"`
	LatestSynced                string   `json:"latestSynced"`
	NotSynced                   []string `json:"notSynced"`
	Lagging                     bool     `json:"lagging"`
	Instants                    []struct {
		Action string `json:"action"`
	} `json:"instants"`
}

func runMDT(t *testing.T, wantCode int, args ...string) string {
	t.Helper()
	stdout, stderr, code := runCLI(t, args...)
	if code != wantCode {
		t.Fatalf("%v: exit %d, want %d: %s", args, code, wantCode, stderr)
	}
	return stdout
}

func decodeMDT(t *testing.T, s string) mdtDoc {
	t.Helper()
	var d mdtDoc
	if err := json.Unmarshal([]byte(s), &d); err != nil {
		t.Fatalf("%v\n%.400s", err, s)
	}
	if d.SchemaVersion != report.SchemaVersion {
		t.Errorf("schemaVersion %q", d.SchemaVersion)
	}
	return d
}

// The three subcommands' text, JSON and Markdown match their golden files on a 1.x and a 0.x
// fixture, and say what was counted by hand from the zips (unzip -l) and the timelines.
func TestMetadataGolden(t *testing.T) {
	t.Setenv("HUDISCOPE_NOW", "2026-12-01T00:00:00Z")
	t.Setenv("TZ", "UTC")
	type want struct {
		files, mdtFiles0 int
		bytes0           int64
		parts            []string // metadata-table partitions in order
		filesRecords     int64    // the files partition's base HFile entries: partitions + __all_partitions__
		instants         int
		lastCompaction   string
		deltas, maxDelta int
		synced           string
	}
	cases := map[string]want{
		// 98 data files in 3 partitions (34 in 2024-01-01, 368147 bytes); the MDT's timeline
		// holds 31 instants, its last compaction 20261129162016144 with 4 delta commits since;
		// writer.properties sets max.delta.commits=5.
		"cow-services-1.2.0": {98, 34, 368147, []string{"files", "column_stats", "partition_stats"}, 4, 31, "20261129162016144", 4, 5, "20261129162134323"},
		// 0.15.0: the MDT's compaction is 20261129165722837001 (the delta commit's time + 001);
		// Hudi 0.x counts the delta commits requested after it (findInstantsAfter): 1,
		// 20261129165727052. 20261129165722837 was requested before it but its completion time
		// (the file's modification time, 16:57:26, second precision) falls after: not counted.
		"cow-services-0.15.0": {98, 34, 0, []string{"files"}, 4, 34, "20261129165722837001", 1, 5, "20261129165727052"},
	}
	for fx, w := range cases {
		t.Run(fx, func(t *testing.T) {
			table := fixture(fx)
			props := filepath.Join("..", "testdata", "fixtures", fx, "writer.properties")
			for _, sub := range []string{"validate-files", "stats", "timeline"} {
				args := []string{"metadata", sub, table, "--props", props, "--cluster-defaults", "-"}
				metadataGolden(t, fx+"-metadata-"+sub+".txt", runMDT(t, 0, args...))
				metadataGolden(t, fx+"-metadata-"+sub+".md", runMDT(t, 0, append(args, "-o", "md")...))
				out := runMDT(t, 0, append(args, "-o", "json")...)
				metadataGolden(t, fx+"-metadata-"+sub+".json", out)
				d := decodeMDT(t, out)
				switch sub {
				case "validate-files":
					if d.FilesCompared != w.files || !d.Match || d.Mismatches != 0 || len(d.Files) != 0 || len(d.Partitions) != 3 {
						t.Errorf("validate-files: %d files compared, match %v, %d mismatches, %d rows, %d partitions", d.FilesCompared, d.Match, d.Mismatches, len(d.Files), len(d.Partitions))
					}
					if p := d.Partitions[0]; p.Partition != "2024-01-01" || p.MDTFiles != w.mdtFiles0 || (w.bytes0 != 0 && p.MDTBytes != w.bytes0) || p.MDTBytes != p.StorageBytes {
						t.Errorf("validate-files: first partition %+v", p)
					}
				case "stats":
					var names []string
					for _, p := range d.Partitions {
						names = append(names, p.Name)
						if !p.Enabled {
							t.Errorf("stats: %s not enabled", p.Name)
						}
					}
					if strings.Join(names, ",") != strings.Join(w.parts, ",") {
						t.Errorf("stats: partitions %v, want %v", names, w.parts)
					}
					if f := d.Partitions[0]; f.FileGroups != 1 || f.BaseFiles != 1 || f.BaseRecords == nil || *f.BaseRecords != w.filesRecords {
						t.Errorf("stats: files partition %+v", f)
					}
				case "timeline":
					if w.instants != 0 && len(d.Instants) != w.instants {
						t.Errorf("timeline: %d instants, want %d", len(d.Instants), w.instants)
					}
					if d.LastCompaction != w.lastCompaction || d.DeltaCommitsSinceCompaction != w.deltas || d.MaxDeltaCommits != w.maxDelta {
						t.Errorf("timeline: last compaction %s, %d deltas since, max %d", d.LastCompaction, d.DeltaCommitsSinceCompaction, d.MaxDeltaCommits)
					}
					if d.Lagging || d.LatestSynced != w.synced || d.LatestDataInstant != w.synced || len(d.NotSynced) != 0 {
						t.Errorf("timeline: lagging %v, synced %s, latest %s, not synced %v", d.Lagging, d.LatestSynced, d.LatestDataInstant, d.NotSynced)
					}
				}
			}
		})
	}
}

// A copy of cow-services-1.2.0 with one data file removed from storage, one grown, one
// committed-looking file the metadata table never heard of and one of an instant that never
// completed: validate-files names each, exits 3, and does not count the uncommitted one.
func TestMetadataValidateCorrupted(t *testing.T) {
	t.Setenv("HUDISCOPE_NOW", "2026-12-01T00:00:00Z")
	table := testutil.UnzipTable(t, fixture("cow-services-1.2.0"), t.TempDir())
	part := filepath.Join(table, "2024-01-01")
	removed := "ec19a719-ac83-432a-9c0f-0186909cbb94-0_2-994-3306_20261129161754717.parquet"
	grown := "859430ee-e13f-428c-a380-5424432410b2-0_3-958-3164_20261129161749834.parquet"
	extra := "00000000-1111-2222-3333-444444444444-0_0-1-1_20261129161749834.parquet"
	uncommitted := "00000000-1111-2222-3333-555555555555-0_0-1-1_20991231000000000.parquet"
	if err := os.Remove(filepath.Join(part, removed)); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(part, grown), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("12345")); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, n := range []string{extra, uncommitted} {
		if err := os.WriteFile(filepath.Join(part, n), []byte("PAR1"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := runMDT(t, exitMDTMismatch, "metadata", "validate-files", table, "-o", "json")
	d := decodeMDT(t, out)
	got := map[string]string{}
	for _, f := range d.Files {
		got[f.File] = f.Status
		if f.Partition != "2024-01-01" {
			t.Errorf("%s in partition %q", f.File, f.Partition)
		}
		switch f.File {
		case removed:
			if !f.InMDT || f.OnStorage || f.MDTSize != 10791 {
				t.Errorf("removed: %+v", f)
			}
		case grown:
			if f.MDTSize != 10791 || f.StorageSize != 10796 {
				t.Errorf("grown: %+v", f)
			}
		}
	}
	want := map[string]string{removed: "missing on storage", grown: "size differs", extra: "missing in metadata table", uncommitted: "uncommitted on storage"}
	for n, s := range want {
		if got[n] != s {
			t.Errorf("%s: status %q, want %q", n, got[n], s)
		}
	}
	if len(got) != len(want) || d.Mismatches != 3 || d.Match || d.FilesCompared != 100 {
		t.Errorf("%d rows, %d mismatches, match %v, %d compared", len(got), d.Mismatches, d.Match, d.FilesCompared)
	}
	text := runMDT(t, exitMDTMismatch, "metadata", "validate-files", table)
	for _, s := range []string{removed + "  missing on storage", "MISMATCH: 3 file(s) differ — 1 missing on storage, 1 missing in the metadata table, 1 with another size"} {
		if !strings.Contains(text, s) {
			t.Errorf("text lacks %q:\n%s", s, text)
		}
	}
}

// A table without a metadata table: every subcommand exits 1 and says so, naming the path.
func TestMetadataNoMetadataTable(t *testing.T) {
	for _, sub := range []string{"validate-files", "stats", "timeline"} {
		stdout, stderr, code := runCLI(t, "metadata", sub, fixture("cow-v4-0.11.1"))
		if code != exitError || stdout != "" || !strings.Contains(stderr, "the table has no metadata table: ") ||
			!strings.Contains(stderr, "table.zip/.hoodie/metadata/.hoodie does not exist") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", sub, code, stdout, stderr)
		}
	}
}
