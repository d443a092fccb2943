package codec

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"

	"github.com/pierrec/lz4/v4"
)

// lz4-java LZ4BlockOutputStream layout (what Spark's LZ4CompressionCodec writes):
//
//	"LZ4Block" | token (method|level) | clen int32 LE | dlen int32 LE | checksum int32 LE | payload
//
// method 0x10 = stored, 0x20 = LZ4 block; checksum = XXH32(decoded, 0x9747B28C) & 0x0FFFFFFF.
// A header with both lengths zero ends one stream; another stream may follow.
var lz4BlockMagic = []byte("LZ4Block")

const (
	lz4HeaderLen    = 21
	lz4MethodRaw    = 0x10
	lz4MethodLZ4    = 0x20
	lz4ChecksumSeed = 0x9747B28C
	lz4MaxBlock     = 32 << 20 // lz4-java caps blocks at 32 MiB
)

// LZ4BlockReader decodes an lz4-java LZ4Block stream.
type LZ4BlockReader struct {
	damages
	r        io.Reader
	hdr      [lz4HeaderLen]byte
	src, dst []byte
	out      []byte // undelivered decoded bytes
	off      int64  // encoded bytes consumed
	decoded  int64  // decoded bytes produced
	ended    bool   // last header was an end mark
	done     bool
	err      error
	blocks   int
	endMarks int
}

// NewLZ4BlockReader returns a reader over an LZ4Block stream.
func NewLZ4BlockReader(r io.Reader) *LZ4BlockReader { return &LZ4BlockReader{r: r} }

// Blocks returns the number of data blocks decoded so far and end marks seen.
func (z *LZ4BlockReader) Blocks() (blocks, endMarks int) { return z.blocks, z.endMarks }

func (z *LZ4BlockReader) Read(p []byte) (int, error) {
	for len(z.out) == 0 {
		if z.done {
			if z.err != nil {
				return 0, z.err
			}
			return 0, io.EOF
		}
		z.next()
	}
	n := copy(p, z.out)
	z.out = z.out[n:]
	return n, nil
}

func (z *LZ4BlockReader) stop(err error) { z.done, z.err = true, err }

// next decodes one block into z.out (possibly nothing) or ends the stream.
func (z *LZ4BlockReader) next() {
	start := z.off
	n, err := io.ReadFull(z.r, z.hdr[:])
	z.off += int64(n)
	if err != nil {
		if errors.Is(err, io.EOF) && n == 0 {
			if !z.ended && z.blocks+z.endMarks > 0 {
				z.add(KindTruncated, start, z.decoded, "LZ4Block stream ends without its end mark (writer still running or killed)")
			} else if z.blocks+z.endMarks == 0 {
				// empty input: nothing to decode, nothing damaged
			}
			z.stop(nil)
			return
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			z.add(KindTruncated, start, z.decoded, "LZ4Block header cut after %d of %d bytes", n, lz4HeaderLen)
			z.stop(nil)
			return
		}
		z.stop(err)
		return
	}
	if !bytes.Equal(z.hdr[:8], lz4BlockMagic) {
		z.add(KindCorrupt, start, z.decoded, "bad LZ4Block magic %q; rest of file skipped", z.hdr[:8])
		z.stop(nil)
		return
	}
	token := z.hdr[8]
	method, level := token&0xF0, int(token&0x0F)
	clen := int64(int32(binary.LittleEndian.Uint32(z.hdr[9:])))
	dlen := int64(int32(binary.LittleEndian.Uint32(z.hdr[13:])))
	sum := binary.LittleEndian.Uint32(z.hdr[17:])
	maxD := int64(1) << (10 + level)
	if (method != lz4MethodRaw && method != lz4MethodLZ4) || clen < 0 || dlen < 0 || dlen > maxD || dlen > lz4MaxBlock ||
		clen > lz4MaxBlock+lz4MaxBlock/255+16 || (clen == 0) != (dlen == 0) || (method == lz4MethodRaw && clen != dlen) {
		z.add(KindCorrupt, start, z.decoded, "invalid LZ4Block header (token 0x%02x, lengths %d/%d); rest of file skipped", token, clen, dlen)
		z.stop(nil)
		return
	}
	if dlen == 0 {
		z.ended = true
		z.endMarks++
		return
	}
	z.ended = false
	if cap(z.src) < int(clen) {
		z.src = make([]byte, clen)
	}
	src := z.src[:clen]
	n, err = io.ReadFull(z.r, src)
	z.off += int64(n)
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			z.add(KindTruncated, start, z.decoded, "LZ4Block block cut after %d of %d payload bytes", n, clen)
			z.stop(nil)
			return
		}
		z.stop(err)
		return
	}
	var data []byte
	if method == lz4MethodRaw {
		data = src
	} else {
		if cap(z.dst) < int(dlen) {
			z.dst = make([]byte, dlen)
		}
		dst := z.dst[:dlen]
		m, derr := lz4.UncompressBlock(src, dst)
		if derr != nil || int64(m) != dlen {
			z.add(KindCorrupt, start, z.decoded, "LZ4 block does not decode (%v, %d of %d bytes); block skipped", derr, m, dlen)
			return
		}
		data = dst
	}
	if got := xxh32(data, lz4ChecksumSeed) & 0x0FFFFFFF; got != sum {
		z.add(KindChecksum, start, z.decoded, "LZ4Block checksum mismatch (stored 0x%08x, computed 0x%08x); block skipped", sum, got)
		return
	}
	z.blocks++
	z.decoded += int64(len(data))
	z.out = data
}
