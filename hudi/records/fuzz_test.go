package records

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/internal/synth"
	"github.com/hudiscope/hudiscope/hudi/logfile"
	"github.com/hudiscope/hudiscope/hudi/problem"
	"github.com/hudiscope/hudiscope/hudi/storage"
)

// FuzzReadSliceFiles feeds arbitrary bytes as a log file (data, delete and CDC blocks, Avro
// with logical types) and as a base file (Parquet pages, nested rows, logical types): a read
// never panics, and a base file it cannot read is an error naming the file.
func FuzzReadSliceFiles(f *testing.F) {
	s := []byte(`{"type":"record","name":"r","fields":[{"name":"_hoodie_record_key","type":["null","string"]},{"name":"d","type":{"type":"bytes","logicalType":"decimal","precision":4,"scale":2}},{"name":"n","type":{"type":"array","items":{"type":"int","logicalType":"date"}}}]}`)
	f.Add(synth.LogBlock(1, logfile.BlockAvroData, map[int]string{logfile.HeaderInstantTime: "001", logfile.HeaderSchema: string(s)}, avroContent([]byte{2, 'k', 2, 0x30, 2, 2, 0})))
	f.Add(synth.LogBlock(1, logfile.BlockCDCData, map[int]string{logfile.HeaderInstantTime: "001", logfile.HeaderSchema: string(s)}, avroContent([]byte{0})))
	f.Add(synth.LogBlock(1, logfile.BlockDelete, map[int]string{logfile.HeaderInstantTime: "001"}, []byte{0, 0, 0, 3, 0, 0, 0, 2, 2, 0}))
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[logicalRow](&buf)
	_, _ = w.Write([]logicalRow{{CommitTime: "001", Key: "k", Tags: []string{"a"}, M: map[string]int64{"x": 1}, In: &nestedRow{A: 1}}})
	_ = w.Close()
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, ".f_001.log.1_0-1-1"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "f_0-1-1_001.parquet"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		st, err := storage.Open(dir, storage.Options{})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		var probs problem.Log
		_, _ = ReadSlice(ctx, st, &filegroup.FileSlice{Logs: []filegroup.LogFile{{Path: ".f_001.log.1_0-1-1"}}}, Options{AllColumns: true, Mode: EventTime, OrderingFields: []string{"d"}}, &probs)
		_, _ = readCDCLog(ctx, st, ".f_001.log.1_0-1-1", &probs)
		for _, all := range []bool{true, false} {
			_, err := ReadSlice(ctx, st, &filegroup.FileSlice{Base: &filegroup.BaseFile{Path: "f_0-1-1_001.parquet"}}, Options{AllColumns: all, Columns: []string{"in"}}, &probs)
			if err != nil && !bytes.Contains([]byte(err.Error()), []byte("f_0-1-1_001.parquet")) {
				t.Fatalf("error without the file name: %v", err)
			}
		}
	})
}
