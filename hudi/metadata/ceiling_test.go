package metadata

import (
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/hudi/internal/synth"
	"github.com/hudiscope/hudiscope/hudi/logfile"
	"github.com/hudiscope/hudiscope/hudi/problem"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/internal/testutil"
)

// A second delta commit whose log block adds one file to partition p=000.
const (
	requested2 = "20260102000000000"
	completed2 = "20260102000005000"
	logName    = ".files-0000-0_" + requested2 + ".log.1_0-0-0"
)

func avroLong(b []byte, v int64) []byte { return binary.AppendVarint(b, v) }

func avroStr(b []byte, s string) []byte { return append(avroLong(b, int64(len(s))), s...) }

// filesRecordBytes encodes a `files` record under synth.MetadataSchema: empty key, type,
// the filesystemMetadata map branch, then one entry per file (name, size, not deleted).
func filesRecordBytes(typ int, name string, size int64) []byte {
	b := avroStr(nil, "")
	b = avroLong(b, int64(typ))
	b = avroLong(b, 1)
	b = avroLong(b, 1)
	b = avroStr(b, name)
	b = avroLong(b, size)
	b = append(b, 0)
	return avroLong(b, 0)
}

// logBlock frames one version-1 log block with an INSTANT_TIME header.
func logBlock(typ int, instant string, content []byte) []byte {
	return synth.LogBlock(1, typ, map[int]string{logfile.HeaderInstantTime: instant}, content)
}

// synthTable writes the synthetic table plus a second completed delta commit whose log adds
// p=000/new.parquet (4321 bytes); it returns the root.
func synthTable(t *testing.T) string {
	t.Helper()
	files := synth.Table("synth", 3, 2)
	files[".hoodie/timeline/"+requested2+"_"+completed2+".commit"] = []byte(`{"partitionToWriteStats":{},"operationType":"INSERT"}`)
	files[".hoodie/metadata/.hoodie/timeline/"+requested2+"_"+completed2+".deltacommit"] = []byte(`{}`)
	hf := synth.HFile(map[string][]byte{"p=000": filesRecordBytes(2, "new.parquet", 4321)},
		map[string][]byte{"schema": []byte(synth.MetadataSchema)})
	files[".hoodie/metadata/files/"+logName] = logBlock(logfile.BlockHFileData, requested2, hf)
	return testutil.WriteFiles(t, files)
}

func dataTimeline() *timeline.Timeline {
	return &timeline.Timeline{Instants: []*timeline.Instant{
		{RequestedTime: synth.Requested, State: timeline.Completed},
		{RequestedTime: requested2, State: timeline.Completed},
	}}
}

func list(t *testing.T, dir string) (map[string][]storage.Entry, []problem.Problem) {
	t.Helper()
	st, err := storage.OpenLocal(dir)
	if err != nil {
		t.Fatal(err)
	}
	var problems problem.Log
	l, err := List(context.Background(), st, &problems, dataTimeline())
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	return l.Map(), problems.List()
}

func summary(parts map[string][]storage.Entry) string {
	var lines []string
	for p, es := range parts {
		for _, e := range es {
			lines = append(lines, p+"/"+e.Name+" "+strconv.FormatInt(e.Size, 10))
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// Files read whole and files read in ranges give the same listing, base HFile and log block
// both merged.
func TestListingWholeAndRanged(t *testing.T) {
	dir := synthTable(t)
	whole, problems := list(t, dir)
	if len(problems) != 0 {
		t.Errorf("problems: %v", problems)
	}
	found := false
	for _, e := range whole["p=000"] {
		found = found || (e.Name == "new.parquet" && e.Size == 4321)
	}
	if n := len(whole["p=000"]); !found || n != 3 {
		t.Fatalf("p=000 = %+v, want 2 base files and new.parquet (4321 bytes)", whole["p=000"])
	}
	if len(whole) != 3 {
		t.Errorf("%d partitions, want 3", len(whole))
	}
	old := WholeReadMax
	WholeReadMax = -1 // every file in ranges
	defer func() { WholeReadMax = old }()
	ranged, problems := list(t, dir)
	if len(problems) != 0 {
		t.Errorf("problems: %v", problems)
	}
	if summary(ranged) != summary(whole) {
		t.Errorf("ranged listing differs from whole-file listing")
	}
	oldBudget := ReadBudget
	WholeReadMax, ReadBudget = old, 1 // a budget for none: all by ranges again
	defer func() { ReadBudget = oldBudget }()
	budgeted, _ := list(t, dir)
	if summary(budgeted) != summary(whole) {
		t.Errorf("budget-limited listing differs from whole-file listing")
	}
}

// A 3 GiB metadata-table log file (sparse on disk) whose one block claims all of it: the
// listing loads with a named problem, and the heap never holds the file.
func TestListingSkipsHugeLogBlock(t *testing.T) {
	dir := synthTable(t)
	const l = 3 << 30
	p := filepath.Join(dir, ".hoodie", "metadata", "files", ".files-0000-0_"+requested2+".log.2_0-0-0")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	head := append([]byte("#HUDI#"), binary.BigEndian.AppendUint64(nil, l)...)
	head = binary.BigEndian.AppendUint32(head, 1)
	head = binary.BigEndian.AppendUint32(head, logfile.BlockHFileData)
	if _, err := f.WriteAt(head, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(binary.BigEndian.AppendUint64(nil, l+6), 14+l-8); err != nil {
		t.Skipf("no sparse 3 GiB file here: %v", err)
	}
	f.Close()

	var parts map[string][]storage.Entry
	var problems []problem.Problem
	grew := testutil.PeakHeapGrowth(func() { parts, problems = list(t, dir) })
	t.Logf("heap peak growth %d MiB listing beside a 3 GiB log", grew>>20)
	if grew > 300<<20 {
		t.Errorf("heap grew %d MiB", grew>>20)
	}
	if len(parts["p=000"]) != 3 {
		t.Errorf("p=000 = %+v", parts["p=000"])
	}
	if len(problems) != 1 || !strings.HasSuffix(problems[0].File, ".log.2_0-0-0") ||
		problems[0].Err != "block 1 at byte 0: 3.0 GiB exceeds the 256 MiB block ceiling; skipped" {
		t.Errorf("problems = %v", problems)
	}
}
