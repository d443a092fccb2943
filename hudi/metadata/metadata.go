// Package metadata reads a table's metadata table (itself a merge-on-read Hudi table under
// .hoodie/metadata): whether it can be listed from, and the partition listing held in its
// `files` partition.
package metadata

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	twmb "github.com/twmb/avro"

	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/hfile"
	"github.com/hudiscope/hudiscope/hudi/internal/avro"
	"github.com/hudiscope/hudiscope/hudi/logfile"
	"github.com/hudiscope/hudiscope/hudi/problem"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/tableconfig"
	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/internal/ordered"
)

// TablePath is the metadata table's base path inside a data table.
const TablePath = ".hoodie/metadata"

const (
	mdtAllPartitionsKey = "__all_partitions__"
	mdtFilesPartition   = "files"
	mdtNonPartitioned   = "."
)

// Exists reports whether the table on store has a metadata table (its own .hoodie directory).
func Exists(ctx context.Context, store storage.Storage) bool {
	_, err := store.Stat(ctx, TablePath+"/.hoodie")
	return err == nil
}

// CanListFiles reports whether a table declares a complete `files` partition in its metadata
// table (listed in hoodie.table.metadata.partitions and not still inflight).
func CanListFiles(cfg *tableconfig.Config) bool {
	return slices.Contains(cfg.MetadataParts, mdtFilesPartition) &&
		!slices.Contains(cfg.MetadataPartsInflight, mdtFilesPartition)
}

// fileInfo is one HoodieMetadataFileInfo, decoded straight from the record (fields the
// writer schema lacks stay zero).
type fileInfo struct {
	Size    int64 `avro:"size"`
	Deleted bool  `avro:"isDeleted"`
}

// mdtRecord is one `files` partition record: HoodieMetadataRecord's type and
// filesystemMetadata (null decodes to a nil map); the writer's other fields are skipped.
type mdtRecord struct {
	Type  int32               `avro:"type"`
	Files map[string]fileInfo `avro:"filesystemMetadata"`
}

// merge applies a newer record on top of r, as Hudi's HoodieMetadataPayload combines them.
func (r *mdtRecord) merge(newer *mdtRecord) {
	if newer.Type != 0 {
		r.Type = newer.Type
	}
	if r.Files == nil {
		r.Files = make(map[string]fileInfo, len(newer.Files))
	}
	for name, fi := range newer.Files {
		old, ok := r.Files[name]
		switch {
		case fi.Deleted && ok && !old.Deleted:
			delete(r.Files, name)
		case fi.Deleted:
			r.Files[name] = fi // keep the tombstone for older slices merged later
		case ok && !old.Deleted:
			old.Size = max(old.Size, fi.Size) // logs grow
			r.Files[name] = old
		default:
			r.Files[name] = fi
		}
	}
}

// mdtInstants is the metadata table's timeline, reduced to what listing needs.
type mdtInstants struct {
	completed   map[string]string // requested → completion ("" when not in the name)
	firstActive string
}

func (m *mdtInstants) isCompleted(instant string) bool {
	if _, ok := m.completed[instant]; ok {
		return true
	}
	return m.firstActive != "" && timeline.CompareInstants(instant, m.firstActive) < 0
}

// Listing is a metadata-table listing whose entries are made a partition at a time (a
// million files' entries are 100 MB).
type Listing struct {
	parts []string     // in path order; "" is the table's only partition when unpartitioned
	recs  []*mdtRecord // parts[i]'s record (nil: listed without files)
}

// Map makes every partition's entries: partition path → files in name order.
func (l *Listing) Map() map[string][]storage.Entry {
	out := make(map[string][]storage.Entry, l.Len())
	for i := range l.Len() {
		part, entries := l.Entries(i)
		out[part] = entries
	}
	return out
}

// Len is the number of partitions.
func (l *Listing) Len() int { return len(l.parts) }

// Entries returns partition i (in path order) and its files in name order, and lets go of
// its record: call it once per partition. Different partitions may be asked for at once.
func (l *Listing) Entries(i int) (string, []storage.Entry) {
	e := partitionEntries(l.parts[i], l.recs[i])
	l.recs[i] = nil
	return l.parts[i], e
}

// List lists partitions and their files from the metadata table's `files` partition
// instead of listing storage: the latest completed base HFile plus the valid HFILE_DATA and
// DELETE log blocks of its slice, merged. Entries carry names and sizes (no modification
// times). store is the data table's storage and tl its active timeline; corrupt log blocks
// are recorded in problems.
func List(ctx context.Context, store storage.Storage, problems *problem.Log, tl *timeline.Timeline) (*Listing, error) {
	mdt, part, err := openPartition(ctx, store, mdtFilesPartition)
	if err != nil {
		return nil, err
	}
	mdtPath := func(p string) string { return mdt.Root() + "/" + p }
	baseIDs, bases, logs := part.baseIDs, part.bases, part.logs

	// Read the base files and logs. Files read whole (one GET each on object stores) are read
	// concurrently and held until merged, so they are chosen in merge order while their sizes
	// fit ReadBudget; any other file is read in ranges (an HFile block, a log block at a
	// time), so memory never grows with the files' total size.
	entries := make([]storage.Entry, 0, len(baseIDs)+len(logs))
	for _, id := range baseIDs {
		entries = append(entries, bases[id])
	}
	for _, l := range logs {
		entries = append(entries, l.e)
	}
	srcs, err := openAll(ctx, mdt, entries)
	defer func() {
		for _, s := range srcs {
			s.close()
		}
	}()
	if err != nil {
		return nil, err
	}

	records := map[string]*mdtRecord{}
	apply := func(key string, r *mdtRecord) {
		if cur := records[key]; cur != nil {
			cur.merge(r)
			return
		}
		// The first record of a key is kept as decoded (merging it into an empty record
		// would copy every entry and change nothing).
		if r.Files == nil {
			r.Files = map[string]fileInfo{}
		}
		records[key] = r
	}
	for i, id := range baseIDs {
		if err := scanFilesHFile(srcs[i].r, srcs[i].size, "", apply); err != nil {
			return nil, fmt.Errorf("%s: %w", mdtPath(bases[id].Path), err)
		}
		srcs[i].close() // merged: let a whole read's bytes go
	}

	counts := dataInstants(tl, part.mi)
	// Two walks over each log's blocks — rollbacks first, then merging — so only one block's
	// header is held at a time, however many blocks the logs have.
	logSrcs := srcs[len(baseIDs):]
	rolledBack := map[string]bool{}
	for _, src := range logSrcs {
		logfile.Walk(src.r, src.size, func(blk logfile.Block) bool {
			if blk.IsRollback() {
				rolledBack[blk.TargetInstant()] = true
			}
			return true
		})
	}
	for i, src := range logSrcs {
		path := logs[i].e.Path
		var err error
		logfile.Walk(src.r, src.size, func(blk logfile.Block) bool {
			err = mergeLogBlock(blk, src.r, func(inst string) bool {
				return !rolledBack[inst] && counts(inst)
			}, records, apply)
			if errors.Is(err, errSkipped) {
				problems.Add(mdtPath(path), blk.Problem)
				err = nil
			}
			return err == nil
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", mdtPath(path), err)
		}
		src.close()
	}

	all := records[mdtAllPartitionsKey]
	if all == nil {
		return nil, errors.New("metadata table has no " + mdtAllPartitionsKey + " record")
	}
	l := &Listing{}
	keys := make(map[string]string, len(all.Files)) // partition path → record key
	for p, fi := range all.Files {
		if fi.Deleted {
			continue
		}
		part := p
		if part == mdtNonPartitioned {
			part = ""
		}
		if _, dup := keys[part]; dup {
			continue // "" and "." both name the unpartitioned table's partition
		}
		keys[part] = p
		l.parts = append(l.parts, part)
	}
	slices.Sort(l.parts)
	l.recs = make([]*mdtRecord, len(l.parts))
	for i, part := range l.parts {
		l.recs[i] = records[keys[part]]
	}
	return l, nil
}

// partitionEntries lists rec's live files in name order. Paths of plain names in a clean
// partition share one allocation (names are slices of it): a million files are a million
// entries, so a string each would double the listing's memory.
func partitionEntries(part string, rec *mdtRecord) []storage.Entry {
	entries := []storage.Entry{}
	if rec == nil {
		return entries
	}
	names := make([]string, 0, len(rec.Files))
	total := 0
	for name, f := range rec.Files {
		if !f.Deleted {
			names = append(names, name)
			total += len(part) + 1 + len(name)
		}
	}
	slices.Sort(names)
	cleanPart := part == "" || storage.Join(part) == part
	var buf strings.Builder
	buf.Grow(total)
	type span struct{ start, name, end int }
	spans := make([]span, len(names))
	for i, name := range names {
		if !cleanPart || !plainName(name) {
			spans[i] = span{-1, 0, 0}
			continue
		}
		start := buf.Len()
		if part != "" {
			buf.WriteString(part)
			buf.WriteByte('/')
		}
		spans[i] = span{start, buf.Len(), buf.Len() + len(name)}
		buf.WriteString(name)
	}
	all := buf.String()
	entries = make([]storage.Entry, len(names))
	for i, name := range names {
		e := storage.Entry{Name: name, Size: rec.Files[name].Size}
		if sp := spans[i]; sp.start >= 0 {
			e.Name, e.Path = all[sp.name:sp.end], all[sp.start:sp.end]
		} else {
			e.Path = storage.Join(part, name) // cleaned as before: a hostile name stays inside
		}
		entries[i] = e
	}
	return entries
}

// plainName reports whether name is one path element that joining leaves as it is.
func plainName(name string) bool {
	return name != "" && name != "." && name != ".." && !strings.Contains(name, "/")
}

// errSkipped marks a corrupt or over-ceiling block: a problem, not a failed listing.
var errSkipped = errors.New("block skipped")

// mergeLogBlock applies one log block: HFILE_DATA records are merged, DELETE keys removed;
// other types, and blocks of instants that do not count, are ignored.
func mergeLogBlock(blk logfile.Block, r io.ReaderAt, counts func(string) bool, records map[string]*mdtRecord, apply func(string, *mdtRecord)) error {
	if blk.Corrupt {
		return errSkipped
	}
	if blk.Type != logfile.BlockHFileData && blk.Type != logfile.BlockDelete {
		return nil
	}
	inst := blk.InstantTime()
	if !counts(inst) {
		return nil
	}
	content, err := blk.ReadContent(r)
	if err != nil {
		return fmt.Errorf("block at %d: %w", blk.Offset, err)
	}
	if blk.Type == logfile.BlockDelete {
		if strings.Trim(inst, "0") == "" && len(content) >= 4 && content[3] < 3 {
			// Every MDT file group starts with an empty DELETE block written at the MDT's
			// all-zero init instant; 0.x wrote it JVM-serialised (content version 2), which
			// we do not decode — it deletes nothing.
			return nil
		}
		keys, err := deleteBlockKeys(content)
		if err != nil {
			return fmt.Errorf("delete block at %d: %w", blk.Offset, err)
		}
		for _, k := range keys {
			delete(records, k)
		}
		return nil
	}
	if err := scanFilesHFile(bytes.NewReader(content), int64(len(content)), blk.Header[logfile.HeaderSchema], apply); err != nil {
		return fmt.Errorf("HFILE_DATA block at %d: %w", blk.Offset, err)
	}
	return nil
}

// Limits on what the listing holds at once. Package variables so tests can force either path.
var (
	// ReadBudget bounds the total bytes of the files read whole and held until merged.
	ReadBudget int64 = 512 << 20
	// WholeReadMax is the largest file read whole; larger ones are read in ranges.
	WholeReadMax int64 = 64 << 20
)

// source is one metadata-table file to merge: its bytes in memory or an open ranged reader.
type source struct {
	r    io.ReaderAt
	size int64
	file storage.File // when opened for ranged reads
}

// close drops a whole read's bytes or closes the file; safe to call twice.
func (s *source) close() {
	if s.file != nil {
		s.file.Close()
		s.file = nil
	}
	s.r = nil
}

// openAll makes a source of each entry, in order. Files are read whole, up to 16 at once,
// while the listed sizes fit ReadBudget and each is at most WholeReadMax; every other file
// is opened for ranged reads. The returned sources are set even on error, for closing.
func openAll(ctx context.Context, store storage.Storage, entries []storage.Entry) ([]*source, error) {
	srcs := make([]*source, len(entries))
	for i := range srcs {
		srcs[i] = &source{}
	}
	errs := make([]error, len(entries))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 16)
	budget := ReadBudget
	for i, e := range entries {
		whole := e.Size >= 0 && e.Size <= WholeReadMax && e.Size <= budget
		if whole {
			budget -= e.Size
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if whole {
				b, err := store.ReadFile(ctx, e.Path)
				if err != nil {
					errs[i] = err
					return
				}
				srcs[i].r, srcs[i].size = bytes.NewReader(b), int64(len(b))
				return
			}
			f, err := store.Open(ctx, e.Path)
			if err != nil {
				errs[i] = err
				return
			}
			srcs[i].r, srcs[i].size, srcs[i].file = f, f.Size(), f
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return srcs, err
		}
	}
	return srcs, nil
}

// scanFilesHFile decodes every `files` record of one HFile (a base file or an HFILE_DATA
// block) and hands it to apply in file order. schema overrides the file-info schema.
func scanFilesHFile(r io.ReaderAt, size int64, schema string, apply func(string, *mdtRecord)) error {
	h, err := hfile.Open(r, size)
	if err != nil {
		return err
	}
	if schema == "" {
		schema = h.Schema()
	}
	if schema == "" {
		return errors.New("no writer schema (file info `schema` or block SCHEMA header)")
	}
	s, err := avro.Schema(schema)
	if err != nil {
		return fmt.Errorf("avro schema: %w", err)
	}
	// Blocks are read in order here and decoded on every core (a million-file table's base
	// HFile is a hundred 1 MB blocks); records are applied in file order.
	type block struct {
		off int64
		p   []byte
	}
	type decoded struct {
		keys []string
		recs []*mdtRecord
		n    uint64
		err  error
	}
	workers := runtime.GOMAXPROCS(0)
	if size < 4<<20 {
		workers = 1 // a block or two: not worth the goroutines
	}
	it := h.Blocks()
	var seen uint64
	err = ordered.Stream(workers, func() (block, bool, error) {
		off, p, ok, err := it.Next()
		return block{off, p}, ok, err
	}, func(b block) decoded {
		var d decoded
		d.n, d.err = h.Cells(b.off, b.p, func(key, value []byte) error {
			rec := &mdtRecord{}
			if _, err := s.Decode(value, rec, twmb.SkipUnknown()); err != nil {
				return fmt.Errorf("record %q: %w", key, err)
			}
			// The Avro `key` field is written empty: the cell key counts.
			d.keys, d.recs = append(d.keys, string(key)), append(d.recs, rec)
			return nil
		})
		return d
	}, func(d decoded) error {
		for i, k := range d.keys {
			apply(k, d.recs[i])
		}
		seen += d.n
		return d.err
	})
	if err != nil {
		return err
	}
	return h.CheckCount(seen)
}

// unwrapUnion is where a union decoded as {"branch": value} would be unwrapped; twmb/avro
// decodes unions bare into `any`, so values pass through.
func unwrapUnion(v any) any { return v }

// deleteBlockKeys returns the record keys of a DELETE block (content version 3: int32
// version, int32 length, Avro HoodieDeleteRecordList).
func deleteBlockKeys(content []byte) ([]string, error) {
	if len(content) < 8 {
		return nil, fmt.Errorf("content too short (%d bytes)", len(content))
	}
	if v := int32(uint32(content[0])<<24 | uint32(content[1])<<16 | uint32(content[2])<<8 | uint32(content[3])); v < 3 {
		return nil, fmt.Errorf("content version %d (JVM-serialised deletes are not decoded)", v)
	}
	n := int(int32(uint32(content[4])<<24 | uint32(content[5])<<16 | uint32(content[6])<<8 | uint32(content[7])))
	if n < 0 || 8+n > len(content) {
		return nil, fmt.Errorf("length %d exceeds content", n)
	}
	s, err := avro.Schema(logfile.DeleteRecordListSchema)
	if err != nil {
		return nil, err
	}
	var v any
	if _, err := s.Decode(content[8:8+n], &v); err != nil {
		return nil, err
	}
	m, _ := v.(map[string]any)
	list, _ := unwrapUnion(m["deleteRecordList"]).([]any)
	keys := make([]string, 0, len(list))
	for _, item := range list {
		rec, _ := item.(map[string]any)
		if k, ok := unwrapUnion(rec["recordKey"]).(string); ok {
			keys = append(keys, k)
		}
	}
	return keys, nil
}

// mdtPartition is the latest file slice of every file group of one metadata-table partition.
type mdtPartition struct {
	mi      *mdtInstants
	baseIDs []string                 // file ids with a completed base file, sorted
	bases   map[string]storage.Entry // file id → latest completed base file
	logs    []logRef                 // the latest slices' log files, in merge order
}

// logRef is one log file of a metadata-table slice.
type logRef struct {
	e    storage.Entry
	name filegroup.LogFileName
	key  string // ordering key: completion time (v8+) or the name's instant
}

// openPartition reads the metadata table's properties and timeline and picks the latest
// slice of each file group of partition name (its directory under the metadata table).
func openPartition(ctx context.Context, store storage.Storage, name string) (storage.Storage, *mdtPartition, error) {
	// Read the MDT's properties and list its `files` partition at the same time (each is a
	// round trip on object stores), then its timeline.
	mdt := storage.NewPrefixed(store, TablePath)
	var files []storage.Entry
	var filesErr error
	listed := make(chan struct{})
	go func() {
		defer close(listed)
		files, filesErr = mdt.List(ctx, name)
	}()
	cfg, err := tableconfig.Read(ctx, mdt, ".hoodie/hoodie.properties")
	<-listed
	if err != nil {
		return nil, nil, fmt.Errorf("metadata table: %w", err)
	}
	if filesErr != nil {
		return nil, nil, fmt.Errorf("list metadata %s partition: %w", name, filesErr)
	}
	timelineFiles, err := mdt.List(ctx, cfg.TimelineDir)
	if err != nil {
		return nil, nil, fmt.Errorf("list metadata timeline: %w", err)
	}
	mi := &mdtInstants{completed: map[string]string{}}
	for _, e := range timelineFiles {
		f, ok := timeline.ParseInstantFileName(e.Name)
		if !ok || f.State != timeline.Completed {
			continue
		}
		mi.completed[f.RequestedTime] = f.CompletionTime
		if mi.firstActive == "" || timeline.CompareInstants(f.RequestedTime, mi.firstActive) < 0 {
			mi.firstActive = f.RequestedTime
		}
	}
	v8 := cfg.Version >= 8

	// The latest base file per file group whose instant completed.
	bases := map[string]storage.Entry{}
	baseInstant := map[string]string{}
	for _, e := range files {
		bn, ok := filegroup.ParseBaseFileName(e.Name)
		if !ok || bn.Ext != "hfile" || !mi.isCompleted(bn.Instant) {
			continue
		}
		if cur, ok := baseInstant[bn.FileID]; !ok || timeline.CompareInstants(bn.Instant, cur) > 0 {
			bases[bn.FileID], baseInstant[bn.FileID] = e, bn.Instant
		}
	}
	// The logs of the latest slice.
	var logs []logRef
	for _, e := range files {
		ln, ok := filegroup.ParseLogFileName(e.Name)
		if !ok || ln.CDC {
			continue
		}
		bi, hasBase := baseInstant[ln.FileID]
		key := ln.Instant
		if v8 {
			if !mi.isCompleted(ln.Instant) {
				continue
			}
			if ct := mi.completed[ln.Instant]; ct != "" {
				key = ct
			}
			if hasBase && timeline.CompareInstants(key, bi) <= 0 {
				continue // belongs to an older slice
			}
		} else if hasBase && ln.Instant != bi {
			continue
		}
		logs = append(logs, logRef{e, ln, key})
	}
	sort.Slice(logs, func(a, b int) bool {
		if c := timeline.CompareInstants(logs[a].key, logs[b].key); c != 0 {
			return c < 0
		}
		return filegroup.CompareLogFiles(logs[a].name, logs[b].name) < 0
	})

	baseIDs := make([]string, 0, len(bases))
	for id := range bases {
		baseIDs = append(baseIDs, id)
	}
	sort.Strings(baseIDs)
	return mdt, &mdtPartition{mi: mi, baseIDs: baseIDs, bases: bases, logs: logs}, nil
}

// dataInstants is the test a metadata-table log block's instant passes to count: completed on
// the metadata timeline, not pending on the data timeline tl, and not newer than tl's latest
// completed instant (MDT-internal 20-digit instants excepted).
func dataInstants(tl *timeline.Timeline, mi *mdtInstants) func(string) bool {
	pending := map[string]bool{}
	latest := ""
	if tl != nil {
		for _, in := range tl.Instants {
			if in.State != timeline.Completed {
				pending[in.RequestedTime] = true
			} else if latest == "" || timeline.CompareInstants(in.RequestedTime, latest) > 0 {
				latest = in.RequestedTime
			}
		}
	}
	return func(inst string) bool {
		if !mi.isCompleted(inst) || pending[inst] {
			return false
		}
		return latest == "" || len(inst) > 17 || timeline.CompareInstants(inst, latest) <= 0
	}
}
