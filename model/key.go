package model

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/bloom"
	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/metadata"
	"github.com/hudiscope/hudiscope/hudi/problem"
	"github.com/hudiscope/hudiscope/hudi/records"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// One record's story (issue 32 item 8): where a record key lives, found through the table's
// own index when it has one, its current value, and every version of it still on storage.

// Ways a key is located (KeyStory.Method).
const (
	KeyByRecordIndex = "record index"
	KeyByBucket      = "bucket index"
	KeyByBloom       = "bloom filter"
	KeyByScan        = "scan"
)

// KeyQuery is one record key to look up.
type KeyQuery struct {
	Key string
	// onSlice hears each file slice read for the key's versions (Options.OnSlices).
	onSlice func(slices int)
	// Partition limits the lookup to one partition path ("" every partition).
	Partition string
	// Buckets is the bucket index's bucket count (hoodie.bucket.index.num.buckets, which the
	// table does not record); 0 infers it from the file ids.
	Buckets int
	// Scan ignores every index and footer: every file group's keys are read (to check an index
	// that may be wrong, and to measure what the index saves).
	Scan bool
	// Before, when set, is called with what reading the located file groups will touch (every
	// slice of each) before any row is read; its error stops the lookup and is returned.
	Before func(ScanSize) error
}

// KeyStory is what KeyLookup found.
type KeyStory struct {
	Key string
	// Method is how the file groups were found (KeyByRecordIndex …) and How says so in a line.
	Method, How string
	// GroupsChecked counts the file groups whose files were read (after index pruning) and
	// GroupsPruned those the index or footers ruled out without reading rows.
	GroupsChecked, GroupsPruned int
	// Locations are the file groups holding a version of the key.
	Locations []KeyLocation
	// Current is the snapshot row (MOR merged); nil when the key is not in the snapshot.
	Current *records.Record
	// Status is "current", "deleted" (versions remain but the snapshot has none) or "absent".
	Status string
	// Versions are every stored version, oldest write first.
	Versions []KeyVersion
	// Changes are the key's CDC images (tables with hoodie.table.cdc.enabled), oldest first.
	Changes  []records.Change
	Notes    []string
	Problems []problem.Problem
}

// KeyLocation is one file group holding the key.
type KeyLocation struct {
	Partition, FileID string
	// Bucket is the bucket number (bucket index), -1 otherwise.
	Bucket int
	// Replaced: a group a clustering or insert overwrite replaced, its files not yet cleaned.
	Replaced bool
}

// KeyVersion is one stored version of the key.
type KeyVersion struct {
	Partition, FileID string
	// SliceInstant is the base instant of the file slice holding it; File its base or log file.
	SliceInstant, File string
	InLog              bool
	// CommitTime is the write that stored the value: the row's _hoodie_commit_time (a base
	// file copies unchanged rows forward, so a newer slice's row can carry an older write) or
	// the log block's instant; Requested/Completed/Action/Operation describe it on the timeline.
	CommitTime                              string
	CompletionTime, Action, Operation       string
	CarriedOver, Current, Deleted, Archived bool
	// Replaced: in a replaced file group (not read by a snapshot) still on storage.
	Replaced bool
	Record   records.Record
}

// bucketFileID matches a bucket index's file ids: the bucket number in eight digits first.
var bucketFileID = regexp.MustCompile(`^(\d{8})-`)

// KeyLookup tells key q's story on the loaded snapshot.
func (s *Snapshot) KeyLookup(ctx context.Context, q KeyQuery) (*KeyStory, error) {
	if s.table == nil || s.Timeline == nil || s.View == nil {
		return nil, fmt.Errorf("the table's timeline and file view were not loaded")
	}
	q.onSlice = s.Options.OnSlices
	return KeyLookup(ctx, s.table, s.Timeline, s.View, s.Options.NoMDT, q)
}

// KeyLookup finds q.Key in t: through the record-level index when the metadata table has one,
// else by the bucket index when every file id is a bucket's, else by the base files' footer
// bloom filters and key ranges, else by reading every file group's record keys. Every slice
// of the groups found is then read for the key's versions, and the merged slice for its
// current value.
func KeyLookup(ctx context.Context, t *hudi.Table, tl *timeline.Timeline, view *filegroup.View, noMDT bool, q KeyQuery) (*KeyStory, error) {
	st := &KeyStory{Key: q.Key, Status: "absent"}
	var problems problem.Log
	groups, err := locateKey(ctx, t, tl, partitionGroups(view, q.Partition), noMDT, q, st, &problems)
	if err != nil {
		return nil, err
	}
	replaced := replacedHolding(ctx, t, view, q.Partition, q.Key, &problems)
	live := len(groups)
	groups = append(groups, replaced...)
	if q.Partition != "" {
		st.How += fmt.Sprintf(" (partition %s only)", partLabel(q.Partition))
	}
	st.GroupsChecked = len(groups)
	if q.Before != nil {
		var size ScanSize
		for _, g := range groups {
			for _, sl := range g.Slices {
				if sl.Base != nil {
					size.Files++
				}
				size.Files += len(sl.Logs)
				size.Bytes += sl.Size()
			}
		}
		if CDCMode(t) != "" {
			c := changesScanSize(ctx, t, tl, ChangesQuery{Begin: "earliest"})
			size.Files += c.Files
			size.Bytes += c.Bytes
		}
		if err := q.Before(size); err != nil {
			return nil, err
		}
	}

	instants := map[string]*timeline.Instant{}
	for _, in := range tl.Archived {
		instants[in.RequestedTime] = in
	}
	for _, in := range tl.Instants {
		instants[in.RequestedTime] = in
	}
	o := RowColumns{All: true}.options(t)
	o.Committed = records.Committed(tl)
	o.OpenSource = t.OpenBootstrapSource
	o.PartitionFields = t.Config.PartitionFieldNames()
	noMeta := false
	for gi, g := range groups {
		var found []KeyVersion
		for _, sl := range g.Slices {
			vs, err := records.KeyVersions(ctx, t.Store, sl, q.Key, o, &problems)
			if q.onSlice != nil {
				q.onSlice(1)
			}
			if err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				problems.Add(t.Store.Root()+"/"+g.Partition+" file group "+g.FileID, err.Error())
			}
			for _, v := range vs {
				kv := KeyVersion{Partition: g.Partition, FileID: g.FileID, SliceInstant: sl.BaseInstant, File: v.File, InLog: v.InLog,
					CommitTime: v.Instant, Deleted: v.Deleted, Record: v.Record, Replaced: gi >= live}
				if v.Instant == "" && !v.InLog {
					// No meta fields (hoodie.populate.meta.fields=false): the row names no
					// commit; the write that produced its file stands for it.
					kv.CommitTime = sl.BaseInstant
					noMeta = true
				}
				kv.CarriedOver = !v.InLog && v.Instant != "" && timeline.CompareInstants(v.Instant, sl.BaseInstant) < 0
				if in := instants[kv.CommitTime]; in != nil {
					kv.CompletionTime, kv.Action, kv.Archived = in.CompletionTime, in.Action, in.Archived
					kv.Operation = in.Operation
					if kv.Operation == "" && timeline.IsWriteAction(in.Action) && in.State == timeline.Completed {
						if cm, err := t.Commit(ctx, in); err == nil {
							kv.Operation = cm.OperationType
						}
					}
				}
				found = append(found, kv)
			}
		}
		if len(found) == 0 {
			continue
		}
		loc := KeyLocation{Partition: g.Partition, FileID: g.FileID, Bucket: -1, Replaced: gi >= live}
		if m := bucketFileID.FindStringSubmatch(g.FileID); m != nil && st.Method == KeyByBucket {
			loc.Bucket, _ = strconv.Atoi(m[1])
		}
		st.Locations = append(st.Locations, loc)
		if gi >= live { // a replaced group: a snapshot does not read it
			st.Versions = append(st.Versions, found...)
			continue
		}
		// The current value: the merged slice a snapshot read takes, this group alone.
		one := &filegroup.View{Partitions: []*filegroup.Partition{{Path: g.Partition, FileGroups: []*filegroup.FileGroup{g}}}, Source: view.Source}
		stats, err := SnapshotBatches(ctx, t, tl, one, noMDT, SnapshotQuery{RowColumns: RowColumns{All: true}}, func(b *records.Batch) error {
			for i := range b.Len() {
				if b.Key(i) == q.Key {
					r := b.Record(i)
					st.Current = &r
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		for _, p := range stats.Problems {
			problems.AddOnce(p.File, p.Err)
		}
		if st.Current != nil && (st.Current.Partition == g.Partition || st.Current.Partition == "") {
			markCurrent(found, *st.Current, g)
		}
		st.Versions = append(st.Versions, found...)
		for _, n := range stats.Notes {
			if !slices.Contains(st.Notes, n) {
				st.Notes = append(st.Notes, n)
			}
		}
	}
	if CDCMode(t) != "" {
		// Every change image of the active timeline's writes, kept when before or after is the key.
		cs, err := Changes(ctx, t, tl, ChangesQuery{Begin: "earliest"}, func(c records.Change) error {
			if imageKey(c.Before, t.Config.RecordKeys) == q.Key || imageKey(c.After, t.Config.RecordKeys) == q.Key {
				if q.Partition == "" || c.Partition == q.Partition {
					st.Changes = append(st.Changes, c)
				}
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("CDC images: %w", err)
		}
		for _, p := range cs.Problems {
			problems.AddOnce(p.File, p.Err)
		}
	}
	// Oldest write first across groups (a replaced group's versions are older than the
	// clustering that replaced it); versions of one write keep their group order.
	sort.SliceStable(st.Versions, func(a, b int) bool {
		return timeline.CompareInstants(st.Versions[a].CommitTime, st.Versions[b].CommitTime) < 0
	})
	if noMeta {
		st.Notes = append(st.Notes, "the table does not populate meta fields (hoodie.populate.meta.fields=false): a base-file row's commit is the write of its file, which may have copied it unchanged")
	}
	switch {
	case st.Current != nil:
		st.Status = "current"
	case len(st.Versions) > 0:
		st.Status = "deleted"
	}
	st.Problems = problems.List()
	return st, nil
}

// locateKey picks the file groups among all that may hold q.Key, filling st's Method, How,
// GroupsPruned and Notes.
func locateKey(ctx context.Context, t *hudi.Table, tl *timeline.Timeline, all []*filegroup.FileGroup, noMDT bool, q KeyQuery, st *KeyStory, problems *problem.Log) ([]*filegroup.FileGroup, error) {
	var groups []*filegroup.FileGroup
	switch {
	case q.Scan:
		st.Method = KeyByScan
		groups = all
		st.How = fmt.Sprintf("--scan: the record keys of all %d file groups were read", len(groups))
	case !noMDT && metadata.HasRecordIndex(t.Config):
		st.Method = KeyByRecordIndex
		loc, read, err := metadata.LookupRecordIndex(ctx, t.Store, tl, q.Key)
		if err != nil {
			return nil, fmt.Errorf("record index: %w", err)
		}
		if loc == nil {
			st.How = fmt.Sprintf("the metadata table's record index does not hold the key (%d of its file groups read)", read)
		} else {
			st.How = fmt.Sprintf("the metadata table's record index places it in %s file group %s (index file group %s, written at %s)", partLabel(loc.Partition), loc.FileID, loc.IndexFileGroup, loc.Instant)
			for _, g := range all {
				if g.Partition == loc.Partition && g.FileID == loc.FileID {
					groups = append(groups, g)
				}
			}
			if len(groups) == 0 && q.Partition == "" {
				st.Notes = append(st.Notes, fmt.Sprintf("the record index names file group %s in %s, which the file view does not have", loc.FileID, partLabel(loc.Partition)))
			}
		}
		st.GroupsPruned = len(all) - len(groups)
	case isBucketed(all):
		st.Method = KeyByBucket
		n, inferred := q.Buckets, false
		if n <= 0 {
			n, inferred = inferBuckets(all), true
		}
		b, err := bucketOf(q.Key, t.Config.RecordKeys, n)
		if err != nil {
			return nil, err
		}
		prefix := fmt.Sprintf("%08d-", b)
		for _, g := range all {
			if strings.HasPrefix(g.FileID, prefix) {
				groups = append(groups, g)
			}
		}
		st.How = fmt.Sprintf("the hash of %s mod %d buckets is bucket %d (file ids %s…)", strings.Join(t.Config.RecordKeys, ","), n, b, prefix)
		if inferred {
			st.Notes = append(st.Notes, fmt.Sprintf("the bucket count (hoodie.bucket.index.num.buckets) is not recorded in the table: %d is the highest bucket number in the file ids plus one; pass --buckets when some buckets were never written", n))
		}
		st.Notes = append(st.Notes, "the bucket hash fields (hoodie.bucket.index.hash.field) are taken to be the record key fields, the writer's default")
		st.GroupsPruned = len(all) - len(groups)
	default:
		st.Method = KeyByScan
		withFilter, pruned := 0, 0
		for _, g := range all {
			s, _ := g.Merged()
			if s == nil {
				continue
			}
			keep, filtered := mayHoldKey(ctx, t, g, q.Key, problems)
			if filtered {
				withFilter++
			}
			if keep {
				groups = append(groups, g)
			} else {
				pruned++
			}
		}
		st.GroupsPruned = pruned
		if withFilter > 0 {
			st.Method = KeyByBloom
			st.How = fmt.Sprintf("base-file footers (bloom filters, min/max record keys) ruled out %d of %d file groups; the other %d were read", pruned, len(all), len(groups))
		} else {
			st.How = fmt.Sprintf("no index to consult: the record keys of all %d file groups were read", len(groups))
		}
	}
	return groups, nil
}

// mayHoldKey says whether g may hold key: false only when every slice is a base file alone
// whose footer (bloom filter, key range) rules the key out; a log file may hold any key.
// filtered says a footer was consulted.
func mayHoldKey(ctx context.Context, t *hudi.Table, g *filegroup.FileGroup, key string, problems *problem.Log) (keep, filtered bool) {
	for _, sl := range g.Slices {
		if sl.Base == nil || len(sl.Logs) > 0 {
			return true, filtered
		}
		ft, err := bloom.ReadFooter(ctx, t.Store, sl.Base.Path)
		if err != nil || ft.Filter == nil && !ft.HasRange {
			if err != nil {
				problems.Add(t.Store.Root()+"/"+sl.Base.Path, err.Error())
			}
			return true, filtered
		}
		filtered = true
		if ft.MayHold(key) {
			return true, true
		}
	}
	return false, filtered
}

// replacedHolding are the file groups of view's partitions (part only, when set) that a
// clustering or insert-overwrite replaced but whose files remain until a clean, and that may
// hold key: the index knows live groups only, and these hold older versions.
func replacedHolding(ctx context.Context, t *hudi.Table, view *filegroup.View, part, key string, problems *problem.Log) []*filegroup.FileGroup {
	var out []*filegroup.FileGroup
	for _, p := range view.Partitions {
		if part != "" && p.Path != part {
			continue
		}
		for _, g := range p.Replaced {
			if keep, _ := mayHoldKey(ctx, t, g, key, problems); keep {
				out = append(out, g)
			}
		}
	}
	return out
}

// markCurrent marks the version the snapshot returns: the newest one of cur's write in the
// merged slice of g (the latest slice, or the two across a pending compaction).
func markCurrent(vs []KeyVersion, cur records.Record, g *filegroup.FileGroup) {
	merged, _ := g.Merged()
	for i := len(vs) - 1; i >= 0; i-- {
		v := &vs[i]
		if v.Deleted || cur.CommitTime != "" && v.CommitTime != cur.CommitTime {
			continue
		}
		if merged != nil && v.SliceInstant != merged.BaseInstant && v.SliceInstant != g.Latest().BaseInstant {
			continue
		}
		v.Current = true
		return
	}
}

// partitionGroups are view's live file groups, of one partition when part is set.
func partitionGroups(view *filegroup.View, part string) []*filegroup.FileGroup {
	var out []*filegroup.FileGroup
	for _, p := range view.Partitions {
		if part != "" && p.Path != part {
			continue
		}
		out = append(out, p.FileGroups...)
	}
	return out
}

// isBucketed says whether every file group's id is a bucket's (and there is one).
func isBucketed(groups []*filegroup.FileGroup) bool {
	for _, g := range groups {
		if !bucketFileID.MatchString(g.FileID) {
			return false
		}
	}
	return len(groups) > 0
}

// inferBuckets is the highest bucket number among groups plus one.
func inferBuckets(groups []*filegroup.FileGroup) int {
	n := 0
	for _, g := range groups {
		if m := bucketFileID.FindStringSubmatch(g.FileID); m != nil {
			b, _ := strconv.Atoi(m[1])
			n = max(n, b+1)
		}
	}
	return n
}

// bucketOf is Hudi's BucketIdentifier.getBucketId for a key and the hash fields: the Java
// List<String>.hashCode of the hash fields' values (the key itself for a single-field key;
// each field's value from a composite "f1:v1,f2:v2" key), & Integer.MAX_VALUE, mod n.
func bucketOf(key string, fields []string, n int) (int, error) {
	if n <= 0 {
		return 0, fmt.Errorf("bucket index: no bucket count")
	}
	vals := []string{key}
	if strings.Contains(key, ":") {
		pairs := map[string]string{}
		for _, p := range strings.Split(key, ",") {
			f, v, _ := strings.Cut(p, ":")
			pairs[f] = v
		}
		vals = vals[:0]
		for _, f := range fields {
			vals = append(vals, pairs[f])
		}
	}
	h := int32(1)
	for _, v := range vals {
		h = 31*h + metadata.JavaStringHash(v)
	}
	return int(h&0x7fffffff) % n, nil
}

// imageKey is a CDC image's record key: its _hoodie_record_key, else (a .cdc log's image holds
// the data columns only) the key fields' values as the key generator writes them.
func imageKey(img map[string]any, fields []string) string {
	if img == nil {
		return ""
	}
	if k, ok := img[records.RecordKey].(string); ok && k != "" {
		return k
	}
	if len(fields) == 1 {
		return records.Text(img[fields[0]])
	}
	parts := make([]string, len(fields))
	for i, f := range fields {
		parts[i] = f + ":" + records.Text(img[f])
	}
	return strings.Join(parts, ",")
}

// partLabel names a partition path for a message ("" is the non-partitioned table's).
func partLabel(p string) string {
	if p == "" {
		return `partition ""`
	}
	return "partition " + p
}
