package s3_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/metadata"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/storage/s3"
	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/internal/testutil"
	"github.com/hudiscope/hudiscope/internal/testutil/s3fake"
)

const bucket = "lake"

// fake is an in-process S3 (s3fake: gofakes3 in memory, sorted key index, fault injector).
// fakeOpts points the backend at the running fake (tests in this package run one at a time).
var fakeOpts storage.Options

type fake struct{ *s3fake.Fake }

func newFake(t testing.TB) *fake {
	t.Helper()
	// s3fake also sets the credentials in the environment, as the default chain reads them on a node.
	fk := s3fake.New(t, bucket, s3fake.Faults{})
	fakeOpts = fk.Options()
	t.Cleanup(func() { fakeOpts = storage.Options{} })
	return &fake{fk}
}

// loadStorage copies every file of a (zip) table into the bucket under prefix.
func (f *fake) loadStorage(t testing.TB, src storage.Storage, prefix string) {
	testutil.EachFile(t, src, func(p string, b []byte) { f.Put(t, prefix+"/"+p, b) })
}

func fixtureZips(t *testing.T) []string {
	zips, _ := filepath.Glob("../../../testdata/fixtures/*/table.zip")
	corpus := "../../../../shared/testdata/hudi-rs/crates/test/data"
	if _, err := os.Stat(corpus); err == nil {
		for _, z := range []string{"sample_table/mor/avro/v9_txns_simple_meta.zip", "sample_table/cow/v6_simplekeygen_nonhivestyle_overwritetable.zip",
			"sample_table/mor/parquet/v6_complexkeygen_hivestyle.zip", "sample_table/cow/v9_timebasedkeygen_epochmillis.zip"} {
			zips = append(zips, filepath.Join(corpus, z))
		}
	} else {
		t.Logf("external corpus not present at %s; using our fixtures only", corpus)
	}
	if len(zips) == 0 {
		t.Skip("no fixture zips found")
	}
	return zips
}

// loaded is what the CLI's `timeline` and `files` commands print, from one location.
type loaded struct {
	table *hudi.Table
	tl    *timeline.Timeline
	view  *filegroup.View
	mdt   *filegroup.View
}

func load(t *testing.T, location string) loaded {
	t.Helper()
	ctx := context.Background()
	tab, err := hudi.Open(ctx, location, fakeOpts)
	if err != nil {
		t.Fatal(err)
	}
	tl, err := tab.ActiveTimeline(ctx)
	if err != nil {
		t.Fatal(err)
	}
	view, err := tab.View(ctx, tl, hudi.ListingStorage)
	if err != nil {
		t.Fatal(err)
	}
	mdt, err := tab.View(ctx, tl, hudi.ListingAuto)
	if err != nil {
		t.Fatal(err)
	}
	return loaded{tab, tl, view, mdt}
}

type instantFields struct {
	Requested, Completion, Action, PlanAction, Operation, Err string
	State                                                     timeline.State
	Derived                                                   bool
	Totals                                                    timeline.CommitTotals
	Files                                                     []string
}

func instants(tl *timeline.Timeline) []instantFields {
	var out []instantFields
	for _, in := range tl.Instants {
		f := instantFields{Requested: in.RequestedTime, Completion: in.CompletionTime, Action: in.Action, PlanAction: in.PlanAction,
			Operation: in.Operation, Err: in.Err, State: in.State, Derived: in.CompletionDerived, Totals: in.Totals}
		if in.CompletionDerived {
			f.Completion = "(derived from mtime)" // S3 LastModified is the upload time, not the zip's
		}
		for _, e := range in.Files {
			f.Files = append(f.Files, fmt.Sprintf("%s:%d", in.FilePath(e), e.Size))
		}
		out = append(out, f)
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Requested+out[a].Action < out[b].Requested+out[b].Action })
	return out
}

func viewLines(v *filegroup.View) []string {
	var out []string
	for _, p := range v.Partitions {
		for _, g := range p.FileGroups {
			for _, s := range g.Slices {
				line := fmt.Sprintf("%s|%s|%s|pc=%s|pcl=%s", p.Path, g.FileID, s.BaseInstant, g.PendingCompaction, g.PendingClustering)
				if s.Base != nil {
					line += fmt.Sprintf("|base=%s:%s:%d:%s", s.Base.Name, s.Base.Path, s.Base.Size, s.Base.Instant)
				}
				for _, l := range s.Logs {
					line += fmt.Sprintf("|log=%s:%s:%d", l.Name, l.Path, l.Size)
				}
				out = append(out, line)
			}
		}
		for _, g := range p.Replaced {
			out = append(out, p.Path+"|replaced|"+g.FileID)
		}
		for _, e := range p.Uncommitted {
			out = append(out, fmt.Sprintf("%s|uncommitted|%s:%d", p.Path, e.Path, e.Size))
		}
	}
	return out
}

func diff(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s differ:\nS3:   %+v\nzip:  %+v", what, got, want)
	}
}

// TestS3EqualsZip: every fixture loaded into the fake gives the same timeline and files as
// the zip, field by field, through throttling; only GET/HEAD/LIST requests are made.
func TestS3EqualsZip(t *testing.T) {
	f := newFake(t)
	for _, z := range fixtureZips(t) {
		name := filepath.Base(filepath.Dir(z)) + "-" + strings.TrimSuffix(filepath.Base(z), ".zip")
		t.Run(name, func(t *testing.T) {
			src, err := storage.Open(z, storage.Options{})
			if err != nil {
				t.Fatal(err)
			}
			f.loadStorage(t, src, "tables/"+name)
			want := load(t, z)
			f.Reset()
			f.SetFaults(s3fake.Faults{ThrottleEvery: 7})
			defer f.SetFaults(s3fake.Faults{})
			got := load(t, "s3a://"+bucket+"/tables/"+name)
			diff(t, "config", got.table.Config.Props, want.table.Config.Props)
			diff(t, "instants", instants(got.tl), instants(want.tl))
			diff(t, "storage-listing views", viewLines(got.view), viewLines(want.view))
			diff(t, "auto views", viewLines(got.mdt), viewLines(want.mdt))
			if got.mdt.Source != want.mdt.Source {
				t.Errorf("listing source %q on S3, %q from zip", got.mdt.Source, want.mdt.Source)
			}
			if metadata.CanListFiles(got.table.Config) {
				diff(t, "MDT vs storage views", viewLines(got.mdt), viewLines(got.view))
			}
			if ps := got.table.Problems(); len(ps) != len(want.table.Problems()) {
				t.Errorf("problems on S3: %v; from zip: %v", ps, want.table.Problems())
			}
			counts := f.Requests()
			for k := range counts {
				if k != "GET" && k != "HEAD" && k != "LIST" {
					t.Errorf("unexpected %s request(s): %v", k, counts)
				}
			}
			if f.Throttled() == 0 {
				t.Errorf("no request was throttled: %v", counts)
			}
			t.Logf("requests %v, %d throttled and retried, source %q", counts, f.Throttled(), got.mdt.Source)
		})
	}
}

// TestS3AccessDeniedPartition: a partition the credentials may not read becomes a problem
// naming bucket and key; the other partitions load.
func TestS3AccessDeniedPartition(t *testing.T) {
	f := newFake(t)
	for p, b := range synthTable(5, 3) {
		f.Put(t, "denied/"+p, b)
	}
	f.SetFaults(s3fake.Faults{DenyPrefix: "denied/p=002"})
	defer f.SetFaults(s3fake.Faults{})
	ctx := context.Background()
	tab, err := hudi.Open(ctx, "s3://"+bucket+"/denied", fakeOpts)
	if err != nil {
		t.Fatal(err)
	}
	tl, err := tab.ActiveTimeline(ctx)
	if err != nil {
		t.Fatal(err)
	}
	v, err := tab.View(ctx, tl, hudi.ListingStorage)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Partitions) != 4 || v.NumFileGroups() != 12 {
		t.Errorf("loaded %v, want the 4 readable partitions", v)
	}
	var msgs []string
	for _, p := range tab.Problems() {
		msgs = append(msgs, p.String())
	}
	all := strings.Join(msgs, "\n")
	if !strings.Contains(all, "s3://lake/denied/p=002/") || !strings.Contains(all, "AccessDenied") {
		t.Errorf("problems do not name bucket, key and AccessDenied:\n%s", all)
	}
	t.Logf("problem: %s", all)
}

// TestS3Errors: missing bucket, missing key and expired credentials name bucket and key.
func TestS3Errors(t *testing.T) {
	f := newFake(t)
	f.Put(t, "t/.hoodie/hoodie.properties", []byte("x"))
	ctx := context.Background()

	_, err := hudi.Open(ctx, "s3://no-such-bucket/tables/x", fakeOpts)
	if err == nil || !strings.Contains(err.Error(), "NoSuchBucket") || !strings.Contains(err.Error(), "s3://no-such-bucket/tables/x") {
		t.Errorf("missing bucket: %v", err)
	}

	st, err := storage.Open("s3://"+bucket+"/t", fakeOpts)
	if err != nil {
		t.Fatal(err)
	}
	_, err = st.ReadFile(ctx, ".hoodie/missing.commit")
	if err == nil || !storage.IsNotExist(err) || !strings.Contains(err.Error(), "s3://lake/t/.hoodie/missing.commit") || !strings.Contains(err.Error(), "NoSuchKey") {
		t.Errorf("missing key: %v (IsNotExist %v)", err, storage.IsNotExist(err))
	}
	if _, err := st.Stat(ctx, ".hoodie"); err != nil {
		t.Errorf("stat of a prefix: %v", err)
	}
	if _, err := st.Stat(ctx, "nothing"); !storage.IsNotExist(err) {
		t.Errorf("stat of nothing: %v", err)
	}

	f.SetFaults(s3fake.Faults{Expired: true})
	defer f.SetFaults(s3fake.Faults{})
	_, err = st.ReadFile(ctx, ".hoodie/hoodie.properties")
	if err == nil || !strings.Contains(err.Error(), "credentials expired") || !strings.Contains(err.Error(), "s3://lake/t/.hoodie/hoodie.properties") {
		t.Errorf("expired credentials: %v", err)
	}
}

// TestS3RangedReads: footers are read with ranged GETs.
func TestS3RangedReads(t *testing.T) {
	f := newFake(t)
	data := make([]byte, 10000)
	for i := range data {
		data[i] = byte(i)
	}
	f.Put(t, "r/file.bin", data)
	st, err := storage.Open("s3://"+bucket+"/r", fakeOpts)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	fl, err := st.Open(ctx, "file.bin")
	if err != nil {
		t.Fatal(err)
	}
	if fl.Size() != 10000 {
		t.Fatalf("size %d", fl.Size())
	}
	buf := make([]byte, 8)
	if _, err := fl.ReadAt(buf, 9992); err != nil || !bytes.Equal(buf, data[9992:]) {
		t.Errorf("footer read %v %v", buf, err)
	}
	if n, err := fl.ReadAt(buf, 9996); n != 4 || err != io.EOF {
		t.Errorf("short read at end: %d %v", n, err)
	}
	if c := f.Requests(); c["GET"] != 2 || c["HEAD"] != 1 {
		t.Errorf("requests %v, want 1 HEAD + 2 ranged GETs", c)
	}
}

func TestParseLocation(t *testing.T) {
	for in, want := range map[string][2]string{
		"s3://b/t":            {"b", "t"},
		"s3a://b/a/b/":        {"b", "a/b"},
		"s3n://b":             {"b", ""},
		"S3://b//x//y":        {"b", "x/y"},
		"s3a://my.bucket/t/x": {"my.bucket", "t/x"},
	} {
		b, p, err := s3.ParseLocation(in)
		if err != nil || b != want[0] || p != want[1] {
			t.Errorf("ParseLocation(%q) = %q %q %v", in, b, p, err)
		}
	}
	if _, _, err := s3.ParseLocation("s3:///x"); err == nil {
		t.Errorf("no bucket accepted")
	}
}
