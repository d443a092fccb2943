// Command gen writes the bad-input corpus in testdata/bad/ from the project's own incr fixture
// (a real Hudi 1.2.0 table) and from event-log bytes it makes itself. Each case is a directory
// holding the damaged input and case.json: the command to run on it, the exit code expected and
// a phrase the message must contain (which names the damaged file).
//
//	go run ./testdata/bad/gen   (from the repo root)
package main

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/klauspost/compress/zstd"
)

type tcase struct {
	Name   string   `json:"-"`
	Why    string   `json:"why"`
	Args   []string `json:"args"` // {case} is replaced by the case directory
	Exit   int      `json:"exit"`
	Stderr string   `json:"stderr"` // a phrase the error/warning output contains
	Stdout string   `json:"stdout,omitempty"`
}

const root = "testdata/bad"

var (
	tableFiles map[string][]byte // incr table, relative paths
	c2         = ".hoodie/timeline/20261129155626253_20261129155631861.commit"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run() error {
	var err error
	if tableFiles, err = readZip("testdata/fixtures/incr-1.2.0/table.zip"); err != nil {
		return err
	}
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if e.IsDir() && e.Name() != "gen" {
			os.RemoveAll(filepath.Join(root, e.Name()))
		}
	}
	for _, c := range tableCases() {
		if err := c.write(); err != nil {
			return err
		}
	}
	for _, c := range eventLogCases() {
		if err := c.write(); err != nil {
			return err
		}
	}
	return nil
}

type built struct {
	tcase
	files map[string][]byte // relative to the case dir; nil value = directory
	links map[string]string // symlinks: path → target
}

func (b built) write() error {
	dir := filepath.Join(root, b.Name)
	for p, data := range b.files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if data == nil && strings.HasSuffix(p, "/") {
			if err := os.MkdirAll(full, 0o755); err != nil {
				return err
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, data, 0o644); err != nil {
			return err
		}
	}
	for p, target := range b.links {
		full := filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.Symlink(target, full); err != nil {
			return err
		}
	}
	js, _ := json.MarshalIndent(b.tcase, "", "  ")
	return os.WriteFile(filepath.Join(dir, "case.json"), append(js, '\n'), 0o644)
}

func readZip(p string) (map[string][]byte, error) {
	zr, err := zip.OpenReader(p)
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	out := map[string][]byte{}
	for _, f := range zr.File {
		if f.FileInfo().IsDir() || strings.HasSuffix(f.Name, ".crc") {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, err
		}
		b, _ := io.ReadAll(rc)
		rc.Close()
		rel := strings.SplitN(f.Name, "/", 2)[1]
		// Keep the corpus small: the metadata table is not needed by these cases.
		if strings.HasPrefix(rel, ".hoodie/metadata/") {
			continue
		}
		out[rel] = b
	}
	return out, nil
}

// table returns a copy of the incr table under "table/" with edits applied (nil removes).
func table(edits map[string][]byte) map[string][]byte {
	out := map[string][]byte{}
	for p, b := range tableFiles {
		out["table/"+p] = b
	}
	for p, b := range edits {
		if b == nil {
			delete(out, "table/"+p)
		} else {
			out["table/"+p] = b
		}
	}
	return out
}

func props() string { return string(tableFiles[".hoodie/hoodie.properties"]) }

func replaceProp(key, value string) []byte {
	var lines []string
	for _, l := range strings.Split(props(), "\n") {
		if strings.HasPrefix(l, key+"=") {
			l = key + "=" + value
		}
		lines = append(lines, l)
	}
	return []byte(strings.Join(lines, "\n"))
}

func tc(name, why string, exit int, stderr string, args ...string) tcase {
	return tcase{Name: name, Why: why, Args: args, Exit: exit, Stderr: stderr}
}

func tableCases() []built {
	commit := tableFiles[c2]
	tl := []string{"timeline", "{case}/table"}
	var cases []built
	add := func(t tcase, edits map[string][]byte) {
		cases = append(cases, built{tcase: t, files: table(edits)})
	}
	add(tc("table-no-hoodie", "data files but no .hoodie directory", 1, "no .hoodie directory", tl...),
		map[string][]byte{".hoodie/hoodie.properties": nil, ".hoodie/timeline/20261129155610512.commit.requested": nil,
			".hoodie/timeline/20261129155610512.inflight": nil, ".hoodie/timeline/20261129155610512_20261129155625814.commit": nil,
			".hoodie/timeline/20261129155626253.commit.requested": nil, ".hoodie/timeline/20261129155626253.inflight": nil, c2: nil,
			".hoodie/timeline/20261129155632267.commit.requested": nil, ".hoodie/timeline/20261129155632267.inflight": nil,
			".hoodie/timeline/20261129155632267_20261129155639090.commit": nil, ".hoodie/.index_defs/index.json": nil})
	for _, p := range []struct{ name, content, msg string }{
		{"props-garbage", "\x00\x01\x02\xff\xfegarbage\n", "no hoodie.table.name"},
		{"props-truncated", props()[:len(props())/4], "hoodie.properties"},
		{"props-empty", "", "empty file"},
		{"props-version-3", string(replaceProp("hoodie.table.version", "3")), "unsupported table version 3"},
		{"props-version-10", string(replaceProp("hoodie.table.version", "10")), "unsupported table version 10"},
		{"props-version-text", string(replaceProp("hoodie.table.version", "nine")), "is not a number"},
		{"props-bad-type", string(replaceProp("hoodie.table.type", "MERGE_ON_WRITE")), "unknown hoodie.table.type"},
		{"props-binary-utf16", "\xff\xfeh\x00o\x00o\x00", "no hoodie.table.name"},
	} {
		add(tc(p.name, "hoodie.properties: "+p.name, 1, p.msg, tl...), map[string][]byte{".hoodie/hoodie.properties": []byte(p.content)})
	}
	add(tcase{Name: "props-checksum-backup", Why: "wrong checksum, good hoodie.properties.backup: the backup is used", Args: tl,
		Exit: 0, Stderr: "using hoodie.properties.backup", Stdout: "3 instants"},
		map[string][]byte{".hoodie/hoodie.properties": replaceProp("hoodie.table.checksum", "1"), ".hoodie/hoodie.properties.backup": []byte(props())})
	add(tcase{Name: "props-missing-backup", Why: "hoodie.properties missing, backup present", Args: tl, Exit: 0,
		Stderr: "using hoodie.properties.backup", Stdout: "3 instants"},
		map[string][]byte{".hoodie/hoodie.properties": nil, ".hoodie/hoodie.properties.backup": []byte(props())})
	add(tcase{Name: "props-checksum-wrong", Why: "wrong checksum and no backup: loads with a warning", Args: tl, Exit: 0,
		Stderr: "checksum", Stdout: "3 instants"}, map[string][]byte{".hoodie/hoodie.properties": replaceProp("hoodie.table.checksum", "1")})
	add(tc("timeline-dir-missing", ".hoodie/timeline missing in a version 9 table: an empty timeline, with a warning naming it", 0, ".hoodie/timeline", tl...),
		map[string][]byte{".hoodie/timeline/20261129155610512.commit.requested": nil,
			".hoodie/timeline/20261129155610512.inflight": nil, ".hoodie/timeline/20261129155610512_20261129155625814.commit": nil,
			".hoodie/timeline/20261129155626253.commit.requested": nil, ".hoodie/timeline/20261129155626253.inflight": nil, c2: nil,
			".hoodie/timeline/20261129155632267.commit.requested": nil, ".hoodie/timeline/20261129155632267.inflight": nil,
			".hoodie/timeline/20261129155632267_20261129155639090.commit": nil})
	instantCases := []struct {
		name, why string
		content   []byte
		msg       string
	}{
		{"instant-zero-byte", "completed commit of 0 bytes", []byte{}, "empty file"},
		{"instant-invalid-json", "completed commit that is neither JSON nor Avro", []byte("{not json"), "neither valid JSON"},
		{"instant-json-array", "completed commit holding a JSON array", []byte("[1,2]"), "cannot unmarshal array"},
		{"instant-json-wrong-types", "commit metadata with wrong field types", []byte(`{"partitionToWriteStats": 5}`), "cannot unmarshal number"},
		{"instant-avro-truncated", "Avro container cut in half", commit[:len(commit)/2], "avro"},
		{"instant-avro-header-only", "Avro container cut inside its header", commit[:40], "avro"},
		{"instant-avro-bad-sync", "Avro block whose sync marker is wrong", corruptTail(commit), "sync marker"},
		{"instant-avro-garbage", "Avro magic followed by garbage", []byte("Obj\x01\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"), "avro"},
		{"instant-whitespace", "completed commit of only whitespace", []byte("  \n\t"), "empty file"},
	}
	for _, c := range instantCases {
		add(tcase{Name: c.name, Why: c.why + "; the other two commits still load", Args: tl, Exit: 0, Stderr: c2 + ": ", Stdout: "3 instants"},
			map[string][]byte{c2: c.content})
	}
	add(tcase{Name: "instant-unknown-files", Why: "unknown and odd files in the timeline directory are ignored", Args: tl, Exit: 0, Stdout: "3 instants"},
		map[string][]byte{".hoodie/timeline/20261129155626253.foo": []byte("x"), ".hoodie/timeline/notes.txt": []byte("x"),
			".hoodie/timeline/20261129155626253.commit.done": []byte("x"), ".hoodie/timeline/20261129155626253.commit.requested.bak": []byte{},
			".hoodie/timeline/.20261129155626253.commit.crc": []byte("x")})
	add(tcase{Name: "plan-compaction-garbage", Why: "a pending compaction whose plan is garbage: files still lists, naming the plan", Args: []string{"files", "{case}/table"},
		Exit: 0, Stderr: "20261129155640000.compaction.requested"},
		map[string][]byte{".hoodie/timeline/20261129155640000.compaction.requested": []byte("Obj\x01garbage")})
	add(tcase{Name: "clean-garbage", Why: "a completed clean with garbage content: checkpoint still answers, naming the file", Args: []string{"checkpoint", "{case}/table", "20261129155625814"},
		Exit: 0, Stderr: "20261129155640000_20261129155641000.clean", Stdout: "covers 2 instant(s)"},
		map[string][]byte{".hoodie/timeline/20261129155640000.clean.requested": []byte{}, ".hoodie/timeline/20261129155640000_20261129155641000.clean": []byte("{broken")})
	add(tcase{Name: "archive-bad-magic", Why: "a 0.x archive file that is not a Hudi log", Args: []string{"timeline", "--archived", "{case}/table"},
		Exit: 0, Stderr: ".commits_.archive.1_1-0-1", Stdout: "3 instants"},
		map[string][]byte{".hoodie/archived/.commits_.archive.1_1-0-1": []byte("this is not a log file")})
	add(tcase{Name: "archive-truncated-block", Why: "a 0.x archive whose block runs past the end of the file", Args: []string{"timeline", "--archived", "{case}/table"},
		Exit: 0, Stderr: "runs past the end", Stdout: "3 instants"},
		map[string][]byte{".hoodie/archived/.commits_.archive.1_1-0-1": append([]byte("#HUDI#\x00\x00\x00\x00\x00\x00\x10\x00"), make([]byte, 64)...)})
	add(tcase{Name: "lsm-manifest-garbage", Why: "1.x LSM history whose manifest is not JSON", Args: []string{"timeline", "--archived", "{case}/table"},
		Exit: 0, Stderr: "manifest_1", Stdout: "3 instants"},
		map[string][]byte{".hoodie/timeline/history/_version_": []byte("1"), ".hoodie/timeline/history/manifest_1": []byte("{{{")})
	add(tcase{Name: "lsm-parquet-cut-footer", Why: "1.x LSM history parquet file with its footer cut off", Args: []string{"timeline", "--archived", "{case}/table"},
		Exit: 0, Stderr: "20261129000000000_20261129000000001_0.parquet", Stdout: "3 instants"},
		map[string][]byte{".hoodie/timeline/history/_version_": []byte("1"),
			".hoodie/timeline/history/manifest_1":                                    []byte(`{"files":[{"fileName":"20261129000000000_20261129000000001_0.parquet","fileLen":100}]}`),
			".hoodie/timeline/history/20261129000000000_20261129000000001_0.parquet": append([]byte("PAR1"), bytes.Repeat([]byte{7}, 96)...)})
	add(tcase{Name: "lsm-version-garbage", Why: "1.x LSM _version_ unreadable: falls back to the newest manifest", Args: []string{"timeline", "--archived", "{case}/table"},
		Exit: 0, Stdout: "3 instants"},
		map[string][]byte{".hoodie/timeline/history/_version_": []byte("x"), ".hoodie/timeline/history/manifest_2": []byte(`{"files":[]}`)})
	add(tcase{Name: "parquet-cut-footer", Why: "a base file cut short: listing still sizes it (hudiscope does not read data files)", Args: []string{"files", "{case}/table"},
		Exit: 0, Stdout: "80bd8c8d-b01c-4dd5-818a-758e5b91e610-0"},
		map[string][]byte{"80bd8c8d-b01c-4dd5-818a-758e5b91e610-0_0-60-83_20261129155632267.parquet": []byte("PAR1\x00\x00")})
	add(tcase{Name: "partition-metadata-only", Why: "a partition directory holding only its metadata file", Args: []string{"files", "{case}/table"}, Exit: 0,
		Stdout: "80bd8c8d"},
		map[string][]byte{"empty=1/.hoodie_partition_metadata": []byte("commitTime=1\npartitionDepth=1\n")})
	add(tcase{Name: "stray-files", Why: "files hudiscope does not know in a partition are ignored", Args: []string{"files", "{case}/table"}, Exit: 0, Stdout: "80bd8c8d"},
		map[string][]byte{"_SUCCESS": {}, ".DS_Store": {}, "part-0000.parquet": []byte("x"), "a_b_c.parquet": []byte("x")})
	// Issue 31's cases.
	add(tcase{Name: "checkpoint-avro-truncated", Why: "a covered commit's Avro cut in half: checkpoint says its record count is unknown, not 0",
		Args: []string{"checkpoint", "{case}/table", "20261129155625814"}, Exit: 0, Stderr: c2 + ": ",
		Stdout: "covers 2 instant(s), unknown record(s) written"}, map[string][]byte{c2: commit[:len(commit)/2]})
	add(tcase{Name: "props-continuation-lines", Why: "hoodie.properties ending in 20,000 continuation lines (x\\ repeated): parsed in linear time",
		Args: tl, Exit: 0, Stdout: "3 instants"},
		map[string][]byte{".hoodie/hoodie.properties": []byte(props() + "hoodie.hostile.long=" + strings.Repeat("x\\\n", 20000) + "\n")})
	garbage := map[string][]byte{}
	for i := range 50 {
		garbage[fmt.Sprintf(".hoodie/timeline/2026113000%07d.compaction.requested", i)] = []byte("\x00garbage\xff")
	}
	add(tcase{Name: "plans-garbage-many", Why: "50 garbage compaction plans: 3 warnings, then one line counting the rest",
		Args: []string{"files", "{case}/table"}, Exit: 0, Stderr: "and 47 more like this"}, garbage)
	add(tcase{Name: "fleet-no-properties", Why: "a folder with .hoodie/ but no hoodie.properties nor .backup: fleet lists a broken table",
		Args: []string{"fleet", "{case}", "--cluster-defaults", "-"}, Exit: 0, Stdout: "a broken table: .hoodie/ holds neither hoodie.properties nor hoodie.properties.backup"},
		map[string][]byte{".hoodie/hoodie.properties": nil})
	cases = append(cases, built{tcase: tcase{Name: "partition-secret-name", Why: "an unlistable partition named password=…: redacted, the ': ' kept",
		Args: []string{"files", "{case}/table"}, Exit: 0, Stderr: "password=***: list password=***: open password=***: too many levels"}, files: table(nil),
		links: map[string]string{"table/password=Hunter2Secret": "password=Hunter2Secret"}})
	cases = append(cases, built{tcase: tcase{Name: "partition-symlink-loop", Why: "an unreadable partition (a symlink loop): named, the rest loads",
		Args: []string{"files", "{case}/table"}, Exit: 0, Stderr: "loop", Stdout: "80bd8c8d"}, files: table(nil),
		links: map[string]string{"table/loop": "loop"}})
	cases = append(cases, built{tcase: tcase{Name: "not-a-table-file", Why: "a plain file given as the table", Args: []string{"timeline", "{case}/table.txt"},
		Exit: 1, Stderr: "table.txt"}, files: map[string][]byte{"table.txt": []byte("hello")}})
	cases = append(cases, built{tcase: tcase{Name: "zip-corrupt", Why: "a .zip that is not a zip", Args: []string{"timeline", "{case}/table.zip"},
		Exit: 1, Stderr: "table.zip"}, files: map[string][]byte{"table.zip": []byte("PK\x03\x04 not really")}})
	cases = append(cases, built{tcase: tcase{Name: "missing-path", Why: "a path that does not exist", Args: []string{"files", "{case}/nowhere"},
		Exit: 1, Stderr: "nowhere"}, files: map[string][]byte{"README": []byte("the table is missing on purpose\n")}})
	add(tcase{Name: "checkpoint-garbage-value", Why: "a checkpoint value that is no instant", Args: []string{"checkpoint", "{case}/table", "not-a-time"},
		Exit: 2, Stderr: `checkpoint value "not-a-time" is not an instant time`}, nil)
	return cases
}

// corruptTail flips the last byte (inside the trailing sync marker).
func corruptTail(b []byte) []byte {
	out := append([]byte(nil), b...)
	out[len(out)-1] ^= 0xff
	return out
}

func eventLogCases() []built {
	lines := []string{
		`{"Event":"SparkListenerLogStart","Spark Version":"3.5.8"}`,
		`{"Event":"SparkListenerApplicationStart","App Name":"bad","App ID":"local-1","Timestamp":1000,"User":"u"}`,
		`{"Event":"SparkListenerJobStart","Job ID":0,"Submission Time":1100,"Stage Infos":[],"Stage IDs":[0],"Properties":{}}`,
		`{"Event":"SparkListenerJobEnd","Job ID":0,"Completion Time":1900,"Job Result":{"Result":"JobSucceeded"}}`,
		`{"Event":"SparkListenerApplicationEnd","Timestamp":2000}`,
	}
	plain := []byte(strings.Join(lines, "\n") + "\n")
	el := func(name string) []string { return []string{"eventlog", "{case}/" + name, "--output", "JSON"} }
	var cases []built
	add := func(t tcase, files map[string][]byte) { cases = append(cases, built{tcase: t, files: files}) }
	garbage := []byte(strings.Join([]string{lines[0], lines[1], "this is not json", `{"Event":"SparkListenerJobStart","Job ID":`, "\x00\x01\x02", lines[2], lines[3], lines[4]}, "\n") + "\n")
	add(tcase{Name: "eventlog-garbage-lines", Why: "malformed lines among good ones: reported by line, the rest used", Args: el("local-1"), Exit: 0, Stdout: `"line"`}, map[string][]byte{"local-1": garbage})
	var zb bytes.Buffer
	zw, _ := zstd.NewWriter(&zb)
	zw.Write(plain)
	zw.Close()
	// Spark's zstd stream flushes a frame at a time: the first frame holds the first lines, the
	// second is cut inside its block, as when a driver dies mid-write.
	var z2 bytes.Buffer
	for _, part := range []string{strings.Join(lines[:3], "\n") + "\n", strings.Join(lines[3:], "\n") + "\n"} {
		w, _ := zstd.NewWriter(&z2)
		w.Write([]byte(part))
		w.Close()
	}
	add(tcase{Name: "eventlog-zstd-cut-frame", Why: "a multi-frame zstd log whose last frame is cut", Args: el("local-1.zstd"), Exit: 0, Stdout: "damage"},
		map[string][]byte{"local-1.zstd": z2.Bytes()[:z2.Len()-7]})
	add(tcase{Name: "eventlog-wrong-extension", Why: "zstd bytes named .lz4: the bytes win", Args: el("local-1.lz4"), Exit: 0, Stdout: "local-1"},
		map[string][]byte{"local-1.lz4": zb.Bytes()})
	var gb bytes.Buffer
	gw := gzip.NewWriter(&gb)
	gw.Write(plain)
	gw.Close()
	gz := gb.Bytes()
	add(tcase{Name: "eventlog-gzip-truncated", Why: "a gzip log cut short", Args: el("local-1.gz"), Exit: 0, Stdout: "damage"}, map[string][]byte{"local-1.gz": gz[:len(gz)-12]})
	add(tcase{Name: "eventlog-empty", Why: "an empty event log", Args: el("local-1"), Exit: 2, Stderr: "local-1"}, map[string][]byte{"local-1": {}})
	add(tcase{Name: "eventlog-binary", Why: "binary noise named like an event log", Args: el("local-1"), Exit: 2, Stderr: "local-1"},
		map[string][]byte{"local-1": bytes.Repeat([]byte{0xde, 0xad, 0xbe, 0xef, 0x00}, 200)})
	add(tcase{Name: "eventlog-lz4-bad-magic", Why: "an .lz4 log whose block magic is wrong", Args: el("local-1.lz4"), Exit: 2, Stderr: "local-1.lz4"},
		map[string][]byte{"local-1.lz4": append([]byte("LZ4Bxxxx"), make([]byte, 40)...)})
	add(tcase{Name: "eventlog-snappy-bad-header", Why: "a .snappy log whose stream header is wrong", Args: el("local-1.snappy"), Exit: 2, Stderr: "local-1.snappy"},
		map[string][]byte{"local-1.snappy": append([]byte("\x82SNAPPX\x00"), make([]byte, 40)...)})
	add(tcase{Name: "eventlog-inprogress-cut-line", Why: "an .inprogress log whose last line is cut (normal for a running app)", Args: el("local-1.inprogress"), Exit: 0, Stdout: "local-1"},
		map[string][]byte{"local-1.inprogress": plain[:len(plain)-20]})
	add(tcase{Name: "eventlog-rolling-missing-part", Why: "a rolling directory whose part 2 is missing", Args: el("eventlog_v2_local-1"), Exit: 0, Stdout: "local-1"},
		map[string][]byte{"eventlog_v2_local-1/events_1_local-1": []byte(strings.Join(lines[:3], "\n") + "\n"),
			"eventlog_v2_local-1/events_3_local-1": []byte(strings.Join(lines[3:], "\n") + "\n"), "eventlog_v2_local-1/appstatus_local-1": {}})
	add(tcase{Name: "eventlog-missing", Why: "an event-log path that does not exist", Args: el("nope"), Exit: 2, Stderr: "nope"}, map[string][]byte{"README": []byte("missing on purpose\n")})
	return cases
}
