package eventlog

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"

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

type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// maxRecordedLines bounds the per-part list of malformed lines kept as damage records.
const maxRecordedLines = 20

// blockSize is the unit of work for a parser: whole lines, a few MiB.
var blockSize = 1 << 20 // a variable for tests

// block is a run of whole lines read by the reader, parsed by one worker and
// applied by readPart in read order. Blocks are recycled, so memory stays at
// (workers+3) blocks plus the longest line.
type block struct {
	buf     []byte // lines; the last block of a part may end without a newline
	n       int
	base    int64 // decoded offset of buf[0]
	decoded int64 // decoded bytes read so far
	encoded int64 // encoded bytes read so far
	err     error // read error (not EOF) after this block
	last    bool
	skipped int64 // ≥ 0: a line of this many bytes, starting at base, was over the limit and dropped
	done    chan struct{}

	// Filled by the worker.
	batch    batch
	lines    int64     // lines, blank ones included
	nonBlank int64     // lines counted in FileInfo.Lines
	bad      []badLine // the first maxRecordedLines malformed lines
	badCount int64
	lastBad  int64 // 1-based line within the block
	cut      bool  // the final line has no newline and is malformed
}

type badLine struct {
	line   int64 // 1-based within the block
	offset int64 // decoded offset
	detail string
}

// parse runs in a worker.
func (b *block) parse(p *parser) {
	b.batch.reset()
	b.bad = b.bad[:0]
	b.lines, b.nonBlank, b.badCount, b.lastBad, b.cut = 0, 0, 0, 0, false
	if b.skipped >= 0 {
		return
	}
	data := b.buf[:b.n]
	for pos := 0; pos < len(data); {
		start := pos
		line := data[pos:]
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line = line[:i]
			pos += i + 1
		} else {
			pos = len(data)
		}
		b.lines++
		ok, blank := p.line(trimCR(line), &b.batch)
		if !blank {
			b.nonBlank++
		}
		if ok {
			continue
		}
		b.badCount++
		b.lastBad = b.lines
		b.cut = pos == len(data) && data[len(data)-1] != '\n'
		if len(b.bad) < maxRecordedLines {
			detail := "line is not valid JSON"
			if err := p.sc.Err(); err != nil {
				detail = err.Error()
			}
			b.bad = append(b.bad, badLine{b.lines, b.base + int64(start), detail})
		}
	}
}

// readBlocks splits the decoded stream into line-aligned blocks, in order, onto
// order (for the merger) and work (for the parsers).
func readBlocks(ctx context.Context, dec io.Reader, cr *countReader, free chan *block, order, work chan<- *block) {
	defer close(order)
	defer close(work)
	get := func() *block {
		select {
		case b := <-free:
			b.n, b.err, b.last, b.skipped = 0, nil, false, -1
			return b
		case <-ctx.Done():
			return nil
		}
	}
	var decoded int64
	send := func(b *block) bool {
		b.decoded, b.encoded = decoded, cr.n
		order <- b // never blocks: it holds every block
		select {
		case work <- b:
			return true
		case <-ctx.Done():
			return false
		}
	}
	read := func(p []byte) (int, error) {
		n, err := io.ReadFull(dec, p)
		decoded += int64(n)
		if errors.Is(err, io.ErrUnexpectedEOF) {
			err = io.EOF
		}
		return n, err
	}
	cur := get()
	if cur == nil {
		return
	}
	var base int64
	var eof error // io.EOF or a read error, met at the end of cur's data
	for {
		cur.base = base
		if eof == nil {
			m, err := read(cur.buf[cur.n:])
			cur.n += m
			eof = err
		}
		if eof != nil {
			cur.last = true
			if !errors.Is(eof, io.EOF) {
				cur.err = eof
			}
			send(cur)
			return
		}
		data := cur.buf[:cur.n]
		i := bytes.LastIndexByte(data, '\n')
		if i < 0 && cur.n <= maxLineBytes {
			// One line fills the buffer: grow it, up to the line limit.
			nb := make([]byte, min(2*len(cur.buf), maxLineBytes+1))
			copy(nb, data)
			cur.buf = nb
			continue
		}
		next := get()
		if next == nil {
			return
		}
		if i < 0 {
			// Over the limit: drop the line's bytes up to its newline.
			skipped := int64(cur.n)
			for {
				m, err := read(cur.buf[:blockSize])
				if j := bytes.IndexByte(cur.buf[:m], '\n'); j >= 0 {
					skipped += int64(j)
					next.n = copy(next.buf, cur.buf[j+1:m])
					eof = err
					break
				}
				skipped += int64(m)
				if err != nil {
					if !errors.Is(err, io.EOF) {
						cur.err = err
					}
					cur.last = true
					break
				}
			}
			cur.n, cur.skipped = 0, skipped
			if cur.last {
				free <- next
				send(cur)
				return
			}
			base += skipped + 1
		} else {
			rest := data[i+1:]
			if len(next.buf) < 2*len(rest) {
				next.buf = make([]byte, max(blockSize, 2*len(rest)))
			}
			next.n = copy(next.buf, rest)
			cur.n = i + 1
			base += int64(cur.n)
		}
		if !send(cur) {
			return
		}
		cur = next
	}
}

// mappedBlocks is readBlocks over a plain file mapped in memory: blocks are
// windows of data, cut after a newline, and nothing is copied. A line longer
// than a block is one block, or dropped as readBlocks drops it when over the
// limit, so that the blocks parse as readBlocks' do.
func mappedBlocks(ctx context.Context, data []byte, free chan *block, order, work chan<- *block) {
	defer close(order)
	defer close(work)
	for pos := 0; ; {
		var b *block
		select {
		case b = <-free:
		case <-ctx.Done():
			return
		}
		b.err, b.last, b.skipped, b.buf, b.n = nil, false, -1, nil, 0
		b.base = int64(pos)
		end := pos + blockSize
		if end >= len(data) {
			end, b.last = len(data), true
		} else if i := bytes.LastIndexByte(data[pos:end], '\n'); i >= 0 {
			end = pos + i + 1
		} else {
			n := bytes.IndexByte(data[pos:], '\n') // the line's length
			if n < 0 {
				n = len(data) - pos
			}
			end = min(pos+n+1, len(data))
			b.last = end == len(data) && data[end-1] != '\n'
			if n > maxLineBytes {
				b.skipped = int64(n)
			}
		}
		if b.skipped < 0 {
			b.buf, b.n = data[pos:end:end], end-pos
		}
		b.decoded, b.encoded = int64(end), int64(end)
		order <- b // never blocks: it holds every block
		select {
		case work <- b:
		case <-ctx.Done():
			return
		}
		if b.last {
			return
		}
		pos = end
	}
}

// faultCatcher turns a memory fault while reading a mapped file (the file
// shrank under the mapping: SIGBUS) into an error for the part, where the
// goroutines reading the mapping run with debug.SetPanicOnFault.
type faultCatcher struct {
	path   string
	cancel context.CancelFunc
	mu     sync.Mutex
	err    error
}

// catch is deferred by each goroutine reading the mapping; other panics go on.
func (f *faultCatcher) catch() {
	r := recover()
	if r == nil {
		return
	}
	e, ok := r.(interface {
		error
		Addr() uintptr
	})
	if !ok {
		panic(r)
	}
	f.mu.Lock()
	if f.err == nil {
		f.err = fmt.Errorf("%s: %w (did the file shrink while it was read?)", f.path, e)
	}
	f.mu.Unlock()
	f.cancel()
}

func (f *faultCatcher) fault() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.err
}

// readPart streams one part: a reader goroutine cuts the decoded stream into
// line-aligned blocks, GOMAXPROCS workers parse them into events, and this
// goroutine applies each block's events in read order, so the result is that
// of reading line by line.
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

	// A plain, complete local file is read through a mapping. Not a file
	// still being written: the mapping would end at today's size.
	var mapped []byte
	if f, ok := rc.(*os.File); ok && c == codec.Plain && !a.opt.noMmap && !strings.HasSuffix(p.Name, ".inprogress") {
		if m, err := mapFile(f); err == nil {
			mapped = m
			defer unmapFile(m)
		}
	}

	workers := runtime.GOMAXPROCS(0)
	if a.opt.workers > 0 {
		workers = a.opt.workers
	}
	nblocks := workers + 3
	free := make(chan *block, nblocks)
	for range nblocks {
		b := &block{done: make(chan struct{}, 1)}
		if mapped == nil {
			b.buf = make([]byte, blockSize)
		}
		free <- b
	}
	order := make(chan *block, nblocks)
	work := make(chan *block)
	rctx, cancel := context.WithCancel(ctx)
	faults := &faultCatcher{path: p.Path, cancel: cancel}
	var wg sync.WaitGroup
	defer func() {
		cancel()
		wg.Wait() // the decoder is closed, the file unmapped, only after the readers stopped
	}()
	// onMapping guards a goroutine that reads the mapping.
	onMapping := func(run func()) func() {
		if mapped == nil {
			return run
		}
		return func() {
			defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
			defer faults.catch()
			run()
		}
	}
	if mapped != nil {
		if a.opt.mapped != nil {
			a.opt.mapped(p.Path)
		}
		wg.Go(onMapping(func() { mappedBlocks(rctx, mapped, free, order, work) }))
	} else {
		wg.Go(func() { readBlocks(rctx, dec, cr, free, order, work) })
	}
	for range workers {
		wg.Go(onMapping(func() {
			var ps parser
			for b := range work {
				b.parse(&ps)
				b.done <- struct{}{}
			}
		}))
	}
	dropped := 0 // mapped bytes given back, a multiple of the page size

	var (
		lineNo     int64
		decoded    int64
		lastBad    int64
		readErr    error
		cutLine    bool
		nextReport int64 = 8 << 20
		startTotal       = a.totalDecoded
	)
	bad := func(off int64, detail string) {
		fi.MalformedLines++
		lastBad = lineNo
		if fi.MalformedLines <= maxRecordedLines {
			ln := lineNo
			a.damage = append(a.damage, DamageRecord{File: p.Name, Kind: "malformed-line", Line: &ln, DecodedOffset: off, Detail: detail})
		}
	}
	for b := range order {
		select {
		case <-b.done:
		case <-rctx.Done(): // cancelled, or a fault stopped a worker
			if err := faults.fault(); err != nil {
				return err
			}
			return ctx.Err()
		}
		if b.skipped >= 0 {
			lineNo++
			fi.Lines++
			bad(b.base, fmt.Sprintf("line of %d bytes exceeds the %d MiB line limit; skipped", b.skipped, maxLineBytes>>20))
			cutLine = b.last
		} else {
			a.st.apply(&b.batch)
			first := lineNo
			for _, l := range b.bad {
				lineNo = first + l.line
				bad(l.offset, l.detail)
			}
			fi.MalformedLines += b.badCount - int64(len(b.bad))
			if b.badCount > 0 {
				lastBad = first + b.lastBad
			}
			lineNo = first + b.lines
			fi.Lines += b.nonBlank
			cutLine = b.last && b.cut
		}
		decoded = b.decoded
		if b.err != nil {
			readErr = b.err
		}
		last, encoded := b.last, b.encoded // b is the reader's again once freed
		if mapped != nil {
			// Every block up to this one is parsed: its pages can go.
			if end := int(b.decoded) &^ (os.Getpagesize() - 1); end > dropped {
				dropPages(mapped[dropped:end])
				dropped = end
			}
			b.buf = nil
		} else if cap(b.buf) > blockSize {
			b.buf = make([]byte, blockSize) // drop a long line's buffer
		}
		b.batch.reset()
		free <- b
		a.totalDecoded = startTotal + decoded
		if a.opt.Progress != nil && (decoded >= nextReport || last) {
			nextReport = decoded + 8<<20
			a.opt.Progress(Progress{Part: idx + 1, Parts: total, File: p.Name, EncodedRead: encoded, EncodedTotal: p.Size,
				DecodedBytes: decoded, TotalDecoded: a.totalDecoded, Events: a.st.eventsRead})
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		return err // the reader stopped early
	}
	wg.Wait()
	// A fault in mappedBlocks ends order early, every block cut so far parsed: seen here.
	if err := faults.fault(); err != nil {
		return err
	}
	if mapped != nil {
		cr.n = int64(len(mapped))
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
