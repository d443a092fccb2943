package findings

import (
	"encoding/json"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/tableconfig"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// TableFacts are the table.* measurements the catalog rows read, derived from hoodie.properties,
// the timeline's commit metadata and the file-system view. Catalog paths name a fact by its
// JSON field names (table.commits.updateShare is Commits.UpdateShare); they are resolved
// against this struct when the catalog loads, so a misspelled fact fails there.
//
// Every value is a measurement. A fact that cannot be derived is nil (a nil pointer, or a nil
// slice), never zero-filled: a row must be able to tell "none" from "unknown".
type TableFacts struct {
	// From hoodie.properties: nil without it.
	Type        *string `json:"type"`
	Version     *int    `json:"version"`
	Partitioned *bool   `json:"partitioned"`
	// MDTPartitions are the metadata-table partitions; empty (not nil) when there are none.
	MDTPartitions []string `json:"mdtPartitions"`

	// The rest needs a timeline.
	Instants    InstantFacts    `json:"instants"`
	Commits     CommitFacts     `json:"commits"`
	Updates     UpdateFacts     `json:"updates"`
	Clustering  ClusteringFacts `json:"clustering"`
	Compactions ServiceFacts    `json:"compactions"`
	Cleans      CleanFacts      `json:"cleans"`
	Savepoints  *int            `json:"savepoints"` // completed
	Rollbacks   *int            `json:"rollbacks"`  // completed
	Records     RecordFacts     `json:"records"`
	Schema      SchemaFacts     `json:"schema"`
}

// InstantFacts count the timeline's instants.
type InstantFacts struct {
	Active *int `json:"active"` // instants on the active timeline
}

// CommitFacts describe the completed write commits (commit, deltacommit, replacecommit that
// are not compaction or clustering), archived and active.
type CommitFacts struct {
	Count           *int     `json:"count"`
	NumWrites       *float64 `json:"numWrites"`
	NumInserts      *float64 `json:"numInserts"`
	NumUpdateWrites *float64 `json:"numUpdateWrites"`
	NumDeletes      *float64 `json:"numDeletes"`
	BytesWritten    *float64 `json:"bytesWritten"`
	// UpdateShare is updates / (inserts + updates).
	UpdateShare *float64 `json:"updateShare"`
	// UpdateCommits are the commits with at least one update.
	UpdateCommits *int `json:"updateCommits"`
	// WriteAmplification is records rewritten per record inserted or updated, over the
	// commits with updates.
	WriteAmplification *float64 `json:"writeAmplification"`
	// RecordsPerCommit is inserts + updates + deletes per commit.
	RecordsPerCommit RecordsPerCommit `json:"recordsPerCommit"`
	// NewFileGroupShare is the share of the recent commits' write stats that created their file
	// group (numWrites == numInserts, no prevCommit): an insert-only, append-shaped workload.
	NewFileGroupShare *float64 `json:"newFileGroupShare"`
	// DominantOperation is the most frequent write operation, lower case.
	DominantOperation *string `json:"dominantOperation"`
	// UpdatedFileGroupShare is the mean share of live file groups an update commit touched (0
	// when no commit updated; nil without a file-system view).
	UpdatedFileGroupShare *float64 `json:"updatedFileGroupShare"`
	// BytesPerPartitionCommit is the mean bytes one write commit wrote into one partition:
	// what a batch brings to a partition, for the small-file limit to compare with.
	BytesPerPartitionCommit *float64 `json:"bytesPerPartitionCommit"`
}

// RecordsPerCommit summarises the records each write commit changed.
type RecordsPerCommit struct {
	Mean   *float64 `json:"mean"`
	Median *float64 `json:"median"`
	CV     *float64 `json:"cv"` // coefficient of variation
	// Growth is the mean of the newest third of commits over the mean of the oldest third.
	Growth *float64 `json:"growth"`
}

// UpdateFacts say where updates land.
type UpdateFacts struct {
	// NewestPartitionShare is the share of updates landing in the newest tenth of partitions
	// (by name: time-ordered partition keys sort by time).
	NewestPartitionShare *float64 `json:"newestPartitionShare"`
}

// ClusteringFacts count clustering instants.
type ClusteringFacts struct {
	Completed *int `json:"completed"`
	Pending   *int `json:"pending"`
	// PendingPlanBytes is the largest requested plan among the pending ones: 0 when none is
	// pending (a measurement, not an unknown).
	PendingPlanBytes *int64 `json:"pendingPlanBytes"`
}

// ServiceFacts count a table service's instants.
type ServiceFacts struct {
	Completed *int `json:"completed"`
	Pending   *int `json:"pending"`
	// DeltaCommitsSince counts the completed delta commits after the last completed compaction
	// (all of them when none completed); SecondsSince spans from the last compaction (or the
	// first delta commit) to the newest delta commit. Merge-on-Read tables only.
	DeltaCommitsSince *int     `json:"deltaCommitsSince"`
	SecondsSince      *float64 `json:"secondsSince"`
}

// CleanFacts count clean instants.
type CleanFacts struct {
	Completed *int `json:"completed"`
	// CommitsSince counts the completed write commits after the last completed clean, not
	// counting clustering replacecommits.
	CommitsSince *int `json:"commitsSince"`
}

// RecordFacts estimate the table's record count.
type RecordFacts struct {
	Estimate *float64 `json:"estimate"`
	// Source says where Estimate came from (printed with the estimate).
	Source   *string  `json:"source"`
	AvgBytes *float64 `json:"avgBytes"` // latest base files' bytes per record
}

// SchemaFacts measure the newest writer schema's top-level fields.
type SchemaFacts struct {
	Columns       *int `json:"columns"`
	StringColumns *int `json:"stringColumns"`
}

func ptr[T any](v T) *T { return &v }

// DeriveTableFacts computes the facts from whichever parts are present (each may be nil).
func DeriveTableFacts(tc *tableconfig.Config, tl *timeline.Timeline, view *filegroup.View) *TableFacts {
	f := &TableFacts{}
	if tc != nil {
		f.Type = ptr(tc.Type)
		f.Version = ptr(tc.Version)
		f.Partitioned = ptr(len(tc.PartitionKeys) > 0)
		f.MDTPartitions = append([]string{}, tc.MetadataParts...)
	}
	if tl == nil {
		return f
	}
	instants := append(append([]*timeline.Instant(nil), tl.Archived...), tl.Instants...)
	sort.SliceStable(instants, func(i, j int) bool {
		return timeline.CompareInstants(instants[i].RequestedTime, instants[j].RequestedTime) < 0
	})
	f.Instants.Active = ptr(len(tl.Instants))
	var writes []*timeline.Instant
	var clusteringDone, clusteringPending, compactDone, compactPending, cleans, savepoints, rollbacks int
	var pendingPlanBytes int64
	ops := map[string]int{}
	tt := tableType(f)
	for _, in := range instants {
		clustering := in.IsClustering()
		switch {
		case clustering && in.IsCompleted():
			clusteringDone++
		case clustering:
			clusteringPending++
			for _, e := range in.Files {
				if pf, ok := timeline.ParseInstantFileName(e.Name); ok && pf.State == timeline.Requested && e.Size > pendingPlanBytes {
					pendingPlanBytes = e.Size
				}
			}
		case in.IsCompaction(tt):
			if in.IsCompleted() {
				compactDone++
			} else {
				compactPending++
			}
		case in.IsClean() && in.IsCompleted():
			cleans++
		case in.IsSavepoint() && in.IsCompleted():
			savepoints++
		case in.IsRollback() && in.IsCompleted():
			rollbacks++
		case isWrite(in, tt) && in.IsCompleted():
			writes = append(writes, in)
			if in.Operation != "" {
				ops[strings.ToLower(in.Operation)]++
			}
		}
	}
	f.Clustering.Completed, f.Clustering.Pending = ptr(clusteringDone), ptr(clusteringPending)
	f.Compactions.Completed, f.Compactions.Pending = ptr(compactDone), ptr(compactPending)
	f.Cleans.Completed, f.Savepoints, f.Rollbacks = ptr(cleans), ptr(savepoints), ptr(rollbacks)
	f.Clustering.PendingPlanBytes = ptr(pendingPlanBytes)
	serviceCadence(f, instants)
	for _, in := range writes {
		if !in.MetadataLoaded() {
			// Commit metadata not read (a fleet row reads instants lazily): its totals would
			// be zeros, not measurements, and without the operation a compaction commit
			// passes for a write, so every fact drawn from the writes stays unknown.
			f.Cleans.CommitsSince = nil
			return f
		}
	}
	f.Commits.Count = ptr(len(writes))
	if len(writes) == 0 {
		return f
	}
	var w, ins, upd, del, bytes float64
	var updW, updChanged float64
	updCommits := 0
	var perCommit []float64
	var fgShares []float64
	liveGroups := 0
	if view != nil {
		liveGroups = view.NumFileGroups()
	}
	updByPart := map[string]float64{}
	for _, in := range writes {
		t := in.Totals
		w += float64(t.NumWrites)
		ins += float64(t.NumInserts)
		upd += float64(t.NumUpdateWrites)
		del += float64(t.NumDeletes)
		bytes += float64(t.TotalBytesWritten)
		perCommit = append(perCommit, float64(t.NumInserts+t.NumUpdateWrites+t.NumDeletes))
		if t.NumUpdateWrites > 0 {
			updCommits++
			updW += float64(t.NumWrites)
			updChanged += float64(t.NumInserts + t.NumUpdateWrites)
			if parts, ok := in.Writes(); ok && liveGroups > 0 {
				touched := 0
				for _, p := range parts {
					touched += p.UpdatedFiles
				}
				fgShares = append(fgShares, float64(touched)/float64(liveGroups))
			}
		}
		// Per-partition sums (Instant.Writes): a compact timeline keeps them for every
		// commit without keeping the metadata.
		parts, _ := in.Writes()
		for _, p := range parts {
			updByPart[p.Partition] += float64(p.NumUpdateWrites)
		}
	}
	c := &f.Commits
	c.NumWrites, c.NumInserts, c.NumUpdateWrites = ptr(w), ptr(ins), ptr(upd)
	c.NumDeletes, c.BytesWritten, c.UpdateCommits = ptr(del), ptr(bytes), ptr(updCommits)
	if ins+upd > 0 {
		c.UpdateShare = ptr(upd / (ins + upd))
	}
	if updChanged > 0 {
		c.WriteAmplification = ptr(updW / updChanged)
	}
	switch {
	case len(fgShares) > 0:
		c.UpdatedFileGroupShare = ptr(mean(fgShares))
	case updCommits == 0 && liveGroups > 0:
		// No commit updated anything: no file group was rewritten by an update.
		c.UpdatedFileGroupShare = ptr(0.0)
	}
	var perPart []float64
	for _, in := range writes {
		parts, _ := in.Writes()
		for _, p := range parts {
			perPart = append(perPart, float64(p.TotalWriteBytes))
		}
	}
	if len(perPart) > 0 {
		c.BytesPerPartitionCommit = ptr(mean(perPart))
	}
	m := mean(perCommit)
	c.RecordsPerCommit.Mean = ptr(m)
	c.RecordsPerCommit.Median = ptr(median(perCommit))
	if m > 0 && len(perCommit) > 1 {
		var ss float64
		for _, v := range perCommit {
			ss += (v - m) * (v - m)
		}
		c.RecordsPerCommit.CV = ptr(math.Sqrt(ss/float64(len(perCommit))) / m)
	}
	if n := len(perCommit) / 3; n >= 1 {
		first, last := mean(perCommit[:n]), mean(perCommit[len(perCommit)-n:])
		if first > 0 {
			c.RecordsPerCommit.Growth = ptr(last / first)
		}
	}
	best, bestN := "", 0
	for op, n := range ops {
		if n > bestN || (n == bestN && op < best) {
			best, bestN = op, n
		}
	}
	if best != "" {
		c.DominantOperation = ptr(best)
	}
	// New file groups in the recent commits: an append-only workload (nothing to clean) shows
	// here first.
	recent := writes
	if len(recent) > 10 {
		recent = recent[len(recent)-10:]
	}
	var stats, fresh float64
	for _, in := range recent {
		parts, _ := in.Writes()
		for _, p := range parts {
			stats += float64(p.Files)
			fresh += float64(p.NewFiles)
		}
	}
	if stats > 0 {
		c.NewFileGroupShare = ptr(fresh / stats)
	}
	// Updates in the newest partitions (time-ordered keys): the newest tenth by name.
	if upd > 0 && len(updByPart) > 0 && view != nil && len(view.Partitions) > 1 {
		names := make([]string, 0, len(view.Partitions))
		for _, p := range view.Partitions {
			names = append(names, p.Path)
		}
		sort.Strings(names)
		n := max(1, len(names)/10)
		var newest float64
		for _, p := range names[len(names)-n:] {
			newest += updByPart[p]
		}
		f.Updates.NewestPartitionShare = ptr(newest / upd)
	}
	// Record count: the latest base file's numWrites in the commit that wrote it.
	recs, src := recordEstimate(writes, view)
	if recs < 0 {
		recs, src = ins-del, "commit metadata (inserts − deletes over the timeline read)"
	}
	if recs >= 0 {
		f.Records.Estimate = ptr(recs)
		f.Records.Source = ptr(src)
		if view != nil && recs > 0 {
			var total int64
			for _, p := range view.Partitions {
				for _, g := range p.FileGroups {
					if s := g.Latest(); s != nil && s.Base != nil {
						total += s.Base.Size
					}
				}
			}
			if total > 0 {
				f.Records.AvgBytes = ptr(float64(total) / recs)
			}
		}
	}
	if cols, strs, ok := schemaWidth(writes); ok {
		f.Schema.Columns, f.Schema.StringColumns = ptr(cols), ptr(strs)
	}
	return f
}

// tableType is the facts' table type ("" when the table config was not read).
func tableType(f *TableFacts) string {
	if f.Type == nil {
		return ""
	}
	return *f.Type
}

// isWrite: a commit that is not a compaction or log compaction (clustering included: the
// cadence counts it as a commit).
func isWrite(in *timeline.Instant, tableType string) bool {
	return timeline.IsWriteAction(in.Action) && !in.IsCompaction(tableType) && !in.IsLogCompaction()
}

func recordEstimate(writes []*timeline.Instant, view *filegroup.View) (float64, string) {
	if view == nil {
		return -1, ""
	}
	byCommit := map[string]*timeline.Instant{}
	for _, in := range writes {
		byCommit[in.RequestedTime] = in
	}
	var total float64
	found := 0
	for _, p := range view.Partitions {
		for _, g := range p.FileGroups {
			s := g.Latest()
			if s == nil || s.Base == nil {
				continue
			}
			in := byCommit[s.Base.Instant]
			if in == nil || in.Commit == nil {
				return -1, ""
			}
			hit := false
			for _, st := range in.Commit.PartitionToWriteStats[p.Path] {
				if st.FileID == g.FileID {
					total += float64(st.NumWrites)
					hit = true
					break
				}
			}
			if !hit {
				return -1, ""
			}
			found++
		}
	}
	if found == 0 {
		return -1, ""
	}
	return total, "latest base files' numWrites in commit metadata"
}

// schemaWidth counts the top-level fields of the newest commit's writer schema.
func schemaWidth(writes []*timeline.Instant) (cols, strs int, ok bool) {
	for i := len(writes) - 1; i >= 0; i-- {
		c := writes[i].Commit
		if c == nil || c.ExtraMetadata["schema"] == "" {
			continue
		}
		var sch struct {
			Fields []struct {
				Type json.RawMessage `json:"type"`
			} `json:"fields"`
		}
		if json.Unmarshal([]byte(c.ExtraMetadata["schema"]), &sch) != nil {
			return 0, 0, false
		}
		for _, fl := range sch.Fields {
			cols++
			if strings.Contains(string(fl.Type), `"string"`) {
				strs++
			}
		}
		return cols, strs, true
	}
	return 0, 0, false
}

func mean(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	var s float64
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	c := append([]float64(nil), v...)
	sort.Float64s(c)
	return c[len(c)/2]
}

// serviceCadence counts the writes since the last clean and, on Merge-on-Read, the delta
// commits since the last compaction (instants sorted by requested time).
func serviceCadence(f *TableFacts, instants []*timeline.Instant) {
	lastClean, lastCompact := -1, -1
	for i, in := range instants {
		if !in.IsCompleted() {
			continue
		}
		switch {
		case in.IsClean():
			lastClean = i
		case in.IsCompaction(tableType(f)):
			lastCompact = i
		}
	}
	writesSince := 0
	for _, in := range instants[lastClean+1:] {
		// A clustering replacecommit is not a write the cleaner trails: inline clustering
		// lands after the clean of the write that scheduled it, so counting it reads a
		// cleaner one commit "behind" on every clustered table (OBS-016's noise).
		if isWrite(in, tableType(f)) && in.IsCompleted() && !in.IsClustering() {
			writesSince++
		}
	}
	f.Cleans.CommitsSince = ptr(writesSince)
	if f.Type == nil || *f.Type != "MERGE_ON_READ" {
		return
	}
	n, first, last := 0, "", ""
	if lastCompact >= 0 {
		first = instants[lastCompact].RequestedTime
	}
	for _, in := range instants[lastCompact+1:] {
		if in.IsDeltaCommit() && in.IsCompleted() {
			n++
			if first == "" {
				first = in.RequestedTime
			}
			last = in.RequestedTime
		}
	}
	f.Compactions.DeltaCommitsSince = ptr(n)
	if a, ok := timeline.ParseInstantTime(first, time.UTC); ok && last != "" {
		if b, ok := timeline.ParseInstantTime(last, time.UTC); ok {
			f.Compactions.SecondsSince = ptr(b.Sub(a).Seconds())
		}
	}
}
