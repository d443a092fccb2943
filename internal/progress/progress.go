// Package progress draws a one-line count of long work on a terminal's stderr ("listing
// 120,000 files…"), redrawn in place at most ten times a second and cleared at the end. It is
// silent when stderr is not a terminal, so logs and pipes get nothing. The work feeds it
// through Add, a callback any layer can take without importing anything of the terminal's.
package progress

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/charmbracelet/x/term"
)

// Interval is the least time between two redraws.
const Interval = 100 * time.Millisecond

// Reporter counts and draws. A nil *Reporter is valid and does nothing: callers need not
// check whether stderr is a terminal.
type Reporter struct {
	mu      sync.Mutex
	w       io.Writer
	label   string // "listing %s files…"
	n       int64
	last    time.Time
	drawn   bool
	started bool
	now     func() time.Time
	closed  bool
}

// OnStderr is a reporter on os.Stderr when it is a terminal, else nil. format holds one %s,
// the count ("listing %s files…").
func OnStderr(format string) *Reporter {
	if !term.IsTerminal(os.Stderr.Fd()) {
		return nil
	}
	return New(os.Stderr, format, time.Now)
}

// New draws on w whatever w is (tests; OnStderr decides for a terminal), timed by now.
func New(w io.Writer, format string, now func() time.Time) *Reporter {
	return &Reporter{w: w, label: format, now: now}
}

// Add counts n more and redraws when Interval has passed since the last drawing.
func (r *Reporter) Add(n int) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.n += int64(n)
	if r.closed {
		return
	}
	t := r.now()
	if !r.started {
		// The first drawing waits an interval: work that ends sooner shows nothing.
		r.started, r.last = true, t
		return
	}
	if t.Sub(r.last) >= Interval {
		r.last = t
		r.drawn = true
		fmt.Fprintf(r.w, "\r\x1b[K"+r.label, Thousands(r.n))
	}
}

// Count is what was counted so far.
func (r *Reporter) Count() int64 {
	if r == nil {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n
}

// Done clears the line (if anything was drawn, once); later Adds count but draw nothing.
func (r *Reporter) Done() {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.drawn {
		io.WriteString(r.w, "\r\x1b[K")
		r.drawn = false // a second Done clears nothing more
	}
	r.closed = true
}

// Thousands writes n with comma separators: 120,000.
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := ""
	if n < 0 {
		neg, s = "-", s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return neg + s
}

// Line is one stderr line shared by successive kinds of work ("listing 1,200 files…", then
// "reading archived timeline: 12,000 instants…"): each Counter draws its own label, and the
// first count of another counter clears what the previous one drew. A nil *Line is valid:
// its counters are nil, so a hook left nil costs the work nothing.
type Line struct {
	mu     sync.Mutex
	w      io.Writer
	now    func() time.Time
	cur    *Reporter
	closed bool
}

// LineOnStderr is a line on os.Stderr when it is a terminal, else nil.
func LineOnStderr() *Line {
	if !term.IsTerminal(os.Stderr.Fd()) {
		return nil
	}
	return NewLine(os.Stderr, time.Now)
}

// NewLine draws on w whatever w is, timed by now.
func NewLine(w io.Writer, now func() time.Time) *Line {
	return &Line{w: w, now: now}
}

// Counter is a count with its own label (format holds one %s, the count); nil on a nil Line.
// A counter taken up again after another one drew is not drawn again.
func (l *Line) Counter(format string) func(n int) {
	if l == nil {
		return nil
	}
	r := New(l.w, format, l.now)
	return func(n int) {
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.closed {
			return
		}
		if l.cur != r {
			l.cur.Done()
			l.cur = r
		}
		r.Add(n)
	}
}

// Done clears the line (if anything was drawn); later counts draw nothing. Call it before the
// command's output starts.
func (l *Line) Done() {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.cur.Done()
	l.closed = true
}
