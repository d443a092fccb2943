package view

import (
	"context"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/model"
)

// loadServices loads the timeline of cow-services-1.2.0 (clock pinned).
func loadServices(t *testing.T) *model.Snapshot {
	t.Helper()
	zip := "../testdata/fixtures/cow-services-1.2.0/table.zip"
	if _, err := os.Stat(zip); err != nil {
		t.Skipf("fixture %s not present: %v", zip, err)
	}
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	s, err := model.Load(context.Background(), model.Options{Location: zip, ClusterDefaults: "-", Steps: []model.Step{model.StepTimeline},
		Now: func() time.Time { return now }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// servicesInstant loads cow-services-1.2.0 and reads the details of the instant requested at
// req.
func servicesInstant(t *testing.T, req string) (*timeline.Instant, *timeline.Details) {
	t.Helper()
	s := loadServices(t)
	for _, in := range s.TimelineInstants() {
		if in.RequestedTime == req {
			d, err := s.InstantDetails(context.Background(), in)
			if err != nil {
				t.Fatalf("details of %s: %v", req, err)
			}
			return in, d
		}
	}
	t.Fatalf("no instant %s", req)
	return nil, nil
}

func texts(r []Cell) []string {
	out := make([]string, len(r))
	for i, c := range r {
		out[i] = c.Text
	}
	return out
}

// TestInstantDetailClustering: the clustering replacecommit 20261129162054490 of
// cow-services-1.2.0, checked against its files decoded by hand (Avro): the commit wrote one
// parquet file in each of 3 partitions (31, 14 and 30 inserts; 10829, 10566 and 10832 bytes:
// 75 records and 32227 bytes, as Java's `commits show` has it) and replaced 28+7+27 = 62 file
// groups; the plan has 3 input groups (28, 7, 27 slices, no log files, 1 output group each).
// A new file's prevCommit is stored as the string "null" and shown as stored.
func TestInstantDetailClustering(t *testing.T) {
	in, d := servicesInstant(t, "20261129162054490")
	v := InstantDetail(in, d)
	info := map[string]string{}
	for _, kv := range v.Info {
		info[kv[0]] = kv[1]
	}
	for k, want := range map[string]string{
		"instant":             "20261129162054490 replacecommit completed",
		"plan":                "clustering",
		"operation":           "CLUSTER",
		"written":             "75 records (75 inserted, 0 updated, 0 deleted), 31KiB in 3 file(s), 3 partition(s)",
		"replaces":            "62 file group(s)",
		"clustering strategy": "org.apache.hudi.client.clustering.run.strategy.SparkSortAndSizeExecutionStrategy",
	} {
		if info[k] != want {
			t.Errorf("info %q = %q, want %q", k, info[k], want)
		}
	}
	if !strings.HasPrefix(info["times"], "requested 20261129162054490, completed 20261129162133656, took ") {
		t.Errorf("times = %q", info["times"])
	}
	if len(v.Notes) != 0 {
		t.Errorf("notes: %v", v.Notes)
	}
	var titles []string
	for _, tb := range v.Tables {
		titles = append(titles, tb.Title)
	}
	if want := []string{"files written", "partitions written", "clustering plan"}; !reflect.DeepEqual(titles, want) {
		t.Fatalf("tables %v, want %v", titles, want)
	}
	files, parts, plan := v.Tables[0], v.Tables[1], v.Tables[2]
	if len(files.Rows) != 3 || len(parts.Rows) != 3 {
		t.Fatalf("files %d rows, partitions %d rows; want 3 and 3", len(files.Rows), len(parts.Rows))
	}
	byPart := map[string][]string{}
	for _, r := range files.Rows {
		byPart[r[0].Text] = texts(r)
	}
	if got, want := byPart["2024-01-01"], []string{"2024-01-01", "dda28d7c-dcdf-457a-8bf4-77f57c91ed6d-0", "parquet", "null", "31", "31", "0", "0", "11KiB", "11KiB"}; !reflect.DeepEqual(got, want) {
		t.Errorf("files written 2024-01-01: %q, want %q", got, want)
	}
	var written float64
	for _, r := range files.Rows {
		if c := r[8]; !c.Numeric {
			t.Errorf("written cell %q is not numeric", c.Text)
		}
		written += r[8].Num
	}
	if written != 32227 {
		t.Errorf("files written sum to %v bytes, want 32227", written)
	}
	if files.PartCol != 1 || files.GroupCol != 2 || !files.Mid[1] || !files.Right[4] || files.Right[2] {
		t.Errorf("files written: part col %d, group col %d, mid %v, right %v", files.PartCol, files.GroupCol, files.Mid, files.Right)
	}
	wantParts := map[string][]string{"2024-01-01": {"1", "31", "31", "0", "0"}, "2024-01-02": {"1", "14", "14", "0", "0"}, "2024-01-03": {"1", "30", "30", "0", "0"}}
	for _, r := range parts.Rows {
		if got := texts(r)[1:6]; !reflect.DeepEqual(got, wantParts[r[0].Text]) {
			t.Errorf("partitions written %s: %q, want %q", r[0].Text, got, wantParts[r[0].Text])
		}
	}
	if len(plan.Rows) != 62 || plan.PartCol != 2 {
		t.Fatalf("clustering plan: %d rows, part col %d; want 62 and 2", len(plan.Rows), plan.PartCol)
	}
	slices := map[string]int{}
	for _, r := range plan.Rows {
		slices[r[0].Text+" "+r[1].Text]++
		if r[3].Text != "0" || r[4].Text != "1" {
			t.Errorf("plan row %q: want 0 log files and 1 output group", texts(r))
		}
	}
	if want := map[string]int{"1 2024-01-01": 28, "2 2024-01-02": 7, "3 2024-01-03": 27}; !reflect.DeepEqual(slices, want) {
		t.Errorf("plan slices per group %v, want %v", slices, want)
	}
	if got := plan.Rows[0][2].Text; got != "3b7c516c-fb3d-42d9-b26f-4da2ec1b3bb6-0" {
		t.Errorf("first slice's file group %s", got)
	}
}

// TestInstantDetailNotRead: before the details are read, the facts the timeline alone gives
// (the explorer shows them while it reads).
func TestInstantDetailNotRead(t *testing.T) {
	in := &timeline.Instant{RequestedTime: "20261129162054490", Action: "commit", State: timeline.Inflight, Operation: "UPSERT"}
	v := InstantDetail(in, nil)
	want := [][2]string{
		{"instant", "20261129162054490 commit inflight"},
		{"times", "requested 20261129162054490, completed -, took -"},
		{"operation", "UPSERT"},
	}
	if !reflect.DeepEqual(v.Info, want) || v.Tables != nil || v.Notes != nil {
		t.Errorf("InstantDetail(nil details) = %+v, want info %v only", v, want)
	}
}

// TestInstantDetailJSONFallback: an instant no typed table applies to shows its stored JSON as
// key/value rows (sizes in binary units, milliseconds as durations, instants as written) and
// keeps the indented JSON for an export; text that is not JSON is shown line by line.
func TestInstantDetailJSONFallback(t *testing.T) {
	in := &timeline.Instant{RequestedTime: "20261129162054490", Action: "indexing", State: timeline.Completed}
	v := InstantDetail(in, &timeline.Details{Content: []byte(`{"a":{"fileSizeInBytes":2048,"timeTakenMillis":1500,"instant":20261129162054490,"n":3,"ok":true,"s":"","e":[]}}`)})
	tb := v.Tables[0]
	var got []string
	for _, r := range tb.Rows {
		got = append(got, r[0].Text+"="+r[1].Text)
	}
	want := []string{"a.fileSizeInBytes=2.0KiB", "a.timeTakenMillis=1.5s", "a.instant=20261129162054490", "a.n=3", "a.ok=yes", "a.s=-", "a.e=[]"}
	if tb.Title != "metadata (JSON)" || !reflect.DeepEqual(got, want) {
		t.Errorf("%s: %q, want %q", tb.Title, got, want)
	}
	if !tb.Rows[0][1].Numeric || tb.Rows[0][1].Num != 2048 || tb.Rows[1][1].Numeric || len(tb.Raw) != 11 {
		t.Errorf("cells %+v %+v, raw %d lines", tb.Rows[0][1], tb.Rows[1][1], len(tb.Raw))
	}
	v = InstantDetail(in, &timeline.Details{Plan: []byte("not json\nat all")})
	if tb := v.Tables[0]; tb.Title != "plan (JSON)" || !reflect.DeepEqual(tb.Columns, []string{"plan (JSON)"}) || len(tb.Rows) != 2 || tb.Rows[1][0].Text != "at all" {
		t.Errorf("not JSON: %+v", tb)
	}
	v = InstantDetail(in, &timeline.Details{})
	if tb := v.Tables[0]; len(tb.Rows) != 1 || tb.Rows[0][0].Text != "(this instant has no stored metadata)" {
		t.Errorf("no metadata: %+v", tb)
	}
}

func TestFileKind(t *testing.T) {
	for path, want := range map[string]string{
		"p/.f1-0_20261129162054490.log.3_1-0-1":  "log 3 1-0-1",
		"p/.f1-0_20261129162054490.log.2":        "log 2",
		"p/f1-0_0-1-2_20261129162054490.parquet": "parquet",
		"p/":                                     "-",
	} {
		if got := FileKind(path); got != want {
			t.Errorf("FileKind(%q) = %q, want %q", path, got, want)
		}
	}
}

// TestRecordTable: the rows the last commit of cow-services-1.2.0 (20261129162134323, an
// UPSERT) left: 5 records, its 2 inserts and 3 updates by its write stats (1+1 in 2024-01-01,
// 1 in 2024-01-02, 1+1 in 2024-01-03), as Java's incremental query counts rows with that
// commit time; record key and partition first, then the data columns in the writer schema's
// order (id, name, ts, dt) without Hudi's meta columns.
func TestRecordTable(t *testing.T) {
	s := loadServices(t)
	var in *timeline.Instant
	for _, x := range s.TimelineInstants() {
		if x.RequestedTime == "20261129162134323" {
			in = x
		}
	}
	if in == nil {
		t.Fatal("no instant 20261129162134323")
	}
	p, err := s.CommitRows(in).Page(context.Background(), 0, 200, "")
	if err != nil {
		t.Fatal(err)
	}
	tb := RecordTable(p.Rows)
	if want := []string{"record key", "partition", "id", "name", "ts", "dt"}; !reflect.DeepEqual(tb.Columns, want) {
		t.Fatalf("columns %q, want %q", tb.Columns, want)
	}
	if tb.Title != "rows" || tb.PartCol != 2 || !reflect.DeepEqual(tb.Keep, []bool{true}) || len(tb.Right) != 6 {
		t.Errorf("table %q: part col %d, keep %v, right %v", tb.Title, tb.PartCol, tb.Keep, tb.Right)
	}
	perPart := map[string]int{}
	for _, r := range tb.Rows {
		c := texts(r)
		perPart[c[1]]++
		if c[2] != c[0] || c[5] != c[1] {
			t.Errorf("row %q: id is the record key and dt the partition", c)
		}
	}
	if want := map[string]int{"2024-01-01": 2, "2024-01-02": 1, "2024-01-03": 2}; len(tb.Rows) != 5 || !reflect.DeepEqual(perPart, want) {
		t.Errorf("%d rows, per partition %v; want 5, %v", len(tb.Rows), perPart, want)
	}
}
