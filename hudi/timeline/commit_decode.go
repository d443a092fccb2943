package timeline

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/hudiscope/hudiscope/hudi/internal/avro"
)

// decodeCommitMetadata decodes commit metadata from JSON (0.x, legacy) or Avro (1.x). Avro is
// decoded straight into the typed structs (their avro tags); a writer schema they do not fit
// takes the generic path. Timelines hold hundreds of thousands of these: the generic datum (a
// map per record, an interface per value) cost three times the time and garbage.
func decodeCommitMetadata(b []byte) (*CommitMetadata, error) {
	if avro.IsOCF(b) {
		var cm CommitMetadata
		err := avro.FirstRecordInto(b, &cm)
		if err == nil {
			normalizeTyped(&cm)
			return &cm, nil
		}
		if !errors.Is(err, avro.ErrNotInto) {
			// Container, codec or schema: the generic path would fail the same way, after
			// decompressing a bomb up to the ceiling a second time.
			return nil, err
		}
	}
	return decodeCommitGeneric(b)
}

// normalizeTyped gives the typed decode the generic one's empty values: present but empty
// write-stat lists are empty, not nil.
func normalizeTyped(cm *CommitMetadata) {
	for p, ws := range cm.PartitionToWriteStats {
		if ws == nil {
			cm.PartitionToWriteStats[p] = []WriteStat{}
		}
	}
	for p, ids := range cm.PartitionToReplaceFileIDs {
		if ids == nil {
			cm.PartitionToReplaceFileIDs[p] = []string{}
		}
	}
}

// decodeCommitGeneric maps the generic Avro datum (or JSON) onto the struct.
func decodeCommitGeneric(b []byte) (*CommitMetadata, error) {
	var cm CommitMetadata
	if len(b) == 0 {
		return nil, avro.ErrEmpty
	}
	if !avro.IsOCF(b) {
		js, err := avro.ContentJSON(b)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(js, &cm); err != nil {
			return nil, err
		}
		return &cm, nil
	}
	v, err := avro.FirstRecord(b)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("avro datum is not a record")
	}
	cm.OperationType = str(m["operationType"])
	cm.Compacted, _ = m["compacted"].(bool)
	if em, ok := m["extraMetadata"].(map[string]any); ok {
		cm.ExtraMetadata = make(map[string]string, len(em))
		for k, v := range em {
			cm.ExtraMetadata[k] = str(v)
		}
	}
	if ps, ok := m["partitionToWriteStats"].(map[string]any); ok {
		cm.PartitionToWriteStats = make(map[string][]WriteStat, len(ps))
		for p, arr := range ps {
			list, _ := arr.([]any)
			stats := make([]WriteStat, 0, len(list))
			for _, e := range list {
				if sm, ok := e.(map[string]any); ok {
					stats = append(stats, writeStatFromAvro(sm))
				}
			}
			cm.PartitionToWriteStats[p] = stats
		}
	}
	if rp, ok := m["partitionToReplaceFileIds"].(map[string]any); ok {
		cm.PartitionToReplaceFileIDs = make(map[string][]string, len(rp))
		for p, arr := range rp {
			list, _ := arr.([]any)
			ids := make([]string, 0, len(list))
			for _, id := range list {
				ids = append(ids, str(id))
			}
			cm.PartitionToReplaceFileIDs[p] = ids
		}
	}
	return &cm, nil
}

func writeStatFromAvro(m map[string]any) WriteStat {
	w := WriteStat{
		FileID: str(m["fileId"]), Path: str(m["path"]), PrevCommit: str(m["prevCommit"]),
		PartitionPath: str(m["partitionPath"]), NumWrites: num(m["numWrites"]), NumDeletes: num(m["numDeletes"]),
		NumUpdateWrites: num(m["numUpdateWrites"]), NumInserts: num(m["numInserts"]),
		TotalWriteBytes: num(m["totalWriteBytes"]), TotalWriteErrors: num(m["totalWriteErrors"]),
		FileSizeInBytes: num(m["fileSizeInBytes"]), TotalLogRecords: num(m["totalLogRecords"]),
		TotalLogFilesCompacted: num(m["totalLogFilesCompacted"]), TotalLogSizeCompacted: num(m["totalLogSizeCompacted"]),
		TotalUpdatedRecordsCompacted: num(m["totalUpdatedRecordsCompacted"]), TotalLogBlocks: num(m["totalLogBlocks"]),
		TotalCorruptLogBlock: num(m["totalCorruptLogBlock"]), TotalRollbackBlocks: num(m["totalRollbackBlocks"]),
		BaseFile: str(m["baseFile"]), LogVersion: num(m["logVersion"]), LogOffset: num(m["logOffset"]),
	}
	if v, ok := m["minEventTime"]; ok && v != nil {
		n := num(v)
		w.MinEventTime = &n
	}
	if v, ok := m["maxEventTime"]; ok && v != nil {
		n := num(v)
		w.MaxEventTime = &n
	}
	if rs, ok := m["runtimeStats"].(map[string]any); ok {
		w.RuntimeStats = &RuntimeStats{TotalScanTime: num(rs["totalScanTime"]), TotalUpsertTime: num(rs["totalUpsertTime"]),
			TotalCreateTime: num(rs["totalCreateTime"])}
	}
	if lf, ok := m["logFiles"].([]any); ok {
		w.LogFiles = make([]string, 0, len(lf)) // present but empty is empty, as the typed and JSON decodes have it
		for _, f := range lf {
			w.LogFiles = append(w.LogFiles, str(f))
		}
	}
	if cs, ok := m["cdcStats"].(map[string]any); ok {
		w.CDCStats = make(map[string]int64, len(cs))
		for k, v := range cs {
			w.CDCStats[k] = num(v)
		}
	}
	return w
}

func str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}

func num(v any) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case int32:
		return int64(x)
	case int:
		return int64(x)
	case float64:
		return int64(x)
	case float32:
		return int64(x)
	}
	return 0
}

// liteStat is the part of a write stat CommitMetadata.Totals and PartitionWrites read.
type liteStat struct {
	FileID          string `avro:"fileId"`
	Path            string `avro:"path"`
	PrevCommit      string `avro:"prevCommit"`
	NumWrites       int64  `avro:"numWrites"`
	NumDeletes      int64  `avro:"numDeletes"`
	NumUpdateWrites int64  `avro:"numUpdateWrites"`
	NumInserts      int64  `avro:"numInserts"`
	TotalWriteBytes int64  `avro:"totalWriteBytes"`
	// TotalWriteErrors is read so a commit's failed records show (CommitTotals).
	TotalWriteErrors int64 `avro:"totalWriteErrors"`
}

// liteCommit is what a timeline row shows of commit metadata; the rest is skipped unread.
type liteCommit struct {
	OperationType             string                `avro:"operationType"`
	PartitionToWriteStats     map[string][]liteStat `avro:"partitionToWriteStats"`
	PartitionToReplaceFileIDs map[string][]string   `avro:"partitionToReplaceFileIds"`
}

// commitSummary is what a compact timeline keeps of commit metadata (Reader.Compact).
type commitSummary struct {
	op       string
	totals   CommitTotals
	replaced map[string][]string
	writes   []PartitionWrites
}

// addWrites adds one partition's writes to the summary and its totals.
func (sum *commitSummary) addWrites(w PartitionWrites) {
	t := &sum.totals
	t.NumWrites += w.NumWrites
	t.NumInserts += w.NumInserts
	t.NumUpdateWrites += w.NumUpdateWrites
	t.NumDeletes += w.NumDeletes
	t.TotalBytesWritten += w.TotalWriteBytes
	t.TotalWriteErrors += w.WriteErrors
	t.FilesAdded += w.FilesAdded
	t.FilesUpdated += w.FilesUpdated
	sum.writes = append(sum.writes, w)
}

// summaryOf sums decoded metadata.
func summaryOf(cm *CommitMetadata) commitSummary {
	return commitSummary{op: cm.OperationType, totals: cm.Totals(), replaced: cm.PartitionToReplaceFileIDs, writes: cm.PartitionWrites()}
}

// decodeCommitSummary decodes only what a compact timeline keeps: Avro through the writer
// schema's compiled plan (summaryPlan: sums straight off the bytes, the rest skipped), else
// into the typed lite structs (extra metadata, which carries the schema text, is skipped
// unread) and summed from them, without building write stats. JSON content, and Avro whose
// writer schema the lite structs do not fit, take the full decode. It equals
// summaryOf(full decode) (TestDecodeCommitSummaryMatchesFull). The operation and partition
// names may alias b: callers that keep them copy (intern) them.
func decodeCommitSummary(b []byte) (commitSummary, error) {
	if !avro.IsOCF(b) {
		cm, err := decodeCommitMetadata(b)
		if err != nil {
			return commitSummary{}, err
		}
		return summaryOf(cm), nil
	}
	c, err := avro.FirstBlock(b)
	if err != nil {
		return commitSummary{}, err // what the full decode would return, without a second decompression
	}
	if p := summaryPlanFor(c.Schema); p != nil {
		if sum, ok := p.decode(c.Block); ok {
			return sum, nil
		}
	}
	return liteSummary(b, c)
}

// liteSummary is decodeCommitSummary through the typed lite structs (c is b's container).
func liteSummary(b []byte, c avro.Container) (commitSummary, error) {
	var lc liteCommit
	if err := c.Into(&lc); err != nil {
		if errors.Is(err, avro.ErrNotInto) {
			// CommitMetadata types these fields alike, so it would not fit either.
			cm, err := decodeCommitGeneric(b)
			if err != nil {
				return commitSummary{}, err
			}
			return summaryOf(cm), nil
		}
		return commitSummary{}, err // what the full decode would return, without a second decompression
	}
	sum := commitSummary{op: lc.OperationType, replaced: lc.PartitionToReplaceFileIDs}
	if len(lc.PartitionToWriteStats) == 0 {
		return sum, nil
	}
	parts := make([]string, 0, len(lc.PartitionToWriteStats))
	for p := range lc.PartitionToWriteStats {
		parts = append(parts, p)
	}
	sort.Strings(parts)
	sum.writes = make([]PartitionWrites, 0, len(parts))
	var small [8]fileKey // most commits write a few files: no allocation for the list
	keys := fileKeys{list: small[:0]}
	t := &sum.totals
	for _, p := range parts {
		ss := lc.PartitionToWriteStats[p]
		if len(ss) > 0 {
			t.Partitions++
		}
		w := PartitionWrites{Partition: p}
		for i := range ss {
			s := &ss[i]
			w.add(s.NumWrites, s.NumInserts, s.NumUpdateWrites, s.NumDeletes, s.TotalWriteBytes, s.TotalWriteErrors, s.PrevCommit)
			keys = keys.add(p, s)
		}
		sum.addWrites(w)
	}
	t.Files = keys.count()
	return sum, nil
}

// fileKeys counts distinct files as CommitMetadata.Totals does (a stat's path, else
// partition/fileId) without building the joined strings: commits write few files, so a short
// list compared pairwise, and a map past that.
type fileKeys struct {
	list []fileKey
	set  map[string]struct{}
}

// fileKey is path (dir == false) or dir + "/" + name.
type fileKey struct {
	joined    bool
	dir, name string
}

func (k fileKey) String() string {
	if k.joined {
		return k.dir + "/" + k.name
	}
	return k.name
}

func (k fileKey) equal(o fileKey) bool {
	switch {
	case k.joined == o.joined:
		return k.name == o.name && k.dir == o.dir
	case o.joined:
		k, o = o, k
	}
	// k joined, o a plain path
	p := o.name
	return len(p) == len(k.dir)+1+len(k.name) && p[:len(k.dir)] == k.dir && p[len(k.dir)] == '/' && p[len(k.dir)+1:] == k.name
}

const fileKeysListMax = 64

func (f fileKeys) add(part string, s *liteStat) fileKeys {
	k := fileKey{name: s.Path}
	if s.Path == "" {
		k = fileKey{joined: true, dir: part, name: s.FileID}
	}
	if f.set != nil {
		f.set[k.String()] = struct{}{}
		return f
	}
	for _, o := range f.list {
		if o.equal(k) {
			return f
		}
	}
	f.list = append(f.list, k)
	if len(f.list) > fileKeysListMax {
		f.set = make(map[string]struct{}, 2*len(f.list))
		for _, o := range f.list {
			f.set[o.String()] = struct{}{}
		}
		f.list = nil
	}
	return f
}

func (f fileKeys) count() int {
	if f.set != nil {
		return len(f.set)
	}
	return len(f.list)
}
