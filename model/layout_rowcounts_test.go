package model

import (
	"archive/zip"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/analyzers/layout"
	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/internal/clock"
)

func corpusTable(t *testing.T, rel string) string {
	_, file, _, _ := runtime.Caller(0)
	p := filepath.Join(filepath.Dir(file), "../../shared/testdata/hudi-rs/crates/test/data", rel)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("external corpus absent (%s): %v", p, err)
	}
	return p
}

// layoutWithRowCounts runs what `hudiscope layout --include-row-counts --enable-partition-stats`
// runs, with an optional date interval.
func layoutWithRowCounts(t *testing.T, table string, dates *layout.Interval) (*layout.Result, *hudi.Table) {
	t.Helper()
	ctx := context.Background()
	tb, err := hudi.Open(ctx, table, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tl, err := tb.ActiveTimeline(ctx)
	if err != nil {
		t.Fatal(err)
	}
	v, err := tb.View(ctx, tl, hudi.ListingStorage)
	if err != nil {
		t.Fatal(err)
	}
	opt := LayoutOptions(nil)
	opt.PartitionStats, opt.IncludeRowCounts, opt.Dates = true, true, dates
	in, err := LayoutInput(ctx, tb, tl, v, opt, clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	return layout.Analyze(in, opt), tb
}

func rowsByPartition(r *layout.Result) map[string]string {
	out := map[string]string{}
	for _, p := range r.Partitions {
		b, _ := json.Marshal(p.NumRecords)
		out[p.Partition] = string(b)
	}
	return out
}

func partitionJSON(t *testing.T, r *layout.Result, name string) string {
	for _, p := range r.Partitions {
		if p.Partition == name {
			b, _ := json.Marshal(p)
			return string(b)
		}
	}
	t.Fatalf("no partition %q", name)
	return ""
}

// incr-1.2.0: one non-partitioned file group whose latest base file
// 80bd8c8d-…_0-60-83_20261129155632267.parquet (10577 B) holds 4 rows — oracle/summary.json
// row_count 4. avgRowSize = 10577 / 4 = 2644.
func TestLayoutRowCountsIncrFixture(t *testing.T) {
	r, _ := layoutWithRowCounts(t, filepath.Join(ownFixture(t, "incr-1.2.0"), "table.zip"), nil)
	if r.TotalRecords == nil || *r.TotalRecords != 4 || r.TotalBytes != 10577 {
		t.Fatalf("totalRecords %v bytes %d", r.TotalRecords, r.TotalBytes)
	}
	if got := partitionJSON(t, r, ""); !strings.HasSuffix(got, `"numRecords":4,"avgRowSize":2644}`) {
		t.Errorf("partition %s", got)
	}
}

// cow-services-1.2.0: the last commit 20261129162134323 (UPSERT, numWrites 77 over 5 files,
// `hudiscope timeline`) rewrote all 5 live file groups, so the footers must sum to its 77 rows
// = oracle/summary.json row_count 77. Per partition (footers; summing to 77):
// 2024-01-01 2 files 22303 B 32 rows (avg 696), 2024-01-03 2 files 22245 B 31 rows (717),
// 2024-01-02 1 file 11249 B 14 rows (803). Table avg 55797/77 = 724.
func TestLayoutRowCountsCowServicesFixture(t *testing.T) {
	table := filepath.Join(ownFixture(t, "cow-services-1.2.0"), "table.zip")
	r, _ := layoutWithRowCounts(t, table, nil)
	if r.TotalRecords == nil || *r.TotalRecords != 77 {
		t.Fatalf("totalRecords %v", r.TotalRecords)
	}
	want := map[string]string{"2024-01-01": "32", "2024-01-02": "14", "2024-01-03": "31"}
	if got := rowsByPartition(r); len(got) != 3 || got["2024-01-01"] != "32" || got["2024-01-02"] != "14" || got["2024-01-03"] != "31" {
		t.Errorf("rows %v, want %v", got, want)
	}
	if got := partitionJSON(t, r, "2024-01-02"); !strings.HasSuffix(got, `"numRecords":14,"avgRowSize":803}`) {
		t.Errorf("2024-01-02 %s", got)
	}
	// --start-date 2024-01-02 --end-date 2024/1/3 keeps only 2024-01-02: 1 file, 11249 B, 14 rows.
	iv, err := layout.DateInterval(0, "2024-01-02", "2024/1/3", timeNowForTest())
	if err != nil {
		t.Fatal(err)
	}
	r, _ = layoutWithRowCounts(t, table, iv)
	if r.NumPartitions != 1 || r.TotalFiles != 1 || r.TotalBytes != 11249 || r.TotalRecords == nil || *r.TotalRecords != 14 {
		t.Errorf("date filter: partitions %d files %d bytes %d records %v", r.NumPartitions, r.TotalFiles, r.TotalBytes, r.TotalRecords)
	}
	// --end-date 2024-01-02 keeps only 2024-01-01 (end exclusive).
	iv, _ = layout.DateInterval(0, "", "2024-01-02", timeNowForTest())
	if r, _ = layoutWithRowCounts(t, table, iv); r.NumPartitions != 1 || r.Partitions[0].Partition != "2024-01-01" {
		t.Errorf("end-only: %d partitions", r.NumPartitions)
	}
}

// v8_simplekeygen_nonhivestyle (COW, 3 partitions; `hudiscope timeline`): commit …315930 UPSERT
// inserted 3 rows into partitions 10 and 20 (numWrites 3); commit …316909 wrote partition 10
// (1 update, no insert) and new partition 30 (1 insert), numWrites 3. So 30 = 1, 10 = 3 − 1 = 2
// (both were rewritten by the second commit), 20 = 3 − 2 = 1 (first commit, untouched since);
// total = 3 + 1 inserts = 4. Sizes from `hudiscope files`: 10 = 441354 B → avg 220677.
func TestLayoutRowCountsCorpus(t *testing.T) {
	r, _ := layoutWithRowCounts(t, corpusTable(t, "sample_table/cow/v8_simplekeygen_nonhivestyle.zip"), nil)
	if r.TotalRecords == nil || *r.TotalRecords != 4 {
		t.Fatalf("totalRecords %v", r.TotalRecords)
	}
	if got := rowsByPartition(r); got["10"] != "2" || got["20"] != "1" || got["30"] != "1" {
		t.Errorf("rows %v", got)
	}
	if got := partitionJSON(t, r, "10"); !strings.HasSuffix(got, `"numRecords":2,"avgRowSize":220677}`) {
		t.Errorf("10: %s", got)
	}
}

// A truncated base file (damaged footer) in a temp copy of the same table: that partition's
// numRecords is null, the others are still counted, totalRecords is omitted, and the failure is
// recorded as a table problem naming the file.
func TestLayoutRowCountsDamagedFooter(t *testing.T) {
	src := corpusTable(t, "sample_table/cow/v8_simplekeygen_nonhivestyle.zip")
	dir := unzipTable(t, src)
	table := filepath.Join(dir, "v8_simplekeygen_nonhivestyle")
	victim := filepath.Join(table, "10", "7b0ea4f9-3768-4e87-b12c-8d33efd22b55-0_0-136-193_20250713011316909.parquet")
	st, err := os.Stat(victim)
	if err != nil {
		t.Fatal(err)
	}
	// Keep the size the view reports plausible but cut the footer off: the first half only.
	if err := os.Truncate(victim, st.Size()/2); err != nil {
		t.Fatal(err)
	}
	r, tb := layoutWithRowCounts(t, table, nil)
	if r.TotalRecords != nil {
		t.Errorf("totalRecords %d with a damaged footer", *r.TotalRecords)
	}
	if got := rowsByPartition(r); got["10"] != "null" || got["20"] != "1" || got["30"] != "1" {
		t.Errorf("rows %v", got)
	}
	if got := partitionJSON(t, r, "10"); !strings.HasSuffix(got, `"numRecords":null}`) {
		t.Errorf("10: %s", got)
	}
	b, _ := json.Marshal(r)
	if strings.Contains(string(b), "totalRecords") {
		t.Errorf("JSON still has totalRecords")
	}
	found := false
	for _, p := range tb.Problems() {
		found = found || strings.Contains(p.File, "7b0ea4f9-3768-4e87-b12c-8d33efd22b55-0_0-136-193")
	}
	if !found {
		t.Errorf("no problem recorded: %v", tb.Problems())
	}
}

func unzipTable(t *testing.T, src string) string {
	t.Helper()
	zr, err := zip.OpenReader(src)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	dir := t.TempDir()
	for _, f := range zr.File {
		if strings.HasPrefix(f.Name, "__MACOSX/") || strings.HasSuffix(f.Name, "/") || strings.Contains(f.Name, "..") {
			continue
		}
		dst := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		out, err := os.Create(dst)
		if err != nil {
			t.Fatal(err)
		}
		_, err = io.Copy(out, rc)
		rc.Close()
		out.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func timeNowForTest() time.Time { return time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC) }
