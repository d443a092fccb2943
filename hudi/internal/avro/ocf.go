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
)

// Hudi writes one small Avro object container file per instant, each embedding the same large
// writer schema. Parsing that schema dominates decoding (about 0.7 ms a file), so we read the
// container framing here and reuse parsed schemas across files (Schema); the datum itself
// is decoded by the Avro library.

// ocfFile is the header and first block of a container file.
type ocfFile struct {
	schema string
	codec  string
	block  []byte // first block, decompressed
	count  int64  // records in the first block
}

func readOCF(b []byte) (*ocfFile, error) {
	if !IsOCF(b) {
		return nil, errors.New("not an Avro object container file")
	}
	r := &avroBytes{b: b, pos: 4}
	meta := map[string][]byte{}
	for {
		n, err := r.long()
		if err != nil {
			return nil, fmt.Errorf("header: %w", err)
		}
		if n == 0 {
			break
		}
		if n < 0 {
			n = -n
			if _, err := r.long(); err != nil { // block byte size, unused
				return nil, fmt.Errorf("header: %w", err)
			}
		}
		if n > 1<<16 {
			return nil, fmt.Errorf("header: %d metadata entries", n)
		}
		for i := int64(0); i < n; i++ {
			k, err := r.bytes()
			if err != nil {
				return nil, fmt.Errorf("header key: %w", err)
			}
			v, err := r.bytes()
			if err != nil {
				return nil, fmt.Errorf("header value: %w", err)
			}
			meta[string(k)] = v
		}
	}
	sync, err := r.fixed(16)
	if err != nil {
		return nil, fmt.Errorf("header sync marker: %w", err)
	}
	f := &ocfFile{schema: string(meta["avro.schema"]), codec: string(meta["avro.codec"])}
	if f.schema == "" {
		return nil, errors.New("header has no avro.schema")
	}
	if r.pos == len(b) {
		return f, nil // no blocks: no records
	}
	if f.count, err = r.long(); err != nil {
		return nil, fmt.Errorf("block count: %w", err)
	}
	size, err := r.long()
	if err != nil || size < 0 {
		return nil, fmt.Errorf("block size: %v", err)
	}
	raw, err := r.fixed(int(size))
	if err != nil {
		return nil, fmt.Errorf("block of %d bytes: %w", size, err)
	}
	if s, err := r.fixed(16); err != nil || !bytes.Equal(s, sync) {
		return nil, errors.New("block sync marker does not match the header")
	}
	switch f.codec {
	case "", "null":
		f.block = raw
	case "deflate":
		f.block, err = io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(raw)), 256<<20))
	case "snappy":
		if len(raw) < 4 {
			return nil, errors.New("snappy block too short")
		}
		f.block, err = snappy.Decode(nil, raw[:len(raw)-4])
	case "zstandard":
		var d *zstd.Decoder
		if d, err = zstd.NewReader(nil); err == nil {
			f.block, err = d.DecodeAll(raw, nil)
			d.Close()
		}
	default:
		return nil, fmt.Errorf("unsupported codec %q", f.codec)
	}
	if err != nil {
		return nil, fmt.Errorf("%s block: %w", f.codec, err)
	}
	return f, nil
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
