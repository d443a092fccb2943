package redact

import "testing"

// Credentials embedded in otherwise harmless values (a JDBC URL's ;password=, a query string's
// token=, a --hoodie-conf or -D option in an argument list) are redacted; other key=value pairs
// and the rest of the value are kept.
func TestRedactEmbeddedCredentials(t *testing.T) {
	for _, c := range []struct{ key, in, want string }{
		{"hoodie.datasource.hive_sync.jdbcurl", "jdbc:hive2://hive:pw1@ms:10000/db;user=hive;password=pw2",
			"jdbc:hive2://hive:" + Marker + "@ms:10000/db;user=hive;password=" + Marker},
		{"hoodie.streamer.extra.args", "--hoodie-conf hoodie.aws.secret.key=pw3 --hoodie-conf hoodie.table.name=t",
			"--hoodie-conf hoodie.aws.secret.key=" + Marker + " --hoodie-conf hoodie.table.name=t"},
		{"spark.driver.extraJavaOptions", "-Dfs.s3a.access.key=AKIAX -Dx=1", "-Dfs.s3a.access.key=" + Marker + " -Dx=1"},
		{"hoodie.write.lock.dynamodb.endpoint_url", "https://h/x?sessionToken=pw4&region=eu", "https://h/x?sessionToken=" + Marker + "&region=eu"},
		{"hoodie.table.name", "plain", "plain"},
		{"hoodie.aws.secret.key", "pw5", Marker},
		{"", "a=b c=d", "a=b c=d"},
	} {
		if got := Value(c.key, c.in); got != c.want {
			t.Errorf("Value(%q, %q) = %q, want %q", c.key, c.in, got, c.want)
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
		got := Value(key, value)
		if key != "" && IsSecret(key) && value != "" && got != Marker {
			t.Fatalf("Value(%q, %q) = %q", key, value, got)
		}
		if Value(key, got) != got {
			t.Fatalf("not idempotent: %q -> %q -> %q", value, got, Value(key, got))
		}
	})
}
