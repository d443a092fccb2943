package logfile_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/internal/avro"
	"github.com/hudiscope/hudiscope/hudi/internal/synth"
	"github.com/hudiscope/hudiscope/hudi/logfile"
)

// logSamples is the external hudi-rs corpus's directory of log file samples.
func logSamples(t testing.TB) string {
	t.Helper()
	dir, err := filepath.Abs("../../../shared/testdata/hudi-rs/crates/core/tests/data/log_files")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("external corpus not present at %s (it lives in ../shared/testdata): %v", dir, err)
	}
	return dir
}

func readLogSample(t *testing.T, dir string) (string, []byte) {
	t.Helper()
	base := filepath.Join(logSamples(t), dir)
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
		{"valid_log_avro_data", logfile.BlockAvroData, 1172, 240, "20250316025828811", "", false},
		{"valid_log_delete", logfile.BlockDelete, 1098, 190, "20250618054714114", "", false},
		{"valid_log_parquet_data", logfile.BlockParquetData, 5311, 4373, "20250113230424191", "", false},
		{"valid_log_rollback", logfile.BlockCommand, 105, 0, "20250126040936578", "20250126040826878", true},
	}
	for _, c := range cases {
		name, b := readLogSample(t, c.dir)
		blocks := logfile.ReadBlocks(bytes.NewReader(b), int64(len(b)))
		if len(blocks) != 1 {
			t.Fatalf("%s: %d blocks, want 1", c.dir, len(blocks))
		}
		bl := blocks[0]
		if bl.Type != c.typ || bl.Length != c.length || bl.ContentLength != c.content || bl.InstantTime() != c.instant ||
			bl.TargetInstant() != c.target || bl.IsRollback() != c.rollback || bl.Corrupt {
			t.Errorf("%s: got %+v", c.dir, bl)
		}
		if c.typ != logfile.BlockCommand && !strings.Contains(bl.Header[logfile.HeaderSchema], `"type"`) {
			t.Errorf("%s: schema header missing", c.dir)
		}
		if _, ok := filegroup.ParseLogFileName(name); !ok {
			t.Errorf("%s: name %q does not parse", c.dir, name)
		}
	}
	// The Avro data block holds one record.
	_, b := readLogSample(t, "valid_log_avro_data")
	bl := logfile.ReadBlocks(bytes.NewReader(b), int64(len(b)))[0]
	content, err := bl.ReadContent(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := logfile.AvroRecords(content)
	if err != nil || len(recs) != 1 {
		t.Fatalf("records = %d, %v", len(recs), err)
	}
	if _, err := avro.DatumJSON(bl.Header[logfile.HeaderSchema], recs[0]); err != nil {
		t.Errorf("decode record: %v", err)
	}
}

// A cut file and garbage in front of a block are reported with their byte offsets, and the
// valid block after the garbage is still found.
func TestReadLogBlocksDamage(t *testing.T) {
	_, b := readLogSample(t, "valid_log_rollback")
	cut := b[:len(b)-10]
	blocks := logfile.ReadBlocks(bytes.NewReader(cut), int64(len(cut)))
	if len(blocks) != 1 || !blocks[0].Corrupt || blocks[0].Offset != 0 || !strings.Contains(blocks[0].Problem, "runs past the end") {
		t.Errorf("truncated: %+v", blocks)
	}
	garbage := append([]byte("garbage!!"), b...)
	garbage = append(garbage, b...)
	blocks = logfile.ReadBlocks(bytes.NewReader(garbage), int64(len(garbage)))
	if len(blocks) != 3 || !blocks[0].Corrupt || blocks[0].Length != 9 || blocks[1].Offset != 9 || blocks[2].Offset != 9+105 || !blocks[2].IsRollback() {
		t.Errorf("garbage prefix: %+v", blocks)
	}
}

func FuzzReadLogBlocks(f *testing.F) {
	f.Add([]byte("#HUDI#\x00\x00\x00\x00\x00\x00\x00\x5b"))
	f.Add(append([]byte("xx#HUDI#"), make([]byte, 40)...))
	// Well-formed blocks; with the ceilings lowered below, the second is over the block ceiling
	// and the first's header over the header ceiling.
	f.Add(append(synth.LogBlock(1, logfile.BlockAvroData, map[int]string{logfile.HeaderInstantTime: "1"}, []byte("c")),
		synth.LogBlock(1, logfile.BlockHFileData, nil, make([]byte, 300))...))
	oldBlock, oldHeader := logfile.MaxBlockBytes, logfile.MaxHeaderBytes
	logfile.MaxBlockBytes, logfile.MaxHeaderBytes = 256, 32
	f.Cleanup(func() { logfile.MaxBlockBytes, logfile.MaxHeaderBytes = oldBlock, oldHeader })
	f.Fuzz(func(t *testing.T, b []byte) {
		r := bytes.NewReader(b)
		for _, bl := range logfile.ReadBlocks(r, int64(len(b))) {
			if bl.Length <= 0 || bl.Offset+bl.Length > int64(len(b)) {
				t.Fatalf("block %+v out of range (%d bytes)", bl, len(b))
			}
			if bl.TooLarge {
				if !bl.Corrupt || bl.Length <= logfile.MaxBlockBytes {
					t.Fatalf("too-large block %+v", bl)
				}
				if _, err := bl.ReadContent(r); err == nil {
					t.Fatalf("content of a too-large block read")
				}
			}
			if !bl.Corrupt {
				c, err := bl.ReadContent(r)
				if err == nil && (bl.Type == logfile.BlockAvroData || bl.Type == logfile.BlockCDCData) {
					_, _ = logfile.AvroRecords(c)
				}
			}
		}
	})
}
