package health

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/hudi/tableconfig"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

func runVersion(version int, tl []*timeline.Instant, keep int) Check {
	return Run(Input{BasePath: "/t", TableType: tableconfig.MergeOnRead, TableVersion: version, Timeline: &timeline.Timeline{Instants: tl}, Now: now, Zone: time.UTC},
		Options{Checks: []string{"archival"}, Config: cfg(fmt.Sprintf("hoodie.keep.max.commits=%d", keep))}).Checks[0]
}

// Each release line's archiver, at its steady state and when truly behind. 0.11–0.13 archive
// on the timeline loaded before the triggering commit, so keep.max+1 completed commits right
// after a write is normal there and one more is not; 0.14+ reload first, so keep.max is the most.
// A pending compaction plan is never counted (the archiver counts completed commits only).
func TestArchivalFollowsReleaseLine(t *testing.T) {
	const keep = 5
	cases := []struct {
		version     int
		line        string
		steady, bad int // completed delta commits at steady state / truly behind
	}{
		{4, "0.11.x", keep + 1, keep + 2},
		{5, "0.12.x-0.13.x", keep + 1, keep + 2},
		{6, "0.14.x-0.15.x", keep, keep + 1},
		{8, "1.0.x", keep, keep + 1},
		{9, "1.1+", keep, keep + 1},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint("v", c.version), func(t *testing.T) {
			// steady state with a compaction plan pending after the last delta commit
			tl := append(deltas(1, c.steady), pending(c.steady+1, timeline.ActionCompaction, timeline.Requested))
			ch := runVersion(c.version, tl, keep)
			if ch.Status != Healthy || ch.EffectiveConfigs.Get("observed.completed.commits") != fmt.Sprint(c.steady) ||
				!strings.HasPrefix(ch.EffectiveConfigs.Get("effective.archival.release.line"), c.line) {
				t.Errorf("steady state %d commits: %s %s %v", c.steady, ch.Status, ch.Summary, ch.EffectiveConfigs)
			}
			// the Java tool's count (write timeline, pending included) is still reported
			if got := ch.EffectiveConfigs.Get("observed.write.instants"); got != fmt.Sprint(c.steady+1) {
				t.Errorf("observed.write.instants %s", got)
			}
			tl = append(deltas(1, c.bad), pending(c.bad+1, timeline.ActionCompaction, timeline.Requested))
			ch = runVersion(c.version, tl, keep)
			if ch.Status != Unhealthy || !strings.Contains(strings.Join(ch.Findings, " "), "compaction "+ts(c.bad+1)) {
				t.Errorf("behind %d commits: %s %s %v", c.bad, ch.Status, ch.Summary, ch.Findings)
			}
		})
	}
}
