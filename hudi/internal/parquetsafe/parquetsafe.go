// Package parquetsafe opens Parquet files from a possibly hostile table without letting their
// declared sizes decide what hudiscope allocates. parquet-go (v0.32) trusts them: it
// allocates the footer from its 4-byte length, a thrift list from its declared size, a page
// from compressed_page_size and uncompressed_page_size, a dictionary from num_values, and
// its gzip, zstd, brotli, snappy and lz4 decoders grow past the declared size without limit.
// Open checks those values against the file and ceilings first; parquet-go has no hook to cap
// its decoders, so with Limits.Pages the pages are inflated here once, streaming, to prove
// each stays within the size it declares.
package parquetsafe

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"reflect"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/hudiscope/hudiscope/hudi/storage"
)

// Limits are the ceilings Open applies. Zero fields take the defaults.
type Limits struct {
	// MaxFooter bounds the footer (FileMetaData) bytes. Default 16 MiB.
	MaxFooter int64
	// MaxMetadata bounds what opening the file allocates for its footer (estimated from the
	// thrift it holds). Default 128 MiB.
	MaxMetadata int64
	// MaxPage bounds one page's compressed and uncompressed size. Default 256 MiB.
	MaxPage int64
	// MaxPageValues bounds one page's num_values (parquet-go allocates levels, offsets and
	// dictionaries from it, and runs of nulls make it independent of the page size).
	// Default 8,388,608 (parquet-mr writes at most 20,000 rows a page).
	MaxPageValues int64
	// MaxTotal, when set, bounds the sum of the file's uncompressed page sizes: what
	// reading every row may cost.
	MaxTotal int64
	// MaxValues, when set, bounds the sum of the walked data pages' num_values: what a
	// reader that keeps every value may hold. Runs of nulls cost a few bytes on disk and
	// in the pages but a parquet.Value (or a row) each once read, so MaxTotal cannot bound it.
	MaxValues int64
	// Pages walks every column chunk's page headers and inflates compressed pages once,
	// streaming, before returning. Needed by readers that read pages; a footer-only reader
	// (row counts) leaves it off.
	Pages bool
	// Columns, when set, limits the page walk to these top-level columns: the ones the
	// caller reads (parquet-go reads no other chunk's pages).
	Columns []string
}

// Defaults.
const (
	DefaultMaxFooter     = 16 << 20
	DefaultMaxMetadata   = 128 << 20
	DefaultMaxPage       = 256 << 20
	DefaultMaxPageValues = 8 << 20
)

// ErrTooLarge is returned (wrapped, naming the file and the place) for a size over a ceiling;
// it wraps storage.ErrTooLarge.
var ErrTooLarge = fmt.Errorf("parquet %w", storage.ErrTooLarge)

// ErrCorrupt is returned (wrapped) for sizes and offsets the file cannot hold.
var ErrCorrupt = errors.New("corrupt parquet file")

func (l Limits) withDefaults() Limits {
	if l.MaxFooter <= 0 {
		l.MaxFooter = DefaultMaxFooter
	}
	if l.MaxMetadata <= 0 {
		l.MaxMetadata = DefaultMaxMetadata
	}
	if l.MaxPage <= 0 {
		l.MaxPage = DefaultMaxPage
	}
	if l.MaxPageValues <= 0 {
		l.MaxPageValues = DefaultMaxPageValues
	}
	return l
}

// Open checks the footer of the size-byte file r and, with lim.Pages, its pages, then opens it
// with parquet-go (page index and bloom filters skipped). name starts every error: the file's
// path, or "parquet" when the caller reports the path itself.
func Open(r io.ReaderAt, size int64, name string, lim Limits) (pf *parquet.File, err error) {
	lim = lim.withDefaults()
	end, err := readFooter(r, size, name, lim)
	if err != nil {
		return nil, err
	}
	footer := end[:len(end)-8]
	if cost, err := footerCost(footer); err != nil {
		return nil, fmt.Errorf("%s: footer: %w: %w", name, err, ErrCorrupt)
	} else if cost > lim.MaxMetadata {
		return nil, fmt.Errorf("%s: footer decodes to about %d bytes, over the ceiling of %d: %w", name, cost, lim.MaxMetadata, ErrTooLarge)
	}
	defer func() {
		// parquet-go panics on some inconsistent footers; one file must not end the run.
		if p := recover(); p != nil {
			pf, err = nil, fmt.Errorf("%s: %v: %w", name, p, ErrCorrupt)
		}
	}()
	// parquet-go reads the tail and the footer again: serve them from the bytes checked here
	// (on S3 each read is a GET).
	tail := tailReader{ReaderAt: r, off: size - int64(len(end)), tail: end}
	pf, err = parquet.OpenFile(tail, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if lim.Pages {
		if err := checkPages(r, pf, size-8-int64(len(footer)), name, lim); err != nil {
			return nil, err
		}
	}
	return pf, nil
}

// readFooter returns the file's last bytes, the footer and its length and magic, after
// checking the length against the file and the ceiling: parquet-go allocates the length it
// reads before knowing whether the file holds it.
func readFooter(r io.ReaderAt, size int64, name string, lim Limits) ([]byte, error) {
	if size < 12 {
		return nil, fmt.Errorf("%s: %d bytes is too small for a parquet file: %w", name, size, ErrCorrupt)
	}
	var tail [8]byte
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return nil, fmt.Errorf("%s: read footer: %w", name, err)
	}
	if string(tail[4:]) != "PAR1" {
		return nil, fmt.Errorf("%s: magic %q is not PAR1: %w", name, tail[4:], ErrCorrupt)
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if n > size-12 {
		return nil, fmt.Errorf("%s: footer length %d does not fit in the %d-byte file: %w", name, n, size, ErrCorrupt)
	}
	if n > lim.MaxFooter {
		return nil, fmt.Errorf("%s: footer length %d is over the ceiling of %d: %w", name, n, lim.MaxFooter, ErrTooLarge)
	}
	end := make([]byte, n, n+8)
	if _, err := r.ReadAt(end, size-8-n); err != nil {
		return nil, fmt.Errorf("%s: read footer: %w", name, err)
	}
	return append(end, tail[:]...), nil
}

// tailReader answers reads inside the file's last bytes (footer, length, magic) from tail,
// which holds them, and any other read from the file.
type tailReader struct {
	io.ReaderAt
	off  int64  // where tail starts in the file
	tail []byte // up to the end of the file
}

func (r tailReader) ReadAt(p []byte, off int64) (int, error) {
	if off >= r.off && off-r.off+int64(len(p)) <= int64(len(r.tail)) {
		return copy(p, r.tail[off-r.off:]), nil
	}
	return r.ReaderAt.ReadAt(p, off)
}

// footerCost estimates what parquet-go's OpenFile allocates for footer: the decoded structs
// twice over (its column and row-group views are about half again as much, measured in
// TestFooterCostCoversOpen) and the footer's two copies.
func footerCost(footer []byte) (int64, error) {
	_, cost, err := walkStruct(footer, reflect.TypeFor[format.FileMetaData]())
	return 2*cost + 2*int64(len(footer)), err
}
