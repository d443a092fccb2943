package records

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/storage"
)

type flatRow struct {
	CommitTime string  `parquet:"_hoodie_commit_time,dict"`
	Key        string  `parquet:"_hoodie_record_key"`
	Partition  string  `parquet:"_hoodie_partition_path,dict"`
	ID         int64   `parquet:"id"`
	Name       *string `parquet:"name,optional"`
	Score      float64 `parquet:"score"`
}

// TestBatchesAcrossPagesAndRowGroups reads a base file of 7 row groups of small pages (plain
// and dictionary-encoded, with nulls), so batches cross pages and stop at row groups while
// the next batch is read ahead: every row must come back, in order, with its own values,
// and commit-time pruning must skip the row groups that hold none of the asked commits.
func TestBatchesAcrossPagesAndRowGroups(t *testing.T) {
	const rows, perGroup = 10_000, 1_500
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[flatRow](&buf, parquet.PageBufferSize(700), parquet.MaxRowsPerRowGroup(perGroup))
	batch := make([]flatRow, 0, perGroup)
	for i := range rows {
		r := flatRow{CommitTime: fmt.Sprintf("%03d", i/perGroup), Key: fmt.Sprintf("key-%06d", i), Partition: fmt.Sprintf("p%d", i%3), ID: int64(i), Score: float64(i) / 4}
		if i%7 != 0 {
			name := fmt.Sprintf("name %d with some text", i)
			r.Name = &name
		}
		batch = append(batch, r)
		if len(batch) == perGroup || i == rows-1 {
			if _, err := w.Write(batch); err != nil {
				t.Fatal(err)
			}
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	st := storeWith(t, "f1_0-1-1_001.parquet", buf.Bytes())
	slice := &filegroup.FileSlice{Base: &filegroup.BaseFile{Path: "f1_0-1-1_001.parquet"}}
	res, err := ReadSlice(context.Background(), st, slice, Options{AllColumns: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Records) != rows {
		t.Fatalf("%d rows, want %d", len(res.Records), rows)
	}
	for i, r := range res.Records {
		var name any
		if i%7 != 0 {
			name = fmt.Sprintf("name %d with some text", i)
		}
		if r.Key != fmt.Sprintf("key-%06d", i) || r.CommitTime != fmt.Sprintf("%03d", i/perGroup) || r.Partition != fmt.Sprintf("p%d", i%3) ||
			r.Values["id"] != int64(i) || r.Values["name"] != name || r.Values["score"] != float64(i)/4 {
			t.Fatalf("row %d = %+v", i, r)
		}
	}
	// The batch accessors agree with the Record each row converts to.
	n := 0
	_, err = readSliceBatches(context.Background(), st, slice, Options{AllColumns: true}, nil, nil, func(b *Batch) error {
		id := slices.Index(b.Fields, "id")
		for i := range b.Len() {
			r := b.Record(i)
			if v, ok := b.Int64(i, id); !ok || v != r.Values["id"] || b.Value(i, id) != r.Values["id"] {
				return fmt.Errorf("row %d: Int64 %v %v, Value %v, Record %v", n, v, ok, b.Value(i, id), r.Values["id"])
			}
			if b.CommitTime(i) != r.CommitTime || b.Partition(i) != r.Partition || !slices.Equal(b.RowFields(i), r.Fields) {
				return fmt.Errorf("row %d: %s %s %v, Record %+v", n, b.CommitTime(i), b.Partition(i), b.RowFields(i), r)
			}
			for _, f := range r.Fields {
				if b.Get(i, f) != r.Values[f] {
					return fmt.Errorf("row %d column %s: Get %v, Record %v", n, f, b.Get(i, f), r.Values[f])
				}
			}
			if _, ok := b.Int64(i, slices.Index(b.Fields, "score")); ok {
				return fmt.Errorf("row %d: Int64 of a double column", n)
			}
			n++
		}
		return nil
	})
	if err != nil || n != rows {
		t.Fatalf("batches: %d rows, %v", n, err)
	}
	res, err = ReadSlice(context.Background(), st, slice, Options{Columns: []string{"id"}, CommitTimes: map[string]bool{"002": true, "005": true}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Records) != 2*perGroup || res.SkippedRowGroups != 5 || res.Records[0].Values["id"] != int64(2*perGroup) || res.Records[perGroup].Values["id"] != int64(5*perGroup) {
		t.Fatalf("pruned read: %d rows, %d row groups skipped, first ids %v %v", len(res.Records), res.SkippedRowGroups, res.Records[0].Values["id"], res.Records[perGroup].Values["id"])
	}
}

// TestWideBaseFileBatches reads a base file of 203 columns: its batches hold
// batchValues/203 = 322 rows (not 1,024 rows of every column, allocated twice when the file
// opens), and every row still comes back with its values.
func TestWideBaseFileBatches(t *testing.T) {
	if got := []int{batchRowsFor(0), batchRowsFor(64), batchRowsFor(65), batchRowsFor(203), batchRowsFor(1 << 20)}; !slices.Equal(got, []int{1024, 1024, 1008, 322, 1}) {
		t.Fatalf("batchRowsFor: %v", got)
	}
	const rows, extra = 1000, 200
	g := parquet.Group{CommitTime: parquet.String(), RecordKey: parquet.String(), PartitionPath: parquet.String()}
	for c := range extra {
		g[fmt.Sprintf("c%03d", c)] = parquet.Int(64)
	}
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[any](&buf, parquet.NewSchema("wide", g))
	for i := range rows {
		r := map[string]any{CommitTime: "001", RecordKey: fmt.Sprintf("k%04d", i), PartitionPath: ""}
		for c := range extra {
			r[fmt.Sprintf("c%03d", c)] = int64(i*extra + c)
		}
		if _, err := w.Write([]any{r}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	st := storeWith(t, "f1_0-1-1_001.parquet", buf.Bytes())
	slice := &filegroup.FileSlice{Base: &filegroup.BaseFile{Path: "f1_0-1-1_001.parquet"}}
	var sizes []int
	n := 0
	_, err := readSliceBatches(context.Background(), st, slice, Options{AllColumns: true}, nil, nil, func(b *Batch) error {
		sizes = append(sizes, b.Len())
		last := slices.Index(b.Fields, fmt.Sprintf("c%03d", extra-1))
		for i := range b.Len() {
			if v, ok := b.Int64(i, last); !ok || v != int64(n*extra+extra-1) || b.Record(i).Key != fmt.Sprintf("k%04d", n) {
				return fmt.Errorf("row %d: c%03d %v %v, key %s", n, extra-1, v, ok, b.Record(i).Key)
			}
			n++
		}
		return nil
	})
	if err != nil || n != rows || !slices.Equal(sizes, []int{322, 322, 322, 34}) {
		t.Fatalf("%d rows in batches %v, %v", n, sizes, err)
	}
}

// TestDerivedKeyMatchesRecord: a base row of a table without meta fields (empty
// _hoodie_record_key) is looked up in the log index by derivedKey, which must be the key
// record(i) derives, for one key field and for several.
func TestDerivedKeyMatchesRecord(t *testing.T) {
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[flatRow](&buf)
	for i := range 50 {
		if _, err := w.Write([]flatRow{{CommitTime: "001", Partition: "p", ID: int64(i), Score: float64(i) / 2}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	st := storeWith(t, "f.parquet", buf.Bytes())
	ctx := context.Background()
	for _, keyFields := range [][]string{{"id"}, {"id", "score"}} {
		o := Options{AllColumns: true, KeyFields: keyFields}
		b, err := openBase(ctx, st, "f.parquet", projection(o), true, o, nil)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for f := range b.batches(ctx, &err) {
			for i := range f.n {
				want := f.cols.record(i).Key
				if got := f.cols.derivedKey(i); got != want || want == "" {
					t.Errorf("%v row %d: derivedKey %q, record key %q", keyFields, n, got, want)
				}
				n++
			}
		}
		b.Close()
		if err != nil || n != 50 {
			t.Fatalf("%v: %d rows, %v", keyFields, n, err)
		}
	}
	o := Options{AllColumns: true, KeyFields: []string{"id", "score"}}
	b, err := openBase(ctx, st, "f.parquet", projection(o), true, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for f := range b.batches(ctx, &err) {
		if got := f.cols.derivedKey(3); got != "id:3,score:1.5" {
			t.Errorf("row 3 key %q, want id:3,score:1.5", got)
		}
		break
	}
}

// storeWith is a local store holding one file, name, with content b.
func storeWith(t *testing.T, name string, b []byte) storage.Storage {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return st
}
