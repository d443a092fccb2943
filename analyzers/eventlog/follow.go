package eventlog

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/hudiscope/hudiscope/analyzers/config"
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
// followed under its new name. Line numbers in damage records count from the start of each
// poll's chunk.
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
	if _, isSHS, _ := source.ParseSHS(path); isSHS {
		return nil, fmt.Errorf("%s: following a History Server application is not supported; follow its event log file or directory", config.Redact("", path))
	}
	op := opt.Opener
	if op == nil {
		op = source.Local{}
	}
	display := opt.DisplayPath
	if display == "" {
		display = path
	}
	opt.workers = 1 // small appended chunks: one parser is enough
	return &Follower{path: strings.TrimPrefix(path, "file://"), opt: opt, op: op, a: &analysis{opt: opt, st: newState()},
		parts: map[string]*followPart{}, renamed: map[string]string{}, display: config.Redact("", display)}, nil
}

// Poll reads what was appended since the last poll; changed says whether the report would
// differ: events were added, or the application ended (the log was renamed, its status file
// lost `.inprogress`).
func (f *Follower) Poll(ctx context.Context) (changed bool, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	root := f.path
	log, err := source.Resolve(f.op, root)
	if err != nil && strings.HasSuffix(root, ".inprogress") {
		// The application ended and Spark renamed the log: follow it under its final name.
		if l2, err2 := source.Resolve(f.op, strings.TrimSuffix(root, ".inprogress")); err2 == nil {
			f.path, log, err = strings.TrimSuffix(root, ".inprogress"), l2, nil
			if f.opt.DisplayPath == "" {
				f.display = config.Redact("", f.path)
			}
		}
	}
	if err != nil {
		return false, err
	}
	ended := f.src.InProgress && !log.InProgress
	f.src = SourceInfo{Layout: string(log.Layout), InProgress: log.InProgress, Compacted: log.Compacted, Notes: append([]string{}, log.Notes...)}
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
		if err := f.readPart(ctx, fp, last && log.InProgress, i, len(log.Parts)); err != nil {
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
	b, err := io.ReadAll(io.LimitReader(rc, p.Size-fp.offset))
	if err != nil {
		return fmt.Errorf("%s: %w", p.Path, err)
	}
	// Only whole lines while the writer may be in the middle of one; all of it once the
	// application ended (a last line without a newline is read as one-shot reads it).
	n := len(b)
	if growing {
		n = bytes.LastIndexByte(b, '\n') + 1
	}
	if n == 0 {
		return nil
	}
	fp.offset += int64(n)
	return f.chunk(ctx, fp, b[:n], idx, total)
}

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
