package model

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/hudiscope/hudiscope/analyzers/eventlog"
	"github.com/hudiscope/hudiscope/analyzers/eventlog/source"
	"github.com/hudiscope/hudiscope/hudi/storage"
)

// EventLogOptions returns analyzer options able to read location: event logs on S3
// (s3://, s3a://) and HDFS (hdfs:///var/log/spark/apps/…, EMR's default) are read through the
// same read-only storage backends as tables; local paths and shs:// need nothing extra.
func EventLogOptions(ctx context.Context, location string, so storage.Options, opt eventlog.Options) (eventlog.Options, error) {
	i := strings.Index(location, "://")
	if i <= 0 {
		return opt, nil
	}
	switch scheme := strings.ToLower(location[:i]); scheme {
	case "file", "shs", "http", "https":
		return opt, nil
	}
	u, err := url.Parse(location)
	if err != nil {
		return opt, fmt.Errorf("event log %s: %w", location, err)
	}
	root := u.Scheme + "://" + u.Host + "/"
	st, err := storage.Open(root, so)
	if err != nil {
		return opt, fmt.Errorf("event log %s: %w", location, err)
	}
	opt.Opener = &storageOpener{ctx: ctx, st: st, root: root}
	return opt, nil
}

// storageOpener adapts a storage backend rooted at scheme://host/ to the event-log reader,
// which addresses files by their full URI.
type storageOpener struct {
	ctx  context.Context
	st   storage.Storage
	root string
}

func (o *storageOpener) rel(p string) string {
	if u, err := url.Parse(p); err == nil && u.Scheme != "" {
		return strings.Trim(u.Path, "/")
	}
	return strings.Trim(p, "/")
}

// Open reads a part sequentially in large ranged reads (one request per 8 MiB on S3).
func (o *storageOpener) Open(p string) (io.ReadCloser, error) {
	f, err := o.st.Open(o.ctx, o.rel(p))
	if err != nil {
		return nil, err
	}
	r := bufio.NewReaderSize(io.NewSectionReader(f, 0, f.Size()), 8<<20)
	return struct {
		io.Reader
		io.Closer
	}{r, f}, nil
}

func (o *storageOpener) List(dir string) ([]source.Entry, error) {
	es, err := o.st.List(o.ctx, o.rel(dir))
	if err != nil {
		return nil, err
	}
	out := make([]source.Entry, len(es))
	for i, e := range es {
		out[i] = source.Entry{Name: e.Name, Size: e.Size, IsDir: e.IsDir}
	}
	return out, nil
}

func (o *storageOpener) Stat(p string) (source.Entry, error) {
	e, err := o.st.Stat(o.ctx, o.rel(p))
	if err != nil {
		return source.Entry{}, err
	}
	return source.Entry{Name: e.Name, Size: e.Size, IsDir: e.IsDir}, nil
}

func (o *storageOpener) Join(dir, name string) string {
	return strings.TrimRight(dir, "/") + "/" + name
}
