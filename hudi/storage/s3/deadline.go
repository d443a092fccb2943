package s3

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"

	"github.com/hudiscope/hudiscope/hudi/storage"
)

// maxTimeoutAttempts bounds the attempts of one call that end in no progress: a fresh
// connection often gets past a stuck one, but a silent endpoint must not cost
// MaxAttempts × --timeout.
const maxTimeoutAttempts = 3

// noProgressError is one attempt that made no progress for d.
type noProgressError struct {
	d     time.Duration
	retry bool // the call has attempts left for it
}

func (e *noProgressError) Error() string { return e.Unwrap().Error() }
func (e *noProgressError) Unwrap() error { return &storage.NoProgressError{Timeout: e.d} }

// retryNoProgress classifies no-progress errors ahead of the SDK's own rules (which retry
// any send error).
var retryNoProgress = retry.IsErrorRetryableFunc(func(err error) aws.Ternary {
	var np *noProgressError
	if errors.As(err, &np) {
		return aws.BoolTernary(np.retry)
	}
	return aws.UnknownTernary
})

type budgetKey struct{}

// withBudget gives one call (all its attempts) its count of no-progress attempts.
func withBudget(ctx context.Context) context.Context {
	return context.WithValue(ctx, budgetKey{}, new(atomic.Int32))
}

// deadlineClient enforces the no-progress deadline on every attempt, whatever the
// transport: a timer, armed when the request goes out, cancels the attempt unless response
// headers arrive in time; then it is re-armed by every read of the body that returns bytes.
// It covers connecting, TLS, time to first byte and a body that stalls.
type deadlineClient struct {
	base    aws.HTTPClient
	timeout time.Duration
}

func (c *deadlineClient) Do(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithCancel(req.Context())
	var fired atomic.Bool
	t := time.AfterFunc(c.timeout, func() { fired.Store(true); cancel() })
	resp, err := c.base.Do(req.WithContext(ctx))
	if err != nil {
		t.Stop()
		cancel()
		if fired.Load() && req.Context().Err() == nil {
			return nil, c.expired(req.Context())
		}
		return nil, err
	}
	t.Reset(c.timeout)
	resp.Body = &idleBody{rc: resp.Body, c: c, ctx: req.Context(), t: t, fired: &fired, cancel: cancel}
	return resp, nil
}

// expired is the error of an attempt whose timer fired, retryable while the call has
// attempts left. Called once per attempt.
func (c *deadlineClient) expired(ctx context.Context) error {
	n, _ := ctx.Value(budgetKey{}).(*atomic.Int32)
	return &noProgressError{d: c.timeout, retry: n != nil && n.Add(1) < maxTimeoutAttempts}
}

// idleBody re-arms the attempt's timer on every read that returns bytes.
type idleBody struct {
	rc     io.ReadCloser
	c      *deadlineClient
	ctx    context.Context
	t      *time.Timer
	fired  *atomic.Bool
	cancel context.CancelFunc
	err    error // the attempt's no-progress error, once made (the SDK may read again)
}

func (b *idleBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if n > 0 && !b.fired.Load() {
		b.t.Reset(b.c.timeout)
	}
	if err != nil && err != io.EOF && b.fired.Load() && b.ctx.Err() == nil {
		// A stalled body is not retried by the SDK (the caller holds it); one that fails
		// while the SDK decodes it (a listing) is, within the budget.
		if b.err == nil {
			b.err = b.c.expired(b.ctx)
		}
		err = b.err
	}
	return n, err
}

func (b *idleBody) Close() error {
	b.t.Stop()
	err := b.rc.Close()
	b.cancel()
	return err
}

// maxEcho bounds text from a server, or about it, repeated in messages.
const maxEcho = 200

var userinfo = regexp.MustCompile(`([a-zA-Z][a-zA-Z0-9+.-]*://)[^/?#\s@]+@`)

// clip makes text for a message: control characters dropped, userinfo in URLs hidden,
// at most maxEcho bytes.
func clip(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
			return ' '
		}
		return r
	}, s)
	s = userinfo.ReplaceAllString(s, "${1}***@")
	if len(s) > maxEcho {
		cut := maxEcho
		for cut > 0 && s[cut]&0xC0 == 0x80 { // not inside a UTF-8 sequence
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// cause names why a request could not be sent: the network, DNS or TLS error under the
// SDK's OperationError / RequestSendError / url.Error layers, without the request URL.
func cause(err error) (code, hint string) {
	var dns *net.DNSError
	var cv *tls.CertificateVerificationError
	var ua x509.UnknownAuthorityError
	var hn x509.HostnameError
	var ci x509.CertificateInvalidError
	var rh tls.RecordHeaderError
	var alert tls.AlertError
	var op *net.OpError
	var ue *url.Error
	switch {
	case errors.As(err, &dns):
		return "DNS lookup failed", clip(dns.Error())
	case errors.As(err, &cv), errors.As(err, &ua), errors.As(err, &hn), errors.As(err, &ci),
		errors.As(err, &rh), errors.As(err, &alert):
		return "TLS failed", clip(tlsCause(err))
	case errors.As(err, &op):
		return "connection failed", clip(op.Error())
	case errors.As(err, &ue): // its message repeats the URL: keep what is under it
		return "request failed", clip(ue.Err.Error())
	}
	return "request failed", clip(err.Error())
}

// tlsCause is the TLS/x509 message without the URL around it.
func tlsCause(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}
