// Package hfile reads HBase HFile v3 files as Hudi writes them for its metadata table (base
// files and HFILE_DATA log blocks): trailer, file info and a full scan of the data blocks.
// It is read-only and needs only ranged reads.
package hfile

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
)

// Compression codecs as the trailer numbers them.
const (
	CodecLZO    = 0
	CodecGZ     = 1
	CodecNone   = 2
	CodecSnappy = 3
	CodecLZ4    = 4
	CodecBZIP2  = 5
	CodecZSTD   = 6
)

const (
	trailerSize = 4096
	headerSize  = 33
)

var (
	trailerMagic  = []byte("TRABLK\"$")
	dataMagic     = []byte("DATABLK*")
	fileInfoMagic = []byte("FILEINF2")
	pbufMagic     = []byte("PBUF")
)

// Trailer is the fixed trailer at the end of an HFile.
type Trailer struct {
	FileInfoOffset         uint64
	LoadOnOpenOffset       uint64
	UncompressedIndexSize  uint64
	TotalUncompressedBytes uint64
	DataIndexCount         uint32
	MetaIndexCount         uint32
	EntryCount             uint64
	NumDataIndexLevels     uint32
	FirstDataBlockOffset   uint64
	LastDataBlockOffset    uint64 // start of the last data block
	ComparatorClassName    string
	CompressionCodec       uint32
	MajorVersion           int
	MinorVersion           int
}

// Reader reads one HFile.
type Reader struct {
	r        io.ReaderAt
	size     int64
	Trailer  Trailer
	FileInfo map[string][]byte
	mvcc     bool
}

// Open reads the trailer and the file info of an HFile of size bytes.
func Open(r io.ReaderAt, size int64) (*Reader, error) {
	if size < trailerSize {
		return nil, fmt.Errorf("hfile: %d bytes is shorter than the %d-byte trailer", size, trailerSize)
	}
	buf := make([]byte, trailerSize)
	if _, err := r.ReadAt(buf, size-trailerSize); err != nil && err != io.EOF {
		return nil, fmt.Errorf("hfile: read trailer: %w", err)
	}
	if !bytes.HasPrefix(buf, trailerMagic) {
		return nil, fmt.Errorf("hfile: bad trailer magic %q", buf[:8])
	}
	ver := binary.BigEndian.Uint32(buf[trailerSize-4:])
	h := &Reader{r: r, size: size, mvcc: true}
	h.Trailer.MajorVersion = int(ver & 0xffffff)
	h.Trailer.MinorVersion = int(ver >> 24)
	if h.Trailer.MajorVersion != 3 {
		return nil, fmt.Errorf("hfile: major version %d (only v3 is supported)", h.Trailer.MajorVersion)
	}
	msgLen, n := binary.Uvarint(buf[8:])
	if n <= 0 || 8+uint64(n)+msgLen > trailerSize-4 {
		return nil, errors.New("hfile: bad trailer length")
	}
	if err := h.Trailer.parse(buf[8+n : 8+uint64(n)+msgLen]); err != nil {
		return nil, err
	}
	if h.Trailer.LoadOnOpenOffset >= uint64(size) || h.Trailer.FileInfoOffset >= uint64(size) {
		return nil, errors.New("hfile: trailer offsets point past the end of the file")
	}
	switch h.Trailer.CompressionCodec {
	case CodecNone, CodecGZ:
	default:
		return nil, fmt.Errorf("hfile: compression codec %d is not supported (NONE and GZ are)", h.Trailer.CompressionCodec)
	}
	fi, err := h.readFileInfo()
	if err != nil {
		return nil, err
	}
	h.FileInfo = fi
	if v, ok := fi["KEY_VALUE_VERSION"]; ok && len(v) == 4 && binary.BigEndian.Uint32(v) != 1 {
		h.mvcc = false
	}
	return h, nil
}

// Schema returns the file-info `schema` entry (Hudi's Avro writer schema), if any.
func (h *Reader) Schema() string { return string(h.FileInfo["schema"]) }

// EntryCount is the number of cells the trailer promises.
func (h *Reader) EntryCount() uint64 { return h.Trailer.EntryCount }

func (t *Trailer) parse(b []byte) error {
	for len(b) > 0 {
		tag, n := binary.Uvarint(b)
		if n <= 0 {
			return errors.New("hfile: bad trailer field tag")
		}
		b = b[n:]
		field, wire := tag>>3, tag&7
		switch wire {
		case 0:
			v, n := binary.Uvarint(b)
			if n <= 0 {
				return errors.New("hfile: bad trailer varint")
			}
			b = b[n:]
			switch field {
			case 1:
				t.FileInfoOffset = v
			case 2:
				t.LoadOnOpenOffset = v
			case 3:
				t.UncompressedIndexSize = v
			case 4:
				t.TotalUncompressedBytes = v
			case 5:
				t.DataIndexCount = uint32(v)
			case 6:
				t.MetaIndexCount = uint32(v)
			case 7:
				t.EntryCount = v
			case 8:
				t.NumDataIndexLevels = uint32(v)
			case 9:
				t.FirstDataBlockOffset = v
			case 10:
				t.LastDataBlockOffset = v
			case 12:
				t.CompressionCodec = uint32(v)
			}
		case 2:
			l, n := binary.Uvarint(b)
			if n <= 0 || uint64(len(b)-n) < l {
				return errors.New("hfile: bad trailer bytes field")
			}
			if field == 11 {
				t.ComparatorClassName = string(b[n : n+int(l)])
			}
			b = b[n+int(l):]
		case 1:
			if len(b) < 8 {
				return errors.New("hfile: bad trailer fixed64")
			}
			b = b[8:]
		case 5:
			if len(b) < 4 {
				return errors.New("hfile: bad trailer fixed32")
			}
			b = b[4:]
		default:
			return fmt.Errorf("hfile: unsupported protobuf wire type %d in trailer", wire)
		}
	}
	return nil
}

// maxBlockBytes bounds one block's uncompressed size (HBase blocks are KBs to a few MB).
const maxBlockBytes = 256 << 20

// block is one decoded block: its magic and uncompressed payload.
type block struct {
	magic   []byte
	payload []byte
	next    int64 // offset of the following block
}

func (h *Reader) readBlock(off int64) (block, error) {
	var hdr [headerSize]byte
	if off < 0 || off+headerSize > h.size {
		return block{}, fmt.Errorf("hfile: block at %d runs past the end", off)
	}
	if _, err := h.r.ReadAt(hdr[:], off); err != nil && err != io.EOF {
		return block{}, fmt.Errorf("hfile: block header at %d: %w", off, err)
	}
	onDisk := int64(int32(binary.BigEndian.Uint32(hdr[8:12])))
	uncompressed := int64(int32(binary.BigEndian.Uint32(hdr[12:16])))
	dataWithHeader := int64(int32(binary.BigEndian.Uint32(hdr[29:33])))
	if onDisk < 0 || uncompressed < 0 || uncompressed > maxBlockBytes || dataWithHeader < headerSize || dataWithHeader > headerSize+onDisk ||
		off+headerSize+onDisk > h.size {
		return block{}, fmt.Errorf("hfile: block at %d has implausible sizes (on disk %d, data %d)", off, onDisk, dataWithHeader)
	}
	raw := make([]byte, dataWithHeader-headerSize)
	if _, err := h.r.ReadAt(raw, off+headerSize); err != nil && err != io.EOF {
		return block{}, fmt.Errorf("hfile: block at %d: %w", off, err)
	}
	b := block{magic: append([]byte(nil), hdr[:8]...), next: off + headerSize + onDisk}
	if h.Trailer.CompressionCodec == CodecGZ {
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			return block{}, fmt.Errorf("hfile: block at %d: gzip: %w", off, err)
		}
		// The header's size is untrusted: grow as data arrives instead of allocating it up front.
		w := bytes.NewBuffer(make([]byte, 0, min(uncompressed, 1<<20)))
		if _, err := io.Copy(w, io.LimitReader(zr, uncompressed+1)); err != nil {
			return block{}, fmt.Errorf("hfile: block at %d: gzip: %w", off, err)
		}
		b.payload = w.Bytes()
	} else {
		b.payload = raw
	}
	if int64(len(b.payload)) != uncompressed {
		return block{}, fmt.Errorf("hfile: block at %d: %d bytes after decompression, header says %d", off, len(b.payload), uncompressed)
	}
	return b, nil
}

func (h *Reader) readFileInfo() (map[string][]byte, error) {
	b, err := h.readBlock(int64(h.Trailer.FileInfoOffset))
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(b.magic, fileInfoMagic) {
		return nil, fmt.Errorf("hfile: expected file info block, got %q", b.magic)
	}
	p := b.payload
	if !bytes.HasPrefix(p, pbufMagic) {
		return nil, errors.New("hfile: file info without PBUF magic")
	}
	p = p[len(pbufMagic):]
	l, n := binary.Uvarint(p)
	if n <= 0 || uint64(len(p)-n) < l {
		return nil, errors.New("hfile: bad file info length")
	}
	return parseInfoProto(p[n : n+int(l)])
}

// parseInfoProto decodes InfoProto{repeated BytesBytesPair map_entry = 1}.
func parseInfoProto(b []byte) (map[string][]byte, error) {
	out := map[string][]byte{}
	for len(b) > 0 {
		tag, n := binary.Uvarint(b)
		if n <= 0 || tag&7 != 2 {
			return nil, errors.New("hfile: bad file info entry")
		}
		b = b[n:]
		l, n := binary.Uvarint(b)
		if n <= 0 || uint64(len(b)-n) < l {
			return nil, errors.New("hfile: bad file info entry length")
		}
		pair := b[n : n+int(l)]
		b = b[n+int(l):]
		if tag>>3 != 1 {
			continue
		}
		var k, v []byte
		for len(pair) > 0 {
			t, n := binary.Uvarint(pair)
			if n <= 0 || t&7 != 2 {
				return nil, errors.New("hfile: bad file info pair")
			}
			pair = pair[n:]
			l, n := binary.Uvarint(pair)
			if n <= 0 || uint64(len(pair)-n) < l {
				return nil, errors.New("hfile: bad file info pair length")
			}
			switch t >> 3 {
			case 1:
				k = pair[n : n+int(l)]
			case 2:
				v = pair[n : n+int(l)]
			}
			pair = pair[n+int(l):]
		}
		out[string(k)] = append([]byte(nil), v...)
	}
	return out, nil
}

// Scan calls fn for every cell in file order with the row key (the Hudi record key) and the
// value. The slices are only valid during the call. Scanning stops at fn's first error.
func (h *Reader) Scan(fn func(key, value []byte) error) error {
	it := h.Blocks()
	var seen uint64
	for {
		off, p, ok, err := it.Next()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		n, err := h.Cells(off, p, fn)
		seen += n
		if err != nil {
			return err
		}
	}
	return h.CheckCount(seen)
}

// CheckCount says whether seen cells are what the trailer promises.
func (h *Reader) CheckCount(seen uint64) error {
	if h.Trailer.FirstDataBlockOffset == math.MaxUint64 {
		return nil // no data block to hold them
	}
	if seen != h.Trailer.EntryCount {
		return fmt.Errorf("hfile: scanned %d cells, trailer says %d", seen, h.Trailer.EntryCount)
	}
	return nil
}

// BlockIter walks a file's data blocks in order (Reader.Blocks).
type BlockIter struct {
	h        *Reader
	off, end int64
}

// Blocks iterates the data blocks: read them one after another with Next and decode each
// with Cells — possibly elsewhere, since a payload does not depend on the blocks around it.
func (h *Reader) Blocks() *BlockIter {
	it := &BlockIter{h: h, end: int64(h.Trailer.LoadOnOpenOffset)}
	if h.Trailer.EntryCount == 0 || h.Trailer.FirstDataBlockOffset == math.MaxUint64 {
		it.off = it.end
	} else {
		it.off = int64(h.Trailer.FirstDataBlockOffset)
	}
	return it
}

// Next reads the next data block: its offset and payload (the caller's to keep); ok is false
// after the last one. Other blocks on the way (bloom filters, meta) are skipped.
func (it *BlockIter) Next() (off int64, payload []byte, ok bool, err error) {
	for it.off < it.end {
		b, err := it.h.readBlock(it.off)
		if err != nil {
			return 0, nil, false, err
		}
		off, it.off = it.off, b.next
		if bytes.Equal(b.magic, dataMagic) {
			return off, b.payload, true, nil
		}
	}
	return 0, nil, false, nil
}

// Cells calls fn for every cell of the data block at off with payload p (from BlockIter.Next)
// and returns how many it saw.
func (h *Reader) Cells(off int64, p []byte, fn func(key, value []byte) error) (uint64, error) {
	return h.scanData(p, off, fn)
}

func (h *Reader) scanData(p []byte, off int64, fn func(key, value []byte) error) (uint64, error) {
	var n uint64
	for pos := 0; pos < len(p); {
		if pos+8 > len(p) {
			return n, fmt.Errorf("hfile: data block at %d: truncated cell", off)
		}
		kl := int(int32(binary.BigEndian.Uint32(p[pos:])))
		vl := int(int32(binary.BigEndian.Uint32(p[pos+4:])))
		pos += 8
		if kl < 2 || vl < 0 || pos+kl+vl > len(p) {
			return n, fmt.Errorf("hfile: data block at %d: cell lengths %d/%d exceed the block", off, kl, vl)
		}
		key := p[pos : pos+kl]
		rl := int(binary.BigEndian.Uint16(key))
		if 2+rl > kl {
			return n, fmt.Errorf("hfile: data block at %d: row length %d exceeds key", off, rl)
		}
		if err := fn(key[2:2+rl], p[pos+kl:pos+kl+vl]); err != nil {
			return n, err
		}
		n++
		pos += kl + vl
		if h.mvcc {
			sz := vlongSize(p, pos)
			if sz <= 0 {
				return n, fmt.Errorf("hfile: data block at %d: bad MVCC field", off)
			}
			pos += sz
		}
	}
	return n, nil
}

// vlongSize is the encoded size of the Hadoop WritableUtils vlong at p[pos].
func vlongSize(p []byte, pos int) int {
	if pos >= len(p) {
		return -1
	}
	b := int8(p[pos])
	if b >= -112 {
		return 1
	}
	var n int
	if b < -120 {
		n = int(-119 - int(b))
	} else {
		n = int(-111 - int(b))
	}
	if pos+n > len(p) {
		return -1
	}
	return n
}

// ReadAll scans the whole file into key → value (later cells win on duplicate keys) and the
// keys in file order.
func (h *Reader) ReadAll() (map[string][]byte, []string, error) {
	out := map[string][]byte{}
	var keys []string
	err := h.Scan(func(k, v []byte) error {
		ks := string(k)
		if _, dup := out[ks]; !dup {
			keys = append(keys, ks)
		}
		out[ks] = append([]byte(nil), v...)
		return nil
	})
	return out, keys, err
}

// SortedFileInfoKeys lists the file-info keys, for display.
func (h *Reader) SortedFileInfoKeys() []string {
	keys := make([]string, 0, len(h.FileInfo))
	for k := range h.FileInfo {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
