package view

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hudiscope/hudiscope/analyzers/findings"
	"github.com/hudiscope/hudiscope/hudi/tableconfig"
	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/model"
)

// InstantMeasureOf reads the measures `verify` compares (findings.InstantMeasures) at the
// instant arg names (a requested or completion time, TIME.ACTION, or "latest") on s's timeline
// (active, and archived when s read it). An instant that is absent, ambiguous, not completed or
// whose metadata cannot be read gives no measure: its Unknown says why.
func InstantMeasureOf(ctx context.Context, s *model.Snapshot, arg string) *findings.InstantMeasure {
	m := &findings.InstantMeasure{Instant: arg, Values: map[string]float64{}, Why: map[string]string{}}
	all := s.Timeline.All()
	found := FindInstant(all, arg)
	switch {
	case len(found) == 0:
		m.Unknown = fmt.Sprintf("no instant %s on the timeline", arg)
		return m
	case len(found) > 1:
		var names []string
		for _, f := range found {
			names = append(names, f.In.RequestedTime+"."+f.In.Action)
		}
		m.Unknown = fmt.Sprintf("%s matches %d instants (%s): name one as TIME.ACTION", arg, len(found), strings.Join(names, ", "))
		return m
	}
	in := found[0].In
	m.Instant = in.RequestedTime + "." + in.Action
	if !in.IsCompleted() {
		m.Unknown = fmt.Sprintf("%s is %s, not completed", m.Instant, strings.ToLower(string(in.State)))
		return m
	}
	tableType := ""
	if s.Config != nil {
		tableType = s.Config.Type
	}
	measureDuration(m, in)
	if timeline.IsWriteAction(in.Action) {
		d, err := s.InstantDetails(ctx, in)
		switch {
		case err != nil:
			m.Unknown = fmt.Sprintf("the metadata of %s cannot be read: %v", m.Instant, err)
			return m
		case d != nil && len(d.Problems) > 0:
			m.Unknown = fmt.Sprintf("the metadata of %s cannot be read: %s", m.Instant, d.Problems[0])
			return m
		case d == nil || d.Commit == nil:
			m.Unknown = fmt.Sprintf("%s has no commit metadata", m.Instant)
			return m
		}
		ws := CommitWriteStats(d.Commit)
		m.Values["instant.filesWritten"] = float64(ws.FileCount)
		m.Values["instant.recordsWritten"] = float64(ws.RecordsWritten)
		if ws.FileSizes.N > 0 {
			m.Values["instant.fileSizeP50"] = ws.FileSizes.P50
		} else {
			m.Why["instant.fileSizeP50"] = m.Instant + " wrote no file"
		}
		if ws.WriteAmplification.OK {
			m.Values["instant.writeAmplification"] = ws.WriteAmplification.Factor
		} else {
			m.Why["instant.writeAmplification"] = m.Instant + " updated no record (write amplification is undefined)"
		}
	} else {
		for _, p := range []string{"instant.filesWritten", "instant.recordsWritten", "instant.fileSizeP50", "instant.writeAmplification"} {
			m.Why[p] = fmt.Sprintf("%s is a %s, not a write", m.Instant, in.Action)
		}
	}
	through := throughInstant(all, in)
	ready := s.StreamCommits(ctx, through, true)
	for i := range through {
		ready(i)
	}
	measureFileGroups(m, through)
	measureDeltaCommits(m, through, tableType)
	measureCleanRetained(ctx, s, m, through)
	return m
}

// measureCleanRetained is the earliest commit to retain of the last completed clean through
// the instant, as Unix epoch milliseconds (instant times read in UTC).
func measureCleanRetained(ctx context.Context, s *model.Snapshot, m *findings.InstantMeasure, through []*timeline.Instant) {
	const p = "instant.cleanRetainedFromEpochMillis"
	for i := len(through) - 1; i >= 0; i-- {
		x := through[i]
		if !x.IsClean() {
			continue
		}
		d, err := s.InstantDetails(ctx, x)
		switch {
		case err != nil:
			m.Why[p] = fmt.Sprintf("the metadata of clean %s cannot be read: %v", x.RequestedTime, err)
		case len(d.Problems) > 0:
			m.Why[p] = fmt.Sprintf("the metadata of clean %s cannot be read: %s", x.RequestedTime, d.Problems[0])
		case d.Clean == nil || d.Clean.EarliestCommitToRetain == "":
			m.Why[p] = fmt.Sprintf("clean %s records no earliest commit to retain (KEEP_LATEST_FILE_VERSIONS)", x.RequestedTime)
		default:
			t, ok := timeline.ParseInstantTime(d.Clean.EarliestCommitToRetain, time.UTC)
			if !ok {
				m.Why[p] = fmt.Sprintf("clean %s: earliest commit to retain %q is not an instant time", x.RequestedTime, d.Clean.EarliestCommitToRetain)
				return
			}
			m.Values[p] = float64(t.UnixMilli())
		}
		return
	}
	m.Why[p] = "no completed clean on the timeline through " + m.Instant
}

// throughInstant are the completed instants of all up to and including in, in timeline order.
func throughInstant(all []*timeline.Instant, in *timeline.Instant) []*timeline.Instant {
	var out []*timeline.Instant
	for _, x := range all {
		if x.IsCompleted() {
			out = append(out, x)
		}
		if x == in {
			break
		}
	}
	return out
}

func measureDuration(m *findings.InstantMeasure, in *timeline.Instant) {
	const p = "instant.durationMillis"
	req, ok1 := timeline.ParseInstantTime(in.RequestedTime, time.UTC)
	done, ok2 := timeline.ParseInstantTime(in.CompletionTime, time.UTC)
	if !ok1 || !ok2 || done.Before(req) {
		m.Why[p] = fmt.Sprintf("%s has no completion time to measure from its request", m.Instant)
		return
	}
	m.Values[p] = float64(done.Sub(req).Milliseconds())
}

// measureFileGroups replays the completed writes through the instant: file groups they
// created (write stats without a previous commit) minus those replacecommits replaced, over
// the timeline s read (verify reads the archived one too). It is unknown when the replaced
// outnumber the created (writes missing from the timeline).
func measureFileGroups(m *findings.InstantMeasure, through []*timeline.Instant) {
	const p = "instant.fileGroups"
	live := 0
	for _, x := range through {
		if !timeline.IsWriteAction(x.Action) {
			continue
		}
		live += x.Totals.FilesAdded
		for _, ids := range x.ReplacedFileIDs {
			live -= len(ids)
		}
	}
	if live < 0 {
		m.Why[p] = "the replacecommits through " + m.Instant + " replace more file groups than the writes on the timeline created: earlier writes were archived"
		return
	}
	m.Values[p] = float64(live)
}

// measureDeltaCommits counts the completed delta commits after the last completed compaction
// through the instant, or since the timeline's start when none completed (as Hudi's compaction
// trigger counts them): a Merge-on-Read table's measure.
func measureDeltaCommits(m *findings.InstantMeasure, through []*timeline.Instant, tableType string) {
	const p = "instant.deltaCommitsSinceCompaction"
	if tableType != tableconfig.MergeOnRead {
		m.Why[p] = "a " + strings.ToLower(strings.ReplaceAll(tableType, "_", "-")) + " table has no delta commits"
		return
	}
	n := 0
	for i := len(through) - 1; i >= 0; i-- {
		x := through[i]
		if x.IsCompaction(tableType) {
			break
		}
		if x.IsDeltaCommit() && !x.IsLogCompaction() {
			n++
		}
	}
	m.Values[p] = float64(n)
}
