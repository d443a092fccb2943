package layout

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/hudi/filegroup"
)

func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

func names(ps []*filegroup.Partition) string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Path)
	}
	return strings.Join(out, ",")
}

// analyzers.md §5.1/§5.2 and §6 #17: [start, end), start-only, end-only, bad date, start ≥ end,
// undated first partition rejected, later undated kept, --num-days 7 drops 1999-1-1, negative
// rejected, yyyy/M/d and yyyy-M-d, col=value only with exactly two parts.
func TestDateFilterRules(t *testing.T) {
	today := time.Date(2026, 11, 29, 16, 0, 0, 0, time.Local)
	cases := []struct {
		nd         int64
		start, end string
		want       string // interval, or "error:<substring>"
	}{
		{0, "", "", "nil"},
		{0, "2023-1-5", "2023/01/10", "[2023-01-05, 2023-01-10]"},
		{0, "2023/1/5", "", "[2023-01-05, null]"},
		{0, "", "2023-1-10", "[null, 2023-01-10]"},
		{7, "", "", "[2026-11-22, 2026-11-29]"},
		// --start-date beats --num-days; the end date stays the user's.
		{7, "2023-1-1", "2023-2-1", "[2023-01-01, 2023-02-01]"},
		// --num-days replaces --end-date (Java sets endDate = today).
		{7, "", "2023-2-1", "[2026-11-22, 2026-11-29]"},
		{-1, "", "", "error:--num-days must specify a positive value"},
		{0, "2023-1-10", "2023-1-10", "error:Start Date: 2023-01-10, End Date: 2023-01-10"},
		{0, "2023-1-11", "2023-1-10", "error:starting date must be before ending date"},
		{0, "yesterday", "", "error:unable to parse --start-date"},
		{0, "", "2023.1.1", "error:unable to parse --end-date"},
		{0, "23-1-1", "", "error:unable to parse --start-date"},
		{0, "2023-13-1", "", "error:unable to parse --start-date"},
	}
	for _, c := range cases {
		iv, err := DateInterval(c.nd, c.start, c.end, today)
		got := "nil"
		switch {
		case err != nil:
			got = "error:" + err.Error()
		case iv != nil:
			got = iv.String()
		}
		if strings.HasPrefix(c.want, "error:") {
			if !strings.HasPrefix(got, "error:") || !strings.Contains(got, strings.TrimPrefix(c.want, "error:")) {
				t.Errorf("%d %q %q: got %s, want %s", c.nd, c.start, c.end, got, c.want)
			}
			continue
		}
		if got != c.want {
			t.Errorf("%d %q %q: got %s, want %s", c.nd, c.start, c.end, got, c.want)
		}
	}
	// SMART resolver: 2023-2-30 is clamped to Feb 28; 32 is rejected.
	if d, ok := ParseDate("2023-2-30"); !ok || !d.Equal(day(2023, 2, 28)) {
		t.Errorf("2023-2-30 → %v %v", d, ok)
	}
	if _, ok := ParseDate("2023-1-32"); ok {
		t.Error("2023-1-32 parsed")
	}
}

func TestPartitionDateAndFilter(t *testing.T) {
	for name, want := range map[string]string{
		"2023-01-05": "2023-01-05", "2023/1/5": "2023-01-05", "dt=2023-1-5": "2023-01-05", "dt= 2023-1-5 ": "2023-01-05",
		"dt=2023-1-5=":      "2023-01-05", // Java's split drops the trailing empty string
		"dt=2023-1-5/hr=01": "", "2023/01/05/12": "", "region=us": "", "": "",
	} {
		d, ok := PartitionDate(name)
		got := ""
		if ok {
			got = d.Format("2006-01-02")
		}
		if got != want {
			t.Errorf("PartitionDate(%q) = %q, want %q", name, got, want)
		}
	}
	ps := []*filegroup.Partition{{Path: "dt=2023-01-04"}, {Path: "dt=2023-01-05"}, {Path: "dt=2023-01-09"}, {Path: "dt=2023-01-10"}, {Path: "other"}, {Path: "1999-1-1"}}
	iv := &Interval{Start: day(2023, 1, 5), End: day(2023, 1, 10)}
	got, err := FilterPartitions(ps, iv)
	if err != nil || names(got) != "dt=2023-01-05,dt=2023-01-09,other" {
		t.Errorf("[start,end): %s %v", names(got), err)
	}
	// --num-days 7 on 2026-11-29 drops 1999-1-1 and keeps the undated later partition.
	iv7, _ := DateInterval(7, "", "", time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC))
	got, _ = FilterPartitions([]*filegroup.Partition{{Path: "2026-11-28"}, {Path: "1999-1-1"}, {Path: "x"}, {Path: "2026-11-29"}}, iv7)
	if names(got) != "2026-11-28,x" {
		t.Errorf("num-days 7: %s", names(got))
	}
	// Only the first partition must carry a date.
	if _, err := FilterPartitions([]*filegroup.Partition{{Path: "region=us"}, {Path: "2023-01-05"}}, iv); err == nil ||
		!strings.Contains(err.Error(), "Interval: [2023-01-05, 2023-01-10], Partition Name: region=us") {
		t.Errorf("undated first partition: %v", err)
	}
	if got, err := FilterPartitions(ps, nil); err != nil || len(got) != len(ps) {
		t.Errorf("nil interval: %d %v", len(got), err)
	}
}

func i64(v int64) *int64 { return &v }

// Row counts in the JSON of §5.5: numRecords after sizeStats (null when unknown), avgRowSize =
// totalBytes / numRecords only when > 0, totalRecords after totalFiles only when every
// partition is known. An empty partition keeps numRecords null, as Java's collectPartitionRow.
func TestRowCountsJSON(t *testing.T) {
	v := &filegroup.View{Partitions: []*filegroup.Partition{part("a", 2, 1000), part("b", 1, 300), part("c", 1, 10)}}
	opt := DefaultOptions()
	opt.PartitionStats, opt.IncludeRowCounts = true, true
	// a: 2000 B / 8 rows = 250; b: 300 B / 7 = 42 (integer division); c: 0 rows → no avgRowSize.
	r := Analyze(Input{View: v, RowCounts: map[string]*int64{"a": i64(8), "b": i64(7), "c": i64(0)}}, opt)
	if r.TotalRecords == nil || *r.TotalRecords != 15 {
		t.Fatalf("totalRecords %v", r.TotalRecords)
	}
	b, _ := json.Marshal(r)
	top := keysInOrder(t, b)
	eqKeys(t, "top", top, []string{"basePath", "mdtEnabled", "numPartitions", "totalBytes", "totalFiles", "totalRecords", "tableSizeStats", "fileCountPerPartition", "skew", "partitions", "hudiscope"})
	var doc struct{ Partitions []json.RawMessage }
	json.Unmarshal(b, &doc)
	want := []string{
		`"partition":"a","files":2,"totalBytes":2000,`, `"numRecords":8,"avgRowSize":250}`,
		`"partition":"b","files":1,"totalBytes":300,`, `"numRecords":7,"avgRowSize":42}`,
		`"partition":"c","files":1,"totalBytes":10,`, `"numRecords":0}`,
	}
	for i, p := range doc.Partitions {
		s := string(p)
		if !strings.Contains(s, want[2*i]) || !strings.HasSuffix(s, want[2*i+1]) {
			t.Errorf("partition %d: %s", i, s)
		}
		eqKeys(t, "partition", keysInOrder(t, p)[:5], []string{"partition", "files", "totalBytes", "sizeStats", "numRecords"})
	}
	// One unknown partition → numRecords null there, totalRecords omitted.
	r = Analyze(Input{View: v, RowCounts: map[string]*int64{"a": i64(8), "b": nil, "c": i64(1)}}, opt)
	b, _ = json.Marshal(r)
	if r.TotalRecords != nil || strings.Contains(string(b), "totalRecords") || !strings.Contains(string(b), `"partition":"b","files":1,"totalBytes":300,"sizeStats":{"count":1,"min":300,"max":300,"mean":300,"median":300,"p50":300,"p90":300,"p95":300,"p99":300},"numRecords":null}`) {
		t.Errorf("null partition: %s", b)
	}
	// A partition without base files has no count (Java skips it) → null, no total.
	v.Partitions = append(v.Partitions, &filegroup.Partition{Path: "empty"})
	if r = Analyze(Input{View: v, RowCounts: map[string]*int64{"a": i64(8), "b": i64(7), "c": i64(1)}}, opt); r.TotalRecords != nil || r.Rows[3].NumRecords != nil {
		t.Errorf("empty partition: total %v", r.TotalRecords)
	}
	// Without --include-row-counts nothing is added.
	opt.IncludeRowCounts = false
	b, _ = json.Marshal(Analyze(Input{View: v, RowCounts: map[string]*int64{"a": i64(8)}}, opt))
	if strings.Contains(string(b), "numRecords") || strings.Contains(string(b), "totalRecords") {
		t.Errorf("row counts without the flag: %s", b)
	}
}
