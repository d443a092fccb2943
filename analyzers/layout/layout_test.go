package layout

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/tableconfig"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

func base(id string, size int64) *filegroup.FileGroup {
	return &filegroup.FileGroup{FileID: id, Slices: []*filegroup.FileSlice{{BaseInstant: "001", Base: &filegroup.BaseFile{Name: id + "_0-1-1_001.parquet", Size: size, Instant: "001"}}}}
}

func part(path string, n int, size int64) *filegroup.Partition {
	p := &filegroup.Partition{Path: path}
	for i := 0; i < n; i++ {
		p.FileGroups = append(p.FileGroups, base(fmt.Sprintf("%s-%d", strings.ReplaceAll(path, "/", "-"), i), size))
	}
	return p
}

func commit(req, action, op string, parts map[string][]timeline.WriteStat) *timeline.Instant {
	cm := &timeline.CommitMetadata{OperationType: op, PartitionToWriteStats: parts}
	return &timeline.Instant{RequestedTime: req, CompletionTime: req + "1", Action: action, State: timeline.Completed, Operation: op, Commit: cm}
}

// The example of analyzers.md §5.5: 10×1024 B + 8×2048 B base files in two partitions.
func TestDocExampleStatsAndSkew(t *testing.T) {
	v := &filegroup.View{Partitions: []*filegroup.Partition{part("p0", 10, 1024), part("p1", 8, 2048)}}
	r := Analyze(Input{BasePath: "/t", MDTEnabled: true, View: v}, DefaultOptions())
	if r.NumPartitions != 2 || r.TotalBytes != 26624 || r.TotalFiles != 18 {
		t.Fatalf("totals %d %d %d", r.NumPartitions, r.TotalBytes, r.TotalFiles)
	}
	want := Stats{18, 1024, 2048, 1479, 1024, 1024, 2048, 2048, 2048}
	if r.TableSizeStats != want {
		t.Errorf("tableSizeStats %+v, want %+v", r.TableSizeStats, want)
	}
	if w := (Stats{2, 8, 10, 9, 9, 9, 10, 10, 10}); r.FileCountPerPartition != w {
		t.Errorf("fileCountPerPartition %+v, want %+v", r.FileCountPerPartition, w)
	}
	b, _ := json.Marshal(r.Skew)
	if got := string(b); got != `{"cv":0.2308,"gini":0.1154,"largestPartitionShare":0.6154,"top2Share":1.0000,"outliers":[]}` {
		t.Errorf("skew %s", got)
	}
}

func TestQuantileRule(t *testing.T) {
	v := []int64{100, 200, 300, 400}
	// pos = 0.5·5 = 2.5 → v[1] + 0.5·(v[2]−v[1]) = 250
	if q := Quantile(v, 0.5); q != 250 {
		t.Errorf("p50 %d", q)
	}
	if q := Quantile(v, 0.1); q != 100 {
		t.Errorf("p10 %d", q)
	}
	if q := Quantile(v, 0.99); q != 400 {
		t.Errorf("p99 %d", q)
	}
	if s := ComputeStats(nil); s != (Stats{}) {
		t.Errorf("empty %+v", s)
	}
}

func TestSkewDegenerateAndOutliers(t *testing.T) {
	one := Analyze(Input{View: &filegroup.View{Partitions: []*filegroup.Partition{part("a", 3, 10)}}}, DefaultOptions())
	if b, _ := json.Marshal(one.Skew); string(b) != `{"cv":0,"gini":0,"outliers":[]}` {
		t.Errorf("degenerate skew %s", b)
	}
	// 1 big + 4 tiny: only the big one is past mean+2σ? mean=(1000+4)/5=200.8, σ≈399.6 → 1000.0 > 1000? no.
	// Use 1 big + 9 tiny so the big one is an outlier.
	ps := []*filegroup.Partition{part("big", 1, 1000000)}
	for i := 0; i < 9; i++ {
		ps = append(ps, part(fmt.Sprintf("t%d", i), 1, 10))
	}
	r := Analyze(Input{View: &filegroup.View{Partitions: ps}}, DefaultOptions())
	if len(r.Skew.Outliers) != 1 || r.Skew.Outliers[0].Partition != "big" || r.Skew.TopN != 10 {
		t.Errorf("outliers %+v topN %d", r.Skew.Outliers, r.Skew.TopN)
	}
	if r.Rows[0].Partition != "big" {
		t.Errorf("largest first: %s", r.Rows[0].Partition)
	}
}

func TestLatestBaseOnlyAndLogsUnderExtra(t *testing.T) {
	g := &filegroup.FileGroup{FileID: "f", Slices: []*filegroup.FileSlice{
		{BaseInstant: "001", Base: &filegroup.BaseFile{Size: 500}},
		{BaseInstant: "002", Base: &filegroup.BaseFile{Size: 700}, Logs: []filegroup.LogFile{{Size: 30}, {Size: 40}}},
		{BaseInstant: "003", Logs: []filegroup.LogFile{{Size: 5}}}, // pending compaction slice: no base
	}, PendingCompaction: "003"}
	v := &filegroup.View{Partitions: []*filegroup.Partition{{Path: "p", FileGroups: []*filegroup.FileGroup{g}}, {Path: "empty"}}}
	r := Analyze(Input{View: v, TableType: tableconfig.MergeOnRead}, DefaultOptions())
	if r.TotalFiles != 1 || r.TotalBytes != 700 || r.NumPartitions != 2 {
		t.Fatalf("files %d bytes %d partitions %d", r.TotalFiles, r.TotalBytes, r.NumPartitions)
	}
	if r.FileCountPerPartition.Min != 0 || r.FileCountPerPartition.Count != 2 {
		t.Errorf("empty partition must count: %+v", r.FileCountPerPartition)
	}
	x := r.Hudiscope
	// A snapshot read merges slice 002's base with the logs of 002 and the pending compaction's
	// slice 003: 3 logs, 75 B; the latest slice alone holds 1 log of 5 B.
	if x.LogFiles != 3 || x.LogBytes != 75 || x.FileSlices != 3 || x.TotalBytesWithLogs != 775 ||
		x.LatestSliceLogFiles != 1 || x.LatestSliceLogBytes != 5 || x.MergedFileGroups != 1 {
		t.Errorf("extra %+v", x)
	}
	if x.Partitions[0].PendingCompaction != 1 {
		t.Errorf("pending compaction %+v", x.Partitions[0])
	}
}

func TestDetectors(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	rows := []*filegroup.Partition{part("a", 5, 1000), part("b", 5, 100<<20), part("c", 5, 100<<20), part("d", 1, 10)}
	opt := DefaultOptions()
	opt.Characteristics = true
	opt.PrintTopK = 2
	opt.MicroPartitionCountThreshold = 1
	opt.MicroPartitionMinFiles = 5 // inclusive
	opt.SmallFilesModeratePct, opt.SmallFilesSeverePct = 0.5, 0.8
	opt.SmallFilesMinTableCommits = 1
	ws := func(n int64) []timeline.WriteStat {
		return []timeline.WriteStat{{NumInserts: n, TotalWriteBytes: 100, NumWrites: 1000}}
	}
	tl := &timeline.Timeline{Instants: []*timeline.Instant{
		commit("20260101000000001", "commit", "INSERT", map[string][]timeline.WriteStat{"a": ws(10)}),
		commit("20260101000000002", "commit", "UPSERT", map[string][]timeline.WriteStat{"a": {{NumUpdateWrites: 20, TotalWriteBytes: 50}}}),
		commit("20260101000000003", "commit", "COMPACT", map[string][]timeline.WriteStat{"a": ws(1), "b": ws(1)}),
		commit("20260101000000004", "deltacommit", "UPSERT", map[string][]timeline.WriteStat{"a": {{NumDeletes: 5}}, "b": ws(1)}),
		commit("20260101000000005", "replacecommit", "CLUSTER", map[string][]timeline.WriteStat{"c": ws(1)}),
	}}
	in := Input{View: &filegroup.View{Partitions: rows}, Timeline: tl, Now: now, Zone: time.UTC, TableType: tableconfig.MergeOnRead}
	r := Analyze(in, opt)
	c := r.TableCharacteristics
	if c.TableAgeDays != 59 {
		t.Errorf("age %d (2026-01-01 → 2026-03-01 = 59 days)", c.TableAgeDays)
	}
	micro := c.Detector(MicroPartition)
	if micro.Status != Flagged || micro.EffectiveConfigs.Get("observed.count.rule.triggered") != true ||
		micro.EffectiveConfigs.Get("observed.size.rule.matching.partitions") != 1 {
		t.Errorf("micro %+v", micro)
	}
	small := c.Detector(SmallFiles)
	// qualifying a,b,c (5 files each); flagged a only (avg 1000 B) → 1/3 = 0.3333 < 0.5 → CLEAN
	if small.Status != Clean || small.EffectiveConfigs.Get("observed.flagged.pct") != Dec4(1.0/3) ||
		small.EffectiveConfigs.Get("observed.ingest.commit.count") != int64(4) {
		t.Errorf("small %+v", small)
	}
	if tk := *small.TopK; len(tk) != 2 || tk[0].Partition != "a" || tk[0].AvgFileSize != 1000 {
		t.Errorf("top-k %+v", tk)
	}
	hot := c.Detector(HotPartitions)
	// kept: 4, 2, 1 (COMPACT 3 and CLUSTER 5 excluded) → 3; min count ceil(1.5)=2; a in 3 commits: 10+20+5=35 records
	if hot.Status != Flagged || hot.EffectiveConfigs.Get("observed.hot.window.effective.commits") != 3 {
		t.Fatalf("hot %+v", hot)
	}
	if h := *hot.Hot; len(h) != 1 || h[0].Partition != "a" || h[0].RecordsWritten != 35 || h[0].CommitCount != 3 || h[0].BytesWritten != 150 {
		t.Errorf("hot rows %+v", h)
	}
	if c.OverallStatus != Flagged {
		t.Errorf("overall %s", c.OverallStatus)
	}
	// Small-files gate and tiers.
	opt.SmallFilesMinTableCommits = 10
	if s := Analyze(in, opt).TableCharacteristics.Detector(SmallFiles); s.Status != Skipped {
		t.Errorf("gate: %s", s.Status)
	}
	in.View = &filegroup.View{Partitions: []*filegroup.Partition{part("x", 5, 10), part("y", 5, 10)}}
	opt.SmallFilesMinTableCommits = 1
	if s := Analyze(in, opt).TableCharacteristics.Detector(SmallFiles); s.Status != Severe || len(s.Findings) != 2 {
		t.Errorf("2/2 → SEVERE with MOR finding: %s %v", s.Status, s.Findings)
	}
	// Age gate.
	opt.MicroPartitionMinAgeDays = 99999
	if m := Analyze(in, opt).TableCharacteristics.Detector(MicroPartition); m.EffectiveConfigs.Get("observed.size.rule.eligible") != false ||
		!strings.Contains(m.Summary, "size rule skipped") {
		t.Errorf("age gate: %s", m.Summary)
	}
	// COMPACT-only window → SKIPPED, no failure.
	in.Timeline = &timeline.Timeline{Instants: []*timeline.Instant{tl.Instants[2]}}
	if h := Analyze(in, opt).TableCharacteristics.Detector(HotPartitions); h.Status != Skipped {
		t.Errorf("compact-only: %s", h.Status)
	}
}

// Field lists of analyzers.md §5.5, in order.
var (
	layoutTop      = []string{"basePath", "mdtEnabled", "numPartitions", "totalBytes", "totalFiles", "tableSizeStats", "fileCountPerPartition", "skew", "partitions", "tableCharacteristics", "hudiscope"}
	statsFields    = []string{"count", "min", "max", "mean", "median", "p50", "p90", "p95", "p99"}
	partFields     = []string{"partition", "files", "totalBytes", "sizeStats"}
	tcFields       = []string{"tableAgeDays", "numPartitions", "overallStatus", "detectors"}
	detectorFields = []string{"name", "status", "summary", "findings", "effectiveConfigs"}
	detectorKeys   = map[string][]string{
		MicroPartition: {"effective.micro.partition.count.threshold", "effective.micro.partition.min.files", "effective.micro.partition.max.avg.bytes",
			"effective.micro.partition.min.age.days", "observed.num.partitions", "observed.table.age.days", "observed.count.rule.triggered",
			"observed.size.rule.eligible", "observed.size.rule.triggered", "observed.size.rule.matching.partitions"},
		SmallFiles: {"effective.small.files.threshold.bytes", "effective.small.files.min.files.per.partition", "effective.small.files.moderate.pct",
			"effective.small.files.severe.pct", "effective.small.files.min.table.commits", "observed.ingest.commit.count",
			"observed.qualifying.partitions", "observed.flagged.partitions", "observed.flagged.pct"},
		HotPartitions: {"effective.hot.window.commits", "effective.hot.partition.commit.share", "effective.hot.partition.min.commit.count",
			"observed.hot.window.effective.commits", "observed.hot.partition.count"},
	}
)

// keysInOrder decodes a JSON object's keys in document order.
func keysInOrder(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %s", raw)
	}
	var keys []string
	for dec.More() {
		k, _ := dec.Token()
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

func eqKeys(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("%s keys:\n got %v\nwant %v", what, got, want)
	}
}

func fixture(t testing.TB, rel string) string {
	_, file, _, _ := runtime.Caller(0)
	p := filepath.Join(filepath.Dir(file), "../../../shared/testdata/hudi-rs/crates/test/data", rel)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("external corpus absent (%s): %v", p, err)
	}
	return p
}

func loadTable(t testing.TB, rel string) (*hudi.Table, *timeline.Timeline, *filegroup.View) {
	ctx := context.Background()
	tb, err := hudi.Open(ctx, fixture(t, rel), storage.Options{})
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
	return tb, tl, v
}

// Values checked by hand against `hudiscope files` (5 latest base files after two clusterings).
func TestRealTableMORTxns(t *testing.T) {
	tb, tl, v := loadTable(t, "sample_table/mor/avro/v9_txns_simple_meta.zip")
	opt := DefaultOptions()
	opt.PartitionStats, opt.Characteristics, opt.PrintTopK = true, true, 2
	r := Analyze(Input{BasePath: "t", TableType: tb.Config.Type, MDTEnabled: true, View: v, Timeline: tl, Zone: time.UTC,
		Now: time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)}, opt)
	if r.NumPartitions != 3 || r.TotalFiles != 5 || r.TotalBytes != 2187126 {
		t.Fatalf("totals %d %d %d", r.NumPartitions, r.TotalFiles, r.TotalBytes)
	}
	// sizes 436685 436864 436892 438333 438352: mean 437425.2, p50 = 3rd = 436892
	if w := (Stats{5, 436685, 438352, 437425, 436892, 436892, 438352, 438352, 438352}); r.TableSizeStats != w {
		t.Errorf("table stats %+v", r.TableSizeStats)
	}
	// per partition: us 875244 (2), eu 875018 (2), apac 436864 (1)
	if p := r.Partitions; p[0].Partition != "region=us" || p[0].TotalBytes != 875244 || p[2].Partition != "region=apac" || p[2].Files != 1 {
		t.Errorf("partitions %+v", p)
	}
	if p := r.Partitions[1].SizeStats; p.Mean != 437509 || p.P50 != 437509 {
		t.Errorf("eu stats %+v", p)
	}
	b, _ := json.Marshal(r.Skew)
	if string(b) != `{"cv":0.2834,"gini":0.1336,"largestPartitionShare":0.4002,"top3Share":1.0000,"outliers":[]}` {
		t.Errorf("skew %s", b)
	}
	c := r.TableCharacteristics
	// commit×1 (COMPACT) + deltacommit×10 + replacecommit×2 (one CLUSTER): ingest = 1+10+1 = 12;
	// hot window = 13 − COMPACT − CLUSTER = 11
	if s := c.Detector(SmallFiles); s.EffectiveConfigs.Get("observed.ingest.commit.count") != int64(12) || s.Status != Clean {
		t.Errorf("small %+v", s.EffectiveConfigs)
	}
	if h := c.Detector(HotPartitions); h.EffectiveConfigs.Get("observed.hot.window.effective.commits") != 11 {
		t.Errorf("hot %+v", h.EffectiveConfigs)
	}
	validateLayoutJSON(t, r)
}

func validateLayoutJSON(t *testing.T, r *Result) {
	t.Helper()
	raw, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var top map[string]json.RawMessage
	json.Unmarshal(raw, &top)
	eqKeys(t, "top", keysInOrder(t, raw), layoutTop)
	eqKeys(t, "tableSizeStats", keysInOrder(t, top["tableSizeStats"]), statsFields)
	eqKeys(t, "fileCountPerPartition", keysInOrder(t, top["fileCountPerPartition"]), statsFields)
	sk := keysInOrder(t, top["skew"])
	if len(sk) != 5 || sk[0] != "cv" || sk[1] != "gini" || sk[2] != "largestPartitionShare" || !strings.HasPrefix(sk[3], "top") || sk[4] != "outliers" {
		t.Errorf("skew keys %v", sk)
	}
	var parts []json.RawMessage
	json.Unmarshal(top["partitions"], &parts)
	for _, p := range parts {
		eqKeys(t, "partition", keysInOrder(t, p), partFields)
	}
	eqKeys(t, "tableCharacteristics", keysInOrder(t, top["tableCharacteristics"]), tcFields)
	var tc struct{ Detectors []json.RawMessage }
	json.Unmarshal(top["tableCharacteristics"], &tc)
	names := []string{MicroPartition, SmallFiles, HotPartitions}
	for i, d := range tc.Detectors {
		var det struct {
			Name             string
			EffectiveConfigs json.RawMessage
		}
		json.Unmarshal(d, &det)
		if det.Name != names[i] {
			t.Errorf("detector %d is %s", i, det.Name)
		}
		last := "topKSmallestPartitions"
		if det.Name == HotPartitions {
			last = "partitions"
		}
		eqKeys(t, det.Name, keysInOrder(t, d), append(append([]string{}, detectorFields...), last))
		eqKeys(t, det.Name+" effectiveConfigs", keysInOrder(t, det.EffectiveConfigs), detectorKeys[det.Name])
	}
}

func TestJSONFieldsSynthetic(t *testing.T) {
	v := &filegroup.View{Partitions: []*filegroup.Partition{part("p0", 10, 1024), part("p1", 8, 2048)}}
	opt := DefaultOptions()
	opt.PartitionStats, opt.Characteristics = true, true
	validateLayoutJSON(t, Analyze(Input{View: v}, opt))
}

// BenchmarkLayout100k analyzes a synthetic 100,000-file view built from a real table's file
// names and sizes (1,000 partitions × 100 file groups).
// Measured on the shared 2-core dev machine (AMD EPYC): ~52 ms/op (go test -bench Layout100k ./analyzers/layout).
func BenchmarkLayout100k(b *testing.B) {
	_, _, real := loadTable(b, "sample_table/mor/avro/v9_txns_simple_meta.zip")
	var seeds []*filegroup.BaseFile
	for _, p := range real.Partitions {
		for _, g := range p.FileGroups {
			if s := g.Latest(); s != nil && s.Base != nil {
				seeds = append(seeds, s.Base)
			}
		}
	}
	v := &filegroup.View{Source: "synthetic"}
	n := 0
	for pi := 0; pi < 1000; pi++ {
		p := &filegroup.Partition{Path: fmt.Sprintf("dt=2026-01-%04d", pi)}
		for gi := 0; gi < 100; gi++ {
			s := seeds[n%len(seeds)]
			size := s.Size/int64(1+n%50) + int64(n%977)
			p.FileGroups = append(p.FileGroups, &filegroup.FileGroup{Partition: p.Path, FileID: fmt.Sprintf("%d-%s", n, s.Name[:8]),
				Slices: []*filegroup.FileSlice{{BaseInstant: s.Instant, Base: &filegroup.BaseFile{Name: s.Name, Size: size, Instant: s.Instant}}}})
			n++
		}
		v.Partitions = append(v.Partitions, p)
	}
	opt := DefaultOptions()
	opt.PartitionStats, opt.Characteristics = true, true
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := Analyze(Input{View: v}, opt)
		if r.TotalFiles != 100000 {
			b.Fatal(r.TotalFiles)
		}
	}
}
