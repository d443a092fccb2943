package model

import (
	"context"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hudiscope/hudiscope/analyzers/findings"
	"github.com/hudiscope/hudiscope/hudi/tableconfig"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// FindingsResult is the findings engine's result (Snapshot.Findings).
type FindingsResult = findings.Result

// AppliedChange is a catalog row whose keys differ between the event log and the compared
// one, verified on the two (Snapshot.Applied).
type AppliedChange = findings.Applied

// FindingsInput points the findings engine at a snapshot's parts.
func FindingsInput(s *Snapshot) findings.Input {
	in := findings.Input{Config: s.Effective, EventLog: s.EventLog, Layout: s.Layout, Health: s.Health,
		TableConfig: s.Config, Timeline: s.Timeline, View: s.View, TablePath: s.Options.Location}
	var origins []string
	if s.Options.Props != "" {
		origins = append(origins, s.Options.Props)
	}
	if len(s.Options.HoodieConf) > 0 {
		origins = append(origins, "--hoodie-conf")
	}
	in.PropsPresent = len(origins) > 0
	in.PropsOrigin = strings.Join(origins, " + ")
	return in
}

// findingsTimeline is the snapshot's timeline with the commit metadata the findings read per
// file decoded where a compact timeline (the explorer's) kept only sums: the commits of the
// latest base files (record estimate) and, newest first, the commits up to the first one that
// carries a writer schema (schema width). Those instants are copies: the published ones may
// be on screen. An eagerly read timeline is returned as it is.
func findingsTimeline(ctx context.Context, s *Snapshot) *timeline.Timeline {
	tl := s.Timeline
	if tl == nil || s.table == nil {
		return tl
	}
	compact := func(in *timeline.Instant) bool {
		return in.HasWrites() && in.Commit == nil && in.IsCompleted() && timeline.IsWriteAction(in.Action)
	}
	need := map[string]bool{}
	if s.View != nil {
		for _, p := range s.View.Partitions {
			for _, g := range p.FileGroups {
				if sl := g.Latest(); sl != nil && sl.Base != nil {
					need[sl.Base.Instant] = true
				}
			}
		}
	}
	byReq := append([]*timeline.Instant(nil), tl.Instants...)
	sort.SliceStable(byReq, func(i, j int) bool {
		return timeline.CompareInstants(byReq[i].RequestedTime, byReq[j].RequestedTime) > 0
	})
	decoded := map[*timeline.Instant]*timeline.CommitMetadata{}
	load := func(in *timeline.Instant) *timeline.CommitMetadata {
		if cm, ok := decoded[in]; ok {
			return cm
		}
		cm, err := s.table.Commit(ctx, in)
		if err != nil {
			cm = nil // as an unreadable commit of an eager timeline: skipped
		}
		decoded[in] = cm
		return cm
	}
	for _, in := range byReq {
		if !findingsWrite(in, s.table.Config.Type) {
			continue
		}
		cm := in.Commit
		if cm == nil && compact(in) {
			cm = load(in)
		}
		if cm != nil && cm.ExtraMetadata["schema"] != "" {
			break
		}
	}
	var todo []*timeline.Instant
	for _, in := range tl.Instants {
		if _, done := decoded[in]; !done && need[in.RequestedTime] && compact(in) {
			todo = append(todo, in)
		}
	}
	// Up to one commit per file group (10k on a 10k-file table): read on every core.
	cms := make([]*timeline.CommitMetadata, len(todo))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(todo)) {
		wg.Go(func() {
			for k := int(next.Add(1) - 1); k < len(todo); k = int(next.Add(1) - 1) {
				if cm, err := s.table.Commit(ctx, todo[k]); err == nil {
					cms[k] = cm
				}
			}
		})
	}
	wg.Wait()
	for k, in := range todo {
		decoded[in] = cms[k] // nil: unreadable, as an eager timeline's: skipped
	}
	if len(decoded) == 0 {
		return tl
	}
	out := *tl
	out.Instants = make([]*timeline.Instant, len(tl.Instants))
	for i, in := range tl.Instants {
		out.Instants[i] = in
		if cm := decoded[in]; cm != nil {
			cp := *in
			cp.Commit = cm
			out.Instants[i] = &cp
		}
	}
	return &out
}

// findingsWrite mirrors the writes the findings' facts count: completed commits that are not
// compaction or clustering.
func findingsWrite(in *timeline.Instant, tableType string) bool {
	return in.IsCompleted() && in.IsDataWrite(tableType)
}

// maxFooterCount bounds the footers the findings read to count records (one read per file
// group): beyond it the commit-metadata estimate stands, as the sizing text says.
const maxFooterCount = 2000

// findingsRecords is the table's record count for the findings' sizing figures: the layout's
// total when it counted rows, else, where the layout analysis ran, the latest base files'
// Parquet footers (a bounded read).
// On Merge-on-Read the footers count base files only, and the source says so.
func findingsRecords(ctx context.Context, s *Snapshot) (*int64, string) {
	if s.Layout != nil && s.Layout.TotalRecords != nil {
		return s.Layout.TotalRecords, "the layout analyzer's row counts (latest base files' Parquet footers)"
	}
	// Only where the layout analysis ran (report, explorer): a fleet row reads no file.
	if s.table == nil || s.View == nil || s.Layout == nil {
		return nil, ""
	}
	n := 0
	for _, p := range s.View.Partitions {
		n += len(p.FileGroups)
	}
	if n == 0 || n > maxFooterCount {
		return nil, ""
	}
	var total int64
	for _, c := range RowCounts(ctx, s.table, s.View) {
		if c == nil {
			return nil, "" // a footer could not be read: no count, not a partial one
		}
		total += *c
	}
	src := "the latest base files' Parquet footers"
	if s.Config != nil && s.Config.Type == tableconfig.MergeOnRead {
		src += " (base files only: records still in log files are not counted)"
	}
	return &total, src
}
