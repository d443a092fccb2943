// Package s3fake is an in-process S3 for tests of hudi/storage/s3 and the packages above it:
// gofakes3 in memory with a sorted key index (prefix LISTs independent of bucket size) behind
// an http.RoundTripper that adds latency, throttling (503 SlowDown), access-denied and
// expired-token answers, and counts requests.
package s3fake

import (
	"bytes"
	"crypto/md5"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/hudiscope/hudiscope/hudi/storage"
)

// Faults shape the fake's answers.
type Faults struct {
	Latency       time.Duration // added to every request
	ThrottleEvery int           // every Nth request answers 503 SlowDown
	DenyPrefix    string        // keys (and list prefixes) under it answer 403 AccessDenied
	Expired       bool          // every request answers 400 ExpiredToken
}

// Fake is a running fake S3 holding one bucket.
type Fake struct {
	Bucket  string
	URL     string
	backend *indexed
	rt      *roundTripper
}

// New starts a fake with bucket, sets test AWS credentials in the environment, and stops it
// when the test ends.
func New(t testing.TB, bucket string, f Faults) *Fake {
	t.Helper()
	be := &indexed{Backend: s3mem.New(), bucket: bucket, meta: map[string]gofakes3.Content{}}
	if err := be.CreateBucket(bucket); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(be, gofakes3.WithLogger(gofakes3.DiscardLog())).Server())
	t.Cleanup(srv.Close)
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDTEST")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "SECRETTEST")
	t.Setenv("AWS_CONFIG_FILE", "/nonexistent")
	return &Fake{Bucket: bucket, URL: srv.URL, backend: be, rt: &roundTripper{base: http.DefaultTransport, f: f, bucket: bucket, counts: map[string]int{}}}
}

// Options point hudi/storage's S3 backend at the fake, through the fault injector.
func (f *Fake) Options() storage.Options {
	return storage.Options{S3Endpoint: f.URL, S3Region: "us-east-1", HTTPClient: &http.Client{Transport: f.rt},
		MaxBackoff: 20 * time.Millisecond}
}

// Faults changes the faults from now on (uploads bypass them).
func (f *Fake) SetFaults(x Faults) {
	f.rt.mu.Lock()
	f.rt.f = x
	f.rt.mu.Unlock()
}

// Counts returns requests by kind (GET, HEAD, LIST, others by method) and how many were
// throttled.
func (f *Fake) Counts() (map[string]int, int) {
	f.rt.mu.Lock()
	defer f.rt.mu.Unlock()
	out := map[string]int{}
	for k, v := range f.rt.counts {
		out[k] = v
	}
	return out, f.rt.throttled
}

// Requests returns requests by kind, as Counts.
func (f *Fake) Requests() map[string]int {
	c, _ := f.Counts()
	return c
}

// Total is the number of requests of every kind.
func (f *Fake) Total() int {
	n := 0
	for _, v := range f.Requests() {
		n += v
	}
	return n
}

// Throttled is the number of requests answered 503 SlowDown.
func (f *Fake) Throttled() int {
	_, n := f.Counts()
	return n
}

// Reset starts counting (and the ThrottleEvery sequence) again.
func (f *Fake) Reset() {
	f.rt.mu.Lock()
	f.rt.n, f.rt.counts, f.rt.throttled = 0, map[string]int{}, 0
	f.rt.mu.Unlock()
}

// Put stores one object.
func (f *Fake) Put(t testing.TB, key string, b []byte) {
	t.Helper()
	if _, err := f.backend.PutObject(f.Bucket, key, map[string]string{}, bytes.NewReader(b), int64(len(b)), nil); err != nil {
		t.Fatal(err)
	}
	f.backend.add(key, b)
}

// Delete removes one object.
func (f *Fake) Delete(t testing.TB, key string) {
	t.Helper()
	if _, err := f.backend.DeleteObject(f.Bucket, key); err != nil {
		t.Fatal(err)
	}
	f.backend.remove(key)
}

// Keys returns every key, sorted.
func (f *Fake) Keys() []string {
	f.backend.mu.RLock()
	defer f.backend.mu.RUnlock()
	return append([]string(nil), f.backend.keys...)
}

// SetModTime changes the LastModified a LIST reports for key (as a writer's clock would).
func (f *Fake) SetModTime(key string, at time.Time) {
	f.backend.mu.Lock()
	defer f.backend.mu.Unlock()
	if c, ok := f.backend.meta[key]; ok {
		c.LastModified = gofakes3.NewContentTime(at)
		f.backend.meta[key] = c
	}
}

// PutDir uploads every file under dir to prefix/relative-path.
func (f *Fake) PutDir(t testing.TB, dir, prefix string) int {
	t.Helper()
	n := 0
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		f.Put(t, strings.TrimPrefix(prefix+"/"+filepath.ToSlash(rel), "/"), b)
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

type roundTripper struct {
	base   http.RoundTripper
	bucket string

	mu        sync.Mutex
	f         Faults
	n         int
	counts    map[string]int
	throttled int
	inFlight  int
	maxFlight int
}

// MaxInFlight is the most requests the fake served at once since the last ResetMaxInFlight.
func (f *Fake) MaxInFlight() int {
	f.rt.mu.Lock()
	defer f.rt.mu.Unlock()
	return f.rt.maxFlight
}

// ResetMaxInFlight starts a new MaxInFlight measurement.
func (f *Fake) ResetMaxInFlight() {
	f.rt.mu.Lock()
	f.rt.maxFlight = f.rt.inFlight
	f.rt.mu.Unlock()
}

func (r *roundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	q := req.URL.Query()
	kind := req.Method
	key := strings.TrimPrefix(strings.TrimPrefix(req.URL.Path, "/"+r.bucket), "/")
	if req.Method == http.MethodGet && (q.Has("list-type") || q.Has("prefix") || q.Has("delimiter")) {
		kind, key = "LIST", q.Get("prefix")
	}
	r.mu.Lock()
	f := r.f
	r.n++
	n := r.n
	r.counts[kind]++
	deny := f.DenyPrefix != "" && strings.HasPrefix(key, f.DenyPrefix)
	throttle := !f.Expired && !deny && f.ThrottleEvery > 0 && n%f.ThrottleEvery == 0
	if throttle {
		r.throttled++
	}
	r.inFlight++
	r.maxFlight = max(r.maxFlight, r.inFlight)
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.inFlight--
		r.mu.Unlock()
	}()
	if f.Latency > 0 {
		time.Sleep(f.Latency)
	}
	switch {
	case f.Expired:
		return errorResponse(req, 400, "ExpiredToken", "The provided token has expired."), nil
	case deny:
		return errorResponse(req, 403, "AccessDenied", "Access Denied"), nil
	case throttle:
		return errorResponse(req, 503, "SlowDown", "Please reduce your request rate."), nil
	}
	return r.base.RoundTrip(req)
}

// errorResponse is an S3 error answer (no body for HEAD, as S3 sends none).
func errorResponse(req *http.Request, status int, code, msg string) *http.Response {
	body := fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>%s</Code><Message>%s</Message><RequestId>1</RequestId></Error>`, code, msg)
	if req.Method == http.MethodHead {
		body = ""
	}
	return &http.Response{StatusCode: status, Status: fmt.Sprintf("%d %s", status, http.StatusText(status)),
		Header: http.Header{"Content-Type": {"application/xml"}}, Body: io.NopCloser(strings.NewReader(body)),
		ContentLength: int64(len(body)), Request: req, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}
}

// indexed is s3mem with a sorted key index for ListBucket (s3mem scans the whole bucket on
// each LIST).
type indexed struct {
	*s3mem.Backend
	bucket string
	mu     sync.RWMutex
	keys   []string
	meta   map[string]gofakes3.Content
}

func (x *indexed) add(key string, b []byte) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if _, ok := x.meta[key]; !ok {
		i := sort.SearchStrings(x.keys, key)
		x.keys = append(x.keys, "")
		copy(x.keys[i+1:], x.keys[i:])
		x.keys[i] = key
	}
	sum := md5.Sum(b)
	x.meta[key] = gofakes3.Content{Key: key, Size: int64(len(b)), ETag: gofakes3.FormatETag(sum[:]),
		LastModified: gofakes3.NewContentTime(time.Now())}
}

// remove drops a key from the index (the caller deletes the object from s3mem).
func (x *indexed) remove(key string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if _, ok := x.meta[key]; !ok {
		return
	}
	delete(x.meta, key)
	i := sort.SearchStrings(x.keys, key)
	x.keys = append(x.keys[:i], x.keys[i+1:]...)
}

func (x *indexed) ListBucket(name string, prefix *gofakes3.Prefix, page gofakes3.ListBucketPage) (*gofakes3.ObjectList, error) {
	if name != x.bucket {
		return x.Backend.ListBucket(name, prefix, page)
	}
	if prefix == nil {
		prefix = &gofakes3.Prefix{}
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	out := gofakes3.NewObjectList()
	start := sort.SearchStrings(x.keys, prefix.Prefix)
	if page.Marker != "" && page.Marker >= prefix.Prefix {
		start = sort.SearchStrings(x.keys, page.Marker)
		if start < len(x.keys) && x.keys[start] == page.Marker {
			start++
		}
	}
	var match gofakes3.PrefixMatch
	var cnt int64
	last := ""
	for i := start; i < len(x.keys) && strings.HasPrefix(x.keys[i], prefix.Prefix); i++ {
		k := x.keys[i]
		if !prefix.Match(k, &match) {
			continue
		}
		if match.CommonPrefix {
			if match.MatchedPart == last {
				continue
			}
			out.AddPrefix(match.MatchedPart)
			last = match.MatchedPart
		} else {
			c := x.meta[k]
			out.Add(&c)
		}
		cnt++
		if page.MaxKeys > 0 && cnt >= page.MaxKeys {
			out.NextMarker = k
			out.IsTruncated = i+1 < len(x.keys) && strings.HasPrefix(x.keys[i+1], prefix.Prefix)
			break
		}
	}
	return out, nil
}

// String names the fake for logs.
func (f *Fake) String() string { return fmt.Sprintf("s3fake %s (%s)", f.Bucket, f.URL) }
