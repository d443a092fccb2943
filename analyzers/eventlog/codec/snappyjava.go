package codec

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"

	"github.com/klauspost/compress/snappy"
)

// snappy-java SnappyOutputStream layout (Spark's SnappyCompressionCodec):
//
//	"\x82SNAPPY\x00" | version int32 BE | min-compatible int32 BE | { clen int32 BE | raw snappy block }*
//
// A second header may appear where a chunk length is expected (concatenated streams).
var snappyJavaMagic = []byte("\x82SNAPPY\x00")

const (
	snappyHeaderLen = 16
	snappyMaxChunk  = 64 << 20
)

// SnappyJavaReader decodes a snappy-java (xerial) stream.
type SnappyJavaReader struct {
	damages
	r       io.Reader
	buf     []byte
	dst     []byte
	out     []byte
	off     int64
	decoded int64
	started bool
	done    bool
	err     error
	chunks  int
}

// NewSnappyJavaReader returns a reader over a snappy-java stream.
func NewSnappyJavaReader(r io.Reader) *SnappyJavaReader { return &SnappyJavaReader{r: r} }

// Chunks returns the number of chunks decoded so far.
func (s *SnappyJavaReader) Chunks() int { return s.chunks }

func (s *SnappyJavaReader) Read(p []byte) (int, error) {
	for len(s.out) == 0 {
		if s.done {
			if s.err != nil {
				return 0, s.err
			}
			return 0, io.EOF
		}
		s.next()
	}
	n := copy(p, s.out)
	s.out = s.out[n:]
	return n, nil
}

func (s *SnappyJavaReader) stop(err error) { s.done, s.err = true, err }

func (s *SnappyJavaReader) readFull(b []byte) (int, error) {
	n, err := io.ReadFull(s.r, b)
	s.off += int64(n)
	return n, err
}

func (s *SnappyJavaReader) next() {
	start := s.off
	var lenb [4]byte
	n, err := s.readFull(lenb[:])
	if err != nil {
		if errors.Is(err, io.EOF) && n == 0 {
			s.stop(nil)
			return
		}
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			s.add(KindTruncated, start, s.decoded, "snappy-java stream cut inside a chunk length (%d of 4 bytes)", n)
			s.stop(nil)
			return
		}
		s.stop(err)
		return
	}
	if lenb[0] == snappyJavaMagic[0] {
		// A (possibly repeated) stream header.
		var rest [snappyHeaderLen - 4]byte
		m, err := s.readFull(rest[:])
		if err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				s.add(KindTruncated, start, s.decoded, "snappy-java header cut after %d of %d bytes", 4+m, snappyHeaderLen)
				s.stop(nil)
				return
			}
			s.stop(err)
			return
		}
		hdr := append(lenb[:], rest[:]...)
		if !bytes.Equal(hdr[:8], snappyJavaMagic) {
			s.add(KindCorrupt, start, s.decoded, "bad snappy-java header %q; rest of file skipped", hdr[:8])
			s.stop(nil)
			return
		}
		s.started = true
		return
	}
	if !s.started {
		s.add(KindCorrupt, start, s.decoded, "missing snappy-java header; rest of file skipped")
		s.stop(nil)
		return
	}
	clen := int64(int32(binary.BigEndian.Uint32(lenb[:])))
	if clen < 0 || clen > snappyMaxChunk {
		s.add(KindCorrupt, start, s.decoded, "invalid snappy-java chunk length %d; rest of file skipped", clen)
		s.stop(nil)
		return
	}
	if clen == 0 {
		return
	}
	if cap(s.buf) < int(clen) {
		s.buf = make([]byte, clen)
	}
	src := s.buf[:clen]
	n, err = s.readFull(src)
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			s.add(KindTruncated, start, s.decoded, "snappy-java chunk cut after %d of %d bytes", n, clen)
			s.stop(nil)
			return
		}
		s.stop(err)
		return
	}
	dlen, err := snappy.DecodedLen(src)
	if err != nil || dlen > snappyMaxChunk {
		s.add(KindCorrupt, start, s.decoded, "snappy chunk of %d bytes has a bad length header; chunk skipped", clen)
		return
	}
	if cap(s.dst) < dlen {
		s.dst = make([]byte, dlen)
	}
	out, err := snappy.Decode(s.dst[:dlen], src)
	if err != nil {
		s.add(KindCorrupt, start, s.decoded, "snappy chunk does not decode (%v); chunk skipped", err)
		return
	}
	s.chunks++
	s.decoded += int64(len(out))
	s.out = out
}
