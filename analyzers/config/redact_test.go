package config

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// Credentials embedded in otherwise harmless values (a JDBC URL's ;password=, a query string's
// token=, a --hoodie-conf or -D option in an argument list) are redacted; other key=value pairs
// and the rest of the value are kept.
func TestRedactEmbeddedCredentials(t *testing.T) {
	for _, c := range []struct{ key, in, want string }{
		{"hoodie.datasource.hive_sync.jdbcurl", "jdbc:hive2://hive:pw1@ms:10000/db;user=hive;password=pw2",
			"jdbc:hive2://hive:" + Redacted + "@ms:10000/db;user=hive;password=" + Redacted},
		{"hoodie.streamer.extra.args", "--hoodie-conf hoodie.aws.secret.key=pw3 --hoodie-conf hoodie.table.name=t",
			"--hoodie-conf hoodie.aws.secret.key=" + Redacted + " --hoodie-conf hoodie.table.name=t"},
		{"spark.driver.extraJavaOptions", "-Dfs.s3a.access.key=AKIAX -Dx=1", "-Dfs.s3a.access.key=" + Redacted + " -Dx=1"},
		{"hoodie.write.lock.dynamodb.endpoint_url", "https://h/x?sessionToken=pw4&region=eu", "https://h/x?sessionToken=" + Redacted + "&region=eu"},
		{"hoodie.table.name", "plain", "plain"},
		{"hoodie.aws.secret.key", "pw5", Redacted},
		{"", "a=b c=d", "a=b c=d"},
	} {
		if got := Redact(c.key, c.in); got != c.want {
			t.Errorf("Redact(%q, %q) = %q, want %q", c.key, c.in, got, c.want)
		}
	}
}

// A props file full of credentials: the effective configuration's JSON and text show every
// key, each secret as [redacted], and none of the values.
func TestEffectiveRedactsEveryCredential(t *testing.T) {
	props := map[string]string{
		"fs.s3a.secret.key":                    "SEKRET01",
		"fs.s3a.access.key":                    "AKIASEKRET02",
		"hoodie.aws.secret.key":                "SEKRET03",
		"hoodie.aws.access.key":                "AKIASEKRET04",
		"hoodie.aws.session.token":             "SEKRET05",
		"hoodie.datasource.hive_sync.password": "SEKRET06",
		"hoodie.write.lock.zookeeper.password": "SEKRET07",
		"hoodie.datasource.hive_sync.jdbcurl":  "jdbc:hive2://hive:SEKRET08@ms:10000/db;password=SEKRET09",
		"hoodie.base.path":                     "s3a://AKIASEKRET10:SEKRET11@bucket/t",
		"hoodie.streamer.extra.args":           "--hoodie-conf hoodie.aws.secret.key=SEKRET12",
	}
	e := New(Input{Props: props, PropsFile: "p.properties", HoodieConf: []string{"hoodie.datasource.hive_sync.password=SEKRET13"}})
	js, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	var txt bytes.Buffer
	if err := e.WriteText(&txt); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"json": string(js), "text": txt.String()} {
		if strings.Contains(out, "SEKRET") {
			t.Errorf("%s leaks a secret:\n%s", name, out)
		}
		for k := range props {
			if !strings.Contains(out, k) {
				t.Errorf("%s does not show key %s", name, k)
			}
		}
		if n := strings.Count(out, Redacted); n < len(props) {
			t.Errorf("%s shows %s %d times, want at least %d", name, Redacted, n, len(props))
		}
	}
}

// FuzzRedact: redaction never panics; a secret key's value never survives; an embedded
// secret key=value keeps no part of its value after the '='.
func FuzzRedact(f *testing.F) {
	f.Add("hoodie.aws.secret.key", "abc")
	f.Add("hoodie.datasource.hive_sync.jdbcurl", "jdbc:hive2://u:p@h:1/db;user=u;password=p2")
	f.Add("x", "--hoodie-conf hoodie.aws.session.token=tok -Dfs.s3a.access.key=AK")
	f.Add("", "s3a://AK:SK@bucket/p?x=1&apikey=K")
	f.Fuzz(func(t *testing.T, key, value string) {
		got := Redact(key, value)
		if key != "" && IsSecret(key) && value != "" && got != Redacted {
			t.Fatalf("Redact(%q, %q) = %q", key, value, got)
		}
		if Redact(key, got) != got {
			t.Fatalf("not idempotent: %q -> %q -> %q", value, got, Redact(key, got))
		}
	})
}
