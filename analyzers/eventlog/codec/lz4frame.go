package codec

import (
	"errors"
	"io"

	"github.com/pierrec/lz4/v4"
)

// lz4FrameMagic starts an LZ4 frame (the format of the `lz4` command-line tool), which is
// not what Spark writes (lz4-java's LZ4Block framing) but what a user gets after
// re-compressing a log by hand. Reading it beats telling them to decompress it first.
var lz4FrameMagic = []byte{0x04, 0x22, 0x4D, 0x18}

// LZ4FrameReader decodes one or more LZ4 frames; a cut or corrupt frame ends the stream
// after everything decodable and is recorded as damage.
type LZ4FrameReader struct {
	wholeStream
	zr *lz4.Reader
}

// NewLZ4FrameReader returns a reader over LZ4 frame data.
func NewLZ4FrameReader(r io.Reader) *LZ4FrameReader {
	z := &LZ4FrameReader{wholeStream: wholeStream{cr: countingReader{r: r}}}
	z.zr = lz4.NewReader(&z.cr)
	return z
}

func (z *LZ4FrameReader) Read(p []byte) (int, error) {
	return z.read(z.zr, p, func(err error) {
		switch {
		case errors.Is(err, io.EOF):
		case errors.Is(err, io.ErrUnexpectedEOF):
			z.add(KindTruncated, z.cr.n, z.decoded, "lz4 frame cut at end of input")
		case errors.Is(err, lz4.ErrInvalidBlockChecksum), errors.Is(err, lz4.ErrInvalidFrameChecksum),
			errors.Is(err, lz4.ErrInvalidHeaderChecksum):
			z.add(KindChecksum, -1, z.decoded, "lz4 frame: %v; rest of file skipped", err)
		default:
			z.add(KindCorrupt, -1, z.decoded, "lz4 frame: %v; rest of file skipped", err)
		}
	})
}
