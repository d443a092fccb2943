package eventlog

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/hudiscope/hudiscope/analyzers/eventlog/source"
)

// fakeSHS is a History Server with one application whose log files change between requests.
type fakeSHS struct {
	mu        sync.Mutex
	app       string
	files     map[string][]byte // zip entry name → content
	completed bool
	logsGets  int
	appGets   int
}

func (s *fakeSHS) set(files map[string][]byte, completed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.files, s.completed = files, completed
}

func (s *fakeSHS) counts() (logs, app int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.logsGets, s.appGets
}

func (s *fakeSHS) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch r.URL.Path {
	case "/api/v1/applications/" + s.app:
		s.appGets++
		fmt.Fprintf(w, `{"id":%q,"name":"x","attempts":[{"startTime":"2026-11-30T00:00:00.000GMT","completed":%v,"appSparkVersion":"3.5.1"}]}`, s.app, s.completed)
	case "/api/v1/applications/" + s.app + "/logs":
		s.logsGets++
		var names []string
		for n := range s.files {
			names = append(names, n)
		}
		sort.Strings(names)
		var b bytes.Buffer
		zw := zip.NewWriter(&b)
		for _, n := range names {
			fw, err := zw.Create(n)
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			fw.Write(s.files[n])
		}
		zw.Close()
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write(b.Bytes())
	default:
		http.Error(w, "no such application", http.StatusNotFound)
	}
}

// shsTemp points TMPDIR at a fresh directory and returns a check that no downloaded zip is
// left in it.
func shsTemp(t *testing.T) func(when string) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	return func(when string) {
		t.Helper()
		if m, _ := filepath.Glob(filepath.Join(dir, "*")); len(m) > 0 {
			t.Fatalf("%s: temporary files left: %v", when, m)
		}
	}
}

// TestFollowerHistoryServerGrowing follows a History Server application whose single
// .inprogress log grows between requests (cut mid-line), then is renamed and marked complete:
// the followed analysis equals the one-shot analysis of the final download, every poll
// downloads once, none after completion, and no temporary zip remains.
func TestFollowerHistoryServerGrowing(t *testing.T) {
	const app = "local-1795967842896"
	full, err := os.ReadFile(filepath.Join("..", "..", "testdata", "fixtures", "cdc-1.2.0", app))
	if err != nil {
		t.Skip(err)
	}
	for _, tc := range []struct {
		name   string
		killed bool // the log keeps its .inprogress name and ends mid-line
	}{{"renamed", false}, {"killed", true}} {
		t.Run(tc.name, func(t *testing.T) {
			noTemp := shsTemp(t)
			fs, fo, path, opt := shsFollower(t, app)
			ctx := context.Background()
			log := full
			if tc.killed {
				log = full[:len(full)-37] // a partial last line
			}
			const steps = 7
			grew := 0
			for i := 1; i <= steps; i++ {
				cut := len(log) * i / (steps + 1) // mid-line offsets
				fs.set(map[string][]byte{app + ".inprogress": log[:cut]}, false)
				g, err := fo.Poll(ctx)
				if err != nil {
					t.Fatalf("poll %d: %v", i, err)
				}
				if g {
					grew++
				}
				noTemp(fmt.Sprintf("poll %d", i))
				r := fo.Report()
				if r == nil || !r.Hudiscope.Source.InProgress || r.Hudiscope.Source.HistoryServer == "" {
					t.Fatalf("poll %d: report %v, want one in progress from the History Server", i, r != nil)
				}
				if want := int64(bytes.LastIndexByte(log[:cut], '\n') + 1); fo.parts[app].offset != want {
					t.Fatalf("poll %d: consumed %d bytes, want %d (whole lines of %d)", i, fo.parts[app].offset, want, cut)
				}
			}
			final := map[string][]byte{app: log}
			if tc.killed {
				final = map[string][]byte{app + ".inprogress": log}
			}
			fs.set(final, true)
			if g, err := fo.Poll(ctx); err != nil || !g {
				t.Fatalf("last poll: grew %v, err %v", g, err)
			}
			noTemp("last poll")
			for i := 0; i < 3; i++ {
				if g, err := fo.Poll(ctx); err != nil || g {
					t.Fatalf("poll after completion: grew %v, err %v", g, err)
				}
			}
			logs, apps := fs.counts()
			if n, b := fo.Downloads(); logs != steps+1 || apps != steps+1 || n != steps+1 || b <= int64(len(log))/4 {
				t.Fatalf("logs GETs %d, application GETs %d, follower downloads %d (%d bytes); want %d each", logs, apps, n, b, steps+1)
			}
			want, err := Analyze(ctx, path, opt)
			if err != nil {
				t.Fatal(err)
			}
			noTemp("one-shot")
			got := fo.Report()
			if gj, wj := followJSON(t, got), followJSON(t, want); gj != wj {
				t.Errorf("followed analysis differs from the one-shot one: %s", firstDiff(gj, wj))
			}
			wantEvents := int64(551)
			if tc.killed {
				wantEvents = 550 // the cut last line is malformed
			}
			if got.Hudiscope.Source.InProgress != tc.killed || got.Application.Observed.EventsRead != wantEvents {
				t.Errorf("in progress %v, events %d", got.Hudiscope.Source.InProgress, got.Application.Observed.EventsRead)
			}
			t.Logf("%d polls (%d with new events), %d downloads, %d events, %d stages", steps+4, grew, steps+1, got.Application.Observed.EventsRead, len(got.Stages))
		})
	}
}

// shsFollower serves app from a fake History Server (closed when the test ends) and follows
// it; path and opt are the follower's, for the one-shot read to compare with.
func shsFollower(t *testing.T, app string) (*fakeSHS, *Follower, string, Options) {
	t.Helper()
	fs := &fakeSHS{app: app}
	srv := httptest.NewServer(fs)
	t.Cleanup(srv.Close)
	path := "shs://" + srv.Listener.Addr().String() + "/" + app
	opt := Options{IncludeTasks: true, HTTPClient: srv.Client()}
	fo, err := NewFollower(path, opt)
	if err != nil {
		t.Fatal(err)
	}
	return fs, fo, path, opt
}

// A rolling log on a History Server: compressed parts appear one per poll and each is read
// once a newer one exists; the last when the status file loses .inprogress.
func TestFollowerHistoryServerRolling(t *testing.T) {
	const app = "local-1795968726856"
	src := filepath.Join("..", "..", "testdata", "fixtures", "cow-services-1.2.0", "eventlog_v2_"+app)
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Skip(err)
	}
	noTemp := shsTemp(t)
	var parts []string
	content := map[string][]byte{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		content[e.Name()] = b
		if strings.HasPrefix(e.Name(), "events_") {
			parts = append(parts, e.Name())
		}
	}
	sort.Strings(parts) // events_1 … events_5
	dir := "eventlog_v2_" + app + "/"
	status := "appstatus_" + app
	fs, fo, path, opt := shsFollower(t, app)
	ctx := context.Background()
	files := map[string][]byte{dir + status + ".inprogress": content[status]}
	var events []int64
	for i, p := range parts {
		files[dir+p] = content[p]
		fs.set(files, false)
		g, err := fo.Poll(ctx)
		if err != nil {
			t.Fatalf("poll %d: %v", i+1, err)
		}
		if g != (i > 0) {
			t.Fatalf("poll %d: grew %v; want new events exactly when an older part became complete", i+1, g)
		}
		noTemp(fmt.Sprintf("poll %d", i+1))
		if r := fo.Report(); r != nil {
			events = append(events, r.Application.Observed.EventsRead)
		}
	}
	files = map[string][]byte{dir + status: content[status]}
	for _, p := range parts {
		files[dir+p] = content[p]
	}
	fs.set(files, true)
	if g, err := fo.Poll(ctx); err != nil || !g {
		t.Fatalf("last poll: grew %v, err %v", g, err)
	}
	if g, err := fo.Poll(ctx); err != nil || g {
		t.Fatalf("poll after completion: grew %v, err %v", g, err)
	}
	noTemp("last poll")
	if logs, _ := fs.counts(); logs != len(parts)+1 {
		t.Fatalf("logs GETs %d, want %d", logs, len(parts)+1)
	}
	want, err := Analyze(ctx, path, opt)
	if err != nil {
		t.Fatal(err)
	}
	got := fo.Report()
	if gj, wj := followJSON(t, got), followJSON(t, want); gj != wj {
		t.Errorf("followed analysis differs from the one-shot one: %s", firstDiff(gj, wj))
	}
	if fmt.Sprint(events) != "[3179 6635 10225 13936]" || got.Application.Observed.EventsRead != 16034 || len(got.Hudiscope.Files) != 5 {
		t.Errorf("events after each poll %v, at the end %d", events, got.Application.Observed.EventsRead)
	}
	t.Logf("events after each poll %v, at the end %d, %d files", events, got.Application.Observed.EventsRead, len(got.Hudiscope.Files))
}

// A cancelled context ends a poll with the cancellation, naming the server, and leaves no
// temporary zip; a missing application is an error naming its URL.
func TestFollowerHistoryServerErrors(t *testing.T) {
	noTemp := shsTemp(t)
	fs := &fakeSHS{app: "app-1"}
	fs.set(map[string][]byte{"app-1.inprogress": []byte("{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.1\"}\n")}, false)
	srv := httptest.NewServer(fs)
	defer srv.Close()
	host := srv.Listener.Addr().String()
	fo, err := NewFollower("shs://"+host+"/app-1", Options{HTTPClient: srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := fo.Poll(ctx); !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), host) {
		t.Fatalf("cancelled poll: %v", err)
	}
	noTemp("cancelled poll")
	ctx = source.WithLimits(context.Background(), source.Limits{})
	if g, err := fo.Poll(ctx); err != nil || !g {
		t.Fatalf("poll: grew %v, err %v", g, err)
	}
	gone, err := NewFollower("shs://"+host+"/app-2", Options{HTTPClient: srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gone.Poll(ctx); err == nil || !strings.Contains(err.Error(), "/api/v1/applications/app-2") || !strings.Contains(err.Error(), "404") {
		t.Fatalf("missing application: %v", err)
	}
	if _, err := NewFollower("shs:///", Options{}); err == nil {
		t.Fatal("bad shs:// path accepted")
	}
	noTemp("end")
}
