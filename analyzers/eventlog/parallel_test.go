package eventlog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/eventlog/codec"
	"github.com/hudiscope/hudiscope/analyzers/eventlog/source"
)

const serialChunk = 1 << 20

type chunk struct {
	b   []byte
	err error
}

// readPartSerial is the single-threaded reader readPart replaced: the
// reference its results must match byte for byte.
func (a *analysis) readPartSerial(ctx context.Context, op source.Opener, p source.Part, idx, total int) error {
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
		free <- make([]byte, serialChunk)
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
				if err := a.st.p.sc.Err(); err != nil {
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
		if cap(ch.b) == serialChunk {
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

// eventLogPaths lists every event log (and every part of a rolling one) in
// the shared logs and our fixtures; absent directories are skipped.
func eventLogPaths(t *testing.T) []string {
	var paths []string
	root := repoRoot(t)
	shared := filepath.Join(root, "..", "shared", "testdata", "eventlogs")
	filepath.WalkDir(shared, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == shared {
			return nil
		}
		if !d.IsDir() && !strings.HasSuffix(p, ".md") || strings.HasPrefix(d.Name(), "eventlog_v2_") || d.Name() == "db_sim_eventlog" {
			paths = append(paths, p)
		}
		return nil
	})
	for _, dir := range []string{"fixtures", "bad"} {
		ms, _ := filepath.Glob(filepath.Join(root, "testdata", dir, "*", "*"))
		for _, p := range ms {
			n := filepath.Base(p)
			if strings.HasPrefix(n, "local-") || strings.HasPrefix(n, "application_") || strings.HasPrefix(n, "eventlog_v2_") {
				paths = append(paths, p)
			}
		}
	}
	return paths
}

func reportJSON(t *testing.T, p string, opt Options) string {
	t.Helper()
	opt.DisplayPath = "x"
	r, err := Analyze(context.Background(), p, opt)
	if err != nil {
		return "error: " + err.Error()
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func setBlockSize(t *testing.T, n int) {
	old := blockSize
	blockSize = n
	t.Cleanup(func() { blockSize = old })
}

// The parallel reader gives byte-identical JSON to the single-threaded one,
// whatever the number of workers and the block size.
func TestParallelMatchesSerial(t *testing.T) {
	paths := eventLogPaths(t)
	if len(paths) == 0 {
		t.Skip("no event logs present")
	}
	configs := []struct{ workers, block int }{{0, 4 << 20}, {1, 4 << 20}, {3, 64 << 10}, {2, 1000}}
	if raceEnabled {
		// A sample: every fourth log, three workers over small blocks (goroutines meeting often).
		var sample []string
		for i := 0; i < len(paths); i += 4 {
			sample = append(sample, paths[i])
		}
		paths, configs = sample, configs[2:3]
	}
	for _, p := range paths {
		name, _ := filepath.Rel(filepath.Join(repoRoot(t), ".."), p)
		t.Run(name, func(t *testing.T) {
			want := reportJSON(t, p, Options{readPart: (*analysis).readPartSerial})
			for _, c := range configs {
				setBlockSize(t, c.block)
				for _, noMmap := range []bool{false, true} {
					if got := reportJSON(t, p, Options{workers: c.workers, noMmap: noMmap}); got != want {
						t.Errorf("workers %d block %d noMmap %v: differs from serial\n got %.300s\nwant %.300s", c.workers, c.block, noMmap, got, want)
					}
				}
			}
		})
	}
}

// A real Spark 3 log damaged the ways logs get damaged: garbage lines, a byte
// changed to a quote, backslash or bracket inside task metrics, lines cut
// short, CRLF endings and a cut last line. The parallel reader, through the
// mapping and through read(2), matches the serial one on each.
func TestParallelDamagedRealLog(t *testing.T) {
	src := filepath.Join(sharedLogs(t), "spark-codecs-reencoded", "application_1603128018386_7846.lz4")
	f, err := os.Open(src)
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	r, _, _ := codec.Open(f, src)
	whole, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(whole, []byte("\n"))[:2500]
	var out bytes.Buffer
	seed := uint32(7)
	rnd := func(n int) int { // a fixed sequence (xorshift), the same every run
		seed ^= seed << 13
		seed ^= seed >> 17
		seed ^= seed << 5
		return int(seed % uint32(n))
	}
	for i, l := range lines {
		l = append([]byte(nil), l...)
		switch k := rnd(100); {
		case k < 2 && len(l) > 10:
			l[rnd(len(l))] = "\"\\{}[]y"[rnd(7)]
		case k < 3:
			l = l[:rnd(len(l)+1)]
		case k < 4:
			out.WriteString("garbage, not JSON\n")
		}
		out.Write(l)
		if i%3 == 0 {
			out.WriteByte('\r')
		}
		out.WriteByte('\n')
	}
	body := out.Bytes()
	dir := t.TempDir()
	for name, b := range map[string][]byte{"damaged": body, "damaged-cut": body[:len(body)-1234]} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		want := reportJSON(t, p, Options{readPart: (*analysis).readPartSerial})
		if !strings.Contains(want, `"malformedLines":`) || strings.Contains(want, `"malformedLines":0`) {
			t.Fatalf("%s: the damage was not seen: %.500s", name, want)
		}
		for _, block := range []int{4096, 1 << 20} {
			setBlockSize(t, block)
			for _, noMmap := range []bool{false, true} {
				maps := 0
				if got := reportJSON(t, p, Options{workers: 2, noMmap: noMmap, mapped: func(string) { maps++ }}); got != want {
					t.Errorf("%s block %d noMmap %v: differs from serial\n got %.300s\nwant %.300s", name, block, noMmap, got, want)
				}
				if wantMaps := map[bool]int{false: 1, true: 0}[noMmap]; maps != wantMaps {
					t.Errorf("%s block %d noMmap %v: mapped %d times, want %d", name, block, noMmap, maps, wantMaps)
				}
			}
		}
	}
}

// Synthetic edge cases: blank lines, CRLF, malformed lines (more than are
// recorded), lines across blocks, and a last line with or without newline.
func TestParallelEdgeCases(t *testing.T) {
	ev := func(s string) string { return s + "\n" }
	app := ev(`{"Event":"SparkListenerApplicationStart","App Name":"a","Timestamp":1000}`)
	job := ev(`{"Event":"SparkListenerJobStart","Job ID":1,"Submission Time":1001,"Stage IDs":[0],"Properties":{"spark.job.description":"d"}}`)
	sub := ev(`{"Event":"SparkListenerStageSubmitted","Stage Info":{"Stage ID":0,"Stage Attempt ID":0,"Stage Name":"s","Number of Tasks":3,"Submission Time":1002}}`)
	task := func(i int) string {
		return ev(fmt.Sprintf(`{"Event":"SparkListenerTaskEnd","Stage ID":0,"Task Info":{"Launch Time":%d,"Finish Time":%d},"Task Metrics":{"Executor Run Time":%d}}`, 1002+i, 1010+3*i, i))
	}
	var tasks strings.Builder
	for i := range 200 {
		tasks.WriteString(task(i))
		if i%7 == 0 {
			tasks.WriteString("\n  \r\n")
		}
		if i%11 == 0 {
			tasks.WriteString(`{"Event":"SparkListenerTaskEnd",` + "\r\n")
		}
	}
	end := `{"Event":"SparkListenerApplicationEnd","Timestamp":9000}`
	dir := t.TempDir()
	cases := map[string]string{
		"complete":  app + job + sub + tasks.String() + ev(end),
		"no-eol":    app + job + sub + tasks.String() + end,
		"cut":       app + job + sub + tasks.String() + end[:20],
		"crlf-cut":  app + job + sub + tasks.String() + end + "\r",
		"blank-end": app + "\n\n",
		"only-bad":  "x\n",
		"empty":     "",
	}
	for name, body := range cases {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			want := reportJSON(t, p, Options{readPart: (*analysis).readPartSerial})
			for _, block := range []int{1, 7, 100, 4096, 4 << 20} {
				setBlockSize(t, block)
				for _, w := range []int{1, 2, 5} {
					for _, noMmap := range []bool{false, true} {
						maps := 0
						got := reportJSON(t, p, Options{workers: w, noMmap: noMmap, mapped: func(string) { maps++ }})
						if got != want {
							t.Fatalf("block %d workers %d noMmap %v:\n got %s\nwant %s", block, w, noMmap, got, want)
						}
						wantMaps := 1
						if noMmap || body == "" { // an empty file is not mapped
							wantMaps = 0
						}
						if maps != wantMaps {
							t.Fatalf("block %d workers %d noMmap %v: mapped %d times, want %d", block, w, noMmap, maps, wantMaps)
						}
					}
				}
			}
		})
	}
}

// A line over the limit is dropped as damage, with its line number and offset,
// and reading goes on after it.
func TestParallelOversizedLine(t *testing.T) {
	good := `{"Event":"SparkListenerApplicationStart","App Name":"a","Timestamp":1000}` + "\n"
	long := `{"Event":"SparkListenerLogStart","x":"` + strings.Repeat("a", maxLineBytes) + `"}`
	for _, tc := range []struct {
		name, body string
		cut        bool
	}{
		{"middle", good + long + "\n" + good, false},
		{"end", good + long, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "log")
			if err := os.WriteFile(p, []byte(tc.body), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, noMmap := range []bool{false, true} {
				r, err := Analyze(context.Background(), p, Options{workers: 2, noMmap: noMmap})
				if err != nil {
					t.Fatal(err)
				}
				f := r.Hudiscope.Files[0]
				d := r.Hudiscope.Damage
				wantEvents := int64(2)
				if tc.cut {
					wantEvents = 1
				}
				if f.MalformedLines != 1 || f.Events != wantEvents || f.Truncated != tc.cut || len(d) != 1 || *d[0].Line != 2 ||
					d[0].DecodedOffset != int64(len(good)) || !strings.Contains(d[0].Detail, fmt.Sprintf("line of %d bytes", len(long))) ||
					f.DecodedBytes != int64(len(tc.body)) || f.EncodedBytes != int64(len(tc.body)) {
					t.Errorf("noMmap %v: file %+v damage %+v", noMmap, f, d)
				}
			}
		})
	}
}

// Cancelling stops the reader, the workers and the merge.
func TestParallelCancel(t *testing.T) {
	var b bytes.Buffer
	for range 100000 {
		b.WriteString(`{"Event":"SparkListenerTaskEnd","Stage ID":0,"Task Info":{"Launch Time":1,"Finish Time":2}}` + "\n")
	}
	p := filepath.Join(t.TempDir(), "log")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	setBlockSize(t, 4096)
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	_, err := Analyze(ctx, p, Options{Progress: func(Progress) {
		if calls++; calls == 1 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
}

// Lines longer than a block, and a line over the limit, through the mapping
// and through read(2), give what the serial reader gives.
func TestMappedLongLines(t *testing.T) {
	setBlockSize(t, 64)
	app := `{"Event":"SparkListenerApplicationStart","App Name":"a","Timestamp":1000}`
	long := `{"Event":"SparkListenerLogStart","Spark Version":"` + strings.Repeat("v", 200) + `"}`
	dir := t.TempDir()
	for name, body := range map[string]string{
		"long-middle": app + "\n" + long + "\n" + app + "\n",
		"long-last":   app + "\n" + long,
		"long-cut":    app + "\n" + long[:150],
		"long-eol":    app + "\n" + long + "\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		want := reportJSON(t, p, Options{readPart: (*analysis).readPartSerial})
		for _, noMmap := range []bool{false, true} {
			maps := 0
			if got := reportJSON(t, p, Options{workers: 2, noMmap: noMmap, mapped: func(string) { maps++ }}); got != want {
				t.Errorf("%s noMmap %v:\n got %s\nwant %s", name, noMmap, got, want)
			}
			if wantMaps := map[bool]int{false: 1, true: 0}[noMmap]; maps != wantMaps {
				t.Errorf("%s noMmap %v: mapped %d times, want %d", name, noMmap, maps, wantMaps)
			}
		}
	}
}

// A file that shrinks while it is read through the mapping is an error naming
// it, not a crash (SIGBUS).
func TestMappedFileShrinks(t *testing.T) {
	var b bytes.Buffer
	for range 20000 {
		b.WriteString(`{"Event":"SparkListenerTaskEnd","Stage ID":0,"Task Info":{"Launch Time":1,"Finish Time":2}}` + "\n")
	}
	p := filepath.Join(t.TempDir(), "log")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	setBlockSize(t, 4096)
	_, err := Analyze(context.Background(), p, Options{mapped: func(path string) {
		if err := os.Truncate(path, 100); err != nil {
			t.Error(err)
		}
	}})
	if err == nil || !strings.Contains(err.Error(), p+": ") || !strings.Contains(err.Error(), "did the file shrink") {
		t.Fatalf("err %v", err)
	}
}
