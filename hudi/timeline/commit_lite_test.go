package timeline

import (
	"archive/zip"
	"io"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"testing"

	"github.com/hudiscope/hudiscope/hudi/internal/avro"
)

// The summary decode (what a compact timeline keeps) agrees with the full decode's sums on
// every fixture.
func TestDecodeCommitSummaryMatchesFull(t *testing.T) {
	n := 0
	eachFixtureCommit(t, func(name string, b []byte) {
		full, ferr := decodeCommitMetadata(b)
		sum, serr := decodeCommitSummary(b)
		if (ferr == nil) != (serr == nil) {
			t.Fatalf("%s: %v vs %v", name, ferr, serr)
		}
		if ferr != nil {
			return
		}
		n++
		if avro.IsOCF(b) {
			var lc liteCommit
			if err := avro.FirstRecordInto(b, &lc); err != nil {
				t.Errorf("%s: typed decode: %v", name, err)
			}
		}
		if want := summaryOf(full); !reflect.DeepEqual(sum, want) {
			t.Errorf("%s: summary %+v differs from full %+v", name, sum, want)
		}
	})
	if n == 0 {
		t.Skip("no fixture commits")
	}
	t.Logf("%d commit files", n)
}

// eachFixtureCommit calls fn with every completed commit file of every fixture zip, named
// "zip!entry".
func eachFixtureCommit(t *testing.T, fn func(name string, b []byte)) {
	t.Helper()
	zips, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "fixtures", "*", "*.zip"))
	commitFile := regexp.MustCompile(`\.hoodie/(timeline/)?[0-9_]+\.(commit|deltacommit|replacecommit)$`)
	for _, z := range zips {
		zr, err := zip.OpenReader(z)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range zr.File {
			if !commitFile.MatchString(f.Name) {
				continue
			}
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(rc)
			rc.Close()
			if err != nil {
				t.Fatal(err)
			}
			fn(z+"!"+f.Name, b)
		}
		zr.Close()
	}
}

// Distinct files are counted as Totals counts them: a path, else partition/fileId, and a path
// equal to another stat's partition/fileId is the same file; past the short list, a map.
func TestFileKeys(t *testing.T) {
	for _, n := range []int{3, fileKeysListMax + 10} {
		var k fileKeys
		cm := &CommitMetadata{PartitionToWriteStats: map[string][]WriteStat{}}
		add := func(part, path, id string) {
			k = k.add(part, &liteStat{Path: path, FileID: id})
			cm.PartitionToWriteStats[part] = append(cm.PartitionToWriteStats[part], WriteStat{Path: path, FileID: id})
		}
		for i := 0; i < n; i++ {
			id := string(rune('a'+i%26)) + strconv.Itoa(i)
			add("p", "", id)        // p/<id>
			add("q", "p/"+id, "zz") // the same file, named by path
			add("p", "", id)        // again
			add("p/x", "", id)      // another partition: another file
		}
		add("", "", "f") // "/f"
		add("r", "/f", "")
		if got, want := k.count(), cm.Totals().Files; got != want || want != 2*n+1 {
			t.Errorf("n=%d: %d files, Totals %d, want %d", n, got, want, 2*n+1)
		}
	}
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
		{Partition: "b", Files: 2, UpdatedFiles: 1, NewFiles: 1, NumWrites: 12, NumInserts: 6, NumUpdateWrites: 2, NumDeletes: 1, TotalWriteBytes: 400,
			FilesAdded: 1, FilesUpdated: 1}, // f1's prevCommit "null" adds, f2's "001" updates (show_commits); f3 has none
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
	if !in.HasWrites() || (&Instant{}).HasWrites() || !(&Instant{summarized: true}).HasWrites() {
		t.Error("HasWrites disagrees with Writes")
	}
	if (&Instant{Operation: "CLUSTER"}).CommitOperation() != "" {
		t.Error("a pending clustering's operation read as its commit's")
	}
}

// The switches used once per listed file agree with the action tables.
func TestActionSwitches(t *testing.T) {
	for a := range knownActions {
		if !isKnownAction(a) {
			t.Errorf("%s not known", a)
		}
	}
	for _, a := range []string{"", "commits", "inflight", "requested", "COMMIT", "crc"} {
		if isKnownAction(a) {
			t.Errorf("%q known", a)
		}
	}
	for a := range knownActions {
		want := a
		if c, ok := completedAs[a]; ok {
			want = c
		}
		if got := family(a); got != want {
			t.Errorf("family(%s) = %s, want %s", a, got, want)
		}
	}
}
