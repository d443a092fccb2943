package eventlog

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/hudiscope/hudiscope/analyzers/eventlog/codec"
	"github.com/hudiscope/hudiscope/analyzers/eventlog/source"
)

// Progress is reported while reading (from the reading goroutine).
type Progress struct {
	Part, Parts  int    // 1-based part being read, total parts
	File         string // part name
	EncodedRead  int64  // bytes of this part read from storage
	EncodedTotal int64  // size of this part (0 if unknown)
	DecodedBytes int64  // decoded bytes of this part so far
	TotalDecoded int64  // decoded bytes of all parts so far
	Events       int64  // events read so far (all parts)
}

const chunkSize = 1 << 20

type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

type chunk struct {
	b   []byte
	err error
}

// maxRecordedLines bounds the per-part list of malformed lines kept as damage records.
const maxRecordedLines = 20

// readPart streams one part through the line parser.
func (a *analysis) readPart(ctx context.Context, op source.Opener, p source.Part, idx, total int) error {
	rc, err := op.Open(p.Path)
	if err != nil {
		return err
	}
	defer rc.Close()
	cr := &countReader{r: rc}
	dec, c, _ := codec.Open(cr, p.Name)
	if z, ok := dec.(*codec.ZstdReader); ok {
		defer z.Close()
	}
	fi := FileInfo{Path: p.Path, Index: p.Index, Codec: string(c), CodecFromName: string(codec.FromName(p.Name))}

	// A reader goroutine decodes into a small ring of buffers so that
	// decompression overlaps with parsing; memory stays at a few MiB plus the
	// longest line.
	free := make(chan []byte, 3)
	for range 3 {
		free <- make([]byte, chunkSize)
	}
	chunks := make(chan chunk, 3)
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		defer close(chunks)
		for {
			var buf []byte
			select {
			case buf = <-free:
			case <-rctx.Done():
				return
			}
			n, err := io.ReadFull(dec, buf)
			if errors.Is(err, io.ErrUnexpectedEOF) {
				err = io.EOF
			}
			select {
			case chunks <- chunk{buf[:n], err}:
			case <-rctx.Done():
				return
			}
			if err != nil {
				return
			}
		}
	}()

	var (
		carry      []byte
		lineNo     int64
		lineStart  int64 // decoded offset of the current line's first byte
		decoded    int64
		lastBad    int64
		readErr    error
		nextReport int64 = 8 << 20
		startTotal       = a.totalDecoded
	)
	// A line longer than maxLineBytes is not buffered: its bytes are counted and dropped until
	// its newline, and it is reported as damage. Memory stays bounded by the limit, not by the
	// longest line someone (or a corrupted stream) wrote.
	var skipping, skipped int64
	oversized := func() {
		lineNo++
		fi.Lines++
		fi.MalformedLines++
		lastBad = lineNo
		if fi.MalformedLines <= maxRecordedLines {
			ln, off := lineNo, lineStart
			a.damage = append(a.damage, DamageRecord{File: p.Name, Kind: "malformed-line", Line: &ln, DecodedOffset: off,
				Detail: fmt.Sprintf("line of %d bytes exceeds the %d MiB line limit; skipped", skipped, maxLineBytes>>20)})
		}
		skipping, skipped = 0, 0
	}
	handle := func(line []byte) {
		lineNo++
		ok, blank := a.st.Line(line)
		if !blank {
			fi.Lines++
		}
		if !ok {
			fi.MalformedLines++
			lastBad = lineNo
			if fi.MalformedLines <= maxRecordedLines {
				ln, off := lineNo, lineStart
				detail := "line is not valid JSON"
				if err := a.st.sc.Err(); err != nil {
					detail = err.Error()
				}
				a.damage = append(a.damage, DamageRecord{File: p.Name, Kind: "malformed-line", Line: &ln, DecodedOffset: off, Detail: detail})
			}
		}
	}
	for ch := range chunks {
		data := ch.b
		base := decoded
		decoded += int64(len(data))
		pos := 0
		if skipping > 0 {
			i := bytes.IndexByte(data, '\n')
			if i < 0 {
				skipped += int64(len(data))
				pos = len(data)
			} else {
				skipped += int64(i)
				oversized()
				pos = i + 1
				lineStart = base + int64(pos)
			}
		}
		if len(carry) > 0 && pos < len(data) {
			i := bytes.IndexByte(data, '\n')
			if i < 0 && len(carry)+len(data) > maxLineBytes {
				skipping, skipped = 1, int64(len(carry)+len(data)) // stop buffering before the limit
				carry, pos = nil, len(data)
			} else if i < 0 {
				carry = append(carry, data...)
				pos = len(data)
			} else {
				carry = append(carry, data[:i]...)
				handle(trimCR(carry))
				carry = carry[:0]
				pos = i + 1
				lineStart = base + int64(pos)
			}
		}
		if len(carry) > maxLineBytes {
			skipping, skipped = 1, int64(len(carry))
			carry = nil
		}
		for pos < len(data) && skipping == 0 {
			i := bytes.IndexByte(data[pos:], '\n')
			if i < 0 {
				carry = append(carry, data[pos:]...)
				break
			}
			handle(trimCR(data[pos : pos+i]))
			pos += i + 1
			lineStart = base + int64(pos)
		}
		if cap(ch.b) == chunkSize {
			free <- ch.b[:cap(ch.b)]
		}
		if ch.err != nil && !errors.Is(ch.err, io.EOF) {
			readErr = ch.err
		}
		a.totalDecoded = startTotal + decoded
		if a.opt.Progress != nil && (decoded >= nextReport || ch.err != nil) {
			nextReport = decoded + 8<<20
			a.opt.Progress(Progress{Part: idx + 1, Parts: total, File: p.Name, EncodedRead: cr.n, EncodedTotal: p.Size,
				DecodedBytes: decoded, TotalDecoded: a.totalDecoded, Events: a.st.eventsRead})
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	cutLine := false
	if skipping > 0 {
		oversized()
		cutLine = true
	}
	if len(carry) > 0 {
		// The last line has no newline: complete JSON is used, a cut line is damage.
		before := fi.MalformedLines
		handle(trimCR(carry))
		cutLine = fi.MalformedLines > before
	}
	fi.EncodedBytes, fi.DecodedBytes = cr.n, decoded
	fi.Events = a.st.eventsRead - a.eventsBefore
	a.eventsBefore = a.st.eventsRead
	for _, d := range dec.Damages() {
		off := d.Offset
		rec := DamageRecord{File: p.Name, Kind: d.Kind, DecodedOffset: d.DecodedOffset, Detail: d.Detail}
		if off >= 0 {
			rec.Offset = &off
		}
		a.damage = append(a.damage, rec)
		a.warnings = append(a.warnings, fmt.Sprintf("%s: %s", p.Name, d.String()))
		if d.Kind == codec.KindTruncated {
			fi.Truncated = true
		}
	}
	if cutLine {
		fi.Truncated = true
	}
	if fi.MalformedLines > 0 {
		a.warnings = append(a.warnings, fmt.Sprintf("%d line(s) in %s could not be parsed as JSON and were skipped (last: line %d of %s). A truncated final line is expected for an application that was killed or is still running.",
			fi.MalformedLines, p.Name, lastBad, p.Name))
	}
	a.files = append(a.files, fi)
	if readErr != nil {
		return fmt.Errorf("%s: %w", p.Path, readErr)
	}
	return nil
}

func trimCR(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\r' {
		return b[:n-1]
	}
	return b
}

// maxLineBytes caps one buffered event line. Spark's largest events (SQL plans) are a few MB;
// a longer line is a corrupted stream or not an event log.
const maxLineBytes = 64 << 20
