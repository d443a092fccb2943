// Package layout is a Go port of Hudi's HoodieTableLayoutAnalyzer: file-size statistics over the
// latest base file of every file group, per-partition file counts, partition-size skew and the
// three table-characteristics detectors (micro-partition, small-files, hot-partitions). Its JSON
// matches the Java tool's field for field; what hudiscope adds (log files of MOR slices, file
// groups, log-scale histograms) sits under the one extra key "hudiscope".
//
// Analyze is a pure function of what it is handed: it does no I/O.
package layout

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/tableconfig"
	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/internal/clock"
	"github.com/hudiscope/hudiscope/internal/units"
)

// Options are the Java tool's flags (names in comments) and hudiscope's additions.
type Options struct {
	PartitionStats  bool // --enable-partition-stats: emit partitions[]
	TopN            int  // --top-n: cap partitions[] (0 = all)
	Characteristics bool // --analyze-table-characteristics
	PrintTopK       int  // --print-top-k
	// IncludeRowCounts (--include-row-counts) adds numRecords / avgRowSize to partitions[] and
	// totalRecords to the table; the counts come in Input.RowCounts.
	IncludeRowCounts bool
	// TableStats (--enable-table-stats) shows the table-level blocks in TABLE output even with
	// partition stats on; JSON always carries them.
	TableStats bool
	// Dates (--num-days / --start-date / --end-date) is applied by the caller before Analyze
	// (see FilterPartitions); it is carried here so one Options value describes a run.
	Dates *Interval

	MicroPartitionCountThreshold int   // --micro-partition-count-threshold 10000
	MicroPartitionMinFiles       int   // --micro-partition-min-files 25
	MicroPartitionMaxAvgBytes    int64 // --micro-partition-max-avg-bytes 52428800
	MicroPartitionMinAgeDays     int   // --micro-partition-min-age-days 30

	SmallFilesThresholdBytes       int64   // --small-files-threshold-bytes 52428800
	SmallFilesMinFilesPerPartition int     // --small-files-min-files-per-partition 5
	SmallFilesModeratePct          float64 // --small-files-moderate-pct 0.10
	SmallFilesSeverePct            float64 // --small-files-severe-pct 0.30
	SmallFilesMinTableCommits      int     // --small-files-min-table-commits 10

	HotWindowCommits        int     // --hot-window-commits 50
	HotPartitionCommitShare float64 // --hot-partition-commit-share 0.5

	// SmallFileLimit is the writer's effective hoodie.parquet.small.file.limit (≤ 0: the writer's
	// small-file handling is off); SmallFileLimitSource says where it came from.
	SmallFileLimit       int64
	SmallFileLimitSource string
}

// DefaultOptions are the Java tool's defaults.
func DefaultOptions() Options {
	return Options{
		MicroPartitionCountThreshold: 10000, MicroPartitionMinFiles: 25, MicroPartitionMaxAvgBytes: 52428800,
		MicroPartitionMinAgeDays: 30, SmallFilesThresholdBytes: 52428800, SmallFilesMinFilesPerPartition: 5,
		SmallFilesModeratePct: 0.10, SmallFilesSeverePct: 0.30, SmallFilesMinTableCommits: 10,
		HotWindowCommits: 50, HotPartitionCommitShare: 0.5,
		SmallFileLimit: 104857600, SmallFileLimitSource: "declared default",
	}
}

// Input is the read data the analyzer works on.
type Input struct {
	BasePath  string
	TableType string // COPY_ON_WRITE or MERGE_ON_READ
	// MDTEnabled: the table config lists the metadata table's FILES partition.
	MDTEnabled bool
	View       *filegroup.View
	// Timeline is the active timeline; Archived its archived instants when they were loaded
	// (the small-files gate reads them only when the active timeline is under the gate).
	Timeline *timeline.Timeline
	Archived []*timeline.Instant
	// PropsModTime is hoodie.properties' modification time (zero if unknown).
	PropsModTime time.Time
	// RowCounts are the record counts of each partition's latest base files (with
	// IncludeRowCounts): a nil value means a footer could not be read, an absent key that the
	// partition was not counted.
	RowCounts map[string]*int64
	// Now is the analysis time; Zone the zone for calendar days (Java: system default).
	Now  time.Time
	Zone *time.Location
}

// Result is one table's report. Field order is the Java tool's JSON order.
type Result struct {
	BasePath              string           `json:"basePath"`
	MDTEnabled            bool             `json:"mdtEnabled"`
	NumPartitions         int              `json:"numPartitions"`
	TotalBytes            int64            `json:"totalBytes"`
	TotalFiles            int64            `json:"totalFiles"`
	TotalRecords          *int64           `json:"totalRecords,omitempty"`
	TableSizeStats        Stats            `json:"tableSizeStats"`
	FileCountPerPartition Stats            `json:"fileCountPerPartition"`
	Skew                  Skew             `json:"skew"`
	Partitions            []PartitionRow   `json:"partitions,omitempty"`
	TableCharacteristics  *Characteristics `json:"tableCharacteristics,omitempty"`
	Hudiscope             *Extra           `json:"hudiscope"`

	// Rows are every partition sorted by totalBytes desc (partitions[] is these, capped by TopN,
	// and only with PartitionStats).
	Rows []PartitionRow `json:"-"`
}

// PartitionRow is one partition of partitions[].
type PartitionRow struct {
	Partition  string
	Files      int64
	TotalBytes int64
	SizeStats  Stats
	// NumRecords is the partition's row count (with IncludeRowCounts; nil = unknown, which
	// JSON shows as null). RowCounts says whether row counts were requested at all.
	NumRecords *int64
	RowCounts  bool

	sizes []int64
}

// AvgRowSize is totalBytes / numRecords, 0 when unknown or no records.
func (r PartitionRow) AvgRowSize() int64 {
	if r.NumRecords == nil || *r.NumRecords <= 0 {
		return 0
	}
	return r.TotalBytes / *r.NumRecords
}

// MarshalJSON is the Java tool's row: {partition, files, totalBytes, sizeStats} plus, with
// row counts, numRecords (number or null) and avgRowSize only when numRecords > 0.
func (r PartitionRow) MarshalJSON() ([]byte, error) {
	o := Ordered{{"partition", r.Partition}, {"files", r.Files}, {"totalBytes", r.TotalBytes}, {"sizeStats", r.SizeStats}}
	if r.RowCounts {
		o = append(o, KV{"numRecords", r.NumRecords})
		if r.NumRecords != nil && *r.NumRecords > 0 {
			o = append(o, KV{"avgRowSize", r.AvgRowSize()})
		}
	}
	return o.MarshalJSON()
}

// AvgFileSize is totalBytes / files (0 with no files).
func (r PartitionRow) AvgFileSize() int64 {
	if r.Files == 0 {
		return 0
	}
	return r.TotalBytes / r.Files
}

// Skew is the partition-size skew block; the top-N share key name depends on N.
type Skew struct {
	Degenerate            bool // < 2 partitions or total 0
	CV                    float64
	Gini                  float64
	LargestPartitionShare float64
	TopN                  int
	TopNShare             float64
	Outliers              []Outlier
}

// Outlier is a partition whose totalBytes exceeds mean + 2σ.
type Outlier struct {
	Partition  string `json:"partition"`
	TotalBytes int64  `json:"totalBytes"`
	Files      int64  `json:"files"`
}

func (s Skew) MarshalJSON() ([]byte, error) {
	if s.Degenerate {
		return []byte(`{"cv":0,"gini":0,"outliers":[]}`), nil
	}
	out := s.Outliers
	if out == nil {
		out = []Outlier{}
	}
	return Ordered{{"cv", Dec4(s.CV)}, {"gini", Dec4(s.Gini)}, {"largestPartitionShare", Dec4(s.LargestPartitionShare)},
		{fmt.Sprintf("top%dShare", s.TopN), Dec4(s.TopNShare)}, {"outliers", out}}.MarshalJSON()
}

// Characteristics is tableCharacteristics.
type Characteristics struct {
	TableAgeDays  int64      `json:"tableAgeDays"`
	NumPartitions int        `json:"numPartitions"`
	OverallStatus string     `json:"overallStatus"`
	Detectors     []Detector `json:"detectors"`
}

// Detector is one detector verdict. TopK is set for micro-partition and small-files, Hot for
// hot-partitions.
type Detector struct {
	Name             string         `json:"name"`
	Status           string         `json:"status"`
	Summary          string         `json:"summary"`
	Findings         []string       `json:"findings"`
	EffectiveConfigs Ordered        `json:"effectiveConfigs"`
	TopK             *[]SmallestRow `json:"topKSmallestPartitions,omitempty"`
	Hot              *[]HotRow      `json:"partitions,omitempty"`
}

// SmallestRow is one topKSmallestPartitions entry.
type SmallestRow struct {
	Partition   string `json:"partition"`
	FileCount   int64  `json:"fileCount"`
	TotalBytes  int64  `json:"totalBytes"`
	AvgFileSize int64  `json:"avgFileSize"`
}

// HotRow is one hot partition.
type HotRow struct {
	Partition      string `json:"partition"`
	CommitCount    int64  `json:"commitCount"`
	BytesWritten   int64  `json:"bytesWritten"`
	RecordsWritten int64  `json:"recordsWritten"`
}

// Detector names and statuses.
const (
	MicroPartition = "micro-partition"
	SmallFiles     = "small-files"
	HotPartitions  = "hot-partitions"

	Clean    = "CLEAN"
	Flagged  = "FLAGGED"
	Skipped  = "SKIPPED"
	Moderate = "MODERATE"
	Severe   = "SEVERE"
)

// Detector returns the named detector, or nil.
func (c *Characteristics) Detector(name string) *Detector {
	if c == nil {
		return nil
	}
	for i := range c.Detectors {
		if c.Detectors[i].Name == name {
			return &c.Detectors[i]
		}
	}
	return nil
}

// Analyze runs the analysis.
func Analyze(in Input, opt Options) *Result {
	if in.Zone == nil {
		in.Zone = time.Local
	}
	if in.Now.IsZero() {
		in.Now = clock.Now()
	}
	r := &Result{BasePath: in.BasePath, MDTEnabled: in.MDTEnabled}
	extra := &Extra{TableType: in.TableType, SmallFileLimit: opt.SmallFileLimit, SmallFileLimitSource: opt.SmallFileLimitSource,
		SmallFileHandling: SmallFileHandling(opt.SmallFileLimit), SmallFileThreshold: opt.SmallFilesThresholdBytes, Histogram: NewHistogram()}
	if in.View != nil {
		extra.ListingSource = in.View.Source
	}
	var all []int64
	var fileCounts []int64
	var rows []PartitionRow
	if in.View != nil {
		for _, p := range in.View.Partitions {
			row := PartitionRow{Partition: p.Path, RowCounts: opt.IncludeRowCounts}
			ep := ExtraPartition{Partition: p.Path, Histogram: NewHistogram()}
			for _, g := range p.FileGroups {
				ep.FileGroups++
				ep.FileSlices += len(g.Slices)
				if g.PendingCompaction != "" {
					ep.PendingCompaction++
				}
				if g.PendingClustering != "" {
					ep.PendingClustering++
				}
				if b := latestBase(g); b != nil {
					row.Files++
					row.TotalBytes += b.Size
					row.sizes = append(row.sizes, b.Size)
					bi := BucketIndex(b.Size)
					ep.Histogram[bi].Count++
					ep.Histogram[bi].Bytes += b.Size
					extra.Histogram[bi].Count++
					extra.Histogram[bi].Bytes += b.Size
					if IsSmallFile(b.Size, opt) {
						ep.SmallFiles++
					}
				}
				if s, merged := g.Merged(); s != nil {
					for _, l := range s.Logs {
						ep.LogFiles++
						ep.LogBytes += l.Size
					}
					if merged {
						ep.MergedFileGroups++
					}
				}
				if s := g.Latest(); s != nil {
					for _, l := range s.Logs {
						ep.LatestLogFiles++
						ep.LatestLogBytes += l.Size
					}
				}
			}
			ep.BaseFiles, ep.BaseBytes = row.Files, row.TotalBytes
			// Java counts rows only for partitions with base files; an empty partition keeps
			// numRecords null (and so drops totalRecords), as collectPartitionRow does.
			if opt.IncludeRowCounts && row.Files > 0 {
				row.NumRecords = in.RowCounts[p.Path]
			}
			ep.Replaced = len(p.Replaced)
			ep.UncommittedFiles = len(p.Uncommitted)
			all = append(all, row.sizes...)
			fileCounts = append(fileCounts, row.Files)
			r.TotalBytes += row.TotalBytes
			r.TotalFiles += row.Files
			ep.P50 = Quantile(sortedCopy(row.sizes), 0.5)
			if row.Files > 0 {
				ep.SmallFileShare = Dec4(float64(ep.SmallFiles) / float64(row.Files))
			}
			extra.Partitions = append(extra.Partitions, ep)
			extra.FileGroups += ep.FileGroups
			extra.FileSlices += ep.FileSlices
			extra.LogFiles += ep.LogFiles
			extra.LogBytes += ep.LogBytes
			extra.LatestSliceLogFiles += ep.LatestLogFiles
			extra.LatestSliceLogBytes += ep.LatestLogBytes
			extra.MergedFileGroups += ep.MergedFileGroups
			rows = append(rows, row)
		}
	}
	r.NumPartitions = len(rows)
	r.TotalRecords = totalRecords(rows, opt)
	r.TableSizeStats = ComputeStats(all)
	r.FileCountPerPartition = ComputeStats(fileCounts)
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].TotalBytes > rows[j].TotalBytes })
	r.Skew = skew(rows, r.TotalBytes)
	for i := range rows {
		if opt.PartitionStats {
			rows[i].SizeStats = ComputeStats(rows[i].sizes)
		} else {
			rows[i].SizeStats = ComputeStats(append([]int64(nil), rows[i].sizes...))
		}
	}
	r.Rows = rows
	if opt.PartitionStats {
		vis := rows
		if opt.TopN > 0 && len(vis) > opt.TopN {
			vis = vis[:opt.TopN]
		}
		r.Partitions = append([]PartitionRow{}, vis...)
	}
	extra.TotalBytesWithLogs = r.TotalBytes + extra.LogBytes
	var small int
	for _, p := range extra.Partitions {
		small += p.SmallFiles
	}
	if r.TotalFiles > 0 {
		extra.SmallFileShare = Dec4(float64(small) / float64(r.TotalFiles))
	}
	if opt.Characteristics {
		r.TableCharacteristics = characteristics(in, opt, rows)
		extra.Detectors = detectorBands(r.TableCharacteristics, opt)
	}
	r.Hudiscope = extra
	return r
}

// IsSmallFile is the one definition of a small file the small% share and the small-files
// detector use: a latest base file under --small-files-threshold-bytes. The writer's
// hoodie.parquet.small.file.limit decides which files it tops up, not which are small: with 0
// it tops up none, and a threshold of 0 would then call no file small.
func IsSmallFile(size int64, opt Options) bool { return size < opt.SmallFilesThresholdBytes }

// SmallFileHandling is "off" when the writer's small-file limit is 0 or less (it never adds
// records to existing files), else "on".
func SmallFileHandling(limit int64) string {
	if limit <= 0 {
		return "off"
	}
	return "on"
}

// totalRecords is Java's tableTotalRows: the sum of partition counts, nil without row counts,
// with no partitions, or when any partition's count is unknown.
func totalRecords(rows []PartitionRow, opt Options) *int64 {
	if !opt.IncludeRowCounts || len(rows) == 0 {
		return nil
	}
	var sum int64
	for _, r := range rows {
		if r.NumRecords == nil {
			return nil
		}
		sum += *r.NumRecords
	}
	return &sum
}

// LatestBase is the base file the analyzer measures for a file group (Java's
// getLatestBaseFile), or nil.
func LatestBase(g *filegroup.FileGroup) *filegroup.BaseFile { return latestBase(g) }

func sortedCopy(v []int64) []int64 {
	c := append([]int64(nil), v...)
	sort.Slice(c, func(i, j int) bool { return c[i] < c[j] })
	return c
}

// latestBase is Java's getLatestBaseFile: the newest slice that has a base file.
func latestBase(g *filegroup.FileGroup) *filegroup.BaseFile {
	for i := len(g.Slices) - 1; i >= 0; i-- {
		if b := g.Slices[i].Base; b != nil {
			return b
		}
	}
	return nil
}

func skew(rows []PartitionRow, total int64) Skew {
	if len(rows) < 2 || total == 0 {
		return Skew{Degenerate: true}
	}
	n := float64(len(rows))
	var sum float64
	xs := make([]float64, len(rows))
	for i, r := range rows {
		xs[i] = float64(r.TotalBytes)
		sum += xs[i]
	}
	mean := sum / n
	var v float64
	for _, x := range xs {
		v += (x - mean) * (x - mean)
	}
	sd := math.Sqrt(v / n)
	s := Skew{TopN: len(rows)}
	if s.TopN > 10 {
		s.TopN = 10
	}
	if mean != 0 {
		s.CV = sd / mean
	}
	asc := append([]float64(nil), xs...)
	sort.Float64s(asc)
	var cum, w float64
	for i, x := range asc {
		cum += x
		w += x * float64(i+1)
	}
	if cum != 0 {
		s.Gini = 2*w/(n*cum) - (n+1)/n
	}
	s.LargestPartitionShare = float64(rows[0].TotalBytes) / float64(total)
	var top int64
	for i := 0; i < s.TopN; i++ {
		top += rows[i].TotalBytes
	}
	s.TopNShare = float64(top) / float64(total)
	thr := mean + 2*sd
	s.Outliers = []Outlier{}
	for _, r := range rows {
		if float64(r.TotalBytes) > thr {
			s.Outliers = append(s.Outliers, Outlier{r.Partition, r.TotalBytes, r.Files})
		}
	}
	return s
}

func displayName(p string) string {
	if p == "" {
		return "(root)"
	}
	return p
}

func pct0(f float64) string { return fmt.Sprintf("%.0f%%", f) }

// characteristics runs the three detectors.
func characteristics(in Input, opt Options, rows []PartitionRow) *Characteristics {
	c := &Characteristics{NumPartitions: len(rows), TableAgeDays: tableAgeDays(in)}
	c.Detectors = []Detector{microDetector(c, opt, rows), smallFilesDetector(in, opt, rows), hotDetector(in, opt)}
	c.OverallStatus = Clean
	for _, d := range c.Detectors {
		if d.Status == Flagged || d.Status == Moderate || d.Status == Severe {
			c.OverallStatus = Flagged
		}
	}
	return c
}

func civilDays(from, to time.Time, zone *time.Location) int64 {
	a := from.In(zone)
	b := to.In(zone)
	da := time.Date(a.Year(), a.Month(), a.Day(), 0, 0, 0, 0, time.UTC)
	db := time.Date(b.Year(), b.Month(), b.Day(), 0, 0, 0, 0, time.UTC)
	return int64(db.Sub(da).Hours() / 24)
}

// tableAgeDays is max(days since hoodie.properties mtime, days since the first active instant's
// yyyyMMdd), never negative.
func tableAgeDays(in Input) int64 {
	var age int64
	if !in.PropsModTime.IsZero() && in.PropsModTime.Unix() > 0 {
		if d := civilDays(in.PropsModTime, in.Now, in.Zone); d > age {
			age = d
		}
	}
	if in.Timeline != nil {
		first := ""
		for _, i := range in.Timeline.Instants {
			if first == "" || timeline.CompareInstants(i.RequestedTime, first) < 0 {
				first = i.RequestedTime
			}
		}
		if len(first) >= 8 {
			if t, err := time.ParseInLocation("20060102", first[:8], in.Zone); err == nil {
				if d := civilDays(t, in.Now, in.Zone); d > age {
					age = d
				}
			}
		}
	}
	return age
}

func topKSmallest(rows []PartitionRow, minFiles int, k int) *[]SmallestRow {
	out := []SmallestRow{}
	if k <= 0 {
		return &out
	}
	for _, r := range rows {
		if r.Files < int64(minFiles) {
			continue
		}
		out = append(out, SmallestRow{r.Partition, r.Files, r.TotalBytes, r.AvgFileSize()})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].AvgFileSize != out[j].AvgFileSize {
			return out[i].AvgFileSize < out[j].AvgFileSize
		}
		return out[i].TotalBytes < out[j].TotalBytes
	})
	if len(out) > k {
		out = out[:k]
	}
	return &out
}

func microDetector(c *Characteristics, opt Options, rows []PartitionRow) Detector {
	countTrig := c.NumPartitions > opt.MicroPartitionCountThreshold
	eligible := c.TableAgeDays >= int64(opt.MicroPartitionMinAgeDays)
	match := 0
	if eligible {
		for _, r := range rows {
			if r.Files >= int64(opt.MicroPartitionMinFiles) && r.AvgFileSize() < opt.MicroPartitionMaxAvgBytes {
				match++
			}
		}
	}
	sizeTrig := eligible && match > 0
	sizeThr := units.Bytes(opt.MicroPartitionMaxAvgBytes)
	var parts []string
	findings := []string{}
	if countTrig {
		parts = append(parts, fmt.Sprintf("%d partitions exceed the count threshold of %d", c.NumPartitions, opt.MicroPartitionCountThreshold))
		findings = append(findings, fmt.Sprintf("Table has %d partitions, above the threshold of %d; revisit the partitioning scheme (coarser partition columns, or bucketing / clustering on the column instead of partitioning by it) so each partition holds enough data to fill full-size files.", c.NumPartitions, opt.MicroPartitionCountThreshold))
	} else {
		parts = append(parts, fmt.Sprintf("%d partitions (count threshold %d)", c.NumPartitions, opt.MicroPartitionCountThreshold))
	}
	switch {
	case !eligible:
		parts = append(parts, fmt.Sprintf("size rule skipped because the table is %d days old (needs %d)", c.TableAgeDays, opt.MicroPartitionMinAgeDays))
	case sizeTrig:
		parts = append(parts, fmt.Sprintf("%d partitions hold >= %d base files averaging under %s", match, opt.MicroPartitionMinFiles, sizeThr))
		findings = append(findings, fmt.Sprintf("%d partitions hold at least %d base files averaging under %s on a table %d days old; run clustering (HoodieClusteringJob) to merge them, and check that the writer's small-file limit and max file size let ingestion bin-pack new records into existing files.", match, opt.MicroPartitionMinFiles, sizeThr, c.TableAgeDays))
	default:
		parts = append(parts, fmt.Sprintf("no partition holds >= %d base files averaging under %s", opt.MicroPartitionMinFiles, sizeThr))
	}
	status := Clean
	if countTrig || sizeTrig {
		status = Flagged
	}
	return Detector{Name: MicroPartition, Status: status, Summary: strings.Join(parts, "; ") + ".", Findings: findings,
		EffectiveConfigs: Ordered{
			{"effective.micro.partition.count.threshold", opt.MicroPartitionCountThreshold},
			{"effective.micro.partition.min.files", opt.MicroPartitionMinFiles},
			{"effective.micro.partition.max.avg.bytes", opt.MicroPartitionMaxAvgBytes},
			{"effective.micro.partition.min.age.days", opt.MicroPartitionMinAgeDays},
			{"observed.num.partitions", c.NumPartitions},
			{"observed.table.age.days", c.TableAgeDays},
			{"observed.count.rule.triggered", countTrig},
			{"observed.size.rule.eligible", eligible},
			{"observed.size.rule.triggered", sizeTrig},
			{"observed.size.rule.matching.partitions", match},
		},
		TopK: topKSmallest(rows, opt.MicroPartitionMinFiles, opt.PrintTopK)}
}

// IngestCommitCount is the small-files gate count: active completed commit + deltacommit +
// replacecommit whose operation is not CLUSTER (unreadable replacecommits skipped); archived
// commit + deltacommit added only when the active count is under the gate.
func IngestCommitCount(in Input, gate int) int64 {
	var n int64
	if in.Timeline != nil {
		for _, i := range in.Timeline.Instants {
			n += ingest(i, true)
		}
	}
	if n >= int64(gate) {
		return n
	}
	for _, i := range in.Archived {
		n += ingest(i, false)
	}
	return n
}

func ingest(i *timeline.Instant, readable bool) int64 {
	if !i.IsCompleted() {
		return 0
	}
	// Every commit and delta commit, and replacecommits whose metadata is not CLUSTER (the
	// operation type, not the plan, as the Java-compatible layout output always counted).
	switch {
	case i.IsCommit() || i.IsDeltaCommit():
		return 1
	case i.IsReplaceCommit():
		if readable && i.HasWrites() && i.CommitOperation() != timeline.OpCluster {
			return 1
		}
	}
	return 0
}

func smallFilesDetector(in Input, opt Options, rows []PartitionRow) Detector {
	commits := IngestCommitCount(in, opt.SmallFilesMinTableCommits)
	var qualifying, flagged int
	for _, r := range rows {
		if r.Files < int64(opt.SmallFilesMinFilesPerPartition) {
			continue
		}
		qualifying++
		if r.AvgFileSize() < opt.SmallFilesThresholdBytes {
			flagged++
		}
	}
	pct := 0.0
	if qualifying > 0 {
		pct = float64(flagged) / float64(qualifying)
	}
	status := Clean
	switch {
	case commits < int64(opt.SmallFilesMinTableCommits):
		status = Skipped
	case qualifying == 0:
	case pct >= opt.SmallFilesSeverePct:
		status = Severe
	case pct >= opt.SmallFilesModeratePct:
		status = Moderate
	}
	thr := units.Bytes(opt.SmallFilesThresholdBytes)
	flaggedPct := fmt.Sprintf("%.1f%%", 100*pct)
	findings := []string{}
	var summary string
	var topk *[]SmallestRow
	if status == Skipped {
		summary = fmt.Sprintf("Skipped: table has only %d ingest commits (needs >= %d) so the small-file signal is not yet reliable.", commits, opt.SmallFilesMinTableCommits)
		empty := []SmallestRow{}
		topk = &empty
		// Java computes no verdict fields when the gate fails.
		qualifying, flagged, pct = 0, 0, 0
	} else {
		summary = fmt.Sprintf("%d of %d partitions with >= %d base files average under %s (%s; MODERATE at >= %s, SEVERE at >= %s).",
			flagged, qualifying, opt.SmallFilesMinFilesPerPartition, thr, flaggedPct, pct0(100*opt.SmallFilesModeratePct), pct0(100*opt.SmallFilesSeverePct))
		if status != Clean {
			findings = append(findings, fmt.Sprintf("%d of %d qualifying partitions (%s) average under %s per base file; run clustering (HoodieClusteringJob) to merge small files, and review hoodie.parquet.small.file.limit and hoodie.parquet.max.file.size on the writer so new writes bin-pack into existing files.", flagged, qualifying, flaggedPct, thr))
		}
		if status != Clean && SmallFileHandling(opt.SmallFileLimit) == "off" {
			findings = append(findings, fmt.Sprintf("The writer's small-file handling is off (hoodie.parquet.small.file.limit=%d): new records never go into existing small files, so every write adds files of its own; set a limit (Hudi's default is 104857600) to let ingestion bin-pack.", opt.SmallFileLimit))
		}
		if flagged > 0 && in.TableType == tableconfig.MergeOnRead {
			findings = append(findings, "Only base files are measured; on this Merge-on-Read table log files are not counted, so the actual pile-up can be larger than reported.")
		}
		topk = topKSmallest(rows, opt.SmallFilesMinFilesPerPartition, opt.PrintTopK)
	}
	return Detector{Name: SmallFiles, Status: status, Summary: summary, Findings: findings,
		EffectiveConfigs: Ordered{
			{"effective.small.files.threshold.bytes", opt.SmallFilesThresholdBytes},
			{"effective.small.files.min.files.per.partition", opt.SmallFilesMinFilesPerPartition},
			{"effective.small.files.moderate.pct", Dbl(opt.SmallFilesModeratePct)},
			{"effective.small.files.severe.pct", Dbl(opt.SmallFilesSeverePct)},
			{"effective.small.files.min.table.commits", opt.SmallFilesMinTableCommits},
			{"observed.ingest.commit.count", commits},
			{"observed.qualifying.partitions", qualifying},
			{"observed.flagged.partitions", flagged},
			{"observed.flagged.pct", Dec4(pct)},
		},
		TopK: topk}
}

// nonPartitioned: the table has only its root as a partition, by its listing or, without one,
// by what the commits in the window wrote.
func nonPartitioned[V any](in Input, written map[string]V) bool {
	if in.View != nil && len(in.View.Partitions) > 0 {
		for _, p := range in.View.Partitions {
			if p.Path != "" {
				return false
			}
		}
		return true
	}
	for p := range written {
		if p != "" {
			return false
		}
	}
	return len(written) > 0
}

func hotDetector(in Input, opt Options) Detector {
	var cands []*timeline.Instant
	if in.Timeline != nil {
		for _, i := range in.Timeline.Instants {
			if i.IsCompleted() && timeline.IsWriteAction(i.Action) {
				cands = append(cands, i)
			}
		}
	}
	sort.SliceStable(cands, func(a, b int) bool {
		return timeline.CompareInstants(cands[a].RequestedTime, cands[b].RequestedTime) > 0
	})
	type counter struct {
		order                  int
		commits, bytes, record int64
	}
	counters := map[string]*counter{}
	kept := 0
	for _, i := range cands {
		if kept >= opt.HotWindowCommits {
			break
		}
		// The per-partition sums: kept for every instant even when a compact timeline
		// dropped the metadata itself.
		writes, ok := i.Writes()
		if !ok {
			continue // unreadable: skipped, as Java does
		}
		if op := i.CommitOperation(); op == timeline.OpCompact || op == timeline.OpCluster {
			continue
		}
		kept++
		for _, w := range writes {
			c := counters[w.Partition]
			if c == nil {
				c = &counter{order: len(counters)}
				counters[w.Partition] = c
			}
			c.commits++
			c.bytes += w.TotalWriteBytes
			c.record += w.NumInserts + w.NumUpdateWrites + w.NumDeletes
		}
	}
	minCount := int64(math.Ceil(opt.HotPartitionCommitShare * float64(kept)))
	hot := []HotRow{}
	if kept > 0 {
		for p, c := range counters {
			if c.commits >= minCount {
				hot = append(hot, HotRow{p, c.commits, c.bytes, c.record})
			}
		}
	}
	sort.Slice(hot, func(a, b int) bool {
		x, y := hot[a], hot[b]
		if x.CommitCount != y.CommitCount {
			return x.CommitCount > y.CommitCount
		}
		if x.BytesWritten != y.BytesWritten {
			return x.BytesWritten > y.BytesWritten
		}
		return x.Partition < y.Partition
	})
	status := Clean
	findings := []string{}
	var summary string
	switch {
	case kept == 0:
		status = Skipped
		summary = "Skipped: no completed ingest commits on the active timeline (compaction and clustering are excluded)."
	case nonPartitioned(in, counters):
		// Every write lands in the table root: there is no partition to be hot.
		status, hot = Skipped, []HotRow{}
		summary = fmt.Sprintf("Skipped: the table is not partitioned, so no partition can be hot (%d ingest commits in the window, all to the table root).", kept)
	default:
		if len(hot) > 0 {
			status = Flagged
		}
		summary = fmt.Sprintf("%d partition(s) were written by >= %s of the last %d ingest commits (compaction and clustering excluded).", len(hot), pct0(100*opt.HotPartitionCommitShare), kept)
		shown := len(hot)
		if shown > 10 {
			shown = 10
		}
		for _, h := range hot[:shown] {
			findings = append(findings, fmt.Sprintf("Partition '%s' was written by %d of the last %d ingest commits (%s), %s and %d records.",
				displayName(h.Partition), h.CommitCount, kept, pct0(100*float64(h.CommitCount)/float64(kept)), units.Bytes(h.BytesWritten), h.RecordsWritten))
		}
		if len(hot) > shown {
			findings = append(findings, fmt.Sprintf("%d more hot partitions are listed under partitions[].", len(hot)-shown))
		}
		if len(hot) > 0 {
			findings = append(findings, "If these are not the partitions expected to absorb current writes (for example the latest date partition of a time-partitioned table), revisit the partition key so writes spread across partitions; otherwise size the writer's small-file handling and clustering around these partitions.")
		}
	}
	return Detector{Name: HotPartitions, Status: status, Summary: summary, Findings: findings,
		EffectiveConfigs: Ordered{
			{"effective.hot.window.commits", opt.HotWindowCommits},
			{"effective.hot.partition.commit.share", Dbl(opt.HotPartitionCommitShare)},
			{"effective.hot.partition.min.commit.count", minCount},
			{"observed.hot.window.effective.commits", kept},
			{"observed.hot.partition.count", len(hot)},
		},
		Hot: &hot}
}
