// Package logfile reads the framing of Hudi log files (also the 0.x archived timeline's
// format): blocks, their types and headers, and the record datums of Avro data blocks.
package logfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/hudiscope/hudiscope/internal/units"
)

// Block types as the block header numbers them.
const (
	BlockCommand     = 0
	BlockDelete      = 1
	BlockCorrupt     = 2
	BlockAvroData    = 3
	BlockHFileData   = 4
	BlockParquetData = 5
	BlockCDCData     = 6
)

// Log block header keys.
const (
	HeaderInstantTime       = 0
	HeaderTargetInstantTime = 1
	HeaderSchema            = 2
	HeaderCommandBlockType  = 3
)

var logMagic = []byte("#HUDI#")

// Block is one block's framing and header; the content is not decoded.
type Block struct {
	Offset        int64 // of the magic
	Length        int64 // total bytes including magic and trailer
	FormatVersion int
	Type          int
	Header        map[int]string
	ContentOffset int64
	ContentLength int64
	// Corrupt blocks are gaps a reader could not frame, or blocks over MaxBlockBytes (then
	// TooLarge, and Type is the block's own); Problem says why. Readers skip them.
	Corrupt  bool
	TooLarge bool
	Problem  string
}

// Ceilings on what one block may make a reader hold. Lengths in a log file are the writer's
// claim: a block over MaxBlockBytes is framed and skipped, never read, and headers over
// MaxHeaderBytes make a block corrupt. Package variables so tests and tools can lower them.
var (
	MaxBlockBytes  int64 = 256 << 20
	MaxHeaderBytes int64 = 16 << 20
)

// ErrTooLarge marks a block over MaxBlockBytes.
var ErrTooLarge = errors.New("over the block ceiling")

// InstantTime is the INSTANT_TIME header.
func (b *Block) InstantTime() string { return b.Header[HeaderInstantTime] }

// TargetInstant is the instant a rollback command block cancels.
func (b *Block) TargetInstant() string { return b.Header[HeaderTargetInstantTime] }

// IsRollback reports whether this is a rollback command block.
func (b *Block) IsRollback() bool {
	return b.Type == BlockCommand && b.Header[HeaderCommandBlockType] == "0"
}

// ReadBlocks walks the blocks of a log file through ranged reads: magic, length, version,
// type and header, then a jump to the next block — content is never read. A block whose
// trailer does not match its length, or that runs past the end, is reported as corrupt and
// the walk resumes at the next magic, as Hudi's own reader does.
func ReadBlocks(r io.ReaderAt, size int64) []Block {
	var blocks []Block
	Walk(r, size, func(b Block) bool {
		blocks = append(blocks, b)
		return true
	})
	return blocks
}

// Walk is ReadBlocks one block at a time: fn gets each block in file order and returns false
// to stop. Only the current block's header is held, so a reader of a file of many blocks
// with big headers holds one header, not all of them.
func Walk(r io.ReaderAt, size int64, fn func(Block) bool) {
	off := int64(0)
	for n := 1; off < size; n++ {
		b, next, err := readBlockAt(r, size, off)
		if err == nil {
			if b.TooLarge {
				b.Problem = fmt.Sprintf("block %d at byte %d: %s exceeds the %s block ceiling; skipped",
					n, off, units.BytesMessage(b.Length), units.BytesMessage(MaxBlockBytes))
			}
			if !fn(b) {
				return
			}
			off = next
			continue
		}
		// Corrupt: find the next magic after this offset.
		resume := findMagic(r, size, off+1)
		if !fn(Block{Offset: off, Length: resume - off, Type: BlockCorrupt, Corrupt: true,
			Problem: fmt.Sprintf("corrupt block at byte %d: %v", off, err)}) {
			return
		}
		off = resume
	}
}

func readBlockAt(r io.ReaderAt, size, off int64) (Block, int64, error) {
	var head [22]byte
	if off+int64(len(head)) > size {
		return Block{}, 0, fmt.Errorf("truncated (%d bytes left)", size-off)
	}
	if _, err := r.ReadAt(head[:], off); err != nil {
		return Block{}, 0, err
	}
	if !bytes.Equal(head[:6], logMagic) {
		return Block{}, 0, fmt.Errorf("bad magic %q", head[:6])
	}
	l := int64(binary.BigEndian.Uint64(head[6:14]))
	end := off + 14 + l
	if l < 8 || end > size || end < off {
		return Block{}, 0, fmt.Errorf("block length %d runs past the end of the file (%d bytes)", l, size)
	}
	var trailer [8]byte
	if _, err := r.ReadAt(trailer[:], end-8); err != nil {
		return Block{}, 0, err
	}
	if int64(binary.BigEndian.Uint64(trailer[:])) != l+6 {
		return Block{}, 0, fmt.Errorf("trailer %d does not match block length %d", binary.BigEndian.Uint64(trailer[:]), l)
	}
	b := Block{Offset: off, Length: 14 + l, FormatVersion: int(binary.BigEndian.Uint32(head[14:18])),
		Type: int(binary.BigEndian.Uint32(head[18:22])), Header: map[int]string{}}
	if b.Length > MaxBlockBytes {
		// Framed (length and trailer agree), so the next block is found; its header and content
		// are not read.
		b.Corrupt, b.TooLarge = true, true
		return b, end, nil
	}
	pos := off + 22
	if b.FormatVersion == 0 {
		// Ancient format: no type/header/footer; nothing more to read.
		return b, end, nil
	}
	hdr, n, err := readKV(r, pos, end)
	if err != nil {
		return Block{}, 0, fmt.Errorf("header: %w", err)
	}
	b.Header = hdr
	pos += n
	var cl [8]byte
	if pos+8 > end {
		return Block{}, 0, fmt.Errorf("no content length")
	}
	if _, err := r.ReadAt(cl[:], pos); err != nil {
		return Block{}, 0, err
	}
	b.ContentLength = int64(binary.BigEndian.Uint64(cl[:]))
	b.ContentOffset = pos + 8
	if b.ContentLength < 0 || b.ContentOffset+b.ContentLength > end-8 {
		return Block{}, 0, fmt.Errorf("content length %d exceeds block", b.ContentLength)
	}
	return b, end, nil
}

// readKV reads a header/footer map: count, then (key ordinal, length, bytes) entries.
func readKV(r io.ReaderAt, pos, end int64) (map[int]string, int64, error) {
	var n4 [4]byte
	if pos+4 > end {
		return nil, 0, io.ErrUnexpectedEOF
	}
	if _, err := r.ReadAt(n4[:], pos); err != nil {
		return nil, 0, err
	}
	count := int(int32(binary.BigEndian.Uint32(n4[:])))
	if count < 0 || count > 64 {
		return nil, 0, fmt.Errorf("implausible entry count %d", count)
	}
	read := int64(4)
	out := make(map[int]string, count)
	for i := 0; i < count; i++ {
		var kv [8]byte
		if pos+read+8 > end {
			return nil, 0, io.ErrUnexpectedEOF
		}
		if _, err := r.ReadAt(kv[:], pos+read); err != nil {
			return nil, 0, err
		}
		key := int(int32(binary.BigEndian.Uint32(kv[:4])))
		vl := int64(int32(binary.BigEndian.Uint32(kv[4:])))
		read += 8
		if vl < 0 || pos+read+vl > end {
			return nil, 0, fmt.Errorf("header value length %d exceeds block", vl)
		}
		if read+vl > MaxHeaderBytes {
			return nil, 0, fmt.Errorf("header of more than %s exceeds the %s header ceiling",
				units.BytesMessage(read+vl), units.BytesMessage(MaxHeaderBytes))
		}
		v := make([]byte, vl)
		if _, err := r.ReadAt(v, pos+read); err != nil {
			return nil, 0, err
		}
		read += vl
		out[key] = string(v)
	}
	return out, read, nil
}

// findMagic returns the offset of the next "#HUDI#" at or after from, or size.
func findMagic(r io.ReaderAt, size, from int64) int64 {
	const chunk = 64 << 10
	buf := make([]byte, chunk+len(logMagic))
	for off := from; off < size; off += chunk {
		n, _ := r.ReadAt(buf, off)
		if n <= 0 {
			break
		}
		if i := bytes.Index(buf[:n], logMagic); i >= 0 {
			return off + int64(i)
		}
	}
	return size
}

// ReadContent reads a block's content bytes. The length is checked against MaxBlockBytes and,
// when r knows its size (storage files, bytes.Reader), against it before allocating; otherwise
// the buffer grows only as bytes arrive.
func (b *Block) ReadContent(r io.ReaderAt) ([]byte, error) {
	if b.TooLarge || b.ContentLength > MaxBlockBytes {
		return nil, fmt.Errorf("block at byte %d: %s exceeds the %s block ceiling: %w",
			b.Offset, units.BytesMessage(max(b.Length, b.ContentLength)), units.BytesMessage(MaxBlockBytes), ErrTooLarge)
	}
	if b.ContentLength < 0 || b.ContentOffset < 0 {
		return nil, fmt.Errorf("block at byte %d: content of %d bytes at %d", b.Offset, b.ContentLength, b.ContentOffset)
	}
	if s, ok := r.(interface{ Size() int64 }); ok {
		if end := b.ContentOffset + b.ContentLength; end > s.Size() {
			return nil, fmt.Errorf("block at byte %d: content ends at byte %d, past the end of the file (%d bytes)",
				b.Offset, end, s.Size())
		}
		buf := make([]byte, b.ContentLength)
		if _, err := r.ReadAt(buf, b.ContentOffset); err != nil && err != io.EOF {
			return nil, err
		}
		return buf, nil
	}
	buf, err := io.ReadAll(io.NewSectionReader(r, b.ContentOffset, b.ContentLength))
	if err != nil {
		return nil, err
	}
	if int64(len(buf)) != b.ContentLength {
		return nil, fmt.Errorf("block at byte %d: content truncated at %d of %d bytes", b.Offset, len(buf), b.ContentLength)
	}
	return buf, nil
}

// AvroRecords splits AVRO_DATA / CDC_DATA content into record datums (content version ≥ 1:
// int32 version, int32 count, then length-prefixed datums).
func AvroRecords(content []byte) ([][]byte, error) {
	if len(content) < 8 {
		return nil, fmt.Errorf("avro block content too short (%d bytes)", len(content))
	}
	count := int(int32(binary.BigEndian.Uint32(content[4:8])))
	if count < 0 {
		return nil, fmt.Errorf("negative record count %d", count)
	}
	pos := 8
	out := make([][]byte, 0, min(count, 1<<16))
	for i := 0; i < count; i++ {
		if pos+4 > len(content) {
			return out, fmt.Errorf("record %d of %d: truncated", i, count)
		}
		n := int(int32(binary.BigEndian.Uint32(content[pos:])))
		pos += 4
		if n < 0 || pos+n > len(content) {
			return out, fmt.Errorf("record %d of %d: length %d exceeds block", i, count, n)
		}
		out = append(out, content[pos:pos+n])
		pos += n
	}
	return out, nil
}

// DeleteRecordListSchema is HoodieDeleteRecordList, the Avro content of a version-3 DELETE
// block; the ordering-value union lists every wrapper a writer may use.
const DeleteRecordListSchema = `{"type":"record","name":"HoodieDeleteRecordList","namespace":"org.apache.hudi.avro.model",
"fields":[{"name":"deleteRecordList","type":{"type":"array","items":{"type":"record","name":"HoodieDeleteRecord",
"fields":[{"name":"recordKey","type":["null","string"],"default":null},
{"name":"partitionPath","type":["null","string"],"default":null},
{"name":"orderingVal","default":null,"type":["null",
{"type":"record","name":"BooleanWrapper","fields":[{"name":"value","type":"boolean"}]},
{"type":"record","name":"IntWrapper","fields":[{"name":"value","type":"int"}]},
{"type":"record","name":"LongWrapper","fields":[{"name":"value","type":"long"}]},
{"type":"record","name":"FloatWrapper","fields":[{"name":"value","type":"float"}]},
{"type":"record","name":"DoubleWrapper","fields":[{"name":"value","type":"double"}]},
{"type":"record","name":"BytesWrapper","fields":[{"name":"value","type":"bytes"}]},
{"type":"record","name":"StringWrapper","fields":[{"name":"value","type":"string"}]},
{"type":"record","name":"DateWrapper","fields":[{"name":"value","type":"int"}]},
{"type":"record","name":"DecimalWrapper","fields":[{"name":"value","type":{"type":"bytes","logicalType":"decimal","precision":30,"scale":15}}]},
{"type":"record","name":"TimeMicrosWrapper","fields":[{"name":"value","type":{"type":"long","logicalType":"time-micros"}}]},
{"type":"record","name":"TimestampMicrosWrapper","fields":[{"name":"value","type":"long"}]},
{"type":"record","name":"ArrayWrapper","fields":[{"name":"wrappedValues","default":null,"type":["null",{"type":"array","items":["null",
"BooleanWrapper","IntWrapper","LongWrapper","FloatWrapper","DoubleWrapper","BytesWrapper","StringWrapper","DateWrapper",
"DecimalWrapper","TimeMicrosWrapper","TimestampMicrosWrapper",
{"type":"record","name":"LocalDateWrapper","fields":[{"name":"value","type":"int"}]}]}]}]}
]}]}}}]}`
