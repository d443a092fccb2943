package timeline

import (
	"archive/zip"
	"io"
	"path/filepath"
	"reflect"
	"regexp"
	"testing"

	"github.com/hudiscope/hudiscope/hudi/internal/avro"
)

// The typed decode of what timeline rows show agrees with the full decode on every fixture.
func TestDecodeCommitLiteMatchesFull(t *testing.T) {
	zips, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "fixtures", "*", "*.zip"))
	commitFile := regexp.MustCompile(`\.hoodie/(timeline/)?[0-9_]+\.(commit|deltacommit|replacecommit)$`)
	n := 0
	for _, z := range zips {
		zr, err := zip.OpenReader(z)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range zr.File {
			if !commitFile.MatchString(f.Name) {
				continue
			}
			rc, _ := f.Open()
			b, _ := io.ReadAll(rc)
			rc.Close()
			full, ferr := decodeCommitMetadata(b)
			lite, lerr := decodeCommitLite(b)
			if (ferr == nil) != (lerr == nil) {
				t.Fatalf("%s %s: %v vs %v", z, f.Name, ferr, lerr)
			}
			if ferr != nil {
				continue
			}
			n++
			if avro.IsOCF(b) {
				var lc liteCommit
				if err := avro.FirstRecordInto(b, &lc); err != nil {
					t.Errorf("%s %s: typed decode: %v", z, f.Name, err)
				}
			}
			if full.Totals() != lite.Totals() || full.OperationType != lite.OperationType ||
				!reflect.DeepEqual(full.PartitionToReplaceFileIDs, lite.PartitionToReplaceFileIDs) {
				t.Errorf("%s %s: lite %+v differs from full %+v", z, f.Name, lite, full)
			}
		}
		zr.Close()
	}
	if n == 0 {
		t.Skip("no fixture commits")
	}
	t.Logf("%d commit files", n)
}
