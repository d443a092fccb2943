package logfile_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/hudi/internal/synth"
	"github.com/hudiscope/hudiscope/hudi/logfile"
	"github.com/hudiscope/hudiscope/internal/testutil"
)

// sparseFile is a virtual file of size bytes: the given pieces at their offsets, zeros between.
// It lets a test present a 3 GiB log file without 3 GiB of anything.
type sparseFile struct {
	size   int64
	pieces map[int64][]byte
}

func (f *sparseFile) Size() int64 { return f.size }

func (f *sparseFile) ReadAt(p []byte, off int64) (int, error) {
	if off >= f.size {
		return 0, io.EOF
	}
	n := len(p)
	if int64(n) > f.size-off {
		n = int(f.size - off)
	}
	clear(p[:n])
	for at, b := range f.pieces {
		lo, hi := max(at, off), min(at+int64(len(b)), off+int64(n))
		if lo < hi {
			copy(p[lo-off:hi-off], b[lo-at:hi-at])
		}
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// bigBlockFile is a 3 GiB HFILE_DATA block (framing only: magic, length, version, type and a
// trailer that agrees) followed by a small, valid block.
func bigBlockFile() (*sparseFile, int64) {
	const l = 3 << 30
	head := []byte("#HUDI#")
	head = binary.BigEndian.AppendUint64(head, l)
	head = binary.BigEndian.AppendUint32(head, 1)
	head = binary.BigEndian.AppendUint32(head, logfile.BlockHFileData)
	trailer := binary.BigEndian.AppendUint64(nil, l+6)
	next := int64(14 + l)
	small := synth.LogBlock(1, logfile.BlockAvroData, map[int]string{logfile.HeaderInstantTime: "20250101000000000"}, []byte("datum"))
	return &sparseFile{size: next + int64(len(small)), pieces: map[int64][]byte{0: head, next - 8: trailer, next: small}}, next
}

// A block claiming 3 GiB is a named problem, skipped without being read, and the block after
// it is still found and readable.
func TestBlockOverCeilingSkipped(t *testing.T) {
	f, next := bigBlockFile()
	var blocks []logfile.Block
	grew := testutil.PeakHeapGrowth(func() { blocks = logfile.ReadBlocks(f, f.Size()) })
	if grew > 16<<20 {
		t.Errorf("heap grew %d MiB framing a 3 GiB block", grew>>20)
	}
	if len(blocks) != 2 {
		t.Fatalf("got %d blocks, want 2: %+v", len(blocks), blocks)
	}
	big := blocks[0]
	if !big.Corrupt || !big.TooLarge || big.Type != logfile.BlockHFileData || big.Length != next {
		t.Errorf("big block = %+v", big)
	}
	if want := "block 1 at byte 0: 3.0 GiB exceeds the 256 MiB block ceiling; skipped"; big.Problem != want {
		t.Errorf("problem = %q, want %q", big.Problem, want)
	}
	_, err := big.ReadContent(f)
	if !errors.Is(err, logfile.ErrTooLarge) || !strings.Contains(err.Error(), "3.0 GiB exceeds the 256 MiB block ceiling") {
		t.Errorf("ReadContent of the big block: %v", err)
	}
	small := blocks[1]
	if small.Corrupt || small.Offset != next || small.InstantTime() != "20250101000000000" {
		t.Fatalf("block after the big one = %+v", small)
	}
	content, err := small.ReadContent(f)
	if err != nil || string(content) != "datum" {
		t.Errorf("content = %q, %v", content, err)
	}
}

// A header whose values add up past MaxHeaderBytes makes the block corrupt; the walk goes on.
func TestHeaderOverCeiling(t *testing.T) {
	old := logfile.MaxHeaderBytes
	logfile.MaxHeaderBytes = 1 << 10
	defer func() { logfile.MaxHeaderBytes = old }()
	b := synth.LogBlock(1, logfile.BlockAvroData, map[int]string{logfile.HeaderSchema: strings.Repeat("x", 2000)}, []byte("c"))
	b = append(b, synth.LogBlock(1, logfile.BlockCommand, map[int]string{logfile.HeaderInstantTime: "1"}, nil)...)
	blocks := logfile.ReadBlocks(bytes.NewReader(b), int64(len(b)))
	if len(blocks) != 2 {
		t.Fatalf("got %d blocks: %+v", len(blocks), blocks)
	}
	if want := "corrupt block at byte 0: header: header of more than 2 KiB exceeds the 1 KiB header ceiling"; blocks[0].Problem != want {
		t.Errorf("problem = %q, want %q", blocks[0].Problem, want)
	}
	if blocks[1].Corrupt || blocks[1].Type != logfile.BlockCommand {
		t.Errorf("second block = %+v", blocks[1])
	}
}

// onlyReaderAt hides Size, so ReadContent cannot check the length against the file.
type onlyReaderAt struct{ r io.ReaderAt }

func (o onlyReaderAt) ReadAt(p []byte, off int64) (int, error) { return o.r.ReadAt(p, off) }

// A block descriptor whose content length outruns the file: with a known size it is refused
// before allocating; without, the buffer holds only what arrived and the error says so.
func TestReadContentLengthUnchecked(t *testing.T) {
	b := synth.LogBlock(1, logfile.BlockAvroData, nil, []byte("0123456789"))
	blocks := logfile.ReadBlocks(bytes.NewReader(b), int64(len(b)))
	if len(blocks) != 1 || blocks[0].ContentLength != 10 {
		t.Fatalf("blocks = %+v", blocks)
	}
	lying := blocks[0]
	lying.ContentLength = 200 << 20
	var err error
	grew := testutil.PeakHeapGrowth(func() { _, err = lying.ReadContent(bytes.NewReader(b)) })
	if err == nil || !strings.Contains(err.Error(), "content ends at byte 209715234, past the end of the file (56 bytes)") {
		t.Errorf("sized reader: %v", err)
	}
	if grew > 16<<20 {
		t.Errorf("heap grew %d MiB", grew>>20)
	}
	grew = testutil.PeakHeapGrowth(func() { _, err = lying.ReadContent(onlyReaderAt{bytes.NewReader(b)}) })
	if err == nil || !strings.Contains(err.Error(), "content truncated at 22 of 209715200 bytes") {
		t.Errorf("unsized reader: %v", err)
	}
	if grew > 16<<20 {
		t.Errorf("heap grew %d MiB", grew>>20)
	}
	lying.ContentLength = 3 << 30
	if _, err := lying.ReadContent(bytes.NewReader(b)); !errors.Is(err, logfile.ErrTooLarge) {
		t.Errorf("3 GiB content: %v", err)
	}
}

// Walk hands blocks over in file order, the same as ReadBlocks, and stops when told.
func TestWalkMatchesReadBlocksAndStops(t *testing.T) {
	f, next := bigBlockFile()
	var offs []int64
	logfile.Walk(f, f.Size(), func(b logfile.Block) bool {
		offs = append(offs, b.Offset)
		return true
	})
	all := logfile.ReadBlocks(f, f.Size())
	if len(offs) != 2 || offs[0] != 0 || offs[1] != next || len(all) != 2 || all[1].Offset != next {
		t.Errorf("walk %v, read %d blocks", offs, len(all))
	}
	calls := 0
	logfile.Walk(f, f.Size(), func(logfile.Block) bool { calls++; return false })
	if calls != 1 {
		t.Errorf("%d calls after stopping at the first", calls)
	}
}
