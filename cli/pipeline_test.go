package cli

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/hudiscope/hudiscope/model"
)

// startFakeS3 serves an in-memory S3 on loopback holding the zip's table under
// s3://lake/<name>/, and points the child processes' AWS SDK at static test credentials.
func startFakeS3(t *testing.T, zipPath, name string) (endpoint, location string) {
	t.Helper()
	be := s3mem.New()
	if err := be.CreateBucket("lake"); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.OpenReader(zipPath)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	for _, f := range zr.File {
		if f.FileInfo().IsDir() {
			continue
		}
		// The zip's single top-level folder is the table root.
		rel := f.Name[strings.Index(f.Name, "/")+1:]
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := be.PutObject("lake", name+"/"+rel, map[string]string{}, bytes.NewReader(b), int64(len(b)), nil); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(gofakes3.New(be, gofakes3.WithLogger(gofakes3.DiscardLog())).Server())
	t.Cleanup(srv.Close)
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDTEST")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "SECRETTEST")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(t.TempDir(), "none"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(t.TempDir(), "none"))
	return srv.URL, "s3://lake/" + name
}

func decodeJSON(t *testing.T, what, s string) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%s: %v\n%.400s", what, err, s)
	}
	return v
}

// Every command that reads a table takes the same storage flags: each one run against the S3
// fake with --s3-endpoint gives the answer it gives on the zip.
func TestEveryTableCommandReadsS3(t *testing.T) {
	zipPath := filepath.Join("..", "testdata", "fixtures", "cow-services-1.2.0", "table.zip")
	endpoint, location := startFakeS3(t, zipPath, "cow")
	// The table goes right after the command word, before the command's other arguments.
	s3 := func(args ...string) []string {
		out := append([]string{args[0], location}, args[1:]...)
		return append(out, "--s3-endpoint", endpoint, "--s3-region", "us-east-1", "--cluster-defaults", "-")
	}
	local := func(args ...string) []string {
		return append(append([]string{args[0], zipPath}, args[1:]...), "--cluster-defaults", "-")
	}
	run := func(args []string) string {
		t.Helper()
		stdout, stderr, code := runCLI(t, args...)
		if code != 0 && !(args[0] == "checkpoint" && (code == exitCheckpointReRead || code == exitCheckpointNotSafe)) {
			t.Fatalf("%v: exit %d\n%s", args, code, stderr)
		}
		return stdout
	}

	// timeline: the same instants (the table block names its own base path).
	got, want := decodeJSON(t, "timeline s3", run(s3("timeline", "--json"))), decodeJSON(t, "timeline zip", run(local("timeline", "--json")))
	if !reflect.DeepEqual(got["instants"], want["instants"]) || len(want["instants"].([]any)) != 28 {
		t.Errorf("timeline differs between S3 and zip (%d instants from the zip)", len(want["instants"].([]any)))
	}
	if bp := got["table"].(map[string]any)["basePath"]; bp != location {
		t.Errorf("basePath %v", bp)
	}
	// files: identical, listing source included.
	if g, w := run(s3("files", "--json")), run(local("files", "--json")); g != w {
		t.Errorf("files differ:\nS3:  %.300s\nzip: %.300s", g, w)
	}
	// checkpoint: the same verdict text on the requested time of the first commit.
	cp := want["instants"].([]any)[0].(map[string]any)["requestedTime"].(string)
	if g, w := run(s3("checkpoint", cp)), run(local("checkpoint", cp)); g != w || !strings.Contains(w, cp) {
		t.Errorf("checkpoint differs:\nS3:  %s\nzip: %s", g, w)
	}
	// layout: the same table statistics from the same listing source.
	gl, wl := decodeJSON(t, "layout s3", run(s3("layout", "--output", "JSON"))), decodeJSON(t, "layout zip", run(local("layout", "--output", "JSON")))
	for _, k := range []string{"numPartitions", "totalBytes", "totalFiles", "tableSizeStats", "fileCountPerPartition", "skew"} {
		if !reflect.DeepEqual(gl[k], wl[k]) || wl[k] == nil {
			t.Errorf("layout %s differs: %v vs %v", k, gl[k], wl[k])
		}
	}
	if src := gl["hudiscope"].(map[string]any)["listingSource"]; src != wl["hudiscope"].(map[string]any)["listingSource"] {
		t.Errorf("layout listing source %v on S3", src)
	}
	// health: every check has the zip's status.
	status := func(doc map[string]any) map[string]any {
		out := map[string]any{}
		for _, c := range doc["checks"].([]any) {
			c := c.(map[string]any)
			out[c["name"].(string)] = c["status"]
		}
		return out
	}
	gh, wh := decodeJSON(t, "health s3", run(s3("health", "--output", "JSON"))), decodeJSON(t, "health zip", run(local("health", "--output", "JSON")))
	if !reflect.DeepEqual(status(gh), status(wh)) || len(status(wh)) < 5 {
		t.Errorf("health statuses differ: %v vs %v", status(gh), status(wh))
	}
	// report: the same instants and findings.
	gr, wr := decodeJSON(t, "report s3", run(s3("report", "--format", "json"))), decodeJSON(t, "report zip", run(local("report", "--format", "json")))
	if !reflect.DeepEqual(gr["instants"], wr["instants"]) {
		t.Error("report instants differ between S3 and zip")
	}
}

// `hudiscope layout` and the explorer's Layout pane read the same model: the same listing
// source and the same table numbers on every fixture.
func TestLayoutCommandMatchesExplorer(t *testing.T) {
	zips, _ := filepath.Glob(filepath.Join("..", "testdata", "fixtures", "*", "table.zip"))
	if len(zips) < 10 {
		t.Fatalf("found %d fixtures", len(zips))
	}
	for _, z := range zips {
		t.Run(filepath.Base(filepath.Dir(z)), func(t *testing.T) {
			s, err := model.Load(context.Background(), model.Options{Location: z, ClusterDefaults: "-"}, nil)
			if err != nil || s.Layout == nil {
				t.Fatalf("explorer load: %v (layout %v)", err, s.StepErrors[model.StepLayout])
			}
			stdout, stderr, code := runCLI(t, "layout", z, "--output", "JSON", "--cluster-defaults", "-")
			if code != 0 {
				t.Fatalf("layout: exit %d: %s", code, stderr)
			}
			cli := decodeJSON(t, "layout", stdout)
			b, _ := json.Marshal(s.Layout)
			pane := decodeJSON(t, "explorer layout", string(b))
			for _, k := range []string{"mdtEnabled", "numPartitions", "totalBytes", "totalFiles", "tableSizeStats", "fileCountPerPartition", "skew"} {
				if !reflect.DeepEqual(cli[k], pane[k]) || pane[k] == nil {
					t.Errorf("%s: command %v, explorer %v", k, cli[k], pane[k])
				}
			}
			src := cli["hudiscope"].(map[string]any)["listingSource"]
			if src != s.View.Source || s.Layout.Hudiscope.ListingSource != s.View.Source {
				t.Errorf("listing source: command %q, explorer %q (view %q)", src, s.Layout.Hudiscope.ListingSource, s.View.Source)
			}
		})
	}
}
