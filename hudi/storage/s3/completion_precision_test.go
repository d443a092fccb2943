package s3_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// S3 keeps LastModified to the second. Served with every completed instant file's
// LastModified at its requested time truncated to the second (the worst case: each instant
// completed within the second it was requested in), a table of version < 8 must still show
// no completion before its request and no negative duration, and say the times are coarse.
func TestS3SecondPrecisionCompletionTimes(t *testing.T) {
	f := newFake(t)
	ctx := context.Background()
	for _, z := range fixtureZips(t) {
		name := filepath.Base(filepath.Dir(z)) + "-" + strings.TrimSuffix(filepath.Base(z), ".zip")
		t.Run(name, func(t *testing.T) {
			src, err := storage.Open(z, storage.Options{})
			if err != nil {
				t.Fatal(err)
			}
			zt, err := hudi.OpenStorage(ctx, src)
			if err != nil {
				t.Fatal(err)
			}
			prefix := "prec/" + name
			f.loadStorage(t, src, prefix)
			for _, k := range f.Keys() {
				if !strings.HasPrefix(k, prefix+"/.hoodie/") {
					continue
				}
				in, ok := timeline.ParseInstantFileName(k[strings.LastIndex(k, "/")+1:])
				req, okt := timeline.ParseInstantTime(in.RequestedTime, zt.Config.Zone)
				if !ok || !okt || in.State != timeline.Completed {
					continue
				}
				f.SetModTime(k, req.Truncate(time.Second))
			}
			tb, err := hudi.Open(ctx, "s3://"+bucket+"/"+prefix, fakeOpts)
			if err != nil {
				t.Fatal(err)
			}
			tl, err := tb.ActiveTimeline(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if err := tb.LoadArchived(ctx, tl); err != nil {
				t.Fatal(err)
			}
			for _, in := range tl.All() {
				if in.CompletionTime != "" && timeline.CompareInstants(in.CompletionTime, in.RequestedTime) < 0 && in.Action != timeline.ActionSavepoint {
					t.Errorf("%s %s completes at %s, before its request", in.RequestedTime, in.Action, in.CompletionTime)
				}
				if d := in.Duration(); d < 0 {
					t.Errorf("%s %s: negative duration %v", in.RequestedTime, in.Action, d)
				}
				if !in.Archived && in.CompletionDerived && in.CompletionPrecision != time.Second {
					t.Errorf("%s %s: precision %v from an S3 listing, want 1s", in.RequestedTime, in.Action, in.CompletionPrecision)
				}
			}
		})
	}
}
