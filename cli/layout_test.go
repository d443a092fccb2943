package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --props-path listing a table twice → two JSON reports (analyzers.md §6 #14); Java's double-dash
// short names work; date-flag errors exit 1 with Java's message.
func TestLayoutPropsPathAndFlags(t *testing.T) {
	table := filepath.Join("..", "testdata", "fixtures", "incr-1.2.0", "table.zip")
	if _, err := os.Stat(table); err != nil {
		t.Skipf("fixture not generated yet: %v", err)
	}
	list := filepath.Join(t.TempDir(), "tables.txt")
	os.WriteFile(list, []byte(table+"\n\n  "+table+"  \n"), 0o644)
	out, errOut, code := runCLI(t, "layout", "--pp", list, "--irc", "--ps", "--tn", "1", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	dec := json.NewDecoder(strings.NewReader(out))
	n := 0
	for dec.More() {
		var r struct {
			TotalRecords *int64 `json:"totalRecords"`
			Partitions   []struct {
				NumRecords *int64 `json:"numRecords"`
			} `json:"partitions"`
		}
		if err := dec.Decode(&r); err != nil {
			t.Fatal(err)
		}
		// 4 rows in the one latest base file (oracle/summary.json row_count).
		if r.TotalRecords == nil || *r.TotalRecords != 4 || len(r.Partitions) != 1 || *r.Partitions[0].NumRecords != 4 {
			t.Errorf("report %d: %s", n, out)
		}
		n++
	}
	if n != 2 {
		t.Errorf("%d reports, want 2", n)
	}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--num-days=-1"}, "--num-days must specify a positive value"},
		{[]string{"--sd", "2024-1-3", "--ed", "2024-01-03"}, "starting date must be before ending date"},
		{[]string{"--sd", "2024-1-3"}, "when partition does not contain date"}, // non-partitioned: "" has no date
	} {
		_, errOut, code := runCLI(t, append([]string{"layout", table}, c.args...)...)
		if code != exitError || !strings.Contains(errOut, c.msg) {
			t.Errorf("%v: exit %d %s", c.args, code, errOut)
		}
	}
}
