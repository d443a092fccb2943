package source

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// tempDir points TMPDIR at a fresh directory and returns a function listing the
// hudiscope-shs-* files left in it.
func tempDir(t *testing.T) func() []string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	return func() []string {
		m, _ := filepath.Glob(filepath.Join(dir, "hudiscope-shs-*"))
		return m
	}
}

func appURL(srv *httptest.Server) SHS {
	return SHS{BaseURL: srv.URL, AppID: "app-1"}
}

func zipWith(t *testing.T, name, body string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	w, _ := zw.Create(name)
	w.Write([]byte(body))
	zw.Close()
	return b.Bytes()
}

// fetchIn runs Fetch with limits and reports the error and how long it took.
func fetchIn(t *testing.T, s SHS, lim Limits, ctx context.Context) (*Download, time.Duration, error) {
	t.Helper()
	start := time.Now()
	d, err := s.Fetch(WithLimits(ctx, lim), nil)
	return d, time.Since(start), err
}

// A server that accepts and never answers, or stops in the middle of the body, fails with
// ErrStalled after the no-progress timeout, and the temporary file is gone.
func TestFetchStalls(t *testing.T) {
	for _, tc := range []struct {
		name    string
		timeout time.Duration
		handler http.HandlerFunc
	}{
		{"no headers", 300 * time.Millisecond, func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }},
		{"stops mid-body", 300 * time.Millisecond, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "100000")
			w.Write(bytes.Repeat([]byte("PK"), 500))
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		}},
		{"trickles then stops", time.Second, func(w http.ResponseWriter, r *http.Request) {
			// Progress every 100 ms keeps a 1 s timeout from firing until the trickle ends.
			for range 6 {
				w.Write([]byte("x"))
				w.(http.Flusher).Flush()
				time.Sleep(100 * time.Millisecond)
			}
			<-r.Context().Done()
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			left := tempDir(t)
			srv := httptest.NewServer(tc.handler)
			defer srv.Close()
			_, took, err := fetchIn(t, appURL(srv), Limits{Timeout: tc.timeout}, context.Background())
			if !errors.Is(err, ErrStalled) {
				t.Fatalf("err = %v, want ErrStalled", err)
			}
			if !strings.Contains(err.Error(), "no data for "+tc.timeout.String()) || !strings.Contains(err.Error(), "/api/v1/applications/app-1/logs") {
				t.Errorf("message does not name the timeout and URL: %v", err)
			}
			if took < tc.timeout || took > 5*time.Second {
				t.Errorf("took %s", took)
			}
			if tc.name == "trickles then stops" && took < 1500*time.Millisecond {
				t.Errorf("a body that makes progress was cut after %s", took)
			}
			if l := left(); len(l) != 0 {
				t.Errorf("temporary files left: %v", l)
			}
		})
	}
}

// An endless body (or one announced larger than the cap) ends with ErrTooLarge at the cap,
// and the temporary file is removed.
func TestFetchSizeCap(t *testing.T) {
	left := tempDir(t)
	chunk := bytes.Repeat([]byte("z"), 64<<10)
	endless := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for r.Context().Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	defer endless.Close()
	_, _, err := fetchIn(t, appURL(endless), Limits{MaxBytes: 1 << 20}, context.Background())
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "cap 1 MiB") {
		t.Fatalf("endless: err = %v", err)
	}
	announced := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "5000000")
		w.Write(chunk)
	}))
	defer announced.Close()
	_, _, err = fetchIn(t, appURL(announced), Limits{MaxBytes: 1 << 20}, context.Background())
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("announced: err = %v", err)
	}
	if l := left(); len(l) != 0 {
		t.Errorf("temporary files left: %v", l)
	}
	if l := LimitsFrom(context.Background()); l.Timeout != 30*time.Second || l.MaxBytes != 4<<30 {
		t.Errorf("defaults %+v", l)
	}
}

// ctrl+c (the caller's context cancelled) mid-body: the error wraps context.Canceled, so the
// CLI exits 130, and the temporary file is removed.
func TestFetchInterrupted(t *testing.T) {
	left := tempDir(t)
	started := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write(bytes.Repeat([]byte("y"), 10000))
		w.(http.Flusher).Flush()
		close(started)
		<-r.Context().Done()
	}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; time.Sleep(50 * time.Millisecond); cancel() }()
	_, took, err := fetchIn(t, appURL(srv), Limits{}, ctx)
	if !errors.Is(err, context.Canceled) || errors.Is(err, ErrStalled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if took > 5*time.Second {
		t.Errorf("took %s", took)
	}
	if l := left(); len(l) != 0 {
		t.Errorf("temporary files left: %v", l)
	}
}

// An error body is redacted and its control characters escaped before it reaches a message.
func TestFetchErrorBodyRedacted(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "boom jdbc:hive2://h:10000/db;user=u;password=SEKRET9 \x1b]0;pwned\x07", http.StatusInternalServerError)
	}))
	defer srv.Close()
	_, _, err := fetchIn(t, appURL(srv), Limits{}, context.Background())
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	if strings.Contains(msg, "SEKRET9") || strings.Contains(msg, "\x1b") || strings.Contains(msg, "\x07") {
		t.Errorf("unsafe message: %q", msg)
	}
	if !strings.Contains(msg, "500 Internal Server Error") || !strings.Contains(msg, `\x1b]0;pwned\x07`) {
		t.Errorf("message lacks status or escaped body: %q", msg)
	}
}

// A good download opens, and Close removes the temporary file.
func TestFetchOKThenClose(t *testing.T) {
	left := tempDir(t)
	body := zipWith(t, "eventlog", "{\"Event\":\"SparkListenerLogStart\"}\n")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(body) }))
	defer srv.Close()
	d, _, err := fetchIn(t, appURL(srv), Limits{Timeout: time.Second}, context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if d.Bytes != int64(len(body)) || d.Root != "eventlog" {
		t.Errorf("bytes %d root %q", d.Bytes, d.Root)
	}
	if l := left(); len(l) != 1 {
		t.Errorf("want the one temporary file while open, have %v", l)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if l := left(); len(l) != 0 {
		t.Errorf("temporary files left after Close: %v", l)
	}
}

// A FIFO named as the event log (or inside a log directory) is refused at once, never opened:
// opening it would block until a writer came, and no ctrl+c could end the wait.
func TestLocalRefusesFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "events.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 2)
	go func() { _, err := Resolve(Local{}, fifo); done <- err }()
	go func() { _, err := Local{}.Open(fifo); done <- err }()
	for range 2 {
		select {
		case err := <-done:
			if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), fifo+" is a named pipe (FIFO)") {
				t.Errorf("err = %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("blocked on the FIFO")
		}
	}
	// Regular files still open.
	reg := filepath.Join(dir, "ok.json")
	os.WriteFile(reg, []byte("{}\n"), 0o600)
	f, err := Local{}.Open(reg)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// Completed reads the chosen attempt's completed flag (the newest, listed first, without an
// attempt ID) and names the URL on errors; a server that never answers fails within Timeout.
func TestCompleted(t *testing.T) {
	body := `{"id":"app-1","attempts":[{"attemptId":"2","completed":false},{"attemptId":"1","completed":true}]}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/v1/applications/app-1":
			w.Write([]byte(body))
		case "/api/v1/applications/slow":
			<-r.Context().Done()
		default:
			http.Error(w, "no such app", http.StatusNotFound)
		}
	}))
	defer srv.Close()
	ctx := context.Background()
	for _, tc := range []struct {
		attempt string
		want    bool
		err     string
	}{{"", false, ""}, {"2", false, ""}, {"1", true, ""}, {"3", false, `no attempt "3"`}} {
		s := appURL(srv)
		s.AttemptID = tc.attempt
		got, err := s.Completed(ctx, nil)
		if got != tc.want || (tc.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("attempt %q: completed %v, err %v; want %v, %q", tc.attempt, got, err, tc.want, tc.err)
		}
	}
	if _, err := (SHS{BaseURL: srv.URL, AppID: "nope"}).Completed(ctx, nil); err == nil || !strings.Contains(err.Error(), "404") || !strings.Contains(err.Error(), srv.URL+"/api/v1/applications/nope") {
		t.Errorf("missing app: %v", err)
	}
	start := time.Now()
	_, err := (SHS{BaseURL: srv.URL, AppID: "slow"}).Completed(WithLimits(ctx, Limits{Timeout: 200 * time.Millisecond}), nil)
	if took := time.Since(start); !errors.Is(err, context.DeadlineExceeded) || took > 5*time.Second {
		t.Errorf("silent server: %v after %s", err, took)
	}
}
