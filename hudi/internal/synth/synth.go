// Package synth builds synthetic Hudi tables in memory for tests and benchmarks: a table
// version 9 copy-on-write table with N partitions × M base files and a metadata table whose
// `files` partition lists exactly those files (one base HFile, laid out as Hudi writes HFile v3
// for the metadata table). Nothing here touches real storage.
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

// ManyBlockFileName is the f-th file of partition p in ManyBlockHFile; its size is p*1000+f.
func ManyBlockFileName(p, f int) string {
	return fmt.Sprintf("%08x-0000-0000-0000-%012x-0_0-1-1_20260101000000000.parquet", p, f)
}

// ManyBlockHFile is a `files` partition HFile of ManyBlockCells: about 4.5 MB, five 1 MB
// data blocks.
func ManyBlockHFile() []byte {
	return HFile(ManyBlockCells(), map[string][]byte{"schema": []byte(MetadataSchema)})
}

// ManyBlockCells are 300 partition records ("dt=0000".."dt=0299") of 200 files each
// (ManyBlockFileName), by row key.
func ManyBlockCells() map[string][]byte {
	cells := map[string][]byte{}
	for p := range 300 {
		files := map[string]int64{}
		for f := range 200 {
			files[ManyBlockFileName(p, f)] = int64(p*1000 + f)
		}
		cells[fmt.Sprintf("dt=%04d", p)] = FilesRecord(2, files)
	}
	return cells
}

// HFile layout constants, as Hudi 1.x's HFileWriterImpl (hudi-io) writes them for the metadata
// table: NULL checksums whose zero bytes are still reserved (HBase readers size blocks by them),
// Hudi's comparator name, and the hoodie.hfile.block.size default for cutting data blocks.
const (
	hfileBlockSize   = 1 << 20
	blockHeaderSize  = 33
	bytesPerChecksum = 16 << 10
	hfileComparator  = "org.apache.hudi.io.storage.HoodieHBaseKVComparator"
	codecNone        = 2
	latestTimestamp  = 1<<63 - 1 // HConstants.LATEST_TIMESTAMP, what Hudi puts in every cell key
	createTimeMillis = 1767225600000
)

// HFile writes an HFile v3 laid out as Hudi writes metadata-table base files (codec NONE): data
// blocks of about 1 MB, then the load-on-open section — root data index (one entry per data
// block: offset, on-disk size, first key), an empty meta index, file info — and the trailer.
// Readers that seek through the index (Hudi, hudi-rs) need all of it; a full scan needs only
// the data blocks and the file info. fileInfo entries are added to (or override) the ones
// the writer computes.
func HFile(cells map[string][]byte, fileInfo map[string][]byte) []byte {
	keys := make([]string, 0, len(cells))
	for k := range cells {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	w := hfileWriter{prevByType: map[string]int64{}}

	type indexEntry struct {
		off  int64
		size int
		key  string
	}
	var index []indexEntry
	var data []byte
	var firstKey string
	var budget, keyBytes, valueBytes int
	first, last := uint64(1<<64-1), uint64(0)
	flush := func() {
		if len(data) == 0 {
			return
		}
		off, size := w.block("DATABLK*", data)
		if len(index) == 0 {
			first = uint64(off)
		}
		last = uint64(off)
		index = append(index, indexEntry{off, size, firstKey})
		data, budget = data[:0], 0
	}
	for _, k := range keys {
		v := cells[k]
		// Hudi's cut rule and accounting: row key + value + 9 (two lengths and the MVCC
		// byte) per cell, cut before a cell that would take the block past the block size.
		if budget+len(k)+len(v)+9 > hfileBlockSize {
			flush()
		}
		if len(data) == 0 {
			firstKey = k
		}
		budget += len(k) + len(v) + 9
		keyBytes += len(k)
		valueBytes += len(v)
		// KeyValue: key length, value length, key (row length, row, family length 0, no
		// qualifier, timestamp, type Put), value, MVCC vlong 0.
		data = binary.BigEndian.AppendUint32(data, uint32(2+len(k)+1+8+1))
		data = binary.BigEndian.AppendUint32(data, uint32(len(v)))
		data = binary.BigEndian.AppendUint16(data, uint16(len(k)))
		data = append(data, k...)
		data = append(data, 0)
		data = binary.BigEndian.AppendUint64(data, latestTimestamp)
		data = append(data, 4)
		data = append(data, v...)
		data = append(data, 0)
	}
	flush()

	// Root data index: per entry offset, on-disk size (header and checksums included), then
	// the first key as varint length + (row length, row) — Hudi's index keys carry the row only.
	var root []byte
	for _, e := range index {
		root = binary.BigEndian.AppendUint64(root, uint64(e.off))
		root = binary.BigEndian.AppendUint32(root, uint32(e.size))
		root = binary.AppendUvarint(root, uint64(2+len(e.key)))
		root = binary.BigEndian.AppendUint16(root, uint16(len(e.key)))
		root = append(root, e.key...)
	}
	rootOff, _ := w.block("IDXROOT2", root)
	// The meta index is empty but must be present: readers find the file info right after it.
	w.block("IDXROOT2", nil)

	fi := map[string][]byte{
		"KEY_VALUE_VERSION":    binary.BigEndian.AppendUint32(nil, 1),
		"MAX_MEMSTORE_TS_KEY":  binary.BigEndian.AppendUint64(nil, 0),
		"hfile.AVG_KEY_LEN":    binary.BigEndian.AppendUint32(nil, uint32(avg(keyBytes, len(keys)))),
		"hfile.AVG_VALUE_LEN":  binary.BigEndian.AppendUint32(nil, uint32(avg(valueBytes, len(keys)))),
		"hfile.CREATE_TIME_TS": binary.BigEndian.AppendUint64(nil, createTimeMillis),
		"hfile.LASTKEY":        nil, // empty file: no last key, as Hudi writes it
	}
	if n := len(keys); n > 0 {
		fi["hfile.LASTKEY"] = append(binary.BigEndian.AppendUint16(nil, uint16(len(keys[n-1]))), keys[n-1]...)
	}
	for k, v := range fileInfo {
		fi[k] = v
	}
	fiOff, _ := w.block("FILEINF2", fileInfoPayload(fi))

	var tp []byte
	field := func(n int, v uint64) {
		tp = binary.AppendUvarint(tp, uint64(n<<3))
		tp = binary.AppendUvarint(tp, v)
	}
	field(1, uint64(fiOff))
	field(2, uint64(rootOff))
	// HBase's meanings (Hudi 1.x puts the data bytes in field 3 and leaves 4 unset; no reader
	// we know of uses either): the root index payload, and every block's header + payload.
	field(3, uint64(len(root)))
	field(4, w.uncompressed)
	field(5, uint64(len(index)))
	field(6, 0)
	field(7, uint64(len(keys)))
	field(8, 1)
	field(9, first)
	field(10, last)
	tp = binary.AppendUvarint(tp, 11<<3|2)
	tp = binary.AppendUvarint(tp, uint64(len(hfileComparator)))
	tp = append(tp, hfileComparator...)
	field(12, codecNone)
	trailer := make([]byte, 4096)
	copy(trailer, "TRABLK\"$")
	n := binary.PutUvarint(trailer[8:], uint64(len(tp)))
	copy(trailer[8+n:], tp)
	binary.BigEndian.PutUint32(trailer[4092:], 3|3<<24) // major 3, minor 3 (HBase's current)
	return append(w.out, trailer...)
}

func avg(total, n int) int {
	if n == 0 {
		return 0
	}
	return total / n
}

// hfileWriter appends blocks and keeps what the trailer and block headers need.
type hfileWriter struct {
	out          []byte
	prevByType   map[string]int64 // HBase's previous-block-of-the-same-type chain
	uncompressed uint64           // headers + uncompressed payloads of every block
}

// block appends one uncompressed block with its header and zeroed NULL-checksum bytes and
// returns its offset and on-disk size.
func (w *hfileWriter) block(magic string, payload []byte) (int64, int) {
	off := int64(len(w.out))
	withHeader := blockHeaderSize + len(payload)
	checksums := (withHeader + bytesPerChecksum - 1) / bytesPerChecksum * 4
	prev, ok := w.prevByType[magic]
	if !ok {
		prev = -1
	}
	w.prevByType[magic] = off
	w.out = append(w.out, magic...)
	w.out = binary.BigEndian.AppendUint32(w.out, uint32(len(payload)+checksums))
	w.out = binary.BigEndian.AppendUint32(w.out, uint32(len(payload)))
	w.out = binary.BigEndian.AppendUint64(w.out, uint64(prev))
	w.out = append(w.out, 0) // checksum type NULL
	w.out = binary.BigEndian.AppendUint32(w.out, bytesPerChecksum)
	w.out = binary.BigEndian.AppendUint32(w.out, uint32(withHeader))
	w.out = append(w.out, payload...)
	w.out = append(w.out, make([]byte, checksums)...)
	w.uncompressed += uint64(withHeader)
	return off, withHeader + checksums
}

// fileInfoPayload is the FILEINF2 payload: "PBUF", then a length-delimited
// InfoProto{repeated BytesBytesPair map_entry = 1}, keys sorted so output is reproducible.
func fileInfoPayload(fi map[string][]byte) []byte {
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
	return append(payload, proto...)
}
