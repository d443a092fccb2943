package cli

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/hudi/records"
)

// snapshot: counts, time travel, the three row formats and the refusals, end to end.
func TestSnapshotCommand(t *testing.T) {
	tbl := fixture("incr-1.2.0")
	cases := []struct {
		args       []string
		code       int
		out, err   string
		outNotHave string
	}{
		{args: []string{"snapshot", tbl, "--count"}, out: "4\n"},
		{args: []string{"snapshot", tbl, "--count", "--by", "commit"}, out: "20261129155610512 1\n20261129155626253 2\n20261129155632267 1\n"},
		{args: []string{"snapshot", tbl, "--as-of", "20261129155626253", "--count", "--by", "commit"}, out: "20261129155610512 2\n20261129155626253 2\n"},
		{args: []string{"snapshot", tbl, "--count", "--by", "partition"}, out: "\"\" 4\n"},
		{args: []string{"snapshot", tbl, "--count", "-o", "json"}, out: "\"count\": 4"},
		{args: []string{"snapshot", tbl, "--columns", "name", "-o", "csv"}, out: "_hoodie_commit_time,_hoodie_record_key,_hoodie_partition_path,name\n20261129155626253,1,,a2\n"},
		{args: []string{"snapshot", tbl, "--limit", "1", "-o", "json"}, out: `{"_hoodie_commit_time":"20261129155626253","_hoodie_commit_seqno":"20261129155626253_0_0","_hoodie_record_key":"1",`},
		{args: []string{"snapshot", tbl, "--limit", "1"}, out: "_hoodie_commit_time  _hoodie_commit_seqno", outNotHave: "b3"},
		{args: []string{"snapshot", tbl, "--as-of", "20200101000000000", "--count"}, out: "0\n", err: "note: --as-of 20200101000000000 is before the first write on the active timeline (requested at 20261129155610512): the table had no rows then"},
		{args: []string{"snapshot", fixture("cow-services-0.15.0"), "--as-of", "20200101000000000", "--count"}, code: exitUsage, err: "(Cleaner cleaned up the timestamp of interest)"},
		{args: []string{"snapshot", tbl, "--by", "commit"}, code: exitUsage, err: "--by needs --count"},
		{args: []string{"snapshot", tbl, "-o", "md"}, code: exitUsage, err: "--output must be one of text, json, csv"},
	}
	for _, c := range cases {
		stdout, stderr, code := runCLI(t, c.args...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d (stderr %s)", c.args[2:], code, c.code, stderr)
		}
		if c.out != "" && !strings.Contains(stdout, c.out) {
			t.Errorf("%v: stdout %q, want it to contain %q", c.args[2:], stdout, c.out)
		}
		if c.outNotHave != "" && strings.Contains(stdout, c.outNotHave) {
			t.Errorf("%v: stdout %q has %q (limit ignored?)", c.args[2:], stdout, c.outNotHave)
		}
		if c.err != "" && !strings.Contains(stderr, c.err) {
			t.Errorf("%v: stderr %q, want %q", c.args[2:], stderr, c.err)
		}
	}
	// JSON Lines: one object per row, all columns, numbers as numbers.
	stdout, _, _ := runCLI(t, "snapshot", tbl, "-o", "json")
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d JSON lines, want 4: %s", len(lines), stdout)
	}
	var row map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &row); err != nil || row["id"] != float64(1) || row["name"] != "a2" || len(row) != 8 {
		t.Errorf("first row %v (%v)", row, err)
	}
}

// incremental prints rows through the same writer (every column by default).
func TestIncrementalRowsCommand(t *testing.T) {
	stdout, stderr, code := runCLI(t, "incremental", fixture("incr-1.2.0"), "--begin", "20261129155625814", "-o", "csv", "--hudi-version", "1.2.0")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := "_hoodie_commit_time,_hoodie_commit_seqno,_hoodie_record_key,_hoodie_partition_path,_hoodie_file_name,id,name,ts\n"
	if !strings.HasPrefix(stdout, want) || strings.Count(stdout, "\n") != 4 {
		t.Errorf("stdout %q", stdout)
	}
}

// Logical types print the same way in text, CSV and JSON: decimals exact (a JSON number),
// dates as days, timestamps in UTC at their precision, binary as base64, nested as JSON.
func TestRowValueRendering(t *testing.T) {
	ts := time.Date(2024, 1, 2, 3, 4, 5, 123456000, time.FixedZone("x", 3600))
	r := records.Record{Fields: []string{"dec", "day", "ts", "bin", "nested", "nan", "nil"}, Values: map[string]any{
		"dec": records.Decimal("-123.45"), "day": records.Date{Time: time.Date(2022, 1, 8, 0, 0, 0, 0, time.UTC)}, "ts": ts,
		"bin": []byte{1, 2, 3}, "nested": map[string]any{"t": ts, "l": []any{records.Decimal("1.50"), nil}}, "nan": math.NaN(), "nil": nil,
	}}
	var text, js, csvOut bytes.Buffer
	for f, w := range map[string]*bytes.Buffer{"text": &text, "json": &js, "csv": &csvOut} {
		rw := newRowWriter(w, f, nil)
		if err := rw.write(r); err != nil {
			t.Fatal(err)
		}
		if err := rw.flush(); err != nil {
			t.Fatal(err)
		}
	}
	wantJSON := `{"dec":-123.45,"day":"2022-01-08","ts":"2024-01-02T02:04:05.123456Z","bin":"AQID","nested":{"l":[1.50,null],"t":"2024-01-02T02:04:05.123456Z"},"nan":"NaN","nil":null}` + "\n"
	if js.String() != wantJSON {
		t.Errorf("json\n%s\nwant\n%s", js.String(), wantJSON)
	}
	wantCSV := "dec,day,ts,bin,nested,nan,nil\n-123.45,2022-01-08,2024-01-02T02:04:05.123456Z,AQID,\"{\"\"l\"\":[1.50,null],\"\"t\"\":\"\"2024-01-02T02:04:05.123456Z\"\"}\",NaN,null\n"
	if csvOut.String() != wantCSV {
		t.Errorf("csv\n%s\nwant\n%s", csvOut.String(), wantCSV)
	}
	if !strings.Contains(text.String(), "-123.45  2022-01-08  2024-01-02T02:04:05.123456Z  AQID  {\"l\":[1.50,null]") {
		t.Errorf("text\n%s", text.String())
	}
}

// The --count document and the change rows write only fields docs/json.md documents.
func TestRowCommandsJSONDocumented(t *testing.T) {
	sections := jsonDocSections(t)
	check := func(section string, doc map[string]any, dynamic ...string) {
		t.Helper()
		dyn := map[string]bool{}
		for _, d := range dynamic {
			dyn[d] = true
		}
		paths := map[string]bool{}
		collectJSONPaths(doc, "", dyn, paths)
		if len(paths) < 2 {
			t.Errorf("%s: only %v", section, paths)
		}
		for p := range paths {
			if !sections[section][p] {
				t.Errorf("%s writes %q, not documented in docs/json.md section %q", section, p, section)
			}
		}
	}
	for _, cmd := range []string{"snapshot", "incremental"} {
		args := []string{cmd, fixture("incr-1.2.0"), "--count", "--by", "commit", "-o", "json"}
		if cmd == "incremental" {
			args = append(args, "--begin", "000", "--hudi-version", "1.2.0")
		}
		stdout, stderr, code := runCLI(t, args...)
		var doc map[string]any
		if code != 0 || json.Unmarshal([]byte(stdout), &doc) != nil || doc["count"] != float64(4) {
			t.Fatalf("%s: exit %d %s %s", cmd, code, stdout, stderr)
		}
		check("snapshot", doc) // incremental's section refers to snapshot's count document
	}
	stdout, _, _ := runCLI(t, "changes", fixture("cdc-1.2.0"), "--begin", "earliest", "-o", "json")
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var doc map[string]any
		if err := json.Unmarshal([]byte(line), &doc); err != nil {
			t.Fatal(err)
		}
		check("changes", doc, "before", "after")
	}
}

// orderedRow keeps column order and writes <, > and & as they are (no HTML escaping).
func TestOrderedRowJSON(t *testing.T) {
	for _, c := range []struct {
		row  orderedRow
		want string
	}{
		{orderedRow{}, `{}`},
		{orderedRow{{"z<&>", "a<b>&c"}, {"a", []any{1, nil}}, {"m", map[string]any{"k": "v"}}}, `{"z<&>":"a<b>&c","a":[1,null],"m":{"k":"v"}}`},
	} {
		b, err := c.row.MarshalJSON()
		if err != nil || string(b) != c.want {
			t.Errorf("MarshalJSON = %s, %v; want %s", b, err, c.want)
		}
	}
	if _, err := (orderedRow{{"f", func() {}}}).MarshalJSON(); err == nil || !strings.Contains(err.Error(), "unsupported type: func()") {
		t.Errorf("MarshalJSON of a func: %v, want an unsupported type error", err)
	}
}

// With the reader schema known, a record written before a column was added prints it as null
// in JSON (Spark returns note: null), in the schema's order, and CSV's header is the schema's
// even when the first record is the older one; a column of the row the schema lacks follows.
func TestRowWriterReaderSchema(t *testing.T) {
	schema := []string{"_hoodie_commit_time", "_hoodie_record_key", "_hoodie_partition_path", "id", "ts", "note"}
	old := records.Record{Fields: []string{"_hoodie_commit_time", "_hoodie_record_key", "_hoodie_partition_path", "id", "ts"},
		Values: map[string]any{"_hoodie_commit_time": "c1", "_hoodie_record_key": "1", "_hoodie_partition_path": "", "id": int32(1), "ts": int32(5)}}
	newer := records.Record{Fields: []string{"_hoodie_commit_time", "_hoodie_record_key", "_hoodie_partition_path", "id", "ts", "note", "extra"},
		Values: map[string]any{"_hoodie_commit_time": "c2", "_hoodie_record_key": "2", "_hoodie_partition_path": "", "id": int32(2), "ts": int64(6), "note": "n", "extra": true}}
	for _, c := range []struct {
		f, want string
	}{
		{"json", `{"_hoodie_commit_time":"c1","_hoodie_record_key":"1","_hoodie_partition_path":"","id":1,"ts":5,"note":null}` + "\n" +
			`{"_hoodie_commit_time":"c2","_hoodie_record_key":"2","_hoodie_partition_path":"","id":2,"ts":6,"note":"n","extra":true}` + "\n"},
		{"csv", "_hoodie_commit_time,_hoodie_record_key,_hoodie_partition_path,id,ts,note\nc1,1,,1,5,null\nc2,2,,2,6,n\n"},
	} {
		var b strings.Builder
		rw := newRowWriter(&b, c.f, nil)
		for _, r := range []records.Record{old, newer} {
			if err := rw.writeRow(outRow{rec: &r, sch: schema}); err != nil {
				t.Fatal(err)
			}
		}
		if err := rw.flush(); err != nil {
			t.Fatal(err)
		}
		if b.String() != c.want {
			t.Errorf("%s:\n%s\nwant\n%s", c.f, b.String(), c.want)
		}
	}
}

// On a merge-on-read table whose logs carry a newer schema (schema-evo-mor-1.1.1: dc2 added
// note and widened ts to long), snapshot and incremental JSON rows carry every column of the
// reader schema: ids 5 and 6, written before note existed and never updated, have note null,
// as Spark returns them (they had no note key at all before).
func TestSchemaEvolutionRowsCommand(t *testing.T) {
	tbl := fixture("schema-evo-mor-1.1.1")
	if _, err := os.Stat(tbl); err != nil {
		t.Skipf("fixture absent: %v", err)
	}
	cols := []string{"_hoodie_commit_time", "_hoodie_commit_seqno", "_hoodie_record_key", "_hoodie_partition_path", "_hoodie_file_name", "id", "name", "ts", "note"}
	for _, args := range [][]string{{"snapshot", tbl, "-o", "json"}, {"incremental", tbl, "--begin", "000", "-o", "json"}} {
		stdout, stderr, code := runCLI(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		notes := map[string]any{}
		lines := strings.Split(strings.TrimSpace(stdout), "\n")
		for _, line := range lines {
			var row map[string]any
			if err := json.Unmarshal([]byte(line), &row); err != nil {
				t.Fatal(err)
			}
			if len(row) != len(cols) {
				t.Errorf("%v: row has %d columns, want %v: %s", args[0], len(row), cols, line)
			}
			for _, c := range cols {
				if _, ok := row[c]; !ok {
					t.Errorf("%v: row lacks %s: %s", args[0], c, line)
				}
			}
			notes[records.Text(row["id"])] = row["note"]
		}
		want := map[string]any{"1": "n1", "2": nil, "3": "n3", "4": "n4", "5": nil, "6": nil}
		if len(lines) != 6 || !reflect.DeepEqual(notes, want) {
			t.Errorf("%v: %d rows, notes by id %v, want %v", args[0], len(lines), notes, want)
		}
	}
}
