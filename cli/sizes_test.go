package cli

import (
	"testing"

	"github.com/hudiscope/hudiscope/hudi/storage"
)

// --max-scan-bytes and --max-read-size read sizes through one parser: "500M" is 500 MiB for
// both (go-humanize read it as 500 MB for --max-scan-bytes alone).
func TestSizeFlagsOneParser(t *testing.T) {
	for in, want := range map[string]int64{"500M": 500 << 20, "2GiB": 2 << 30, "64KB": 64000, "1024": 1024} {
		got, err := ScaleFlags{MaxScanBytes: in}.maxBytes()
		var rs storage.ByteSize
		if rerr := rs.UnmarshalText([]byte(in)); err != nil || rerr != nil || got != want || int64(rs) != want {
			t.Errorf("%q: --max-scan-bytes %d (%v), --max-read-size %d (%v), want %d", in, got, err, rs, rerr, want)
		}
	}
	if _, err := (ScaleFlags{MaxScanBytes: "lots"}).maxBytes(); err == nil {
		t.Error(`--max-scan-bytes "lots" accepted`)
	}
}
