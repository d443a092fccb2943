package model

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/hudiscope/hudiscope/hudi/storage"
)

// A History Server application (shs://) is followed by the watcher too: its in-progress log
// grows between refreshes, then the server marks it completed under its final name; the
// snapshot's analysis then equals the one-shot analysis, and later refreshes download nothing.
func TestWatchFollowsHistoryServer(t *testing.T) {
	const app = "local-1795967842896"
	fx := ownFixture(t, "cdc-1.2.0")
	full, err := os.ReadFile(filepath.Join(fx, app))
	if err != nil {
		t.Skip(err)
	}
	t.Setenv("TMPDIR", t.TempDir())
	var mu sync.Mutex
	name, cut, completed, downloads := app+".inprogress", len(full)/5, false, 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		switch r.URL.Path {
		case "/api/v1/applications/" + app:
			fmt.Fprintf(w, `{"attempts":[{"completed":%v}]}`, completed)
		case "/api/v1/applications/" + app + "/logs":
			downloads++
			zw := zip.NewWriter(w)
			fw, _ := zw.Create(name)
			fw.Write(full[:cut])
			zw.Close()
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	path := "shs://" + srv.Listener.Addr().String() + "/" + app
	ctx := context.Background()
	opts := Options{Location: filepath.Join(fx, "table.zip"), EventLog: path, ClusterDefaults: "-",
		Steps: []Step{StepTimeline, StepEventLog}, FollowEventLog: true}
	s, err := Load(ctx, opts, nil)
	if err != nil || s.EventLog == nil || !s.Following() {
		t.Fatalf("load: %v, event log %v, following %v", err, s != nil && s.EventLog != nil, s.Following())
	}
	w, err := NewWatcher(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	grew := 0
	for i := 2; i <= 4; i++ {
		mu.Lock()
		cut = len(full) * i / 5
		mu.Unlock()
		_, res, err := w.Refresh(ctx, false)
		if err != nil {
			t.Fatal(err)
		}
		if res.EventLogGrew {
			grew++
		}
	}
	mu.Lock()
	name, cut, completed = app, len(full), true
	mu.Unlock()
	last, _, err := w.Refresh(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := w.Refresh(ctx, false); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	n := downloads
	mu.Unlock()
	want, err := AnalyzeEventLog(ctx, path, storage.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	gj, _ := json.Marshal(last.EventLog)
	wj, _ := json.Marshal(want)
	if !bytes.Equal(gj, wj) {
		t.Errorf("followed analysis (%d bytes of JSON) differs from the one-shot one (%d)", len(gj), len(wj))
	}
	if last.Following() || grew != 3 || n != 5 {
		t.Errorf("following %v after completion, %d refreshes grew (want 3), %d downloads (want 5: load, 3 refreshes, the final one)", last.Following(), grew, n)
	}
	if left, _ := filepath.Glob(filepath.Join(os.Getenv("TMPDIR"), "*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}
