package records

import (
	"bytes"
	"context"
	"encoding/binary"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/twmb/avro"

	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/internal/synth"
	"github.com/hudiscope/hudiscope/hudi/logfile"
	"github.com/hudiscope/hudiscope/hudi/problem"
	"github.com/hudiscope/hudiscope/hudi/storage"
)

type nestedRow struct {
	A   int32  `parquet:"a"`
	Day int32  `parquet:"day,date"`
	B   string `parquet:"b,optional"`
}

type logicalRow struct {
	CommitTime string           `parquet:"_hoodie_commit_time"`
	Key        string           `parquet:"_hoodie_record_key"`
	Partition  string           `parquet:"_hoodie_partition_path"`
	Dec        int64            `parquet:"dec,decimal(2:12)"`
	Small      int32            `parquet:"small,decimal(3:9)"`
	Day        int32            `parquet:"day,date"`
	Micros     time.Time        `parquet:"ts_micros,timestamp(microsecond)"`
	Millis     time.Time        `parquet:"ts_millis,timestamp(millisecond)"`
	Tags       []string         `parquet:"tags,list"`
	M          map[string]int64 `parquet:"m"`
	In         *nestedRow       `parquet:"in,optional"`
	Bin        []byte           `parquet:"bin"`
}

// Base files: decimals exact with their scale, dates as days, timestamps at their unit,
// lists, maps and structs (with a date inside) as Go values.
func TestParquetLogicalTypes(t *testing.T) {
	dir := t.TempDir()
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[logicalRow](&buf)
	ts := time.Date(2024, 1, 2, 3, 4, 5, 123456000, time.UTC)
	if _, err := w.Write([]logicalRow{{CommitTime: "001", Key: "k1", Dec: -12345, Small: 5, Day: 19000, Micros: ts, Millis: ts,
		Tags: []string{"x", "y"}, M: map[string]int64{"p": 1}, In: &nestedRow{A: 7, Day: 1, B: "q"}, Bin: []byte{1, 2, 3}}}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "f1_0-1-1_001.parquet"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := ReadSlice(context.Background(), st, &filegroup.FileSlice{Base: &filegroup.BaseFile{Path: "f1_0-1-1_001.parquet"}}, Options{AllColumns: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Records) != 1 {
		t.Fatalf("%d records", len(res.Records))
	}
	v := res.Records[0].Values
	want := map[string]any{
		"dec":       Decimal("-123.45"),
		"small":     Decimal("0.005"),
		"day":       Date{time.Date(2022, 1, 8, 0, 0, 0, 0, time.UTC)},
		"ts_micros": ts,
		"ts_millis": ts.Truncate(time.Millisecond),
		"tags":      []any{"x", "y"},
		"m":         map[string]any{"p": int64(1)},
		"in":        map[string]any{"a": int32(7), "day": Date{time.Date(1970, 1, 2, 0, 0, 0, 0, time.UTC)}, "b": "q"},
		"bin":       []byte{1, 2, 3},
	}
	for k, w := range want {
		if !reflect.DeepEqual(v[k], w) {
			t.Errorf("%s = %#v (%T), want %#v", k, v[k], v[k], w)
		}
	}
	if got := res.Records[0].Fields; len(got) != 12 || got[0] != CommitTime || got[11] != "bin" {
		t.Errorf("fields %v", got)
	}
	// A projection of one nested column reads it row by row, meta columns included.
	res, err = ReadSlice(context.Background(), st, &filegroup.FileSlice{Base: &filegroup.BaseFile{Path: "f1_0-1-1_001.parquet"}}, Options{Columns: []string{"in", "gone"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := res.Records[0]
	if r.Key != "k1" || r.CommitTime != "001" || r.Values["gone"] != nil || r.Values["in"] == nil {
		t.Errorf("projected record %+v", r)
	}
}

// avroContent is a data block's content: version, count, length-prefixed datums.
func avroContent(datums ...[]byte) []byte {
	b := binary.BigEndian.AppendUint32(nil, 3)
	b = binary.BigEndian.AppendUint32(b, uint32(len(datums)))
	for _, d := range datums {
		b = binary.BigEndian.AppendUint32(b, uint32(len(d)))
		b = append(b, d...)
	}
	return b
}

const logicalLogSchema = `{"type":"record","name":"r","fields":[
{"name":"_hoodie_commit_time","type":["null","string"]},{"name":"_hoodie_record_key","type":["null","string"]},
{"name":"_hoodie_partition_path","type":["null","string"]},
{"name":"dec","type":["null",{"type":"bytes","logicalType":"decimal","precision":10,"scale":2}]},
{"name":"fix","type":{"type":"fixed","name":"f8","size":4,"logicalType":"decimal","precision":8,"scale":3}},
{"name":"day","type":{"type":"int","logicalType":"date"}},
{"name":"ts","type":["null",{"type":"long","logicalType":"timestamp-micros"}]},
{"name":"tsm","type":{"type":"long","logicalType":"timestamp-millis"}},
{"name":"nested","type":{"type":"record","name":"n","fields":[{"name":"d","type":{"type":"bytes","logicalType":"decimal","precision":4,"scale":1}}]}},
{"name":"arr","type":{"type":"array","items":"long"}}]}`

// Log blocks: the same logical types from Avro, nested ones included.
func TestAvroLogLogicalTypes(t *testing.T) {
	s, err := avro.Parse(logicalLogSchema)
	if err != nil {
		t.Fatal(err)
	}
	datum, err := s.Encode(map[string]any{"_hoodie_commit_time": "002", "_hoodie_record_key": "k1", "_hoodie_partition_path": "",
		"dec": big.NewRat(-12345, 100), "fix": [4]byte{0, 0, 0x30, 0x39}, "day": int32(19000),
		"ts": int64(1704164645123456), "tsm": int64(1704164645123),
		"nested": map[string]any{"d": big.NewRat(15, 10)}, "arr": []any{int64(1), int64(2)}})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	name := ".f1_002.log.1_0-1-1"
	block := synth.LogBlock(1, logfile.BlockAvroData, map[int]string{logfile.HeaderInstantTime: "002", logfile.HeaderSchema: logicalLogSchema}, avroContent(datum))
	if err := os.WriteFile(filepath.Join(dir, name), block, 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var probs problem.Log
	res, err := ReadSlice(context.Background(), st, &filegroup.FileSlice{Logs: []filegroup.LogFile{{Path: name}}}, Options{AllColumns: true}, &probs)
	if err != nil || len(res.Records) != 1 {
		t.Fatalf("records %v, err %v, problems %v", res, err, probs.List())
	}
	v := res.Records[0].Values
	ts := time.Date(2024, 1, 2, 3, 4, 5, 123456000, time.UTC)
	want := map[string]any{
		"dec":    Decimal("-123.45"),
		"fix":    Decimal("12.345"),
		"day":    Date{time.Date(2022, 1, 8, 0, 0, 0, 0, time.UTC)},
		"ts":     ts,
		"tsm":    ts.Truncate(time.Millisecond),
		"nested": map[string]any{"d": Decimal("1.5")},
		"arr":    []any{int64(1), int64(2)},
	}
	for k, w := range want {
		if !reflect.DeepEqual(v[k], w) {
			t.Errorf("%s = %#v (%T), want %#v", k, v[k], v[k], w)
		}
	}
	if res.Records[0].Key != "k1" || res.Records[0].CommitTime != "002" {
		t.Errorf("record %+v", res.Records[0])
	}
}

func TestDecimalFromUnscaled(t *testing.T) {
	cases := []struct {
		b     []byte
		scale int
		want  Decimal
	}{
		{[]byte{0x30, 0x39}, 2, "123.45"},
		{[]byte{0xcf, 0xc7}, 2, "-123.45"},
		{[]byte{0x05}, 3, "0.005"},
		{[]byte{0xff}, 1, "-0.1"},
		{[]byte{0x07}, 0, "7"},
		{[]byte{0x07}, -2, "700"},
		{nil, 2, "0.00"},
	}
	for _, c := range cases {
		if got := decimalFromUnscaled(bigEndianSigned(c.b), c.scale); got != c.want {
			t.Errorf("%x scale %d = %s, want %s", c.b, c.scale, got, c.want)
		}
	}
}
