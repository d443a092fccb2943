package eventlog

import (
	"archive/zip"
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

// TestHistoryServer serves a fixture rolling log as the History Server's
// /api/v1/applications/<id>/logs zip and checks the result equals the local read.
func TestHistoryServer(t *testing.T) {
	dir := filepath.Join(sharedLogs(t), "spark-codecs-reencoded", "eventlog_v2_application_1724877841851_0016_1")
	var zbuf bytes.Buffer
	zw := zip.NewWriter(&zbuf)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		w, _ := zw.Create("eventlog_v2_application_1724877841851_0016_1/" + e.Name())
		w.Write(b)
	}
	zw.Close()
	var gotPath string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotPath = r.URL.Path
		if r.URL.Path != "/api/v1/applications/application_1724877841851_0016/1/logs" {
			http.Error(w, "no such app", http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write(zbuf.Bytes())
	}))
	defer srv.Close()
	host := srv.Listener.Addr().String()

	remote, err := Analyze(t.Context(), "shs://"+host+"/application_1724877841851_0016/1", Options{HTTPClient: srv.Client()})
	if err != nil {
		t.Fatalf("%v (path %s)", err, gotPath)
	}
	local := analyzePath(t, dir)
	if remote.Application.Observed != local.Application.Observed || len(remote.Stages) != len(local.Stages) ||
		remote.Hudiscope.Source.Layout != "rolling" || len(remote.Hudiscope.Files) != 6 || remote.Hudiscope.Source.HistoryServer == "" {
		t.Fatalf("remote %+v\nlocal %+v", remote.Application.Observed, local.Application.Observed)
	}
	if remote.Application.Observed.EventsRead != 275 {
		t.Fatalf("events %d", remote.Application.Observed.EventsRead)
	}
	if _, err := Analyze(t.Context(), "shs://"+host+"/nope", Options{HTTPClient: srv.Client()}); err == nil {
		t.Fatal("404 not reported")
	}
}
