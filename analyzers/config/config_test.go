package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/internal/redact"
)

func TestPrecedenceAndSources(t *testing.T) {
	dir := t.TempDir()
	props := filepath.Join(dir, "w.properties")
	os.WriteFile(props, []byte("hoodie.keep.max.commits=40\nhoodie.cleaner.policy=KEEP_LATEST_FILE_VERSIONS\nhoodie.compact.inline.max.delta.commits 7\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "hudi-defaults.conf"), []byte("# EMR\nhoodie.keep.max.commits 99\nhoodie.clean.trigger.max.commits 3\n"), 0o644)
	t.Setenv("HUDI_CONF_DIR", dir)
	e, err := Load(Files{PropsFile: props, HoodieConf: []string{"hoodie.compact.inline.max.delta.commits=9"},
		Table: map[string]string{"hoodie.table.name": "t", "hoodie.clean.trigger.max.commits": "8"}})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		key, val string
		src      Source
	}{
		{"hoodie.compact.inline.max.delta.commits", "9", SourceProps}, // --hoodie-conf beats the file
		{"hoodie.keep.max.commits", "40", SourceProps},                // props beat cluster defaults
		{"hoodie.clean.trigger.max.commits", "3", SourceCluster},      // cluster beats table
		{"hoodie.table.name", "t", SourceTable},
		{"hoodie.index.type", "SIMPLE", SourceEngine}, // Spark engine-effective
		{"hoodie.metadata.index.column.stats.enable", "true", SourceEngine},
		{"hoodie.keep.min.commits", "20", SourceDeclared},
		{"hoodie.clean.policy", "KEEP_LATEST_FILE_VERSIONS", SourceProps}, // via the alternative key
	}
	for _, c := range cases {
		v, ok := e.Lookup(c.key)
		if !ok || v.Raw != c.val || v.Source != c.src {
			t.Errorf("%s = %q (%s), want %q (%s)", c.key, v.Raw, v.Source, c.val, c.src)
		}
	}
	if v, _ := e.Lookup("hoodie.compact.inline.max.delta.commits"); v.Origin != "--hoodie-conf" {
		t.Errorf("origin %q", v.Origin)
	}
	if v, _ := e.Lookup("hoodie.clean.policy"); v.AltKey != "hoodie.cleaner.policy" {
		t.Errorf("alt %q", v.AltKey)
	}
	if _, ok := e.SuppliedExact("hoodie.clean.policy"); ok {
		t.Error("exact lookup must not see the alternative key")
	}
	if _, ok := e.Supplied("hoodie.clean.trigger.max.commits"); !ok {
		t.Error("cluster defaults count as supplied")
	}
	if _, ok := e.Supplied("hoodie.table.name"); ok {
		t.Error("hoodie.properties is not writer-supplied")
	}
}

func TestEngines(t *testing.T) {
	for _, c := range []struct{ engine, key, want string }{
		{"flink", "hoodie.index.type", "INMEMORY"},
		{"flink", "hoodie.metadata.index.secondary.enable", "false"},
		{"java", "hoodie.metadata.enable", "false"},
		{"spark", "hoodie.metadata.enable", "true"}, // declared (no Spark override)
		{"java", "hoodie.write.markers.type", "DIRECT"},
		{"spark", "hoodie.metadata.streaming.write.enabled", "true"},
	} {
		e := New(Input{Engine: c.engine})
		if got := e.Get(c.key); got != c.want {
			t.Errorf("%s %s = %s, want %s", c.engine, c.key, got, c.want)
		}
	}
	if v, _ := New(Input{}).Lookup("hoodie.metadata.enable"); v.Source != SourceDeclared {
		t.Errorf("spark metadata.enable source %s", v.Source)
	}
	if e := New(Input{Engine: "presto"}); len(e.Problems) != 1 {
		t.Errorf("unknown engine not reported")
	}
}

// secretProps is a props file full of credentials.
const secretProps = `hoodie.keep.max.commits=30
hoodie.clean.trigger.max.commits=1
fs.s3a.access.key=AKIAIOSFODNN7EXAMPLE
fs.s3a.secret.key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY
fs.s3a.session.token=FwoGZXIvYXdzEXAMPLETOKEN
hoodie.write.lock.zookeeper.password=zk-pass-123
javax.jdo.option.ConnectionPassword=hive-metastore-pw
hoodie.aws.credentials.provider.secret=provider-secret-9
spark.hadoop.fs.azure.account.key.acct.blob.core.windows.net=AZUREKEYEXAMPLE==
hoodie.datasource.hive_sync.jdbcurl=jdbc:hive2://admin:jdbcpw42@hive:10000
hoodie.base.path=s3a://AKIAINURI:uri-secret-77@bucket/table
`

var secretValues = []string{"AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI", "FwoGZXIvYXdzEXAMPLETOKEN", "zk-pass-123", "hive-metastore-pw",
	"provider-secret-9", "AZUREKEYEXAMPLE", "jdbcpw42", "uri-secret-77", "AKIAINURI"}

func TestSecretsRedacted(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "creds.properties")
	os.WriteFile(p, []byte(secretProps), 0o600)
	e, err := Load(Files{PropsFile: p, ClusterDefaults: "-", HoodieConf: []string{"hoodie.some.api.token=tok-from-cli"}})
	if err != nil {
		t.Fatal(err)
	}
	// The text form is report.ConfigText's (report/text_test.go, TestConfigTextRedacts).
	js, _ := json.Marshal(e)
	out := string(js)
	for _, s := range append(secretValues, "tok-from-cli") {
		if strings.Contains(out, s) {
			t.Errorf("secret %q leaked:\n%s", s, out)
		}
	}
	if !strings.Contains(out, redact.Marker) || !strings.Contains(out, "hoodie.keep.max.commits") {
		t.Errorf("expected redaction marker and ordinary keys:\n%s", out)
	}
	// The raw value stays usable internally.
	if v, _ := e.Lookup("fs.s3a.secret.key"); v.Raw == "" || !v.Secret || v.Display() != redact.Marker {
		t.Errorf("secret value %+v", v)
	}
	if got := redact.Value("hoodie.base.path", "s3a://AK:SK@bucket/t"); got != "s3a://***:***@bucket/t" {
		t.Errorf("uri userinfo: %s", got)
	}
}

// Issue 28: hoodie.* keys in the event log's Spark Properties are what the application ran
// with: supplied, below hudi-defaults.conf and the writer properties, above hoodie.properties.
func TestWithEventLogLayer(t *testing.T) {
	e := New(Input{Props: map[string]string{"hoodie.keep.max.commits": "6"}, PropsFile: "w.properties",
		Cluster: map[string]string{"hoodie.clean.commits.retained": "4"}, ClusterSrc: "hudi-defaults.conf",
		Table: map[string]string{"hoodie.table.name": "t"}})
	spark := map[string]string{"hoodie.keep.max.commits": "20", "hoodie.clean.commits.retained": "9",
		"hoodie.clean.trigger.max.commits": "3", "spark.serializer": "org.apache.spark.serializer.KryoSerializer"}
	x := e.WithEventLog(spark, "app-1")
	if _, ok := e.Supplied("hoodie.clean.trigger.max.commits"); ok {
		t.Error("WithEventLog changed the original")
	}
	for key, want := range map[string]string{
		"hoodie.clean.trigger.max.commits": "3 event log (app-1)",
		"hoodie.keep.max.commits":          "6 props (w.properties)",
		"hoodie.clean.commits.retained":    "4 cluster defaults (hudi-defaults.conf)",
	} {
		v, ok := x.Supplied(key)
		if got := v.Raw + " " + v.SourceLabel(); !ok || got != want {
			t.Errorf("%s: %q, want %q", key, got, want)
		}
	}
	if _, ok := x.Supplied("spark.serializer"); ok {
		t.Error("a spark.* key became a writer property")
	}
	if n := len(x.Layers); n != 4 || x.Layers[2].Source != SourceEventLog || x.Layers[3].Source != SourceTable {
		t.Errorf("layers %+v", x.Layers)
	}
	if e.WithEventLog(map[string]string{"spark.x": "y"}, "app-2") != e {
		t.Error("no hoodie.* key: not the same configuration")
	}
}

// A value supplied under a name the release does not know is not what its writer ran with:
// 0.14 silently ignores 1.x's hoodie.clean.trigger.max.commits, so 0.14's value is its own
// default for hoodie.clean.max.commits (1), not the 7 supplied; 1.1 knows the name and takes
// it, and takes 0.x's hoodie.clean.max.commits as the alternative its HoodieCleanConfig lists.
func TestReleaseValueIgnoresSpellingsTheReleaseLacks(t *testing.T) {
	e := New(Input{Props: map[string]string{"hoodie.clean.trigger.max.commits": "7"}, PropsFile: "w.properties"})
	v, ok, _ := e.ReleaseValue("hoodie.clean.trigger.max.commits", "0.14")
	if !ok || v.Raw != "1" || v.Source != SourceRelease || v.AltKey != "hoodie.clean.max.commits" {
		t.Errorf("0.14: %+v %v, want its default 1 under hoodie.clean.max.commits", v, ok)
	}
	if v, ok, _ := e.ReleaseValue("hoodie.clean.trigger.max.commits", "1.1"); !ok || v.Raw != "7" || v.Source != SourceProps {
		t.Errorf("1.1: %+v %v, want the supplied 7", v, ok)
	}
	old := New(Input{Props: map[string]string{"hoodie.clean.max.commits": "4"}, PropsFile: "w.properties"})
	for _, r := range []string{"0.14", "1.1"} {
		if v, ok, _ := old.ReleaseValue("hoodie.clean.trigger.max.commits", r); !ok || v.Raw != "4" || v.Source != SourceProps {
			t.Errorf("%s with hoodie.clean.max.commits=4: %+v %v", r, v, ok)
		}
	}
}
