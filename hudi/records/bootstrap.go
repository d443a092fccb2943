package records

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/internal/parquetsafe"
	"github.com/hudiscope/hudiscope/hudi/storage"
)

// A METADATA_ONLY bootstrap writes skeleton base files (`…_00000000000001.parquet`) holding
// the meta columns only; row i's data columns are row i of the bootstrap source file the
// index names (Hudi's readers zip the two files by position: HoodieBootstrapRelation in 0.x,
// the file group reader's bootstrap merge in 1.x). Partition columns the source files leave
// to their folder names (Hive-style) are taken from the partition path, as Spark's
// partition discovery gives them.

// SkeletonInstant is the METADATA_ONLY bootstrap's instant: base files it wrote are skeletons.
const SkeletonInstant = "00000000000001"

// isSkeleton says whether b is a skeleton base file whose data columns live in a source file.
func isSkeleton(b *filegroup.BaseFile) bool {
	return b != nil && (b.Bootstrap != nil || b.Instant == SkeletonInstant)
}

// needsData says whether reading slice s asks for a column besides the meta columns, which a
// skeleton base file alone holds: a count reads the skeleton only (as Hudi's does), unless
// log records are merged by ordering values or keys are derived from data columns.
func needsData(s *filegroup.FileSlice, o Options) bool {
	if o.AllColumns || len(o.KeyFields) > 0 || len(s.Logs) > 0 && len(o.OrderingFields) > 0 {
		return true
	}
	for _, c := range o.Columns {
		if !isMetaColumn(c) {
			return true
		}
	}
	return false
}

// errNoSourceOpener: a caller that reads slices without a table (ReadSlice) cannot reach a
// skeleton's source file; the slice is refused rather than returned without data columns.
var errNoSourceOpener = errors.New("skeleton base file (METADATA_ONLY bootstrap) read without its bootstrap source")

// openBootstrap opens a skeleton base file and its source, to be read row by row.
func openBootstrap(ctx context.Context, store storage.Storage, b *filegroup.BaseFile, cols []string, o Options) (_ *baseFile, err error) {
	if o.OpenSource == nil {
		return nil, fmt.Errorf("base file %s: %w", b.Path, errNoSourceOpener)
	}
	src, err := o.OpenSource(ctx, b)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			src.Close()
		}
	}()
	srcName := b.Path
	if b.Bootstrap != nil {
		srcName = b.Bootstrap.Path
	}
	spf, err := parquetsafe.Open(src, src.Size(), "parquet "+srcName, parquetsafe.Limits{Pages: true})
	if err != nil {
		return nil, fmt.Errorf("bootstrap source of %s: %w", b.Name, err)
	}
	f, err := store.Open(ctx, b.Path)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			f.Close()
		}
	}()
	pf, err := parquetsafe.Open(f, f.Size(), "parquet "+b.Path, parquetsafe.Limits{Pages: true})
	if err != nil {
		return nil, err
	}
	return &baseFile{path: b.Path, file: f, pf: pf, cols: cols, all: o.AllColumns, rows: true, rg: -1,
		boot: &bootSource{file: src, pf: spf, path: srcName}}, nil
}

// bootSource is the source file of an open skeleton base file.
type bootSource struct {
	file storage.File
	pf   *parquet.File
	path string
}

// readBootstrapRows reads a skeleton base file row by row, each row joined with the source
// file's row at the same position, and calls put with the merged record.
func readBootstrapRows(ctx context.Context, b *baseFile, o Options, partitionFields []string, put func(Record) error, rg *int) error {
	// The source columns: every one, or the asked ones that are not meta columns.
	var srcCols []string
	for _, c := range b.cols {
		if !isMetaColumn(c) {
			srcCols = append(srcCols, c)
		}
	}
	srcRows := func(yield func(Record, error) bool) {
		var srg int
		_, err := readFileRows(ctx, b.boot.pf, b.boot.path, srcCols, b.all, nil, nil, false, func(r Record) error {
			if !yield(r, nil) {
				return errStopSource
			}
			return nil
		}, &srg)
		if err != nil && !errors.Is(err, errStopSource) {
			yield(Record{}, err)
		}
	}
	next, stop := iter.Pull2(iter.Seq2[Record, error](srcRows))
	defer stop()
	var fields []string
	n := 0
	_, err := readFileRows(ctx, b.pf, b.path, nil, true, nil, nil, true, func(sk Record) error {
		src, serr, ok := next()
		if serr != nil {
			return fmt.Errorf("bootstrap source %s: %w", b.boot.path, serr)
		}
		if !ok {
			return fmt.Errorf("bootstrap source %s has %d rows, fewer than its skeleton %s: rows are joined by position", b.boot.path, n, b.path)
		}
		n++
		if fields == nil {
			fields = append([]string(nil), sk.Fields...)
			for _, f := range src.Fields {
				if !slices.Contains(fields, f) {
					fields = append(fields, f)
				}
			}
			for _, f := range partitionFields {
				if !slices.Contains(fields, f) && (b.all || slices.Contains(b.cols, f)) {
					fields = append(fields, f)
				}
			}
		}
		rec := Record{Values: make(map[string]any, len(fields)), Fields: fields}
		for k, v := range sk.Values {
			rec.Values[k] = v
		}
		for k, v := range src.Values {
			if !isMetaColumn(k) {
				rec.Values[k] = v
			}
		}
		if len(partitionFields) > 0 {
			vals := partitionValues(str(sk.Values[PartitionPath]), partitionFields)
			for i, f := range partitionFields {
				if v, ok := rec.Values[f]; (!ok || v == nil) && slices.Contains(fields, f) && vals != nil {
					rec.Values[f] = vals[i]
				}
			}
		}
		finish(&rec, o.OrderingFields)
		return put(rec)
	}, rg)
	if err != nil {
		return err
	}
	if _, serr, ok := next(); serr != nil {
		return fmt.Errorf("bootstrap source %s: %w", b.boot.path, serr)
	} else if ok {
		return fmt.Errorf("bootstrap source %s has more rows than the %d of its skeleton %s: rows are joined by position", b.boot.path, n, b.path)
	}
	return nil
}

var errStopSource = errors.New("stop")

func isMetaColumn(c string) bool { return strings.HasPrefix(c, "_hoodie_") }

// partitionValues splits a partition path into one value per partition field (Hive-style
// `field=value` segments lose their prefix); nil when the segments do not match the fields.
func partitionValues(p string, fields []string) []any {
	segs := strings.Split(p, "/")
	if len(segs) != len(fields) {
		return nil
	}
	out := make([]any, len(segs))
	for i, s := range segs {
		out[i] = strings.TrimPrefix(s, fields[i]+"=")
	}
	return out
}
