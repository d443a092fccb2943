package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// filesRow is one file group as `files -o json` and Spark's show_fsview_latest both give it.
type filesRow struct {
	partition, fileID, base  string
	baseSize, logs, logBytes int64
}

func (r filesRow) String() string {
	return fmt.Sprintf("%s/%s base %s (%d B) logs %d (%d B)", r.partition, r.fileID, r.base, r.baseSize, r.logs, r.logBytes)
}

// filesJSONRows runs `files -o json` with args and returns its rows in output order.
func filesJSONRows(t *testing.T, args ...string) []filesRow {
	t.Helper()
	out, stderr, code := runCLI(t, append([]string{"files", "-o", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("files %v: exit %d: %s", args, code, stderr)
	}
	var doc struct {
		Partitions []struct {
			Path       string `json:"path"`
			FileGroups []struct {
				FileID   string `json:"fileId"`
				BaseFile *struct {
					Name string `json:"name"`
					Size int64  `json:"size"`
				} `json:"baseFile"`
				LogFiles []struct {
					Size int64 `json:"size"`
				} `json:"logFiles"`
			} `json:"fileGroups"`
		} `json:"partitions"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	var rows []filesRow
	for _, p := range doc.Partitions {
		for _, g := range p.FileGroups {
			r := filesRow{partition: p.Path, fileID: g.FileID, logs: int64(len(g.LogFiles))}
			if g.BaseFile != nil {
				r.base, r.baseSize = g.BaseFile.Name, g.BaseFile.Size
			}
			for _, l := range g.LogFiles {
				r.logBytes += l.Size
			}
			rows = append(rows, r)
		}
	}
	return rows
}

// fsviewOracle reads oracle/latest_file_slices.json (Spark's CALL show_fsview_latest per
// partition, which returns at most 10 rows — its default limit — in no particular order).
func fsviewOracle(t *testing.T, fx string) map[string][]filesRow {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "fixtures", fx, "oracle", "latest_file_slices.json"))
	if err != nil {
		t.Fatal(err)
	}
	var o struct {
		Partitions map[string]struct {
			Columns []string `json:"columns"`
			Rows    [][]any  `json:"rows"`
		} `json:"partitions"`
	}
	if err := json.Unmarshal(b, &o); err != nil {
		t.Fatal(err)
	}
	out := map[string][]filesRow{}
	for part, tab := range o.Partitions {
		col := map[string]int{}
		for i, c := range tab.Columns {
			col[c] = i
		}
		for _, r := range tab.Rows {
			num := func(c string) int64 { f, _ := r[col[c]].(float64); return int64(f) }
			base := path.Base(fmt.Sprint(r[col["data_file"]]))
			if r[col["data_file"]] == nil || base == "." {
				base = ""
			}
			out[part] = append(out[part], filesRow{partition: part, fileID: fmt.Sprint(r[col["file_id"]]), base: base,
				baseSize: num("data_file_size"), logs: num("num_delta_files"), logBytes: num("total_delta_file_size")})
		}
	}
	return out
}

// `files --partition P` lists what Spark's show_fsview_latest lists for P (file ids, base
// files and sizes, log counts and bytes), and `--limit N` the first N of that listing in
// partition and file id order, on a 0.x and a 1.x fixture.
func TestFilesAgainstShowFsviewLatest(t *testing.T) {
	for _, c := range []struct {
		fx       string
		perPart  int // file groups per partition (show_fsview_latest's 10 rows are a subset above 10)
		parts    int
		glob     string
		globHits int
	}{
		{"cow-services-0.15.0", 0, 3, "2024-01-0[23]", 3},
		{"index-bloom-1.2.0", 13, 8, "2024-01-0[5-8]", 52},
	} {
		oracle := fsviewOracle(t, c.fx)
		if len(oracle) != c.parts {
			t.Fatalf("%s: oracle has %d partitions, want %d", c.fx, len(oracle), c.parts)
		}
		var all []filesRow // every partition, as --partition lists each
		for part, want := range oracle {
			got := filesJSONRows(t, fixture(c.fx), "--partition", part)
			if c.perPart > 0 && len(got) != c.perPart {
				t.Errorf("%s --partition %s: %d file groups, want %d", c.fx, part, len(got), c.perPart)
			}
			if c.perPart == 0 && len(got) != len(want) {
				t.Errorf("%s --partition %s: %d file groups, show_fsview_latest %d", c.fx, part, len(got), len(want))
			}
			byID := map[string]filesRow{}
			for _, r := range got {
				if r.partition != part {
					t.Errorf("%s --partition %s listed %s", c.fx, part, r)
				}
				byID[r.fileID] = r
			}
			for _, w := range want {
				if g, ok := byID[w.fileID]; !ok || g != w {
					t.Errorf("%s: show_fsview_latest %s\n              files %s", c.fx, w, g)
				}
			}
			all = append(all, got...)
		}
		sort.Slice(all, func(i, j int) bool {
			if all[i].partition != all[j].partition {
				return all[i].partition < all[j].partition
			}
			return all[i].fileID < all[j].fileID
		})
		// --limit: the first N of the whole listing; with a glob, of the partitions it matches.
		for _, n := range []int{1, 4, 11} {
			got := filesJSONRows(t, fixture(c.fx), "--limit", fmt.Sprint(n))
			if fmt.Sprint(got) != fmt.Sprint(all[:min(n, len(all))]) {
				t.Errorf("%s --limit %d:\n got %v\nwant %v", c.fx, n, got, all[:min(n, len(all))])
			}
		}
		var inGlob []filesRow
		for _, r := range all {
			if ok, _ := path.Match(c.glob, r.partition); ok {
				inGlob = append(inGlob, r)
			}
		}
		if len(inGlob) != c.globHits {
			t.Fatalf("%s: %d file groups in %s, want %d", c.fx, len(inGlob), c.glob, c.globHits)
		}
		got := filesJSONRows(t, fixture(c.fx), "--partition", c.glob, "--limit", "2")
		if fmt.Sprint(got) != fmt.Sprint(inGlob[:2]) || !strings.HasPrefix(got[0].partition, "2024-01-0") {
			t.Errorf("%s --partition %s --limit 2:\n got %v\nwant %v", c.fx, c.glob, got, inGlob[:2])
		}
		if got := filesJSONRows(t, fixture(c.fx), "--partition", c.glob); len(got) != c.globHits {
			t.Errorf("%s --partition %s: %d file groups, want %d", c.fx, c.glob, len(got), c.globHits)
		}
	}
}
