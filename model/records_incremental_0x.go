package model

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/records"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// Hudi 0.x reads a merge-on-read table incrementally by a span of commit times, not by a set
// of commits (MergeOnReadIncrementalRelation, 0.11–0.15):
//   - the writes in range are the completed active commits, delta commits and replace
//     commits (compactions included) requested after begin and at or before end;
//   - the file slices are built from the files those writes name in their metadata only, in
//     the partitions they touched, as of the last of them;
//   - a record is returned when its _hoodie_commit_time is after begin and at or before the
//     last write in range.
//
// So a begin older than the active timeline returns the records of archived delta commits
// that an active compaction rewrote into its base files (their commit times are after
// begin), where a set of active commits would drop them. With
// hoodie.datasource.read.incr.fallback.fulltablescan.enable=true and a begin before the
// active timeline (or a file the writes name already cleaned) the latest slices of the whole
// table are read with the same span filter.

// incremental0xMOR is IncrementalBatches for a 0.x reader of a merge-on-read table.
func incremental0xMOR(ctx context.Context, t *hudi.Table, tl *timeline.Timeline, view *filegroup.View, q IncrementalQuery, fn func(*records.Batch) error) (records.Stats, error) {
	var commits []*timeline.Instant // completed commits and delta commits, oldest requested first
	for _, in := range tl.Instants {
		if in.State == timeline.Completed && timeline.IsWriteAction(in.Action) {
			commits = append(commits, in)
		}
	}
	sort.SliceStable(commits, func(a, b int) bool {
		return timeline.CompareInstants(commits[a].RequestedTime, commits[b].RequestedTime) < 0
	})
	if len(commits) == 0 {
		return records.Stats{}, nil
	}
	end := q.End
	if end == "" {
		end = commits[len(commits)-1].RequestedTime
	}
	var in []*timeline.Instant
	for _, c := range commits {
		if timeline.CompareInstants(c.RequestedTime, q.Begin) > 0 && timeline.CompareInstants(c.RequestedTime, end) <= 0 {
			in = append(in, c)
		}
	}
	if len(in) == 0 {
		return records.Stats{}, nil
	}
	first := commits[0].RequestedTime
	startArchived := timeline.CompareInstants(q.Begin, first) < 0
	endArchived := timeline.CompareInstants(end, first) < 0
	upTo := in[len(in)-1].RequestedTime
	if endArchived {
		upTo = end
	}
	o := q.options(t)
	o.CommitAfter, o.CommitUpTo = q.Begin, upTo
	fallback := q.Fallback != nil && *q.Fallback

	src := hudi.ListingAuto
	if q.NoMDT {
		src = hudi.ListingStorage
	}
	parts, err := t.ListPartitions(ctx, tl, src)
	if err != nil {
		return records.Stats{}, err
	}
	affected, missing, err := affectedFiles(ctx, t, in, parts)
	if err != nil {
		return records.Stats{}, err
	}
	if fallback && (startArchived || endArchived || len(missing) > 0) {
		// The full table scan: the latest slices of every partition, the same span filter.
		return records.ScanBatches(ctx, t, tl, view, o, fn)
	}
	if len(missing) > 0 {
		return records.Stats{}, ErrRowsUnknown{fmt.Sprintf("Hudi 0.x's incremental read from %s needs %d file(s) the writes in range name that are no longer on storage (e.g. %s, cleaned): Spark fails reading them unless hoodie.datasource.read.incr.fallback.fulltablescan.enable=true", q.Begin, len(missing), missing[0])}
	}
	inTL := &timeline.Timeline{Instants: in, ByRequested: tl.ByRequested}
	return records.ScanBatches(ctx, t, inTL, t.BuildView(ctx, inTL, affected, filegroup.SourceStorage), o, fn)
}

// affectedFiles keeps, of the listed files, those the writes name in their commit metadata
// (HoodieInputFormatUtils.listAffectedFilesForCommits); missing are named files not listed.
func affectedFiles(ctx context.Context, t *hudi.Table, writes []*timeline.Instant, parts map[string][]storage.Entry) (map[string][]storage.Entry, []string, error) {
	named := map[string]bool{}
	for _, w := range writes {
		d, err := t.Details(ctx, w)
		if err != nil || d.Commit == nil {
			return nil, nil, ErrRowsUnknown{fmt.Sprintf("the metadata of %s %s cannot be read, so the files Hudi 0.x's incremental read takes from it are unknown (%v)", w.Action, w.RequestedTime, err)}
		}
		for _, stats := range d.Commit.PartitionToWriteStats {
			for _, st := range stats {
				if st.Path != "" {
					named[strings.TrimPrefix(st.Path, "/")] = true
				}
			}
		}
	}
	out := map[string][]storage.Entry{}
	seen := map[string]bool{}
	for p, files := range parts {
		for _, f := range files {
			rel := f.Name
			if p != "" {
				rel = p + "/" + f.Name
			}
			if named[rel] {
				out[p] = append(out[p], f)
				seen[rel] = true
			}
		}
	}
	var missing []string
	for n := range named {
		if !seen[n] {
			missing = append(missing, n)
		}
	}
	sort.Strings(missing)
	return out, missing, nil
}
