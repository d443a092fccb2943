package records

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go"

	"github.com/hudiscope/hudiscope/hudi/storage"
)

// readBase reads the projected columns of a Parquet base file, calling put per row. Only
// top-level primitive columns are projected; a column the file lacks reads as null (schema
// evolution). With keep set, row groups whose _hoodie_commit_time bounds hold none of keep
// are skipped; it returns how many.
func readBase(ctx context.Context, store storage.Storage, path string, cols, ordering []string, keep map[string]bool, put func(Record)) (skipped int, err error) {
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
	pf, err := parquet.OpenFile(f, f.Size(), parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return 0, fmt.Errorf("parquet %s: %w", path, err)
	}
	idx := make([]int, len(cols)) // leaf column index, -1 when absent
	for i, c := range cols {
		idx[i] = -1
		leaf, ok := pf.Schema().Lookup(c)
		if !ok {
			continue
		}
		if leaf.MaxRepetitionLevel > 0 || !leaf.Node.Leaf() {
			return 0, fmt.Errorf("parquet %s: column %s is nested or repeated; only top-level primitive columns are projected", path, c)
		}
		idx[i] = leaf.ColumnIndex
	}
	if idx[0] < 0 || idx[1] < 0 {
		return 0, fmt.Errorf("parquet %s: no %s/%s column (not a Hudi base file?)", path, CommitTime, RecordKey)
	}
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
			rec := Record{Values: make(map[string]any, len(cols))}
			for j, c := range cols {
				var v any
				if columns[j] != nil {
					v = goValue(columns[j][r])
				}
				rec.Values[c] = v
			}
			rec.CommitTime = str(rec.Values[CommitTime])
			rec.Key = str(rec.Values[RecordKey])
			rec.Partition = str(rec.Values[PartitionPath])
			for _, o := range ordering {
				rec.ordering = append(rec.ordering, rec.Values[o])
			}
			put(rec)
		}
	}
	return skipped, nil
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
	out := make([]parquet.Value, 0, n)
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

// goValue converts a Parquet value to a JSON-friendly Go value (byte arrays as strings).
func goValue(v parquet.Value) any {
	if v.IsNull() {
		return nil
	}
	switch v.Kind() {
	case parquet.Boolean:
		return v.Boolean()
	case parquet.Int32:
		return v.Int32()
	case parquet.Int64:
		return v.Int64()
	case parquet.Float:
		return v.Float()
	case parquet.Double:
		return v.Double()
	case parquet.ByteArray, parquet.FixedLenByteArray:
		return string(v.ByteArray())
	}
	return v.String()
}
