package timeline

import (
	"encoding/binary"
	"testing"

	"github.com/hudiscope/hudiscope/hudi/internal/avro"
)

// Collections present but empty (a write stat's logFiles and cdcStats, extraMetadata, a
// partition's replaced ids) decode alike on the typed and generic paths; logFiles differed
// (typed empty, generic nil) until the generic mapping made present lists non-nil.
func TestDecodeCommitEmptyCollections(t *testing.T) {
	schema := `{"type":"record","name":"HoodieCommitMetadata","fields":[
{"name":"partitionToWriteStats","type":["null",{"type":"map","values":{"type":"array","items":{"type":"record","name":"W","fields":[
{"name":"fileId","type":["null","string"],"default":null},
{"name":"logFiles","type":["null",{"type":"array","items":"string"}],"default":null},
{"name":"cdcStats","type":["null",{"type":"map","values":"long"}],"default":null},
{"name":"minEventTime","type":["null","long"],"default":null}]}}}],"default":null},
{"name":"extraMetadata","type":["null",{"type":"map","values":["null","string"]}],"default":null},
{"name":"partitionToReplaceFileIds","type":["null",{"type":"map","values":{"type":"array","items":"string"}}],"default":null},
{"name":"operationType","type":["null","string"],"default":null}]}`
	v := func(b []byte, n int64) []byte { return binary.AppendVarint(b, n) }
	d := v(nil, 1) // map branch
	d = v(d, 1)    // one entry
	d = v(d, 1)
	d = append(d, 'p')
	d = v(d, 1) // one stat
	d = v(d, 1)
	d = v(d, 2)
	d = append(d, "f1"...)
	d = v(d, 1) // logFiles: array
	d = v(d, 0) // empty
	d = v(d, 1) // cdcStats: map
	d = v(d, 0) // empty
	d = v(d, 0) // minEventTime null
	d = v(d, 0) // end array
	d = v(d, 0) // end map
	d = v(d, 1) // extraMetadata map
	d = v(d, 0) // empty
	d = v(d, 1) // replace ids map
	d = v(d, 1)
	d = v(d, 1)
	d = append(d, 'p')
	d = v(d, 0) // empty array
	d = v(d, 0)
	d = v(d, 0) // operationType null
	b := ocfSeed(schema, d)
	var cm CommitMetadata
	if err := avro.FirstRecordInto(b, &cm); err != nil { // else the comparison below is skipped
		t.Fatalf("typed decode: %v", err)
	}
	if ws := cm.PartitionToWriteStats["p"]; len(ws) != 1 || ws[0].FileID != "f1" || ws[0].LogFiles == nil {
		t.Fatalf("typed decode: %+v", cm)
	}
	typedMatchesGeneric(t, b)
}
