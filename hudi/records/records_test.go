package records

import (
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/problem"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/tableconfig"
)

// A corrupt base file fails its slice naming the file; a corrupt log block is recorded with
// its file and offset and the slice's other blocks are still read.
func TestBadInputNamesFileAndBlock(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "base.parquet"), []byte("PAR1 not really parquet PAR1"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".f1_001.log.1_0-1-1"), []byte("#HUDI#garbage that is no block"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	_, err = ReadSlice(ctx, st, &filegroup.FileSlice{Base: &filegroup.BaseFile{Path: "base.parquet"}}, Options{}, nil)
	if err == nil || !strings.Contains(err.Error(), "base.parquet") {
		t.Fatalf("corrupt base file: err = %v, want one naming base.parquet", err)
	}
	var probs problem.Log
	res, err := ReadSlice(ctx, st, &filegroup.FileSlice{Logs: []filegroup.LogFile{{Path: ".f1_001.log.1_0-1-1"}}}, Options{}, &probs)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Records) != 0 {
		t.Errorf("records from a corrupt log: %v", res.Records)
	}
	l := probs.List()
	if len(l) != 1 || !strings.Contains(l[0].File, ".f1_001.log.1_0-1-1") || !strings.Contains(l[0].Err, "byte 0") {
		t.Errorf("problems = %v, want the log file and block offset", l)
	}
}

func TestEventTimeOrdering(t *testing.T) {
	o := Options{Mode: EventTime, OrderingFields: []string{"ts"}}
	older := Record{ordering: []any{int64(5)}}
	if o.wins(Record{ordering: []any{int32(4)}}, older) {
		t.Error("a later write with a smaller ordering value won")
	}
	if !o.wins(Record{ordering: []any{int64(5)}}, older) {
		t.Error("a later write with an equal ordering value lost")
	}
	if !(Options{Mode: CommitTimeOrdering}).wins(Record{ordering: []any{int64(1)}}, older) {
		t.Error("commit-time ordering: the later write lost")
	}
}

// A payload class, record merger or merge mode this reader does not reproduce is named in a
// note; the merges it does reproduce give none.
func TestMergeNote(t *testing.T) {
	cases := []struct {
		props, want string
	}{
		{"hoodie.record.merge.mode=EVENT_TIME_ORDERING\nhoodie.table.ordering.fields=ts", ""},
		{"hoodie.compaction.payload.class=org.apache.hudi.common.model.OverwriteWithLatestAvroPayload\nhoodie.compaction.record.merger.strategy=eeb8d96f-b1e4-49fd-bbf8-28ac514178e5", ""},
		{"hoodie.compaction.payload.class=org.apache.hudi.common.model.AWSDmsAvroPayload\nhoodie.table.precombine.field=ts",
			"payload class org.apache.hudi.common.model.AWSDmsAvroPayload is not one hudiscope reproduces (it may combine or drop records its own way); log records are merged as hudiscope's default (keeps the greater ts), which may differ from Hudi's"},
		{"hoodie.record.merge.mode=CUSTOM\nhoodie.record.merge.strategy.id=1234",
			"custom record merger (hoodie.record.merge.mode=CUSTOM, strategy 1234, payload none): its merge is not reproduced; log records are merged as hudiscope's default (keeps the later write), which may differ from Hudi's"},
		{"hoodie.record.merge.mode=SOMETHING_NEW", "unknown record merge mode SOMETHING_NEW (hoodie.record.merge.mode)"},
		{"hoodie.compaction.record.merger.strategy=abcd", "unknown record merger strategy abcd"},
	}
	for _, c := range cases {
		cfg, err := tableconfig.Parse([]byte("hoodie.table.name=t\nhoodie.table.version=8\nhoodie.table.type=MERGE_ON_READ\n"+c.props+"\n"), "hoodie.properties")
		if err != nil {
			t.Fatal(err)
		}
		got := MergeNote(cfg)
		if c.want == "" && got != "" || c.want != "" && !strings.HasPrefix(got, c.want) {
			t.Errorf("%q: note %q, want %q", c.props, got, c.want)
		}
	}
}

// Deletes as Hudi's file group reader applies them: an ordering value of int 0 (no ordering
// value) or of another type than the record's always deletes; a smaller one of the same type
// loses to the record.
func TestDeleteOrdering(t *testing.T) {
	o := Options{Mode: EventTime, OrderingFields: []string{"ts"}}
	rec := Record{ordering: []any{int64(5)}}
	if !o.wins(Record{deleted: true}, rec) {
		t.Error("a delete without ordering value lost")
	}
	if !o.wins(Record{deleted: true, ordering: []any{int32(3)}}, rec) {
		t.Error("a delete with an int ordering value lost to a long one")
	}
	if o.wins(Record{deleted: true, ordering: []any{int64(3)}}, rec) {
		t.Error("an older delete (3 < 5) won")
	}
	if !o.wins(Record{deleted: true, ordering: []any{int64(5)}}, rec) {
		t.Error("a delete with an equal ordering value lost")
	}
}

// A footer claiming a list or string longer than the footer itself is refused before
// parquet-go would allocate it (a 0x7fffffff-long list took the process down).
func TestFooterImpossibleLengthsRefused(t *testing.T) {
	footer := []byte{0x19, 0xfc, 0xff, 0xff, 0xff, 0xff, 0x07} // field 1: list of 2^31-1 structs, no elements
	file := append([]byte("PAR1"), footer...)
	file = binary.LittleEndian.AppendUint32(file, uint32(len(footer)))
	file = append(file, "PAR1"...)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f_0-1-1_001.parquet"), file, 0o644); err != nil {
		t.Fatal(err)
	}
	st, _ := storage.Open(dir, storage.Options{})
	_, err := ReadSlice(context.Background(), st, &filegroup.FileSlice{Base: &filegroup.BaseFile{Path: "f_0-1-1_001.parquet"}}, Options{}, nil)
	if err == nil || !strings.Contains(err.Error(), "f_0-1-1_001.parquet") || !strings.Contains(err.Error(), "2147483647") {
		t.Errorf("ReadSlice err = %v", err)
	}
}
