package parquetsafe

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
	"github.com/pierrec/lz4/v4"
)

// maxPageHeader bounds one page header; real ones are tens of bytes plus statistics.
const maxPageHeader = 16 << 20

// place names a page in errors.
type place struct {
	name   string
	rg     int
	column string
	page   int
}

func (p place) String() string {
	return fmt.Sprintf("%s: row group %d column %s page %d", p.name, p.rg, p.column, p.page)
}

// checkPages walks every column chunk's pages as parquet-go will read them (from the
// dictionary page offset when set, else the data page offset, for total_compressed_size
// bytes) and checks each header's sizes and counts, and that compressed pages inflate to no
// more than they declare. dataEnd is where the footer starts.
func checkPages(r io.ReaderAt, pf *parquet.File, dataEnd int64, name string, lim Limits) error {
	md := pf.Metadata()
	win := &window{r: r}
	inf := &inflater{}
	var total, values int64
	for i, rg := range md.RowGroups {
		for j, cc := range rg.Columns {
			m := cc.MetaData
			if lim.Columns != nil && (len(m.PathInSchema) == 0 || !slices.Contains(lim.Columns, m.PathInSchema[0])) {
				continue
			}
			// parquet-go decodes every row group's chunk with the codec of the first row
			// group's (column.go), so that is the one whose inflation matters.
			codec := md.RowGroups[0].Columns[min(j, len(md.RowGroups[0].Columns)-1)].MetaData.Codec
			at := place{name: name, rg: i, column: strings.Join(m.PathInSchema, ".")}
			start := m.DataPageOffset
			if m.DictionaryPageOffset != 0 {
				start = m.DictionaryPageOffset
			}
			if start < 4 || m.TotalCompressedSize < 0 || m.TotalCompressedSize > dataEnd-start {
				return fmt.Errorf("%s: chunk at %d of %d bytes is outside the file's %d data bytes: %w",
					at, start, m.TotalCompressedSize, dataEnd, ErrCorrupt)
			}
			end := start + m.TotalCompressedSize
			dataAligned := m.DataPageOffset == start
			for off := start; off < end; at.page++ {
				if off == m.DataPageOffset {
					dataAligned = true
				}
				h, hn, err := pageHeader(win, off, end)
				if err != nil {
					return fmt.Errorf("%s: header at %d: %w", at, off, err)
				}
				body := off + int64(hn)
				if err := checkHeader(h, end-body, lim, at); err != nil {
					return err
				}
				total += int64(h.UncompressedPageSize)
				if lim.MaxTotal > 0 && total > lim.MaxTotal {
					return fmt.Errorf("%s: pages declare %d uncompressed bytes in all, over the ceiling of %d: %w", at, total, lim.MaxTotal, ErrTooLarge)
				}
				if !h.DictionaryPageHeader.Valid {
					values += int64(max(h.DataPageHeader.V.NumValues, h.DataPageHeaderV2.V.NumValues))
				}
				if lim.MaxValues > 0 && values > lim.MaxValues {
					return fmt.Errorf("%s: pages declare %d values in all, over the ceiling of %d: %w", at, values, lim.MaxValues, ErrTooLarge)
				}
				if err := inf.check(r, body, h, codec, lim); err != nil {
					return fmt.Errorf("%s: %w", at, err)
				}
				off = body + int64(h.CompressedPageSize)
			}
			if !dataAligned {
				// parquet-go seeks to data_page_offset for data pages; a header there that
				// the walk never saw would be decoded unchecked.
				return fmt.Errorf("%s: data page offset %d is not a page boundary: %w", at, m.DataPageOffset, ErrCorrupt)
			}
		}
	}
	return nil
}

// window reads a column chunk forward in 64 KiB blocks, so walking many small pages reads
// each byte about once instead of a fresh block per page.
type window struct {
	r     io.ReaderAt
	start int64 // file offset of buf[0]
	buf   []byte
}

// at returns the n bytes at off, reading a block from off when they are not buffered.
func (w *window) at(off int64, n int) ([]byte, error) {
	if off >= w.start && off+int64(n) <= w.start+int64(len(w.buf)) {
		return w.buf[off-w.start : off-w.start+int64(n)], nil
	}
	if size := max(n, 64<<10); cap(w.buf) >= size {
		w.buf = w.buf[:size]
	} else {
		w.buf = make([]byte, size)
	}
	k, err := w.r.ReadAt(w.buf, off)
	w.start, w.buf = off, w.buf[:k]
	if k < n {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return w.buf[:n], nil
}

// pageHeader reads and decodes the page header at off (before end): its bytes are walked
// first, so parquet-go's decoder is never handed a length the bytes do not back.
func pageHeader(win *window, off, end int64) (*format.PageHeader, int, error) {
	for w := int64(256); ; w *= 8 {
		w = min(w, end-off, maxPageHeader)
		buf, err := win.at(off, int(w))
		if err != nil {
			return nil, 0, err
		}
		n, _, err := walkStruct(buf, reflect.TypeFor[format.PageHeader]())
		if errors.Is(err, errShort) && w < min(end-off, maxPageHeader) {
			continue
		}
		if err != nil {
			return nil, 0, fmt.Errorf("%w: %w", err, ErrCorrupt)
		}
		h := new(format.PageHeader)
		var proto thrift.CompactProtocol
		if err := thrift.Unmarshal(&proto, buf[:n], h); err != nil {
			return nil, 0, fmt.Errorf("%w: %w", err, ErrCorrupt)
		}
		return h, n, nil
	}
}

func checkHeader(h *format.PageHeader, left int64, lim Limits, at place) error {
	if h.CompressedPageSize < 0 || h.UncompressedPageSize < 0 {
		return fmt.Errorf("%s: negative page size: %w", at, ErrCorrupt)
	}
	if int64(h.CompressedPageSize) > left {
		return fmt.Errorf("%s: compressed_page_size %d is past the chunk's end (%d bytes left): %w", at, h.CompressedPageSize, left, ErrCorrupt)
	}
	if int64(h.UncompressedPageSize) > lim.MaxPage {
		return fmt.Errorf("%s: uncompressed_page_size %d is over the ceiling of %d: %w", at, h.UncompressedPageSize, lim.MaxPage, ErrTooLarge)
	}
	if int64(h.CompressedPageSize) > lim.MaxPage {
		return fmt.Errorf("%s: compressed_page_size %d is over the ceiling of %d: %w", at, h.CompressedPageSize, lim.MaxPage, ErrTooLarge)
	}
	var n int32
	switch {
	case h.DataPageHeader.Valid:
		n = h.DataPageHeader.V.NumValues
	case h.DataPageHeaderV2.Valid:
		v := h.DataPageHeaderV2.V
		n = v.NumValues
		if v.NumNulls < 0 || v.NumNulls > v.NumValues {
			// parquet-go sizes buffers from num_values - num_nulls.
			return fmt.Errorf("%s: num_nulls %d is outside 0..num_values %d: %w", at, v.NumNulls, v.NumValues, ErrCorrupt)
		}
		if v.RepetitionLevelsByteLength < 0 || v.DefinitionLevelsByteLength < 0 ||
			int64(v.RepetitionLevelsByteLength)+int64(v.DefinitionLevelsByteLength) > int64(h.CompressedPageSize) {
			return fmt.Errorf("%s: level lengths %d+%d do not fit the %d-byte page: %w", at,
				v.RepetitionLevelsByteLength, v.DefinitionLevelsByteLength, h.CompressedPageSize, ErrCorrupt)
		}
	case h.DictionaryPageHeader.Valid:
		n = h.DictionaryPageHeader.V.NumValues
	}
	if int64(n) > lim.MaxPageValues {
		return fmt.Errorf("%s: num_values %d is over the ceiling of %d: %w", at, n, lim.MaxPageValues, ErrTooLarge)
	}
	return nil
}

// inflater holds the read buffer and gzip decoder one walk reuses from page to page: a
// 1M-row file has hundreds of pages, and a fresh 256 KiB buffer and gzip window for each
// were most of what opening it allocated.
type inflater struct {
	buf *bufio.Reader
	gz  *gzip.Reader
}

func (f *inflater) buffered(src io.Reader) *bufio.Reader {
	if f.buf == nil {
		f.buf = bufio.NewReaderSize(src, 256<<10)
	} else {
		f.buf.Reset(src)
	}
	return f.buf
}

// check proves a compressed page inflates to at most its uncompressed_page_size:
// parquet-go sizes its output from that value but keeps growing past it (gzip, brotli,
// zstd), allocates what snappy's own length prefix says, and doubles its lz4 buffer without
// end on any decoding error. zstd's DecodeAll also allocates each frame's declared content
// size up front; the streaming decoder used here refuses a frame whose content differs from
// that size, so a page that passes declares no more than it holds.
func (f *inflater) check(r io.ReaderAt, body int64, h *format.PageHeader, codec format.CompressionCodec, lim Limits) error {
	src := io.NewSectionReader(r, body, int64(h.CompressedPageSize))
	if v := h.DataPageHeaderV2; v.Valid {
		if v.V.IsCompressed.Valid && !v.V.IsCompressed.V {
			return nil
		}
		levels := int64(v.V.RepetitionLevelsByteLength) + int64(v.V.DefinitionLevelsByteLength)
		src = io.NewSectionReader(r, body+levels, int64(h.CompressedPageSize)-levels)
	}
	limit := int64(h.UncompressedPageSize)
	var z io.Reader
	switch codec {
	case format.Uncompressed:
		return nil
	case format.Snappy:
		var pre [binary.MaxVarintLen64]byte
		n, _ := io.ReadFull(src, pre[:])
		dlen, k := binary.Uvarint(pre[:n])
		if k <= 0 {
			return fmt.Errorf("snappy length prefix: %w", ErrCorrupt)
		}
		if dlen > uint64(limit) {
			return fmt.Errorf("snappy page declares %d bytes, more than its uncompressed_page_size %d: %w", dlen, limit, ErrTooLarge)
		}
		return nil
	case format.Gzip:
		// Decoders read in small pieces; on S3 each ReadAt is a request.
		var err error
		if f.gz == nil {
			f.gz, err = gzip.NewReader(f.buffered(src))
		} else {
			err = f.gz.Reset(f.buffered(src))
		}
		if err != nil {
			f.gz = nil // a failed Reset leaves the reader unusable
			return fmt.Errorf("gzip page: %w: %w", err, ErrCorrupt)
		}
		z = f.gz
	case format.Zstd:
		d, err := zstd.NewReader(f.buffered(src), zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
			zstd.WithDecoderMaxWindow(uint64(max(lim.MaxPage, zstd.MinWindowSize))))
		if err != nil {
			return fmt.Errorf("zstd page: %w: %w", err, ErrCorrupt)
		}
		defer d.Close()
		z = d
	case format.Brotli:
		z = brotli.NewReader(f.buffered(src))
	case format.Lz4Raw:
		// A raw lz4 block has no stream form: decode into exactly the declared size.
		in := make([]byte, src.Size())
		if _, err := io.ReadFull(src, in); err != nil {
			return fmt.Errorf("lz4 page: %w", err)
		}
		if _, err := lz4.UncompressBlock(in, make([]byte, limit)); err != nil {
			return fmt.Errorf("lz4 page does not decode within its uncompressed_page_size %d: %v: %w", limit, err, ErrCorrupt)
		}
		return nil
	default:
		return nil // parquet-go refuses the codec itself
	}
	n, err := io.Copy(io.Discard, io.LimitReader(z, limit+1))
	if err != nil {
		return fmt.Errorf("%s page: %w: %w", strings.ToLower(codec.String()), err, ErrCorrupt)
	}
	if n > limit {
		return fmt.Errorf("%s page inflates past its uncompressed_page_size %d: %w", strings.ToLower(codec.String()), limit, ErrTooLarge)
	}
	return nil
}
