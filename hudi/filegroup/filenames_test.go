package filegroup_test

import (
	"regexp"
	"testing"

	"github.com/hudiscope/hudiscope/hudi/filegroup"
)

func TestParseFileNames(t *testing.T) {
	bn, ok := filegroup.ParseBaseFileName("ebcb261d-62d3-4895-90ec-5b3c9622dff4-0_0-111-154_20240707001303088.parquet")
	if !ok || bn.FileID != "ebcb261d-62d3-4895-90ec-5b3c9622dff4-0" || bn.WriteToken != "0-111-154" || bn.Instant != "20240707001303088" {
		t.Errorf("base: %+v %v", bn, ok)
	}
	for _, bad := range []string{".hoodie_partition_metadata", "x.parquet", "a_b_c.txt", "_SUCCESS"} {
		if _, ok := filegroup.ParseBaseFileName(bad); ok {
			t.Errorf("%q parsed as a base file", bad)
		}
	}
	ln, ok := filegroup.ParseLogFileName(".8aa68f7e-0c36-4c2b-8e0c-0fd0c0a7f1d4-0_20251220210130911.log.3_0-13-9.cdc")
	if !ok || ln.Instant != "20251220210130911" || ln.Version != 3 || ln.WriteToken != "0-13-9" || !ln.CDC {
		t.Errorf("log: %+v %v", ln, ok)
	}
	if a, ok := filegroup.ParseLogFileName(".commits_.archive.12_1-0-1"); !ok || a.FileID != "commits" || a.Ext != "archive" || a.Version != 12 {
		t.Errorf("archive: %+v", a)
	}
}

// baseFileRe is the reference grammar of base file names; the hand-written parser must agree.
var baseFileRe = regexp.MustCompile(`^([^_.][^_]*)_([^_]+)_(\d+)\.(parquet|orc|hfile|lance)$`)

func FuzzParseBaseFileNameMatchesRegexp(f *testing.F) {
	for _, s := range []string{"ebcb261d-62d3-4895-90ec-5b3c9622dff4-0_0-111-154_20240707001303088.parquet",
		"files-0000-0_0-5-4_00000000000000000.hfile", "a_b_1.lance", "_a_1.orc", ".a_b_1.parquet", "a_b_c_1.parquet", "a__1.parquet"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := filegroup.ParseBaseFileName(s)
		m := baseFileRe.FindStringSubmatch(s)
		if ok != (m != nil) {
			t.Fatalf("%q: parser %v, regexp %v", s, ok, m != nil)
		}
		if ok && (got.FileID != m[1] || got.WriteToken != m[2] || got.Instant != m[3] || got.Ext != m[4]) {
			t.Fatalf("%q: parser %+v, regexp %q", s, got, m[1:])
		}
	})
}
