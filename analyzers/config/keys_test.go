package config

import (
	"slices"
	"testing"

	"github.com/hudiscope/hudiscope/assets"
)

func TestKeyDataReleases(t *testing.T) {
	want := []struct {
		line string
		tv   int
	}{{"0.12", 5}, {"0.14", 6}, {"0.15", 6}, {"1.0", 8}, {"1.1", 9}, {"1.2", 9}}
	rs := Releases()
	if len(rs) != len(want) {
		t.Fatalf("releases %+v", rs)
	}
	tbl := table()
	for i, w := range want {
		if rs[i].Line != w.line || rs[i].TableVersion != w.tv || rs[i].Keys != len(tbl.keys[i]) || rs[i].Keys < 400 {
			t.Errorf("release %d: %+v, want line %s table version %d, %d keys", i, rs[i], w.line, w.tv, len(tbl.keys[i]))
		}
	}
	if LatestRelease() != "1.2" {
		t.Errorf("latest %s", LatestRelease())
	}
	if len(assets.HudiConfigKeys) > 1500000 {
		t.Errorf("hudi_config_keys.json is %d bytes", len(assets.HudiConfigKeys))
	}
}

func TestReleaseForTableVersion(t *testing.T) {
	for v, want := range map[int][]string{
		3: nil, 4: {"0.11"}, 5: {"0.12", "0.13"}, 6: {"0.14", "0.15"}, 7: nil, 8: {"1.0"}, 9: {"1.1", "1.2"}, 10: nil,
	} {
		if got := ReleaseForTableVersion(v); !slices.Equal(got, want) {
			t.Errorf("table version %d: %v, want %v", v, got, want)
		}
	}
	// A 1.x writer that pins hoodie.write.table.version keeps writing v6 and v8 tables.
	if got := WriterReleases(6, true); !slices.Equal(got, []string{"0.14", "0.15", "1.0", "1.1", "1.2"}) {
		t.Errorf("writers of v6 with a pinned version: %v", got)
	}
	if got := WriterReleases(8, true); !slices.Equal(got, []string{"1.0", "1.1", "1.2"}) {
		t.Errorf("writers of v8 with a pinned version: %v", got)
	}
	if got := WriterReleases(5, false); !slices.Equal(got, []string{"0.12", "0.13"}) {
		t.Errorf("writers of v5: %v", got)
	}
	if ReleaseCaveat("1.2") != "" || ReleaseCaveat("0.11") == "" || ReleaseCaveat("0.13") == "" {
		t.Error("caveats: only uncovered lines have one")
	}
}

// TestRenamedKeys: 1.0 renamed the cleaner keys and kept the old names as alternatives.
func TestRenamedKeys(t *testing.T) {
	k, ok := Key("hoodie.clean.max.commits", "0.12")
	if !ok || k.Name != "hoodie.clean.max.commits" || k.Default != "1" || !k.HasDefault {
		t.Errorf("0.12 hoodie.clean.max.commits: %+v %v", k, ok)
	}
	k, ok = Key("hoodie.clean.max.commits", "1.2")
	if !ok || k.Name != "hoodie.clean.trigger.max.commits" || k.Default != "1" || !slices.Contains(k.Alternatives, "hoodie.clean.max.commits") {
		t.Errorf("1.2 hoodie.clean.max.commits: %+v %v", k, ok)
	}
	if KnownIn("hoodie.clean.trigger.max.commits", "0.15") || !KnownIn("hoodie.clean.trigger.max.commits", "1.0") {
		t.Error("hoodie.clean.trigger.max.commits is 1.0+")
	}
	for name, want := range map[[2]string]string{
		{"hoodie.clean.trigger.max.commits", "0.12"}: "hoodie.clean.max.commits",
		{"hoodie.clean.commits.retained", "0.14"}:    "hoodie.cleaner.commits.retained",
		{"hoodie.cleaner.commits.retained", "1.2"}:   "hoodie.clean.commits.retained",
		{"hoodie.clean.max.commits", "1.1"}:          "hoodie.clean.trigger.max.commits",
	} {
		if got, ok := NameIn(name[0], name[1]); !ok || got != want {
			t.Errorf("NameIn(%s, %s) = %q %v, want %s", name[0], name[1], got, ok, want)
		}
	}
	if _, ok := NameIn("hoodie.metadata.streaming.write.enabled", "1.0"); ok {
		t.Error("hoodie.metadata.streaming.write.enabled has no 1.0 name")
	}
	k12, k10 := KeysOf("0.12"), KeysOf("1.0")
	if !slices.Contains(k12, "hoodie.clean.max.commits") || slices.Contains(k12, "hoodie.clean.trigger.max.commits") ||
		!slices.Contains(k10, "hoodie.clean.max.commits") || !slices.Contains(k10, "hoodie.clean.trigger.max.commits") {
		t.Error("KeysOf: 0.12 has only the old cleaner name, 1.0 both")
	}
}

func TestKeysByRelease(t *testing.T) {
	for name, want := range map[string][]string{
		"hoodie.metadata.streaming.write.enabled": {"1.1", "1.2"},
		"hoodie.write.table.version":              {"1.0", "1.1", "1.2"},
		"hoodie.metadata.keep.max.commits":        {"0.12"},
		"hoodie.datasource.write.operation":       {"0.12", "0.14", "0.15", "1.0", "1.1", "1.2"},
		"hoodie.no.such.key":                      nil,
	} {
		if got := KeyLines(name); !slices.Equal(got, want) {
			t.Errorf("KeyLines(%s) = %v, want %v", name, got, want)
		}
	}
	if k, _ := Key("hoodie.write.table.version", "1.0"); k.Default != "8" || k.Since != "1.0.0" {
		t.Errorf("1.0 hoodie.write.table.version: %+v", k)
	}
	if k, _ := Key("hoodie.write.table.version", "1.2"); k.Default != "9" {
		t.Errorf("1.2 hoodie.write.table.version: %+v", k)
	}
	// An uncovered line is answered by the covered one standing in for it.
	if k, ok := Key("hoodie.clean.max.commits", "0.13"); !ok || k.Release != "0.12" {
		t.Errorf("0.13: %+v %v", k, ok)
	}
	if _, ok := Key("hoodie.clean.max.commits", "2.0"); ok {
		t.Error("an unknown line knows no key")
	}
}

// TestDefaultsChange: defaults the findings engine must read per release.
func TestDefaultsChange(t *testing.T) {
	for _, c := range []struct {
		key, line, def string
		has            bool
	}{
		{"hoodie.upsert.shuffle.parallelism", "0.12", "200", true},
		{"hoodie.upsert.shuffle.parallelism", "0.14", "0", true},
		{"hoodie.enable.data.skipping", "0.15", "false", true},
		{"hoodie.enable.data.skipping", "1.0", "true", true},
		{"hoodie.write.lock.client.num_retries", "0.12", "10", true},
		{"hoodie.write.lock.client.num_retries", "0.14", "50", true},
		{"hoodie.write.lock.provider", "0.15", "org.apache.hudi.client.transaction.lock.ZookeeperBasedLockProvider", true},
		{"hoodie.write.lock.provider", "1.0", "", false},
		{"hoodie.datasource.write.precombine.field", "0.15", "ts", true},
		{"hoodie.datasource.write.precombine.field", "1.0", "", false},
		{"hoodie.table.version", "0.14", "0", true},
		{"hoodie.table.version", "1.2", "9", true},
	} {
		k, ok := Key(c.key, c.line)
		if !ok || k.Default != c.def || k.HasDefault != c.has {
			t.Errorf("%s in %s: %+v %v, want default %q (has %v)", c.key, c.line, k, ok, c.def, c.has)
		}
	}
	if k, _ := Key("hoodie.record.merge.mode", "1.2"); k.HasDefault || k.DefaultNote == "" {
		t.Errorf("hoodie.record.merge.mode has a computed default: %+v", k)
	}
}

func TestCompareLines(t *testing.T) {
	ls := []string{"1.2", "0.9", "1.0", "0.15", "0.12", "x"}
	sortLines(ls)
	if !slices.Equal(ls, []string{"0.9", "0.12", "0.15", "1.0", "1.2", "x"}) {
		t.Errorf("sorted %v", ls)
	}
}

// The table configuration keys per release line are HoodieTableConfig's in the key data: 26 in
// 0.12 (no hoodie.record.merge.mode, which 1.0 added), 30 in 0.14/0.15, 38 in 1.0, 42 in 1.1,
// 44 in 1.2; none for a line not in the data.
func TestTableConfigKeys(t *testing.T) {
	want := map[string]int{"0.12": 26, "0.14": 30, "0.15": 30, "1.0": 38, "1.1": 42, "1.2": 44}
	for line, n := range want {
		keys := TableConfigKeys(line)
		if len(keys) != n {
			t.Errorf("%s: %d keys, want %d", line, len(keys), n)
		}
		has := slices.Contains(keys, "hoodie.record.merge.mode")
		if has != (CompareLines(line, "1.0") >= 0) {
			t.Errorf("%s: hoodie.record.merge.mode listed %v", line, has)
		}
		if !slices.Contains(keys, "hoodie.table.name") || !slices.IsSorted(keys) {
			t.Errorf("%s: %v", line, keys)
		}
	}
	if k := TableConfigKeys("9.9"); k != nil {
		t.Errorf("unknown line: %v", k)
	}
}
