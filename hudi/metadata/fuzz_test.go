package metadata

import (
	"bytes"
	"testing"

	"github.com/hudiscope/hudiscope/hudi/internal/synth"
	"github.com/hudiscope/hudiscope/hudi/logfile"
)

// FuzzMDTLog covers what the listing does with one metadata-table log file: block framing,
// then each HFILE_DATA block's HFile and `files` records, and each DELETE block's key list.
func FuzzMDTLog(f *testing.F) {
	hf := synth.HFile(map[string][]byte{"p=000": filesRecordBytes(2, "new.parquet", 4321)},
		map[string][]byte{"schema": []byte(synth.MetadataSchema)})
	f.Add(logBlock(logfile.BlockHFileData, requested2, hf))
	del := []byte{0, 0, 0, 3, 0, 0, 0, 7, 2, 2, 2, 'k', 0, 0, 0} // version 3, 7 bytes: one record, key "k"
	f.Add(logBlock(logfile.BlockDelete, requested2, del))
	oldBlock := logfile.MaxBlockBytes
	logfile.MaxBlockBytes = 1 << 16
	f.Cleanup(func() { logfile.MaxBlockBytes = oldBlock })
	f.Fuzz(func(t *testing.T, b []byte) {
		r := bytes.NewReader(b)
		records := map[string]*mdtRecord{}
		apply := func(k string, rec *mdtRecord) {
			if cur := records[k]; cur != nil {
				cur.merge(rec)
			} else {
				records[k] = rec
			}
		}
		logfile.Walk(r, r.Size(), func(blk logfile.Block) bool {
			_ = mergeLogBlock(blk, r, func(string) bool { return true }, records, apply)
			return true
		})
	})
}

// The seeds decode as intended: the HFile block's one record, and the delete block's key.
func TestFuzzMDTLogSeeds(t *testing.T) {
	hf := synth.HFile(map[string][]byte{"p=000": filesRecordBytes(2, "new.parquet", 4321)},
		map[string][]byte{"schema": []byte(synth.MetadataSchema)})
	var got []string
	if err := scanFilesHFile(bytes.NewReader(hf), int64(len(hf)), "", func(k string, r *mdtRecord) {
		got = append(got, k)
		if r.Files["new.parquet"].Size != 4321 {
			t.Errorf("record %q = %+v", k, r.Files)
		}
	}); err != nil || len(got) != 1 || got[0] != "p=000" {
		t.Errorf("hfile seed: %v %v", got, err)
	}
	keys, err := deleteBlockKeys([]byte{0, 0, 0, 3, 0, 0, 0, 7, 2, 2, 2, 'k', 0, 0, 0})
	if err != nil || len(keys) != 1 || keys[0] != "k" {
		t.Errorf("delete seed: %v %v", keys, err)
	}
}
