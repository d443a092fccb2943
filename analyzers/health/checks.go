package health

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/tableconfig"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// Writer property keys the checks read.
const (
	keyTriggerStrategy = "hoodie.compact.inline.trigger.strategy"
	keyMaxDeltaCommits = "hoodie.compact.inline.max.delta.commits"
	keyMaxDeltaSeconds = "hoodie.compact.inline.max.delta.seconds"
	keyCleanTrigger    = "hoodie.clean.trigger.max.commits"
	keyCleanPolicy     = "hoodie.clean.policy"
	keyCleanRetained   = "hoodie.clean.commits.retained"
	keyAutoClean       = "hoodie.clean.automatic"
	keyKeepMax         = "hoodie.keep.max.commits"
	keyMetadataEnable  = "hoodie.metadata.enable"
	keyMDTMaxDelta     = "hoodie.metadata.compact.max.delta.commits"
	keyRLIPartitioned  = "hoodie.metadata.record.level.index.enable"
	keyRLIGlobalMin    = "hoodie.metadata.global.record.level.index.min.filegroup.count"
	keyRLIGlobalMax    = "hoodie.metadata.global.record.level.index.max.filegroup.count"
	keyRLIPartMin      = "hoodie.metadata.record.level.index.min.filegroup.count"
	keyRLIPartMax      = "hoodie.metadata.record.level.index.max.filegroup.count"
	keyRLIMaxBytes     = "hoodie.metadata.record.index.max.filegroup.size"
	keyRLIGrowth       = "hoodie.metadata.record.index.growth.factor"
)

const (
	compactionSlack   = 2.0
	cleanerSlack      = 2.0
	cleanerFloor      = 5
	staleSavepointDay = 7
	archivalSlack     = 1.1
	maxActiveInstants = 5000
	mdtSampleMax      = 20
	rliAvgRecordSize  = 48
	rliMinRatio       = 0.5
	rliSizeSlack      = 1.5
)

var triggerStrategies = map[string]bool{"NUM_COMMITS": true, "NUM_COMMITS_AFTER_LAST_REQUEST": true, "TIME_ELAPSED": true, "NUM_OR_TIME": true, "NUM_AND_TIME": true}

func (c *ctx) compaction() (Check, Band, error) {
	const name = "compaction"
	if c.in.TableType != tableconfig.MergeOnRead {
		return skipped(name, "Table is Copy-on-Write, which has no compaction"), notApplicable, nil
	}
	if k, miss := c.firstMissing(keyTriggerStrategy, keyMaxDeltaCommits); miss {
		return c.skipForMissing(name, k), Band{}, nil
	}
	strategy := c.get(keyTriggerStrategy, false)
	if !triggerStrategies[strategy] {
		//lint:ignore ST1005 the Java tool's exception message, reproduced for JSON compatibility
		return Check{}, Band{}, fmt.Errorf("No enum constant org.apache.hudi.table.action.compact.CompactionTriggerStrategy.%s", strategy)
	}
	maxDelta, err := parseInt(c.get(keyMaxDeltaCommits, false))
	if err != nil {
		return Check{}, Band{}, err
	}
	maxSecs, err := parseInt(c.get(keyMaxDeltaSeconds, false))
	if err != nil {
		return Check{}, Band{}, err
	}
	all := c.instants()
	sc, ok := deltaCommitsSinceLatestCompaction(all, c.in.Archived)
	expected := c.expectedDeltaCommits(strategy, maxDelta, maxSecs, all, sc.compaction)
	threshold := slack(compactionSlack, expected)
	ch := Check{Name: name, EffectiveConfigs: Configs{{keyTriggerStrategy, strategy}, {keyMaxDeltaCommits, itoa(maxDelta)},
		{keyMaxDeltaSeconds, itoa(maxSecs)}, {"effective.unhealthy.threshold.delta.commits", itoa(threshold)}}}
	if !ok {
		ch.Status = Healthy
		ch.Summary = "No delta commits have landed yet; nothing for compaction to fall behind on"
		return ch, band("delta commits since last compaction", 0, expected, threshold, true), nil
	}
	n := int64(len(sc.deltas))
	pending := int64(len(filter(all, isPendingCompaction)))
	lastName := "none"
	if sc.compaction != nil {
		lastName = sc.compaction.RequestedTime
	}
	ch.EffectiveConfigs = append(ch.EffectiveConfigs, KV{"observed.delta.commits.since.last.compaction", itoa(n)},
		KV{"observed.pending.compactions", itoa(pending)}, KV{"observed.last.compaction.instant", lastName})
	since := sc.since(c.in.ArchiveRead)
	b := band("delta commits since last compaction", n, expected, threshold, true)
	if n <= threshold {
		ch.Status = Healthy
		ch.Summary = fmt.Sprintf("%d delta commit(s) since %s, within the threshold of %d", n, since, threshold)
		return ch, b, nil
	}
	ch.Status = Unhealthy
	ch.Summary = fmt.Sprintf("%d delta commit(s) have accumulated since %s, past the threshold of %d", n, since, threshold)
	ch.Findings = append(ch.Findings, fmt.Sprintf("Trigger strategy %s expects compaction roughly every %d delta commit(s); %d have accumulated.", strategy, expected, n))
	if pending > 0 {
		ch.Findings = append(ch.Findings, fmt.Sprintf("%d compaction(s) are already scheduled but not complete -- compaction is being scheduled "+
			"and not executed. Check that an async compactor is running and not failing.", pending))
	} else {
		ch.Findings = append(ch.Findings, "No compaction is scheduled. Check that compaction is enabled for this table "+
			"and that the scheduling job is running.")
	}
	return ch, b, nil
}

func (c *ctx) expectedDeltaCommits(strategy string, maxDelta, maxSecs int64, all []*timeline.Instant, lastCompleted *timeline.Instant) int64 {
	completedDeltas := filter(all, func(i *timeline.Instant) bool { return isDelta(i) && completed(i) })
	windowStart := timeline.FormatInstantTime(c.in.Now.Add(-time.Duration(maxSecs)*time.Second), c.in.Zone)
	inWindow := int64(len(after(completedDeltas, windowStart)))
	switch strategy {
	case "NUM_COMMITS_AFTER_LAST_REQUEST":
		lastRequested := last(filter(all, isPendingCompaction))
		if lastCompleted != nil && lastRequested != nil {
			between := filter(completedDeltas, func(i *timeline.Instant) bool {
				return timeline.CompareInstants(i.RequestedTime, lastCompleted.RequestedTime) > 0 &&
					timeline.CompareInstants(i.RequestedTime, lastRequested.RequestedTime) <= 0
			})
			return int64(len(between)) + maxDelta
		}
		return maxDelta
	case "TIME_ELAPSED":
		return inWindow
	case "NUM_OR_TIME":
		return min(inWindow, maxDelta)
	case "NUM_AND_TIME":
		return max(inWindow, maxDelta)
	}
	return maxDelta
}

func (c *ctx) cleaner() (Check, Band, error) {
	const name = "cleaner"
	trigger, skip, err := c.requiredInt(name, keyCleanTrigger)
	if skip != nil || err != nil {
		return deref(skip), Band{}, err
	}
	threshold := max(slack(cleanerSlack, trigger), cleanerFloor)
	all := c.instants()
	writes := filter(all, func(i *timeline.Instant) bool { return isCommitsTimeline(i) && completed(i) })
	cleans := filter(all, func(i *timeline.Instant) bool { return i.IsClean() })
	lastClean := last(filter(cleans, completed))
	ch := Check{Name: name, EffectiveConfigs: Configs{{keyCleanTrigger, itoa(trigger)}, {"effective.unhealthy.threshold.commits", itoa(threshold)},
		{"observed.completed.write.commits", itoa(int64(len(writes)))}}}
	for _, k := range []string{keyCleanPolicy, keyCleanRetained} {
		if v, ok := c.suppliedExact(k); ok {
			ch.EffectiveConfigs = append(ch.EffectiveConfigs, KV{k, v.Display()})
		}
	}
	var since int64
	if lastClean != nil {
		since = int64(len(after(writes, lastClean.RequestedTime)))
		ch.EffectiveConfigs = append(ch.EffectiveConfigs, KV{"observed.last.clean.instant", lastClean.RequestedTime})
		switch {
		case c.in.LastCleanErr != nil:
			ch.EffectiveConfigs = append(ch.EffectiveConfigs, KV{"observed.last.clean.metadata", "unreadable: " + c.in.LastCleanErr.Error()})
		case c.in.LastClean != nil:
			ch.EffectiveConfigs = append(ch.EffectiveConfigs, KV{"observed.last.clean.earliest.commit.retained", c.in.LastClean.EarliestCommitToRetain},
				KV{"observed.last.clean.files.deleted", itoa(c.in.LastClean.TotalFilesDeleted)})
		default:
			ch.EffectiveConfigs = append(ch.EffectiveConfigs, KV{"observed.last.clean.metadata", "unreadable: no clean metadata"})
		}
	} else {
		since = int64(len(writes))
		ch.EffectiveConfigs = append(ch.EffectiveConfigs, KV{"observed.last.clean.instant", "none"})
	}
	ch.EffectiveConfigs = append(ch.EffectiveConfigs, KV{"observed.commits.since.last.clean", itoa(since)})
	b := band("commits since last clean", since, trigger, threshold, true)
	if since <= threshold {
		ch.Status = Healthy
		if lastClean != nil {
			ch.Summary = fmt.Sprintf("%d commit(s) since clean at %s, within the threshold of %d", since, lastClean.RequestedTime, threshold)
		} else {
			ch.Summary = fmt.Sprintf("%d commit(s) and no clean yet, within the threshold of %d", since, threshold)
		}
		return ch, b, nil
	}
	_, retentionUnknown := c.firstMissingAlt(keyCleanPolicy, keyCleanRetained)
	if lastClean == nil && !retentionUnknown {
		// Hudi's cleaner (CleanerUtils.getEarliestCommitToRetain) keeps the last N completed
		// commits under KEEP_LATEST_COMMITS and plans nothing while the active timeline holds
		// N or fewer; an empty plan leaves no clean instant. Never cleaned is then expected.
		// Only with the retention known: an assumed one would turn "unhealthy" into "fine".
		policy, retained := c.get(keyCleanPolicy, true), c.get(keyCleanRetained, true)
		if n, err := strconv.ParseInt(strings.TrimSpace(retained), 10, 64); err == nil && strings.EqualFold(strings.TrimSpace(policy), "KEEP_LATEST_COMMITS") &&
			int64(len(writes)) <= n {
			ch.Status = Healthy
			ch.Summary = fmt.Sprintf("%d commit(s) and no clean yet: the cleaner keeps the last %d commit(s) (%s) and has nothing to clean "+
				"until the active timeline holds more, so no clean is expected", since, n, c.name(keyCleanRetained))
			ch.EffectiveConfigs = append(ch.EffectiveConfigs, KV{"effective.cleaner.nothing.to.clean.until.commits", itoa(n + 1)})
			b.State = OnTrack
			return ch, b, nil
		}
	}
	ch.Status = Unhealthy
	if lastClean != nil {
		ch.Summary = fmt.Sprintf("%d commit(s) have accumulated since clean at %s, past the threshold of %d", since, lastClean.RequestedTime, threshold)
	} else {
		ch.Summary = fmt.Sprintf("%d commit(s) have accumulated and the table has never been cleaned, past the threshold of %d", since, threshold)
	}
	ch.Findings = append(ch.Findings, fmt.Sprintf("The cleaner is configured to run every %d commit(s); %d have landed without one completing.", trigger, since))
	if len(filter(cleans, func(i *timeline.Instant) bool { return !i.IsCompleted() })) > 0 {
		ch.Findings = append(ch.Findings, "A clean is scheduled or in flight but has not completed. Look for a failing or "+
			"stuck clean in the writer logs; a clean that repeatedly fails to acquire the table lock "+
			"under concurrent writers is a common cause.")
	} else {
		ch.Findings = append(ch.Findings, "No clean is scheduled. Check that cleaning is enabled for this table ("+
			c.name(keyAutoClean)+") and that the job responsible for it is running.")
	}
	if lastClean == nil && retentionUnknown {
		ch.Findings = append(ch.Findings, fmt.Sprintf("Under KEEP_LATEST_COMMITS the cleaner has nothing to clean until the active timeline holds more "+
			"commits than it retains: if %s is %d or more, no clean is expected yet. Supply %s and %s to judge that.",
			c.name(keyCleanRetained), len(writes), c.name(keyCleanPolicy), c.name(keyCleanRetained)))
	}
	return ch, b, nil
}

func (c *ctx) savepoint() (Check, Band, error) {
	const name = "savepoint"
	keep, skip, err := c.requiredInt(name, keyKeepMax)
	if skip != nil || err != nil {
		return deref(skip), Band{}, err
	}
	all := c.instants()
	writes := filter(all, isWriteTimeline)
	sps := filter(all, func(i *timeline.Instant) bool { return i.IsSavepoint() && completed(i) })
	ch := Check{Name: name, EffectiveConfigs: Configs{{keyKeepMax, itoa(keep)}, {"observed.savepoint.count", itoa(int64(len(sps)))}}}
	if len(sps) == 0 {
		ch.Status = Healthy
		ch.Summary = "No savepoints on the table"
		return ch, Band{}, nil
	}
	var times []string
	spSet := map[string]bool{}
	for _, s := range sps {
		times = append(times, s.RequestedTime)
		spSet[s.RequestedTime] = true
	}
	ch.EffectiveConfigs = append(ch.EffectiveConfigs, KV{"observed.savepoints", strings.Join(times, ",")})
	var blocking []string
	if int64(len(writes)) > keep {
		for _, w := range writes[:int64(len(writes))-keep] {
			if spSet[w.RequestedTime] {
				blocking = append(blocking, w.RequestedTime)
			}
		}
	}
	var stale []string
	cut := c.in.Now.Add(-staleSavepointDay * 24 * time.Hour)
	for _, t := range times {
		if d, ok := timeline.ParseInstantTime(t, c.in.Zone); ok && d.Before(cut) {
			stale = append(stale, t)
		}
	}
	if len(stale) > 0 {
		ch.Findings = append(ch.Findings, fmt.Sprintf("Savepoint(s) %s are more than %d days old. If the operation they were taken for is "+
			"finished, delete them so archival can advance.", strings.Join(stale, ", "), staleSavepointDay))
	}
	if len(blocking) == 0 {
		ch.Status = Healthy
		ch.Summary = fmt.Sprintf("%d savepoint(s) present, none older than the archival retention of %d commits", len(sps), keep)
		return ch, Band{}, nil
	}
	ch.Status = Unhealthy
	ch.Summary = fmt.Sprintf("%d savepoint(s) older than the archival retention are blocking archival: %s", len(blocking), strings.Join(blocking, ", "))
	ch.Findings = append(ch.Findings, fmt.Sprintf("Archival stops at the earliest savepoint. The active timeline cannot shrink past %s "+
		"until that savepoint is released.", blocking[0]),
		"Delete the savepoint once the operation it was taken for is complete, using the "+
			"'savepoint delete' command in hudi-cli or SavepointsCommand.")
	return ch, Band{}, nil
}

// archivalRule is how the release line that writes a table archives (HoodieTimelineArchiveLog,
// later HoodieTimelineArchiver, 1.x TimelineArchiverV1/V2). Every line counts the completed
// commits timeline (commit, deltacommit, replacecommit; a completed compaction is a commit, a
// pending compaction or clustering does not count), archives when it holds more than
// hoodie.keep.max.commits (the key has kept its name in every line) down to
// hoodie.keep.min.commits, and never past the oldest pending compaction or replacecommit or the
// first savepoint.
type archivalRule struct {
	Line string
	// Lag is 1 where archival runs on the table as loaded before the commit that triggers it
	// (0.11–0.13 do not reload the timeline; 0.14 added the reload in autoArchiveOnCommit), so
	// right after a write the active timeline holds keep.max+1 completed commits at steady state.
	Lag int64
}

// archivalRuleFor picks the release line from the table version (4: 0.11.x, 5: 0.12–0.13,
// 6: 0.14–0.15, 8: 1.0.x, 9: 1.1+); an unknown version gets the newest rule.
func archivalRuleFor(version int) archivalRule {
	switch {
	case version == 4:
		return archivalRule{"0.11.x (table version 4)", 1}
	case version == 5:
		return archivalRule{"0.12.x-0.13.x (table version 5)", 1}
	case version == 6:
		return archivalRule{"0.14.x-0.15.x (table version 6)", 0}
	case version == 8:
		return archivalRule{"1.0.x (table version 8)", 0}
	case version >= 9:
		return archivalRule{fmt.Sprintf("1.1+ (table version %d)", version), 0}
	}
	return archivalRule{"1.1+ (table version unknown)", 0}
}

// ArchivalMeasure is what the archival check measures on an active timeline: the completed
// commits archival counts against hoodie.keep.max.commits, all completed instants, and the
// steady state and threshold for the table's release line. The watch alert archival-stopped
// uses the same measure so that the alert and the Health pane never disagree.
type ArchivalMeasure struct {
	Counted, Completed int64
	Steady, Threshold  int64
	Rule               string // the release line whose archival rule applied
}

// Behind: over the retention threshold, or over the absolute ceiling of completed instants.
func (m ArchivalMeasure) Behind() bool {
	return m.Counted >= m.Threshold || m.Completed >= maxActiveInstants
}

// MeasureArchival measures instants (an active timeline) against keepMax for tableVersion.
func MeasureArchival(instants []*timeline.Instant, tableVersion int, keepMax int64) ArchivalMeasure {
	rule := archivalRuleFor(tableVersion)
	m := ArchivalMeasure{Steady: keepMax + rule.Lag, Rule: rule.Line}
	m.Threshold = slack(archivalSlack, m.Steady)
	for _, i := range instants {
		if !i.IsCompleted() {
			continue
		}
		m.Completed++
		if isCommitsTimeline(i) {
			m.Counted++
		}
	}
	return m
}

func (c *ctx) archival() (Check, Band, error) {
	const name = "archival"
	keep, skip, err := c.requiredInt(name, keyKeepMax)
	if skip != nil || err != nil {
		return deref(skip), Band{}, err
	}
	rule := archivalRuleFor(c.in.TableVersion)
	all := c.instants()
	m := MeasureArchival(all, c.in.TableVersion, keep)
	completedN, counted, steady, threshold := m.Completed, m.Counted, m.Steady, m.Threshold
	writes := int64(len(filter(all, isWriteTimeline)))
	ch := Check{Name: name, EffectiveConfigs: Configs{{keyKeepMax, itoa(keep)}, {"effective.unhealthy.threshold.write.instants", itoa(threshold)},
		{"effective.absolute.ceiling.completed.instants", itoa(maxActiveInstants)}, {"observed.write.instants", itoa(writes)},
		{"observed.completed.instants", itoa(completedN)}, {"effective.archival.release.line", rule.Line},
		{"effective.steady.state.max.completed.commits", itoa(steady)}, {"observed.completed.commits", itoa(counted)}}}
	b := band("completed commits on the timeline", counted, steady, threshold, false)
	overCeiling := completedN >= maxActiveInstants
	overRetention := counted >= threshold
	if overCeiling {
		b.State = Stopped
	}
	if !overCeiling && !overRetention {
		ch.Status = Healthy
		ch.Summary = fmt.Sprintf("Active timeline holds %d completed commit(s), within the threshold of %d", counted, threshold)
		if rule.Lag > 0 && counted > keep {
			ch.Findings = append(ch.Findings, fmt.Sprintf("%d completed commits against %s=%d is the steady state of Hudi %s: archival runs on "+
				"the timeline as it was before the commit that triggers it, so one commit over the maximum remains after each write.", counted, keyKeepMax, keep, rule.Line))
		}
		return ch, b, nil
	}
	if overCeiling {
		ch.Findings = append(ch.Findings, fmt.Sprintf("The active timeline holds %d completed instants. Past roughly %d, loading and parsing "+
			"the timeline slows down every operation against the table, whatever the configured "+
			"retention allows.", completedN, maxActiveInstants))
	}
	if overRetention {
		f := fmt.Sprintf("The active timeline holds %d completed commits against a configured maximum of %d. Archival "+
			"is not keeping up with ingestion.", counted, keep)
		if rule.Lag > 0 {
			f += fmt.Sprintf(" Hudi %s leaves up to %d right after a write, as it archives before counting that write.", rule.Line, steady)
		}
		ch.Findings = append(ch.Findings, f)
	}
	if p := first(filter(all, func(i *timeline.Instant) bool {
		return !i.IsCompleted() && (i.IsCompaction(c.in.TableType) || i.IsReplaceCommit() || i.IsClustering())
	})); p != nil {
		ch.Findings = append(ch.Findings, fmt.Sprintf("Archival never passes the oldest pending compaction or replacecommit: %s %s (%s) holds "+
			"every commit after it on the active timeline until it completes.", p.Action, p.RequestedTime, strings.ToLower(string(p.State))))
	}
	ch.Status = Unhealthy
	ch.Summary = fmt.Sprintf("Active timeline is not being archived down: %d completed commit(s), %d completed instant(s)", counted, completedN)
	ch.Findings = append(ch.Findings, "Check the 'savepoint' check first -- a savepoint is "+
		"the most common reason archival stalls. Otherwise confirm the archival service is "+
		"running and look for repeated archival failures in the writer logs.")
	return ch, b, nil
}

func (c *ctx) hasMetadataPartition(p string) bool {
	for _, x := range c.in.MetadataPartitions {
		if x == p {
			return true
		}
	}
	return false
}

// mdtAbsent is MetadataTablePresence.reasonAbsent.
func (c *ctx) mdtAbsent() (string, bool) {
	if !c.hasMetadataPartition("files") {
		return "Table has no metadata table (its FILES partition has not been initialized)", true
	}
	if c.in.MDT == nil || !c.in.MDT.Exists {
		return "Metadata table is registered in hoodie.properties but " + strings.TrimSuffix(c.in.BasePath, "/") +
			"/.hoodie/metadata does not exist on storage; the next write will re-initialize it", true
	}
	return "", false
}

func javaBool(s string) bool { return strings.EqualFold(strings.TrimSpace(s), "true") }

func (c *ctx) mdtSync() (Check, Band, error) {
	const name = "mdt-sync"
	if k, miss := c.firstMissing(keyMetadataEnable); miss {
		return c.skipForMissing(name, k), Band{}, nil
	}
	if !javaBool(c.get(keyMetadataEnable, false)) {
		return skipped(name, "Metadata table is disabled for this writer ("+keyMetadataEnable+"=false), so there is nothing to compare against"), notApplicable, nil
	}
	if reason, absent := c.mdtAbsent(); absent {
		return skipped(name, reason), notApplicable, nil
	}
	if c.in.MDT.Timeline == nil {
		return Check{}, Band{}, fmt.Errorf("read metadata table timeline: %v", c.in.MDT.Err)
	}
	ch := Check{Name: name, EffectiveConfigs: Configs{{keyMetadataEnable, "true"}, {"effective.partitions.sampled.max", itoa(mdtSampleMax)}}}
	writes := filter(c.instants(), func(i *timeline.Instant) bool { return isCommitsTimeline(i) && completed(i) })
	latest := "none"
	if l := last(writes); l != nil {
		latest = l.RequestedTime
	}
	synced := "none"
	if l := last(filter(byRequested(c.in.MDT.Timeline.Instants), func(i *timeline.Instant) bool { return isDelta(i) && completed(i) })); l != nil {
		synced = l.RequestedTime
	}
	var behind int64
	switch {
	case latest == "none":
	case synced == "none":
		behind = int64(len(writes))
	default:
		behind = int64(len(after(writes, synced)))
	}
	drift, sampled := c.mdtListingDrift()
	// The summary and the note say whether the listing comparison ran, so neither claims a
	// match that was never checked.
	notCompared := ""
	switch m := c.in.MDT; {
	case m.ListingErr != nil:
		notCompared = fmt.Sprintf("its listing could not be compared with storage: %v", m.ListingErr)
	case m.MDTView == nil || m.FSView == nil:
		why := m.ListingSkipped
		if why == "" {
			why = "no listing of its files partition was read"
		}
		notCompared = "its listing was not compared with storage (" + why + ")"
	}
	if notCompared != "" {
		c.notes = append(c.notes, "mdt-sync: "+notCompared+"; only sync lag was judged")
	}
	ch.EffectiveConfigs = append(ch.EffectiveConfigs, KV{"observed.data.table.latest.completed.instant", latest},
		KV{"observed.mdt.synced.instant", synced}, KV{"observed.data.table.writes.behind", itoa(behind)},
		KV{"observed.partitions.sampled", itoa(int64(sampled))}, KV{"observed.partitions.inconsistent", itoa(int64(len(drift)))})
	b := Band{Measure: "completed data-table writes the metadata table has not applied", Observed: i64(behind), Threshold: i64(0)}
	if behind == 0 && len(drift) == 0 {
		ch.Status = Healthy
		syncedTo := synced
		if synced == "none" {
			syncedTo = "(no data-table writes yet)"
		}
		ch.Summary = fmt.Sprintf("Metadata table is synced to %s and its listing of %d sampled partition(s) matches storage", syncedTo, sampled)
		if notCompared != "" {
			ch.Summary = fmt.Sprintf("Metadata table is synced to %s; %s", syncedTo, notCompared)
		}
		b.State = OnTrack
		return ch, b, nil
	}
	if behind == 0 {
		b.State = Stopped
		ch.Status = Unhealthy
		ch.Summary = fmt.Sprintf("Metadata table listing differs from storage in %d of %d sampled partition(s)", len(drift), sampled)
		ch.Findings = append(ch.Findings, drift...)
		ch.Findings = append(ch.Findings, "The metadata table is up to date by instant but lists different files than storage. "+
			"Validate it with HoodieMetadataTableValidator --validate-latest-file-slices --validate-latest-base-files "+
			"before deciding anything; readers that list through the metadata table see its files, not storage's.")
		return ch, b, nil
	}
	b.State = Stopped
	nothing := func(s string) string {
		if s == "none" {
			return "nothing"
		}
		return s
	}
	ch.Status = Unhealthy
	ch.Findings = append(ch.Findings, fmt.Sprintf("The metadata table is synced to %s but the data table's latest completed write is %s; %d completed "+
		"data-table write(s) are missing from the metadata table. Readers that list through the "+
		"metadata table will not see files from those writes.", nothing(synced), nothing(latest), behind),
		"If a writer is running right now, this can be a write that is still being finalized: "+
			"rerun once it completes. If the metadata table stays behind, look for failed or incomplete "+
			"metadata-table delta commits ('metadata timeline show incomplete' in hudi-cli) and for "+
			"metadata-table errors in the writer logs. Do not delete or rebuild the metadata table for "+
			"lag alone; the next successful write brings it up to date.")
	ch.Summary = fmt.Sprintf("Metadata table is %d completed data-table write(s) behind (synced to %s, latest write %s)", behind, nothing(synced), nothing(latest))
	return ch, b, nil
}

func (c *ctx) mdtCompaction() (Check, Band, error) {
	const name = "mdt-compaction"
	if k, miss := c.firstMissing(keyMetadataEnable, keyMDTMaxDelta); miss {
		return c.skipForMissing(name, k), Band{}, nil
	}
	if !javaBool(c.get(keyMetadataEnable, false)) {
		return skipped(name, "Metadata table is disabled for this writer ("+keyMetadataEnable+"=false), so there is no metadata table to compact"), notApplicable, nil
	}
	if reason, absent := c.mdtAbsent(); absent {
		return skipped(name, reason), notApplicable, nil
	}
	maxDelta, err := parseInt(c.get(keyMDTMaxDelta, false))
	if err != nil {
		return Check{}, Band{}, err
	}
	if c.in.MDT.Timeline == nil {
		return Check{}, Band{}, fmt.Errorf("read metadata table timeline: %v", c.in.MDT.Err)
	}
	threshold := slack(compactionSlack, maxDelta)
	ch := Check{Name: name, EffectiveConfigs: Configs{{keyMetadataEnable, "true"}, {keyMDTMaxDelta, itoa(maxDelta)},
		{"effective.unhealthy.threshold.delta.commits", itoa(threshold)}}}
	mall := byRequested(c.in.MDT.Timeline.Instants)
	sc, ok := deltaCommitsSinceLatestCompaction(mall, nil)
	deltas, lastCompaction := sc.deltas, sc.compaction
	if !ok {
		ch.Status = Healthy
		ch.Summary = "No delta commits have landed on the metadata table yet; nothing for compaction to fall behind on"
		return ch, band("metadata-table delta commits since compaction", 0, maxDelta, threshold, true), nil
	}
	lagStart := "00000000000000"
	if lastCompaction != nil {
		lagStart = lastCompaction.RequestedTime
	} else {
		for _, d := range deltas {
			if _, ok := timeline.ParseInstantTime(d.RequestedTime, c.in.Zone); ok {
				lagStart = d.RequestedTime
				break
			}
		}
	}
	latest := last(deltas)
	n := int64(len(deltas))
	lag := "unknown"
	var lagMin *int64
	if latest != nil {
		from, ok1 := timeline.ParseInstantTime(lagStart, c.in.Zone)
		to, ok2 := timeline.ParseInstantTime(latest.RequestedTime, c.in.Zone)
		if ok1 && ok2 {
			m := int64(to.Sub(from) / time.Minute)
			lagMin = &m
			lag = itoa(m)
		}
	}
	pendingMDT := int64(len(filter(mall, isPendingCompaction)))
	earliestPending := first(filter(c.instants(), func(i *timeline.Instant) bool { return !i.IsCompleted() }))
	lastName, latestName, pendName := "none", "none", "none"
	if lastCompaction != nil {
		lastName = lastCompaction.RequestedTime
	}
	if latest != nil {
		latestName = latest.RequestedTime
	}
	if earliestPending != nil {
		pendName = earliestPending.RequestedTime
	}
	ch.EffectiveConfigs = append(ch.EffectiveConfigs, KV{"observed.mdt.delta.commits.since.compaction", itoa(n)},
		KV{"observed.last.mdt.compaction.instant", lastName}, KV{"observed.latest.mdt.delta.commit.instant", latestName},
		KV{"observed.lag.duration.minutes", lag}, KV{"observed.pending.mdt.compactions", itoa(pendingMDT)},
		KV{"observed.data.table.earliest.pending.instant", pendName})
	since := "the metadata table's first delta commit at " + lagStart
	if lastCompaction != nil {
		since = "compaction at " + lastCompaction.RequestedTime
	}
	duration := ""
	if lagMin != nil {
		duration = fmt.Sprintf(" over roughly %d minute(s)", *lagMin)
	}
	b := band("metadata-table delta commits since compaction", n, maxDelta, threshold, true)
	if n <= threshold {
		ch.Status = Healthy
		ch.Summary = fmt.Sprintf("%d metadata-table delta commit(s) since %s, within the threshold of %d", n, since, threshold)
		return ch, b, nil
	}
	ch.Status = Unhealthy
	ch.Summary = fmt.Sprintf("%d metadata-table delta commit(s) have accumulated since %s%s, past the threshold of %d", n, since, duration, threshold)
	ch.Findings = append(ch.Findings, fmt.Sprintf("The writer is configured to compact the metadata table every %d delta commit(s); %d have accumulated%s. "+
		"Every metadata-table read merges that many log files, and data-table archival cannot advance past "+
		"the last metadata-table compaction.", maxDelta, n, duration))
	if earliestPending != nil {
		ch.Findings = append(ch.Findings, fmt.Sprintf("Data-table instant %s (%s) is pending. Metadata-table compaction runs inline with the data-table writer "+
			"and pins its instant just below the earliest pending data-table instant already applied to the "+
			"metadata table; once a compaction at that pinned instant exists, further attempts are skipped "+
			"until the pending instant completes or is rolled back. Check that instant first: if it belongs to "+
			"a writer that is gone, rolling it back unblocks compaction ('timeline show incomplete' in hudi-cli "+
			"lists it).", earliestPending.RequestedTime, earliestPending.Action))
	} else {
		ch.Findings = append(ch.Findings, "No data-table instant is pending, so nothing is pinning the compaction instant. Confirm the "+
			"writer runs metadata-table table services after its commits, and look in the writer logs for "+
			"'Error in scheduling and executing compaction in metadata table'.")
	}
	if pendingMDT > 0 {
		ch.Findings = append(ch.Findings, fmt.Sprintf("%d compaction(s) are scheduled on the metadata table but not complete ('metadata timeline show incomplete' "+
			"in hudi-cli lists them). The writer re-runs pending metadata-table compactions before its next "+
			"write; repeated failures there point at the writer logs.", pendingMDT))
	}
	ch.Findings = append(ch.Findings, "Do not delete or rebuild the metadata table for this condition; it recovers on its own once compaction runs.")
	return ch, b, nil
}

func first(in []*timeline.Instant) *timeline.Instant {
	if len(in) == 0 {
		return nil
	}
	return in[0]
}

// EstimateFileGroupCount is HoodieTableMetadataUtil.estimateFileGroupCount.
func EstimateFileGroupCount(records int64, avgRecordSize, minCount, maxCount int64, growth float32, maxBytes int64) int64 {
	if minCount == maxCount && minCount != 0 {
		return minCount
	}
	expected := int64(math.Ceil(float64(float32(records) * growth)))
	perGroup := maxBytes / max(avgRecordSize, 1)
	if perGroup == 0 {
		return maxCount
	}
	est := expected / perGroup
	switch {
	case est >= maxCount:
		return maxCount
	case est <= minCount:
		return minCount
	}
	return max(1, est)
}

func javaFloat(f float32) string {
	if float64(f) == math.Trunc(float64(f)) {
		return strconv.FormatFloat(float64(f), 'f', 1, 32)
	}
	return strconv.FormatFloat(float64(f), 'g', -1, 32)
}

func (c *ctx) recordIndex() (Check, Band, error) {
	const name = "record-index"
	if !c.hasMetadataPartition("record_index") {
		return skipped(name, "Table has no record-level index: 'hoodie.table.metadata.partitions' in the table configuration does not list 'record_index'"), notApplicable, nil
	}
	partitioned := false
	if v, ok := c.suppliedAlt(keyRLIPartitioned); ok {
		partitioned = javaBool(v.Raw)
	}
	minKey, maxKey := keyRLIGlobalMin, keyRLIGlobalMax
	if partitioned {
		minKey, maxKey = keyRLIPartMin, keyRLIPartMax
	}
	if k, miss := c.firstMissingAlt(minKey, maxKey, keyRLIMaxBytes, keyRLIGrowth); miss {
		return c.skipForMissing(name, k), Band{}, nil
	}
	minN, err := parseInt(c.get(minKey, true))
	if err != nil {
		return Check{}, Band{}, err
	}
	maxN, err := parseInt(c.get(maxKey, true))
	if err != nil {
		return Check{}, Band{}, err
	}
	gs := c.get(keyRLIGrowth, true)
	g64, err := strconv.ParseFloat(strings.TrimSpace(gs), 32)
	if err != nil {
		//lint:ignore ST1005 the Java tool's exception message, reproduced for JSON compatibility
		return Check{}, Band{}, fmt.Errorf("For input string: \"%s\"", gs)
	}
	growth := float32(g64)
	maxBytes, err := parseLong(c.get(keyRLIMaxBytes, true))
	if err != nil {
		return Check{}, Band{}, err
	}
	ch := Check{Name: name, EffectiveConfigs: Configs{{keyRLIPartitioned, strconv.FormatBool(partitioned)}, {minKey, itoa(minN)}, {maxKey, itoa(maxN)},
		{keyRLIMaxBytes, itoa(maxBytes)}, {keyRLIGrowth, javaFloat(growth)}, {"effective.average.record.size.bytes", itoa(rliAvgRecordSize)}}}
	if maxBytes < rliAvgRecordSize {
		ch.Status = Skipped
		ch.Summary = fmt.Sprintf("'%s' is %d bytes, smaller than the %d-byte average index record the writer sizes with, so no "+
			"file-group count can be estimated. The writer cannot size an index with this value either.", keyRLIMaxBytes, maxBytes, rliAvgRecordSize)
		ch.Findings = []string{}
		return ch, Band{}, nil
	}
	if c.in.MDT == nil || c.in.MDT.RecordIndexErr != nil {
		var e error = fmt.Errorf("metadata table is not readable")
		if c.in.MDT != nil {
			e = c.in.MDT.RecordIndexErr
		}
		return Check{}, Band{}, e
	}
	var groups, bases, logs int64
	var total, largest int64
	largestID := ""
	for _, g := range c.in.MDT.RecordIndex {
		s := g.Latest()
		if s == nil {
			continue
		}
		groups++
		if s.Base != nil {
			bases++
		}
		logs += int64(len(s.Logs))
		sz := s.Size()
		total += sz
		if sz > largest {
			largest, largestID = sz, g.FileID
		}
	}
	maxHealthy := int64(rliSizeSlack * float64(maxBytes))
	ch.EffectiveConfigs = append(ch.EffectiveConfigs, KV{"effective.max.healthy.file.group.bytes", itoa(maxHealthy)},
		KV{"observed.file.group.count", itoa(groups)}, KV{"observed.base.file.count", itoa(bases)}, KV{"observed.log.file.count", itoa(logs)},
		KV{"observed.total.size.bytes", itoa(total)}, KV{"observed.largest.file.group.bytes", itoa(largest)},
		KV{"observed.largest.file.group.id", largestID})
	var compared bool
	var ideal, minHealthy, est int64
	if partitioned && groups > 0 {
		ch.EffectiveConfigs = append(ch.EffectiveConfigs, KV{"effective.count.comparison",
			"skipped: writer configuration says a partitioned record index but the index on storage is global"})
	} else {
		compared = true
		ch.EffectiveConfigs = append(ch.EffectiveConfigs, KV{"effective.count.comparison", "whole index (global record index)"})
		est = total / rliAvgRecordSize
		ideal = EstimateFileGroupCount(est, rliAvgRecordSize, minN, maxN, growth, maxBytes)
		minHealthy = int64(math.Ceil(rliMinRatio * float64(ideal)))
		ch.EffectiveConfigs = append(ch.EffectiveConfigs, KV{"effective.ideal.file.group.count", itoa(ideal)},
			KV{"effective.min.healthy.file.group.count", itoa(minHealthy)}, KV{"observed.estimated.record.count", itoa(est)})
	}
	undersized := compared && groups < minHealthy
	oversized := largest > maxHealthy
	b := Band{Measure: "largest record-index file group bytes", Observed: i64(largest), Trigger: i64(maxBytes), Threshold: i64(maxHealthy)}
	switch {
	case oversized || undersized:
		b.State = Stopped
	case largest > maxBytes:
		b.State = Behind
	default:
		b.State = OnTrack
	}
	if !undersized && !oversized {
		ch.Status = Healthy
		if compared {
			ch.Summary = fmt.Sprintf("Record index has %d file group(s) against an ideal of %d for an estimated %d records; largest "+
				"file group is %d bytes", groups, ideal, est, largest)
		} else {
			ch.Summary = fmt.Sprintf("Record index has %d file group(s); largest file group is %d bytes, within the "+
				"configured maximum. File-group count was not compared against the writer's sizing.", groups, largest)
		}
		return ch, b, nil
	}
	ch.Status = Unhealthy
	if undersized {
		ch.Summary = fmt.Sprintf("Record index has %d file group(s) but the writer's sizing calls for %d (at least %d to be healthy)", groups, ideal, minHealthy)
		ch.Findings = append(ch.Findings, fmt.Sprintf("Record index was initialized with %d file group(s). Its %d bytes on storage put it at an estimated %d records "+
			"(an estimate: index bytes divided by the %d-byte average record the writer sizes with), which "+
			"with the configured growth factor and maximum file-group size calls for %d. Each file group "+
			"holds roughly %.1fx more keys than intended, so index lookups read larger files and every "+
			"index write concentrates on the same few file groups.", groups, total, est, rliAvgRecordSize, ideal, float64(ideal)/float64(max(groups, 1))))
	}
	if oversized {
		if !undersized {
			ch.Summary = fmt.Sprintf("Record index file group %s is %d bytes, past the configured maximum of %d bytes", largestID, largest, maxBytes)
		}
		ch.Findings = append(ch.Findings, fmt.Sprintf("File group %s is %d bytes, past the configured maximum of %d bytes even with %.1fx slack. Compacting "+
			"it takes proportionally longer and every lookup routed to it reads that much more. A file group "+
			"that keeps growing between metadata compactions means the index has too few file groups for "+
			"the table.", largestID, largest, maxBytes, rliSizeSlack))
	}
	ch.Findings = append(ch.Findings, "The file-group count of the record index is fixed when the index is initialized and cannot be "+
		"changed in place. To resize it, re-bootstrap the index: drop it with 'metadata delete-record-index' in "+
		"hudi-cli (or HoodieIndexer --mode dropindex --index-types RECORD_INDEX), correct the sizing "+
		"configuration, then rebuild it with HoodieIndexer --mode scheduleAndExecute --index-types RECORD_INDEX. "+
		"This is disruptive: the record index is unavailable until the rebuild completes, and the drop cannot be "+
		"undone in place. Plan it as a maintenance window.")
	return ch, b, nil
}

// mdtListingDrift compares, for each sampled partition, the latest base-file names and the
// latest slices' log-file names as the metadata table and storage list them (at most 5 names
// per side in a finding).
func (c *ctx) mdtListingDrift() (drift []string, sampled int) {
	m := c.in.MDT
	if m == nil || m.ListingErr != nil || m.MDTView == nil || m.FSView == nil {
		return nil, 0
	}
	names := func(v *filegroup.View) map[string]map[string]bool {
		out := map[string]map[string]bool{}
		for _, p := range v.Partitions {
			set := map[string]bool{}
			for _, g := range p.FileGroups {
				if s := g.Latest(); s != nil {
					if s.Base != nil {
						set[s.Base.Name] = true
					}
					for _, l := range s.Logs {
						set[l.Name] = true
					}
				}
			}
			out[p.Path] = set
		}
		return out
	}
	mv, fv := names(m.MDTView), names(m.FSView)
	for _, p := range m.Sampled {
		onlyMDT, onlyFS := diffNames(mv[p], fv[p]), diffNames(fv[p], mv[p])
		if len(onlyMDT)+len(onlyFS) > 0 {
			label := p
			if label == "" {
				label = "(root)"
			}
			drift = append(drift, fmt.Sprintf("Partition %s: only in the metadata table %v; only on storage %v", label, firstN(onlyMDT, 5), firstN(onlyFS, 5)))
		}
	}
	return drift, len(m.Sampled)
}

func diffNames(a, b map[string]bool) []string {
	var out []string
	for n := range a {
		if !b[n] {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

func firstN(s []string, n int) []string {
	if len(s) > n {
		return append(s[:n:n], fmt.Sprintf("… %d more", len(s)-n))
	}
	return s
}

// requiredInt reads the integer writer property a check is governed by: a SKIPPED check naming
// the key when it was not supplied, an error when it is not a number.
func (c *ctx) requiredInt(name, key string) (int64, *Check, error) {
	if k, miss := c.firstMissing(key); miss {
		ch := c.skipForMissing(name, k)
		return 0, &ch, nil
	}
	v, err := parseInt(c.get(key, false))
	return v, nil, err
}

func deref(c *Check) Check {
	if c == nil {
		return Check{}
	}
	return *c
}
