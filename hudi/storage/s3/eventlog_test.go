package s3_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/model"
)

// Event logs on S3 read through the same backend as tables and give exactly the local result:
// a single-file log and a rolling eventlog_v2_ directory from our fixtures.
func TestEventLogFromS3(t *testing.T) {
	f := newFake(t)
	ctx := context.Background()
	fx := filepath.Join("..", "..", "..", "testdata", "fixtures")
	logs := map[string]string{}
	for _, pat := range []string{"incr-1.2.0/local-*", "cow-services-1.2.0/eventlog_v2_*"} {
		m, _ := filepath.Glob(filepath.Join(fx, pat))
		if len(m) == 0 {
			t.Fatalf("fixture %s missing", pat)
		}
		local := m[0]
		key := "spark-logs/" + filepath.Base(local)
		filepath.Walk(local, func(p string, info os.FileInfo, err error) error {
			if err != nil || info.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(local, p)
			b, _ := os.ReadFile(p)
			k := key
			if rel != "." {
				k = key + "/" + filepath.ToSlash(rel)
			}
			f.Put(t, k, b)
			return nil
		})
		logs[local] = "s3a://" + bucket + "/" + key
	}
	for local, remote := range logs {
		want, err := model.AnalyzeEventLog(ctx, local, storage.Options{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := model.AnalyzeEventLog(ctx, remote, fakeOpts, nil)
		if err != nil {
			t.Fatalf("%s: %v", remote, err)
		}
		got.EventLogPath, want.EventLogPath = "", ""
		// Only the file paths may differ.
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(want)
		gj = []byte(strings.ReplaceAll(string(gj), remote, "LOG"))
		wj = []byte(strings.ReplaceAll(string(wj), local, "LOG"))
		if string(gj) != string(wj) {
			i := 0
			for i < len(gj) && i < len(wj) && gj[i] == wj[i] {
				i++
			}
			t.Errorf("%s differs from the local analysis at byte %d:\n s3    %.300s\n local %.300s", remote, i, gj[max(0, i-100):], wj[max(0, i-100):])
		}
		if len(got.Stages) == 0 {
			t.Errorf("%s: no stages", remote)
		}
	}
	if n := f.Requests(); n["PUT"]+n["POST"]+n["DELETE"] > 0 {
		t.Errorf("write requests: %v", n)
	}
}
