package synth_test

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/hudi/hfile"
	"github.com/hudiscope/hudiscope/hudi/internal/synth"
)

// decoded is an HFile taken apart block by block, independently of hudi/hfile's reader
// (which only scans data blocks): what an index-following reader such as Hudi or hudi-rs sees.
type decoded struct {
	trailer    hfile.Trailer
	blocks     []rawBlock
	rootIndex  []indexEntry // from the block at the load-on-open offset
	metaIndex  []indexEntry // from the block right after it
	fileInfo   map[string][]byte
	firstRows  []string // first row of each data block, in file order
	cells      int
	dataBytes  int    // uncompressed data block payloads
	totalBytes uint64 // headers + uncompressed payloads of every block
}

type rawBlock struct {
	off            int64
	magic          string
	onDisk         int // with header and checksums
	prev           int64
	payload        []byte // uncompressed
	checksumsBytes int
}

type indexEntry struct {
	off  int64
	size int
	key  []byte
}

func decode(t *testing.T, b []byte) *decoded {
	t.Helper()
	r, err := hfile.Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	d := &decoded{trailer: r.Trailer, fileInfo: r.FileInfo}
	end := int64(len(b)) - 4096
	for off := int64(0); off < end; {
		if off+33 > end {
			t.Fatalf("block header at %d runs into the trailer", off)
		}
		h := b[off : off+33]
		onDisk := int(binary.BigEndian.Uint32(h[8:]))
		unc := int(binary.BigEndian.Uint32(h[12:]))
		bpc := int(binary.BigEndian.Uint32(h[25:]))
		withHeader := int(binary.BigEndian.Uint32(h[29:]))
		if h[24] != 0 || bpc != 16384 {
			t.Fatalf("block at %d: checksum type %d, %d bytes per checksum", off, h[24], bpc)
		}
		if off+33+int64(onDisk) > end {
			t.Fatalf("block at %d (%d bytes on disk) runs into the trailer", off, onDisk)
		}
		blk := rawBlock{off: off, magic: string(h[:8]), onDisk: 33 + onDisk, prev: int64(binary.BigEndian.Uint64(h[16:])),
			checksumsBytes: 33 + onDisk - withHeader}
		// Hudi reserves one 4-byte (NULL) checksum per 16 KiB of header + data.
		if want := (withHeader + 16383) / 16384 * 4; blk.checksumsBytes != want {
			t.Errorf("block at %d: %d checksum bytes, want %d", off, blk.checksumsBytes, want)
		}
		raw := b[off+33 : off+int64(withHeader)]
		switch d.trailer.CompressionCodec {
		case hfile.CodecNone:
			blk.payload = raw
		case hfile.CodecGZ:
			zr, err := gzip.NewReader(bytes.NewReader(raw))
			if err != nil {
				t.Fatalf("block at %d: %v", off, err)
			}
			if blk.payload, err = io.ReadAll(zr); err != nil {
				t.Fatalf("block at %d: %v", off, err)
			}
		}
		if len(blk.payload) != unc {
			t.Fatalf("block at %d: %d payload bytes, header says %d", off, len(blk.payload), unc)
		}
		d.totalBytes += uint64(33 + unc)
		d.blocks = append(d.blocks, blk)
		off += int64(blk.onDisk)
	}
	for i, blk := range d.blocks {
		if blk.off != int64(d.trailer.LoadOnOpenOffset) {
			continue
		}
		if len(d.blocks) < i+3 || d.blocks[i].magic != "IDXROOT2" || d.blocks[i+1].magic != "IDXROOT2" || d.blocks[i+2].magic != "FILEINF2" {
			t.Fatalf("load-on-open section at %d is not root index, meta index, file info", blk.off)
		}
		if d.blocks[i+2].off != int64(d.trailer.FileInfoOffset) {
			t.Errorf("file info at %d, trailer says %d", d.blocks[i+2].off, d.trailer.FileInfoOffset)
		}
		if i+3 != len(d.blocks) {
			t.Errorf("%d blocks after the file info", len(d.blocks)-i-3)
		}
		d.rootIndex = rootEntries(t, blk.payload, int(d.trailer.DataIndexCount))
		d.metaIndex = rootEntries(t, d.blocks[i+1].payload, int(d.trailer.MetaIndexCount))
	}
	if d.rootIndex == nil && d.trailer.DataIndexCount > 0 {
		t.Fatalf("no block at the load-on-open offset %d", d.trailer.LoadOnOpenOffset)
	}
	for _, blk := range d.blocks {
		if blk.magic != "DATABLK*" {
			continue
		}
		first := ""
		n, err := r.Cells(blk.off, blk.payload, func(k, _ []byte) error {
			if first == "" {
				first = string(k)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		d.firstRows = append(d.firstRows, first)
		d.cells += int(n)
		d.dataBytes += len(blk.payload)
	}
	return d
}

// rootEntries decodes n root index entries (offset, on-disk size, varint key length, key)
// that must fill the payload exactly.
func rootEntries(t *testing.T, p []byte, n int) []indexEntry {
	t.Helper()
	out := []indexEntry{}
	for range n {
		if len(p) < 13 {
			t.Fatalf("index entry %d truncated", len(out))
		}
		e := indexEntry{off: int64(binary.BigEndian.Uint64(p)), size: int(binary.BigEndian.Uint32(p[8:]))}
		l, m := binary.Uvarint(p[12:])
		if m <= 0 || uint64(len(p)-12-m) < l {
			t.Fatalf("index entry %d: bad key length", len(out))
		}
		e.key = p[12+m : 12+m+int(l)]
		p = p[12+m+int(l):]
		out = append(out, e)
	}
	if len(p) != 0 {
		t.Errorf("%d bytes after %d index entries", len(p), n)
	}
	return out
}

// checkIndex: every data block has one root index entry, in order, giving its offset, its
// on-disk size and its first row (with the 2-byte row length, as Hudi writes index keys); the
// meta index points at meta blocks; the trailer's counts and data block offsets agree.
func checkIndex(t *testing.T, d *decoded) {
	t.Helper()
	var data, meta []rawBlock
	for _, blk := range d.blocks {
		switch blk.magic {
		case "DATABLK*":
			data = append(data, blk)
		case "METABLKc":
			meta = append(meta, blk)
		}
	}
	if len(d.rootIndex) != len(data) || int(d.trailer.DataIndexCount) != len(data) {
		t.Fatalf("%d index entries (trailer %d) for %d data blocks", len(d.rootIndex), d.trailer.DataIndexCount, len(data))
	}
	for i, e := range d.rootIndex {
		want := append(binary.BigEndian.AppendUint16(nil, uint16(len(d.firstRows[i]))), d.firstRows[i]...)
		if e.off != data[i].off || e.size != data[i].onDisk || !bytes.Equal(e.key, want) {
			t.Errorf("index entry %d = {%d %d %q}, block at %d of %d bytes starts with %q", i, e.off, e.size, e.key, data[i].off, data[i].onDisk, d.firstRows[i])
		}
	}
	if len(d.metaIndex) != len(meta) {
		t.Errorf("%d meta index entries for %d meta blocks", len(d.metaIndex), len(meta))
	}
	for i, e := range d.metaIndex {
		if e.off != meta[i].off || e.size != meta[i].onDisk {
			t.Errorf("meta index entry %d = {%d %d}, block at %d of %d bytes", i, e.off, e.size, meta[i].off, meta[i].onDisk)
		}
	}
	if len(data) > 0 && (d.trailer.FirstDataBlockOffset != uint64(data[0].off) || d.trailer.LastDataBlockOffset != uint64(data[len(data)-1].off)) {
		t.Errorf("trailer data blocks %d..%d, file has %d..%d", d.trailer.FirstDataBlockOffset, d.trailer.LastDataBlockOffset, data[0].off, data[len(data)-1].off)
	}
	if d.trailer.EntryCount != uint64(d.cells) || d.trailer.NumDataIndexLevels != 1 || d.trailer.ComparatorClassName != "org.apache.hudi.io.storage.HoodieHBaseKVComparator" {
		t.Errorf("trailer: %d entries (file has %d), %d index levels, comparator %q", d.trailer.EntryCount, d.cells, d.trailer.NumDataIndexLevels, d.trailer.ComparatorClassName)
	}
}

func TestHFileIndexAndTrailer(t *testing.T) {
	cells := synth.ManyBlockCells()
	d := decode(t, synth.ManyBlockHFile())
	checkIndex(t, d)
	// 300 records of 14,942..15,206 bytes: Hudi's budget (row + value + 9 per cell, cut before
	// a cell that would pass 1 MiB) fits 68 or 69 in a block.
	if len(d.rootIndex) != 5 || d.cells != 300 || len(d.metaIndex) != 0 {
		t.Errorf("%d data blocks, %d cells, %d meta index entries; want 5, 300, 0", len(d.rootIndex), d.cells, len(d.metaIndex))
	}
	var wantFirst []string
	budget := 0
	for p := range 300 {
		k := fmt.Sprintf("dt=%04d", p)
		if n := len(k) + len(cells[k]) + 9; p == 0 || budget+n > 1<<20 {
			wantFirst, budget = append(wantFirst, k), n
		} else {
			budget += n
		}
	}
	if fmt.Sprint(d.firstRows) != fmt.Sprint(wantFirst) || wantFirst[1] != "dt=0069" {
		t.Errorf("data blocks start with %q, want %q", d.firstRows, wantFirst)
	}
	for i, blk := range d.blocks {
		want := int64(-1) // HBase chains each block to the previous one of its type
		for j := i - 1; j >= 0; j-- {
			if d.blocks[j].magic == blk.magic {
				want = d.blocks[j].off
				break
			}
		}
		if blk.prev != want {
			t.Errorf("%s block at %d: previous %d, want %d", blk.magic, blk.off, blk.prev, want)
		}
	}
	if d.trailer.UncompressedIndexSize != uint64(len(d.blocks[len(d.blocks)-3].payload)) || d.trailer.TotalUncompressedBytes != d.totalBytes {
		t.Errorf("trailer: index size %d, total uncompressed %d; file has %d and %d", d.trailer.UncompressedIndexSize, d.trailer.TotalUncompressedBytes,
			len(d.blocks[len(d.blocks)-3].payload), d.totalBytes)
	}
	if d.trailer.CompressionCodec != hfile.CodecNone || d.trailer.MajorVersion != 3 {
		t.Errorf("codec %d, version %d", d.trailer.CompressionCodec, d.trailer.MajorVersion)
	}
	rowBytes, valueBytes := 0, 0
	for k, v := range cells {
		rowBytes += len(k)
		valueBytes += len(v)
	}
	for k, want := range map[string][]byte{
		"hfile.LASTKEY":       append([]byte{0, 7}, "dt=0299"...),
		"hfile.AVG_KEY_LEN":   binary.BigEndian.AppendUint32(nil, uint32(rowBytes/300)),
		"hfile.AVG_VALUE_LEN": binary.BigEndian.AppendUint32(nil, uint32(valueBytes/300)),
		"KEY_VALUE_VERSION":   {0, 0, 0, 1},
		"MAX_MEMSTORE_TS_KEY": make([]byte, 8),
		"schema":              []byte(synth.MetadataSchema),
	} {
		if !bytes.Equal(d.fileInfo[k], want) {
			t.Errorf("file info %s = %x, want %x", k, d.fileInfo[k], want)
		}
	}
	if rowBytes/300 != 7 {
		t.Errorf("average row key %d bytes, want 7", rowBytes/300)
	}
}

func TestHFileEmpty(t *testing.T) {
	d := decode(t, synth.HFile(nil, nil))
	checkIndex(t, d)
	if len(d.blocks) != 3 || d.trailer.EntryCount != 0 || len(d.fileInfo["hfile.LASTKEY"]) != 0 {
		t.Errorf("%d blocks, %d entries, last key %q", len(d.blocks), d.trailer.EntryCount, d.fileInfo["hfile.LASTKEY"])
	}
}

// The same decoder and checks pass on a base HFile Hudi 1.2.0 wrote (gzip blocks, a bloom
// filter meta block), so they describe Hudi's layout rather than our writer's.
func TestHFileDecoderOnHudiFixture(t *testing.T) {
	const zipPath = "../../../testdata/fixtures/incr-1.2.0/table.zip"
	if _, err := os.Stat(zipPath); err != nil {
		t.Skip("fixture absent")
	}
	zr, err := zip.OpenReader(zipPath)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var b []byte
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, "metadata/files/files-0000-0_0-5-4_00000000000000000.hfile") {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			b, err = io.ReadAll(rc)
			rc.Close()
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	if b == nil {
		t.Fatal("fixture HFile not found")
	}
	d := decode(t, b)
	checkIndex(t, d)
	if len(d.blocks) != 5 || len(d.rootIndex) != 1 || len(d.metaIndex) != 1 || string(d.metaIndex[0].key) != "bloomFilter" ||
		d.trailer.CompressionCodec != hfile.CodecGZ || d.firstRows[0] != "__all_partitions__" {
		t.Errorf("fixture: %d blocks, %d/%d index entries, meta %v, codec %d, first row %q", len(d.blocks), len(d.rootIndex), len(d.metaIndex),
			d.metaIndex, d.trailer.CompressionCodec, d.firstRows)
	}
}
