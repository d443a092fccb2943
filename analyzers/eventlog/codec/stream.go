package codec

import (
	"compress/gzip"
	"errors"
	"io"

	"github.com/klauspost/compress/zstd"
)

// countingReader counts the encoded bytes a decoder has pulled.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// wholeStream is what the decoders over a library stream (zstd, gzip, LZ4 frame) share: byte
// counts, and ending the stream at the library's first error.
type wholeStream struct {
	damages
	cr      countingReader
	decoded int64
	done    bool
}

// read reads dec into p. At dec's first error (io.EOF included) the stream ends: end records
// what the error means, the bytes read with it are returned, and every later read is io.EOF.
func (s *wholeStream) read(dec io.Reader, p []byte, end func(error)) (int, error) {
	if s.done {
		return 0, io.EOF
	}
	n, err := dec.Read(p)
	s.decoded += int64(n)
	if err == nil {
		return n, nil
	}
	s.done = true
	end(err)
	if n > 0 {
		return n, nil
	}
	return 0, io.EOF
}

// ZstdReader decodes concatenated zstd frames. A truncated last frame ends the
// stream after everything decodable and is recorded as damage.
type ZstdReader struct {
	wholeStream
	dec *zstd.Decoder
	err error
}

// NewZstdReader returns a reader over one or more zstd frames.
func NewZstdReader(r io.Reader) *ZstdReader {
	z := &ZstdReader{wholeStream: wholeStream{cr: countingReader{r: r}}}
	dec, err := zstd.NewReader(&z.cr, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
		zstd.WithDecoderMaxMemory(1<<30), zstd.WithDecoderMaxWindow(256<<20))
	if err != nil {
		z.done, z.err = true, err
		return z
	}
	z.dec = dec
	return z
}

func (z *ZstdReader) Read(p []byte) (int, error) {
	if z.err != nil {
		return 0, z.err
	}
	return z.read(z.dec, p, func(err error) {
		switch {
		case errors.Is(err, io.EOF):
		case errors.Is(err, io.ErrUnexpectedEOF):
			z.add(KindTruncated, z.cr.n, z.decoded, "zstd frame cut at end of input (writer still running or killed)")
		default:
			z.add(KindCorrupt, -1, z.decoded, "zstd: %v; rest of file skipped", err)
		}
		z.dec.Close()
	})
}

// Close releases the decoder.
func (z *ZstdReader) Close() error {
	if z.dec != nil {
		z.dec.Close()
	}
	return nil
}

// GzipReader decodes one or more gzip members; truncation and checksum errors become damage.
type GzipReader struct {
	wholeStream
	zr *gzip.Reader
}

// NewGzipReader returns a reader over gzip data.
func NewGzipReader(r io.Reader) *GzipReader {
	g := &GzipReader{wholeStream: wholeStream{cr: countingReader{r: r}}}
	zr, err := gzip.NewReader(&g.cr)
	if err != nil {
		g.done = true
		if !errors.Is(err, io.EOF) {
			g.add(KindCorrupt, 0, 0, "gzip header: %v", err)
		}
		return g
	}
	g.zr = zr
	return g
}

func (g *GzipReader) Read(p []byte) (int, error) {
	return g.read(g.zr, p, func(err error) {
		switch {
		case errors.Is(err, io.EOF):
		case errors.Is(err, io.ErrUnexpectedEOF):
			g.add(KindTruncated, g.cr.n, g.decoded, "gzip member cut at end of input")
		case errors.Is(err, gzip.ErrChecksum):
			g.add(KindChecksum, -1, g.decoded, "gzip CRC mismatch at end of member")
		default:
			g.add(KindCorrupt, -1, g.decoded, "gzip: %v; rest of file skipped", err)
		}
	})
}

// PlainReader passes bytes through.
type PlainReader struct {
	damages
	r io.Reader
}

func (p *PlainReader) Read(b []byte) (int, error) { return p.r.Read(b) }
