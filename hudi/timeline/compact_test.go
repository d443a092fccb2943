package timeline_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"
	"unsafe"

	"github.com/hudiscope/hudiscope/hudi/problem"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/tableconfig"
	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/internal/testutil"
)

// namesOnly lists through ListNames (entries), hiding the local backend's name blocks.
type namesOnly struct {
	storage.Storage
	l *storage.Local
}

func (n namesOnly) ListNames(ctx context.Context, dir string) ([]storage.Entry, error) {
	return n.l.ListNames(ctx, dir)
}

func openFixture(t *testing.T, name string) (*storage.Local, *tableconfig.Config) {
	t.Helper()
	dir := testutil.UnzipTable(t, "../../testdata/fixtures/"+name+"/table.zip", t.TempDir())
	st, err := storage.OpenLocal(dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := tableconfig.Read(context.Background(), st, ".hoodie/hoodie.properties")
	if err != nil {
		t.Fatal(err)
	}
	return st, cfg
}

// instantText is what a test compares of an instant: its exported fields but Commit (a
// pointer) and its files (name, path, size, time).
func instantText(in *timeline.Instant) string {
	s := ""
	v := reflect.ValueOf(*in)
	for i := range v.NumField() {
		if f := v.Type().Field(i); f.IsExported() && f.Name != "Files" && f.Name != "Commit" {
			s += fmt.Sprintf("%s:%+v ", f.Name, v.Field(i).Interface())
		}
	}
	for _, f := range in.Files {
		s += fmt.Sprintf(" [%s %s %d %v %v %v]", f.Name, in.FilePath(f), f.Size, f.ModTime(), f.ModTimePrecision(), f.IsDir())
	}
	return s
}

// A timeline read from a name block equals one read from listed entries, for a table that
// names completion times (1.x) and one whose completion times come from modification times
// (0.x, stat-ed one by one); and an instant's times and file names share the listing's
// memory rather than keeping strings of their own.
func TestActiveNamesBlockMatchesEntries(t *testing.T) {
	ctx := context.Background()
	for _, fx := range []string{"cow-services-1.2.0", "cow-services-0.15.0", "mor-compaction-1.2.0"} {
		st, cfg := openFixture(t, fx)
		read := func(s storage.Storage) (*timeline.Timeline, []problem.Problem) {
			r := &timeline.Reader{Store: s, Config: cfg, Problems: &problem.Log{}}
			tl, err := r.ActiveNames(ctx)
			if err != nil {
				t.Fatal(err)
			}
			return tl, r.Problems.List()
		}
		got, gotProbs := read(st)
		want, wantProbs := read(namesOnly{st, st})
		if len(got.Instants) < 5 || len(got.Instants) != len(want.Instants) {
			t.Fatalf("%s: %d instants from the block, %d from entries", fx, len(got.Instants), len(want.Instants))
		}
		for i, in := range got.Instants {
			if g, w := instantText(in), instantText(want.Instants[i]); g != w {
				t.Errorf("%s instant %d:\n%s\nwant\n%s", fx, i, g, w)
			}
			if len(in.Files) == 0 {
				t.Fatalf("%s instant %d has no files", fx, i)
			}
			for _, f := range in.Files {
				if cfg.Version >= 8 && f.Size != -1 {
					t.Errorf("%s %s: size %d from a name listing", fx, f.Name, f.Size)
				}
			}
			// Both listings: the requested time is the head of a kept file name, not a copy.
			if !headOfName(in) || !headOfName(want.Instants[i]) {
				t.Errorf("%s instant %d: requested time is not the head of a file name", fx, i)
			}
		}
		if !reflect.DeepEqual(gotProbs, wantProbs) {
			t.Errorf("%s: problems %v, want %v", fx, gotProbs, wantProbs)
		}
		if cfg.Version < 8 && !got.Instants[0].CompletionDerived {
			t.Errorf("%s: completion time not derived: the stat path is not tested", fx)
		}
	}
}

func headOfName(in *timeline.Instant) bool {
	for _, f := range in.Files {
		if unsafe.StringData(in.RequestedTime) == unsafe.StringData(f.Name) {
			return true
		}
	}
	return false
}

// Decode reads what LoadCommits reads without writing to the instants; WithDecoded puts it
// on copies, which equal instants read by LoadCommits.
func TestDecodeLeavesInstants(t *testing.T) {
	ctx := context.Background()
	for _, compact := range []bool{false, true} {
		st, cfg := openFixture(t, "cow-services-1.2.0")
		r := &timeline.Reader{Store: st, Config: cfg, Problems: &problem.Log{}, Compact: compact}
		tl, err := r.ActiveNames(ctx)
		if err != nil {
			t.Fatal(err)
		}
		before := make([]string, len(tl.Instants))
		for i, in := range tl.Instants {
			before[i] = instantText(in)
		}
		dec := r.Decode(ctx, tl.Instants)
		loaded, err := (&timeline.Reader{Store: st, Config: cfg, Problems: &problem.Log{}, Compact: compact}).ActiveNames(ctx)
		if err != nil {
			t.Fatal(err)
		}
		r.LoadCommits(ctx, loaded.Instants)
		copied, unread := 0, 0
		for i, in := range tl.Instants {
			if instantText(in) != before[i] {
				t.Errorf("compact %v: instant %d written to by Decode", compact, i)
			}
			if !in.MetadataLoaded() {
				unread++
			}
			c := in.WithDecoded(&dec[i])
			if c != in {
				copied++
			}
			l := loaded.Instants[i]
			if g, w := instantText(c), instantText(l); g != w {
				t.Errorf("compact %v instant %d:\n%s\nwant\n%s", compact, i, g, w)
			}
			gw, gok := c.Writes()
			ww, wok := l.Writes()
			if gok != wok || !reflect.DeepEqual(gw, ww) || c.MetadataLoaded() != l.MetadataLoaded() || !reflect.DeepEqual(c.Commit, l.Commit) || (c.Commit == nil) == (!compact && c.HasWrites()) {
				t.Errorf("compact %v instant %d: writes %v %v, want %v %v", compact, i, gok, gw, wok, ww)
			}
		}
		if copied == 0 || copied != unread {
			t.Errorf("compact %v: %d copies for %d unread instants", compact, copied, unread)
		}
	}
}

// A File keeps an entry's size, time (to the nanosecond, or none), precision and kind.
func TestFileKeepsEntry(t *testing.T) {
	root := testutil.WriteFiles(t, map[string][]byte{".hoodie/timeline/20261130100000001.commit.requested": nil})
	st, err := storage.OpenLocal(root)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &tableconfig.Config{Version: 9, Zone: time.UTC, TimelineDir: ".hoodie/timeline"}
	mtime := time.Date(2026, 11, 30, 10, 0, 0, 123456789, time.UTC)
	for _, e := range []storage.Entry{
		{Name: "20261130100000001.commit.requested", Size: -1},
		{Name: "20261130100000001.commit.requested", Size: 12345, ModTime: mtime, ModTimePrecision: storage.PrecisionLocal},
		{Name: "20261130100000001.commit.requested", Size: 7, ModTime: mtime.Truncate(2 * time.Second), ModTimePrecision: storage.PrecisionZipDOS},
		{Name: "20261130100000001.commit.requested", Size: 0, ModTime: time.Unix(0, 0), ModTimePrecision: storage.PrecisionS3, IsDir: true},
		{Name: "20261130100000001.commit.requested", Size: 1, ModTime: mtime, ModTimePrecision: 90 * time.Second},
	} {
		e.Path = ".hoodie/timeline/" + e.Name
		r := &timeline.Reader{Store: listed{st, []storage.Entry{e}}, Config: cfg, Problems: &problem.Log{}}
		tl, err := r.ActiveNames(context.Background())
		if err != nil || len(tl.Instants) != 1 || len(tl.Instants[0].Files) != 1 {
			t.Fatalf("%+v: %v", e, err)
		}
		in := tl.Instants[0]
		f := in.Files[0]
		if f.Name != e.Name || in.FilePath(f) != e.Path || f.Size != e.Size || !f.ModTime().Equal(e.ModTime) || f.ModTime().IsZero() != e.ModTime.IsZero() ||
			f.ModTimePrecision() != e.ModTimePrecision || f.IsDir() != e.IsDir {
			t.Errorf("kept %s %s %d %v %v %v, listed %+v", f.Name, in.FilePath(f), f.Size, f.ModTime(), f.ModTimePrecision(), f.IsDir(), e)
		}
	}
}

// listed serves a fixed listing of the timeline folder.
type listed struct {
	storage.Storage
	entries []storage.Entry
}

func (l listed) List(context.Context, string) ([]storage.Entry, error) { return l.entries, nil }
