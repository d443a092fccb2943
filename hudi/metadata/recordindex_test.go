package metadata

import (
	"bytes"
	"context"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/hudiscope/hudiscope/hudi/storage"
)

// TestRecordIndexFixture: index-rli-1.2.0 (ids 0..1249, partition 2024-01-0(k%8+1); 1200 bulk
// inserted in three commits, 50 inserted and 150 updated by the fourth) has its record index in 10
// record_index file groups of log files only. Every key is in the group Hudi's hash names (one
// group read), in its partition; an absent key reads all ten.
func TestRecordIndexFixture(t *testing.T) {
	t.Run("read whole", testRecordIndexFixture)
	// The same answers when the base HFiles are read in ranges (a record index past WholeReadMax).
	old := WholeReadMax
	WholeReadMax = 0
	defer func() { WholeReadMax = old }()
	t.Run("read in ranges", testRecordIndexFixture)
}

func testRecordIndexFixture(t *testing.T) {
	st, err := storage.Open(filepath.Join("..", "..", "testdata", "fixtures", "index-rli-1.2.0", "table.zip"), storage.Options{})
	if err != nil {
		t.Skip(err)
	}
	ctx := context.Background()
	for k := 0; k < 1250; k += 13 {
		key := strconv.Itoa(k)
		loc, read, err := LookupRecordIndex(ctx, st, nil, key)
		if err != nil {
			t.Fatal(err)
		}
		if loc == nil {
			t.Fatalf("key %s not in the record index", key)
		}
		if want := "2024-01-0" + strconv.Itoa(k%8+1); loc.Partition != want || read != 1 {
			t.Errorf("key %s: %s after %d groups, want %s after 1", key, loc.Partition, read, want)
		}
		// The bulk inserts wrote ids 0..399, 400..799 and 800..1199; the fourth commit the rest.
		want := map[int]string{0: "20261129164749268", 1: "20261129164834843", 2: "20261129164850609", 3: "20261129164906765"}[min(k/400, 3)]
		if loc.Instant != want {
			t.Errorf("key %s: index entry written at %s, want %s", key, loc.Instant, want)
		}
	}
	loc, read, err := LookupRecordIndex(ctx, st, nil, "99999")
	if err != nil || loc != nil || read != 10 {
		t.Errorf("absent key: %+v after %d groups (%v), want none after 10", loc, read, err)
	}
	// Key 8: the file group Spark's snapshot row names (oracle/key_story.json).
	loc, _, _ = LookupRecordIndex(ctx, st, nil, "8")
	if loc.FileID != "bd0ae8b1-4af4-424d-9eee-8815ba69cf2c-2" || loc.IndexFileGroup != "record-index-0006-0" {
		t.Errorf("key 8: %+v", loc)
	}
}

// TestJavaStringHash: Java's String.hashCode, also past the BMP (UTF-16 surrogates).
func TestJavaStringHash(t *testing.T) {
	for s, want := range map[string]int32{"": 0, "8": 56, "10": 1567, "hello": 99162322, "😀": 0xD83D*31 + 0xDE00} {
		if got := JavaStringHash(s); got != want {
			t.Errorf("JavaStringHash(%q) = %d, want %d", s, got, want)
		}
	}
}

// FuzzFindInHFile: no bytes make the record-index entry lookup panic (an HFile whose cells and
// record_index values are garbage is an error or no entry).
func FuzzFindInHFile(f *testing.F) {
	f.Add([]byte{}, "8")
	f.Add(make([]byte, 64), "")
	f.Fuzz(func(t *testing.T, b []byte, key string) {
		_, _ = findInHFile(bytes.NewReader(b), int64(len(b)), `{"type":"record","name":"r","fields":[{"name":"recordIndexMetadata","type":["null",{"type":"record","name":"i","fields":[{"name":"partitionName","type":"string"},{"name":"fileIdHighBits","type":"long"},{"name":"fileIdLowBits","type":"long"},{"name":"fileIndex","type":"int"},{"name":"instantTime","type":"long"}]}]}]}`, key)
	})
}
