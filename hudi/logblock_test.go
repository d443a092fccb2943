package hudi_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/hudi"
)

func readLogSample(t *testing.T, dir string) (string, []byte) {
	t.Helper()
	base := filepath.Join(corpusDir(t), "..", "..", "core", "tests", "data", "log_files", dir)
	m, err := filepath.Glob(filepath.Join(base, ".*.log.*"))
	if err != nil || len(m) != 1 {
		t.Fatalf("log sample %s: %v %v", dir, m, err)
	}
	b, err := os.ReadFile(m[0])
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Base(m[0]), b
}

// Values checked by hand with a hex dump: block length field + 14 = file size, the trailer
// equals length + 6, and the header's INSTANT_TIME.
func TestReadLogBlocksSamples(t *testing.T) {
	cases := []struct {
		dir      string
		typ      int
		length   int64
		content  int64
		instant  string
		target   string
		rollback bool
	}{
		{"valid_log_avro_data", hudi.BlockAvroData, 1172, 240, "20250316025828811", "", false},
		{"valid_log_delete", hudi.BlockDelete, 1098, 190, "20250618054714114", "", false},
		{"valid_log_parquet_data", hudi.BlockParquetData, 5311, 4373, "20250113230424191", "", false},
		{"valid_log_rollback", hudi.BlockCommand, 105, 0, "20250126040936578", "20250126040826878", true},
	}
	for _, c := range cases {
		name, b := readLogSample(t, c.dir)
		blocks := hudi.ReadLogBlocks(bytes.NewReader(b), int64(len(b)))
		if len(blocks) != 1 {
			t.Fatalf("%s: %d blocks, want 1", c.dir, len(blocks))
		}
		bl := blocks[0]
		if bl.Type != c.typ || bl.Length != c.length || bl.ContentLength != c.content || bl.InstantTime() != c.instant ||
			bl.TargetInstant() != c.target || bl.IsRollback() != c.rollback || bl.Corrupt {
			t.Errorf("%s: got %+v", c.dir, bl)
		}
		if c.typ != hudi.BlockCommand && !strings.Contains(bl.Header[hudi.HeaderSchema], `"type"`) {
			t.Errorf("%s: schema header missing", c.dir)
		}
		if _, ok := hudi.ParseLogFileName(name); !ok {
			t.Errorf("%s: name %q does not parse", c.dir, name)
		}
	}
	// The Avro data block holds one record (format.md §4.2).
	_, b := readLogSample(t, "valid_log_avro_data")
	bl := hudi.ReadLogBlocks(bytes.NewReader(b), int64(len(b)))[0]
	content, err := bl.ReadContent(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := hudi.AvroRecords(content)
	if err != nil || len(recs) != 1 {
		t.Fatalf("records = %d, %v", len(recs), err)
	}
	if _, err := hudi.DatumJSON(bl.Header[hudi.HeaderSchema], recs[0]); err != nil {
		t.Errorf("decode record: %v", err)
	}
}

// A cut file and garbage in front of a block are reported with their byte offsets, and the
// valid block after the garbage is still found.
func TestReadLogBlocksDamage(t *testing.T) {
	_, b := readLogSample(t, "valid_log_rollback")
	cut := b[:len(b)-10]
	blocks := hudi.ReadLogBlocks(bytes.NewReader(cut), int64(len(cut)))
	if len(blocks) != 1 || !blocks[0].Corrupt || blocks[0].Offset != 0 || !strings.Contains(blocks[0].Problem, "runs past the end") {
		t.Errorf("truncated: %+v", blocks)
	}
	garbage := append([]byte("garbage!!"), b...)
	garbage = append(garbage, b...)
	blocks = hudi.ReadLogBlocks(bytes.NewReader(garbage), int64(len(garbage)))
	if len(blocks) != 3 || !blocks[0].Corrupt || blocks[0].Length != 9 || blocks[1].Offset != 9 || blocks[2].Offset != 9+105 || !blocks[2].IsRollback() {
		t.Errorf("garbage prefix: %+v", blocks)
	}
}

func TestParseFileNames(t *testing.T) {
	bn, ok := hudi.ParseBaseFileName("ebcb261d-62d3-4895-90ec-5b3c9622dff4-0_0-111-154_20240707001303088.parquet")
	if !ok || bn.FileID != "ebcb261d-62d3-4895-90ec-5b3c9622dff4-0" || bn.WriteToken != "0-111-154" || bn.Instant != "20240707001303088" {
		t.Errorf("base: %+v %v", bn, ok)
	}
	for _, bad := range []string{".hoodie_partition_metadata", "x.parquet", "a_b_c.txt", "_SUCCESS"} {
		if _, ok := hudi.ParseBaseFileName(bad); ok {
			t.Errorf("%q parsed as a base file", bad)
		}
	}
	ln, ok := hudi.ParseLogFileName(".8aa68f7e-0c36-4c2b-8e0c-0fd0c0a7f1d4-0_20251220210130911.log.3_0-13-9.cdc")
	if !ok || ln.Instant != "20251220210130911" || ln.Version != 3 || ln.WriteToken != "0-13-9" || !ln.CDC {
		t.Errorf("log: %+v %v", ln, ok)
	}
	if a, ok := hudi.ParseLogFileName(".commits_.archive.12_1-0-1"); !ok || a.FileID != "commits" || a.Ext != "archive" || a.Version != 12 {
		t.Errorf("archive: %+v", a)
	}
}

func TestParseInstantFileName(t *testing.T) {
	cases := []struct {
		name              string
		req, comp, action string
		state             hudi.State
		ok                bool
	}{
		{"20240418173213674.commit", "20240418173213674", "", "commit", hudi.Completed, true},
		{"20240418173213674.inflight", "20240418173213674", "", "commit", hudi.Inflight, true},
		{"20240418173213674.commit.requested", "20240418173213674", "", "commit", hudi.Requested, true},
		{"20251220210130942_20251220210131219.deltacommit", "20251220210130942", "20251220210131219", "deltacommit", hudi.Completed, true},
		{"20251220210130942.compaction.requested", "20251220210130942", "", "compaction", hudi.Requested, true},
		{"20251220210130942.savepoint.inflight", "20251220210130942", "", "savepoint", hudi.Inflight, true},
		{"00000000000000000001.deltacommit", "00000000000000000001", "", "deltacommit", hudi.Completed, true},
		{"hoodie.properties", "", "", "", "", false},
		{".20240418173213674.commit.crc", "", "", "", "", false},
		{"20240418173213674.commit.done", "", "", "", "", false},
		{"20240418173213674.unknown", "", "", "", "", false},
		{"20240418173213674_20240418173213675.commit.requested", "", "", "", "", false},
	}
	for _, c := range cases {
		f, ok := hudi.ParseInstantFileName(c.name)
		if ok != c.ok || (ok && (f.RequestedTime != c.req || f.CompletionTime != c.comp || f.Action != c.action || f.State != c.state)) {
			t.Errorf("%s: got %+v %v", c.name, f, ok)
		}
	}
}
