package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// mdtOracle is oracle/metadata_procedures.json (testdata/gen/probe_metadata.py): the rows of
// Hudi's own metadata-table procedures, run by Spark on an unzipped copy of the fixture.
type mdtOracle struct {
	Reader     string `json:"reader"`
	Partitions struct {
		Rows []struct {
			Partition string `json:"partition"`
		} `json:"rows"`
		Error any `json:"error"`
	} `json:"show_metadata_table_partitions"`
	Files map[string]struct {
		Rows []struct {
			FilePath string `json:"file_path"`
		} `json:"rows"`
	} `json:"show_metadata_table_files"`
	Stats struct {
		Rows  []map[string]any `json:"rows"`
		Error any              `json:"error"`
	} `json:"show_metadata_table_stats"`
	Validate struct {
		Rows []struct {
			Partition    string `json:"partition"`
			FileName     string `json:"file_name"`
			InFS         bool   `json:"is_present_in_fs"`
			InMetadata   bool   `json:"is_present_in_metadata"`
			FSSize       int64  `json:"fs_size"`
			MetadataSize int64  `json:"metadata_size"`
		} `json:"rows"`
		Error any `json:"error"`
	} `json:"validate_metadata_table_files"`
}

// `metadata validate-files --all` lists, on a 1.x and a 0.x fixture, exactly what Hudi's
// procedures return: the partitions show_metadata_table_partitions names, per partition the
// files show_metadata_table_files names, and validate_metadata_table_files(verbose => true)'s
// every row (presence on both sides and both sizes).
func TestMetadataMatchesSparkProcedures(t *testing.T) {
	for _, fx := range []string{"cow-services-1.2.0", "cow-services-0.15.0"} {
		t.Run(fx, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("..", "testdata", "fixtures", fx, "oracle", "metadata_procedures.json"))
			if err != nil {
				t.Fatal(err)
			}
			var o mdtOracle
			if err := json.Unmarshal(b, &o); err != nil {
				t.Fatal(err)
			}
			if o.Partitions.Error != nil || o.Validate.Error != nil || o.Stats.Error != nil {
				t.Fatalf("the oracle recorded errors: %v %v %v", o.Partitions.Error, o.Validate.Error, o.Stats.Error)
			}
			// show_metadata_table_stats returns HoodieBackedTableMetadata.stats(), which is empty
			// unless metadata metrics are enabled (the procedure does not enable them): there is
			// nothing of it to compare `metadata stats` with.
			if len(o.Stats.Rows) != 0 {
				t.Errorf("show_metadata_table_stats returned %d rows: compare them with `metadata stats`", len(o.Stats.Rows))
			}
			d := decodeMDT(t, runMDT(t, 0, "metadata", "validate-files", fixture(fx), "--all", "-o", "json"))

			var wantParts, gotParts []string
			for _, r := range o.Partitions.Rows {
				wantParts = append(wantParts, r.Partition)
			}
			for _, p := range d.Partitions {
				if p.InMDT {
					gotParts = append(gotParts, p.Partition)
				}
			}
			sort.Strings(wantParts)
			if strings.Join(gotParts, ",") != strings.Join(wantParts, ",") || len(wantParts) != 3 {
				t.Errorf("partitions %v, Spark %v", gotParts, wantParts)
			}

			mdtFiles := map[string][]string{}
			var got, want []string
			for _, f := range d.Files {
				if f.InMDT {
					mdtFiles[f.Partition] = append(mdtFiles[f.Partition], f.File)
				}
				got = append(got, fmt.Sprintf("%s/%s fs=%v mdt=%v %d %d", f.Partition, f.File, f.OnStorage, f.InMDT, f.StorageSize, f.MDTSize))
			}
			if len(o.Files) != 3 {
				t.Errorf("show_metadata_table_files ran for %d partitions", len(o.Files))
			}
			for p, res := range o.Files {
				var names []string
				for _, r := range res.Rows {
					names = append(names, r.FilePath)
				}
				if strings.Join(mdtFiles[p], ",") != strings.Join(names, ",") {
					t.Errorf("%s: metadata table files\n%v\nSpark\n%v", p, mdtFiles[p], names)
				}
			}
			for _, r := range o.Validate.Rows {
				want = append(want, fmt.Sprintf("%s/%s fs=%v mdt=%v %d %d", r.Partition, r.FileName, r.InFS, r.InMetadata, r.FSSize, r.MetadataSize))
			}
			sort.Strings(got)
			sort.Strings(want)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("validate rows differ from Spark's:\n%s\nSpark:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if len(want) != 98 || d.FilesCompared != 98 {
				t.Errorf("%d Spark rows, %d compared; the fixture has 98 data files", len(want), d.FilesCompared)
			}
		})
	}
}
