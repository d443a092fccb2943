package model

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/hudi/records"
)

// Every fixture with Spark's snapshot rows (oracle/snapshot_rows.json): the read's reader
// schema is Spark's column list, and every row carries each column with Spark's value — on a
// merge-on-read table whose logs carry a newer schema (schema-evo-mor-1.1.1: a column added,
// an int widened to long) records written before the change have the new column as null.
func TestSnapshotRowsEqualSparkEveryColumn(t *testing.T) {
	oracles, _ := filepath.Glob(filepath.Join("..", "testdata", "fixtures", "*", "oracle", "snapshot_rows.json"))
	if len(oracles) == 0 {
		t.Skip("no fixture has oracle/snapshot_rows.json")
	}
	for _, o := range oracles {
		fx := filepath.Base(filepath.Dir(filepath.Dir(o)))
		t.Run(fx, func(t *testing.T) {
			want := readSparkRows(t, o)
			f := openFixture(t, fx)
			if _, err := os.Stat(filepath.Join("..", "testdata", "fixtures", fx, "bootstrap-source.zip")); err == nil {
				f, _ = openBootstrapFixture(t, fx)
			}
			var got []string
			var schema []string
			st, err := SnapshotBatches(context.Background(), f.t, f.tl, f.view, true, SnapshotQuery{RowColumns: RowColumns{All: true}}, func(b *records.Batch) error {
				schema = b.Schema
				for i := range b.Len() {
					for _, c := range b.RowFields(i) {
						if !slices.Contains(b.Schema, c) {
							t.Errorf("row %d: column %s is not in the reader schema %v", i, c, b.Schema)
						}
					}
					vals := make([]any, len(b.Schema))
					for k, c := range b.Schema {
						vals[k] = records.JSONValue(b.Get(i, c))
					}
					got = append(got, jsonRow(t, vals))
				}
				return nil
			})
			if err != nil || len(st.Problems) > 0 {
				t.Fatal(err, st.Problems)
			}
			if !slices.Equal(schema, want.Columns) {
				t.Fatalf("reader schema %v, Spark %v", schema, want.Columns)
			}
			wantRows := make([]string, len(want.Rows))
			for i, r := range want.Rows {
				wantRows[i] = jsonRow(t, r)
			}
			// By record key (the second column of both is _hoodie_commit_seqno; the key is third).
			byKey := func(rows []string) {
				sort.Slice(rows, func(a, b int) bool { return key(rows[a]) < key(rows[b]) })
			}
			byKey(got)
			byKey(wantRows)
			if len(got) != len(wantRows) {
				t.Fatalf("%d rows, Spark %d", len(got), len(wantRows))
			}
			for i := range got {
				if got[i] != wantRows[i] {
					t.Errorf("row %d:\n got %s\nwant %s", i, got[i], wantRows[i])
				}
			}
		})
	}
}

// key is a rendered row's third value (_hoodie_record_key) with the rest as a tie-break.
func key(row string) string {
	parts := strings.SplitN(row, ",", 4)
	if len(parts) < 4 {
		return row
	}
	return parts[2] + "\x00" + row
}

// A column widened by schema evolution reads as the wider type: schema-evo-mor-1.1.1's ts was
// int in the base file (ids 5 and 6, never updated: ts 1) and long from dc2 on; every row's ts
// is an int64, through Batch.Get and Batch.Record alike, and id (int throughout) stays int32.
func TestSchemaEvolutionWidenedType(t *testing.T) {
	f := openFixture(t, "schema-evo-mor-1.1.1")
	n := 0
	_, err := SnapshotBatches(context.Background(), f.t, f.tl, f.view, true, SnapshotQuery{RowColumns: RowColumns{All: true}}, func(b *records.Batch) error {
		for i := range b.Len() {
			n++
			rec := b.Record(i)
			for _, v := range []any{b.Get(i, "ts"), rec.Values["ts"]} {
				if _, ok := v.(int64); !ok {
					t.Errorf("key %s: ts %#v (%T), want int64", rec.Key, v, v)
				}
			}
			if _, ok := b.Get(i, "id").(int32); !ok {
				t.Errorf("key %s: id %T, want int32", rec.Key, b.Get(i, "id"))
			}
			if (rec.Key == "5" || rec.Key == "6") && rec.Values["ts"] != int64(1) {
				t.Errorf("key %s: ts %v, want 1", rec.Key, rec.Values["ts"])
			}
		}
		return nil
	})
	if err != nil || n != 6 {
		t.Fatalf("%d rows, %v", n, err)
	}
}
