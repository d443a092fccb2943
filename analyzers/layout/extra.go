package layout

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hudiscope/hudiscope/internal/units"
)

// Extra is everything hudiscope adds to the Java tool's report, under the one key "hudiscope":
// log files of MOR slices, file groups and slices, per-partition and table histograms on a
// log scale, the small-file share, and whether the writer's small-file handling is on.
type Extra struct {
	// SchemaVersion versions this block (hudiscope's JSON contract); the Java fields beside it
	// follow HoodieTableLayoutAnalyzer.
	SchemaVersion string `json:"schemaVersion,omitempty"`
	TableType     string `json:"tableType"`
	ListingSource string `json:"listingSource"`
	FileGroups    int    `json:"fileGroups"`
	FileSlices    int    `json:"fileSlices"`
	// LogFiles / LogBytes are the log files a snapshot read merges with each file group's base
	// file (filegroup.Merged: across a pending compaction, the logs of both slices); the Java
	// tool never counts them. LatestSliceLogFiles / LatestSliceLogBytes are the latest slice's
	// own logs (after a pending compaction: only those written since it was planned).
	// MergedFileGroups counts groups whose read spans two slices.
	LogFiles            int   `json:"logFiles"`
	LogBytes            int64 `json:"logBytes"`
	LatestSliceLogFiles int   `json:"latestSliceLogFiles"`
	LatestSliceLogBytes int64 `json:"latestSliceLogBytes"`
	MergedFileGroups    int   `json:"mergedAcrossCompactionFileGroups"`
	TotalBytesWithLogs  int64 `json:"totalBytesWithLogs"`
	// SmallFileLimit is the writer's effective hoodie.parquet.small.file.limit and
	// SmallFileHandling "off" when it is ≤ 0. SmallFileShare is the share of latest base files
	// under SmallFileThreshold (the small-files detector's threshold; see IsSmallFile).
	SmallFileLimit       int64            `json:"smallFileLimit"`
	SmallFileLimitSource string           `json:"smallFileLimitSource"`
	SmallFileHandling    string           `json:"smallFileHandling"`
	SmallFileThreshold   int64            `json:"smallFileThreshold"`
	SmallFileShare       Dec4             `json:"smallFileShare"`
	Histogram            []Bucket         `json:"histogram"`
	Partitions           []ExtraPartition `json:"partitions"`
	// Detectors gives, per detector, the observed number against the threshold it is judged by.
	Detectors []DetectorBand `json:"detectors,omitempty"`
}

// ExtraPartition is one partition as hudiscope sees it (name order).
type ExtraPartition struct {
	Partition         string   `json:"partition"`
	FileGroups        int      `json:"fileGroups"`
	FileSlices        int      `json:"fileSlices"`
	BaseFiles         int64    `json:"baseFiles"`
	BaseBytes         int64    `json:"baseBytes"`
	LogFiles          int      `json:"logFiles"`
	LogBytes          int64    `json:"logBytes"`
	LatestLogFiles    int      `json:"latestSliceLogFiles"`
	LatestLogBytes    int64    `json:"latestSliceLogBytes"`
	MergedFileGroups  int      `json:"mergedAcrossCompactionFileGroups"`
	P50               int64    `json:"p50"`
	SmallFiles        int      `json:"smallFiles"`
	SmallFileShare    Dec4     `json:"smallFileShare"`
	PendingCompaction int      `json:"pendingCompactionFileGroups"`
	PendingClustering int      `json:"pendingClusteringFileGroups"`
	Replaced          int      `json:"replacedFileGroups"`
	UncommittedFiles  int      `json:"uncommittedFiles"`
	Histogram         []Bucket `json:"histogram"`
}

// DetectorBand is one detector's headline number against its threshold, and hudiscope's
// verdict with its reason: what every surface shows beside the detector.
type DetectorBand struct {
	Name      string  `json:"name"`
	Status    string  `json:"status"`
	Observed  float64 `json:"observed"`
	Threshold float64 `json:"threshold"`
	What      string  `json:"what"`
	// Verdict is the status, or TooFew when the rule's population (qualifying partitions,
	// commits in the window) is below the minimum a share means anything at; a hot-partitions
	// FLAGGED where every partition is hot is CLEAN (nothing is concentrated). Reason says why,
	// in one line.
	Verdict string `json:"verdict"`
	Reason  string `json:"reason"`
	// NotApplicable: skipped because the table has nothing for the rule to judge (no
	// partitions for hot-partitions); the roll-up does not count it as not judged.
	NotApplicable bool `json:"notApplicable,omitempty"`
}

// TooFew is the verdict of a share-of-population rule whose population is too small.
const TooFew = "too few to judge"

// Minimum populations of the share rules: small-files needs a partition with enough base files
// to average; a commit share over fewer than MinHotWindow ingest commits flags every partition
// a commit or two wrote.
const (
	MinSmallFilesQualifying = 1
	MinHotWindow            = 5
)

// Verdict is the detectors' roll-up as hudiscope judges them: FLAGGED when any verdict is
// FLAGGED, MODERATE or SEVERE, else CLEAN, and how many were not judged when any were
// ("CLEAN · 1 of 3 not judged"). The Java overallStatus beside it ignores what was skipped.
func (x *Extra) Verdict() string {
	if x == nil || len(x.Detectors) == 0 {
		return ""
	}
	v, n := Clean, 0
	for _, d := range x.Detectors {
		switch d.Verdict {
		case Flagged, Moderate, Severe:
			v = Flagged
		case Skipped, TooFew:
			if !d.NotApplicable {
				n++
			}
		}
	}
	if n == 0 {
		return v
	}
	return fmt.Sprintf("%s · %d of %d not judged", v, n, len(x.Detectors))
}

// pctShort is a percentage with at most 2 decimals and no trailing zeros ("10%", "12.5%").
func pctShort(f float64) string {
	s := strconv.FormatFloat(100*f, 'f', 2, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s + "%"
}

func intCfg(d Detector, key string) int64 {
	switch v := d.EffectiveConfigs.Get(key).(type) {
	case int:
		return int64(v)
	case int64:
		return v
	}
	return 0
}

// verdict fills b's Verdict and Reason.
func (b *DetectorBand) verdict(c *Characteristics, d Detector, opt Options) {
	b.Verdict = d.Status
	switch d.Name {
	case MicroPartition:
		b.Reason = fmt.Sprintf("%d partitions (count threshold %d)", c.NumPartitions, opt.MicroPartitionCountThreshold)
		size := fmt.Sprintf("%d+ base files averaging under %s", opt.MicroPartitionMinFiles, units.Bytes(opt.MicroPartitionMaxAvgBytes))
		switch m := intCfg(d, "observed.size.rule.matching.partitions"); {
		case m > 0:
			b.Reason += fmt.Sprintf("; %d partition(s) hold %s", m, size)
		case d.EffectiveConfigs.Get("observed.size.rule.eligible") == false:
			b.Reason += fmt.Sprintf("; size rule waits for a table %d days old", opt.MicroPartitionMinAgeDays)
		default:
			b.Reason += "; none holds " + size
		}
	case SmallFiles:
		commits, q, f := intCfg(d, "observed.ingest.commit.count"), intCfg(d, "observed.qualifying.partitions"), intCfg(d, "observed.flagged.partitions")
		switch {
		case d.Status == Skipped:
			b.Reason = fmt.Sprintf("only %d ingest commits (needs %d)", commits, opt.SmallFilesMinTableCommits)
		case q < MinSmallFilesQualifying:
			b.Verdict = TooFew
			b.Reason = fmt.Sprintf("%d of %d partitions have %d+ base files to average", q, c.NumPartitions, opt.SmallFilesMinFilesPerPartition)
		default:
			b.Reason = fmt.Sprintf("%d of %d qualifying partitions average under %s (%s; MODERATE at %s)", f, q,
				units.Bytes(opt.SmallFilesThresholdBytes), pctShort(b.Observed), pctShort(opt.SmallFilesModeratePct))
		}
	case HotPartitions:
		kept, hot := intCfg(d, "observed.hot.window.effective.commits"), intCfg(d, "observed.hot.partition.count")
		switch {
		case d.Status == Skipped:
			b.Reason = strings.TrimPrefix(d.Summary, "Skipped: ")
			b.NotApplicable = kept > 0 // not partitioned (kept 0: no ingest commit to judge)
		case kept < MinHotWindow:
			b.Verdict = TooFew
			b.Reason = fmt.Sprintf("only %d ingest commits in the window (a commit share needs %d)", kept, MinHotWindow)
		case hot > 0 && hot >= int64(c.NumPartitions):
			b.Verdict = Clean
			b.Reason = fmt.Sprintf("all %d partitions hot in the last %d ingest commits: writes spread, not concentrated", c.NumPartitions, kept)
		default:
			b.Reason = fmt.Sprintf("%d of %d partitions hot (written by %s+ of the last %d ingest commits)", hot, c.NumPartitions,
				pctShort(opt.HotPartitionCommitShare), kept)
		}
	}
}

func detectorBands(c *Characteristics, opt Options) []DetectorBand {
	var out []DetectorBand
	for _, d := range c.Detectors {
		b := DetectorBand{Name: d.Name, Status: d.Status}
		switch d.Name {
		case MicroPartition:
			b.Observed = float64(c.NumPartitions)
			b.Threshold = float64(opt.MicroPartitionCountThreshold)
			b.What = "partitions vs count threshold"
		case SmallFiles:
			if v, ok := d.EffectiveConfigs.Get("observed.flagged.pct").(Dec4); ok {
				b.Observed = float64(v)
			}
			b.Threshold = opt.SmallFilesModeratePct
			b.What = "share of qualifying partitions averaging under the threshold vs MODERATE tier"
		case HotPartitions:
			if v, ok := d.EffectiveConfigs.Get("observed.hot.partition.count").(int); ok {
				b.Observed = float64(v)
			}
			b.What = "hot partitions (commit share ≥ the configured share)"
		}
		b.verdict(c, d, opt)
		out = append(out, b)
	}
	return out
}

// WriterSmallFiles says in one phrase what the writer does with small files (bytes formats sizes).
func (x *Extra) WriterSmallFiles(bytes func(int64) string) string {
	src := x.SmallFileLimitSource
	if src == "" {
		src = "-"
	}
	if x.SmallFileHandling == "off" {
		return fmt.Sprintf("OFF (hoodie.parquet.small.file.limit=%d, %s): every write adds new files", x.SmallFileLimit, src)
	}
	return fmt.Sprintf("on, inserts top up files under %s (hoodie.parquet.small.file.limit, %s)", bytes(x.SmallFileLimit), src)
}

// SmallShare says what the small-file share counts (bytes formats sizes).
func (x *Extra) SmallShare(bytes func(int64) string) string {
	return fmt.Sprintf("%.1f%% of latest base files under %s (the small-files threshold)", 100*float64(x.SmallFileShare), bytes(x.SmallFileThreshold))
}
