package filegroup

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// BaseFileName is a parsed base file name `<fileId>_<writeToken>_<instant>.<ext>`.
type BaseFileName struct {
	FileID, WriteToken, Instant, Ext string
}

// baseExts are the base file formats Hudi writes.
var baseExts = map[string]bool{"parquet": true, "orc": true, "hfile": true, "lance": true}

// ParseBaseFileName parses a base file name; false for anything else. Hand-written (it runs
// once per listed file); baseFileRe in the tests is the reference it is fuzzed against.
func ParseBaseFileName(name string) (BaseFileName, bool) {
	dot := strings.LastIndexByte(name, '.')
	if dot <= 0 || !baseExts[name[dot+1:]] {
		return BaseFileName{}, false
	}
	stem := name[:dot]
	last := strings.LastIndexByte(stem, '_')
	if last < 0 {
		return BaseFileName{}, false
	}
	mid := strings.LastIndexByte(stem[:last], '_')
	if mid <= 0 || strings.IndexByte(stem[:mid], '_') >= 0 || stem[0] == '.' {
		return BaseFileName{}, false
	}
	instant, token := stem[last+1:], stem[mid+1:last]
	if instant == "" || token == "" || !allDigits(instant) {
		return BaseFileName{}, false
	}
	return BaseFileName{FileID: stem[:mid], WriteToken: token, Instant: instant, Ext: name[dot+1:]}, true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
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
	if c := timeline.CompareInstants(a.Instant, b.Instant); c != 0 {
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
