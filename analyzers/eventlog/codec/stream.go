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

// ZstdReader decodes concatenated zstd frames. A truncated last frame ends the
// stream after everything decodable and is recorded as damage.
type ZstdReader struct {
	damages
	cr      countingReader
	dec     *zstd.Decoder
	decoded int64
	done    bool
	err     error
}

// NewZstdReader returns a reader over one or more zstd frames.
func NewZstdReader(r io.Reader) *ZstdReader {
	z := &ZstdReader{cr: countingReader{r: r}}
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
	if z.done {
		if z.err != nil {
			return 0, z.err
		}
		return 0, io.EOF
	}
	n, err := z.dec.Read(p)
	z.decoded += int64(n)
	if err != nil {
		z.done = true
		switch {
		case errors.Is(err, io.EOF):
		case errors.Is(err, io.ErrUnexpectedEOF):
			z.add(KindTruncated, z.cr.n, z.decoded, "zstd frame cut at end of input (writer still running or killed)")
		default:
			z.add(KindCorrupt, -1, z.decoded, "zstd: %v; rest of file skipped", err)
		}
		z.dec.Close()
		if n > 0 {
			return n, nil
		}
		return 0, io.EOF
	}
	return n, nil
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
	damages
	cr      countingReader
	zr      *gzip.Reader
	decoded int64
	done    bool
}

// NewGzipReader returns a reader over gzip data.
func NewGzipReader(r io.Reader) *GzipReader {
	g := &GzipReader{cr: countingReader{r: r}}
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
	if g.done {
		return 0, io.EOF
	}
	n, err := g.zr.Read(p)
	g.decoded += int64(n)
	if err != nil {
		g.done = true
		switch {
		case errors.Is(err, io.EOF):
		case errors.Is(err, io.ErrUnexpectedEOF):
			g.add(KindTruncated, g.cr.n, g.decoded, "gzip member cut at end of input")
		case errors.Is(err, gzip.ErrChecksum):
			g.add(KindChecksum, -1, g.decoded, "gzip CRC mismatch at end of member")
		default:
			g.add(KindCorrupt, -1, g.decoded, "gzip: %v; rest of file skipped", err)
		}
		if n > 0 {
			return n, nil
		}
		return 0, io.EOF
	}
	return n, nil
}

// PlainReader passes bytes through.
type PlainReader struct {
	damages
	r io.Reader
}

func (p *PlainReader) Read(b []byte) (int, error) { return p.r.Read(b) }
