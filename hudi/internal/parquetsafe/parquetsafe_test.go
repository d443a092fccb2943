package parquetsafe

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"

	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/internal/testutil"
)

type row struct {
	Key  string `parquet:"key"`
	Rows int64  `parquet:"rows"`
}

// validFile writes n rows with codec: one row group, small pages.
func validFile(t testing.TB, n int, codec compress.Codec) []byte {
	return validFileV(t, n, codec, 2)
}

func validFileV(t testing.TB, n int, codec compress.Codec, version int) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[row](&buf, parquet.Compression(codec), parquet.PageBufferSize(4<<10), parquet.DataPageVersion(version))
	rows := make([]row, n)
	for i := range rows {
		rows[i] = row{Key: strings.Repeat("k", i%50), Rows: int64(i)}
	}
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func footerOf(t testing.TB, b []byte) *format.FileMetaData {
	t.Helper()
	n := int(binary.LittleEndian.Uint32(b[len(b)-8:]))
	md := new(format.FileMetaData)
	var proto thrift.CompactProtocol
	if err := thrift.Unmarshal(&proto, b[len(b)-8-n:len(b)-8], md); err != nil {
		t.Fatal(err)
	}
	return md
}

func withFooter(t testing.TB, data []byte, md *format.FileMetaData) []byte {
	t.Helper()
	var proto thrift.CompactProtocol
	f, err := thrift.Marshal(&proto, md)
	if err != nil {
		t.Fatal(err)
	}
	out := append(bytes.Clone(data), f...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(f)))
	return append(out, "PAR1"...)
}

// rewriteFirstPage rewrites the first page of column col (row group 0): edit changes its
// header and returns its new body; the chunk then ends after that page.
func rewriteFirstPage(t testing.TB, b []byte, col int, edit func(*format.PageHeader, []byte) []byte) []byte {
	t.Helper()
	md := footerOf(t, b)
	m := &md.RowGroups[0].Columns[col].MetaData
	start := m.DataPageOffset
	if m.DictionaryPageOffset != 0 {
		start = m.DictionaryPageOffset
	}
	var proto thrift.CompactProtocol
	pr := proto.NewReaderFromBytes(b[start:])
	h := new(format.PageHeader)
	if err := thrift.NewDecoder(pr).Decode(h); err != nil {
		t.Fatal(err)
	}
	body := b[start+int64(pr.BytesRead()) : start+int64(pr.BytesRead())+int64(h.CompressedPageSize)]
	body = edit(h, bytes.Clone(body))
	if h.CRC != 0 { // a stale checksum would stop parquet-go before the page is decoded
		h.CRC = int32(crc32.ChecksumIEEE(body))
	}
	hb, err := thrift.Marshal(&proto, h)
	if err != nil {
		t.Fatal(err)
	}
	chunk := append(hb, body...)
	data := append(bytes.Clone(b[:start]), chunk...)
	m.DictionaryPageOffset, m.DataPageOffset = 0, start
	m.TotalCompressedSize = int64(len(chunk))
	// Other columns' chunks followed this one; keep them where the footer says by padding.
	md.RowGroups = md.RowGroups[:1]
	md.RowGroups[0].Columns = md.RowGroups[0].Columns[col : col+1]
	md.Schema = append(md.Schema[:1:1], md.Schema[1+col])
	md.Schema[0].NumChildren = thrift.Null[int32]{V: 1, Valid: true}
	return withFooter(t, data, md)
}

// open runs Open and returns its error and the bytes it allocated.
func open(b []byte, lim Limits) (alloc uint64, err error) {
	alloc = testutil.Allocated(func() { _, err = Open(bytes.NewReader(b), int64(len(b)), "t.parquet", lim) })
	return alloc, err
}

func TestValidFilesOpen(t *testing.T) {
	for _, c := range []compress.Codec{&parquet.Uncompressed, &parquet.Snappy, &parquet.Gzip, &parquet.Zstd, &parquet.Brotli, &parquet.Lz4Raw} {
		for _, v := range []int{1, 2} {
			b := validFileV(t, 5000, c, v)
			pf, err := Open(bytes.NewReader(b), int64(len(b)), "t.parquet", Limits{Pages: true})
			if err != nil {
				t.Fatalf("%s: %v", c, err)
			}
			if pf.NumRows() != 5000 {
				t.Fatalf("%s: %d rows, want 5000", c, pf.NumRows())
			}
			pages := 0
			for _, ch := range pf.RowGroups()[0].ColumnChunks() {
				p := ch.Pages()
				for {
					pg, err := p.ReadPage()
					if err == io.EOF {
						break
					}
					if err != nil {
						t.Fatal(err)
					}
					pages++
					parquet.Release(pg)
				}
				p.Close()
			}
			if pages < 4 {
				t.Fatalf("%s: %d pages; the test wants several", c, pages)
			}
		}
	}
}

func wantErr(t *testing.T, err error, alloc uint64, sentinel error, text string) {
	t.Helper()
	if !errors.Is(err, sentinel) || !strings.Contains(err.Error(), text) || !strings.Contains(err.Error(), "t.parquet") {
		t.Fatalf("err = %v, want %v containing %q", err, sentinel, text)
	}
	if alloc > 32<<20 {
		t.Fatalf("allocated %d MiB", alloc>>20)
	}
	t.Logf("%v (allocated %d KiB)", err, alloc>>10)
}

func TestFooterLength(t *testing.T) {
	b := validFile(t, 10, &parquet.Uncompressed)
	bad := bytes.Clone(b)
	binary.LittleEndian.PutUint32(bad[len(bad)-8:], 0xfffffff0) // 4 GiB footer in a small file
	alloc, err := open(bad, Limits{})
	wantErr(t, err, alloc, ErrCorrupt, "footer length 4294967280 does not fit in the")
	alloc, err = open(b, Limits{MaxFooter: 16})
	wantErr(t, err, alloc, ErrTooLarge, "is over the ceiling of 16")
	if !errors.Is(err, storage.ErrTooLarge) {
		t.Fatalf("%v does not wrap storage.ErrTooLarge", err)
	}
}

func TestFooterListBomb(t *testing.T) {
	// FileMetaData{version: 1, schema: list<struct> of 2^31-1 elements}, then nothing:
	// parquet-go would make a 2^31-element []SchemaElement before reading one.
	footer := []byte{0x15, 0x02, 0x19, 0xfc, 0xff, 0xff, 0xff, 0xff, 0x07, 0x00, 0x00}
	b := append([]byte("PAR1"), footer...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(footer)))
	b = append(b, "PAR1"...)
	alloc, err := open(b, Limits{})
	wantErr(t, err, alloc, ErrCorrupt, "list of 2147483647 elements in 2 bytes")
}

func TestFooterManyRowGroups(t *testing.T) {
	// 1M empty RowGroup structs take 1 MB of footer and would decode to far more.
	footer := []byte{0x15, 0x02, 0x19, 0x1c, 0x15, 0x00, 0x00, 0x16, 0x00, 0x19, 0xfc, 0x80, 0x80, 0x40}
	footer = append(footer, make([]byte, 1<<20)...)
	footer = append(footer, 0x00)
	b := append([]byte("PAR1"), footer...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(footer)))
	b = append(b, "PAR1"...)
	alloc, err := open(b, Limits{MaxMetadata: 16 << 20})
	wantErr(t, err, alloc, ErrTooLarge, "footer decodes to about")
}

func TestPageHeaderBombs(t *testing.T) {
	b := validFile(t, 100, &parquet.Uncompressed)
	cases := []struct {
		name     string
		edit     func(*format.PageHeader, []byte) []byte
		sentinel error
		text     string
	}{
		{"2GiB uncompressed", func(h *format.PageHeader, body []byte) []byte {
			h.UncompressedPageSize = 1<<31 - 1
			return body
		}, ErrTooLarge, "row group 0 column key page 0: uncompressed_page_size 2147483647 is over the ceiling of 268435456"},
		{"2GiB compressed", func(h *format.PageHeader, body []byte) []byte {
			h.CompressedPageSize = 1<<31 - 1
			return body
		}, ErrCorrupt, "compressed_page_size 2147483647 is past the chunk's end"},
		{"2^31 values", func(h *format.PageHeader, body []byte) []byte {
			h.DataPageHeader.V.NumValues = 1<<31 - 1
			h.DataPageHeaderV2.V.NumValues = 1<<31 - 1
			return body
		}, ErrTooLarge, "num_values 2147483647 is over the ceiling of 8388608"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			alloc, err := open(rewriteFirstPage(t, b, 0, c.edit), Limits{Pages: true})
			wantErr(t, err, alloc, c.sentinel, c.text)
		})
	}
}

func setCodec(t *testing.T, b []byte, codec format.CompressionCodec) []byte {
	md := footerOf(t, b)
	md.RowGroups[0].Columns[0].MetaData.Codec = codec
	n := int(binary.LittleEndian.Uint32(b[len(b)-8:]))
	return withFooter(t, b[:len(b)-8-n], md)
}

func TestInflationBombs(t *testing.T) {
	for _, v := range []int{1, 2} {
		t.Run(fmt.Sprintf("v%d", v), func(t *testing.T) { inflationBombs(t, validFileV(t, 100, &parquet.Uncompressed, v)) })
	}
}

func inflationBombs(t *testing.T, b []byte) {
	const big = 64 << 20 // inflated; the page declares a few hundred bytes
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(make([]byte, big))
	zw.Close()
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression))
	zs := enc.EncodeAll(make([]byte, big), nil)
	cases := []struct {
		name     string
		codec    format.CompressionCodec
		body     []byte
		sentinel error
		text     string
	}{
		{"gzip", format.Gzip, gz.Bytes(), ErrTooLarge, "gzip page inflates past its uncompressed_page_size"},
		{"zstd", format.Zstd, zs, ErrTooLarge, "zstd page inflates past its uncompressed_page_size"},
		{"snappy 4GiB prefix", format.Snappy, []byte{0xff, 0xff, 0xff, 0xff, 0x0f, 0}, ErrTooLarge, "snappy page declares 4294967295 bytes"},
		{"lz4 garbage", format.Lz4Raw, []byte{0xf0, 0xff, 0xff, 0xff, 0xff, 0xff}, ErrCorrupt, "lz4 page does not decode"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := rewriteFirstPage(t, b, 0, func(h *format.PageHeader, _ []byte) []byte {
				h.CompressedPageSize = int32(len(c.body))
				if v := &h.DataPageHeaderV2; v.Valid { // the bomb is all values, no levels
					v.V.IsCompressed = thrift.Null[bool]{V: true, Valid: true}
					v.V.RepetitionLevelsByteLength, v.V.DefinitionLevelsByteLength = 0, 0
				}
				return c.body
			})
			f = setCodec(t, f, c.codec)
			alloc, err := open(f, Limits{Pages: true})
			wantErr(t, err, alloc, c.sentinel, c.text)
			if c.codec == format.Gzip || c.codec == format.Zstd {
				// Control: parquet-go alone inflates the whole bomb.
				if got := unguardedAlloc(t, f); got < big {
					t.Fatalf("unguarded read allocated only %d MiB; the bomb is not one", got>>20)
				}
			}
		})
	}
}

// Columns limits the walk to the columns a reader reads: a bomb in another is not its concern.
func TestColumnsLimitWalk(t *testing.T) {
	b := validFile(t, 100, &parquet.Uncompressed)
	bad := rewriteFirstPage(t, b, 0, func(h *format.PageHeader, body []byte) []byte {
		h.UncompressedPageSize = 1<<31 - 1
		return body
	})
	if _, err := Open(bytes.NewReader(bad), int64(len(bad)), "t.parquet", Limits{Pages: true, Columns: []string{"rows"}}); err != nil {
		t.Fatalf("walk of column rows only: %v", err)
	}
	alloc, err := open(bad, Limits{Pages: true, Columns: []string{"key"}})
	wantErr(t, err, alloc, ErrTooLarge, "column key page 0: uncompressed_page_size 2147483647")
}

func TestMaxTotal(t *testing.T) {
	b := validFile(t, 5000, &parquet.Snappy)
	alloc, err := open(b, Limits{Pages: true, MaxTotal: 10 << 10})
	wantErr(t, err, alloc, ErrTooLarge, "uncompressed bytes in all, over the ceiling of 10240")
}

// unguardedAlloc reads every page of b with parquet-go alone and returns what it allocated.
func unguardedAlloc(t *testing.T, b []byte) uint64 {
	return testutil.Allocated(func() {
		pf, err := parquet.OpenFile(bytes.NewReader(b), int64(len(b)), parquet.SkipPageIndex(true))
		if err != nil {
			t.Fatal(err)
		}
		p := pf.RowGroups()[0].ColumnChunks()[0].Pages()
		for {
			pg, err := p.ReadPage()
			if err != nil {
				t.Logf("unguarded: %v", err)
				break
			}
			parquet.Release(pg)
		}
		p.Close()
	})
}

func TestMaxValues(t *testing.T) {
	b := validFile(t, 5000, &parquet.Snappy)
	if _, err := Open(bytes.NewReader(b), int64(len(b)), "t.parquet", Limits{Pages: true, MaxValues: 10000}); err != nil {
		t.Fatalf("5000 rows × 2 columns within 10000 values: %v", err)
	}
	alloc, err := open(b, Limits{Pages: true, MaxValues: 9999})
	wantErr(t, err, alloc, ErrTooLarge, "values in all, over the ceiling of 9999")
}

// zstdFCSLie re-frames data's zstd encoding with a frame header claiming fcs bytes of content:
// klauspost's DecodeAll (parquet-go's zstd path) allocates the claimed size up front.
func zstdFCSLie(t *testing.T, data []byte, fcs uint64, single bool) []byte {
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderCRC(false))
	f := enc.EncodeAll(data, nil)
	fhd := f[4]
	n := 5
	if fhd&0x20 == 0 {
		n++ // window descriptor
	}
	n += []int{0, 1, 2, 4}[fhd&3]
	switch fhd >> 6 {
	case 0:
		if fhd&0x20 != 0 {
			n++
		}
	case 1:
		n += 2
	case 2:
		n += 4
	case 3:
		n += 8
	}
	out := append([]byte{}, f[:4]...)
	if single {
		out = append(out, 0xe0) // 8-byte content size, single segment, no checksum, no dictionary
	} else {
		out = append(out, 0xc0, 0x00) // 8-byte content size, a 1 KiB window
	}
	out = binary.LittleEndian.AppendUint64(out, fcs)
	return append(out, f[n:]...)
}

func TestZstdContentSizeLie(t *testing.T) {
	for _, single := range []bool{true, false} {
		t.Run(fmt.Sprint("single segment ", single), func(t *testing.T) { zstdContentSizeLie(t, single) })
	}
}

func zstdContentSizeLie(t *testing.T, single bool) {
	b := validFile(t, 100, &parquet.Uncompressed)
	body := zstdFCSLie(t, []byte("hello hello hello"), 60<<30, single)
	f := rewriteFirstPage(t, b, 0, func(h *format.PageHeader, _ []byte) []byte {
		h.CompressedPageSize, h.UncompressedPageSize = int32(len(body)), 17
		if v := &h.DataPageHeaderV2; v.Valid {
			v.V.IsCompressed = thrift.Null[bool]{V: true, Valid: true}
			v.V.RepetitionLevelsByteLength, v.V.DefinitionLevelsByteLength = 0, 0
		}
		return body
	})
	alloc, err := open(setCodec(t, f, format.Zstd), Limits{Pages: true})
	wantErr(t, err, alloc, ErrCorrupt, "zstd page")
}

// countingReader counts ReadAt calls (on S3 each is a GET).
type countingReader struct {
	io.ReaderAt
	n int
}

func (c *countingReader) ReadAt(p []byte, off int64) (int, error) {
	c.n++
	return c.ReaderAt.ReadAt(p, off)
}

// TestOpenReadsFooterOnce: a footer-only Open costs three reads — the tail (length and
// magic) and the footer, checked here, then parquet-go's header magic — because parquet-go's
// own reads of the tail and footer are answered from the checked bytes (five reads before).
func TestOpenReadsFooterOnce(t *testing.T) {
	b := validFile(t, 5000, &parquet.Snappy)
	r := &countingReader{ReaderAt: bytes.NewReader(b)}
	pf, err := Open(r, int64(len(b)), "t.parquet", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if pf.NumRows() != 5000 || r.n != 3 {
		t.Fatalf("%d rows in %d reads, want 5000 in 3", pf.NumRows(), r.n)
	}
}
