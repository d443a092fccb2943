package avro

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"

	"github.com/hudiscope/hudiscope/internal/units"
)

// Hudi writes one small Avro object container file per instant, each embedding the same large
// writer schema. Parsing that schema dominates decoding (about 0.7 ms a file), so we read the
// container framing here and reuse parsed schemas across files (Schema); the datum itself
// is decoded by the Avro library.

// ocfFile is the header and first block of a container file.
type ocfFile struct {
	schema []byte // aliases the input: looked up in the schema cache without a copy
	codec  string
	block  []byte // first block, decompressed
	count  int64  // records in the first block
}

func readOCF(b []byte) (ocfFile, error) {
	if !IsOCF(b) {
		return ocfFile{}, errors.New("not an Avro object container file")
	}
	r := &avroBytes{b: b, pos: 4}
	var schema, codec []byte
	for {
		n, err := r.long()
		if err != nil {
			return ocfFile{}, fmt.Errorf("header: %w", err)
		}
		if n == 0 {
			break
		}
		if n < 0 {
			n = -n
			if _, err := r.long(); err != nil { // block byte size, unused
				return ocfFile{}, fmt.Errorf("header: %w", err)
			}
		}
		if n > 1<<16 {
			return ocfFile{}, fmt.Errorf("header: %d metadata entries", n)
		}
		for i := int64(0); i < n; i++ {
			k, err := r.bytes()
			if err != nil {
				return ocfFile{}, fmt.Errorf("header key: %w", err)
			}
			v, err := r.bytes()
			if err != nil {
				return ocfFile{}, fmt.Errorf("header value: %w", err)
			}
			switch string(k) {
			case "avro.schema":
				schema = v
			case "avro.codec":
				codec = v
			}
		}
	}
	sync, err := r.fixed(16)
	if err != nil {
		return ocfFile{}, fmt.Errorf("header sync marker: %w", err)
	}
	f := ocfFile{schema: schema, codec: string(codec)} // a value: no allocation a file
	if len(f.schema) == 0 {
		return ocfFile{}, errors.New("header has no avro.schema")
	}
	if r.pos == len(b) {
		return f, nil // no blocks: no records
	}
	if f.count, err = r.long(); err != nil {
		return ocfFile{}, fmt.Errorf("block count: %w", err)
	}
	size, err := r.long()
	if err != nil {
		return ocfFile{}, fmt.Errorf("block size: %w", err)
	}
	raw, err := r.fixedLong(size)
	if err != nil {
		return ocfFile{}, fmt.Errorf("block of %d bytes: %w", size, err)
	}
	if s, err := r.fixed(16); err != nil || !bytes.Equal(s, sync) {
		return ocfFile{}, errors.New("block sync marker does not match the header")
	}
	if f.block, err = decompress(f.codec, raw, MaxBlockBytes); err != nil {
		return ocfFile{}, fmt.Errorf("%s block: %w", f.codec, err)
	}
	return f, nil
}

// MaxBlockBytes is the most one container block may decompress to. Only an instant file's
// first block is ever decoded, so it is also the ceiling on a file's decoded bytes. A block
// over it is an error wrapping ErrTooLarge, never an allocation of what the file claims.
var MaxBlockBytes int64 = 256 << 20

// ErrTooLarge marks content that would decode to more than a ceiling allows.
var ErrTooLarge = errors.New("over the decoding ceiling")

func tooLarge(what string, n, limit int64) error {
	if n < 0 {
		return fmt.Errorf("%s decompresses to more than %s: %w", what, units.BytesMessage(limit), ErrTooLarge)
	}
	return fmt.Errorf("%s decompresses to %s, more than %s: %w", what, units.BytesMessage(n), units.BytesMessage(limit), ErrTooLarge)
}

// decompress decodes one block with a codec Avro names, never producing more than limit bytes.
func decompress(codec string, raw []byte, limit int64) ([]byte, error) {
	switch codec {
	case "", "null":
		return raw, nil
	case "deflate":
		return decodeBounded("block", limit, func() (io.ReadCloser, error) {
			return flate.NewReader(bytes.NewReader(raw)), nil
		})
	case "snappy":
		if len(raw) < 4 {
			return nil, errors.New("snappy block too short")
		}
		raw = raw[:len(raw)-4] // big-endian CRC32 of the decoded bytes follows
		// The length in the snappy header is the writer's claim: check it before allocating.
		n, err := snappy.DecodedLen(raw)
		if err != nil {
			return nil, err
		}
		if int64(n) > limit {
			return nil, tooLarge("block", int64(n), limit)
		}
		// Snappy's densest op (a 3-byte copy of 64 bytes) expands under 22 times; a claim beyond
		// that is a lie that would still cost an allocation of its size.
		if int64(n) > 32*int64(len(raw))+64 {
			return nil, fmt.Errorf("snappy header claims %s from %s: corrupt", units.BytesMessage(int64(n)), units.BytesMessage(int64(len(raw))))
		}
		return snappy.Decode(nil, raw)
	case "zstandard":
		return decodeBounded("block", limit, func() (io.ReadCloser, error) {
			d, err := zstd.NewReader(bytes.NewReader(raw), zstd.WithDecoderConcurrency(1),
				zstd.WithDecoderLowmem(true), zstd.WithDecoderMaxMemory(uint64(limit)+1))
			if err != nil {
				return nil, err
			}
			return d.IOReadCloser(), nil
		})
	}
	return nil, fmt.Errorf("unsupported codec %q", codec)
}

// decodeBounded decodes a stream twice: first only counting (memory: the codec's window), then,
// when the count is within limit, into a buffer of exactly that size. A bomb thus costs CPU up
// to limit bytes of output but never the memory; an honest block costs one extra decode.
func decodeBounded(what string, limit int64, open func() (io.ReadCloser, error)) ([]byte, error) {
	r, err := open()
	if err != nil {
		return nil, err
	}
	n, err := io.Copy(io.Discard, io.LimitReader(r, limit+1))
	r.Close()
	if err != nil {
		return nil, err
	}
	if n > limit {
		return nil, tooLarge(what, -1, limit)
	}
	if r, err = open(); err != nil {
		return nil, err
	}
	defer r.Close()
	out := make([]byte, n)
	if _, err := io.ReadFull(r, out); err != nil {
		return nil, err
	}
	return out, nil
}

// avroBytes reads Avro binary primitives from a byte slice.
type avroBytes struct {
	b   []byte
	pos int
}

func (r *avroBytes) long() (int64, error) {
	v, n := binary.Uvarint(r.b[r.pos:])
	if n <= 0 {
		return 0, io.ErrUnexpectedEOF
	}
	r.pos += n
	return int64(v>>1) ^ -int64(v&1), nil
}

func (r *avroBytes) bytes() ([]byte, error) {
	n, err := r.long()
	if err != nil {
		return nil, err
	}
	return r.fixedLong(n)
}

// fixedLong checks a length read from the input against the bytes left before using it, so
// a hostile length is an error, never an allocation or a slice panic.
func (r *avroBytes) fixedLong(n int64) ([]byte, error) {
	if n < 0 {
		return nil, fmt.Errorf("negative length %d", n)
	}
	if left := int64(len(r.b) - r.pos); n > left {
		return nil, fmt.Errorf("length %d exceeds the %d bytes left: %w", n, left, io.ErrUnexpectedEOF)
	}
	return r.fixed(int(n))
}

func (r *avroBytes) fixed(n int) ([]byte, error) {
	if n < 0 || n > len(r.b)-r.pos {
		return nil, io.ErrUnexpectedEOF
	}
	out := r.b[r.pos : r.pos+n]
	r.pos += n
	return out, nil
}
