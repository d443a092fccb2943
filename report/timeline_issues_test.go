package report

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/internal/testutil"
	"github.com/hudiscope/hudiscope/model"
)

// The timeline JSON carries each commit's write errors and marks a pending write behind a
// completed instant as stalled, streamed and built alike (a copy of cow-services-0.15.0:
// commit 20261129165634001, 14 records written, edited to count 3+3 failed; an inflight
// commit 20261129165700000 left before the newest completed instant 20261129165727052).
func TestTimelineJSONWriteErrorsAndStalled(t *testing.T) {
	dir := testutil.WriteErrorsTable(t, "..")
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	s, err := model.Load(context.Background(), model.Options{Location: dir, ClusterDefaults: "-",
		Steps: []model.Step{model.StepTimeline}, Now: func() time.Time { return now }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var streamed bytes.Buffer
	if err := WriteTimelineJSON(&streamed, s, s.Timeline.Instants, nil); err != nil {
		t.Fatal(err)
	}
	built, err := json.MarshalIndent(NewTimelineDocument(s, s.Timeline.Instants), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	for name, doc := range map[string][]byte{"streamed": streamed.Bytes(), "built": built} {
		var d struct {
			SchemaVersion string `json:"schemaVersion"`
			Instants      []struct {
				RequestedTime    string `json:"requestedTime"`
				NumWrites        int64  `json:"numWrites"`
				TotalWriteErrors *int64 `json:"totalWriteErrors"`
				Stalled          *bool  `json:"stalled"`
			} `json:"instants"`
		}
		if err := json.Unmarshal(doc, &d); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if d.SchemaVersion != SchemaVersion {
			t.Errorf("%s: schemaVersion %s", name, d.SchemaVersion)
		}
		var errs, stalled []string
		for _, in := range d.Instants {
			if in.TotalWriteErrors == nil || in.Stalled == nil {
				t.Fatalf("%s: %s lacks totalWriteErrors or stalled", name, in.RequestedTime)
			}
			if *in.TotalWriteErrors > 0 {
				errs = append(errs, in.RequestedTime+" "+itoa64(in.NumWrites)+" "+itoa64(*in.TotalWriteErrors))
			}
			if *in.Stalled {
				stalled = append(stalled, in.RequestedTime)
			}
		}
		if strings.Join(errs, ",") != "20261129165634001 14 6" || strings.Join(stalled, ",") != "20261129165700000" {
			t.Errorf("%s: write errors %v, stalled %v", name, errs, stalled)
		}
	}
}

func itoa64(n int64) string { return i64(n) }
