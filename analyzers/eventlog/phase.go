package eventlog

import (
	"regexp"
	"sort"
	"strings"
)

// Phases (HoodieSparkEventLogAnalyzer vocabulary).
const (
	PhaseSourceRead    = "SOURCE_READ_AND_TRANSFORM"
	PhaseDedupTagging  = "DEDUP_AND_INDEX_TAGGING"
	PhaseDataWrite     = "DATA_TABLE_WRITE"
	PhaseMarkers       = "MARKER_RECONCILIATION"
	PhaseMetadataWrite = "METADATA_TABLE_WRITE"
	PhasePlanning      = "PLANNING"
	PhaseExecution     = "EXECUTION"
	PhaseArchival      = "ARCHIVAL"
	PhaseUnknown       = "UNKNOWN"
)

// SubPhaseStreamingMetadataWrite marks stages of the untagged streaming MDT write path.
const SubPhaseStreamingMetadataWrite = "streamingMetadataWrite"

type phaseRule struct {
	prefix   string // lower case
	phase    string
	subPhase string
}

// phaseRules maps Hudi activity prefixes (setJobStatus texts) to phases, longest first.
var phaseRules = func() []phaseRule {
	r := []phaseRule{
		{"Fetching next batch: ", PhaseSourceRead, "sourceFetch"},
		{"Checking if input is empty: ", PhaseSourceRead, "emptyInputCheck"},

		{"Tagging: ", PhaseDedupTagging, "tagging"},
		{"Obtain key ranges for file slices", PhaseDedupTagging, "bloomRangePruning"},
		{"Load meta index key ranges for file slices: ", PhaseDedupTagging, "bloomMetaIndexRanges"},
		{"Compute all comparisons needed between records and files: ", PhaseDedupTagging, "bloomComparisonFanout"},
		{"Load latest base files from all partitions: ", PhaseDedupTagging, "baseFileListing"},
		{"Building workload profile:", PhaseDedupTagging, "workloadProfile"},

		{"Doing partition and writing data: ", PhaseDataWrite, "write"},
		{"Commit write status collect: ", PhaseDataWrite, "writeStatusCollect"},
		{"Committing stats: ", PhaseDataWrite, "commitStats"},
		{"Getting small files from partitions: ", PhaseDataWrite, "smallFileProbe"},
		{"Getting ExistingFileIds of all partitions", PhaseDataWrite, "partitionReplace"},
		{"Getting ExistingFileIds of matching static partitions", PhaseDataWrite, "partitionReplace"},
		{"Resolving file groups being replaced across all partitions", PhaseDataWrite, "partitionReplace"},
		{"Gather all file ids from all deleting partitions.", PhaseDataWrite, "partitionReplace"},

		{"Committing to metadata table: ", PhaseMetadataWrite, ""},
		{"Dropping partitions from metadata table: ", PhaseMetadataWrite, ""},
		{"Creating records for metadata FILES partition", PhaseMetadataWrite, "filesPartition"},
		{"Record Index: reading record keys from ", PhaseMetadataWrite, "recordIndex"},
		{"Secondary Index: reading secondary keys from ", PhaseMetadataWrite, "secondaryIndex"},
		{"Bulk inserting at ", PhaseMetadataWrite, ""},
		{"Upserting at ", PhaseMetadataWrite, ""},
		{"Upserting with instant ", PhaseMetadataWrite, ""},

		{"Obtaining marker files for all created, merged paths", PhaseMarkers, ""},
		{"Deleting marker directory: ", PhaseMarkers, ""},
		{"Cleaning up marker directories for commit ", PhaseMarkers, ""},
		{"Delete all partially written files: ", PhaseMarkers, ""},
		{"Delete invalid files generated during the write operation: ", PhaseMarkers, ""},
		{"Wait for all files to appear/disappear:", PhaseMarkers, ""},
		{"Preparing data for missing files to assist with generating write stats", PhaseMarkers, "missingFileStats"},
		{"Generating writeStat for missing log files", PhaseMarkers, "missingFileStats"},

		{"Compaction: generating compaction plan", PhasePlanning, "compactionPlan"},
		{"Looking for files to compact: ", PhasePlanning, "compactionCandidateScan"},
		{"Validate compaction operations: ", PhasePlanning, "compactionValidation"},
		{"Execute unschedule operations: ", PhasePlanning, "compactionUnschedule"},
		{"Compacting file slices: ", PhaseExecution, "compaction"},
		{"Preparing compaction metadata: ", PhaseExecution, "compactionMetadata"},
		{"Collect compaction write status and commit compaction: ", PhaseExecution, "compactionCommit"},
		{"Collect log compaction write status and commit compaction", PhaseExecution, "logCompactionCommit"},
		{"Clustering records for ", PhaseExecution, "clustering"},
		{"Handling updates which are under clustering: ", PhaseExecution, "clusteringUpdateHandling"},
		{"Collect clustering write status and commit clustering", PhaseExecution, "clusteringCommit"},
		{"Obtaining list of partitions to be cleaned: ", PhasePlanning, "cleanPartitionScan"},
		{"Generating list of file slices to be cleaned: ", PhasePlanning, "cleanFileSliceScan"},
		{"Perform cleaning of table: ", PhaseExecution, "cleaning"},
		{"Creating Listing Rollback Plan: ", PhasePlanning, "rollbackInstantListing"},
		{"Perform rollback actions: ", PhaseExecution, "rollback"},
		{"Collect rollback stats: ", PhaseExecution, "rollbackStats"},
		{"Collect rollback stats for upgrade/downgrade: ", PhaseExecution, "rollbackStatsUpgradeDowngrade"},
		{"Collecting latest files for savepoint ", PhasePlanning, "savepointFileListing"},
		{"Run metadata-only bootstrap operation: ", PhaseExecution, "bootstrap"},

		{"Delete archived instants: ", PhaseArchival, "archivedInstantDelete"},
	}
	for i := range r {
		r[i].prefix = strings.ToLower(r[i].prefix)
	}
	sort.SliceStable(r, func(i, j int) bool {
		if len(r[i].prefix) != len(r[j].prefix) {
			return len(r[i].prefix) > len(r[j].prefix)
		}
		return r[i].prefix < r[j].prefix
	})
	return r
}()

// Activities that embed a count; anchored and narrow so Spark's own
// "Listing leaf files and directories for N paths" does not match.
var countedRules = []struct {
	re    *regexp.Regexp
	phase string
}{
	{regexp.MustCompile(`(?i)^Listing \d+ partitions from filesystem`), PhaseMetadataWrite},
	{regexp.MustCompile(`(?i)^Creating \d+ file groups for partition `), PhaseMetadataWrite},
}

// PhaseMatch is the phase and optional sub-phase a description resolves to.
type PhaseMatch struct {
	Phase    string
	SubPhase string // "" = none
	// Activity is the text the rule matched (description without the module prefix).
	Activity string
	// Table is the table name the activity ends with ("" if none).
	Table string
}

var noMatch = PhaseMatch{Phase: PhaseUnknown}

func matchActivity(activity string) PhaseMatch {
	lower := strings.ToLower(activity)
	for _, r := range phaseRules {
		if strings.HasPrefix(lower, r.prefix) {
			m := PhaseMatch{Phase: r.phase, SubPhase: r.subPhase, Activity: activity}
			if strings.HasSuffix(r.prefix, ":") || strings.HasSuffix(r.prefix, ": ") {
				m.Table = cleanTable(activity[len(r.prefix):])
			} else {
				m.Table = tableOf(activity)
			}
			return m
		}
	}
	for _, r := range countedRules {
		if r.re.MatchString(activity) {
			return PhaseMatch{Phase: r.phase, Activity: activity}
		}
	}
	return noMatch
}

// ResolvePhase maps a spark.job.description to a phase: the raw text, then the
// text after the first ':' (Hudi 1.x "<Module>:<activity>"), then FSUtils'
// parallel listing of metadata-table paths.
func ResolvePhase(description string) PhaseMatch {
	if description == "" {
		return noMatch
	}
	if m := matchActivity(description); m.Phase != PhaseUnknown {
		return m
	}
	if c := strings.IndexByte(description, ':'); c >= 0 && c+1 < len(description) {
		if m := matchActivity(description[c+1:]); m.Phase != PhaseUnknown {
			return m
		}
	}
	const listing = "Parallel listing paths "
	if i := strings.Index(description, listing); i >= 0 {
		if strings.Contains(description[i+len(listing):], "/metadata/") {
			return PhaseMatch{Phase: PhaseMetadataWrite, SubPhase: "metadataListing", Activity: description[i:]}
		}
	}
	return noMatch
}

// ResolveModule returns the Hudi class that set the job status: the part
// before the first ':' in the 1.x encoding, else the 0.x job group.
func ResolveModule(description, jobGroup *string) *string {
	if description != nil && matchActivity(*description).Phase == PhaseUnknown {
		d := *description
		if c := strings.IndexByte(d, ':'); c > 0 && c+1 < len(d) && matchActivity(d[c+1:]).Phase != PhaseUnknown {
			m := d[:c]
			return &m
		}
	}
	if jobGroup == nil || *jobGroup == "" {
		return nil
	}
	return jobGroup
}

var subPhaseRefinements = []struct{ marker, subPhase string }{
	{"SparkMetadataTableGlobalRecordLevelIndex", "recordIndexLookup"},
	{"SparkMetadataTableRecordLevelIndex", "recordIndexLookup"},
	{"SparkHoodieBloomIndexHelper", "bloomIndexLookup"},
	{"HoodieBloomIndexCheckFunction", "bloomIndexLookup"},
	{"HoodieGlobalBloomIndex", "bloomIndexLookup"},
	{"HoodieBloomIndex", "bloomIndexLookup"},
}

// refineSubPhase names the component a DEDUP_AND_INDEX_TAGGING stage ran, from its stage name.
func refineSubPhase(phase, stageName string) string {
	if phase != PhaseDedupTagging || stageName == "" {
		return ""
	}
	for _, r := range subPhaseRefinements {
		if strings.Contains(stageName, r.marker) {
			return r.subPhase
		}
	}
	return ""
}

// tableOf extracts the table name from an activity's ": <table>" suffix ("" if none).
func tableOf(activity string) string {
	i := strings.LastIndex(activity, ": ")
	if i < 0 {
		return ""
	}
	return cleanTable(activity[i+2:])
}

func cleanTable(t string) string {
	t = strings.TrimSpace(t)
	if t == "" || strings.ContainsAny(t, " /:<>") {
		return ""
	}
	return t
}

// isMetadataTable reports a Hudi metadata-table name (<table>_metadata).
func isMetadataTable(t string) bool { return strings.HasSuffix(t, "_metadata") }
