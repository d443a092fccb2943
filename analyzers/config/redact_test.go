package config

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/internal/redact"
)

// A props file full of credentials: the effective configuration's JSON shows every
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
	// The text form is report.ConfigText's (report/text_test.go, TestConfigTextRedacts).
	for name, out := range map[string]string{"json": string(js)} {
		if strings.Contains(out, "SEKRET") {
			t.Errorf("%s leaks a secret:\n%s", name, out)
		}
		for k := range props {
			if !strings.Contains(out, k) {
				t.Errorf("%s does not show key %s", name, k)
			}
		}
		if n := strings.Count(out, redact.Marker); n < len(props) {
			t.Errorf("%s shows %s %d times, want at least %d", name, redact.Marker, n, len(props))
		}
	}
}
