package cli

import (
	"archive/zip"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/analyzers/checkpoint"
	"github.com/hudiscope/hudiscope/model"
)

// A table-version-8 table is read by Hudi 1.0.x (completion time inclusive) and 1.1+
// (exclusive): the completion time of c1 re-reads c1 under 1.0.x only (Spark measured, see
// testdata/fixtures/incr-1.0.2/oracle/incremental_probes*.json).
func TestCheckpointVerdictPerReaderRelease(t *testing.T) {
	table := fixture("incr-1.0.2")
	t.Setenv("HUDISCOPE_HUDI_LIB", t.TempDir()) // no bundle installed
	c1Completion, c1AfterCompletion := c1Times(t, table)
	for _, c := range []struct {
		args []string
		code int
		want []string
	}{
		// Unknown reader: both lines judged, exit 3 because 1.0.x re-reads.
		{nil, 3, []string{"depends on the Hudi release", "If read by Hudi 1.0.x", "If read by Hudi 1.1+", c1AfterCompletion + " (one millisecond after"}},
		{[]string{"--hudi-version", "1.0.2"}, 3, []string{"Hudi 1.0.2 (1.0.x) readers", "RE-READ"}},
		{[]string{"--hudi-version", "1.2.0"}, 0, []string{"Hudi 1.2.0 (1.1+) readers", "covers 2 instant(s)"}},
		{[]string{"--hudi-version", "1.1.1"}, 0, []string{"(1.1+)"}},
		// A 0.x reader cannot read table version 8: a usage error naming why.
		{[]string{"--hudi-version", "0.15.0"}, 2, []string{"does not read table version 8"}},
		{[]string{"--hudi-version", "one"}, 2, []string{"want MAJOR.MINOR"}},
	} {
		stdout, stderr, code := runCLI(t, append([]string{"checkpoint", table, c1Completion}, c.args...)...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d\n%s%s", c.args, code, c.code, stdout, stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(stdout+stderr, w) {
				t.Errorf("%v: output lacks %q:\n%s%s", c.args, w, stdout, stderr)
			}
		}
	}
	// The JSON names the line of every verdict.
	stdout, _, _ := runCLI(t, "checkpoint", table, c1Completion, "-o", "json")
	doc := decodeJSON(t, "checkpoint", stdout)
	verdicts := doc["verdicts"].([]any)
	if len(verdicts) != 2 || doc["reRead"] != true {
		t.Fatalf("verdicts %v reRead %v", verdicts, doc["reRead"])
	}
	for i, want := range []struct {
		line   string
		reRead bool
	}{{"1.0.x", true}, {"1.1+", false}} {
		v := verdicts[i].(map[string]any)
		if v["reader"].(map[string]any)["line"] != want.line || v["reRead"] != want.reRead {
			t.Errorf("verdict %d = %v, want %s reRead=%v", i, v, want.line, want.reRead)
		}
	}
}

// c1Times is the first commit's completion time and one millisecond after it.
func c1Times(t *testing.T, table string) (string, string) {
	t.Helper()
	stdout, _, _ := runCLI(t, "timeline", table, "-o", "json")
	in := decodeJSON(t, "timeline", stdout)["instants"].([]any)[0].(map[string]any)
	c := in["completionTime"].(string)
	tm, err := time.Parse("20060102150405.000", c[:14]+"."+c[14:])
	if err != nil {
		t.Fatal(err)
	}
	return c, strings.ReplaceAll(tm.Add(time.Millisecond).Format("20060102150405.000"), ".", "")
}

// On an EMR node the installed bundle names the reader: its pom.properties, else its file name.
func TestCheckpointReaderFromInstalledBundle(t *testing.T) {
	dir := t.TempDir()
	jar := filepath.Join(dir, "hudi-spark3.5-bundle_2.12-1.0.2-amzn-1.jar")
	f, err := os.Create(jar)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	w, _ := zw.Create("META-INF/maven/org.apache.hudi/hudi-spark3.5-bundle_2.12/pom.properties")
	_, _ = w.Write([]byte("artifactId=hudi-spark3.5-bundle_2.12\nversion=1.0.2-amzn-1\n"))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if v, src := checkpoint.InstalledRelease(dir); v != "1.0.2-amzn-1" || src != jar {
		t.Fatalf("installed release %q from %q", v, src)
	}
	t.Setenv("HUDISCOPE_HUDI_LIB", dir)
	c1Completion, _ := c1Times(t, fixture("incr-1.0.2"))
	stdout, _, code := runCLI(t, "checkpoint", fixture("incr-1.0.2"), c1Completion)
	if code != 3 || !strings.Contains(stdout, "Hudi 1.0.2-amzn-1 (1.0.x) readers") || strings.Contains(stdout, "1.1+") {
		t.Errorf("exit %d:\n%s", code, stdout)
	}
	// --hudi-version wins over the installed bundle.
	if _, _, code := runCLI(t, "checkpoint", fixture("incr-1.0.2"), c1Completion, "--hudi-version", "1.2.0"); code != 0 {
		t.Errorf("--hudi-version 1.2.0 over an installed 1.0.2: exit %d", code)
	}
	// A name-only jar (no pom.properties) still tells the release.
	empty := t.TempDir()
	if err := os.WriteFile(filepath.Join(empty, "hudi-spark3-bundle_2.12-0.14.1-amzn-0.jar"), []byte("not a zip"), 0o644); err != nil {
		t.Fatal(err)
	}
	if v, _ := checkpoint.InstalledRelease(empty); v != "0.14.1-amzn-0" {
		t.Errorf("from the file name: %q", v)
	}
}

// A savepoint shares its commit's requested time: the value names the commit, whose rows an
// incremental read returns (exit 3). A clustering's requested time re-reads nothing: clustering
// rewrites records without changing them and an incremental read returns none of them.
func TestCheckpointSavepointAndClustering(t *testing.T) {
	table := fixture("cow-services-1.2.0")
	for _, c := range []struct {
		value string
		code  int
		want  string
	}{
		{"20261129161800076", 3, "requested (instant) time of commit 20261129161800076"},
		{"20261129162054490", 0, "requested (instant) time of replacecommit 20261129162054490"},
	} {
		stdout, stderr, code := runCLI(t, "checkpoint", table, c.value)
		if code != c.code || !strings.Contains(stdout, c.want) {
			t.Errorf("%s: exit %d want %d; lacks %q:\n%s%s", c.value, code, c.code, c.want, stdout, stderr)
		}
		if c.code == 0 && strings.Contains(stdout, "20261129162054490 → ") {
			t.Errorf("the clustering is listed among the writes the read returns:\n%s", stdout)
		}
	}
}

// The begin value the explorer's banner and the report show is one `checkpoint` accepts for
// the same reader, and the read from it returns every retained write.
func TestIncrementalStartIsAccepted(t *testing.T) {
	ctx := context.Background()
	zips, _ := filepath.Glob(filepath.Join("..", "testdata", "fixtures", "*", "table.zip"))
	for _, z := range zips {
		s, err := model.Load(ctx, model.Options{Location: z, Steps: []model.Step{model.StepTimeline}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		starts := s.IncrementalStarts(ctx)
		rds, _ := s.Readers()
		if len(starts) != len(rds) || len(starts) == 0 {
			t.Errorf("%s: %d starts for %d readers", z, len(starts), len(rds))
			continue
		}
		for _, st := range starts {
			var r *checkpoint.Report
			for _, v := range s.CheckCheckpoint(ctx, st.Begin) { // one verdict per reader line
				if v.Reader.Line == st.Reader.Line {
					r = v
				}
			}
			if r == nil {
				t.Fatalf("%s: no verdict for reader %s", z, st.Reader.Line)
			}
			if r.ReRead || len(r.Covered) == 0 || r.Covered[0].RequestedTime != st.ReadsFrom && !strings.Contains(st.Reason, "cleaner") {
				t.Errorf("%s (%s): begin %s: reRead %v, covers %d from %v, want from %s", z, st.Reader.Line, st.Begin, r.ReRead, len(r.Covered), r.Covered, st.ReadsFrom)
			}
			if _, _, code := runCLI(t, "checkpoint", z, st.Begin, "--hudi-version", map[string]string{"0.x": "0.15.0", "1.0.x": "1.0.2", "1.1+": "1.2.0"}[st.Reader.Line]); code != 0 {
				t.Errorf("%s: checkpoint %s exits %d", z, st.Begin, code)
			}
		}
	}
}

// A 1.x release reading an older table is accepted with the writers' rule and a note saying
// it was not measured, rather than refused.
func TestCheckpointNewerReaderOnOldTable(t *testing.T) {
	stdout, stderr, code := runCLI(t, "checkpoint", fixture("incr-0.15.0"), "000", "--hudi-version", "1.2.0", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r := decodeJSON(t, "checkpoint", stdout)["reader"].(map[string]any)
	if r["line"] != "0.x" || r["release"] != "1.2.0" || !strings.Contains(r["note"].(string), "not measured") {
		t.Errorf("reader %v", r)
	}
}

// Both begin values the Overview, the Timeline pane and the report show are accepted by
// `hudiscope checkpoint` for their reader line: the resume value reads nothing again (exit 0,
// no instant covered until a new write completes), the earliest readable one reads every
// retained write from inside the active timeline and the cleaner's retention.
func TestIncrementalBeginsAccepted(t *testing.T) {
	ctx := context.Background()
	release := map[string]string{"0.x": "0.15.0", "1.0.x": "1.0.2", "1.1+": "1.2.0"}
	// fixture → reader line → resume, earliest (hand-checked against the timeline file names;
	// incr-1.0.2's c3 completed at 20261130195834188, 1.0.x is inclusive so it resumes 1 ms later).
	want := map[string]map[string][2]string{
		"cow-services-1.2.0": {"1.1+": {"20261129162151912", "20261129162008755"}},
		"incr-1.0.2":         {"1.0.x": {"20261130195834189", "20261130195817815"}, "1.1+": {"20261130195834188", "20261130195817815"}},
		"incr-0.15.0":        {"0.x": {"20261129165255808", "20261129165222975"}},
	}
	for fx, lines := range want {
		s, err := model.Load(ctx, model.Options{Location: fixture(fx), Steps: []model.Step{model.StepTimeline}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		bs := s.IncrementalBegins(ctx)
		if len(bs) != len(lines) {
			t.Fatalf("%s: %d reader lines, want %d", fx, len(bs), len(lines))
		}
		for _, b := range bs {
			w := lines[b.Reader.Line]
			if b.Resume != w[0] || b.Earliest.Begin != w[1] {
				t.Errorf("%s (%s): resume %s, earliest %s; want %s, %s", fx, b.Reader.Line, b.Resume, b.Earliest.Begin, w[0], w[1])
			}
			out, stderr, code := runCLI(t, "checkpoint", fixture(fx), b.Resume, "--hudi-version", release[b.Reader.Line])
			if code != 0 || !strings.Contains(out, "covers 0 instant(s)") {
				t.Errorf("%s (%s): checkpoint %s (resume): exit %d, want 0 covering nothing:\n%s%s", fx, b.Reader.Line, b.Resume, code, out, stderr)
			}
			out, stderr, code = runCLI(t, "checkpoint", fixture(fx), b.Earliest.Begin, "--hudi-version", release[b.Reader.Line])
			if code != 0 || strings.Contains(out, "OLDER") || !strings.Contains(out, "Inside the active timeline") {
				t.Errorf("%s (%s): checkpoint %s (earliest): exit %d, want 0, readable:\n%s%s", fx, b.Reader.Line, b.Earliest.Begin, code, out, stderr)
			}
		}
	}
}

// TestCheckpointUnreadableCountUnknown: with a covered commit's Avro cut in half (the bad-input
// corpus' instant-avro-truncated), the read's record count is unknown, not "0 record(s)
// written" beside an error (issue 31); the readable commit still counts its 4 writes.
func TestCheckpointUnreadableCountUnknown(t *testing.T) {
	table := filepath.Join("..", "testdata", "bad", "instant-avro-truncated", "table")
	stdout, stderr, code := runCLI(t, "checkpoint", table, "20261129155625814", "--hudi-version", "1.2.0")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"covers 2 instant(s), unknown record(s) written (the metadata of 1 of them cannot be read):",
		"20261129155626253 → 20261129155631861  commit                         ? written (unreadable: decode ",
		"20261129155632267 → 20261129155639090  commit        UPSERT           4 written (0 inserted, 1 updated, 0 deleted)",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("text lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "0 record(s) written") || strings.Contains(stdout, " 0 written") {
		t.Errorf("an unreadable commit counted as 0:\n%s", stdout)
	}
	stdout, stderr, code = runCLI(t, "checkpoint", table, "20261129155625814", "--hudi-version", "1.2.0", "-o", "json")
	if code != 0 {
		t.Fatalf("json exit %d: %s", code, stderr)
	}
	var doc struct {
		RecordsWritten *int64   `json:"recordsWritten"`
		Unreadable     []string `json:"unreadable"`
		Covered        []struct {
			RequestedTime string `json:"requestedTime"`
			NumWrites     *int64 `json:"numWrites"`
			NumUpdates    *int64 `json:"numUpdateWrites"`
			Error         string `json:"error"`
		} `json:"covered"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.RecordsWritten != nil || len(doc.Unreadable) != 1 || doc.Unreadable[0] != "20261129155626253" || len(doc.Covered) != 2 {
		t.Fatalf("recordsWritten %v unreadable %q covered %d", doc.RecordsWritten, doc.Unreadable, len(doc.Covered))
	}
	if c := doc.Covered[0]; c.NumWrites != nil || c.NumUpdates != nil || !strings.Contains(c.Error, "avro container") {
		t.Errorf("unreadable covered[0]: numWrites %v numUpdateWrites %v error %q", c.NumWrites, c.NumUpdates, c.Error)
	}
	if c := doc.Covered[1]; c.NumWrites == nil || *c.NumWrites != 4 || c.NumUpdates == nil || *c.NumUpdates != 1 {
		t.Errorf("readable covered[1]: %+v", c)
	}
	// Readable throughout: the count is a number (3 + 4 + 4 written).
	stdout, _, _ = runCLI(t, "checkpoint", fixture("incr-1.2.0"), "20261129155610000", "--hudi-version", "1.2.0", "-o", "json")
	if !strings.Contains(stdout, `"recordsWritten": 11,`) || strings.Contains(stdout, `"unreadable"`) {
		t.Errorf("readable table: %s", stdout)
	}
}
