package source

import (
	"archive/zip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/hudiscope/hudiscope/internal/redact"
	"github.com/hudiscope/hudiscope/internal/safetext"
)

// SHS names an application on a Spark History Server.
type SHS struct {
	BaseURL   string // e.g. http://localhost:18080
	AppID     string
	AttemptID string // optional
}

// ParseSHS parses shs://HOST:PORT/APP_ID[/ATTEMPT_ID] (shs+https:// for TLS).
func ParseSHS(p string) (SHS, bool, error) {
	scheme := "http"
	switch {
	case strings.HasPrefix(p, "shs://"):
	case strings.HasPrefix(p, "shs+https://"):
		scheme = "https"
	default:
		return SHS{}, false, nil
	}
	u, err := url.Parse(p)
	if err != nil {
		return SHS{}, true, err
	}
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	if u.Host == "" || len(parts) == 0 || parts[0] == "" || len(parts) > 2 {
		return SHS{}, true, fmt.Errorf("%s: want shs://HOST:PORT/APP_ID[/ATTEMPT_ID]", p)
	}
	s := SHS{BaseURL: scheme + "://" + u.Host, AppID: parts[0]}
	if len(parts) == 2 {
		s.AttemptID = parts[1]
	}
	return s, true, nil
}

// LogsURL is the REST endpoint that serves the application's logs as a zip.
func (s SHS) LogsURL() string {
	u := s.AppURL()
	if s.AttemptID != "" {
		u += "/" + url.PathEscape(s.AttemptID)
	}
	return u + "/logs"
}

// AppURL is the REST endpoint that describes the application and its attempts.
func (s SHS) AppURL() string {
	return strings.TrimRight(s.BaseURL, "/") + "/api/v1/applications/" + url.PathEscape(s.AppID)
}

// Client is an HTTP client with the connect and TLS deadlines of l; a caller that fetches
// repeatedly (a watch) keeps one so its connections are reused.
func Client(l Limits) *http.Client { return shsClient(l.withDefaults().Timeout) }

// maxAppJSON caps the application description: it lists attempts, not events.
const maxAppJSON = 16 << 20

// Completed asks the History Server whether the application ended: the chosen attempt (or,
// without one, the newest, which the server lists first) has completed=true. The whole
// request must finish within the limits' Timeout; client nil means Client(limits).
func (s SHS) Completed(ctx context.Context, client *http.Client) (bool, error) {
	lim := LimitsFrom(ctx)
	if client == nil {
		client = shsClient(lim.Timeout)
	}
	u := s.AppURL()
	ctx, cancel := context.WithTimeout(ctx, lim.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return false, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return false, fmt.Errorf("history server: GET %s: %w", u, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return false, statusError(u, resp)
	}
	var app struct {
		Attempts []struct {
			AttemptID string `json:"attemptId"`
			Completed bool   `json:"completed"`
		} `json:"attempts"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxAppJSON)).Decode(&app); err != nil {
		return false, fmt.Errorf("history server: GET %s: application JSON: %w", u, err)
	}
	for i, a := range app.Attempts {
		if (s.AttemptID == "" && i == 0) || (s.AttemptID != "" && a.AttemptID == s.AttemptID) {
			return a.Completed, nil
		}
	}
	return false, fmt.Errorf("history server: GET %s: no attempt %q in the application's attempts", u, s.AttemptID)
}

// statusError is a non-200 answer to GET u, with the start of the server's text: it may echo
// a credential or carry terminal escapes, so it is redacted and made safe to print.
func statusError(u string, resp *http.Response) error {
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	body := safetext.Terminal(redact.Text(strings.TrimSpace(string(msg))))
	return fmt.Errorf("history server: GET %s: %s: %s", u, resp.Status, body)
}

// Download is a History Server zip saved to a temporary file.
type Download struct {
	Opener Opener
	Root   string // path inside the zip to pass to Resolve
	Notes  []string
	Bytes  int64
	file   *os.File
}

// Close removes the temporary file.
func (d *Download) Close() error {
	if d.file == nil {
		return nil
	}
	name := d.file.Name()
	err := d.file.Close()
	if rerr := os.Remove(name); rerr != nil && err == nil && !errors.Is(rerr, fs.ErrNotExist) {
		err = rerr
	}
	d.file = nil
	return err
}

// Defaults for Limits' zero fields.
const (
	DefaultSHSTimeout  = 30 * time.Second
	DefaultSHSMaxBytes = int64(4) << 30
)

// Limits bound a History Server download. A server that accepts the connection and then
// says nothing, or stops in the middle of the zip, must not hang the command forever; one
// that streams without end must not fill the disk.
type Limits struct {
	// Timeout is how long the download may make no progress: connecting, waiting for the
	// response headers, or between two reads of the body. 0 means DefaultSHSTimeout.
	Timeout time.Duration
	// MaxBytes caps the size of the downloaded zip. 0 means DefaultSHSMaxBytes.
	MaxBytes int64
}

func (l Limits) withDefaults() Limits {
	if l.Timeout <= 0 {
		l.Timeout = DefaultSHSTimeout
	}
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultSHSMaxBytes
	}
	return l
}

type limitsKey struct{}

// WithLimits returns ctx carrying the limits Fetch applies. The CLI sets them from its
// flags; the context carries them through model.Load and eventlog.Analyze, which need not
// know about History Servers.
func WithLimits(ctx context.Context, l Limits) context.Context {
	return context.WithValue(ctx, limitsKey{}, l)
}

// LimitsFrom returns the limits in ctx, defaults filled in.
func LimitsFrom(ctx context.Context) Limits {
	l, _ := ctx.Value(limitsKey{}).(Limits)
	return l.withDefaults()
}

// Errors a download can end with, for callers that want to tell them apart.
var (
	// ErrStalled: no progress for Limits.Timeout.
	ErrStalled = errors.New("history server stopped answering")
	// ErrTooLarge: the zip is larger than Limits.MaxBytes.
	ErrTooLarge = errors.New("history server download exceeds the size cap")
)

// shsClient has connect and TLS deadlines; the no-progress watchdog in Fetch covers the
// rest (headers, body), for any client.
func shsClient(timeout time.Duration) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = (&net.Dialer{Timeout: timeout, KeepAlive: 30 * time.Second}).DialContext
	t.TLSHandshakeTimeout = timeout
	return &http.Client{Transport: t}
}

// watchdog cancels a download that makes no progress for d.
type watchdog struct {
	t *time.Timer
	d time.Duration
}

func (w *watchdog) kick() { w.t.Reset(w.d) }

// progressReader kicks the watchdog on every read that returned bytes and stops at max+1
// bytes so an endless body is cut off.
type progressReader struct {
	r   io.Reader
	w   *watchdog
	n   int64
	max int64
}

func (p *progressReader) Read(b []byte) (int, error) {
	if p.n > p.max {
		return 0, ErrTooLarge
	}
	if rest := p.max + 1 - p.n; int64(len(b)) > rest {
		b = b[:rest]
	}
	n, err := p.r.Read(b)
	p.n += int64(n)
	if n > 0 {
		p.w.kick()
	}
	if p.n > p.max {
		return n, ErrTooLarge
	}
	return n, err
}

// Fetch downloads the application's event logs into a temporary file, which Download.Close
// removes; on every error (interruption included) it is removed before Fetch returns.
// client nil means a client with connect deadlines. Limits come from ctx (WithLimits).
func (s SHS) Fetch(ctx context.Context, client *http.Client) (_ *Download, err error) {
	lim := LimitsFrom(ctx)
	if client == nil {
		client = shsClient(lim.Timeout)
	}
	logsURL := s.LogsURL()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	wd := &watchdog{d: lim.Timeout, t: time.AfterFunc(lim.Timeout, func() { cancel(ErrStalled) })}
	defer wd.t.Stop()
	// A stall or an interruption surfaces as some transport error; name the cause instead.
	named := func(what string, err error) error {
		switch cause := context.Cause(ctx); {
		case errors.Is(cause, ErrStalled):
			return fmt.Errorf("history server %s: %s: no data for %s: %w", logsURL, what, lim.Timeout, ErrStalled)
		case cause != nil && errors.Is(ctx.Err(), context.Canceled):
			return fmt.Errorf("history server %s: %s: %w", logsURL, what, cause)
		case errors.Is(err, ErrTooLarge):
			return fmt.Errorf("history server %s: %w (%s)", logsURL, ErrTooLarge, sizeLimit(lim.MaxBytes))
		}
		return fmt.Errorf("history server %s: %s: %w", logsURL, what, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, logsURL, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, named("GET", err)
	}
	defer resp.Body.Close()
	wd.kick()
	if resp.StatusCode != http.StatusOK {
		return nil, statusError(logsURL, resp)
	}
	if resp.ContentLength > lim.MaxBytes {
		return nil, named("", ErrTooLarge)
	}
	f, err := os.CreateTemp("", "hudiscope-shs-*.zip")
	if err != nil {
		return nil, fmt.Errorf("history server %s: temporary file: %w", logsURL, err)
	}
	d := &Download{file: f}
	defer func() {
		if err != nil {
			d.Close()
		}
	}()
	n, err := io.Copy(f, &progressReader{r: resp.Body, w: wd, max: lim.MaxBytes})
	d.Bytes = n
	if err != nil {
		return nil, named("reading zip", err)
	}
	wd.t.Stop()
	zr, err := zip.NewReader(f, n)
	if err != nil {
		return nil, fmt.Errorf("history server: %s is not a zip: %w", logsURL, err)
	}
	d.Opener = FSOpener(zr)
	root, notes, err := pickRoot(d.Opener)
	if err != nil {
		return nil, fmt.Errorf("history server %s: %w", logsURL, err)
	}
	d.Root, d.Notes = root, notes
	return d, nil
}

// sizeLimit names the cap in a message.
func sizeLimit(n int64) string {
	if n%(1<<30) == 0 {
		return fmt.Sprintf("cap %d GiB", n>>30)
	}
	if n%(1<<20) == 0 {
		return fmt.Sprintf("cap %d MiB", n>>20)
	}
	return fmt.Sprintf("cap %d bytes", n)
}

// pickRoot chooses what to read in the zip: its single entry, or the last
// attempt when the server sent several.
func pickRoot(op Opener) (string, []string, error) {
	entries, err := op.List(".")
	if err != nil {
		return "", nil, err
	}
	var names []string
	for _, e := range entries {
		if !strings.HasPrefix(e.Name, ".") {
			names = append(names, e.Name)
		}
	}
	sort.Strings(names)
	switch len(names) {
	case 0:
		return "", nil, fmt.Errorf("empty zip: %w", ErrNoLog)
	case 1:
		return names[0], nil, nil
	}
	// Loose rolling parts at the top level form one log.
	for _, n := range names {
		if _, ok := rollingIndex(n); ok {
			return ".", nil, nil
		}
	}
	last := names[len(names)-1]
	return last, []string{fmt.Sprintf("the History Server sent %d attempts (%s); reading the last, %s (add /ATTEMPT_ID to choose)",
		len(names), strings.Join(names, ", "), last)}, nil
}
