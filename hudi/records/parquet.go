package records

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"slices"

	"github.com/parquet-go/parquet-go"

	"github.com/hudiscope/hudiscope/hudi/internal/parquetsafe"
	"github.com/hudiscope/hudiscope/hudi/storage"
)

// baseFile is an open Parquet base file read batch by batch. Flat projections are read
// column by column (baseBatch); nested or repeated fields row by row (readBaseRows). A column
// the file lacks reads as null (schema evolution). With keep set, row groups whose
// _hoodie_commit_time bounds hold none of keep are skipped.
type baseFile struct {
	path    string
	file    io.Closer
	pf      *parquet.File
	rows    bool // nested or repeated fields: read row by row
	cols    []string
	all     bool
	keep    map[string]bool
	skipped int
	// boot is a skeleton base file's bootstrap source (read row by row beside it).
	boot *bootSource

	// Column by column: how to read the columns (batch: without values), the leaf column
	// index of each field (-1: absent), the current row group and its rows not yet read, a
	// page cursor per field, and the two batches one is read into while the other is merged.
	batch baseColumns
	idx   []int
	rg    int
	left  int
	cur   []colCursor
	bufs  [2]*baseBuf
	// batchN is the rows a batch holds (batchRowsFor the columns present).
	batchN int
}

// baseBuf is one batch of base rows and what its values point into: pages read to their end
// while filling it, and column chunks closed while filling it (their dictionaries). They are
// given back when the batch is filled again, so after the batch read before it: a page or
// chunk is held by the last batch that read from it.
type baseBuf struct {
	cols    baseColumns
	hold    []parquet.Page
	closing []parquet.Pages
}

func (u *baseBuf) release() {
	for _, p := range u.hold {
		parquet.Release(p)
	}
	for _, p := range u.closing {
		p.Close()
	}
	clear(u.hold)
	clear(u.closing)
	u.hold, u.closing = u.hold[:0], u.closing[:0]
}

// openBase opens a base file and plans its read. Pages are checked before parquet-go sizes
// buffers from their headers (docs/security.md): the projected columns', every column's
// when whole rows are read.
func openBase(ctx context.Context, store storage.Storage, path string, cols []string, all bool, o Options, keep map[string]bool) (_ *baseFile, err error) {
	f, err := store.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			f.Close()
		}
	}()
	walk := cols
	if all {
		walk = nil
	}
	pf, err := parquetsafe.Open(f, f.Size(), "parquet "+path, parquetsafe.Limits{Pages: true, Columns: walk})
	if err != nil {
		return nil, err
	}
	b := &baseFile{path: path, file: f, pf: pf, cols: cols, all: all, keep: keep, rg: -1}
	sch := pf.Schema()
	if needsRows(sch, cols, all) {
		if !all {
			// parquet-go's row reader reads every column: check every column's pages.
			if pf, err = parquetsafe.Open(f, f.Size(), "parquet "+path, parquetsafe.Limits{Pages: true}); err != nil {
				return nil, err
			}
			b.pf = pf
		}
		b.rows = true
		return b, nil
	}
	fields := cols
	if all {
		fields = nil
		for _, fl := range sch.Fields() {
			fields = append(fields, fl.Name())
		}
		for _, c := range cols { // asked columns the file lacks read as null (schema evolution)
			if !slices.Contains(fields, c) {
				fields = append(fields, c)
			}
		}
	}
	c := &b.batch
	c.fields, c.ordering, c.keyFields = fields, o.OrderingFields, o.KeyFields
	c.types = make([]parquet.Type, len(fields))
	b.idx = make([]int, len(fields))
	b.cur = make([]colCursor, len(fields))
	for i, name := range fields {
		b.idx[i] = -1
		leaf, ok := sch.Lookup(name)
		if !ok {
			continue
		}
		b.idx[i] = leaf.ColumnIndex
		c.types[i] = leaf.Node.Type()
	}
	c.plain = make([]bool, len(fields))
	for i, t := range c.types {
		c.plain[i] = t != nil && plainNumber(t)
	}
	c.pos = make(map[string]int, len(fields))
	for i, name := range fields {
		if _, dup := c.pos[name]; !dup {
			c.pos[name] = i
		}
	}
	c.commitTime, c.key, c.partition = slices.Index(fields, CommitTime), slices.Index(fields, RecordKey), slices.Index(fields, PartitionPath)
	for _, of := range o.OrderingFields {
		c.order = append(c.order, slices.Index(fields, of))
	}
	switch {
	case all && (c.commitTime < 0 || b.idx[c.commitTime] < 0):
		return nil, fmt.Errorf("parquet %s: no %s column (not a Hudi base file?)", path, CommitTime)
	case all && (c.key < 0 || b.idx[c.key] < 0):
		return nil, fmt.Errorf("parquet %s: no %s column (not a Hudi base file?)", path, RecordKey)
	case c.commitTime < 0 || b.idx[c.commitTime] < 0 || c.key < 0 || b.idx[c.key] < 0:
		return nil, fmt.Errorf("parquet %s: no %s/%s column (not a Hudi base file?)", path, CommitTime, RecordKey)
	}
	present := 0
	for _, ci := range b.idx {
		if ci >= 0 {
			present++
		}
	}
	b.batchN = batchRowsFor(present)
	for k := range b.bufs {
		u := &baseBuf{cols: *c}
		u.cols.vals = make([][]parquet.Value, len(fields))
		for i, ci := range b.idx {
			if ci >= 0 {
				u.cols.vals[i] = make([]parquet.Value, b.batchN)
			}
		}
		b.bufs[k] = u
	}
	return b, nil
}

// Close closes the file; no batch may be in use.
func (b *baseFile) Close() error {
	if b.bufs[0] != nil {
		b.closeCursors(b.bufs[0])
	}
	for _, u := range b.bufs {
		if u != nil {
			u.release()
		}
	}
	if b.boot != nil {
		b.boot.file.Close()
	}
	return b.file.Close()
}

func (b *baseFile) closeCursors(u *baseBuf) {
	for i := range b.cur {
		b.cur[i].close(u)
	}
}

// next reads the next batch of rows into u (at most batchN, never across row groups),
// first giving back what u held, and returns how many; 0 at the end of the file.
func (b *baseFile) next(ctx context.Context, u *baseBuf) (n int, err error) {
	defer func() {
		// A damaged page must cost this file, never the run.
		if r := recover(); r != nil {
			n, err = 0, fmt.Errorf("parquet %s row group %d: %v", b.path, b.rg, r)
		}
	}()
	u.release()
	groups := b.pf.RowGroups()
	for b.left == 0 {
		if b.rg >= 0 && b.rg < len(groups) {
			if err := b.checkEnd(int(groups[b.rg].NumRows()), u); err != nil {
				return 0, err
			}
		}
		b.closeCursors(u)
		b.rg++
		if b.rg >= len(groups) {
			return 0, nil
		}
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		g := groups[b.rg]
		chunks := g.ColumnChunks()
		if b.keep != nil && !mayHold(chunks[b.idx[b.batch.commitTime]], b.keep) {
			b.skipped++
			continue
		}
		// NumRows comes from the footer: it bounds the batches, never an allocation.
		b.left = int(g.NumRows())
		for i, ci := range b.idx {
			if ci >= 0 {
				b.cur[i] = colCursor{pages: chunks[ci].Pages()}
			}
		}
	}
	n = min(b.left, b.batchN)
	for i, ci := range b.idx {
		if ci < 0 {
			continue
		}
		k, err := b.cur[i].read(u.cols.vals[i][:n], u)
		if err != nil {
			return 0, fmt.Errorf("parquet %s row group %d column %s: %w", b.path, b.rg, b.batch.fields[i], err)
		}
		if k != n {
			return 0, fmt.Errorf("parquet %s row group %d column %s: %d values for %d rows", b.path, b.rg, b.batch.fields[i], int(b.pf.RowGroups()[b.rg].NumRows())-b.left+k, b.pf.RowGroups()[b.rg].NumRows())
		}
	}
	b.left -= n
	return n, nil
}

// filledBuf is a batch of base rows read: n rows in its columns.
type filledBuf struct {
	*baseBuf
	n int
}

// batches reads the file's batches in a goroutine one batch ahead of the loop (decoding pages
// while the loop merges and hands over the previous batch), and yields them in order; a batch
// is valid until the loop body returns. A read error ends the loop and is set in *errp.
func (b *baseFile) batches(ctx context.Context, errp *error) iter.Seq[filledBuf] {
	return func(yield func(filledBuf) bool) {
		type result struct {
			u   *baseBuf
			n   int
			err error
		}
		free := make(chan *baseBuf, len(b.bufs))
		for _, u := range b.bufs {
			free <- u
		}
		full := make(chan result, len(b.bufs))
		stop := make(chan struct{})
		go func() {
			defer close(full)
			for {
				var u *baseBuf
				select {
				case u = <-free:
				case <-stop:
					return
				}
				n, err := b.next(ctx, u)
				select {
				case full <- result{u, n, err}:
				case <-stop:
					return
				}
				if n == 0 || err != nil {
					return
				}
			}
		}()
		defer func() {
			close(stop)
			for range full { // wait for the reader: the file is closed after
			}
		}()
		for r := range full {
			if r.err != nil {
				*errp = r.err
				return
			}
			if r.n == 0 || !yield(filledBuf{r.u, r.n}) {
				return
			}
			free <- r.u
		}
	}
}

// checkEnd refuses a row group whose columns hold more values than its rows.
func (b *baseFile) checkEnd(rows int, u *baseBuf) error {
	var one [1]parquet.Value
	for i, ci := range b.idx {
		if ci < 0 || b.cur[i].pages == nil {
			continue
		}
		if k, err := b.cur[i].read(one[:], u); err != nil || k > 0 {
			if err == nil {
				err = fmt.Errorf("more values than the row group's %d rows", rows)
			}
			return fmt.Errorf("parquet %s row group %d column %s: %w", b.path, b.rg, b.batch.fields[i], err)
		}
	}
	return nil
}

// colCursor reads a flat column chunk's values page by page, across batches.
type colCursor struct {
	pages parquet.Pages
	page  parquet.Page
	vr    parquet.ValueReader
}

// read fills dst with the column's next values (nulls included) and returns how many; fewer
// than len(dst) only at the end of the chunk. Byte-array values point into their page (or its
// dictionary): a page read to its end is held by u, to be released (its buffers going back
// to parquet-go's pools) only once the batches its values are in have been handed over.
func (c *colCursor) read(dst []parquet.Value, u *baseBuf) (int, error) {
	n := 0
	for n < len(dst) {
		if c.vr == nil {
			p, err := c.pages.ReadPage()
			if errors.Is(err, io.EOF) {
				return n, nil
			}
			if err != nil {
				return n, err
			}
			c.page, c.vr = p, p.Values()
		}
		k, err := c.vr.ReadValues(dst[n:])
		n += k
		if err != nil && !errors.Is(err, io.EOF) {
			return n, err
		}
		if err != nil || k == 0 {
			u.hold = append(u.hold, c.page)
			c.page, c.vr = nil, nil
		}
	}
	return n, nil
}

// close hands the chunk's pages and current page to u, to be closed and released with it
// (values of batches not yet handed over may point into them).
func (c *colCursor) close(u *baseBuf) {
	if c.page != nil {
		u.hold = append(u.hold, c.page)
	}
	if c.pages != nil {
		u.closing = append(u.closing, c.pages)
	}
	*c = colCursor{}
}

// finish fills a record's key, partition, commit time and ordering values from its columns.
func finish(rec *Record, ordering []string) {
	rec.CommitTime = str(rec.Values[CommitTime])
	rec.Key = str(rec.Values[RecordKey])
	rec.Partition = str(rec.Values[PartitionPath])
	for _, o := range ordering {
		rec.ordering = append(rec.ordering, rec.Values[o])
	}
}

// needsRows says whether a projected column (any, with all) is nested or repeated (read row
// by row).
func needsRows(sch *parquet.Schema, cols []string, all bool) bool {
	for _, f := range sch.Fields() {
		if (all || slices.Contains(cols, f.Name())) && (!f.Leaf() || f.Repeated()) {
			return true
		}
	}
	return false
}

// readBaseRows reads whole rows (every column, or the projected top-level fields, nested ones
// included): top-level leaves are converted from their stored values, nested fields are
// reconstructed by parquet-go and their logical types fixed afterwards.
func readBaseRows(ctx context.Context, pf *parquet.File, path string, cols []string, all bool, ordering []string, keep map[string]bool, put func(Record) error, rg *int) (skipped int, err error) {
	return readFileRows(ctx, pf, path, cols, all, ordering, keep, true, put, rg)
}

// readFileRows is readBaseRows; without hudi (a bootstrap source file) the meta columns
// are not required.
func readFileRows(ctx context.Context, pf *parquet.File, path string, cols []string, all bool, ordering []string, keep map[string]bool, hudi bool, put func(Record) error, rg *int) (skipped int, err error) {
	sch := pf.Schema()
	top := sch.Fields()
	want := map[string]bool{}
	for _, c := range cols {
		want[c] = true
	}
	var fields []string
	leafCol := map[string]int{}  // top-level leaf → column index
	firstCol := map[string]int{} // top-level field → its first leaf column
	col := 0
	nodes := map[string]parquet.Node{}
	for _, f := range top {
		if all || want[f.Name()] {
			fields = append(fields, f.Name())
			nodes[f.Name()] = f
		}
		if f.Leaf() {
			leafCol[f.Name()] = col
		}
		firstCol[f.Name()] = col
		col += countLeaves(f)
	}
	if _, ok := leafCol[CommitTime]; !ok && hudi {
		return 0, fmt.Errorf("parquet %s: no %s column (not a Hudi base file?)", path, CommitTime)
	}
	if _, ok := leafCol[RecordKey]; !ok && hudi {
		return 0, fmt.Errorf("parquet %s: no %s column (not a Hudi base file?)", path, RecordKey)
	}
	for _, c := range cols { // requested columns the file lacks read as null (schema evolution)
		if nodes[c] == nil && !slices.Contains(fields, c) {
			fields = append(fields, c)
		}
	}
	// The meta columns are always read, projected or not: their column and type, found once
	// rather than per row.
	type metaCol struct {
		name string
		col  int
		typ  parquet.Type
	}
	var metas []metaCol
	for _, m := range []string{CommitTime, RecordKey, PartitionPath} {
		if c, ok := leafCol[m]; ok && nodes[m] == nil {
			metas = append(metas, metaCol{m, c, top[indexOf(top, m)].Type()})
		}
	}
	topLeaf := make([]bool, col) // column index → a top-level leaf
	for _, c := range leafCol {
		topLeaf[c] = true
	}
	byCol := make([]parquet.Value, col)
	perCol := make([][]parquet.Value, col) // every value of each column in the row (nested fields)
	buf := make([]parquet.Row, 64)
	for i, g := range pf.RowGroups() {
		*rg = i
		if err := ctx.Err(); err != nil {
			return skipped, err
		}
		if keep != nil && !mayHold(g.ColumnChunks()[leafCol[CommitTime]], keep) {
			skipped++
			continue
		}
		rows := g.Rows()
		for {
			n, rerr := readRows(rows, buf)
			for _, row := range buf[:n] {
				clear(byCol)
				for c := range perCol {
					perCol[c] = perCol[c][:0]
				}
				for _, v := range row { // one pass: a top-level leaf has one value per row
					c := v.Column()
					if c < 0 || c >= len(byCol) {
						continue
					}
					if topLeaf[c] {
						byCol[c] = v
					} else {
						perCol[c] = append(perCol[c], v)
					}
				}
				rec := Record{Values: make(map[string]any, len(fields)), Fields: fields}
				for _, name := range fields {
					nd := nodes[name]
					switch {
					case nd == nil:
						rec.Values[name] = nil
					case nd.Leaf() && !nd.Repeated():
						rec.Values[name] = parquetLeaf(byCol[leafCol[name]], nd.Type())
					default:
						fc := firstCol[name]
						v, err := assemble(nd, 0, 0, perCol[fc:fc+countLeaves(nd)])
						if err != nil {
							rows.Close()
							return skipped, fmt.Errorf("parquet %s row group %d column %s: %w", path, i, name, err)
						}
						rec.Values[name] = v
					}
				}
				for _, m := range metas {
					if _, ok := rec.Values[m.name]; !ok {
						rec.Values[m.name] = parquetLeaf(byCol[m.col], m.typ)
					}
				}
				finish(&rec, ordering)
				if err := put(rec); err != nil {
					rows.Close()
					return skipped, err
				}
			}
			if errors.Is(rerr, io.EOF) {
				break
			}
			if rerr != nil {
				rows.Close()
				return skipped, fmt.Errorf("parquet %s row group %d: %w", path, i, rerr)
			}
			if n == 0 {
				break
			}
		}
		rows.Close()
	}
	return skipped, nil
}

func countLeaves(n parquet.Node) int {
	if n.Leaf() {
		return 1
	}
	c := 0
	for _, f := range n.Fields() {
		c += countLeaves(f)
	}
	return c
}

func indexOf(fs []parquet.Field, name string) int {
	for i, f := range fs {
		if f.Name() == name {
			return i
		}
	}
	return -1
}

// mayHold says whether a commit-time column chunk may hold one of keep (true without bounds).
func mayHold(cc parquet.ColumnChunk, keep map[string]bool) bool {
	fc, ok := cc.(*parquet.FileColumnChunk)
	if !ok {
		return true
	}
	lo, hi, ok := fc.Bounds()
	if !ok || lo.IsNull() || hi.IsNull() {
		return true
	}
	min, max := string(lo.ByteArray()), string(hi.ByteArray())
	for t := range keep {
		if t >= min && t <= max {
			return true
		}
	}
	return false
}

// readRows is rows.ReadRows with parquet-go's panics on damaged pages turned into errors: a
// damaged page must cost its file, never the run.
func readRows(rows parquet.Rows, buf []parquet.Row) (n int, err error) {
	defer func() {
		if r := recover(); r != nil {
			n, err = 0, fmt.Errorf("%v", r)
		}
	}()
	return rows.ReadRows(buf)
}
