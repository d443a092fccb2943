package timeline

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/hudiscope/hudiscope/hudi/problem"
	"github.com/hudiscope/hudiscope/hudi/storage"
)

// lsmSeed is an LSM history file of rows (fuzz seeds and tests only).
func lsmSeed(t testing.TB, rows []lsmRow) []byte {
	var b bytes.Buffer
	w := parquet.NewGenericWriter[lsmRow](&b, parquet.PageBufferSize(256))
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// lsmRowsOf reads b as an LSM history file through eachLSMRow, copying each row.
func lsmRowsOf(t testing.TB, b []byte) ([]lsmRow, error) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f.parquet"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := storage.OpenLocal(dir)
	if err != nil {
		t.Fatal(err)
	}
	r := &Reader{Store: st, Problems: &problem.Log{}}
	var out []lsmRow
	err = r.eachLSMRow(context.Background(), "f.parquet", func(row *lsmRow) {
		out = append(out, lsmRow{InstantTime: row.InstantTime, CompletionTime: row.CompletionTime, Action: row.Action,
			Metadata: bytes.Clone(row.Metadata), Plan: bytes.Clone(row.Plan)})
	})
	return out, err
}

// The column reader gives the rows the row reader wrote, across pages (256-byte page buffer:
// the metadata column spans several pages per batch), nulls included.
func TestEachLSMRowMatchesRows(t *testing.T) {
	var rows []lsmRow
	for i := range 600 {
		r := lsmRow{InstantTime: "2024010100000" + string(rune('0'+i%10)) + "000", Action: "commit"}
		if i%3 != 0 {
			r.CompletionTime = "20240101000100000"
			r.Metadata = bytes.Repeat([]byte{byte(i)}, i%50)
		}
		if i%7 == 0 {
			r.Action, r.Plan = "clean", []byte("{}")
		}
		rows = append(rows, r)
	}
	got, err := lsmRowsOf(t, lsmSeed(t, rows))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(rows) {
		t.Fatalf("%d rows, want %d", len(got), len(rows))
	}
	for i := range rows {
		w, g := rows[i], got[i]
		if g.InstantTime != w.InstantTime || g.CompletionTime != w.CompletionTime || g.Action != w.Action ||
			!bytes.Equal(g.Metadata, w.Metadata) || !bytes.Equal(g.Plan, w.Plan) {
			t.Fatalf("row %d: %+v, want %+v", i, g, w)
		}
	}
}

// FuzzEachLSMRow: a damaged LSM history file is an error or rows, never a panic or a hang.
func FuzzEachLSMRow(f *testing.F) {
	f.Add(lsmSeed(f, []lsmRow{{InstantTime: "20240101000000000", CompletionTime: "20240101000001000", Action: "commit",
		Metadata: []byte(`{"operationType":"UPSERT"}`)}, {InstantTime: "20240101000002000", Action: "clean", Plan: []byte("{}")}}))
	f.Add([]byte("PAR1PAR1"))
	f.Fuzz(func(t *testing.T, b []byte) {
		rows, err := lsmRowsOf(t, b)
		if err == nil && len(rows) > 1<<20 {
			t.Fatalf("%d rows", len(rows))
		}
	})
}
