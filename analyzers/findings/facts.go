package findings

import (
	"encoding/json"
	"math"
	"sort"
	"strings"

	"github.com/hudiscope/hudiscope/hudi"
)

// TableFacts derives the table.* measurements the rows read from hoodie.properties, the
// timeline's commit metadata and the file-system view. Every value is a measurement (counts,
// sums, shares); a fact that cannot be derived is left out, never zero-filled.
//
//	table.type, table.version, table.partitioned, table.mdtPartitions
//	table.instants.active
//	table.commits.count|numWrites|numInserts|numUpdateWrites|numDeletes|bytesWritten
//	table.commits.updateShare            updates / (inserts + updates)
//	table.commits.updateCommits          commits with at least one update
//	table.commits.writeAmplification     records rewritten per record inserted or updated, in commits with updates
//	table.commits.recordsPerCommit.mean|median|cv|growth   growth = mean of the newest third / oldest third
//	table.commits.newFileGroupShare      share of recent write stats that created their file group (numWrites == numInserts, no prevCommit)
//	table.commits.dominantOperation      the most frequent write operation (lower case)
//	table.commits.updatedFileGroupShare  mean share of live file groups an update commit touched
//	table.updates.newestPartitionShare   share of updates landing in the newest tenth of partitions
//	table.clustering.completed|pending|pendingPlanBytes
//	table.compactions.completed|pending, table.cleans.completed, table.savepoints, table.rollbacks
//	table.records.estimate|source, table.records.avgBytes
//	table.schema.columns|stringColumns
func TableFacts(tc *hudi.TableConfig, tl *hudi.Timeline, view *hudi.FileSystemView) map[string]any {
	f := map[string]any{}
	if tc != nil {
		f["type"] = tc.Type
		f["version"] = float64(tc.Version)
		f["partitioned"] = len(tc.PartitionKeys) > 0
		parts := make([]any, len(tc.MetadataParts))
		for i, p := range tc.MetadataParts {
			parts[i] = p
		}
		f["mdtPartitions"] = parts
	}
	if tl == nil {
		return f
	}
	instants := append(append([]*hudi.Instant(nil), tl.Archived...), tl.Instants...)
	sort.SliceStable(instants, func(i, j int) bool {
		return hudi.CompareInstants(instants[i].RequestedTime, instants[j].RequestedTime) < 0
	})
	f["instants.active"] = float64(len(tl.Instants))
	var writes []*hudi.Instant
	counts := map[string]float64{}
	var pendingPlanBytes int64
	ops := map[string]int{}
	for _, in := range instants {
		clustering := isClustering(in)
		switch {
		case clustering && in.IsCompleted():
			counts["clustering.completed"]++
		case clustering:
			counts["clustering.pending"]++
			for _, e := range in.Files {
				if pf, ok := hudi.ParseInstantFileName(e.Name); ok && pf.State == hudi.Requested && e.Size > pendingPlanBytes {
					pendingPlanBytes = e.Size
				}
			}
		case in.Action == hudi.ActionCompaction || (in.Action == hudi.ActionCommit && strings.EqualFold(in.Operation, "compact")):
			if in.IsCompleted() {
				counts["compactions.completed"]++
			} else {
				counts["compactions.pending"]++
			}
		case in.Action == hudi.ActionClean && in.IsCompleted():
			counts["cleans.completed"]++
		case in.Action == hudi.ActionSavepoint && in.IsCompleted():
			counts["savepoints"]++
		case in.Action == hudi.ActionRollback && in.IsCompleted():
			counts["rollbacks"]++
		case isWrite(in) && in.IsCompleted():
			writes = append(writes, in)
			if in.Operation != "" {
				ops[strings.ToLower(in.Operation)]++
			}
		}
	}
	for _, k := range []string{"clustering.completed", "clustering.pending", "compactions.completed", "compactions.pending", "cleans.completed", "savepoints", "rollbacks"} {
		f[k] = counts[k]
	}
	if counts["clustering.pending"] > 0 {
		f["clustering.pendingPlanBytes"] = float64(pendingPlanBytes)
	}
	f["commits.count"] = float64(len(writes))
	if len(writes) == 0 {
		return f
	}
	var w, ins, upd, del, bytes float64
	var updW, updChanged, updCommits float64
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
			if in.Commit != nil && liveGroups > 0 {
				touched := 0
				for _, stats := range in.Commit.PartitionToWriteStats {
					for _, s := range stats {
						if s.NumUpdateWrites > 0 {
							touched++
						}
					}
				}
				fgShares = append(fgShares, float64(touched)/float64(liveGroups))
			}
		}
		if in.Commit != nil {
			for part, stats := range in.Commit.PartitionToWriteStats {
				for _, s := range stats {
					updByPart[part] += float64(s.NumUpdateWrites)
				}
			}
		}
	}
	f["commits.numWrites"], f["commits.numInserts"], f["commits.numUpdateWrites"] = w, ins, upd
	f["commits.numDeletes"], f["commits.bytesWritten"], f["commits.updateCommits"] = del, bytes, updCommits
	if ins+upd > 0 {
		f["commits.updateShare"] = upd / (ins + upd)
	}
	if updChanged > 0 {
		f["commits.writeAmplification"] = updW / updChanged
	}
	if len(fgShares) > 0 {
		f["commits.updatedFileGroupShare"] = mean(fgShares)
	}
	m := mean(perCommit)
	f["commits.recordsPerCommit.mean"] = m
	f["commits.recordsPerCommit.median"] = median(perCommit)
	if m > 0 && len(perCommit) > 1 {
		var ss float64
		for _, v := range perCommit {
			ss += (v - m) * (v - m)
		}
		f["commits.recordsPerCommit.cv"] = math.Sqrt(ss/float64(len(perCommit))) / m
	}
	if n := len(perCommit) / 3; n >= 1 {
		first, last := mean(perCommit[:n]), mean(perCommit[len(perCommit)-n:])
		if first > 0 {
			f["commits.recordsPerCommit.growth"] = last / first
		}
	}
	best, bestN := "", 0
	for op, n := range ops {
		if n > bestN || (n == bestN && op < best) {
			best, bestN = op, n
		}
	}
	if best != "" {
		f["commits.dominantOperation"] = best
	}
	// New file groups in the recent commits (OBS-019's decisive check).
	recent := writes
	if len(recent) > 10 {
		recent = recent[len(recent)-10:]
	}
	var stats, fresh float64
	for _, in := range recent {
		if in.Commit == nil {
			continue
		}
		for _, ss := range in.Commit.PartitionToWriteStats {
			for _, s := range ss {
				stats++
				if s.NumWrites == s.NumInserts && (s.PrevCommit == "" || s.PrevCommit == "null") {
					fresh++
				}
			}
		}
	}
	if stats > 0 {
		f["commits.newFileGroupShare"] = fresh / stats
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
		f["updates.newestPartitionShare"] = newest / upd
	}
	// Record count: the latest base file's numWrites in the commit that wrote it.
	recs, src := recordEstimate(writes, view)
	if recs < 0 {
		recs, src = ins-del, "commit metadata (inserts − deletes over the timeline read)"
	}
	if recs >= 0 {
		f["records.estimate"] = recs
		f["records.source"] = src
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
				f["records.avgBytes"] = float64(total) / recs
			}
		}
	}
	if cols, strs, ok := schemaWidth(writes); ok {
		f["schema.columns"], f["schema.stringColumns"] = float64(cols), float64(strs)
	}
	return f
}

func isClustering(in *hudi.Instant) bool {
	if in.Action == hudi.ActionClustering || in.PlanAction == hudi.ActionClustering {
		return true
	}
	return in.Action == hudi.ActionReplaceCommit && strings.EqualFold(in.Operation, "cluster")
}

func isWrite(in *hudi.Instant) bool {
	switch in.Action {
	case hudi.ActionCommit, hudi.ActionDeltaCommit, hudi.ActionReplaceCommit:
		return !strings.EqualFold(in.Operation, "compact") && !strings.EqualFold(in.Operation, "log_compact")
	}
	return false
}

func recordEstimate(writes []*hudi.Instant, view *hudi.FileSystemView) (float64, string) {
	if view == nil {
		return -1, ""
	}
	byCommit := map[string]*hudi.Instant{}
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
func schemaWidth(writes []*hudi.Instant) (cols, strs int, ok bool) {
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
