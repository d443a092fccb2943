package hudi_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/hudiscope/hudiscope/hudi"
)

// Parsers of untrusted bytes must never panic; each fuzz target checks one.

func FuzzParseProperties(f *testing.F) {
	f.Add([]byte("hoodie.table.name=t\nhoodie.table.version=6\n"))
	f.Add([]byte("a\\\n b=c\\u00e9\\"))
	f.Add([]byte("#Properties saved on 2024-04-18T22:32:13.522Z\n#Thu Apr 18 17:32:13 CDT 2024\nhoodie.table.name=x\nhoodie.table.version=9\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, err := hudi.ParseProperties(b); err != nil {
			t.Skip()
		}
		_, _ = hudi.ParseTableConfig(b, "fuzz")
	})
}

func FuzzParseInstantFileName(f *testing.F) {
	for _, s := range []string{"20240418173213674.commit", "1_2.deltacommit", "3.inflight", "4.compaction.requested", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if in, ok := hudi.ParseInstantFileName(s); ok && in.RequestedTime == "" {
			t.Errorf("%q parsed without a requested time", s)
		}
		hudi.ParseBaseFileName(s)
		hudi.ParseLogFileName(s)
		hudi.ParseInstantTime(s, nil)
	})
}

// FuzzContentJSON covers the instant-metadata decoders (JSON and Avro object container files).
func FuzzContentJSON(f *testing.F) {
	for _, p := range []string{"commit_metadata/v6_commit.json", "commit_metadata/v8_deltacommit.avro"} {
		if b, err := os.ReadFile(filepath.Join("..", "..", "shared", "testdata", "hudi-rs", "crates", "core", "tests", "data", p)); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("Obj\x01"))
	f.Add([]byte("{}"))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = hudi.ContentJSON(b)
	})
}

func FuzzReadLogBlocks(f *testing.F) {
	f.Add([]byte("#HUDI#\x00\x00\x00\x00\x00\x00\x00\x5b"))
	f.Add(append([]byte("xx#HUDI#"), make([]byte, 40)...))
	f.Fuzz(func(t *testing.T, b []byte) {
		r := bytes.NewReader(b)
		for _, bl := range hudi.ReadLogBlocks(r, int64(len(b))) {
			if bl.Length <= 0 || bl.Offset+bl.Length > int64(len(b)) {
				t.Fatalf("block %+v out of range (%d bytes)", bl, len(b))
			}
			if !bl.Corrupt {
				c, err := bl.ReadContent(r)
				if err == nil && (bl.Type == hudi.BlockAvroData || bl.Type == hudi.BlockCDCData) {
					_, _ = hudi.AvroRecords(c)
				}
			}
		}
	})
}

// baseFileRe is the reference grammar of base file names; the hand-written parser must agree.
var baseFileRe = regexp.MustCompile(`^([^_.][^_]*)_([^_]+)_(\d+)\.(parquet|orc|hfile|lance)$`)

func FuzzParseBaseFileNameMatchesRegexp(f *testing.F) {
	for _, s := range []string{"ebcb261d-62d3-4895-90ec-5b3c9622dff4-0_0-111-154_20240707001303088.parquet",
		"files-0000-0_0-5-4_00000000000000000.hfile", "a_b_1.lance", "_a_1.orc", ".a_b_1.parquet", "a_b_c_1.parquet", "a__1.parquet"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := hudi.ParseBaseFileName(s)
		m := baseFileRe.FindStringSubmatch(s)
		if ok != (m != nil) {
			t.Fatalf("%q: parser %v, regexp %v", s, ok, m != nil)
		}
		if ok && (got.FileID != m[1] || got.WriteToken != m[2] || got.Instant != m[3] || got.Ext != m[4]) {
			t.Fatalf("%q: parser %+v, regexp %q", s, got, m[1:])
		}
	})
}
