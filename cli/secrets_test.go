package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/klauspost/compress/zstd"

	"github.com/hudiscope/hudiscope/internal/redact"
	"github.com/hudiscope/hudiscope/internal/testutil"
	"github.com/hudiscope/hudiscope/model"
	"github.com/hudiscope/hudiscope/ui"
)

// secretMark is in every credential value below: no output may contain it.
const secretMark = "SEKRET"

// credentialProps is a writer-properties file full of credentials, the way people paste them.
const credentialProps = `
fs.s3a.secret.key=SEKRET01
fs.s3a.access.key=AKIASEKRET02
hoodie.aws.secret.key=SEKRET03
hoodie.aws.access.key=AKIASEKRET04
hoodie.aws.session.token=SEKRET05
hoodie.datasource.hive_sync.password=SEKRET06
hoodie.write.lock.zookeeper.password=SEKRET07
hoodie.datasource.hive_sync.jdbcurl=jdbc:hive2://hive:SEKRET08@metastore:10000/default;user=hive;password=SEKRET09
hoodie.base.path=s3a://AKIASEKRET10:SEKRET11@bucket/tables/cow_services
hoodie.streamer.extra.args=--hoodie-conf hoodie.aws.secret.key=SEKRET12 --hoodie-conf hoodie.datasource.hive_sync.password=SEKRET13
hoodie.write.lock.dynamodb.endpoint_url=https://user:SEKRET14@dynamodb.local
`

// sparkSecrets go first into the event log's Spark Properties; the hoodie.* ones are the
// properties the event-log analysis keeps and shows.
const sparkSecrets = `"spark.hadoop.fs.s3a.secret.key":"SEKRET21","spark.hadoop.fs.s3a.access.key":"AKIASEKRET22",` +
	`"spark.hadoop.fs.s3a.session.token":"SEKRET23","hoodie.aws.secret.key":"SEKRET24",` +
	`"hoodie.datasource.hive_sync.password":"SEKRET25",` +
	`"hoodie.datasource.hive_sync.jdbcurl":"jdbc:hive2://hive:SEKRET26@ms:10000/db;password=SEKRET27",` +
	`"hoodie.base.path":"s3a://AKIASEKRET28:SEKRET29@bucket/t",` +
	`"hoodie.streamer.extra.args":"--hoodie-conf hoodie.aws.secret.key=SEKRET30",`

// credentialForms are the 14 forms of docs/security.md (each secret contains SEKRET), placed
// in the event log's Spark properties one per key and all together in a JVM-options value.
var credentialForms = []string{
	"ftp://user:SEKRET41@host/t",
	"hdfs://user:SEKRET/42@nn:8020/t",
	"https://user:SEKRET@43@host:443/p",
	"DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=SEKRET44/ab+c==;EndpointSuffix=core.windows.net",
	"https://acct.blob.core.windows.net/c?sv=2022-11-02&sp=r&sig=SEKRET45%2Bx&se=2030",
	"jdbc:oracle:thin:scott/SEKRET46@//db:1521/svc",
	"basic.auth.user.info=user:SEKRET47",
	"-Dssl.keystore.pwd=SEKRET48",
	"storepass=SEKRET49 -storepass SEKRET49b",
	`username="u" password="SEKRET 50";`,
	`{"user":"u","password":"SEKRET51"}`,
	"Authorization: Bearer SEKRET52.abc",
	"digest:zkuser:SEKRET53",
	"jdbc:hive2://ms:10000/db;user=hive;password=SEKRET54",
}

func credentialFormProps() string {
	var b strings.Builder
	for i, v := range credentialForms {
		k, _ := json.Marshal(fmt.Sprintf("hoodie.form.%02d", i))
		js, _ := json.Marshal(v)
		b.WriteString(string(k) + ":" + string(js) + ",")
	}
	all, _ := json.Marshal("-Xmx4g " + strings.Join(credentialForms, " ") + " -XX:+UseG1GC")
	b.WriteString(`"spark.driver.extraJavaOptions":` + string(all) + `,"hoodie.extra.java.opts":` + string(all) + ",")
	return b.String()
}

// secretsWorld writes the cow-services writer properties plus credentialProps, and a copy of its
// event log whose Spark and system properties carry credentials. It returns props and log paths.
func secretsWorld(t *testing.T) (table, props, eventLog string) {
	t.Helper()
	src := filepath.Join("..", "testdata", "fixtures", "cow-services-1.2.0")
	table = filepath.Join(src, "table.zip")
	if _, err := os.Stat(table); err != nil {
		t.Skipf("fixture: %v", err)
	}
	dir := t.TempDir()
	wp, err := os.ReadFile(filepath.Join(src, "writer.properties"))
	if err != nil {
		t.Fatal(err)
	}
	props = filepath.Join(dir, "writer.properties")
	if err := os.WriteFile(props, append(wp, credentialProps...), 0o644); err != nil {
		t.Fatal(err)
	}
	logSrc := filepath.Join(src, "eventlog_v2_local-1795968726856")
	eventLog = filepath.Join(dir, filepath.Base(logSrc))
	copyTree(t, logSrc, eventLog)
	first := filepath.Join(eventLog, "events_1_local-1795968726856.zstd")
	zb, err := os.ReadFile(first)
	if err != nil {
		t.Fatal(err)
	}
	dec, _ := zstd.NewReader(nil)
	plain, err := dec.DecodeAll(zb, nil)
	dec.Close()
	if err != nil {
		t.Fatal(err)
	}
	const sp = `"Spark Properties":{`
	if bytes.Count(plain, []byte(sp)) != 1 {
		t.Fatal("fixture event log: want one Spark Properties block")
	}
	plain = bytes.Replace(plain, []byte(sp), []byte(sp+sparkSecrets+credentialFormProps()), 1)
	plain = bytes.Replace(plain, []byte(`"sun.java.command":"`), []byte(`"sun.java.command":"--hoodie-conf hoodie.aws.secret.key=SEKRET31 `), 1)
	enc, _ := zstd.NewWriter(nil)
	if err := os.WriteFile(first, enc.EncodeAll(plain, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	enc.Close()
	return table, props, eventLog
}

func assertNoSecret(t *testing.T, what, out string) {
	t.Helper()
	if i := strings.Index(out, secretMark); i >= 0 {
		t.Errorf("%s leaks a credential: …%s…", what, out[max(0, i-120):min(len(out), i+40)])
	}
}

// The redacted keys that must be visible (the event log's hoodie.* Spark properties).
var shownRedacted = []string{"hoodie.aws.secret.key", "hoodie.datasource.hive_sync.password"}

func assertKeysRedacted(t *testing.T, what, out string) {
	t.Helper()
	for _, k := range shownRedacted {
		i := strings.Index(out, k)
		if i < 0 {
			t.Errorf("%s does not show %s", what, k)
			continue
		}
		if line := out[i:min(len(out), i+80)]; !strings.Contains(line, redact.Marker) {
			t.Errorf("%s shows %s unredacted: %q", what, k, line)
		}
	}
}

// Secrets never leave hudiscope: with a props file full of credentials and an event log whose
// Spark properties carry them, no command's stdout or stderr, no TUI pane (rendered at 120x40)
// and no TUI export contains a credential value; the keys are shown, redacted.
func TestSecretsRedactedEverywhere(t *testing.T) {
	table, props, eventLog := secretsWorld(t)
	out := t.TempDir()
	for _, args := range [][]string{
		{"report", table, "--props", props, "--event-log", eventLog, "--format", "md"},
		{"report", table, "--props", props, "--event-log", eventLog, "--format", "json"},
		{"health", table, "--props", props, "--output", "JSON"},
		{"health", table, "--props", props},
		{"layout", table, "--output", "JSON"},
		{"eventlog", eventLog, "--output", "JSON"},
		{"eventlog", eventLog},
	} {
		stdout, stderr, code := runCLI(t, args...)
		what := strings.Join(args[:1], " ") + " " + strings.Join(args[len(args)-2:], " ")
		if code != 0 && !(args[0] == "health" && code == 3) {
			t.Errorf("%s: exit %d: %.300s", what, code, stderr)
		}
		assertNoSecret(t, what+" stdout", stdout)
		assertNoSecret(t, what+" stderr", stderr)
		if args[0] == "report" || (args[0] == "eventlog" && args[len(args)-1] == "JSON") {
			assertKeysRedacted(t, what, stdout)
			if !strings.Contains(stdout, "hoodie.form.13") {
				t.Errorf("%s does not show the credential-form properties", what)
			}
		}
	}

	// The TUI: every pane rendered at 120x40 (and after drilling in), every pane exported, the
	// full report exported.
	opts := model.Options{Location: table, Archived: true, Props: props, EventLog: eventLog}
	var a tea.Model = ui.New(ui.Options{Location: table, ExportDir: out, Now: func() time.Time { return time.Unix(1800000000, 0) }})
	a, _ = a.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	_, _ = model.Load(context.Background(), opts, func(p model.Progress) {
		var cmd tea.Cmd
		a, cmd = a.Update(ui.ProgressMsg(p))
		drive(&a, cmd, 0)
	})
	press := func(k tea.KeyPressMsg) {
		var cmd tea.Cmd
		a, cmd = a.Update(k)
		drive(&a, cmd, 0)
		assertNoSecret(t, "TUI view after "+k.String(), a.(*ui.App).Render())
	}
	for _, pane := range "123456" {
		press(key(string(pane)))
		for range 3 {
			press(key("j"))
			press(tea.KeyPressMsg{Code: tea.KeyEnter})
			press(key("G"))
			press(tea.KeyPressMsg{Code: tea.KeyEscape})
		}
		press(key(string(pane))) // Enter on the Overview jumps to another pane
		press(key("e"))
	}
	press(key("E"))
	exports, _ := filepath.Glob(filepath.Join(out, "hudiscope-*.md"))
	if len(exports) < 7 {
		t.Fatalf("TUI exported %d files, want 7 (6 panes + report)", len(exports))
	}
	var all strings.Builder
	for _, f := range exports {
		b, _ := os.ReadFile(f)
		assertNoSecret(t, filepath.Base(f), string(b))
		all.Write(b)
	}
	assertKeysRedacted(t, "TUI exports", all.String())
}

// A History Server URL with user:password@ never shows the password (stderr, stdout, JSON).
func TestSecretsHistoryServerURL(t *testing.T) {
	table, _, _ := secretsWorld(t)
	const shs = "shs://user:secret@127.0.0.1:1/app"
	for _, args := range [][]string{
		{"eventlog", shs, "--output", "JSON"},
		{"eventlog", shs},
		{"report", table, "--event-log", shs, "--format", "json"},
	} {
		stdout, stderr, _ := runCLI(t, args...)
		for what, out := range map[string]string{"stdout": stdout, "stderr": stderr} {
			if strings.Contains(out, "secret") {
				t.Errorf("%v %s shows the password: %.400s", args, what, out)
			}
		}
	}
}

// TestSecretsUnlistableDirStderr (issue 31): a partition directory named password=Hunter2Secret
// that cannot be listed is redacted on stderr with the message's ": " separators kept (the
// redaction took them as part of the secret: "password=*** list password=*** open …").
func TestSecretsUnlistableDirStderr(t *testing.T) {
	table := testutil.UnzipTable(t, fixture("incr-1.2.0"), t.TempDir())
	if err := os.RemoveAll(filepath.Join(table, ".hoodie", "metadata")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("password=Hunter2Secret", filepath.Join(table, "password=Hunter2Secret")); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"files", table}, {"report", table, "--format", "json"}, {"report", table, "--format", "md"}} {
		stdout, stderr, _ := runCLI(t, args...)
		if strings.Contains(stdout+stderr, "Hunter2Secret") {
			t.Errorf("%s shows the secret:\n%.2000s\n%.2000s", args[0], stdout, stderr)
		}
		if want := "/password=***: list password=***: open password=***: too many levels of symbolic links"; !strings.Contains(stderr, want) {
			t.Errorf("%s stderr lacks %q:\n%s", args[0], want, stderr)
		}
	}
}
