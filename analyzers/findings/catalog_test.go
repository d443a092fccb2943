package findings_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/findings"
	"github.com/hudiscope/hudiscope/assets"
)

// TestEmbeddedCatalogLoads: the shipped catalog parses and every path in it resolves against
// the report types and TableFacts.
func TestEmbeddedCatalogLoads(t *testing.T) {
	c, err := findings.Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Rows) != 37 {
		t.Errorf("%d rows, want 37", len(c.Rows))
	}
}

// TestMisspelledPathFailsLoad: a typo in any path a row reads fails the load, naming the row
// and the path, instead of reading as "absent" on every table.
func TestMisspelledPathFailsLoad(t *testing.T) {
	for _, tc := range []struct {
		name string
		// edit misspells one path of the decoded catalog and returns the row id and the path.
		edit func(rows []any) (id, path string)
		want string // a phrase of the error
	}{
		{"layout field", editCond("signals", "layout.totalFiles", "layout.totalFile"), `no field "totalFile" (did you mean "totalFiles"?)`},
		{"table fact", editCond("signals", "table.commits.updateShare", "table.commits.updateShar"), `no fact "updateShar"`},
		{"table group", editCond("signals", "table.commits.updateShare", "table.commits"), "group of facts"},
		{"eventlog selector field", editCond("signals", "eventlog.stages[phase=", "eventlog.stages[phse="), `no field "phse"`},
		{"health nested", editCond("", "health.hudiscope.checks[name=", "health.hudiscope.chekcs[name="), `no field "chekcs"`},
		{"unknown input", editCond("signals", "layout.", "layuot."), `unknown input "layuot"`},
		{"ref", editRef("layout.totalFiles", "layout.totalFils"), `no field "totalFils"`},
		{"payoff", editPayoff("eventlog.hudiscope.phaseSummary", "eventlog.hudiscope.phaseSumary"), `no field "phaseSumary"`},
		{"key when", editWhen("table.type", "table.tpye"), `no fact "tpye" (did you mean "type"?)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var doc map[string]any
			if err := json.Unmarshal(assets.FindingsCatalog, &doc); err != nil {
				t.Fatal(err)
			}
			id, path := tc.edit(doc["rows"].([]any))
			if id == "" {
				t.Fatal("no row to edit")
			}
			b, _ := json.Marshal(doc)
			_, err := findings.Parse(b, assets.FindingsKnownKeys, assets.KnownConfigs, assets.EngineDefaults)
			if err == nil {
				t.Fatalf("%s with path %q loaded", id, path)
			}
			for _, s := range []string{id, `"` + path + `"`, tc.want} {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not name %s", err, s)
				}
			}
		})
	}
}

// editCond replaces the first path starting with prefix in a condition list ("" = any list)
// with prefix replaced by to.
func editCond(list, prefix, to string) func([]any) (string, string) {
	return func(rows []any) (string, string) {
		for _, r := range rows {
			row := r.(map[string]any)
			for _, l := range []string{"signals", "against", "gates", "doNothingWhen"} {
				if list != "" && l != list {
					continue
				}
				cs, _ := row[l].([]any)
				for _, c := range cs {
					cond := c.(map[string]any)
					if p, _ := cond["path"].(string); p != "" && strings.HasPrefix(p, prefix) {
						cond["path"] = to + strings.TrimPrefix(p, prefix)
						return row["id"].(string), cond["path"].(string)
					}
				}
			}
		}
		return "", ""
	}
}

func editRef(ref, to string) func([]any) (string, string) {
	return func(rows []any) (string, string) {
		for _, r := range rows {
			row := r.(map[string]any)
			cs, _ := row["signals"].([]any)
			for _, c := range cs {
				if cond := c.(map[string]any); cond["ref"] == ref {
					cond["ref"] = to
					return row["id"].(string), to
				}
			}
		}
		return "", ""
	}
}

func editPayoff(prefix, to string) func([]any) (string, string) {
	return func(rows []any) (string, string) {
		for _, r := range rows {
			row := r.(map[string]any)
			if p, _ := row["payoffPath"].(string); strings.HasPrefix(p, prefix) {
				row["payoffPath"] = to + strings.TrimPrefix(p, prefix)
				return row["id"].(string), row["payoffPath"].(string)
			}
		}
		return "", ""
	}
}

// editWhen replaces the first change-key gate path starting with prefix by to.
func editWhen(prefix, to string) func([]any) (string, string) {
	return func(rows []any) (string, string) {
		for _, r := range rows {
			row := r.(map[string]any)
			keys, _ := row["change"].(map[string]any)["keys"].([]any)
			for _, k := range keys {
				when, _ := k.(map[string]any)["when"].([]any)
				for _, c := range when {
					if cond := c.(map[string]any); strings.HasPrefix(fmt.Sprint(cond["path"]), prefix) {
						cond["path"] = to
						return row["id"].(string), to
					}
				}
			}
		}
		return "", ""
	}
}
