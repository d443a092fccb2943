package codec

import (
	"errors"
	"io"
)

// compress-lzf (Ning) chunk stream, what Spark's LZFCompressionCodec writes:
//
//	'Z' 'V' 0x00 len u16 BE data            (stored chunk)
//	'Z' 'V' 0x01 clen u16 BE dlen u16 BE data (LZF chunk)

// LZFReader decodes a compress-lzf stream.
type LZFReader struct {
	damages
	r       io.Reader
	src     []byte
	dst     []byte
	out     []byte
	off     int64
	decoded int64
	done    bool
	err     error
}

// NewLZFReader returns a reader over an LZF chunk stream.
func NewLZFReader(r io.Reader) *LZFReader { return &LZFReader{r: r} }

func (l *LZFReader) Read(p []byte) (int, error) {
	for len(l.out) == 0 {
		if l.done {
			if l.err != nil {
				return 0, l.err
			}
			return 0, io.EOF
		}
		l.next()
	}
	n := copy(p, l.out)
	l.out = l.out[n:]
	return n, nil
}

func (l *LZFReader) readFull(b []byte) (int, error) {
	n, err := io.ReadFull(l.r, b)
	l.off += int64(n)
	return n, err
}

func (l *LZFReader) truncated(start int64, what string, err error) {
	l.done = true
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		l.add(KindTruncated, start, l.decoded, "LZF stream cut inside %s", what)
		return
	}
	l.err = err
}

func (l *LZFReader) next() {
	start := l.off
	var h [5]byte
	n, err := l.readFull(h[:3])
	if err != nil {
		if errors.Is(err, io.EOF) && n == 0 {
			l.done = true
			return
		}
		l.truncated(start, "a chunk header", err)
		return
	}
	if h[0] != 'Z' || h[1] != 'V' || h[2] > 1 {
		l.add(KindCorrupt, start, l.decoded, "bad LZF chunk header % x; rest of file skipped", h[:3])
		l.done = true
		return
	}
	var clen, dlen int
	if h[2] == 0 {
		if _, err := l.readFull(h[3:5]); err != nil {
			l.truncated(start, "a chunk header", err)
			return
		}
		clen = int(h[3])<<8 | int(h[4])
		dlen = clen
	} else {
		var e [4]byte
		if _, err := l.readFull(e[:]); err != nil {
			l.truncated(start, "a chunk header", err)
			return
		}
		clen = int(e[0])<<8 | int(e[1])
		dlen = int(e[2])<<8 | int(e[3])
	}
	if cap(l.src) < clen {
		l.src = make([]byte, clen)
	}
	src := l.src[:clen]
	if _, err := l.readFull(src); err != nil {
		l.truncated(start, "a chunk body", err)
		return
	}
	if h[2] == 0 {
		l.decoded += int64(clen)
		l.out = src
		return
	}
	if cap(l.dst) < dlen {
		l.dst = make([]byte, dlen)
	}
	out, ok := lzfDecompress(src, l.dst[:dlen])
	if !ok {
		l.add(KindCorrupt, start, l.decoded, "LZF chunk does not decode; chunk skipped")
		return
	}
	l.decoded += int64(len(out))
	l.out = out
}

// lzfDecompress decodes one LZF block into dst (len(dst) = expected size).
func lzfDecompress(src, dst []byte) ([]byte, bool) {
	ip, op := 0, 0
	for ip < len(src) {
		ctrl := int(src[ip])
		ip++
		if ctrl < 32 { // literal run
			n := ctrl + 1
			if ip+n > len(src) || op+n > len(dst) {
				return nil, false
			}
			copy(dst[op:], src[ip:ip+n])
			ip += n
			op += n
			continue
		}
		n := ctrl >> 5
		if n == 7 {
			if ip >= len(src) {
				return nil, false
			}
			n += int(src[ip])
			ip++
		}
		if ip >= len(src) {
			return nil, false
		}
		ref := op - ((ctrl & 0x1f) << 8) - int(src[ip]) - 1
		ip++
		n += 2
		if ref < 0 || op+n > len(dst) {
			return nil, false
		}
		for i := 0; i < n; i++ { // overlapping copy, byte by byte
			dst[op] = dst[ref]
			op++
			ref++
		}
	}
	return dst[:op], op == len(dst)
}
