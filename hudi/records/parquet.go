package records

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/parquet-go/parquet-go"

	"github.com/hudiscope/hudiscope/hudi/internal/parquetsafe"
	"github.com/hudiscope/hudiscope/hudi/storage"
)

// readBase reads the projected columns of a Parquet base file (all of them when all is set),
// calling put per row. Flat projections are read column by column; nested or repeated fields
// row by row. A column the file lacks reads as null (schema evolution). With keep set, row
// groups whose _hoodie_commit_time bounds hold none of keep are skipped; it returns how many.
func readBase(ctx context.Context, store storage.Storage, path string, cols []string, all bool, ordering []string, keep map[string]bool, put func(Record)) (skipped int, err error) {
	f, err := store.Open(ctx, path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	rg := -1
	defer func() {
		// A damaged page must cost this file, never the run.
		if r := recover(); r != nil {
			err = fmt.Errorf("parquet %s row group %d: %v", path, rg, r)
		}
	}()
	// Pages are checked before parquet-go sizes buffers from their headers (docs/security.md).
	pf, err := parquetsafe.Open(f, f.Size(), "parquet "+path, parquetsafe.Limits{Pages: true, Columns: cols})
	if err != nil {
		return 0, err
	}
	sch := pf.Schema()
	if all || needsRows(sch, cols) {
		return readBaseRows(ctx, pf, path, cols, all, ordering, keep, put, &rg)
	}
	idx := make([]int, len(cols)) // leaf column index, -1 when absent
	types := make([]parquet.Type, len(cols))
	for i, c := range cols {
		idx[i] = -1
		leaf, ok := sch.Lookup(c)
		if !ok {
			continue
		}
		idx[i] = leaf.ColumnIndex
		types[i] = leaf.Node.Type()
	}
	if idx[0] < 0 || idx[1] < 0 {
		return 0, fmt.Errorf("parquet %s: no %s/%s column (not a Hudi base file?)", path, CommitTime, RecordKey)
	}
	fields := cols
	for i, g := range pf.RowGroups() {
		rg = i
		if err := ctx.Err(); err != nil {
			return skipped, err
		}
		chunks := g.ColumnChunks()
		if keep != nil && !mayHold(chunks[idx[0]], keep) {
			skipped++
			continue
		}
		n := int(g.NumRows())
		columns := make([][]parquet.Value, len(cols))
		for j, ci := range idx {
			if ci < 0 {
				continue
			}
			vals, err := readColumn(chunks[ci], n)
			if err != nil {
				return skipped, fmt.Errorf("parquet %s row group %d column %s: %w", path, i, cols[j], err)
			}
			columns[j] = vals
		}
		for r := 0; r < n; r++ {
			rec := Record{Values: make(map[string]any, len(cols)), Fields: fields}
			for j, c := range cols {
				var v any
				if columns[j] != nil {
					v = parquetLeaf(columns[j][r], types[j])
				}
				rec.Values[c] = v
			}
			finish(&rec, ordering)
			put(rec)
		}
	}
	return skipped, nil
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

// needsRows says whether a projected column is nested or repeated (read row by row).
func needsRows(sch *parquet.Schema, cols []string) bool {
	for _, c := range cols {
		for _, f := range sch.Fields() {
			if f.Name() == c && (!f.Leaf() || f.Repeated()) {
				return true
			}
		}
	}
	return false
}

// readBaseRows reads whole rows (every column, or the projected top-level fields, nested ones
// included): top-level leaves are converted from their stored values, nested fields are
// reconstructed by parquet-go and their logical types fixed afterwards.
func readBaseRows(ctx context.Context, pf *parquet.File, path string, cols []string, all bool, ordering []string, keep map[string]bool, put func(Record), rg *int) (skipped int, err error) {
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
	if _, ok := leafCol[CommitTime]; !ok {
		return 0, fmt.Errorf("parquet %s: no %s column (not a Hudi base file?)", path, CommitTime)
	}
	if _, ok := leafCol[RecordKey]; !ok {
		return 0, fmt.Errorf("parquet %s: no %s column (not a Hudi base file?)", path, RecordKey)
	}
	for _, c := range cols { // requested columns the file lacks read as null (schema evolution)
		if nodes[c] == nil && !slices.Contains(fields, c) {
			fields = append(fields, c)
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
			n, rerr := rows.ReadRows(buf)
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
				// The meta columns are always read, projected or not.
				for _, m := range []string{CommitTime, RecordKey, PartitionPath} {
					if _, ok := rec.Values[m]; !ok {
						if c, ok := leafCol[m]; ok {
							rec.Values[m] = parquetLeaf(byCol[c], top[indexOf(top, m)].Type())
						}
					}
				}
				finish(&rec, ordering)
				put(rec)
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

// readColumn reads n values of a flat column chunk (nulls included).
func readColumn(cc parquet.ColumnChunk, n int) ([]parquet.Value, error) {
	pages := cc.Pages()
	defer pages.Close()
	// n comes from the footer: a capacity hint only, capped so a lying row count cannot
	// allocate before any value is read.
	out := make([]parquet.Value, 0, min(n, 1<<16))
	buf := make([]parquet.Value, 256)
	for {
		p, err := pages.ReadPage()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		vr := p.Values()
		for {
			k, err := vr.ReadValues(buf)
			for _, v := range buf[:k] {
				out = append(out, v.Clone())
			}
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				parquet.Release(p)
				return nil, err
			}
			if k == 0 {
				break
			}
		}
		parquet.Release(p)
	}
	if len(out) != n {
		return nil, fmt.Errorf("%d values for %d rows", len(out), n)
	}
	return out, nil
}
