package records

import (
	"context"
	"strings"
	"testing"
)

// A Parquet data block whose content is not a Parquet file is an error naming the block kind
// (readLogs adds the log file, byte offset and instant); nothing is returned from it.
func TestParquetBlockGarbage(t *testing.T) {
	for _, content := range [][]byte{nil, []byte("PAR1"), []byte("PAR1 not a parquet file at all PAR1")} {
		recs, err := parquetBlockRecords(context.Background(), content, projection(Options{}), false, nil)
		if err == nil || len(recs) != 0 || !strings.Contains(err.Error(), "parquet data block") {
			t.Errorf("%q: %d records, %v", content, len(recs), err)
		}
	}
}
