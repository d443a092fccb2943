package eventlog

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/hudiscope/hudiscope/analyzers/eventlog/codec"
	"github.com/hudiscope/hudiscope/analyzers/eventlog/source"
)

// Follower analyses an event log that is still being written (a `.inprogress` file or a
// rolling eventlog_v2_* directory): each Poll reads only what was appended since the last one,
// complete lines only, and folds it into the same analysis state a one-shot Analyze builds, so
// the report after the application finished equals Analyze's on the whole log.
//
// Plain parts are tailed from their last offset. A compressed part is read once it is
// complete (a newer part exists, or the log is no longer in progress): a compressed stream
// cannot be decoded from the middle. A `.inprogress` file renamed when the application ends is
// followed under its new name.
//
// A History Server application (shs://) is followed by downloading its logs zip on each poll
// (the server serves a running application's in-progress log) and folding in, per part, only
// the bytes beyond what earlier polls consumed; once the server says the attempt completed,
// the last download is read whole and later polls fetch nothing.
type Follower struct {
	mu      sync.Mutex // Poll and Report may come from different goroutines, one at a time
	path    string
	opt     Options
	op      source.Opener
	a       *analysis
	parts   map[string]*followPart // by part name
	renamed map[string]string      // a part's earlier name → its name now
	order   []string
	src     SourceInfo
	display string

	shs       *source.SHS // set for shs:// paths
	client    *http.Client
	shsDone   bool // the application completed and its final log was read
	downloads int
	dlBytes   int64
}

type followPart struct {
	part   source.Part
	offset int64 // bytes consumed (complete lines)
	done   bool  // a compressed part read whole
	fi     FileInfo
	seen   bool // fi holds at least one chunk
	// lines read before the current chunk, and the last malformed line: damage records and
	// the malformed-lines warning are numbered over the whole part, as a one-shot read does.
	lines, lastBad int64
	chunked        bool // read in chunks (plain): its warning is written by Report
}

// NewFollower starts following path (local, or through opt.Opener). Nothing is read until Poll.
func NewFollower(path string, opt Options) (*Follower, error) {
	shs, isSHS, err := source.ParseSHS(path)
	if err != nil {
		return nil, err
	}
	opt.workers = 1 // small appended chunks: one parser is enough
	f := &Follower{path: strings.TrimPrefix(path, "file://"), opt: opt, op: opt.opener(), a: &analysis{opt: opt, st: newState()},
		parts: map[string]*followPart{}, renamed: map[string]string{}, display: opt.display(path)}
	if isSHS {
		f.shs, f.client = &shs, opt.HTTPClient
	}
	return f, nil
}

// Downloads is how many History Server zips the follower fetched, and their bytes.
func (f *Follower) Downloads() (n int, bytes int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.downloads, f.dlBytes
}

// Poll reads what was appended since the last poll; changed says whether the report would
// differ: events were added, or the application ended (the log was renamed, its status file
// lost `.inprogress`).
func (f *Follower) Poll(ctx context.Context) (changed bool, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.shs != nil {
		return f.pollSHS(ctx)
	}
	root := f.path
	log, err := source.Resolve(f.op, root)
	if err != nil && strings.HasSuffix(root, ".inprogress") {
		// The application ended and Spark renamed the log: follow it under its final name.
		if l2, err2 := source.Resolve(f.op, strings.TrimSuffix(root, ".inprogress")); err2 == nil {
			f.path, log, err = strings.TrimSuffix(root, ".inprogress"), l2, nil
			f.display = f.opt.display(f.path)
		}
	}
	if err != nil {
		return false, err
	}
	return f.fold(ctx, log, SourceInfo{}, false)
}

// pollSHS downloads the application's logs zip and folds in what it gained. The status is
// asked first: a download made after the server said "completed" holds the final log.
func (f *Follower) pollSHS(ctx context.Context) (bool, error) {
	if f.shsDone {
		return false, nil
	}
	if f.client == nil {
		f.client = source.Client(source.LimitsFrom(ctx))
	}
	completed, err := f.shs.Completed(ctx, f.client)
	if err != nil {
		return false, err
	}
	dl, err := f.shs.Fetch(ctx, f.client)
	if err != nil {
		return false, err
	}
	defer func() {
		dl.Close() // the temporary zip: each poll downloads afresh
		f.op = nil
	}()
	f.downloads++
	f.dlBytes += dl.Bytes
	f.op = dl.Opener
	log, err := source.Resolve(dl.Opener, dl.Root)
	if err != nil {
		return false, fmt.Errorf("history server %s: %w", f.shs.LogsURL(), err)
	}
	src := SourceInfo{HistoryServer: f.shs.LogsURL(), Notes: dl.Notes}
	// A killed application's log keeps its .inprogress name; once the server calls it
	// complete it is read whole, last partial line included, as a one-shot read does.
	grew, err := f.fold(ctx, log, src, completed)
	if err == nil && (completed || !log.InProgress) {
		f.shsDone = true
	}
	return grew, err
}

// fold reads what each part of log gained. src carries what the caller knows beyond the
// log (History Server URL, download notes); final: nothing grows any more.
func (f *Follower) fold(ctx context.Context, log *source.Log, src SourceInfo, final bool) (bool, error) {
	ended := f.src.InProgress && !log.InProgress
	src.Layout, src.InProgress, src.Compacted = string(log.Layout), log.InProgress, log.Compacted
	src.Notes = append(append([]string{}, src.Notes...), log.Notes...)
	f.src = src
	before := f.a.st.eventsRead
	for i, p := range log.Parts {
		key := strings.TrimSuffix(p.Name, ".inprogress")
		fp := f.parts[key]
		if fp == nil {
			fp = &followPart{}
			f.parts[key] = fp
			f.order = append(f.order, key)
		}
		if fp.part.Name != "" && fp.part.Name != p.Name {
			f.renamed[fp.part.Name] = p.Name
		}
		fp.part = p
		last := i == len(log.Parts)-1
		// Only the last part of a running application can still grow.
		if err := f.readPart(ctx, fp, last && log.InProgress && !final, i, len(log.Parts)); err != nil {
			return ended || f.a.st.eventsRead > before, err
		}
	}
	return ended || f.a.st.eventsRead > before, nil
}

// readPart folds what part fp gained into the analysis.
func (f *Follower) readPart(ctx context.Context, fp *followPart, growing bool, idx, total int) error {
	p := fp.part
	if fp.done || p.Size <= fp.offset {
		return nil
	}
	if c := codec.FromName(strings.TrimSuffix(p.Name, ".inprogress")); c != codec.Plain {
		if growing {
			return nil // read once complete
		}
		fp.done = true
		return f.chunk(ctx, fp, nil, idx, total)
	}
	rc, err := f.op.Open(p.Path)
	if err != nil {
		return err
	}
	defer rc.Close()
	if s, ok := rc.(io.Seeker); ok {
		if _, err := s.Seek(fp.offset, io.SeekStart); err != nil {
			return fmt.Errorf("%s: seek to %d: %w", p.Path, fp.offset, err)
		}
	} else if _, err := io.CopyN(io.Discard, rc, fp.offset); err != nil {
		return fmt.Errorf("%s: skip to %d: %w", p.Path, fp.offset, err)
	}
	// Read in windows of followWindow bytes, so a multi-gigabyte log seen for the first time
	// (a watch started on a long-running application) is never held whole. A window's
	// unfinished last line is carried into the next, moved to the front of the one buffer
	// (chunk reads a window through a reader and keeps none of it). The first window is the
	// largest: what is left of the part only shrinks.
	var buf []byte
	carry := 0
	for fp.offset+int64(carry) < p.Size {
		want := min(p.Size-fp.offset-int64(carry), int64(followWindow-carry))
		if need := carry + int(want); len(buf) < need {
			nb := make([]byte, need)
			copy(nb, buf[:carry])
			buf = nb
		}
		b := buf[:carry+int(want)]
		m, err := io.ReadFull(rc, b[carry:])
		b = b[:carry+m]
		short := err == io.EOF || err == io.ErrUnexpectedEOF // the file is shorter than listed
		if err != nil && !short {
			return fmt.Errorf("%s: %w", p.Path, err)
		}
		end := short || fp.offset+int64(len(b)) >= p.Size
		// Only whole lines while the writer may be in the middle of one; all of it once the
		// application ended (a last line without a newline is read as one-shot reads it).
		n := len(b)
		if growing || !end {
			n = bytes.LastIndexByte(b, '\n') + 1
			if n == 0 && len(b) >= followWindow {
				n = len(b) // a line longer than the window: read as damage, not held forever
			}
		}
		if n > 0 {
			fp.offset += int64(n)
			if err := f.chunk(ctx, fp, b[:n], idx, total); err != nil {
				return err
			}
		}
		if end {
			return nil
		}
		carry = copy(buf, b[n:])
	}
	return nil
}

// followWindow is the most of a part one read holds (a variable for tests).
var followWindow = 64 << 20

// chunk runs the one-shot part reader over data (nil: the whole part) and merges its file
// record into the part's.
func (f *Follower) chunk(ctx context.Context, fp *followPart, data []byte, idx, total int) error {
	op := f.op
	start := fp.offset - int64(len(data))
	if data != nil {
		op = chunkOpener{Opener: f.op, data: data}
		fp.chunked = true
	}
	n, nd, nw := len(f.a.files), len(f.a.damage), len(f.a.warnings)
	err := f.a.readPart(ctx, op, fp.part, idx, total)
	if data != nil {
		for i := nd; i < len(f.a.damage); i++ {
			d := &f.a.damage[i]
			d.DecodedOffset += start
			if d.Line != nil {
				ln := *d.Line + fp.lines
				d.Line = &ln
				fp.lastBad = max(fp.lastBad, ln)
			}
		}
		// The chunk's malformed-lines sentence is replaced by one for the whole part.
		f.a.warnings = f.a.warnings[:nw]
		fp.lines += int64(bytes.Count(data, []byte{'\n'}))
		if len(data) > 0 && data[len(data)-1] != '\n' {
			fp.lines++
		}
	}
	for _, fi := range f.a.files[n:] {
		if !fp.seen {
			fp.fi, fp.seen = fi, true
			continue
		}
		fp.fi.Lines += fi.Lines
		fp.fi.Events += fi.Events
		fp.fi.MalformedLines += fi.MalformedLines
		fp.fi.EncodedBytes += fi.EncodedBytes
		fp.fi.DecodedBytes += fi.DecodedBytes
		fp.fi.Truncated = fi.Truncated
	}
	f.a.files = f.a.files[:n]
	return err
}

// Report is the analysis of everything read so far (nil before any event).
func (f *Follower) Report() *Report {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.a.st.eventsRead == 0 {
		return nil
	}
	a := *f.a
	a.files = nil
	a.warnings = append([]string(nil), f.a.warnings...)
	a.damage = append([]DamageRecord(nil), f.a.damage...)
	for i := range a.damage {
		now := a.damage[i].File
		for range len(f.renamed) { // bounded: names could be reused in a cycle
			next, ok := f.renamed[now]
			if !ok {
				break
			}
			now = next
		}
		a.damage[i].File = now
	}
	for _, k := range f.order {
		if fp := f.parts[k]; fp.seen {
			fi := fp.fi
			fi.Path = fp.part.Path
			a.files = append(a.files, fi)
			if fp.chunked && fi.MalformedLines > 0 {
				name := fp.part.Name
				a.warnings = append(a.warnings, fmt.Sprintf("%d line(s) in %s could not be parsed as JSON and were skipped (last: line %d of %s). A truncated final line is expected for an application that was killed or is still running.",
					fi.MalformedLines, name, fp.lastBad, name))
			}
		}
	}
	r := a.build(f.display)
	r.Hudiscope.Source = f.src
	return r
}

// chunkOpener serves one appended chunk as the part's content.
type chunkOpener struct {
	source.Opener
	data []byte
}

func (c chunkOpener) Open(string) (io.ReadCloser, error) {
	return io.NopCloser(bytes.NewReader(c.data)), nil
}
