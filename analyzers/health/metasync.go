package health

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// MetaSync is the catalog check's name. It is not in CheckNames: the Java checker has no
// such check, so it runs only when the table is known to a catalog (Input.Catalog) or is
// asked for by name, and single-table reports keep the Java tool's seven checks.
const MetaSync = "meta-sync"

// Catalog table parameters Hudi's meta sync (HiveSyncTool, AwsGlueCatalogSyncTool) writes;
// HoodieMetaSyncOperations.HOODIE_LAST_COMMIT_TIME_SYNC and
// HOODIE_LAST_COMMIT_COMPLETION_TIME_SYNC (1.x).
const (
	ParamLastCommitTimeSync           = "last_commit_time_sync"
	ParamLastCommitCompletionTimeSync = "last_commit_completion_time_sync"
)

// Catalog is what a metastore (Glue, HMS) says about the table: what Athena, Presto and Hive
// readers see.
type Catalog struct {
	// Name is database.table.
	Name string
	// Parameters are the catalog table's parameters (last_commit_time_sync among them).
	Parameters map[string]string
	// Partitions are the catalog partitions as table-relative paths ("dt=2024-01-01"); nil
	// with PartitionsErr when they could not be read.
	Partitions    []string
	PartitionsErr error
	// Partitioned: the catalog table has partition keys.
	Partitioned bool
}

// metaSyncShown caps the partition names a finding lists.
const metaSyncShown = 10

func (c *ctx) metaSync() (Check, Band, error) {
	cat := c.in.Catalog
	if cat == nil {
		return skipped(MetaSync, "The table is not known to a catalog here; open it with --glue to compare the catalog with the table"), notApplicable, nil
	}
	ch := Check{Name: MetaSync, EffectiveConfigs: Configs{{"observed.catalog.table", cat.Name}}}
	writes := filter(c.instants(), func(i *timeline.Instant) bool { return isCommitsTimeline(i) && completed(i) })
	latest := last(writes)
	synced, hasSync := cat.Parameters[ParamLastCommitTimeSync]
	latestName := "none"
	if latest != nil {
		latestName = latest.RequestedTime
	}
	var behind []*timeline.Instant
	switch {
	case !hasSync:
		behind = writes
	default:
		behind = after(writes, synced)
	}
	syncedName := synced
	if !hasSync {
		syncedName = "never"
	}
	ch.EffectiveConfigs = append(ch.EffectiveConfigs, KV{"observed.catalog." + ParamLastCommitTimeSync, syncedName},
		KV{"observed.data.table.latest.completed.instant", latestName}, KV{"observed.data.table.writes.behind", itoa(int64(len(behind)))})
	var lag time.Duration
	if len(behind) > 0 && latest != nil {
		// How long readers have missed data: since the first write the catalog has not seen.
		if t := completedAt(behind[0], c.in.Zone); !t.IsZero() && c.in.Now.After(t) {
			lag = c.in.Now.Sub(t).Truncate(time.Second)
		}
	}
	if lag > 0 {
		ch.EffectiveConfigs = append(ch.EffectiveConfigs, KV{"observed.sync.lag.seconds", itoa(int64(lag / time.Second))})
	}
	var missing, extra []string
	compared := false
	switch {
	case cat.PartitionsErr != nil:
		c.notes = append(c.notes, fmt.Sprintf("meta-sync: the catalog partitions could not be read (%v); only sync lag was judged", cat.PartitionsErr))
	case c.in.Partitions == nil:
		c.notes = append(c.notes, "meta-sync: the table's partitions were not listed; only sync lag was judged")
	case !cat.Partitioned:
		// An unpartitioned catalog table has no partition list to drift.
	default:
		compared = true
		missing, extra = diffPartitions(c.in.Partitions, cat.Partitions)
	}
	if compared {
		ch.EffectiveConfigs = append(ch.EffectiveConfigs, KV{"observed.table.partitions", itoa(int64(len(c.in.Partitions)))},
			KV{"observed.catalog.partitions", itoa(int64(len(cat.Partitions)))},
			KV{"observed.partitions.missing.from.catalog", itoa(int64(len(missing)))},
			KV{"observed.partitions.dropped.but.in.catalog", itoa(int64(len(extra)))})
	}
	b := Band{Measure: "completed writes the catalog has not synced", Observed: i64(int64(len(behind))), Threshold: i64(0)}
	if len(behind) == 0 && len(missing) == 0 && len(extra) == 0 {
		ch.Status, b.State = Healthy, OnTrack
		ch.Summary = fmt.Sprintf("Catalog %s is synced to %s, the latest completed write", cat.Name, syncedName)
		if latest == nil {
			ch.Summary = fmt.Sprintf("Catalog %s: the table has no completed write yet", cat.Name)
		}
		if compared {
			ch.Summary += fmt.Sprintf("; its %d partition(s) match the table", len(cat.Partitions))
		}
		return ch, b, nil
	}
	ch.Status, b.State = Unhealthy, Stopped
	var parts []string
	if len(behind) > 0 {
		s := fmt.Sprintf("sync %d completed write(s) behind", len(behind))
		if lag > 0 {
			s += " (" + lag.String() + ")"
		}
		parts = append(parts, s)
		what := "last synced " + syncedName
		if !hasSync {
			what = "the catalog table has no " + ParamLastCommitTimeSync + " parameter (never synced by Hudi)"
		}
		ch.Findings = append(ch.Findings, fmt.Sprintf("Readers through the catalog (Athena, Presto, Hive) see the table as of %s; "+
			"the latest completed write is %s, %d write(s) later. Look for meta-sync errors in the writer's log "+
			"(hoodie.datasource.meta.sync.enable, hoodie.datasource.hive_sync.*) or run the sync tool once.", what, latestName, len(behind)))
	}
	if len(missing) > 0 {
		parts = append(parts, fmt.Sprintf("%d partition(s) missing from the catalog", len(missing)))
		ch.Findings = append(ch.Findings, fmt.Sprintf("Partitions in the table but not in the catalog (readers through the catalog do not see their rows): %s",
			listNames(missing)))
	}
	if len(extra) > 0 {
		parts = append(parts, fmt.Sprintf("%d partition(s) the table dropped are still in the catalog", len(extra)))
		ch.Findings = append(ch.Findings, fmt.Sprintf("Partitions in the catalog that the table no longer holds (queries scan empty or stale locations): %s",
			listNames(extra)))
	}
	ch.Summary = fmt.Sprintf("Catalog %s: %s", cat.Name, strings.Join(parts, "; "))
	return ch, b, nil
}

// completedAt is when an instant completed (its requested time when the completion is unknown).
func completedAt(i *timeline.Instant, zone *time.Location) time.Time {
	if !i.Ended.IsZero() {
		return i.Ended
	}
	if t, ok := timeline.ParseInstantTime(i.CompletionTime, zone); ok {
		return t
	}
	if !i.Started.IsZero() {
		return i.Started
	}
	t, _ := timeline.ParseInstantTime(i.RequestedTime, zone)
	return t
}

// diffPartitions compares the table's partitions (those with live file groups) with the
// catalog's, both table-relative paths.
func diffPartitions(table, catalog []string) (missing, extra []string) {
	in := func(list []string) map[string]bool {
		m := make(map[string]bool, len(list))
		for _, p := range list {
			m[strings.Trim(p, "/")] = true
		}
		return m
	}
	t, k := in(table), in(catalog)
	for p := range t {
		if !k[p] {
			missing = append(missing, p)
		}
	}
	for p := range k {
		if !t[p] {
			extra = append(extra, p)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	return missing, extra
}

func listNames(names []string) string {
	if len(names) <= metaSyncShown {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:metaSyncShown], ", ") + fmt.Sprintf(" and %d more", len(names)-metaSyncShown)
}
