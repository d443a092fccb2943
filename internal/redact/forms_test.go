package redact

import (
	"strings"
	"testing"
)

// credentialForm is one way a credential appears in a value; docs/security.md lists them.
type credentialForm struct {
	name, value, want, secret string
}

// CredentialForms are the 18 forms of docs/security.md; each secret contains "SEKRET".
var credentialForms = []credentialForm{
	{"uri-userinfo", "ftp://user:SEKRET01@host/t", "ftp://user:***@host/t", "SEKRET01"},
	{"uri-userinfo-slash", "hdfs://user:SE/KRET02@nn:8020/t", "hdfs://user:***@nn:8020/t", "SE/KRET02"},
	{"uri-userinfo-at", "https://user:SE@KRET03@host:443/p", "https://user:***@host:443/p", "KRET03"},
	{"azure-accountkey", "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=SEKRET04/ab+c==;EndpointSuffix=core.windows.net",
		"DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=***;EndpointSuffix=core.windows.net", "SEKRET04"},
	{"sas-sig", "https://acct.blob.core.windows.net/c?sv=2022-11-02&sp=r&sig=SEKRET05%2Bx%3D&se=2030",
		"https://acct.blob.core.windows.net/c?sv=2022-11-02&sp=r&sig=***&se=2030", "SEKRET05"},
	{"oracle-thin", "jdbc:oracle:thin:scott/SEKRET06@//db:1521/svc", "jdbc:oracle:thin:scott/***@//db:1521/svc", "SEKRET06"},
	{"basic-auth-user-info", "basic.auth.user.info=user:SEKRET07", "basic.auth.user.info=***", "SEKRET07"},
	{"pwd-key", "-Dssl.keystore.pwd=SEKRET08", "-Dssl.keystore.pwd=***", "SEKRET08"},
	{"storepass", "storepass=SEKRET09 -storepass SEKRET09b", "storepass=*** -storepass ***", "SEKRET09"},
	{"quoted-password", `username="u" password="SEKRET 10";`, `username="u" password="***";`, "SEKRET"},
	{"json-password", `{"user":"u","password":"SEKRET11\"x"}`, `{"user":"u","password":"***"}`, "SEKRET11"},
	{"bearer", "Authorization: Bearer SEKRET12.abc-def", "Authorization: Bearer ***", "SEKRET12"},
	{"zk-digest", "digest:zkuser:SEKRET13", "digest:zkuser:***", "SEKRET13"},
	{"embedded-password", "jdbc:hive2://ms:10000/db;user=hive;password=SEKRET14", "jdbc:hive2://ms:10000/db;user=hive;password=***", "SEKRET14"},
	// Issue 31's forms.
	{"nested-quoted-password", `-Dlogin="PlainLoginModule required username=\"u\" password=\"SEKRET 15\";"`,
		`-Dlogin="PlainLoginModule required username=\"u\" password=\"***\";"`, "SEKRET"},
	{"access-key-id-secret", "AKIAIOSFODNN7EXAMPLE:wJalrXUtnFEMI/K7MDENG/bPxRfiSEKRET16", "***:***", "SEKRET16"},
	{"presigned-url", "s3://b/t?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAX/20261201/us-east-1/s3/aws4_request&X-Amz-Security-Token=SEKRET17&X-Amz-Signature=SEKRET17b",
		"s3://b/t?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=***&X-Amz-Security-Token=***&X-Amz-Signature=***", "SEKRET17"},
	{"secret-dir-in-message", "t/password=SEKRET18: list password=SEKRET18: denied", "t/password=***: list password=***: denied", "SEKRET18"},
}

// TestRedactKnownSecret: a credential value the process registered (the S3 session token the
// SDK resolved) is hidden wherever it appears, even where no pattern says it is one (an S3
// error <Code> echoing it); short values are not registered.
func TestRedactKnownSecret(t *testing.T) {
	AddSecret("FwoGZXIvYXdzEKnownToken0123456789", "short")
	if got := Text("read s3://b/k: FwoGZXIvYXdzEKnownToken0123456789"); got != "read s3://b/k: ***" {
		t.Errorf("got %q", got)
	}
	if got := Text("a short word"); got != "a short word" {
		t.Errorf("short value registered: %q", got)
	}
}

// TestRedactStrings: every string of a document (fields, slices, maps, pointers) is redacted.
func TestRedactStrings(t *testing.T) {
	type row struct {
		Location string
		Errs     []string
		Params   map[string]string
		Next     *row
	}
	d := &row{Location: "s3://b/t?X-Amz-Security-Token=SEKRETa", Errs: []string{"password=SEKRETb"},
		Params: map[string]string{"p": "ftp://u:SEKRETc@h/"}, Next: &row{Location: "token=SEKRETd"}}
	Strings(d)
	if d.Location != "s3://b/t?X-Amz-Security-Token=***" || d.Errs[0] != "password=***" || d.Params["p"] != "ftp://u:***@h/" || d.Next.Location != "token=***" {
		t.Errorf("%+v %+v", d, d.Next)
	}
}

// TestRedactCredentialForms: each form is redacted as a whole value, inside a longer
// spark.driver.extraJavaOptions, and under its own secret key name when it has one.
func TestRedactCredentialForms(t *testing.T) {
	for _, f := range credentialForms {
		t.Run(f.name, func(t *testing.T) {
			if got := Value("hoodie.some.value", f.value); got != f.want {
				t.Errorf("Value(%q) = %q, want %q", f.value, got, f.want)
			}
			long := "-Xmx4g -Da=1 " + f.value + " -XX:+UseG1GC"
			got := Value("spark.driver.extraJavaOptions", long)
			if want := "-Xmx4g -Da=1 " + f.want + " -XX:+UseG1GC"; got != want {
				t.Errorf("embedded: got %q, want %q", got, want)
			}
			if strings.Contains(got, "SEKRET") || strings.Contains(got, f.secret) {
				t.Errorf("embedded leaks: %q", got)
			}
			if Value("", got) != got {
				t.Errorf("not idempotent: %q", got)
			}
		})
	}
	for _, k := range []string{"schema.registry.basic.auth.user.info", "hoodie.x.pwd", "ssl.truststore.storepass",
		"fs.azure.account.AccountKey", "x.sig", "fs.azure.sas.token"} {
		if got := Value(k, "SEKRET"); got != Marker {
			t.Errorf("Value(%q) = %q, want %s", k, got, Marker)
		}
	}
	for _, plain := range []string{"design=1", "s3a://bucket/t", "hdfs://nn:8020/a/b", "the digest is ok", "bearer", "x=\"y\""} {
		if got := Value("spark.x", plain); got != plain {
			t.Errorf("Value(%q) = %q, want unchanged", plain, got)
		}
	}
}
