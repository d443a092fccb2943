// Package synth builds synthetic Hudi tables in memory for tests and benchmarks: a table
// version 9 copy-on-write table with N partitions × M base files and a metadata table whose
// `files` partition lists exactly those files (one base HFile written by a minimal HFile v3
// writer). Nothing here touches real storage.
package synth

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"sort"
)

// Instants used by the synthetic table.
const (
	Requested = "20260101000000000"
	Completed = "20260101000005000"
)

// Table returns path → content of a table with parts partitions of files base files each.
// Base files hold filler bytes of varying sizes (never parsed).
func Table(name string, parts, files int) map[string][]byte {
	out := map[string][]byte{}
	out[".hoodie/hoodie.properties"] = tableProps(name, "COPY_ON_WRITE", "PARQUET",
		"hoodie.table.partition.fields=p\nhoodie.table.recordkey.fields=id\nhoodie.table.metadata.partitions=files\n")
	out[".hoodie/timeline/"+Requested+".commit.requested"] = nil
	out[".hoodie/timeline/"+Requested+".inflight"] = nil
	out[".hoodie/timeline/"+Requested+"_"+Completed+".commit"] = []byte(`{"partitionToWriteStats":{},"operationType":"INSERT","extraMetadata":{}}`)

	listing := map[string]map[string]int64{}
	for p := 0; p < parts; p++ {
		part := fmt.Sprintf("p=%03d", p)
		listing[part] = map[string]int64{}
		out[part+"/.hoodie_partition_metadata"] = []byte("#partition metadata\ncommitTime=" + Requested + "\npartitionDepth=1\n")
		for f := 0; f < files; f++ {
			fname := fmt.Sprintf("%08x-0000-4000-8000-%012x-0_0-1-%d_%s.parquet", p, f, f, Requested)
			size := 64 + (p*files+f)%97
			out[part+"/"+fname] = bytes.Repeat([]byte{'x'}, size)
			listing[part][fname] = int64(size)
		}
	}

	for rel, b := range metadataTable(name, listing) {
		out[rel] = b
	}
	return out
}

// metadataTable returns path → content of a metadata table (one completed deltacommit, one
// base HFile in `files`) listing partition → file name → size, and every partition.
func metadataTable(name string, listing map[string]map[string]int64) map[string][]byte {
	out := map[string][]byte{}
	allParts := make(map[string]int64, len(listing))
	for part := range listing {
		allParts[part] = 0
	}
	mdtName := name + "_metadata"
	out[".hoodie/metadata/.hoodie/hoodie.properties"] = tableProps(mdtName, "MERGE_ON_READ", "HFILE",
		"hoodie.table.recordkey.fields=key\nhoodie.table.keygenerator.type=HOODIE_TABLE_METADATA\nhoodie.populate.meta.fields=false\n")
	out[".hoodie/metadata/.hoodie/timeline/"+Requested+".deltacommit.requested"] = nil
	out[".hoodie/metadata/.hoodie/timeline/"+Requested+".deltacommit.inflight"] = nil
	out[".hoodie/metadata/.hoodie/timeline/"+Requested+"_"+Completed+".deltacommit"] = []byte(`{"partitionToWriteStats":{},"operationType":"UPSERT_PREPPED"}`)
	out[".hoodie/metadata/files/.hoodie_partition_metadata"] = []byte("#partition metadata\ncommitTime=" + Requested + "\npartitionDepth=1\n")
	cells := map[string][]byte{"__all_partitions__": FilesRecord(1, allParts)}
	for part, fs := range listing {
		cells[part] = FilesRecord(2, fs)
	}
	out[".hoodie/metadata/files/files-0000-0_0-0-0_"+Requested+".hfile"] = HFile(cells, map[string][]byte{"schema": []byte(MetadataSchema)})
	return out
}

// tableProps is a version 9 hoodie.properties with extra lines appended.
func tableProps(tableName, typ, format string, extra string) []byte {
	return []byte(fmt.Sprintf("#Properties saved on 2026-01-01T00:00:00.000Z\n#Thu Jan 01 00:00:00 UTC 2026\n"+
		"hoodie.table.name=%s\nhoodie.table.type=%s\nhoodie.table.version=9\nhoodie.timeline.layout.version=2\n"+
		"hoodie.table.base.file.format=%s\nhoodie.table.timeline.timezone=UTC\nhoodie.table.checksum=%d\n%s",
		tableName, typ, format, checksum(tableName), extra))
}

func checksum(name string) uint32 {
	// hoodie.table.checksum = CRC32 of "<db>.<table>" — computed by the caller's reader; the
	// synthetic tables have no database, so this matches hudi.TableChecksum("", name).
	return crc32IEEE([]byte("." + name))
}

// MetadataSchema is a reduced HoodieMetadataRecord writer schema (readers must use the
// writer schema stored in the HFile, so a reduced one is valid input).
const MetadataSchema = `{"type":"record","name":"HoodieMetadataRecord","namespace":"org.apache.hudi.avro.model","fields":[
{"name":"key","type":"string"},{"name":"type","type":"int"},
{"name":"filesystemMetadata","default":null,"type":["null",{"type":"map","values":{"type":"record","name":"HoodieMetadataFileInfo",
"fields":[{"name":"size","type":"long"},{"name":"isDeleted","type":"boolean"}]}}]}]}`

func zigzag(b []byte, v int64) []byte { return binary.AppendVarint(b, v) }

func avroString(b []byte, s string) []byte {
	b = zigzag(b, int64(len(s)))
	return append(b, s...)
}

// FilesRecord encodes a HoodieMetadataRecord under MetadataSchema (key written empty, as Hudi does).
func FilesRecord(typ int, files map[string]int64) []byte {
	b := avroString(nil, "")
	b = zigzag(b, int64(typ))
	b = zigzag(b, 1) // union branch: map
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(names) > 0 {
		b = zigzag(b, int64(len(names)))
		for _, n := range names {
			b = avroString(b, n)
			b = zigzag(b, files[n])
			b = append(b, 0) // isDeleted false
		}
	}
	return zigzag(b, 0)
}

// hfileBlockSize is where a data block is cut (Hudi's hoodie.hfile.block.size default).
const hfileBlockSize = 1 << 20

// HFile writes a minimal HFile v3 (codec NONE, no checksums, data blocks of about 1 MB, file
// info, no block index): enough for a full-scan reader.
func HFile(cells map[string][]byte, fileInfo map[string][]byte) []byte {
	keys := make([]string, 0, len(cells))
	for k := range cells {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var blocks [][]byte
	var data []byte
	for _, k := range keys {
		if len(data) >= hfileBlockSize {
			blocks, data = append(blocks, data), nil
		}
		key := binary.BigEndian.AppendUint16(nil, uint16(len(k)))
		key = append(key, k...)
		key = append(key, 0)                        // family length
		key = binary.BigEndian.AppendUint64(key, 0) // timestamp
		key = append(key, 4)                        // type Put
		data = binary.BigEndian.AppendUint32(data, uint32(len(key)))
		data = binary.BigEndian.AppendUint32(data, uint32(len(cells[k])))
		data = append(data, key...)
		data = append(data, cells[k]...)
		data = append(data, 0) // MVCC vlong 0
	}
	var out []byte
	block := func(magic string, payload []byte, prev int64) int64 {
		off := int64(len(out))
		out = append(out, magic...)
		out = binary.BigEndian.AppendUint32(out, uint32(len(payload)))
		out = binary.BigEndian.AppendUint32(out, uint32(len(payload)))
		out = binary.BigEndian.AppendUint64(out, uint64(prev))
		out = append(out, 0)                            // checksum type none
		out = binary.BigEndian.AppendUint32(out, 16384) // bytes per checksum
		out = binary.BigEndian.AppendUint32(out, uint32(33+len(payload)))
		out = append(out, payload...)
		return off
	}
	if len(data) > 0 {
		blocks = append(blocks, data)
	}
	first, last, prev := uint64(1<<64-1), uint64(0), int64(-1)
	for i, b := range blocks {
		prev = block("DATABLK*", b, prev)
		if i == 0 {
			first = uint64(prev)
		}
		last = uint64(prev)
	}
	fi := map[string][]byte{"KEY_VALUE_VERSION": {0, 0, 0, 1}}
	for k, v := range fileInfo {
		fi[k] = v
	}
	fkeys := make([]string, 0, len(fi))
	for k := range fi {
		fkeys = append(fkeys, k)
	}
	sort.Strings(fkeys)
	var proto []byte
	for _, k := range fkeys {
		var pair []byte
		pair = append(pair, 0x0a)
		pair = binary.AppendUvarint(pair, uint64(len(k)))
		pair = append(pair, k...)
		pair = append(pair, 0x12)
		pair = binary.AppendUvarint(pair, uint64(len(fi[k])))
		pair = append(pair, fi[k]...)
		proto = append(proto, 0x0a)
		proto = binary.AppendUvarint(proto, uint64(len(pair)))
		proto = append(proto, pair...)
	}
	payload := append([]byte("PBUF"), binary.AppendUvarint(nil, uint64(len(proto)))...)
	payload = append(payload, proto...)
	fiOff := uint64(block("FILEINF2", payload, prev))

	var tp []byte
	field := func(n int, v uint64) {
		tp = binary.AppendUvarint(tp, uint64(n<<3))
		tp = binary.AppendUvarint(tp, v)
	}
	field(1, fiOff)
	field(2, fiOff)
	field(7, uint64(len(keys)))
	field(9, first)
	field(10, last)
	field(12, 2) // NONE
	trailer := make([]byte, 4096)
	copy(trailer, "TRABLK\"$")
	n := binary.PutUvarint(trailer[8:], uint64(len(tp)))
	copy(trailer[8+n:], tp)
	binary.BigEndian.PutUint32(trailer[4092:], 3|3<<24)
	return append(out, trailer...)
}
