package hudi

import (
	"regexp"
	"strconv"
	"strings"
)

// BaseFileName is a parsed base file name `<fileId>_<writeToken>_<instant>.<ext>`.
type BaseFileName struct {
	FileID, WriteToken, Instant, Ext string
}

var baseFileRe = regexp.MustCompile(`^([^_.][^_]*)_([^_]+)_(\d+)\.(parquet|orc|hfile|lance)$`)

// ParseBaseFileName parses a base file name; false for anything else.
func ParseBaseFileName(name string) (BaseFileName, bool) {
	m := baseFileRe.FindStringSubmatch(name)
	if m == nil {
		return BaseFileName{}, false
	}
	return BaseFileName{FileID: m[1], WriteToken: m[2], Instant: m[3], Ext: m[4]}, true
}

// LogFileName is a parsed log file name `.<fileId>_<instant>.log.<version>_<writeToken>[.cdc]`.
// Instant is the slice's base instant in table versions ≤ 7 and the writing deltacommit's
// requested time in versions ≥ 8.
type LogFileName struct {
	FileID, Instant, Ext string
	Version              int
	WriteToken           string
	CDC                  bool
}

var logFileRe = regexp.MustCompile(`^\.(.+)_([^_]*)\.(log|archive)\.(\d+)(?:_(\d+-\d+-\d+))?([.-]cdc)?$`)

// ParseLogFileName parses a log file name; false for anything else.
func ParseLogFileName(name string) (LogFileName, bool) {
	m := logFileRe.FindStringSubmatch(name)
	if m == nil {
		return LogFileName{}, false
	}
	v, err := strconv.Atoi(m[4])
	if err != nil {
		return LogFileName{}, false
	}
	return LogFileName{FileID: m[1], Instant: m[2], Ext: m[3], Version: v, WriteToken: m[5], CDC: m[6] != ""}, true
}

// CompareLogFiles orders log files of one slice: by instant, version, then write token.
func CompareLogFiles(a, b LogFileName) int {
	if c := CompareInstants(a.Instant, b.Instant); c != 0 {
		return c
	}
	if a.Version != b.Version {
		if a.Version < b.Version {
			return -1
		}
		return 1
	}
	return strings.Compare(a.WriteToken, b.WriteToken)
}

// isPartitionMetadata reports whether name marks its directory as a partition.
func isPartitionMetadata(name string) bool {
	return strings.HasPrefix(name, ".hoodie_partition_metadata")
}
