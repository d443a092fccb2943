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
