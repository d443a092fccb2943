package records

import (
	"context"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/logfile"
	"github.com/hudiscope/hudiscope/hudi/problem"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// Change is one row of a CDC read (`hudi_table_changes(…, 'cdc', …)`): the operation (i, u,
// d), the writing instant's requested time, and the record before and after (nil when none).
type Change struct {
	Op        string
	TsMs      string
	Before    map[string]any
	After     map[string]any
	Partition string
	FileID    string
	// Source says where the images came from: "cdc-log" (the .cdc file as written),
	// "cdc-log+base" (images looked up in base files, as the logging mode requires),
	// "base-insert" (a new file of inserts), "base-delete", "replace" or "log-file".
	Source string
}

// CDC supplemental logging modes (hoodie.table.cdc.supplemental.logging.mode).
const (
	CDCOpKeyOnly       = "OP_KEY_ONLY"
	CDCDataBefore      = "DATA_BEFORE"
	CDCDataBeforeAfter = "DATA_BEFORE_AFTER"
)

// CDCOptions say how to read changes.
type CDCOptions struct {
	Mode           string // supplemental logging mode, upper case
	OrderingFields []string
	MergeMode      MergeMode
}

// ReadChanges returns the changes of the given completed writes, one write and one file group
// at a time, following Hudi's HoodieCDCExtractor: a write stat with CDC files is read as
// written, its missing images taken from the file group's previous base file (before, for
// OP_KEY_ONLY) and the new base file (after, for OP_KEY_ONLY and DATA_BEFORE); a new file of
// inserts gives inserts, a delete that emptied a file gives its previous records as deletes,
// a replaced file group gives its records as deletes, and a MOR log file without CDC data is
// compared with the slice it was written on. Files that cannot be read are recorded in
// problems (naming the file and block) and the other file groups are still read.
func ReadChanges(ctx context.Context, store storage.Storage, writes []*timeline.Instant, o CDCOptions, problems *problem.Log, fn func(Change) error) error {
	lister := &partitionLister{store: store, cache: map[string][]storage.Entry{}}
	for _, w := range writes {
		if w.Commit == nil {
			problems.Add(store.Root()+"/"+w.CompletedFile(), "commit metadata not decoded: its changes are not read")
			continue
		}
		parts := make([]string, 0, len(w.Commit.PartitionToWriteStats))
		for p := range w.Commit.PartitionToWriteStats {
			parts = append(parts, p)
		}
		sort.Strings(parts)
		for _, p := range parts {
			for _, ws := range w.Commit.PartitionToWriteStats[p] {
				if err := ctx.Err(); err != nil {
					return err
				}
				if err := statChanges(ctx, store, lister, w, p, ws, o, problems, fn); err != nil {
					return err
				}
			}
		}
		replaced := w.Commit.PartitionToReplaceFileIDs
		rparts := make([]string, 0, len(replaced))
		for p := range replaced {
			rparts = append(rparts, p)
		}
		sort.Strings(rparts)
		for _, p := range rparts {
			for _, id := range replaced[p] {
				slice := lister.sliceBefore(ctx, p, id, w.RequestedTime)
				if slice == nil {
					continue
				}
				recs, err := readImages(ctx, store, slice, o, problems)
				if err != nil {
					problems.Add(store.Root()+"/"+p+" file group "+id, err.Error())
					continue
				}
				for _, r := range recs {
					if err := fn(Change{Op: "d", TsMs: w.RequestedTime, Before: r.Values, Partition: p, FileID: id, Source: "replace"}); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// statChanges emits the changes one write stat stands for.
func statChanges(ctx context.Context, store storage.Storage, lister *partitionLister, w *timeline.Instant, part string, ws timeline.WriteStat, o CDCOptions, problems *problem.Log, fn func(Change) error) error {
	where := store.Root() + "/" + ws.Path
	emit := func(c Change) error {
		c.TsMs, c.Partition, c.FileID = w.RequestedTime, part, ws.FileID
		return fn(c)
	}
	if len(ws.CDCStats) > 0 {
		files := make([]string, 0, len(ws.CDCStats))
		for f := range ws.CDCStats {
			files = append(files, f)
		}
		sort.Strings(files)
		var before, after map[string]map[string]any
		if o.Mode == CDCOpKeyOnly {
			before = lister.baseImages(ctx, store, part, ws.FileID, ws.PrevCommit, o, problems)
		}
		if o.Mode == CDCOpKeyOnly || o.Mode == CDCDataBefore {
			after = fileImages(ctx, store, ws.Path, o, problems)
		}
		for _, f := range files {
			recs, err := readCDCLog(ctx, store, f, problems)
			if err != nil {
				problems.Add(store.Root()+"/"+f, err.Error())
				continue
			}
			for _, r := range recs {
				c := Change{Op: str(r["op"]), Source: "cdc-log"}
				c.Before, _ = r["before"].(map[string]any)
				c.After, _ = r["after"].(map[string]any)
				key := str(r["record_key"])
				if before != nil && c.Op != "i" {
					c.Before, c.Source = before[key], "cdc-log+base"
				}
				if after != nil && c.Op != "d" {
					c.After, c.Source = after[key], "cdc-log+base"
				}
				if err := emit(c); err != nil {
					return err
				}
			}
		}
		return nil
	}
	name := path.Base(ws.Path)
	if _, ok := filegroup.ParseBaseFileName(name); ok {
		switch {
		case isDelete(w.Commit.OperationType) && ws.NumWrites == 0 && ws.NumDeletes != 0:
			slice := lister.baseSlice(ctx, part, ws.FileID, ws.PrevCommit)
			if slice == nil {
				problems.Add(where, fmt.Sprintf("the previous base file (instant %s) of file group %s is gone: its deletes are not read", ws.PrevCommit, ws.FileID))
				return nil
			}
			recs, err := readImages(ctx, store, slice, o, problems)
			if err != nil {
				problems.Add(where, err.Error())
				return nil
			}
			for _, r := range recs {
				if err := emit(Change{Op: "d", Before: r.Values, Source: "base-delete"}); err != nil {
					return err
				}
			}
		case ws.NumUpdateWrites == 0 && ws.NumWrites == ws.NumInserts:
			recs, err := readImages(ctx, store, &filegroup.FileSlice{Base: &filegroup.BaseFile{Path: ws.Path, Name: name}}, o, problems)
			if err != nil {
				problems.Add(where, err.Error())
				return nil
			}
			for _, r := range recs {
				if err := emit(Change{Op: "i", After: r.Values, Source: "base-insert"}); err != nil {
					return err
				}
			}
		default:
			problems.Add(where, "updates or deletes without a CDC log file (Hudi: \"There should be a cdc log file.\"): its changes are not read")
		}
		return nil
	}
	return logFileChanges(ctx, store, w, part, ws, o, problems, emit)
}

func isDelete(op string) bool {
	op = strings.ToLower(op)
	return op == "delete" || op == "delete_prepped"
}

// logFileChanges compares a MOR log file's records with the slice it was written on (Hudi's
// LOG_FILE case): a key the slice held is an update, a new key an insert, a delete a delete.
func logFileChanges(ctx context.Context, store storage.Storage, w *timeline.Instant, part string, ws timeline.WriteStat, o CDCOptions, problems *problem.Log, emit func(Change) error) error {
	dir := path.Dir(ws.Path)
	if dir == "." {
		dir = ""
	}
	join := func(n string) string {
		if dir == "" {
			return n
		}
		return dir + "/" + n
	}
	prev := &filegroup.FileSlice{}
	if ws.BaseFile != "" {
		prev.Base = &filegroup.BaseFile{Path: join(ws.BaseFile), Name: ws.BaseFile}
	}
	for _, lf := range ws.LogFiles {
		if lf != path.Base(ws.Path) {
			if m, ok := filegroup.ParseLogFileName(lf); ok {
				prev.Logs = append(prev.Logs, filegroup.LogFile{Path: join(lf), Name: lf, Meta: m})
			}
		}
	}
	before := map[string]map[string]any{}
	if prev.Base != nil || len(prev.Logs) > 0 {
		recs, err := readImages(ctx, store, prev, o, problems)
		if err != nil {
			problems.Add(store.Root()+"/"+ws.Path, "the slice it was written on: "+err.Error())
		}
		for _, r := range recs {
			before[r.Key] = r.Values
		}
	}
	m, _ := filegroup.ParseLogFileName(path.Base(ws.Path))
	cur := &filegroup.FileSlice{Logs: []filegroup.LogFile{{Path: ws.Path, Name: path.Base(ws.Path), Meta: m}}}
	ro := Options{AllColumns: true, OrderingFields: o.OrderingFields, Mode: o.MergeMode, Committed: func(in string) bool { return in == w.RequestedTime }}
	var deleted []Record
	res, err := readSliceWith(ctx, store, cur, ro, problems, func(r Record) { deleted = append(deleted, r) })
	if err != nil {
		problems.Add(store.Root()+"/"+ws.Path, err.Error())
		return nil
	}
	for _, r := range res.Records {
		c := Change{Op: "i", After: r.Values, Source: "log-file"}
		if b, ok := before[r.Key]; ok {
			c.Op, c.Before = "u", b
		}
		if err := emit(c); err != nil {
			return err
		}
	}
	for _, r := range deleted {
		if b, ok := before[r.Key]; ok {
			if err := emit(Change{Op: "d", Before: b, Source: "log-file"}); err != nil {
				return err
			}
		}
	}
	return nil
}

// readImages reads every column of a slice's records.
func readImages(ctx context.Context, store storage.Storage, s *filegroup.FileSlice, o CDCOptions, problems *problem.Log) ([]Record, error) {
	res, err := ReadSlice(ctx, store, s, Options{AllColumns: true, OrderingFields: o.OrderingFields, Mode: o.MergeMode}, problems)
	if err != nil {
		return nil, err
	}
	return res.Records, nil
}

// fileImages reads a base file's records by key (nil when it cannot be read; the problem is
// recorded).
func fileImages(ctx context.Context, store storage.Storage, p string, o CDCOptions, problems *problem.Log) map[string]map[string]any {
	recs, err := readImages(ctx, store, &filegroup.FileSlice{Base: &filegroup.BaseFile{Path: p, Name: path.Base(p)}}, o, problems)
	if err != nil {
		problems.Add(store.Root()+"/"+p, err.Error())
		return map[string]map[string]any{}
	}
	return byKey(recs)
}

func byKey(recs []Record) map[string]map[string]any {
	out := make(map[string]map[string]any, len(recs))
	for _, r := range recs {
		out[r.Key] = r.Values
	}
	return out
}

// readCDCLog decodes the CDC data blocks of a .cdc log file into maps (op, ts_ms or
// record_key, before, after).
func readCDCLog(ctx context.Context, store storage.Storage, p string, problems *problem.Log) ([]map[string]any, error) {
	f, err := store.Open(ctx, p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []map[string]any
	for _, b := range logfile.ReadBlocks(f, f.Size()) {
		where := store.Root() + "/" + p
		if b.Corrupt {
			problems.Add(where, b.Problem)
			continue
		}
		if b.Type != logfile.BlockCDCData && b.Type != logfile.BlockAvroData {
			continue
		}
		content, err := b.ReadContent(f)
		if err != nil {
			problems.Add(where, fmt.Sprintf("block at byte %d: %v", b.Offset, err))
			continue
		}
		s, err := dataSchemas.Parse(b.Header[logfile.HeaderSchema])
		if err != nil {
			problems.Add(where, fmt.Sprintf("block at byte %d: avro schema: %v", b.Offset, err))
			continue
		}
		datums, err := logfile.AvroRecords(content)
		if err != nil {
			problems.Add(where, fmt.Sprintf("block at byte %d: %v", b.Offset, err))
		}
		for i, d := range datums {
			var v any
			if _, err := s.Decode(d, &v); err != nil {
				problems.Add(where, fmt.Sprintf("block at byte %d record %d: %v", b.Offset, i, err))
				break
			}
			if m, ok := avroValue(v).(map[string]any); ok {
				out = append(out, m)
			}
		}
	}
	return out, nil
}

// partitionLister finds a file group's files in its partition (listed once per partition).
type partitionLister struct {
	store storage.Storage
	cache map[string][]storage.Entry
}

func (l *partitionLister) list(ctx context.Context, part string) []storage.Entry {
	if e, ok := l.cache[part]; ok {
		return e
	}
	e, _ := l.store.List(ctx, part)
	l.cache[part] = e
	return e
}

// baseSlice is the file group's base file written at instant (nil when gone).
func (l *partitionLister) baseSlice(ctx context.Context, part, fileID, instant string) *filegroup.FileSlice {
	for _, e := range l.list(ctx, part) {
		if b, ok := filegroup.ParseBaseFileName(e.Name); ok && b.FileID == fileID && b.Instant == instant {
			return &filegroup.FileSlice{BaseInstant: instant, Base: &filegroup.BaseFile{Path: e.Path, Name: e.Name, Instant: instant}}
		}
	}
	return nil
}

// sliceBefore is the file group's latest slice (base file and its logs) begun before instant.
func (l *partitionLister) sliceBefore(ctx context.Context, part, fileID, instant string) *filegroup.FileSlice {
	var s *filegroup.FileSlice
	entries := l.list(ctx, part)
	for _, e := range entries {
		if b, ok := filegroup.ParseBaseFileName(e.Name); ok && b.FileID == fileID && timeline.CompareInstants(b.Instant, instant) < 0 && (s == nil || timeline.CompareInstants(b.Instant, s.BaseInstant) > 0) {
			s = &filegroup.FileSlice{BaseInstant: b.Instant, Base: &filegroup.BaseFile{Path: e.Path, Name: e.Name, Instant: b.Instant}}
		}
	}
	for _, e := range entries {
		if m, ok := filegroup.ParseLogFileName(e.Name); ok && !m.CDC && m.FileID == fileID && timeline.CompareInstants(m.Instant, instant) < 0 && (s == nil || timeline.CompareInstants(m.Instant, s.BaseInstant) >= 0) {
			if s == nil {
				s = &filegroup.FileSlice{BaseInstant: m.Instant}
			}
			s.Logs = append(s.Logs, filegroup.LogFile{Path: e.Path, Name: e.Name, Meta: m})
		}
	}
	return s
}

// baseImages reads the file group's base file of instant by key (empty when gone).
func (l *partitionLister) baseImages(ctx context.Context, store storage.Storage, part, fileID, instant string, o CDCOptions, problems *problem.Log) map[string]map[string]any {
	s := l.baseSlice(ctx, part, fileID, instant)
	if s == nil {
		problems.Add(store.Root()+"/"+part, fmt.Sprintf("file group %s: no base file of instant %s for the before images", fileID, instant))
		return map[string]map[string]any{}
	}
	recs, err := readImages(ctx, store, s, o, problems)
	if err != nil {
		problems.Add(store.Root()+"/"+s.Base.Path, err.Error())
	}
	return byKey(recs)
}
