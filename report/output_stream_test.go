package report

import (
	"bytes"
	"testing"

	"github.com/hudiscope/hudiscope/hudi/filegroup"
)

// The streamed files JSON is byte for byte the indented whole document.
func TestWriteFilesJSONMatchesDocument(t *testing.T) {
	g := func(id string, base bool, logs int, pc, pl string) *filegroup.FileGroup {
		s := &filegroup.FileSlice{BaseInstant: "1"}
		if base {
			s.Base = &filegroup.BaseFile{Name: id + "<&>.parquet", Size: 7, Instant: "1"}
		}
		for i := 0; i < logs; i++ {
			s.Logs = append(s.Logs, filegroup.LogFile{Name: ".log", Size: int64(i)})
		}
		return &filegroup.FileGroup{FileID: id, Slices: []*filegroup.FileSlice{{}, s}, PendingCompaction: pc, PendingClustering: pl}
	}
	for _, v := range []*filegroup.View{
		{Source: "storage listing"},
		{Source: "m", Partitions: []*filegroup.Partition{{Path: ""}}},
		{Source: "m", Partitions: []*filegroup.Partition{
			{Path: "a=1", FileGroups: []*filegroup.FileGroup{g("x", true, 0, "", ""), g("y", false, 2, "5", "")},
				Replaced: []*filegroup.FileGroup{g("z", true, 0, "", "")}},
			{Path: "b=\"2\"", FileGroups: []*filegroup.FileGroup{g("w", true, 1, "", "6")}},
		}},
	} {
		var want, got bytes.Buffer
		if err := WriteJSON(&want, NewFilesDocument(v)); err != nil {
			t.Fatal(err)
		}
		if err := WriteFilesJSON(&got, v); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("streamed:\n%s\nwant:\n%s", got.String(), want.String())
		}
	}
}
