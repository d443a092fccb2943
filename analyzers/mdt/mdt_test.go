package mdt

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

func entry(part, name string, size int64) storage.Entry {
	return storage.Entry{Name: name, Path: part + "/" + name, Size: size}
}

// Partitions only one side lists, non-data files and every status.
func TestValidate(t *testing.T) {
	base := func(id, inst string) string { return id + "-0_0-1-1_" + inst + ".parquet" }
	in := ValidateInput{
		MDT: map[string][]storage.Entry{
			"a":    {entry("a", base("f1", "20240101000000000"), 100), entry("a", base("f2", "20240101000000000"), 200), entry("a", base("f3", "20240101000000000"), 300)},
			"gone": {entry("gone", base("f9", "20240101000000000"), 7)},
		},
		Storage: map[string][]storage.Entry{
			"a": {entry("a", base("f1", "20240101000000000"), 100), entry("a", base("f2", "20240101000000000"), 201),
				entry("a", base("f4", "20240101000000000"), 400), entry("a", base("f5", "20991231000000000"), 500),
				entry("a", ".hoodie_partition_metadata", 96), entry("a", "."+base("f1", "20240101000000000")+".crc", 12)},
			"new": {entry("new", base("f6", "20240101000000000"), 60)},
		},
		Uncommitted: map[string]map[string]bool{"a": {base("f5", "20991231000000000"): true}},
	}
	v := Validate(in)
	var got []string
	for _, f := range v.Files {
		got = append(got, f.Partition+"/"+f.File[:2]+" "+f.Status)
	}
	want := "a/f2 size differs,a/f3 missing on storage,a/f4 missing in metadata table,a/f5 uncommitted on storage,gone/f9 missing on storage,new/f6 missing in metadata table"
	if strings.Join(got, ",") != want {
		t.Errorf("files\n%s\nwant\n%s", strings.Join(got, ","), want)
	}
	if v.Match || v.Mismatches != 5 || v.MissingOnStorage != 2 || v.MissingInMDT != 2 || v.SizeDiffers != 1 || v.Uncommitted != 1 || v.FilesCompared != 7 {
		t.Errorf("%+v", *v)
	}
	if len(v.Partitions) != 3 {
		t.Fatalf("%d partitions", len(v.Partitions))
	}
	a, gone, nw := v.Partitions[0], v.Partitions[1], v.Partitions[2]
	if a.Partition != "a" || a.MDTFiles != 3 || a.MDTBytes != 600 || a.StorageFiles != 4 || a.StorageBytes != 1201 || a.Uncommitted != 1 || a.Mismatches != 3 {
		t.Errorf("a: %+v", a)
	}
	if !gone.InMDT || gone.OnStorage || nw.InMDT || !nw.OnStorage {
		t.Errorf("gone %+v new %+v", gone, nw)
	}
	if all := Validate(ValidateInput{MDT: in.MDT, Storage: in.Storage, Uncommitted: in.Uncommitted, All: true}); len(all.Files) != 7 || all.Files[0].Status != StatusOK {
		t.Errorf("All: %d files, first %+v", len(all.Files), all.Files[0])
	}
	if e := Validate(ValidateInput{}); !e.Match || len(e.Files) != 0 || len(e.Partitions) != 0 {
		t.Errorf("empty: %+v", *e)
	}
}

// Known partitions first in Hudi's order, then indexes by name; partitions only named in
// hoodie.properties are listed, not on storage, without a record count.
func TestComputeStats(t *testing.T) {
	g := func(id string, base int64, logs ...int64) *filegroup.FileGroup {
		s := &filegroup.FileSlice{}
		if base > 0 {
			s.Base = &filegroup.BaseFile{Path: id + ".hfile", Size: base}
		}
		for _, l := range logs {
			s.Logs = append(s.Logs, filegroup.LogFile{Size: l})
		}
		return &filegroup.FileGroup{FileID: id, Slices: []*filegroup.FileSlice{s}}
	}
	view := &filegroup.View{Partitions: []*filegroup.Partition{
		{Path: "secondary_index_idx", FileGroups: []*filegroup.FileGroup{g("s1", 10)}},
		{Path: "files", FileGroups: []*filegroup.FileGroup{g("f1", 100, 5, 6)}},
		{Path: "record_index", FileGroups: []*filegroup.FileGroup{g("r1", 0, 7), g("r2", 20)}},
	}}
	counts := map[string]int64{"f1.hfile": 4, "r2.hfile": 9}
	st := ComputeStats(StatsInput{TableVersion: 9, Enabled: []string{"files", "record_index", "column_stats"}, Inflight: []string{"expr_index_x"}, View: view,
		EntryCount: func(p string) (int64, bool) { c, ok := counts[p]; return c, ok }})
	var got []string
	for _, p := range st.Partitions {
		rec := "nil"
		if p.BaseRecords != nil {
			rec = fmt.Sprint(*p.BaseRecords)
		}
		got = append(got, fmt.Sprintf("%s %s en=%v in=%v st=%v fg=%d b=%d/%d l=%d/%d r=%s", p.Name, p.Kind, p.Enabled, p.Inflight, p.OnStorage,
			p.FileGroups, p.BaseFiles, p.BaseBytes, p.LogFiles, p.LogBytes, rec))
	}
	want := []string{
		"files file listing en=true in=false st=true fg=1 b=1/100 l=2/11 r=4",
		"column_stats column statistics en=true in=false st=false fg=0 b=0/0 l=0/0 r=nil",
		"record_index record index en=true in=false st=true fg=2 b=1/20 l=1/7 r=9",
		"expr_index_x expression index en=false in=true st=false fg=0 b=0/0 l=0/0 r=nil",
		"secondary_index_idx secondary index en=false in=false st=true fg=1 b=1/10 l=0/0 r=nil", // s1.hfile unreadable
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if st.FileGroups != 4 || st.BaseFiles != 3 || st.BaseBytes != 130 || st.LogFiles != 3 || st.LogBytes != 18 {
		t.Errorf("totals %+v", *st)
	}
}

func inst(action string, state timeline.State, req, done string) *timeline.Instant {
	return &timeline.Instant{Action: action, State: state, RequestedTime: req, CompletionTime: done}
}

// Lag, pending compaction and the compaction count.
func TestTimelineOf(t *testing.T) {
	mdtTL := &timeline.Timeline{Instants: []*timeline.Instant{
		inst("deltacommit", timeline.Completed, "20240101000001000", "20240101000001500"),
		inst("commit", timeline.Completed, "20240101000002000", "20240101000002500"), // compaction
		inst("deltacommit", timeline.Completed, "20240101000003000", "20240101000003500"),
		inst("deltacommit", timeline.Completed, "20240101000004000", "20240101000004500"),
		inst("compaction", timeline.Requested, "20240101000005000", ""),
		inst("deltacommit", timeline.Inflight, "20240101000006000", ""),
	}}
	data := &timeline.Timeline{Instants: []*timeline.Instant{
		inst("commit", timeline.Completed, "20240101000003000", "20240101000003100"),
		inst("commit", timeline.Completed, "20240101000004000", "20240101000004100"),
		inst("clean", timeline.Completed, "20240101000004200", "20240101000004300"),
		inst("commit", timeline.Completed, "20240101000006000", "20240101000006100"),
		inst("commit", timeline.Inflight, "20240101000007000", ""),
	}}
	ts := TimelineOf(TimelineInput{Data: data, MDT: mdtTL, MaxDeltaCommits: 2, MaxDeltaCommitsSource: "props"})
	if len(ts.Instants) != 6 || ts.LastCompaction != "20240101000002000" || ts.DeltaCommitsSinceCompaction != 2 || !ts.CompactionDue {
		t.Errorf("compaction: %+v", *ts)
	}
	if strings.Join(ts.PendingCompactions, ",") != "20240101000005000" {
		t.Errorf("pending %v", ts.PendingCompactions)
	}
	if ts.LatestSynced != "20240101000004000" || ts.LatestDataInstant != "20240101000006000" || !ts.Lagging || strings.Join(ts.NotSynced, ",") != "20240101000006000" {
		t.Errorf("sync: %+v", *ts)
	}
}

// BenchmarkValidate compares a synthetic table of 100 partitions × 2,000 files (200,000 files,
// 1 in 1,000 missing in the metadata table).
func BenchmarkValidate(b *testing.B) {
	in := ValidateInput{MDT: map[string][]storage.Entry{}, Storage: map[string][]storage.Entry{}}
	for p := range 100 {
		part := fmt.Sprintf("dt=2024-%02d-%02d", p/28+1, p%28+1)
		for f := range 2000 {
			e := entry(part, fmt.Sprintf("%08x-0000-0000-0000-%012x-0_0-1-1_20240101000000000.parquet", p, f), int64(1000+f))
			in.Storage[part] = append(in.Storage[part], e)
			if f%1000 != 7 {
				in.MDT[part] = append(in.MDT[part], e)
			}
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		v := Validate(in)
		if v.MissingInMDT != 200 || v.FilesCompared != 200_000 {
			b.Fatalf("%d missing, %d compared", v.MissingInMDT, v.FilesCompared)
		}
	}
}
