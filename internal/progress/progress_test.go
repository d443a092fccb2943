package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestThousands(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 120000: "120,000", 1234567: "1,234,567", -4500: "-4,500"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

// The count is drawn in place at most every Interval, first after one interval (quick work
// shows nothing), and cleared at the end.
func TestReporterThrottlesAndClears(t *testing.T) {
	var b bytes.Buffer
	clock := time.Unix(0, 0)
	r := New(&b, "listing %s files…", func() time.Time { return clock })
	for i := 0; i < 1000; i++ { // 1000 adds of 120 files, 1 ms apart: one second
		r.Add(120)
		clock = clock.Add(time.Millisecond)
	}
	r.Done()
	r.Add(5)
	out := b.String()
	draws := strings.Count(out, "listing ")
	if draws < 8 || draws > 10 {
		t.Errorf("%d redraws in one second of work, want about 9 (at most 10/s)", draws)
	}
	if !strings.Contains(out, "\r\x1b[Klisting 12,120 files…") || !strings.HasSuffix(out, "files…\r\x1b[K") {
		t.Errorf("output %q", out)
	}
	if r.Count() != 120005 {
		t.Errorf("count %d", r.Count())
	}
	// Work that ends within the first interval draws nothing at all.
	b.Reset()
	q := New(&b, "listing %s files…", func() time.Time { return clock })
	q.Add(3)
	q.Add(4)
	q.Done()
	if b.Len() != 0 {
		t.Errorf("quick work drew %q", b.String())
	}
	var nilR *Reporter
	nilR.Add(1)
	nilR.Done()
}

// A Line draws each kind of work under its own label, clears the first kind's line when the
// second starts counting, and clears the last at Done; a nil Line hands out nil counters.
func TestLineSwitchesLabels(t *testing.T) {
	var b bytes.Buffer
	clock := time.Unix(0, 0)
	l := NewLine(&b, func() time.Time { return clock })
	files := l.Counter("listing %s files…")
	arch := l.Counter("reading archived timeline: %s instants…")
	for i := 0; i < 3; i++ { // 0, 100, 200 ms: drawn at 100 and 200 ms
		files(10)
		clock = clock.Add(Interval)
	}
	for i := 0; i < 3; i++ {
		arch(4000)
		clock = clock.Add(Interval)
	}
	l.Done()
	l.Done() // clears once
	files(1)
	want := "\r\x1b[Klisting 20 files…\r\x1b[Klisting 30 files…\r\x1b[K" +
		"\r\x1b[Kreading archived timeline: 8,000 instants…\r\x1b[Kreading archived timeline: 12,000 instants…\r\x1b[K"
	if got := b.String(); got != want {
		t.Errorf("line wrote\n%q\nwant\n%q", got, want)
	}
	var none *Line
	if none.Counter("x %s") != nil {
		t.Error("a nil Line's counter is not nil")
	}
	none.Done()
}
