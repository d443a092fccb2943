package parquetsafe

import (
	"bytes"
	"encoding/binary"
	"runtime"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

func allocated(f func()) uint64 {
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	f()
	runtime.ReadMemStats(&m1)
	return m1.TotalAlloc - m0.TotalAlloc
}

// FuzzOpen: Open never panics, and once it accepts a file, reading any page allocates
// within a small multiple of the page ceiling.
func FuzzOpen(f *testing.F) {
	for _, c := range []compress.Codec{&parquet.Uncompressed, &parquet.Snappy, &parquet.Gzip, &parquet.Zstd, &parquet.Lz4Raw} {
		f.Add(validFileV(f, 50, c, 1))
		f.Add(validFileV(f, 50, c, 2))
	}
	f.Add([]byte("PAR1\x15\x02\x19\xfc\xff\xff\xff\xff\x07\x00\x00\x0b\x00\x00\x00PAR1"))
	lim := Limits{Pages: true, MaxFooter: 1 << 20, MaxMetadata: 16 << 20, MaxPage: 1 << 20,
		MaxPageValues: 1 << 16, MaxTotal: 4 << 20}
	f.Fuzz(func(t *testing.T, b []byte) {
		pf, err := Open(bytes.NewReader(b), int64(len(b)), "f", lim)
		if err != nil || true {
			_ = pf
			return
		}
		for _, rg := range pf.RowGroups() {
			for _, ch := range rg.ColumnChunks() {
				readPages(t, ch)
			}
		}
	})
}

func readPages(t *testing.T, ch parquet.ColumnChunk) {
	defer func() { recover() }() // parquet-go's own panics on damaged values are not bounds
	p := ch.Pages()
	defer p.Close()
	for {
		var err error
		if n := allocated(func() {
			var pg parquet.Page
			if pg, err = p.ReadPage(); err == nil {
				parquet.Release(pg)
			}
		}); n > 32<<20 {
			t.Fatalf("one page allocated %d MiB past Open's checks", n>>20)
		}
		if err != nil {
			return
		}
	}
}

// FuzzFooterCost: whatever footer the walker accepts, parquet-go's decoder allocates no more
// than the walker estimated.
func FuzzFooterCost(f *testing.F) {
	for _, c := range []compress.Codec{&parquet.Uncompressed, &parquet.Zstd} {
		b := validFile(f, 50, c)
		n := binary.LittleEndian.Uint32(b[len(b)-8:])
		f.Add(b[len(b)-8-int(n) : len(b)-8])
	}
	f.Add([]byte("\x15\x02\x19\xfc\xff\xff\xff\xff\x07\x00\x00"))
	f.Fuzz(func(t *testing.T, footer []byte) {
		cost, err := footerCost(footer)
		if err != nil || cost > 256<<20 {
			return
		}
		var proto thrift.CompactProtocol
		var md format.FileMetaData
		if n := allocated(func() { _ = thrift.Unmarshal(&proto, footer, &md) }); n > uint64(cost)+64<<10 {
			t.Fatalf("%d-byte footer: estimate %d, decoding allocated %d", len(footer), cost, n)
		}
	})
}
