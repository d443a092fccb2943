// Package s3 is the read-only Amazon S3 backend of hudi/storage for `s3://`, `s3a://` and
// `s3n://` locations (aws-sdk-go-v2). Credentials come from the SDK's default chain (env,
// profile, web identity, ECS, EC2 instance profile via IMDSv2); the region is discovered
// from the bucket; `Options.Endpoint` targets S3-compatible stores. Requests are bounded,
// retried with backoff on throttling and timeouts, and errors name bucket and key. The SDK
// never logs: checksum warnings and retry chatter would corrupt the TUI.
package s3

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"path"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	awss3 "github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/logging"

	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/internal/redact"
)

func init() {
	for _, scheme := range []string{"s3", "s3a", "s3n"} {
		storage.Register(scheme, func(location string, o storage.Options) (storage.Storage, error) {
			return Open(location, FromStorage(o))
		})
	}
}

// Options configure the backend for one Open.
type Options struct {
	// Endpoint is the base URL of an S3-compatible store (MinIO, Ceph, LocalStack). Empty
	// means AWS (or AWS_ENDPOINT_URL_S3 from the environment).
	Endpoint string
	// PathStyle addresses buckets as endpoint/bucket/key; implied by Endpoint.
	PathStyle bool
	// Region overrides bucket-region discovery.
	Region string
	// MaxConcurrency bounds requests in flight per table (default 32).
	MaxConcurrency int
	// MaxAttempts per request including retries (default 10).
	MaxAttempts int
	// MaxBackoff caps the delay between retries (default 5s).
	MaxBackoff time.Duration
	// Logger receives SDK logs (default: discarded).
	Logger logging.Logger
	// HTTPClient and Credentials replace the defaults (tests, custom transports).
	HTTPClient  aws.HTTPClient
	Credentials aws.CredentialsProvider
	// Timeout is the no-progress deadline of each attempt: connecting, the response
	// headers, and each wait for more of a body (default storage.DefaultTimeout). A call
	// gives up after maxTimeoutAttempts attempts that time out.
	Timeout time.Duration
	// MaxReadBytes caps ReadFile (default storage.DefaultMaxReadBytes).
	MaxReadBytes int64
}

// FromStorage maps the backend-neutral storage options onto this backend's.
func FromStorage(so storage.Options) Options {
	o := Options{Endpoint: so.S3Endpoint, Region: so.S3Region, MaxBackoff: so.MaxBackoff,
		Timeout: so.Timeout, MaxReadBytes: so.MaxReadBytes}
	if so.Log != nil && so.Log != io.Discard {
		o.Logger = logging.NewStandardLogger(so.Log)
	}
	if so.HTTPClient != nil {
		o.HTTPClient = so.HTTPClient
	}
	return o
}

func (o Options) withDefaults() Options {
	if o.MaxConcurrency <= 0 {
		o.MaxConcurrency = 32
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = 10
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = 5 * time.Second
	}
	if o.Logger == nil {
		o.Logger = logging.Nop{}
	}
	o.Timeout = storage.Options{Timeout: o.Timeout}.NoProgressTimeout()
	o.MaxReadBytes = storage.Options{MaxReadBytes: o.MaxReadBytes}.ReadLimit()
	if o.Endpoint != "" {
		o.PathStyle = true
	}
	return o
}

// clientKey identifies the settings a cached client was built with: opening many tables of
// one bucket reuses one client (and its connection pool), different settings never share one.
type clientKey struct {
	endpoint, region string
	pathStyle        bool
	httpClient       aws.HTTPClient
	credentials      aws.CredentialsProvider
	logger           logging.Logger
	attempts         int
	backoff          time.Duration
	timeout          time.Duration
}

var (
	clientsMu sync.Mutex
	clients   = map[clientKey]*awss3.Client{}
)

// ParseLocation splits `s3://bucket/key/prefix` (also s3a, s3n) into bucket and key prefix
// (no leading or trailing slash).
func ParseLocation(location string) (bucket, prefix string, err error) {
	u, err := url.Parse(location)
	if err != nil {
		return "", "", fmt.Errorf("open %s: %w", location, err)
	}
	switch strings.ToLower(u.Scheme) {
	case "s3", "s3a", "s3n":
	default:
		return "", "", fmt.Errorf("open %s: not an s3:// location", location)
	}
	if u.Host == "" {
		return "", "", fmt.Errorf("open %s: no bucket in the location", location)
	}
	return u.Host, strings.Trim(path.Clean("/"+u.Path), "/"), nil
}

// Store reads one table root in a bucket.
type Store struct {
	client  *awss3.Client
	bucket  string
	prefix  string
	sem     chan struct{}
	maxRead int64
}

var loadConfig = func(ctx context.Context, o Options) (aws.Config, error) {
	opts := []func(*config.LoadOptions) error{
		config.WithLogger(o.Logger),
		config.WithClientLogMode(0),
		config.WithRequestChecksumCalculation(aws.RequestChecksumCalculationWhenRequired),
		config.WithResponseChecksumValidation(aws.ResponseChecksumValidationWhenRequired),
		config.WithRetryer(func() aws.Retryer {
			return retry.NewStandard(func(so *retry.StandardOptions) {
				so.MaxAttempts = o.MaxAttempts
				so.MaxBackoff = o.MaxBackoff
				so.RateLimiter = ratelimit.None // a reader must outlast long throttling bursts
				so.Retryables = append([]retry.IsErrorRetryable{retryNoProgress}, so.Retryables...)
			})
		}),
	}
	// A caller's HTTPClient goes to the S3 client only (newClient): the SDK wants a buildable
	// client here when AWS_CA_BUNDLE is set.
	// deadlineClient (newClient) bounds every phase of S3 calls; these transport limits bound
	// the credential providers (STS, SSO, container endpoints), which share this client
	// without the wrapper. The header limit is a second later so that for S3 calls the
	// wrapper, which counts attempts, always fires first.
	opts = append(opts, config.WithHTTPClient(awshttp.NewBuildableClient().WithTransportOptions(func(t *http.Transport) {
		t.MaxIdleConnsPerHost = o.MaxConcurrency
		t.TLSHandshakeTimeout = o.Timeout
		t.ResponseHeaderTimeout = o.Timeout + time.Second
	}).WithDialerOptions(func(d *net.Dialer) { d.Timeout = o.Timeout })))
	if o.Credentials != nil {
		opts = append(opts, config.WithCredentialsProvider(o.Credentials))
	}
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return cfg, err
	}
	if cfg.Region == "" && o.Endpoint == "" {
		// On EC2/EMR the region comes from IMDS only when asked (honours AWS_EC2_METADATA_DISABLED).
		if c2, err := config.LoadDefaultConfig(ctx, append(opts, config.WithEC2IMDSRegion())...); err == nil {
			cfg = c2
		}
	}
	if cfg.Credentials != nil {
		cfg.Credentials = registering{cfg.Credentials}
	}
	return cfg, nil
}

// registering hands every credential it retrieves to redact: a server may echo the session
// token or secret key where no pattern can tell it is one (an error <Code>), and every output
// path redacts through redact.
type registering struct{ aws.CredentialsProvider }

func (r registering) Retrieve(ctx context.Context) (aws.Credentials, error) {
	c, err := r.CredentialsProvider.Retrieve(ctx)
	if err == nil {
		redact.AddSecret(c.SecretAccessKey, c.SessionToken)
	}
	return c, err
}

// Open opens an s3:// table root.
func Open(location string, o Options) (*Store, error) {
	bucket, prefix, err := ParseLocation(location)
	if err != nil {
		return nil, err
	}
	o = o.withDefaults()
	ctx, cancel := context.WithTimeout(context.Background(), max(30*time.Second, maxTimeoutAttempts*o.Timeout))
	defer cancel()
	cfg, err := loadConfig(ctx, o)
	if err != nil {
		return nil, fmt.Errorf("open %s: AWS configuration: %w", location, err)
	}
	region := o.Region
	if region == "" && o.Endpoint == "" {
		region = bucketRegion(ctx, cfg, o, bucket)
	}
	if region == "" {
		region = cfg.Region
	}
	if region == "" {
		region = "us-east-1"
	}
	return &Store{client: client(cfg, o, region), bucket: bucket, prefix: prefix, sem: make(chan struct{}, o.MaxConcurrency),
		maxRead: o.MaxReadBytes}, nil
}

func newClient(cfg aws.Config, o Options, region string) *awss3.Client {
	return awss3.NewFromConfig(cfg, func(so *awss3.Options) {
		so.Region = region
		so.UsePathStyle = o.PathStyle
		if o.Endpoint != "" {
			so.BaseEndpoint = aws.String(o.Endpoint)
		}
		if o.HTTPClient != nil {
			so.HTTPClient = o.HTTPClient
		}
		so.HTTPClient = &deadlineClient{base: so.HTTPClient, timeout: o.Timeout}
		so.Logger = o.Logger
		so.ClientLogMode = 0
		so.DisableLogOutputChecksumValidationSkipped = true
		so.RequestChecksumCalculation = aws.RequestChecksumCalculationWhenRequired
		so.ResponseChecksumValidation = aws.ResponseChecksumValidationWhenRequired
	})
}

func client(cfg aws.Config, o Options, region string) *awss3.Client {
	k := clientKey{endpoint: o.Endpoint, region: region, pathStyle: o.PathStyle, httpClient: o.HTTPClient,
		credentials: o.Credentials, logger: o.Logger, attempts: o.MaxAttempts, backoff: o.MaxBackoff, timeout: o.Timeout}
	clientsMu.Lock()
	defer clientsMu.Unlock()
	if c := clients[k]; c != nil {
		return c
	}
	c := newClient(cfg, o, region)
	clients[k] = c
	return c
}

// bucketRegion asks S3 where a bucket lives: an anonymous HeadBucket answers with the
// x-amz-bucket-region header even when it is refused (301, 403). "" when unknown.
func bucketRegion(ctx context.Context, cfg aws.Config, o Options, bucket string) string {
	probeRegion := cfg.Region
	if probeRegion == "" {
		probeRegion = "us-east-1"
	}
	c := newClient(cfg, o, probeRegion)
	_, err := c.HeadBucket(withBudget(ctx), &awss3.HeadBucketInput{Bucket: aws.String(bucket)}, func(so *awss3.Options) {
		so.Credentials = aws.AnonymousCredentials{}
		so.Retryer = retry.AddWithMaxAttempts(so.Retryer, 2)
	})
	var re *awshttp.ResponseError
	if err != nil && errors.As(err, &re) && re.Response != nil {
		return re.Response.Header.Get("X-Amz-Bucket-Region")
	}
	if err == nil {
		return probeRegion
	}
	return ""
}

func (s *Store) key(p string) string {
	p = strings.Trim(p, "/")
	switch {
	case s.prefix == "":
		return p
	case p == "":
		return s.prefix
	}
	return s.prefix + "/" + p
}

// uri names an object for messages.
func (s *Store) uri(p string) string { return "s3://" + s.bucket + "/" + s.key(p) }

// Root is the table's s3:// URI.
func (s *Store) Root() string { return strings.TrimSuffix("s3://"+s.bucket+"/"+s.prefix, "/") }

func (s *Store) acquire(ctx context.Context) error {
	select {
	case s.sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *Store) release() { <-s.sem }

// List returns the direct children of dir (one delimited ListObjectsV2 walk). S3 has no
// directories, so an empty prefix is reported as not existing.
func (s *Store) List(ctx context.Context, dir string) ([]storage.Entry, error) {
	return s.list(ctx, dir, "")
}

// ListAfter lists the children of dir named after `after` with ListObjectsV2 StartAfter: S3
// returns keys in byte order, so a watched timeline pays one LIST for its newest files.
// Nothing after `after` is an empty result, not ErrNotExist.
func (s *Store) ListAfter(ctx context.Context, dir, after string) ([]storage.Entry, error) {
	if after == "" {
		return s.List(ctx, dir)
	}
	return s.list(ctx, dir, after)
}

func (s *Store) list(ctx context.Context, dir, after string) ([]storage.Entry, error) {
	prefix := s.key(dir)
	if prefix != "" {
		prefix += "/"
	}
	var out []storage.Entry
	in := &awss3.ListObjectsV2Input{Bucket: aws.String(s.bucket), Prefix: aws.String(prefix), Delimiter: aws.String("/")}
	if after != "" {
		in.StartAfter = aws.String(prefix + after)
	}
	// The SDK's paginator follows whatever token it is given: a server that repeats one
	// would be listed forever.
	seen := map[string]bool{}
	for pages := 1; ; pages++ {
		if pages > maxListPages {
			return nil, fmt.Errorf("list %s/: more than %d pages (%d entries): %w", s.uri(dir), maxListPages, len(out), ErrListingLoop)
		}
		if err := s.acquire(ctx); err != nil {
			return nil, err
		}
		page, err := s.client.ListObjectsV2(withBudget(ctx), in)
		s.release()
		if err != nil {
			return nil, s.wrap("list", dir, err)
		}
		for _, cp := range page.CommonPrefixes {
			name := strings.TrimSuffix(strings.TrimPrefix(aws.ToString(cp.Prefix), prefix), "/")
			if name == "" {
				continue
			}
			out = append(out, storage.Entry{Name: name, Path: storage.Join(dir, name), IsDir: true})
		}
		for _, obj := range page.Contents {
			name := strings.TrimPrefix(aws.ToString(obj.Key), prefix)
			if name == "" || strings.Contains(name, "/") {
				continue // a "directory marker" object
			}
			out = append(out, storage.Entry{Name: name, Path: storage.Join(dir, name), Size: aws.ToInt64(obj.Size),
				ModTime: aws.ToTime(obj.LastModified), ModTimePrecision: storage.PrecisionS3})
		}
		if !aws.ToBool(page.IsTruncated) {
			break
		}
		tok := aws.ToString(page.NextContinuationToken)
		switch {
		case tok == "":
			return nil, fmt.Errorf("list %s/: page %d is truncated but has no continuation token: %w", s.uri(dir), pages, ErrListingLoop)
		case seen[tok]:
			return nil, fmt.Errorf("list %s/: the server repeated continuation token %q at page %d (%d entries so far): %w",
				s.uri(dir), clip(tok), pages, len(out), ErrListingLoop)
		}
		seen[tok] = true
		in.ContinuationToken = aws.String(tok)
	}
	if len(out) == 0 && after == "" {
		return nil, fmt.Errorf("list %s: %w", s.uri(dir)+"/", fs.ErrNotExist)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Stat describes an object, or a "directory" (a prefix with objects under it). The HEAD and
// the one-key LIST run concurrently: a table open stats directories, so waiting for the HEAD
// to fail first would cost a round trip each time.
func (s *Store) Stat(ctx context.Context, p string) (storage.Entry, error) {
	name := path.Base("/" + p)
	if strings.Trim(p, "/") == "" {
		return storage.Entry{Name: name, Path: "", IsDir: true}, nil
	}
	type listResult struct {
		dir bool
		err error
	}
	lc := make(chan listResult, 1)
	go func() {
		if err := s.acquire(ctx); err != nil {
			lc <- listResult{err: err}
			return
		}
		lo, err := s.client.ListObjectsV2(withBudget(ctx), &awss3.ListObjectsV2Input{Bucket: aws.String(s.bucket),
			Prefix: aws.String(s.key(p) + "/"), MaxKeys: aws.Int32(1)})
		s.release()
		if err != nil {
			lc <- listResult{err: s.wrap("stat", p, err)}
			return
		}
		lc <- listResult{dir: len(lo.Contents) > 0 || len(lo.CommonPrefixes) > 0}
	}()
	e, herr := s.head(ctx, p)
	lr := <-lc
	switch {
	case herr == nil:
		return e, nil
	case !errors.Is(herr, fs.ErrNotExist):
		return storage.Entry{}, herr
	case lr.err != nil:
		return storage.Entry{}, lr.err
	case !lr.dir:
		return storage.Entry{}, fmt.Errorf("stat %s: %w", s.uri(p), fs.ErrNotExist)
	}
	return storage.Entry{Name: name, Path: p, IsDir: true}, nil
}

func (s *Store) head(ctx context.Context, p string) (storage.Entry, error) {
	if err := s.acquire(ctx); err != nil {
		return storage.Entry{}, err
	}
	head, err := s.client.HeadObject(withBudget(ctx), &awss3.HeadObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(s.key(p))})
	s.release()
	if err != nil {
		return storage.Entry{}, s.wrap("stat", p, err)
	}
	return storage.Entry{Name: path.Base("/" + p), Path: p, Size: aws.ToInt64(head.ContentLength), ModTime: aws.ToTime(head.LastModified), ModTimePrecision: storage.PrecisionS3}, nil
}

// Open returns a ranged reader (one HEAD, then one ranged GET per ReadAt).
func (s *Store) Open(ctx context.Context, p string) (storage.File, error) {
	e, err := s.head(ctx, p)
	if err != nil {
		return nil, err
	}
	return &object{s: s, ctx: ctx, p: p, size: e.Size}, nil
}

// ReadFile reads a whole object with one GET, never more than the read ceiling: an
// announced length over it is refused before the body is read, and the body is read with a
// limit, into a buffer that grows as bytes arrive (a length is only a claim).
func (s *Store) ReadFile(ctx context.Context, p string) ([]byte, error) {
	if err := s.acquire(ctx); err != nil {
		return nil, err
	}
	defer s.release()
	out, err := s.client.GetObject(withBudget(ctx), &awss3.GetObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(s.key(p))})
	if err != nil {
		return nil, s.wrap("read", p, err)
	}
	defer out.Body.Close()
	if n := aws.ToInt64(out.ContentLength); n > s.maxRead {
		return nil, storage.TooLarge(s.uri(p), n, s.maxRead)
	}
	b, err := storage.ReadLimited(out.Body, s.uri(p), 0, s.maxRead)
	if err != nil && !errors.Is(err, storage.ErrTooLarge) {
		return nil, fmt.Errorf("read %s: %w", s.uri(p), err)
	}
	return b, err
}

type object struct {
	s    *Store
	ctx  context.Context
	p    string
	size int64
}

func (f *object) Size() int64  { return f.size }
func (f *object) Close() error { return nil }

// ReadAt issues one ranged GET.
func (f *object) ReadAt(b []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("read %s: negative offset", f.s.uri(f.p))
	}
	if off >= f.size {
		return 0, io.EOF
	}
	want := int64(len(b))
	if off+want > f.size {
		want = f.size - off
	}
	if want == 0 {
		return 0, nil
	}
	s := f.s
	if err := s.acquire(f.ctx); err != nil {
		return 0, err
	}
	defer s.release()
	out, err := s.client.GetObject(withBudget(f.ctx), &awss3.GetObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(s.key(f.p)),
		Range: aws.String(fmt.Sprintf("bytes=%d-%d", off, off+want-1))})
	if err != nil {
		return 0, s.wrap("read", f.p, err)
	}
	defer out.Body.Close()
	if aws.ToString(out.ContentRange) == "" && aws.ToInt64(out.ContentLength) > want {
		// A 200 with the whole object: the endpoint ignored Range, and its first bytes are
		// not the ones asked for.
		return 0, fmt.Errorf("read %s: asked for bytes %d-%d, got %d bytes without a Content-Range (the endpoint ignores Range)",
			s.uri(f.p), off, off+want-1, aws.ToInt64(out.ContentLength))
	}
	n, err := io.ReadFull(out.Body, b[:want])
	if err != nil {
		return n, fmt.Errorf("read %s: %w", s.uri(f.p), err)
	}
	if want < int64(len(b)) {
		return n, io.EOF
	}
	return n, nil
}

// ErrListingLoop is returned (wrapped) when a listing does not end: the server repeats a
// continuation token, truncates without one, or pages past maxListPages.
var ErrListingLoop = errors.New("listing does not end")

// maxListPages bounds one directory listing (1,000 keys a page: 10 million entries).
const maxListPages = 10000

// Error is an S3 failure naming the object.
type Error struct {
	Op     string // list, stat, read
	Bucket string
	Key    string
	Code   string // AccessDenied, NoSuchBucket, NoSuchKey, ExpiredToken, …
	Hint   string
	Err    error
}

func (e *Error) Error() string {
	msg := fmt.Sprintf("%s s3://%s/%s: %s", e.Op, e.Bucket, e.Key, e.Code)
	if e.Hint != "" {
		msg += " (" + e.Hint + ")"
	}
	return msg
}

func (e *Error) Unwrap() error {
	switch e.Code {
	case "NoSuchKey", "NotFound":
		return errors.Join(fs.ErrNotExist, e.Err)
	case "AccessDenied", "Forbidden":
		return errors.Join(fs.ErrPermission, e.Err)
	}
	return e.Err
}

func (s *Store) wrap(op, p string, err error) error {
	if err == nil {
		return nil
	}
	e := &Error{Op: op, Bucket: s.bucket, Key: s.key(p), Err: err}
	if op == "list" && e.Key != "" {
		e.Key += "/"
	}
	var api smithy.APIError
	var re *awshttp.ResponseError
	var de *smithy.DeserializationError
	var np *noProgressError
	switch {
	case errors.As(err, &np):
		e.Code = np.Error()
	case errors.As(err, &de):
		// A 200 whose body is not the XML it should be: the status ("OK") says nothing.
		what := "response"
		if op == "list" {
			what = "listing response"
		}
		e.Code = "malformed " + what
		if errors.As(err, &re) && re.Response != nil && re.Response.Request != nil {
			e.Code += " from " + clip(re.Response.Request.URL.Host)
		}
		e.Hint = clip(de.Err.Error())
	case errors.As(err, &api) && api.ErrorCode() != "":
		e.Code = redact.Text(clip(api.ErrorCode())) // a code may echo a credential (issue 31)
	case errors.As(err, &re) && re.HTTPStatusCode() != 0: // 0: nothing came back, see cause
		e.Code = http.StatusText(re.HTTPStatusCode())
		if e.Code == "" {
			e.Code = fmt.Sprintf("HTTP %d", re.HTTPStatusCode())
		}
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		e.Code = "canceled"
		e.Hint = err.Error()
		if errors.Is(err, context.DeadlineExceeded) {
			e.Code = "timeout"
		}
	default:
		e.Code, e.Hint = cause(err)
	}
	switch e.Code {
	case "NotFound":
		e.Code = "NoSuchKey"
	case "AccessDenied", "Forbidden":
		e.Code = "AccessDenied"
		e.Hint = "the credentials in use may not read this key: check the IAM policy or bucket policy"
	case "NoSuchBucket":
		e.Hint = "the bucket does not exist"
	case "ExpiredToken", "ExpiredTokenException", "TokenRefreshRequired", "RequestExpired":
		e.Hint = "credentials expired: refresh them (aws sso login, new session token) or use the instance profile"
	case "InvalidAccessKeyId", "SignatureDoesNotMatch":
		e.Hint = "credentials are not valid for this endpoint"
	case "SlowDown", "ThrottlingException", "RequestLimitExceeded":
		e.Hint = "still throttled after retries"
	case "PermanentRedirect", "AuthorizationHeaderMalformed":
		e.Hint = "wrong region for this bucket: set --s3-region or AWS_REGION"
	}
	return e
}

// Throttled reports whether S3 asked the caller to slow down (503 SlowDown and its kin):
// a watch backs off its interval on it.
func (e *Error) Throttled() bool {
	switch e.Code {
	case "SlowDown", "Throttling", "ThrottlingException", "RequestLimitExceeded", "TooManyRequests", "ServiceUnavailable", "Service Unavailable", "Too Many Requests":
		return true
	}
	return false
}
