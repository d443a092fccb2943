package report

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

	"github.com/hudiscope/hudiscope/analyzers/config"
	"github.com/hudiscope/hudiscope/analyzers/eventlog"
	"github.com/hudiscope/hudiscope/analyzers/health"
	"github.com/hudiscope/hudiscope/analyzers/layout"
	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/tableconfig"
	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/internal/redact"
)

// The text renderers that were the analyzers' WriteText (issue 28): their tests moved with them.

// textPartition is a partition of n latest base files of size bytes each.
func textPartition(path string, n int, size int64) *filegroup.Partition {
	p := &filegroup.Partition{Path: path}
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("%s-%d", strings.ReplaceAll(path, "/", "-"), i)
		p.FileGroups = append(p.FileGroups, &filegroup.FileGroup{FileID: id, Slices: []*filegroup.FileSlice{{BaseInstant: "001",
			Base: &filegroup.BaseFile{Name: id + "_0-1-1_001.parquet", Size: size, Instant: "001"}}}})
	}
	return p
}

func int64p(v int64) *int64 { return &v }

// TABLE output: numRecords / avgRowSize columns, the table-level numRecords line, and the
// table-level blocks only with --enable-table-stats once partition stats are on.
func TestLayoutTextRowCounts(t *testing.T) {
	v := &filegroup.View{Partitions: []*filegroup.Partition{textPartition("a", 2, 1000), textPartition("b", 1, 300)}}
	opt := layout.DefaultOptions()
	opt.PartitionStats, opt.IncludeRowCounts = true, true
	r := layout.Analyze(layout.Input{View: v, RowCounts: map[string]*int64{"a": int64p(8), "b": nil}}, opt)
	var sb strings.Builder
	if err := LayoutText(&sb, r, opt); err != nil {
		t.Fatal(err)
	}
	out := sb.String()
	// a: 2000 B / 8 rows = 250 B; b has no count.
	if !strings.Contains(out, "numRecords  avgRowSize") || !strings.Contains(out, "8           250 B") ||
		strings.Contains(out, "Table-level file size distribution") {
		t.Errorf("partition table:\n%s", out)
	}
	opt.TableStats = true
	r = layout.Analyze(layout.Input{View: v, RowCounts: map[string]*int64{"a": int64p(8), "b": int64p(2)}}, opt)
	sb.Reset()
	LayoutText(&sb, r, opt)
	// 2300 B / 10 rows = 230
	if out = sb.String(); !strings.Contains(out, "Table-level file size distribution") || !strings.Contains(out, "  numRecords=10  avgRowSize=230 B\n") ||
		!strings.Contains(out, "  numFiles=3  totalBytes=2.2 KiB\n") {
		t.Errorf("table stats:\n%s", out)
	}
}

// hoodie.parquet.small.file.limit=0 is said in the text: handling off, and the small-file share
// still counts the 5 files under the 50 MiB threshold.
func TestLayoutTextSmallFileLimitZero(t *testing.T) {
	v := &filegroup.View{Partitions: []*filegroup.Partition{textPartition("a", 5, 1000)}}
	opt := layout.DefaultOptions()
	opt.SmallFileLimit, opt.SmallFileLimitSource = 0, "props (w.properties)"
	var text bytes.Buffer
	if err := LayoutText(&text, layout.Analyze(layout.Input{View: v}, opt), opt); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "writer small-file handling: OFF (hoodie.parquet.small.file.limit=0, props (w.properties))") ||
		!strings.Contains(text.String(), "small files: 100.0% of latest base files under 50 MiB (the small-files threshold)") ||
		!strings.Contains(text.String(), "hudiscope: 5 file groups, 5 slices") {
		t.Errorf("text:\n%s", text.String())
	}
}

// Health text shows where values came from (the props file) and none of the secrets.
func TestHealthTextHidesSecrets(t *testing.T) {
	c := config.New(config.Input{Props: map[string]string{
		"hoodie.keep.max.commits": "30", "hoodie.clean.trigger.max.commits": "1",
		"fs.s3a.secret.key": "SUPERSECRETKEY", "hoodie.write.lock.zookeeper.password": "zkpw",
		"hoodie.clean.policy": "KEEP_LATEST_COMMITS",
	}, PropsFile: "creds.properties", HoodieConf: []string{"fs.s3a.session.token=SESSIONTOKEN"}})
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	var tl []*timeline.Instant
	for n := 1; n <= 2; n++ {
		ts := fmt.Sprintf("2026030100%04d000", n)
		tl = append(tl, &timeline.Instant{RequestedTime: ts, CompletionTime: ts[:14] + "500", Action: "deltacommit", State: timeline.Completed})
	}
	r := health.Run(health.Input{BasePath: "s3a://AKIAUSER:URISECRET@bucket/t", TableType: tableconfig.CopyOnWrite,
		Timeline: &timeline.Timeline{Instants: tl}, Now: now, Zone: time.UTC}, health.Options{Config: c})
	r.BasePath = redact.Text(r.BasePath)
	var text bytes.Buffer
	if err := HealthText(&text, r, true); err != nil {
		t.Fatal(err)
	}
	out := text.String()
	for _, s := range []string{"SUPERSECRETKEY", "zkpw", "SESSIONTOKEN", "URISECRET"} {
		if strings.Contains(out, s) {
			t.Errorf("%s leaked", s)
		}
	}
	if !strings.Contains(out, "creds.properties") || !strings.Contains(out, "CHECK  ") ||
		!strings.HasPrefix(out, "Table: s3a://***:***@bucket/t  (COPY_ON_WRITE)  overall: ") {
		t.Errorf("text:\n%s", out)
	}
}

// The event-log text leads with hudiscope's attribution and says how much of the application no
// job covers; the Java tool's tables follow, labelled. incr-1.2.0's log: 43260 ms of 68040 ms
// ran no job (64%); hudiscope files 26.0% under METADATA_TABLE_WRITE.
func TestEventLogTextLeadsWithHudiscope(t *testing.T) {
	p := filepath.Join("..", "testdata", "fixtures", "incr-1.2.0", "local-1795967754886")
	if _, err := os.Stat(p); err != nil {
		t.Skipf("fixture not present: %s", p)
	}
	r, err := eventlog.Analyze(context.Background(), p, eventlog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := EventLogText(&b, r, 5, 0); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, "not covered by any job 43.26s, 64%)") {
		t.Errorf("duration line lacks the uncovered share:\n%s", out)
	}
	ours := strings.Index(out, "== Phase (hudiscope's attribution) ==")
	java := strings.Index(out, "== Phase (the Java tool's attribution) ==")
	if ours < 0 || java < ours || strings.Index(out, "== Operation (hudiscope's attribution") > ours {
		t.Fatalf("hudiscope's tables do not lead (ours at %d, Java's at %d):\n%s", ours, java, out)
	}
	if ph := out[ours:java]; !strings.Contains(ph, "METADATA_TABLE_WRITE") || !strings.Contains(ph, "26.0%") {
		t.Errorf("hudiscope's phase table lacks METADATA_TABLE_WRITE 26.0%%:\n%s", ph)
	}
}

// A props file full of credentials: the effective configuration's text shows every key, each
// secret as [redacted], and none of the values.
func TestConfigTextRedacts(t *testing.T) {
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
		"hoodie.keep.max.commits":              "30",
	}
	e := config.New(config.Input{Props: props, PropsFile: "p.properties", HoodieConf: []string{"hoodie.datasource.hive_sync.password=SEKRET13"}})
	var txt bytes.Buffer
	if err := ConfigText(&txt, e); err != nil {
		t.Fatal(err)
	}
	out := txt.String()
	if strings.Contains(out, "SEKRET") {
		t.Errorf("text leaks a secret:\n%s", out)
	}
	for k := range props {
		if !strings.Contains(out, k) {
			t.Errorf("text does not show key %s", k)
		}
	}
	if n := strings.Count(out, redact.Marker); n < len(props)-1 {
		t.Errorf("text shows %s %d times, want at least %d", redact.Marker, n, len(props)-1)
	}
	if !strings.HasPrefix(out, "Effective configuration (engine ") || !strings.Contains(out, "  hoodie.keep.max.commits  ") {
		t.Errorf("text:\n%s", out)
	}
	// The JSON and the text agree on which keys are secret.
	js, _ := json.Marshal(e)
	if strings.Count(string(js), redact.Marker) != strings.Count(out, redact.Marker) {
		t.Errorf("json shows %s %d times, text %d", redact.Marker, strings.Count(string(js), redact.Marker), strings.Count(out, redact.Marker))
	}
}
