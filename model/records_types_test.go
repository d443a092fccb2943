package model

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/records"
)

// Logical and nested types as Spark wrote them (types-1.2.0: a MOR table whose row 1 was
// updated into a log file, so its values come from an Avro data block and row 2's from the
// Parquet base file) render as Spark's to_json renders them: decimals exact, dates as days,
// binary as base64, arrays, maps and structs. Spark's to_json keeps timestamps to the
// millisecond and drops null fields; hudiscope keeps the microseconds.
func TestLogicalTypesAgreeWithSpark(t *testing.T) {
	var oracle struct {
		SnapshotJSON []string `json:"snapshot_json"`
	}
	b, err := os.ReadFile(filepath.Join("..", "testdata", "fixtures", "types-1.2.0", "oracle", "types.json"))
	if err != nil {
		t.Skip(err)
	}
	if err := json.Unmarshal(b, &oracle); err != nil {
		t.Fatal(err)
	}
	f := openFixture(t, "types-1.2.0")
	var got []map[string]any
	st, err := SnapshotRows(context.Background(), f.t, f.tl, f.view, true, SnapshotQuery{RowColumns: RowColumns{All: true}}, func(r records.Record) error {
		got = append(got, r.Values)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(oracle.SnapshotJSON) || len(st.Problems) > 0 {
		t.Fatalf("%d rows (problems %v), Spark %d", len(got), st.Problems, len(oracle.SnapshotJSON))
	}
	byID := map[string]map[string]any{}
	for _, v := range got {
		byID[jsonText(t, v["id"])] = v
	}
	for _, line := range oracle.SnapshotJSON {
		want := decodeNumbers(t, []byte(line))
		id := jsonText(t, want["id"])
		row := byID[id]
		if row == nil {
			t.Errorf("no row with id %s", id)
			continue
		}
		for col, w := range want {
			g := row[col]
			if col == "t" { // to_json: milliseconds; ours: the stored microseconds
				ts, ok := g.(time.Time)
				wt, err := time.Parse("2006-01-02T15:04:05.999Z07:00", w.(string))
				if !ok || err != nil || !ts.Truncate(time.Millisecond).Equal(wt) {
					t.Errorf("id %s t: %v, Spark %v (%v)", id, g, w, err)
				}
				continue
			}
			if gs, ws := rendered(t, g), jsonText(t, w); gs != ws {
				t.Errorf("id %s %s: %s (%T), Spark %s", id, col, gs, g, ws)
			}
		}
		for col, g := range row { // a column Spark's to_json left out is null
			if _, ok := want[col]; !ok && g != nil && !isEmpty(g) {
				t.Errorf("id %s %s: %v, Spark null", id, col, g)
			}
		}
	}
	if d, ok := byID["1"]["price"].(records.Decimal); !ok || d != "99999999.99" {
		t.Errorf("log-file decimal %#v", byID["1"]["price"])
	}
	// Row 1 as the first write put it in the base file (testdata/gen/generate.py's rows1):
	// parquet-avro's 2-level list, a map, a struct with a date, a 30-digit decimal.
	var base *records.Result
	for _, p := range f.view.Partitions {
		for _, g := range p.FileGroups {
			s := g.Latest()
			base, err = records.ReadSlice(context.Background(), f.t.Store, &filegroup.FileSlice{Base: s.Base}, records.Options{AllColumns: true}, nil)
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	var row1 map[string]any
	for _, r := range base.Records {
		if r.Key == "1" {
			row1 = r.Values
		}
	}
	want := map[string]any{
		"price": records.Decimal("12.34"), "big": records.Decimal("123456789012345678901234.500000"),
		"d": records.Date{Time: time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC)}, "t": time.Date(2024, 1, 2, 3, 4, 5, 123456000, time.UTC),
		"x": 1.5, "bin": []byte{1, 2}, "tags": []any{"x", "y"}, "attrs": map[string]any{"k": int32(1)},
		"addr": map[string]any{"city": "Paris", "zip": int32(75001), "since": records.Date{Time: time.Date(2020, 2, 29, 0, 0, 0, 0, time.UTC)}},
	}
	for k, w := range want {
		if !reflect.DeepEqual(row1[k], w) {
			t.Errorf("base file row 1 %s = %#v, written %#v", k, row1[k], w)
		}
	}
}

func isEmpty(v any) bool {
	return reflect.ValueOf(v).Kind() == reflect.Map && reflect.ValueOf(v).Len() == 0
}

func decodeNumbers(t *testing.T, b []byte) map[string]any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return m
}

// rendered is a value as hudiscope's JSON output writes it, re-read with numbers kept as text
// and keys sorted (nested null fields dropped, as to_json drops them).
func rendered(t *testing.T, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(jsonOut(v)); err != nil {
		t.Fatal(err)
	}
	d := json.NewDecoder(&b)
	d.UseNumber()
	var x any
	if err := d.Decode(&x); err != nil {
		t.Fatal(err)
	}
	return jsonText(t, dropNulls(x))
}

// jsonOut mirrors cli's jsonValue for the types this test meets (timestamps to strings).
func jsonOut(v any) any {
	switch x := v.(type) {
	case time.Time:
		return x.UTC().Format(time.RFC3339Nano)
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = jsonOut(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonOut(e)
		}
		return out
	}
	return v
}

func dropNulls(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if e == nil {
				delete(x, k)
			} else {
				x[k] = dropNulls(e)
			}
		}
	case []any:
		for i, e := range x {
			x[i] = dropNulls(e)
		}
	}
	return v
}

func jsonText(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}
