package layout

import "fmt"

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

// DetectorBand is one detector's headline number against its threshold.
type DetectorBand struct {
	Name      string  `json:"name"`
	Status    string  `json:"status"`
	Observed  float64 `json:"observed"`
	Threshold float64 `json:"threshold"`
	What      string  `json:"what"`
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
