package filegroup

import (
	"context"
	"fmt"
	"sync"

	"github.com/hudiscope/hudiscope/hudi/internal/parquetsafe"
	"github.com/hudiscope/hudiscope/hudi/storage"
)

// RowCount is the outcome of one Parquet footer read: the file's row count, or why it could
// not be read.
type RowCount struct {
	Path string
	Rows int64
	Err  error
}

// footerLimits bound one footer read. Eight run at once, so their ceilings are well below the
// defaults: 8 × (4 MiB footer + 32 MiB decoded) stays far under the 512 MB the tool promises.
// Only the footer is read, so pages are not walked.
var footerLimits = parquetsafe.Limits{MaxFooter: 4 << 20, MaxMetadata: 32 << 20}

// parquetRowCount reads a Parquet file's row count from its footer (the sum of its row groups'
// num_rows, as parquet-mr's getRecordCount). Only the footer is parsed; page indexes and bloom
// filters are skipped. Read-only.
func parquetRowCount(ctx context.Context, store storage.Storage, p string) (n int64, err error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	f, err := store.Open(ctx, p)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	defer func() {
		// A damaged footer must cost one file's count, never the run.
		if r := recover(); r != nil {
			n, err = 0, fmt.Errorf("parquet footer %s: %v", p, r)
		}
	}()
	pf, err := parquetsafe.Open(f, f.Size(), "parquet footer "+p, footerLimits)
	if err != nil {
		return 0, err
	}
	return pf.NumRows(), nil
}

// ParquetRowCounts reads the footers of paths with at most workers reads in flight (8 when
// workers ≤ 0) and returns one result per path, in the order given.
func ParquetRowCounts(ctx context.Context, store storage.Storage, paths []string, workers int) []RowCount {
	if workers <= 0 {
		workers = 8
	}
	out := make([]RowCount, len(paths))
	sem := make(chan struct{}, workers)
	var wg sync.WaitGroup
	for i, p := range paths {
		out[i].Path = p
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			out[i].Rows, out[i].Err = parquetRowCount(ctx, store, p)
		}()
	}
	wg.Wait()
	return out
}
