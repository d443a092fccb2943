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
				!reflect.DeepEqual(full.PartitionToReplaceFileIDs, lite.PartitionToReplaceFileIDs) ||
				!reflect.DeepEqual(full.PartitionWrites(), lite.PartitionWrites()) {
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

// PartitionWrites sums each partition's stats in partition order; an empty partition keeps a
// zero row; a new file group is one written by inserts only with no previous commit.
func TestPartitionWrites(t *testing.T) {
	cm := &CommitMetadata{PartitionToWriteStats: map[string][]WriteStat{
		"b": {{FileID: "f1", PrevCommit: "null", NumWrites: 5, NumInserts: 5, TotalWriteBytes: 100},
			{FileID: "f2", PrevCommit: "001", NumWrites: 7, NumInserts: 1, NumUpdateWrites: 2, NumDeletes: 1, TotalWriteBytes: 300}},
		"a": {{FileID: "f3", NumWrites: 3, NumInserts: 3, TotalWriteBytes: 50}},
		"c": {},
	}}
	want := []PartitionWrites{
		{Partition: "a", Files: 1, NewFiles: 1, NumWrites: 3, NumInserts: 3, TotalWriteBytes: 50},
		{Partition: "b", Files: 2, UpdatedFiles: 1, NewFiles: 1, NumWrites: 12, NumInserts: 6, NumUpdateWrites: 2, NumDeletes: 1, TotalWriteBytes: 400},
		{Partition: "c"},
	}
	if got := cm.PartitionWrites(); !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
	in := &Instant{Commit: cm}
	if got, ok := in.Writes(); !ok || len(got) != 3 {
		t.Errorf("Writes from Commit: %v %+v", ok, got)
	}
	if _, ok := (&Instant{}).Writes(); ok {
		t.Error("an unread instant has writes")
	}
	if (&Instant{Operation: "CLUSTER"}).CommitOperation() != "" {
		t.Error("a pending clustering's operation read as its commit's")
	}
}
