package schema

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// The writer schemas of the schema-evo-mor-1.1.1 fixture's first and second deltacommit, as
// Hudi 1.1.1 recorded them in extraMetadata["schema"] (dc1 id,name,ts:int; dc2 +note, ts long).
const (
	evoDC1 = `{"type":"record","name":"schema_evo_record","namespace":"hoodie.schema_evo","fields":[{"name":"id","type":"int"},{"name":"name","type":["null","string"],"default":null},{"name":"ts","type":"int"}]}`
	evoDC2 = `{"type":"record","name":"schema_evo_record","namespace":"hoodie.schema_evo","fields":[{"name":"id","type":"int"},{"name":"name","type":["null","string"],"default":null},{"name":"ts","type":"long"},{"name":"note","type":["null","string"],"default":null}]}`
)

func TestParseFlat(t *testing.T) {
	cols, err := Parse(evoDC2)
	if err != nil {
		t.Fatal(err)
	}
	want := []Column{
		{Name: "id", Type: "int", ID: -1},
		{Name: "name", Type: "string", Nullable: true, Default: "null", ID: -1},
		{Name: "ts", Type: "long", ID: -1},
		{Name: "note", Type: "string", Nullable: true, Default: "null", ID: -1},
	}
	if !reflect.DeepEqual(cols, want) {
		t.Fatalf("got %+v\nwant %+v", cols, want)
	}
}

func TestParseNested(t *testing.T) {
	text := `{"type":"record","name":"r","namespace":"ns","fields":[
	 {"name":"_hoodie_commit_time","type":["null","string"],"default":null},
	 {"name":"addr","type":["null",{"type":"record","name":"Addr","fields":[
	    {"name":"city","type":"string","doc":"city name"},
	    {"name":"geo","type":{"type":"record","name":"Geo","fields":[{"name":"lat","type":"double"}]}}]}],"default":null},
	 {"name":"home","type":"ns.Addr"},
	 {"name":"tags","type":{"type":"array","items":["null","string"]}},
	 {"name":"items","type":{"type":"array","items":{"type":"record","name":"Item","fields":[{"name":"sku","type":"string"}]}}},
	 {"name":"attrs","type":{"type":"map","values":"Item"}},
	 {"name":"price","type":{"type":"bytes","logicalType":"decimal","precision":10,"scale":2}},
	 {"name":"at","type":["null",{"type":"long","logicalType":"timestamp-micros"}]},
	 {"name":"day","type":{"type":"int","logicalType":"date"}},
	 {"name":"kind","type":{"type":"enum","name":"Kind","symbols":["A","B"]}},
	 {"name":"h","type":{"type":"fixed","name":"H","size":16}},
	 {"name":"self","type":["null","r"]}]}`
	cols, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cols {
		s := c.Name + " " + c.Type
		if c.Nullable {
			s += "?"
		}
		if c.Meta {
			s += " meta"
		}
		got = append(got, s)
	}
	want := []string{
		"_hoodie_commit_time string? meta",
		"addr record?", "addr.city string", "addr.geo record", "addr.geo.lat double",
		"home record", "home.city string", "home.geo record", "home.geo.lat double",
		"tags array<string?>",
		"items array<record>", "items.element record", "items.element.sku string",
		"attrs map<record>", "attrs.value record", "attrs.value.sku string",
		"price decimal(10,2)", "at timestamp-micros?", "day date", "kind enum", "h fixed(16)",
		"self record?", // recursive: listed, not expanded again
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if cols[2].Doc != "city name" {
		t.Errorf("doc = %q", cols[2].Doc)
	}
}

func TestParseRejects(t *testing.T) {
	for _, in := range []string{``, `[]`, `"int"`, `{"type":"enum"}`, `{"type":"record","fields":[1]}`, `{"type":"record","fields":[{"type":"int"}]}`} {
		if _, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) = nil error", in)
		}
	}
	var deep strings.Builder
	for i := range 100 {
		fmt.Fprintf(&deep, `{"type":"record","name":"x%d","fields":[{"name":"f","type":`, i)
	}
	deep.WriteString(`"int"` + strings.Repeat(`}]}`, 100))
	if _, err := Parse(deep.String()); err == nil || !strings.Contains(err.Error(), "deeper") {
		t.Errorf("deep schema: %v", err)
	}
}

func TestDiffEvolution(t *testing.T) {
	a, _ := Parse(evoDC1)
	b, _ := Parse(evoDC2)
	got := Diff(a, b)
	want := []Change{{Kind: Added, Column: "note", To: "string"}, {Kind: TypeChanged, Column: "ts", From: "int", To: "long", Promotion: true}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
	if d := Diff(b, b); len(d) != 0 {
		t.Errorf("same schema: %+v", d)
	}
	back := Diff(b, a)
	want = []Change{{Kind: Removed, Column: "note", From: "string"}, {Kind: TypeChanged, Column: "ts", From: "long", To: "int"}}
	if !reflect.DeepEqual(back, want) {
		t.Fatalf("reverse: got %+v", back)
	}
}

func TestDiffRenameAndNullability(t *testing.T) {
	old := []Column{{Name: "id", Type: "int", ID: 0}, {Name: "fare", Type: "double", ID: 1}, {Name: "city", Type: "string", Nullable: true, ID: 2}}
	new := []Column{{Name: "id", Type: "int", ID: 0}, {Name: "amount", Type: "double", ID: 1}, {Name: "city", Type: "string", ID: 2}, {Name: "x", Type: "long", ID: 3}}
	got := Diff(old, new)
	want := []Change{{Kind: Renamed, Column: "amount", From: "fare"}, {Kind: Added, Column: "x", To: "long"},
		{Kind: Nullability, Column: "city", From: "nullable", To: "required"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
	// without ids the same change is a removal and an addition
	for i := range old {
		old[i].ID = -1
	}
	for i := range new {
		new[i].ID = -1
	}
	got = Diff(old, new)
	if len(got) != 4 || got[0].Kind != Added || got[0].Column != "amount" || got[2].Kind != Removed || got[2].Column != "fare" {
		t.Fatalf("without ids: %+v", got)
	}
}

func TestInternalIDs(t *testing.T) {
	// SerDeHelper's JSON, as the .hoodie/.schema history file holds it (two versions)
	text := `{"schemas":[{"max_column_id":2,"version_id":20240101000000000,"type":"record","fields":[{"id":0,"name":"id","optional":false,"type":"int"},{"id":1,"name":"fare","optional":true,"type":"double"}]},
	{"max_column_id":4,"version_id":20240102000000000,"type":"record","fields":[{"id":0,"name":"id","optional":false,"type":"int"},{"id":1,"name":"amount","optional":true,"type":"double"},
	 {"id":2,"name":"tags","optional":true,"type":{"type":"array","element_id":3,"element":"string","element_optional":true}},
	 {"id":4,"name":"addr","optional":true,"type":{"type":"record","fields":[{"id":5,"name":"city","optional":true,"type":"string"}]}}]}]}`
	ids, err := InternalIDs(text)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"id": 0, "amount": 1, "tags": 2, "tags.element": 3, "addr": 4, "addr.city": 5}
	if !reflect.DeepEqual(ids, want) {
		t.Fatalf("got %v", ids)
	}
	cols := WithIDs([]Column{{Name: "amount", ID: -1}, {Name: "other", ID: -1}}, ids)
	if cols[0].ID != 1 || cols[1].ID != -1 {
		t.Fatalf("WithIDs: %+v", cols)
	}
}

func TestWithMeta(t *testing.T) {
	cols := WithMeta([]Column{{Name: "id", Type: "int", ID: -1}})
	if len(cols) != 6 || cols[0].Name != "_hoodie_commit_time" || !cols[4].Meta || cols[5].Name != "id" {
		t.Fatalf("%+v", cols)
	}
	if again := WithMeta(cols); len(again) != 6 {
		t.Fatalf("meta added twice: %d", len(again))
	}
}

func FuzzParse(f *testing.F) {
	f.Add(evoDC1)
	f.Add(evoDC2)
	f.Add(`{"type":"record","name":"r","fields":[{"name":"a","type":{"type":"map","values":{"type":"array","items":"r"}}}]}`)
	f.Fuzz(func(t *testing.T, s string) {
		cols, err := Parse(s)
		if err != nil {
			return
		}
		_ = Diff(cols, cols)
		if d := Diff(cols, cols); len(d) != 0 {
			t.Fatalf("self diff: %+v", d)
		}
	})
}

func FuzzInternalIDs(f *testing.F) {
	f.Add(`{"type":"record","fields":[{"id":0,"name":"a","type":{"type":"map","key_id":1,"key":"string","value_id":2,"value":"int"}}]}`)
	f.Fuzz(func(t *testing.T, s string) { _, _ = InternalIDs(s) })
}

// Writer schemas of a real schema-on-read table (Hudi 1.1.1, Spark SQL with
// hoodie.schema.on.read.enable=true: create id int, fare double, city string, ts long; insert;
// ALTER TABLE RENAME COLUMN fare TO amount): the insert's Avro schema (no meta columns, no
// internal schema) and the ALTER_SCHEMA commit's Avro schema and extraMetadata latest_schema.
const (
	sorInsert      = `{"type":"record","name":"sor_record","namespace":"hoodie.sor","fields":[{"name":"id","type":["null","int"],"default":null},{"name":"fare","type":["null","double"],"default":null},{"name":"city","type":["null","string"],"default":null},{"name":"ts","type":["null","long"],"default":null}]}`
	sorAlter       = `{"type":"record","name":"sor_record","namespace":"hoodie.sor","fields":[{"name":"_hoodie_commit_time","type":["null","string"],"doc":"","default":null},{"name":"_hoodie_commit_seqno","type":["null","string"],"doc":"","default":null},{"name":"_hoodie_record_key","type":["null","string"],"doc":"","default":null},{"name":"_hoodie_partition_path","type":["null","string"],"doc":"","default":null},{"name":"_hoodie_file_name","type":["null","string"],"doc":"","default":null},{"name":"id","type":["null","int"],"default":null},{"name":"amount","type":["null","double"],"default":null},{"name":"city","type":["null","string"],"default":null},{"name":"ts","type":["null","long"],"default":null}]}`
	sorAlterIntern = `{"max_column_id":8,"version_id":20261202042858908,"type":"record","fields":[{"id":0,"name":"_hoodie_commit_time","optional":true,"type":"string","doc":""},{"id":1,"name":"_hoodie_commit_seqno","optional":true,"type":"string","doc":""},{"id":2,"name":"_hoodie_record_key","optional":true,"type":"string","doc":""},{"id":3,"name":"_hoodie_partition_path","optional":true,"type":"string","doc":""},{"id":4,"name":"_hoodie_file_name","optional":true,"type":"string","doc":""},{"id":5,"name":"id","optional":true,"type":"int"},{"id":6,"name":"amount","optional":true,"type":"double"},{"id":7,"name":"city","optional":true,"type":"string"},{"id":8,"name":"ts","optional":true,"type":"long"}]}`
)

// The rename is told although the insert recorded no ids: its flat schema is numbered as Hudi
// numbered it (meta columns 0-4, then id 5, fare 6, city 7, ts 8), and the meta columns the
// ALTER_SCHEMA commit lists are no change.
func TestRenameFromFirstEvolution(t *testing.T) {
	old, err := Parse(sorInsert)
	if err != nil {
		t.Fatal(err)
	}
	cur, err := Parse(sorAlter)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := InternalIDs(sorAlterIntern)
	if err != nil {
		t.Fatal(err)
	}
	cur = WithIDs(cur, ids)
	if cur[6].Name != "amount" || cur[6].ID != 6 || cur[0].ID != 0 || !cur[0].Meta {
		t.Fatalf("ids %+v", cur)
	}
	got := Diff(WithoutMeta(InferIDs(old, cur)), WithoutMeta(cur))
	want := []Change{{Kind: Renamed, Column: "amount", From: "fare"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v", got)
	}
	// without the inference: a removal and an addition; with meta columns: five more additions
	if got := Diff(WithoutMeta(old), WithoutMeta(cur)); len(got) != 2 {
		t.Errorf("no inference: %+v", got)
	}
	if got := Diff(old, cur); len(got) != 7 {
		t.Errorf("meta columns counted: %d changes", len(got))
	}
	// a nested old schema is left without ids
	nested := []Column{{Name: "a", Type: "record", ID: -1}, {Name: "a.b", Type: "int", ID: -1}}
	if got := InferIDs(nested, cur); got[0].ID != -1 {
		t.Errorf("nested: %+v", got)
	}
}

// sorHistory is the .hoodie/.schema history file of that table after RENAME fare TO amount,
// ADD COLUMNS (note string) and ALTER COLUMN id TYPE bigint (its newest schemacommit file).
const sorHistory = `{"schemas":[{"max_column_id":9,"version_id":20261202042920746,"type":"record","fields":[{"id":0,"name":"_hoodie_commit_time","optional":true,"type":"string","doc":""},{"id":1,"name":"_hoodie_commit_seqno","optional":true,"type":"string","doc":""},{"id":2,"name":"_hoodie_record_key","optional":true,"type":"string","doc":""},{"id":3,"name":"_hoodie_partition_path","optional":true,"type":"string","doc":""},{"id":4,"name":"_hoodie_file_name","optional":true,"type":"string","doc":""},{"id":5,"name":"id","optional":true,"type":"long"},{"id":6,"name":"amount","optional":true,"type":"double"},{"id":7,"name":"city","optional":true,"type":"string"},{"id":8,"name":"ts","optional":true,"type":"long"},{"id":9,"name":"note","optional":true,"type":"string"}]},{"max_column_id":9,"version_id":20261202042904145,"type":"record","fields":[{"id":0,"name":"_hoodie_commit_time","optional":true,"type":"string","doc":""},{"id":1,"name":"_hoodie_commit_seqno","optional":true,"type":"string","doc":""},{"id":2,"name":"_hoodie_record_key","optional":true,"type":"string","doc":""},{"id":3,"name":"_hoodie_partition_path","optional":true,"type":"string","doc":""},{"id":4,"name":"_hoodie_file_name","optional":true,"type":"string","doc":""},{"id":5,"name":"id","optional":true,"type":"int"},{"id":6,"name":"amount","optional":true,"type":"double"},{"id":7,"name":"city","optional":true,"type":"string"},{"id":8,"name":"ts","optional":true,"type":"long"},{"id":9,"name":"note","optional":true,"type":"string"}]},{"max_column_id":8,"version_id":20261202042858908,"type":"record","fields":[{"id":0,"name":"_hoodie_commit_time","optional":true,"type":"string","doc":""},{"id":1,"name":"_hoodie_commit_seqno","optional":true,"type":"string","doc":""},{"id":2,"name":"_hoodie_record_key","optional":true,"type":"string","doc":""},{"id":3,"name":"_hoodie_partition_path","optional":true,"type":"string","doc":""},{"id":4,"name":"_hoodie_file_name","optional":true,"type":"string","doc":""},{"id":5,"name":"id","optional":true,"type":"int"},{"id":6,"name":"amount","optional":true,"type":"double"},{"id":7,"name":"city","optional":true,"type":"string"},{"id":8,"name":"ts","optional":true,"type":"long"}]},{"max_column_id":8,"version_id":0,"type":"record","fields":[{"id":0,"name":"_hoodie_commit_time","optional":true,"type":"string","doc":""},{"id":1,"name":"_hoodie_commit_seqno","optional":true,"type":"string","doc":""},{"id":2,"name":"_hoodie_record_key","optional":true,"type":"string","doc":""},{"id":3,"name":"_hoodie_partition_path","optional":true,"type":"string","doc":""},{"id":4,"name":"_hoodie_file_name","optional":true,"type":"string","doc":""},{"id":5,"name":"id","optional":true,"type":"int"},{"id":6,"name":"fare","optional":true,"type":"double"},{"id":7,"name":"city","optional":true,"type":"string"},{"id":8,"name":"ts","optional":true,"type":"long"}]}]}`

func TestInternalVersions(t *testing.T) {
	vs, err := InternalVersions(sorHistory)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, v := range vs {
		ids = append(ids, v.VersionID)
	}
	want := []string{"0", "20261202042858908", "20261202042904145", "20261202042920746"}
	if !reflect.DeepEqual(ids, want) {
		t.Fatalf("versions %v", ids)
	}
	var got [][]Change
	for i := 1; i < len(vs); i++ {
		got = append(got, Diff(WithoutMeta(vs[i-1].Columns), WithoutMeta(vs[i].Columns)))
	}
	wantCh := [][]Change{{{Kind: Renamed, Column: "amount", From: "fare"}}, {{Kind: Added, Column: "note", To: "string"}},
		{{Kind: TypeChanged, Column: "id", From: "int", To: "long", Promotion: true}}}
	if !reflect.DeepEqual(got, wantCh) {
		t.Fatalf("changes %+v", got)
	}
	if c := vs[3].Columns[5]; c.Name != "id" || c.ID != 5 || !c.Nullable {
		t.Errorf("id column %+v", c)
	}
}

func FuzzInternalVersions(f *testing.F) {
	f.Add(sorHistory)
	f.Fuzz(func(t *testing.T, s string) { _, _ = InternalVersions(s) })
}
