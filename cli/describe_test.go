package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/internal/testutil"
	"github.com/hudiscope/hudiscope/report"
)

// describeFixtures: a real schema evolution (Hudi 1.1.1, MOR) and a 0.x table whose writes
// are mostly archived (Hudi 0.15.0, COW, clustering).
var describeFixtures = []string{"schema-evo-mor-1.1.1", "cow-services-0.15.0"}

// `describe` in text, JSON and Markdown matches its golden files on both fixtures.
func TestDescribeGolden(t *testing.T) {
	t.Setenv("HUDISCOPE_NOW", "2026-12-01T00:00:00Z")
	t.Setenv("TZ", "UTC")
	for _, fx := range describeFixtures {
		for _, f := range []struct{ format, ext string }{{"text", "txt"}, {"json", "json"}, {"md", "md"}} {
			t.Run(fx+"/"+f.format, func(t *testing.T) {
				stdout, stderr, code := runCLI(t, "describe", fixture(fx), "-o", f.format, "--cluster-defaults", "-")
				if code != 0 {
					t.Fatalf("exit %d: %s", code, stderr)
				}
				if f.format == "json" {
					if v := decodeJSON(t, "describe", stdout)["schemaVersion"]; v != report.SchemaVersion {
						t.Errorf("schemaVersion %v", v)
					}
				}
				golden := filepath.Join("testdata", "golden", fx+"-describe."+f.ext)
				assertGolden(t, golden, stdout)
			})
		}
	}
}

type describeDoc struct {
	Properties []struct {
		Key, Value string
		Secret     bool
	}
	Config []struct {
		Key, Value, Source, Origin, Note string
	}
	Schema *struct {
		Instant struct{ RequestedTime, CompletionTime string }
		Columns []struct {
			Name, Type string
			Nullable   bool
			Meta       bool
		}
	}
	History []struct {
		Instant struct {
			RequestedTime, CompletionTime, Action, Operation string
			Archived                                         bool
		}
		Initial bool
		Columns int
		Changes []struct {
			Kind, Column, From, To string
			Promotion              bool
		}
	}
	WritesRead, WritesWithoutSchema int
}

func describeJSON(t *testing.T, args ...string) describeDoc {
	t.Helper()
	stdout, stderr, code := runCLI(t, append([]string{"describe", "-o", "json", "--cluster-defaults", "-"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var d describeDoc
	if err := json.Unmarshal([]byte(stdout), &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// The schema history of schema-evo-mor-1.1.1 is what the generator did (testdata/gen
// generate.py schema_evo, its write_log in oracle/summary.json): dc1 inserts with
// id:int,name:string,ts:int; dc2 adds note:string and widens ts int→long (Spark accepted it:
// ts_widened_to_long); dc3 and dc4 write dc2's schema, so they are no versions of their own.
// The instants are the fixture's timeline file names (requested_completion.deltacommit).
func TestDescribeSchemaHistory(t *testing.T) {
	t.Setenv("TZ", "UTC")
	var sum struct {
		WriteLog []string `json:"write_log"`
		Widened  bool     `json:"ts_widened_to_long"`
	}
	b, err := os.ReadFile(filepath.Join("..", "testdata", "fixtures", "schema-evo-mor-1.1.1", "oracle", "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	if !sum.Widened || !strings.Contains(sum.WriteLog[1], "+note:string, ts:long") {
		t.Fatalf("the generator's log no longer says dc2 added note and widened ts: %q", sum.WriteLog)
	}
	d := describeJSON(t, fixture("schema-evo-mor-1.1.1"))
	if len(d.History) != 2 || d.WritesRead != 4 || d.WritesWithoutSchema != 0 {
		t.Fatalf("history %+v, %d writes read, %d without schema", d.History, d.WritesRead, d.WritesWithoutSchema)
	}
	h0, h1 := d.History[0], d.History[1]
	if h0.Instant.RequestedTime != "20261201232754383" || h0.Instant.CompletionTime != "20261201232923020" ||
		h0.Instant.Action != "deltacommit" || h0.Instant.Operation != "INSERT" || !h0.Initial || h0.Columns != 3 || len(h0.Changes) != 0 {
		t.Errorf("first version %+v", h0)
	}
	if h1.Instant.RequestedTime != "20261201232928356" || h1.Instant.CompletionTime != "20261201233016001" ||
		h1.Instant.Operation != "UPSERT" || h1.Initial || h1.Columns != 4 {
		t.Errorf("second version %+v", h1)
	}
	type ch = struct {
		Kind, Column, From, To string
		Promotion              bool
	}
	want := []ch{{Kind: "added", Column: "note", To: "string"}, {Kind: "type", Column: "ts", From: "int", To: "long", Promotion: true}}
	if !reflect.DeepEqual(h1.Changes, want) {
		t.Errorf("dc2 changes %+v, want %+v", h1.Changes, want)
	}
	// the latest schema is dc4's (the newest write), meta columns first
	if d.Schema == nil || d.Schema.Instant.RequestedTime != "20261201233040548" || len(d.Schema.Columns) != 9 || !d.Schema.Columns[0].Meta {
		t.Fatalf("schema %+v", d.Schema)
	}

	// cow-services-0.15.0: one schema since the first (archived) insert; 30 of its 44 writes
	// are archived (oracle/java_archived_timeline.json)
	d = describeJSON(t, fixture("cow-services-0.15.0"))
	if len(d.History) != 1 || d.WritesRead != 44 || !d.History[0].Instant.Archived ||
		d.History[0].Instant.RequestedTime != "20261129165340793" || d.History[0].Instant.Operation != "INSERT" {
		t.Fatalf("history %+v, %d writes", d.History, d.WritesRead)
	}
}

// describe.json (testdata/gen/probe_describe.py, the writing release through Spark): the
// columns DESCRIBE TABLE lists with their Spark types, the nullability of the snapshot read's
// schema, every entry CALL show_table_properties returns, and for every active write the
// schema CALL show_commit_extra_metadata returns — a write whose schema differs from the
// previous one's is a history entry, and no other is.
func TestDescribeMatchesSpark(t *testing.T) {
	t.Setenv("TZ", "UTC")
	sparkType := map[string]string{"int": "int", "long": "bigint", "string": "string", "double": "double", "boolean": "boolean"}
	for _, fx := range describeFixtures {
		t.Run(fx, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("..", "testdata", "fixtures", fx, "oracle", "describe.json"))
			if err != nil {
				t.Fatal(err)
			}
			var o struct {
				Props []struct {
					Key, Value string
				} `json:"show_table_properties"`
				Describe []struct {
					Col  string `json:"col_name"`
					Type string `json:"data_type"`
				} `json:"describe"`
				Read struct {
					Fields []struct {
						Name     string
						Nullable bool
					}
				} `json:"read_schema"`
				Commits []struct {
					Instant string          `json:"instant_time"`
					Schema  json.RawMessage `json:"schema"`
				} `json:"commit_schemas"`
			}
			if err := json.Unmarshal(b, &o); err != nil {
				t.Fatal(err)
			}
			d := describeJSON(t, fixture(fx))
			if len(d.Schema.Columns) != len(o.Describe) || len(o.Describe) < 9 {
				t.Fatalf("%d columns, DESCRIBE %d", len(d.Schema.Columns), len(o.Describe))
			}
			for i, c := range d.Schema.Columns {
				if c.Name != o.Describe[i].Col || sparkType[c.Type] != o.Describe[i].Type {
					t.Errorf("column %d: %s %s, DESCRIBE %s %s", i, c.Name, c.Type, o.Describe[i].Col, o.Describe[i].Type)
				}
				// Spark reads the meta columns nullable, and the data columns as the schema says
				if c.Nullable != o.Read.Fields[i].Nullable {
					t.Errorf("column %s nullable %v, Spark read schema %v", c.Name, c.Nullable, o.Read.Fields[i].Nullable)
				}
			}
			props := map[string]string{}
			for _, p := range d.Properties {
				props[p.Key] = p.Value
			}
			if len(props) != len(o.Props) {
				t.Errorf("%d properties, show_table_properties %d", len(props), len(o.Props))
			}
			for _, p := range o.Props {
				if p.Key == "hoodie.table.create.schema" && fx == "cow-services-0.15.0" {
					// Hudi 0.15's CREATE TABLE … LOCATION (the probe registers the scratch copy)
					// rewrites the record name in it after the registered table's name
					p.Value = strings.ReplaceAll(p.Value, "describe_cow_services_0_15_0", "cow_services")
				}
				if v, ok := props[p.Key]; !ok || v != p.Value {
					t.Errorf("%s = %q, show_table_properties %q", p.Key, v, p.Value)
				}
			}
			// the writes where Spark's recorded schema changes (the first active one counts
			// only when it is the table's first write)
			changed := map[string]bool{}
			var prev string
			for i, c := range o.Commits {
				var norm any
				if err := json.Unmarshal(c.Schema, &norm); err != nil {
					t.Fatal(err)
				}
				nb, _ := json.Marshal(norm)
				if s := string(nb); i > 0 && s != prev {
					changed[c.Instant] = true
				}
				prev = string(nb)
			}
			if len(o.Commits) == 0 {
				t.Fatal("no commit schemas in the oracle")
			}
			ours := map[string]bool{}
			for _, h := range d.History {
				if !h.Instant.Archived && h.Instant.RequestedTime != o.Commits[0].Instant {
					ours[h.Instant.RequestedTime] = true
				}
			}
			if !reflect.DeepEqual(ours, changed) {
				t.Errorf("history on the active timeline %v, Spark's schema changes at %v", ours, changed)
			}
		})
	}
}

// A secret-looking key's value in hoodie.properties is masked in every format, and a
// credential inside another value's URI is stripped; the rest of the table still describes.
func TestDescribeRedactsSecrets(t *testing.T) {
	t.Setenv("TZ", "UTC")
	dir := testutil.UnzipTable(t, fixture("schema-evo-mor-1.1.1"), t.TempDir())
	pp := filepath.Join(dir, ".hoodie", "hoodie.properties")
	f, err := os.OpenFile(pp, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.WriteString("hoodie.datasource.hive_sync.password=hunter2-pw\nhoodie.bootstrap.base.path=s3a://admin:s3cr3t-value@bucket/src\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"text", "json", "md"} {
		stdout, stderr, code := runCLI(t, "describe", dir, "-o", format, "--cluster-defaults", "-")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", format, code, stderr)
		}
		for _, secret := range []string{"hunter2", "s3cr3t"} {
			if strings.Contains(stdout, secret) || strings.Contains(stderr, secret) {
				t.Errorf("%s output shows %s", format, secret)
			}
		}
		if !strings.Contains(stdout, "***") || !strings.Contains(stdout, "deltacommit") {
			t.Errorf("%s: no mask or no schema history:\n%s", format, stdout)
		}
	}
	d := describeJSON(t, dir)
	found := 0
	for _, p := range d.Properties {
		switch p.Key {
		case "hoodie.datasource.hive_sync.password":
			found++
			if p.Value != "***" || !p.Secret {
				t.Errorf("password property %+v", p)
			}
		case "hoodie.bootstrap.base.path":
			found++
			if p.Value != "s3a://***:***@bucket/src" { // an s3a:// user is an access key
				t.Errorf("URI property %+v", p)
			}
		}
	}
	for _, c := range d.Config {
		if c.Key == "hoodie.bootstrap.base.path" && (c.Source != "table" || strings.Contains(c.Value, "s3cr3t")) {
			t.Errorf("config row %+v", c)
		}
	}
	if found != 2 {
		t.Errorf("found %d of the 2 added properties", found)
	}
}

// A write whose completed file is not JSON is named in problems (file and parse error); the
// other writes still make the history, and the command exits 0.
func TestDescribeBadCommit(t *testing.T) {
	t.Setenv("TZ", "UTC")
	stdout, stderr, code := runCLI(t, "describe", filepath.Join("..", "testdata", "bad", "instant-invalid-json", "table"), "-o", "json", "--cluster-defaults", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var d struct {
		describeDoc
		Problems []string
	}
	if err := json.Unmarshal([]byte(stdout), &d); err != nil {
		t.Fatal(err)
	}
	if d.WritesRead != 3 || d.WritesWithoutSchema != 1 || len(d.History) != 1 || d.History[0].Instant.RequestedTime != "20261129155610512" {
		t.Fatalf("%d writes, %d without schema, history %+v", d.WritesRead, d.WritesWithoutSchema, d.History)
	}
	if len(d.Problems) != 1 || !strings.Contains(d.Problems[0], "20261129155626253_20261129155631861.commit: invalid character") {
		t.Errorf("problems %q", d.Problems)
	}
}

// A table with a schema-on-read history (.hoodie/.schema) lists its versions from the newest
// completed schemacommit file: a rename by column id, an addition; the version instants
// take their completion times from the timeline. (The history here is written by the test, in
// the format of a real Hudi 1.1.1 file; see hudi/schema's TestInternalVersions.)
func TestDescribeSchemaOnReadFile(t *testing.T) {
	t.Setenv("TZ", "UTC")
	dir := testutil.UnzipTable(t, fixture("schema-evo-mor-1.1.1"), t.TempDir())
	sd := filepath.Join(dir, ".hoodie", ".schema")
	if err := os.MkdirAll(sd, 0o755); err != nil {
		t.Fatal(err)
	}
	f := func(id int, name, typ string) string {
		return `{"id":` + string(rune('0'+id)) + `,"name":"` + name + `","optional":true,"type":"` + typ + `"}`
	}
	v0 := `{"max_column_id":2,"version_id":0,"type":"record","fields":[` + f(0, "id", "int") + `,` + f(1, "name", "string") + `,` + f(2, "ts", "int") + `]}`
	v1 := `{"max_column_id":3,"version_id":20261201232928356,"type":"record","fields":[` + f(0, "id", "int") + `,` + f(1, "label", "string") + `,` + f(2, "ts", "int") + `,` + f(3, "note", "string") + `]}`
	files := map[string]string{
		"20261201232928356.schemacommit.requested":         "",
		"20261201232928356_20261201232929000.schemacommit": `{"schemas":[` + v0 + `,` + v1 + `]}`,
		"20261201232754383_20261201232755000.schemacommit": `{"schemas":[` + v0 + `]}`,
		"20261201233040548.schemacommit.inflight":          "",
	}
	for n, c := range files {
		if err := os.WriteFile(filepath.Join(sd, n), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stdout, stderr, code := runCLI(t, "describe", dir, "-o", "json", "--cluster-defaults", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var d struct {
		SchemaFile        string
		SchemaFileHistory []struct {
			Instant struct{ RequestedTime, CompletionTime, Action string }
			Initial bool
			Changes []struct{ Kind, Column, From, To string }
		}
	}
	if err := json.Unmarshal([]byte(stdout), &d); err != nil {
		t.Fatal(err)
	}
	if d.SchemaFile != ".hoodie/.schema/20261201232928356_20261201232929000.schemacommit" || len(d.SchemaFileHistory) != 2 {
		t.Fatalf("%s %+v", d.SchemaFile, d.SchemaFileHistory)
	}
	h := d.SchemaFileHistory[1]
	if h.Instant.RequestedTime != "20261201232928356" || h.Instant.CompletionTime != "20261201233016001" || h.Instant.Action != "deltacommit" ||
		len(h.Changes) != 2 || h.Changes[0].Kind != "renamed" || h.Changes[0].Column != "label" || h.Changes[0].From != "name" ||
		h.Changes[1].Kind != "added" || h.Changes[1].Column != "note" {
		t.Errorf("second version %+v", h)
	}
	if !d.SchemaFileHistory[0].Initial || d.SchemaFileHistory[0].Instant.RequestedTime != "0" {
		t.Errorf("first version %+v", d.SchemaFileHistory[0])
	}
}
