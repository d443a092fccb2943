package records

import (
	"context"
	"fmt"
	"hash/maphash"
	"path"
	"strings"

	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/problem"
	"github.com/hudiscope/hudiscope/hudi/storage"
)

// Reading a slice streams its base file: the log records are read and indexed by key first
// (they are what a slice holds in memory, as Hudi's merged log record scanner does), then the
// base file is read a batch at a time and each base row whose key a log record carries is
// merged with that key's log records; the log records no base row had follow. Memory is the
// slice's log records plus one batch of base rows, whatever the base file's size.
//
// Rows come out in the order the whole-slice reader returned them: base rows in file order
// (a merged row in its base row's place), then log-only keys in the order they first appear.
// Like Hudi's file group reader (and unlike a whole-slice map), a key the base file holds
// twice is merged once, at its first row: the later duplicate row is returned as written.

// consumerError wraps an error from the caller's function, told apart from a read failure.
type consumerError struct{ err error }

func (e consumerError) Error() string { return e.err.Error() }
func (e consumerError) Unwrap() error { return e.err }

// sliceStats is what reading a slice counted.
type sliceStats struct {
	undecodedDeletes int
	skippedRowGroups int
}

// logIndex holds a slice's log records by key, in log order.
type logIndex struct {
	recs  []*Record
	next  []int32 // next record of the same key (-1: none)
	byKey map[string]int32
	ents  []logEntry
	// filter has a bit set for the hash of every key: most base rows' keys are in no log,
	// and a bit test in a small array is far cheaper than a miss in a large map.
	filter []uint64
	seed   maphash.Seed
}

type logEntry struct {
	first, last int32
	used        bool // merged into a base row
}

func (x *logIndex) add(r *Record) {
	i := int32(len(x.recs))
	x.recs = append(x.recs, r)
	x.next = append(x.next, -1)
	if e, ok := x.byKey[r.Key]; ok {
		x.next[x.ents[e].last] = i
		x.ents[e].last = i
		return
	}
	x.byKey[r.Key] = int32(len(x.ents))
	x.ents = append(x.ents, logEntry{first: i, last: i})
}

// seal builds the filter once every record is added.
func (x *logIndex) seal() {
	bits := 1024
	for bits < 16*len(x.ents) {
		bits <<= 1
	}
	x.seed = maphash.MakeSeed()
	x.filter = make([]uint64, bits/64)
	for k := range x.byKey {
		h := maphash.String(x.seed, k) & uint64(bits-1)
		x.filter[h/64] |= 1 << (h % 64)
	}
}

// lookup is the entry of key, if any.
func (x *logIndex) lookup(key []byte) (int32, bool) {
	h := maphash.Bytes(x.seed, key) & uint64(len(x.filter)*64-1)
	if x.filter[h/64]&(1<<(h%64)) == 0 {
		return 0, false
	}
	e, ok := x.byKey[string(key)]
	return e, ok
}

// fold merges entry e's log records, in log order, into existing (nil: start with the first).
func (x *logIndex) fold(o *Options, e logEntry, existing *Record) *Record {
	i := e.first
	if existing == nil {
		existing, i = x.recs[i], x.next[i]
	}
	for ; i >= 0; i = x.next[i] {
		if r := x.recs[i]; o.wins(*r, *existing) {
			existing = r
		}
	}
	return existing
}

// readSliceBatches reads and merges one file slice, calling fn with each batch of rows kept
// and onDelete (when set) with each record a delete removed. Bad blocks and pages are
// recorded in problems and the rest of the slice is still read. An error is the base file's
// (the slice could not be read, possibly after some batches), the context's, or fn's
// (wrapped in consumerError).
func readSliceBatches(ctx context.Context, store storage.Storage, s *filegroup.FileSlice, o Options, problems *problem.Log, onDelete func(Record), fn func(*Batch) error) (st sliceStats, err error) {
	cols := projection(o)
	if s.Base != nil {
		if ext := path.Ext(s.Base.Path); ext != ".parquet" {
			// Lance, ORC and HFile base files (hoodie.table.base.file.format) are not decoded.
			return st, fmt.Errorf("base file %s: %s base files are not read (hudiscope reads Parquet base files only)", s.Base.Path, strings.ToUpper(strings.TrimPrefix(ext, ".")))
		}
	}
	// Log problems are recorded once the base file has been read: a slice whose base file
	// cannot be read is reported as such, alone.
	var logProblems problem.Log
	idx := &logIndex{byKey: map[string]int32{}}
	indexLogs := func(ctx context.Context) {
		if len(s.Logs) > 0 {
			for _, b := range readLogs(ctx, store, s.Logs, o, &logProblems) {
				if b.undecodedDeletes {
					st.undecodedDeletes++
				}
				for i := range b.records {
					r := &b.records[i]
					if r.Key == "" && len(o.KeyFields) > 0 {
						r.Key = deriveKey(*r, o.KeyFields)
					}
					idx.add(r)
				}
			}
		}
		idx.seal()
	}
	// The logs are read while the base file is opened (its pages checked): two independent
	// reads of about the same cost.
	var base *baseFile
	if s.Base != nil {
		var keep map[string]bool
		if len(s.Logs) == 0 {
			keep = o.CommitTimes // a log could update a pruned record: prune only without logs
		}
		lctx, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() {
			defer close(done)
			indexLogs(lctx)
		}()
		var b *baseFile
		var err error
		if isSkeleton(s.Base) && needsData(s, o) {
			// Rows are joined with the source's by position: no row group may be skipped.
			b, err = openBootstrap(ctx, store, s.Base, cols, o)
		} else {
			b, err = openBase(ctx, store, s.Base.Path, cols, o.AllColumns, o, keep)
		}
		if err != nil {
			cancel()
			<-done
			return st, err
		}
		<-done
		cancel()
		defer b.Close()
		base = b
	} else {
		indexLogs(ctx)
	}
	out := &Batch{Fields: cols, Schema: o.ReaderColumns, widen: o.ReaderTypes}
	var recs []Record // row-by-row base records of the current batch (made only for that path)
	flush := func() error {
		if len(out.rows) == 0 {
			return nil
		}
		err := fn(out)
		out.rows = out.rows[:0]
		recs = recs[:0]
		if err != nil {
			return consumerError{err}
		}
		return nil
	}
	// keepRec says whether a merged record is returned (and reports a delete).
	keepRec := func(r *Record) bool {
		if r.deleted {
			if onDelete != nil {
				onDelete(*r)
			}
			return false
		}
		return o.keepCommit(r.CommitTime)
	}
	if b := base; b != nil {
		if b.rows {
			// Rows point into recs: its capacity is fixed, and the batch is flushed when full.
			recs = make([]Record, 0, batchRows)
			rg := -1
			put := func(r Record) error {
				if r.Key == "" && len(o.KeyFields) > 0 {
					r.Key = deriveKey(r, o.KeyFields)
				}
				recs = append(recs, r)
				p := &recs[len(recs)-1]
				if e, ok := idx.byKey[r.Key]; ok && !idx.ents[e].used {
					idx.ents[e].used = true
					p = idx.fold(&o, idx.ents[e], p)
				}
				if keepRec(p) {
					out.rows = append(out.rows, batchRow{rec: p})
				}
				if len(recs) == cap(recs) {
					return flush()
				}
				return nil
			}
			var n int
			var err error
			if b.boot != nil {
				err = readBootstrapRows(ctx, b, o, o.PartitionFields, put, &rg)
			} else {
				n, err = readBaseRows(ctx, b.pf, b.path, cols, o.AllColumns, o.OrderingFields, b.keep, put, &rg)
			}
			st.skippedRowGroups = n
			if err != nil {
				return st, err
			}
			if err := flush(); err != nil {
				return st, err
			}
		} else {
			var err error
			out.Fields = b.batch.fields
			merge := len(idx.ents) > 0
			for f := range b.batches(ctx, &err) {
				c := &f.cols
				out.base = c
				for i := 0; i < f.n; i++ {
					if merge {
						key := c.bytes(c.key, i)
						e, ok := idx.lookup(key)
						if !ok && len(o.KeyFields) > 0 && len(key) == 0 {
							e, ok = idx.byKey[c.derivedKey(i)]
						}
						if ok && !idx.ents[e].used {
							idx.ents[e].used = true
							base := &Record{}
							if o.Mode == EventTime {
								base.ordering = c.orderingOf(i)
							}
							if w := idx.fold(&o, idx.ents[e], base); w != base {
								if keepRec(w) {
									out.rows = append(out.rows, batchRow{rec: w})
								}
								continue
							}
						}
					}
					if (o.CommitTimes != nil || o.CommitAfter != "" || o.CommitUpTo != "") && !o.keepCommit(string(c.bytes(c.commitTime, i))) {
						continue
					}
					out.rows = append(out.rows, batchRow{base: int32(i)})
				}
				if err = flush(); err != nil {
					break
				}
			}
			st.skippedRowGroups = b.skipped
			if err != nil {
				return st, err
			}
		}
	}
	for _, p := range logProblems.List() {
		problems.Add(p.File, p.Err)
	}
	out.base = nil
	for _, e := range idx.ents {
		if e.used {
			continue
		}
		if w := idx.fold(&o, e, nil); keepRec(w) {
			out.rows = append(out.rows, batchRow{rec: w})
			if len(out.rows) == batchRows {
				if err := flush(); err != nil {
					return st, err
				}
			}
		}
	}
	if err := flush(); err != nil {
		return st, err
	}
	return st, ctx.Err()
}
