package metadata

import (
	"bytes"
	"slices"
	"testing"
	"unsafe"

	"github.com/hudiscope/hudiscope/hudi/internal/synth"
	"github.com/hudiscope/hudiscope/hudi/storage"
)

// Entries come out in name order with their sizes; plain names in a clean partition share
// one path allocation, and any other name is joined (cleaned) as before — a path that then
// leads outside the table is refused by every read (storage.Escapes).
func TestPartitionEntries(t *testing.T) {
	rec := &mdtRecord{Files: map[string]fileInfo{
		"b.parquet": {Size: 2}, "a.parquet": {Size: 1}, "gone.parquet": {Size: 9, Deleted: true},
		"../../etc/passwd": {Size: 3}, "x/y.log": {Size: 4},
	}}
	got := partitionEntries("dt=1", rec)
	want := []struct {
		name, path string
		size       int64
	}{
		{"../../etc/passwd", "../etc/passwd", 3}, {"a.parquet", "dt=1/a.parquet", 1},
		{"b.parquet", "dt=1/b.parquet", 2}, {"x/y.log", "dt=1/x/y.log", 4},
	}
	if storage.Escapes(got[0].Path) == "" {
		t.Errorf("%q is not refused", got[0].Path)
	}
	if len(got) != len(want) {
		t.Fatalf("%d entries: %+v", len(got), got)
	}
	for i, w := range want {
		if got[i].Name != w.name || got[i].Path != w.path || got[i].Size != w.size {
			t.Errorf("entry %d = %q %q %d, want %+v", i, got[i].Name, got[i].Path, got[i].Size, w)
		}
	}
	// a.parquet's path ends where b.parquet's begins: one backing string.
	a, b := got[1].Path, got[2].Path
	if unsafe.StringData(a) == unsafe.StringData(b) || uintptr(unsafe.Pointer(unsafe.StringData(a)))+uintptr(len(a)) != uintptr(unsafe.Pointer(unsafe.StringData(b))) {
		t.Errorf("plain paths are not packed together")
	}
	if got := partitionEntries("", &mdtRecord{Files: map[string]fileInfo{"f.parquet": {Size: 5}}}); len(got) != 1 || got[0].Path != "f.parquet" {
		t.Errorf("unpartitioned: %+v", got)
	}
	if got := partitionEntries("p/../../q", &mdtRecord{Files: map[string]fileInfo{"f.parquet": {Size: 5}}}); len(got) != 1 || got[0].Path != "../q/f.parquet" {
		t.Errorf("unclean partition: %+v", got)
	}
	if got := partitionEntries("p", nil); got == nil || len(got) != 0 {
		t.Errorf("no record: %#v", got)
	}
}

// A base HFile of many blocks is decoded on every core and applied in file order: every
// record arrives once, in key order, with its files.
func TestScanFilesHFileManyBlocks(t *testing.T) {
	hf := synth.ManyBlockHFile()
	if len(hf) < 4<<20 {
		t.Fatalf("HFile of %d bytes takes the one-goroutine path", len(hf))
	}
	var keys []string
	err := scanFilesHFile(bytes.NewReader(hf), int64(len(hf)), "", func(k string, r *mdtRecord) {
		keys = append(keys, k)
		p := len(keys) - 1
		name := synth.ManyBlockFileName(p, 199)
		if r.Type != 2 || len(r.Files) != 200 || r.Files[name].Size != int64(p*1000+199) {
			t.Fatalf("record %q: type %d, %d files, %s = %+v", k, r.Type, len(r.Files), name, r.Files[name])
		}
	})
	if err != nil || len(keys) != 300 || !slices.IsSorted(keys) {
		t.Errorf("%d records (sorted %v): %v", len(keys), slices.IsSorted(keys), err)
	}
	// A damaged block fails the scan and names where.
	bad := bytes.Clone(hf)
	copy(bad[bytes.LastIndex(bad, []byte("DATABLK*")):], "garbage!") // the last data block's magic
	if err := scanFilesHFile(bytes.NewReader(bad), int64(len(bad)), "", func(string, *mdtRecord) {}); err == nil {
		t.Error("damaged HFile scanned without error")
	}
}
