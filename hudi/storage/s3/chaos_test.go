package s3_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/storage/s3"
	"github.com/hudiscope/hudiscope/internal/redact"
	"github.com/hudiscope/hudiscope/internal/testutil"
)

// chaosTimeout is the --timeout of the chaos tests; slack covers backoff and scheduling on a
// loaded machine.
const (
	chaosTimeout = 300 * time.Millisecond
	slack        = 1500 * time.Millisecond
)

// chaos is a loopback S3 stand-in that misbehaves in one way per handler. It counts
// requests; handlers that hang return when the client gives up or the test ends.
type chaos struct {
	srv  *httptest.Server
	n    atomic.Int32
	done chan struct{}
}

func newChaos(t *testing.T, h func(c *chaos, w http.ResponseWriter, r *http.Request)) *chaos {
	t.Helper()
	c := &chaos{done: make(chan struct{})}
	c.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.n.Add(1)
		h(c, w, r)
	}))
	t.Cleanup(func() { close(c.done); c.srv.CloseClientConnections(); c.srv.Close() })
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDTEST")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "SECRETTEST")
	return c
}

// wait blocks like a server that never answers.
func (c *chaos) wait(r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-c.done:
	}
}

func chaosStore(t *testing.T, endpoint string, o storage.Options) storage.Storage {
	t.Helper()
	o.S3Endpoint, o.S3Region, o.MaxBackoff = endpoint, "us-east-1", 10*time.Millisecond
	if o.Timeout == 0 {
		o.Timeout = chaosTimeout
	}
	st, err := storage.Open("s3://bkt/tbl", o)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// timed runs f and fails the test when it takes longer than limit.
func timed(t *testing.T, limit time.Duration, f func() error) error {
	t.Helper()
	start := time.Now()
	err := f()
	if took := time.Since(start); took > limit {
		t.Errorf("took %v, want ≤ %v (err %v)", took, limit, err)
	} else {
		t.Logf("ended in %v: %v", took.Round(time.Millisecond), err)
	}
	return err
}

func wantErr(t *testing.T, err error, target error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %v", parts)
	}
	if target != nil && !errors.Is(err, target) {
		t.Errorf("%v: not %v", err, target)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("%q lacks %q", err, p)
		}
	}
}

func isList(r *http.Request) bool { return r.URL.Query().Has("list-type") }

const listPage = `<?xml version="1.0" encoding="UTF-8"?>
<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>bkt</Name><Prefix>tbl/.hoodie/</Prefix>
<KeyCount>1</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>%t</IsTruncated>%s
<Contents><Key>tbl/.hoodie/f%d.commit</Key><LastModified>2024-01-01T00:00:00.000Z</LastModified><Size>3</Size></Contents>
</ListBucketResult>`

// TestChaosHang: an endpoint that accepts and never answers ends every call after
// maxTimeoutAttempts (3) attempts of --timeout each, with a named error.
func TestChaosHang(t *testing.T) {
	c := newChaos(t, func(c *chaos, w http.ResponseWriter, r *http.Request) { c.wait(r) })
	st := chaosStore(t, c.srv.URL, storage.Options{})
	ctx := context.Background()
	for _, op := range []struct {
		name string
		f    func() error
		msg  string
	}{
		{"read", func() error { _, err := st.ReadFile(ctx, ".hoodie/hoodie.properties"); return err }, "read s3://bkt/tbl/.hoodie/hoodie.properties: no progress for 300ms (--timeout)"},
		{"list", func() error { _, err := st.List(ctx, ".hoodie"); return err }, "list s3://bkt/tbl/.hoodie/: no progress for 300ms (--timeout)"},
		{"stat", func() error { _, err := st.Stat(ctx, ".hoodie"); return err }, "s3://bkt/tbl/.hoodie: no progress for 300ms (--timeout)"},
		{"open", func() error { _, err := st.Open(ctx, "f.parquet"); return err }, "stat s3://bkt/tbl/f.parquet: no progress for 300ms (--timeout)"},
	} {
		t.Run(op.name, func(t *testing.T) {
			c.n.Store(0)
			err := timed(t, 3*chaosTimeout+slack, op.f)
			wantErr(t, err, storage.ErrNoProgress, op.msg)
			if n := c.n.Load(); n < 3 || (op.name != "stat" && n != 3) || n > 6 {
				t.Errorf("%d requests, want 3 attempts per call", n)
			}
		})
	}
}

// TestChaosStallMidBody: a body that stops arriving ends the read after --timeout, not
// retried (the caller holds the body); a listing that stalls is retried within the budget.
func TestChaosStallMidBody(t *testing.T) {
	c := newChaos(t, func(c *chaos, w http.ResponseWriter, r *http.Request) {
		if isList(r) {
			w.Header().Set("Content-Type", "application/xml")
			fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>bkt</Name>`)
		} else {
			w.Header().Set("Content-Length", "100")
			fmt.Fprint(w, "0123456789")
		}
		w.(http.Flusher).Flush()
		c.wait(r)
	})
	st := chaosStore(t, c.srv.URL, storage.Options{})
	ctx := context.Background()
	err := timed(t, chaosTimeout+slack, func() error { _, err := st.ReadFile(ctx, "x"); return err })
	wantErr(t, err, storage.ErrNoProgress, "read s3://bkt/tbl/x: no progress for 300ms (--timeout)")
	if n := c.n.Load(); n != 1 {
		t.Errorf("%d requests for a stalled body, want 1", n)
	}
	c.n.Store(0)
	err = timed(t, 3*chaosTimeout+slack, func() error { _, err := st.List(ctx, ""); return err })
	wantErr(t, err, storage.ErrNoProgress, "list s3://bkt/tbl/: no progress for 300ms")
	if n := c.n.Load(); n != 3 {
		t.Errorf("%d requests for a stalled listing, want 3", n)
	}
}

// TestChaosSlowButMoving: a body that trickles (one byte every timeout/3) is progress, so
// it is read whole although it takes several timeouts.
func TestChaosSlowButMoving(t *testing.T) {
	c := newChaos(t, func(c *chaos, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "8")
		for i := range 8 {
			fmt.Fprint(w, i)
			w.(http.Flusher).Flush()
			time.Sleep(chaosTimeout / 3)
		}
	})
	st := chaosStore(t, c.srv.URL, storage.Options{})
	b, err := st.ReadFile(context.Background(), "x")
	if err != nil || string(b) != "01234567" {
		t.Errorf("trickled body: %q %v", b, err)
	}
}

// TestChaosConnectionReset: a server that resets every connection: retried, then the cause
// is named.
func TestChaosConnectionReset(t *testing.T) {
	c := newChaos(t, func(c *chaos, w http.ResponseWriter, r *http.Request) {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		conn.(*net.TCPConn).SetLinger(0) // close with RST
		conn.Close()
	})
	st := chaosStore(t, c.srv.URL, storage.Options{})
	err := timed(t, slack, func() error { _, err := st.ReadFile(context.Background(), "x"); return err })
	wantErr(t, err, nil, "read s3://bkt/tbl/x: connection failed (", "connection reset by peer")
	if n := c.n.Load(); n != 10 {
		t.Errorf("%d requests, want 10 attempts", n)
	}
}

// TestChaosServerErrors: 500 and 503 forever end after the retries with the code; a huge
// error code is cut to 200 bytes and URLs in it lose their userinfo.
func TestChaosServerErrors(t *testing.T) {
	for _, tc := range []struct {
		status int
		code   string
		want   string
	}{
		{500, "InternalError", "read s3://bkt/tbl/x: InternalError"},
		{503, "SlowDown", "read s3://bkt/tbl/x: SlowDown (still throttled after retries)"},
		{400, "http://user:hunter2@evil/" + strings.Repeat("A", 5000), "read s3://bkt/tbl/x: http://***@evil/AAAA"},
	} {
		t.Run(fmt.Sprint(tc.status), func(t *testing.T) {
			c := newChaos(t, func(c *chaos, w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/xml")
				w.WriteHeader(tc.status)
				fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>%s</Code><Message>m</Message></Error>`, tc.code)
			})
			st := chaosStore(t, c.srv.URL, storage.Options{})
			err := timed(t, slack, func() error { _, err := st.ReadFile(context.Background(), "x"); return err })
			wantErr(t, err, nil, tc.want)
			if strings.Contains(err.Error(), "hunter2") || len(err.Error()) > 300 {
				t.Errorf("echoed %d bytes: %.300s", len(err.Error()), err)
			}
			want := int32(10)
			if tc.status == 400 {
				want = 1
			}
			if n := c.n.Load(); n != want {
				t.Errorf("%d requests, want %d", n, want)
			}
		})
	}
}

// TestChaosMalformedListing: a 200 whose body is not a listing is named as such, not "OK".
func TestChaosMalformedListing(t *testing.T) {
	c := newChaos(t, func(c *chaos, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/xml")
		fmt.Fprint(w, `<?xml version="1.0"?><ListBucketResult><Contents><Key>tbl/.hoodie/a</Key><Size>zz`)
	})
	st := chaosStore(t, c.srv.URL, storage.Options{})
	_, err := st.List(context.Background(), ".hoodie")
	host := strings.TrimPrefix(c.srv.URL, "http://")
	wantErr(t, err, nil, "list s3://bkt/tbl/.hoodie/: malformed listing response from "+host+" (")
	if strings.Contains(err.Error(), ": OK") {
		t.Errorf("%v", err)
	}
}

// TestChaosRepeatedToken: a server that hands out the same continuation token again stops
// the listing with ErrListingLoop instead of listing forever.
func TestChaosRepeatedToken(t *testing.T) {
	for _, tc := range []struct {
		name   string
		tokens []string // token of page i (the last repeats)
		pages  int32
	}{
		{"same", []string{"T1"}, 2},
		{"cycle", []string{"A", "B", "A"}, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newChaos(t, func(c *chaos, w http.ResponseWriter, r *http.Request) {
				i := int(c.n.Load()) - 1
				tok := tc.tokens[min(i, len(tc.tokens)-1)]
				fmt.Fprintf(w, listPage, true, "<NextContinuationToken>"+tok+"</NextContinuationToken>", i)
			})
			st := chaosStore(t, c.srv.URL, storage.Options{})
			es, err := st.List(context.Background(), ".hoodie")
			wantErr(t, err, s3.ErrListingLoop, "list s3://bkt/tbl/.hoodie/: the server repeated continuation token")
			if n := c.n.Load(); n != tc.pages || es != nil {
				t.Errorf("%d pages, %d entries; want %d pages", n, len(es), tc.pages)
			}
		})
	}
	t.Run("truncated-without-token", func(t *testing.T) {
		c := newChaos(t, func(c *chaos, w http.ResponseWriter, r *http.Request) {
			fmt.Fprintf(w, listPage, true, "", 0)
		})
		st := chaosStore(t, c.srv.URL, storage.Options{})
		_, err := st.List(context.Background(), ".hoodie")
		wantErr(t, err, s3.ErrListingLoop, "page 1 is truncated but has no continuation token")
	})
}

// TestChaosGiantLength: a GET announcing 50 GB is refused from its Content-Length before
// any body is read; an endless body without a length stops at the ceiling. Neither
// allocates more than a few MiB.
func TestChaosGiantLength(t *testing.T) {
	c := newChaos(t, func(c *chaos, w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/announced") {
			w.Header().Set("Content-Length", "50000000000")
			w.WriteHeader(200)
			fmt.Fprint(w, "a few bytes")
			w.(http.Flusher).Flush()
			c.wait(r)
			return
		}
		zeros := make([]byte, 64<<10) // chunked, never ends
		for {
			if _, err := w.Write(zeros); err != nil {
				return
			}
		}
	})
	ctx := context.Background()
	st := chaosStore(t, c.srv.URL, storage.Options{})
	var err error
	alloc := testutil.Allocated(func() {
		err = timed(t, slack, func() error { _, err := st.ReadFile(ctx, ".hoodie/announced"); return err })
	})
	wantErr(t, err, storage.ErrTooLarge, "read s3://bkt/tbl/.hoodie/announced: 46.6 GiB (50000000000 bytes) is over the read ceiling of 256 MiB (--max-read-size)")
	if alloc > 8<<20 {
		t.Errorf("announced 50 GB: allocated %d bytes", alloc)
	}
	t.Logf("announced 50 GB: %d bytes allocated", alloc)

	st = chaosStore(t, c.srv.URL, storage.Options{MaxReadBytes: 4 << 20})
	alloc = testutil.Allocated(func() {
		err = timed(t, slack, func() error { _, err := st.ReadFile(ctx, ".hoodie/endless"); return err })
	})
	wantErr(t, err, storage.ErrTooLarge, "read s3://bkt/tbl/.hoodie/endless: more than 4 MiB, the read ceiling (--max-read-size)")
	if alloc > 64<<20 { // buffer doubling to 8 MiB, its copies, -race overhead: not the endless stream
		t.Errorf("endless body under a 4 MiB ceiling: allocated %d bytes", alloc)
	}
	t.Logf("endless body, 4 MiB ceiling: %d bytes allocated", alloc)
}

// TestChaosUnreachable: connection refused, an unknown host and a TLS failure keep their
// cause in the message.
func TestChaosUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	tlsSrv := httptest.NewUnstartedServer(http.NotFoundHandler())
	tlsSrv.Config.ErrorLog = log.New(io.Discard, "", 0) // handshake failures are the point
	tlsSrv.StartTLS()
	defer tlsSrv.Close()
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDTEST")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "SECRETTEST")
	for _, tc := range []struct {
		name, endpoint string
		want           []string
	}{
		{"refused", "http://" + closed, []string{"stat s3://bkt/tbl/.hoodie: connection failed (dial tcp " + closed, "connection refused)"}},
		{"nxdomain", "http://no-such-host.invalid", []string{"stat s3://bkt/tbl/.hoodie: DNS lookup failed (lookup no-such-host.invalid"}},
		{"tls", tlsSrv.URL, []string{"stat s3://bkt/tbl/.hoodie: TLS failed (", "certificate"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := chaosStore(t, tc.endpoint, storage.Options{Timeout: 2 * time.Second})
			err := timed(t, 3*time.Second, func() error { _, err := st.Stat(context.Background(), ".hoodie"); return err })
			wantErr(t, err, nil, tc.want...)
		})
	}
}

// TestChaosRangeIgnored: an endpoint that answers a ranged GET with the whole object is an
// error, not the wrong bytes.
func TestChaosRangeIgnored(t *testing.T) {
	c := newChaos(t, func(c *chaos, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "10")
		w.Header().Set("Last-Modified", "Mon, 01 Jan 2024 00:00:00 GMT")
		if r.Method != http.MethodHead {
			fmt.Fprint(w, "0123456789")
		}
	})
	st := chaosStore(t, c.srv.URL, storage.Options{})
	f, err := st.Open(context.Background(), "x")
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 4)
	n, err := f.ReadAt(b, 6)
	wantErr(t, err, nil, "read s3://bkt/tbl/x: asked for bytes 6-9, got 10 bytes without a Content-Range (the endpoint ignores Range)")
	if n != 0 {
		t.Errorf("read %d bytes %q", n, b[:n])
	}
}

// TestChaosCodeEchoesSessionToken: an error whose <Code> echoes the session token the request
// was signed with never shows it (issue 31: it was redacted in Message and bodies only); the
// token is hidden wherever redact runs (stderr, JSON "error", reports, the TUI).
func TestChaosCodeEchoesSessionToken(t *testing.T) {
	const token = "FwoGZXIvYXdzEChaosSessionToken/Abc+123=="
	c := newChaos(t, func(c *chaos, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/xml")
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>%s</Code><Message>m</Message></Error>`, r.Header.Get("X-Amz-Security-Token"))
	})
	t.Setenv("AWS_SESSION_TOKEN", token)
	st := chaosStore(t, c.srv.URL, storage.Options{})
	_, err := st.ReadFile(context.Background(), "x")
	if err == nil || strings.Contains(err.Error(), token) || strings.Contains(err.Error(), "FwoGZXIvYXdzE") {
		t.Fatalf("error %v echoes the session token", err)
	}
	wantErr(t, err, nil, "read s3://bkt/tbl/x: ***")
	if got := redact.Text("later: " + token); got != "later: ***" {
		t.Errorf("the token is not registered: %q", got)
	}
}
