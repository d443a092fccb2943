package timeline

import (
	"bytes"
	"encoding/binary"
	"reflect"
	"testing"

	"github.com/hudiscope/hudiscope/hudi/internal/avro"
)

// ocfSeed builds a one-record Avro object container file in memory (fuzz seeds only).
func ocfSeed(schema string, datum []byte) []byte {
	var b bytes.Buffer
	long := func(n int64) { b.Write(binary.AppendVarint(nil, n)) }
	bs := func(p []byte) { long(int64(len(p))); b.Write(p) }
	sync := []byte("0123456789abcdef")
	b.WriteString("Obj\x01")
	long(2)
	bs([]byte("avro.schema"))
	bs([]byte(schema))
	bs([]byte("avro.codec"))
	bs([]byte("null"))
	long(0)
	b.Write(sync)
	long(1)
	bs(datum)
	b.Write(sync)
	return b.Bytes()
}

// avroStr is an Avro ["null","string"] union holding s.
func avroStr(s string) []byte {
	out := binary.AppendVarint(nil, 1)
	out = binary.AppendVarint(out, int64(len(s)))
	return append(out, s...)
}

const fuzzCommitSchema = `{"type":"record","name":"HoodieCommitMetadata","namespace":"org.apache.hudi.avro.model","fields":[` +
	`{"name":"partitionToWriteStats","type":["null",{"type":"map","values":{"type":"array","items":{"type":"record","name":"HoodieWriteStat","fields":[` +
	`{"name":"fileId","type":["null","string"],"default":null},{"name":"numWrites","type":["null","long"],"default":null}]}}}],"default":null},` +
	`{"name":"extraMetadata","type":["null",{"type":"map","values":["null","string"]}],"default":null},` +
	`{"name":"operationType","type":["null","string"],"default":null}]}`

// FuzzDecodeCommitMetadata covers the commit-metadata fast path: the Avro container reader, the
// generic-datum mapping onto CommitMetadata, and the JSON path for 0.x tables.
func FuzzDecodeCommitMetadata(f *testing.F) {
	f.Add([]byte(`{"partitionToWriteStats":{"dt=1":[{"fileId":"f1","numWrites":3,"totalWriteBytes":10}]},"operationType":"UPSERT","extraMetadata":{"schema":"{}"}}`))
	f.Add([]byte(`{"partitionToReplaceFileIds":{"p":["a","b"]},"compacted":true}`))
	// partitionToWriteStats {"p": [{fileId "f1", numWrites 7}]}, extraMetadata null, operationType "UPSERT".
	datum := binary.AppendVarint(nil, 1) // union: map
	datum = binary.AppendVarint(datum, 1)
	datum = binary.AppendVarint(datum, 1)
	datum = append(datum, 'p')
	datum = binary.AppendVarint(datum, 1) // one write stat
	datum = append(datum, avroStr("f1")...)
	datum = binary.AppendVarint(datum, 1)
	datum = binary.AppendVarint(datum, 7)
	datum = binary.AppendVarint(datum, 0) // end of array
	datum = binary.AppendVarint(datum, 0) // end of map
	datum = binary.AppendVarint(datum, 0) // extraMetadata null
	datum = append(datum, avroStr("UPSERT")...)
	f.Add(ocfSeed(fuzzCommitSchema, datum))
	f.Add(ocfSeed(`{"type":"record","name":"R","fields":[{"name":"operationType","type":"string"}]}`, avroStr("INSERT")[1:]))
	f.Add(ocfSeed(`"string"`, []byte{2, 'x'}))
	if s, err := avro.Schema(planSchema); err == nil { // the plan's every branch: unions both ways, skipped kinds
		d, _ := s.Encode(map[string]any{"extraMetadata": map[string]any{"k": "v"},
			"partitionToWriteStats": map[string]any{"p": []any{map[string]any{"fileId": "f", "path": nil, "prevCommit": "",
				"numWrites": int32(1), "ext": [3]byte{}, "e": "A", "numInserts": int64(1), "numUpdateWrites": nil, "d": []any{"B"},
				"totalWriteBytes": int64(9), "numDeletes": int32(0)}}},
			"nested": map[string]any{"w": map[string]any{"fileId": nil, "path": "x", "prevCommit": "", "numWrites": nil, "ext": [3]byte{},
				"e": "A", "numInserts": int64(0), "numUpdateWrites": int64(0), "d": float32(1), "totalWriteBytes": nil, "numDeletes": int32(0)}, "b": []byte{7}},
			"partitionToReplaceFileIds": map[string]any{"p": []any{"g", nil}}, "operationType": "CLUSTER"})
		f.Add(ocfSeed(planSchema, d))
	}
	f.Add(zstdBombOCF()[:4096]) // a truncated bomb: the zstd path, cut short
	// A 1 MiB decoding ceiling keeps a mutated bomb cheap per exec.
	old := avro.MaxBlockBytes
	avro.MaxBlockBytes = 1 << 20
	f.Cleanup(func() { avro.MaxBlockBytes = old })
	f.Fuzz(func(t *testing.T, b []byte) {
		cm, err := decodeCommitMetadata(b)
		if err == nil && cm == nil {
			t.Fatal("nil metadata without an error")
		}
		// The compact timeline's summary decode fails where the full one does, and sums alike.
		sum, serr := decodeCommitSummary(b)
		if (err == nil) != (serr == nil) {
			t.Fatalf("full decode err %v, summary err %v", err, serr)
		}
		if err == nil && !reflect.DeepEqual(sum, summaryOf(cm)) {
			t.Fatalf("summary %+v, full decode sums %+v", sum, summaryOf(cm))
		}
		if avro.IsOCF(b) {
			_, _ = avro.FirstRecord(b)
			typedMatchesGeneric(t, b)
			// Whatever the compiled summary plan decodes, the typed decode decodes alike.
			checkFastMatchesLite(t, "input", b)
		}
	})
}

// FuzzArchivedEntry covers the archived-timeline entry decoder (HoodieArchivedMetaEntry as
// JSON, from 0.x archive logs) and the merge of one instant's states.
func FuzzArchivedEntry(f *testing.F) {
	f.Add([]byte(`{"commitTime":"20240101000000000","actionType":"commit","actionState":"COMPLETED","hoodieCommitMetadata":{"operationType":"UPSERT"}}`),
		[]byte(`{"commitTime":"20240101000000000","actionType":"commit","actionState":"REQUESTED"}`))
	f.Add([]byte(`{"commitTime":"1","actionType":"compaction","actionState":"INFLIGHT","hoodieCompactionPlan":{"operations":[]}}`),
		[]byte(`{"commitTime":"1","actionType":"commit","hoodieCommitMetadata":null}`))
	f.Add([]byte(`{"commitTime":"2","actionType":"replacecommit","hoodieRequestedReplaceMetadata":{}}`), []byte(`[]`))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		x, errA := archivedEntry(a)
		y, errB := archivedEntry(b)
		if errA != nil || errB != nil {
			return
		}
		if x.RequestedTime == "" || x.Action == "" || !x.Archived {
			t.Fatalf("accepted entry %+v", x)
		}
		mergeArchived(x, y)
	})
}

// The hand-built Avro seed decodes, so the fuzzer starts from a valid container.
func TestFuzzSeedOCFDecodes(t *testing.T) {
	datum := []byte{2, 2, 2, 'p', 2}
	datum = append(datum, avroStr("f1")...)
	datum = append(datum, 2, 14, 0, 0, 0)
	datum = append(datum, avroStr("UPSERT")...)
	cm, err := decodeCommitMetadata(ocfSeed(fuzzCommitSchema, datum))
	if err != nil {
		t.Fatal(err)
	}
	if cm.OperationType != "UPSERT" || len(cm.PartitionToWriteStats["p"]) != 1 || cm.PartitionToWriteStats["p"][0].FileID != "f1" ||
		cm.PartitionToWriteStats["p"][0].NumWrites != 7 {
		t.Fatalf("%+v", cm)
	}
}

// typedMatchesGeneric fails t when the typed Avro decode of b succeeds but differs from the
// generic datum mapping: decodeCommitMetadata trusts the typed result without comparing.
func typedMatchesGeneric(t *testing.T, b []byte) {
	t.Helper()
	var typed CommitMetadata
	if avro.FirstRecordInto(b, &typed) != nil {
		return
	}
	normalizeTyped(&typed)
	generic, err := decodeCommitGeneric(b)
	if err != nil {
		t.Fatalf("typed decode succeeded, generic failed: %v", err)
	}
	if !reflect.DeepEqual(&typed, generic) {
		t.Fatalf("typed and generic decodes differ\ntyped   %+v\ngeneric %+v", typed, *generic)
	}
}
