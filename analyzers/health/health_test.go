package health

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/analyzers/config"
	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/tableconfig"
	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/internal/redact"
)

var now = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func ts(n int) string { return fmt.Sprintf("2026030100%04d000", n) } // 17-digit instants, minute/second = n

func done(n int, action string) *timeline.Instant {
	return &timeline.Instant{RequestedTime: ts(n), CompletionTime: ts(n)[:14] + "500", Action: action, State: timeline.Completed}
}

func pending(n int, action string, st timeline.State) *timeline.Instant {
	return &timeline.Instant{RequestedTime: ts(n), Action: action, State: st}
}

func cfg(kv ...string) *config.Effective { return config.New(config.Input{HoodieConf: kv}) }

func run(tt string, tl []*timeline.Instant, c *config.Effective, checks ...string) *Result {
	return Run(Input{BasePath: "/t", TableType: tt, Timeline: &timeline.Timeline{Instants: tl}, Now: now, Zone: time.UTC},
		Options{Checks: checks, Config: c})
}

func deltas(from, n int) []*timeline.Instant {
	var out []*timeline.Instant
	for i := 0; i < n; i++ {
		out = append(out, done(from+i, "deltacommit"))
	}
	return out
}

func TestSkipNamesMissingKeyAndAllSkippedExit0(t *testing.T) {
	r := run(tableconfig.MergeOnRead, deltas(1, 3), cfg())
	for _, c := range r.Checks {
		if c.Status != Skipped {
			t.Errorf("%s %s", c.Name, c.Status)
		}
	}
	if c := r.Check("compaction"); !strings.Contains(c.Summary, "'hoodie.compact.inline.trigger.strategy'") || len(c.EffectiveConfigs) != 0 {
		t.Errorf("skip reason %q", c.Summary)
	}
	if r.OverallStatus != Skipped || r.ExitCode() != 0 {
		t.Errorf("overall %s exit %d", r.OverallStatus, r.ExitCode())
	}
	// --apply-all-defaults on 30 never-cleaned commits → cleaner UNHEALTHY, exit 3.
	var tl []*timeline.Instant
	for i := 1; i <= 30; i++ {
		tl = append(tl, done(i, "commit"))
	}
	r = Run(Input{TableType: tableconfig.CopyOnWrite, Timeline: &timeline.Timeline{Instants: tl}, Now: now, Zone: time.UTC},
		Options{ApplyAllDefaults: true, Config: cfg()})
	if r.Check("cleaner").Status != Unhealthy || r.ExitCode() != 3 {
		t.Errorf("apply-all-defaults cleaner %s", r.Check("cleaner").Status)
	}
	if r.Check("compaction").Summary != "Table is Copy-on-Write, which has no compaction" {
		t.Errorf("COW compaction %q", r.Check("compaction").Summary)
	}
}

func TestCompaction(t *testing.T) {
	c := cfg("hoodie.compact.inline.trigger.strategy=NUM_COMMITS", "hoodie.compact.inline.max.delta.commits=5")
	if r := run(tableconfig.MergeOnRead, deltas(1, 3), c, "compaction"); r.Checks[0].Status != Healthy {
		t.Errorf("3 dc %s", r.Checks[0].Status)
	}
	r := run(tableconfig.MergeOnRead, deltas(1, 25), c, "compaction")
	ch := r.Checks[0]
	if ch.Status != Unhealthy || !strings.HasPrefix(ch.Findings[1], "No compaction is scheduled") ||
		ch.EffectiveConfigs.Get("effective.unhealthy.threshold.delta.commits") != "10" ||
		ch.EffectiveConfigs.Get("observed.delta.commits.since.last.compaction") != "25" {
		t.Errorf("25 dc: %+v", ch)
	}
	if b := r.Hudiscope.Checks[0]; b.State != Stopped || *b.Trigger != 5 || *b.Threshold != 10 {
		t.Errorf("band %+v", b)
	}
	r = run(tableconfig.MergeOnRead, append(deltas(1, 25), pending(26, "compaction", timeline.Requested)), c, "compaction")
	if f := r.Checks[0].Findings[1]; !strings.Contains(f, "scheduled but not complete") {
		t.Errorf("pending plan: %s", f)
	}
	// 25 dc + completed compaction at 26 + 2 dc → 2 since, last 26.
	tl := append(deltas(1, 25), done(26, "commit"))
	tl = append(tl, deltas(27, 2)...)
	ch = run(tableconfig.MergeOnRead, tl, c, "compaction").Checks[0]
	if ch.Status != Healthy || ch.EffectiveConfigs.Get("observed.delta.commits.since.last.compaction") != "2" ||
		ch.EffectiveConfigs.Get("observed.last.compaction.instant") != ts(26) {
		t.Errorf("after compaction: %+v", ch)
	}
	// 7 dc since compaction with trigger 5: behind, not stopped (7 > 5, ≤ 10).
	tl = append(tl, deltas(29, 5)...)
	r = run(tableconfig.MergeOnRead, tl, c, "compaction")
	if b := r.Hudiscope.Checks[0]; r.Checks[0].Status != Healthy || b.State != Behind || *b.Observed != 7 {
		t.Errorf("behind band %+v", b)
	}
	c7 := cfg("hoodie.compact.inline.trigger.strategy=NUM_COMMITS", "hoodie.compact.inline.max.delta.commits=7")
	if v := run(tableconfig.MergeOnRead, deltas(1, 3), c7, "compaction").Checks[0].EffectiveConfigs.Get("effective.unhealthy.threshold.delta.commits"); v != "14" {
		t.Errorf("trigger 7 → %s", v)
	}
	bad := cfg("hoodie.compact.inline.trigger.strategy=NUM_COMMITS", "hoodie.compact.inline.max.delta.commits=five")
	if r := run(tableconfig.MergeOnRead, deltas(1, 3), bad, "compaction"); len(r.Errors) != 1 || r.ExitCode() != 4 || len(r.Checks) != 0 {
		t.Errorf("throwing check: %+v", r.Errors)
	}
}

// The exit codes of HoodieTableHealthChecker: 0 healthy or skipped, 3 unhealthy, 4 a check
// threw — also when another check is unhealthy.
func TestExitCodes(t *testing.T) {
	for _, c := range []struct {
		r    Result
		want int
	}{
		{Result{OverallStatus: Skipped}, 0},
		{Result{OverallStatus: Healthy}, 0},
		{Result{OverallStatus: Unhealthy}, 3},
		{Result{OverallStatus: Healthy, Errors: []string{"compaction: x"}}, 4},
		{Result{OverallStatus: Unhealthy, Errors: []string{"compaction: x"}}, 4},
	} {
		if got := c.r.ExitCode(); got != c.want {
			t.Errorf("%s %v: exit %d, want %d", c.r.OverallStatus, c.r.Errors, got, c.want)
		}
	}
}

// The count restarts at the last compaction (a commit on a MOR timeline), found in the archive
// when the active timeline has none; a replacecommit does not restart it, and without any
// compaction the summary names the first delta commit as such, never as a compaction.
func TestCompactionCountsFromArchivedCompaction(t *testing.T) {
	c := cfg("hoodie.compact.inline.trigger.strategy=NUM_COMMITS", "hoodie.compact.inline.max.delta.commits=2")
	arch := func(in ...*timeline.Instant) []*timeline.Instant {
		for _, i := range in {
			i.Archived = true
		}
		return in
	}
	archived := arch(append(append(deltas(1, 3), done(4, "commit")), deltas(5, 2)...)...)
	active := append(deltas(7, 2), done(9, "replacecommit"))
	in := Input{TableType: tableconfig.MergeOnRead, Timeline: &timeline.Timeline{Instants: active}, Archived: archived, ArchiveRead: true, Now: now, Zone: time.UTC}
	ch := Run(in, Options{Config: c, Checks: []string{"compaction"}}).Checks[0]
	if ch.Status != Healthy || ch.EffectiveConfigs.Get("observed.delta.commits.since.last.compaction") != "4" ||
		ch.EffectiveConfigs.Get("observed.last.compaction.instant") != ts(4) ||
		ch.Summary != "4 delta commit(s) since compaction at "+ts(4)+" (archived), within the threshold of 4" {
		t.Errorf("archived compaction: %+v", ch)
	}
	// The archive not read: only the active delta commits, counted from the first of them.
	in.Archived, in.ArchiveRead = nil, false
	ch = Run(in, Options{Config: c, Checks: []string{"compaction"}}).Checks[0]
	if ch.EffectiveConfigs.Get("observed.delta.commits.since.last.compaction") != "2" || ch.EffectiveConfigs.Get("observed.last.compaction.instant") != "none" ||
		!strings.Contains(ch.Summary, "since the first delta commit at "+ts(7)+" (no completed compaction on the active timeline)") {
		t.Errorf("no compaction on the active timeline: %+v", ch)
	}
	// Archive read, no compaction anywhere: every delta commit counts.
	in.Archived, in.ArchiveRead = arch(deltas(1, 3)...), true
	ch = Run(in, Options{Config: c, Checks: []string{"compaction"}}).Checks[0]
	if ch.Status != Unhealthy || ch.EffectiveConfigs.Get("observed.delta.commits.since.last.compaction") != "5" ||
		!strings.Contains(ch.Summary, "first delta commit at "+ts(1)+" (no completed compaction on the active or archived timeline)") {
		t.Errorf("never compacted: %+v", ch)
	}
}

func TestCleaner(t *testing.T) {
	c := cfg("hoodie.clean.trigger.max.commits=1")
	commits := func(from, n int) []*timeline.Instant {
		var out []*timeline.Instant
		for i := 0; i < n; i++ {
			out = append(out, done(from+i, "commit"))
		}
		return out
	}
	ch := run(tableconfig.CopyOnWrite, commits(1, 3), c, "cleaner").Checks[0]
	if ch.Status != Healthy || ch.EffectiveConfigs.Get("effective.unhealthy.threshold.commits") != "5" ||
		ch.EffectiveConfigs.Get("observed.last.clean.instant") != "none" {
		t.Errorf("3 commits: %+v", ch)
	}
	if _, has := findKey(ch.EffectiveConfigs, "hoodie.clean.policy"); has {
		t.Error("policy echoed though not supplied")
	}
	if ch := run(tableconfig.CopyOnWrite, commits(1, 30), c, "cleaner").Checks[0]; ch.Status != Unhealthy {
		t.Errorf("30 never cleaned: %s", ch.Status)
	}
	tl := append(commits(1, 10), done(11, "clean"))
	tl = append(tl, commits(12, 2)...)
	in := Input{TableType: tableconfig.CopyOnWrite, Timeline: &timeline.Timeline{Instants: tl}, Now: now, Zone: time.UTC,
		LastClean: &timeline.CleanMetadata{EarliestCommitToRetain: ts(8), TotalFilesDeleted: 4}}
	r := Run(in, Options{Checks: []string{"cleaner"}, Config: cfg("hoodie.clean.trigger.max.commits=1", "hoodie.clean.policy=KEEP_LATEST_COMMITS")})
	ch = r.Checks[0]
	if ch.EffectiveConfigs.Get("observed.commits.since.last.clean") != "2" || ch.EffectiveConfigs.Get("observed.last.clean.files.deleted") != "4" ||
		ch.EffectiveConfigs.Get("hoodie.clean.policy") != "KEEP_LATEST_COMMITS" {
		t.Errorf("after clean: %+v", ch.EffectiveConfigs)
	}
	if b := r.Hudiscope.Checks[0]; b.State != Behind {
		t.Errorf("2 commits vs trigger 1, threshold 5: %+v", b)
	}
	tl = append(commits(1, 30), pending(31, "clean", timeline.Inflight))
	if ch := run(tableconfig.CopyOnWrite, tl, c, "cleaner").Checks[0]; !strings.Contains(ch.Findings[1], "has not completed") {
		t.Errorf("inflight clean: %v", ch.Findings)
	}
}

func findKey(c Configs, k string) (string, bool) {
	for _, kv := range c {
		if kv.Key == k {
			return kv.Value, true
		}
	}
	return "", false
}

func TestSavepointAndArchival(t *testing.T) {
	old := now.Add(-60 * 24 * time.Hour)
	sp := timeline.FormatInstantTime(old, time.UTC)
	tl := []*timeline.Instant{{RequestedTime: sp, CompletionTime: sp, Action: "commit", State: timeline.Completed},
		{RequestedTime: sp, CompletionTime: sp, Action: "savepoint", State: timeline.Completed}}
	for i := 1; i <= 20; i++ {
		tl = append(tl, done(i, "commit"))
	}
	ch := run(tableconfig.CopyOnWrite, tl, cfg("hoodie.keep.max.commits=5"), "savepoint").Checks[0]
	if ch.Status != Unhealthy || !strings.Contains(ch.Summary, sp) || !strings.Contains(ch.Findings[0], "more than 7 days old") {
		t.Errorf("blocking savepoint: %+v", ch)
	}
	ch = run(tableconfig.CopyOnWrite, tl, cfg("hoodie.keep.max.commits=50"), "savepoint").Checks[0]
	if ch.Status != Healthy || len(ch.Findings) != 1 {
		t.Errorf("stale, not blocking: %+v", ch)
	}
	arch := func(n, keep int) Check {
		var tl []*timeline.Instant
		for i := 1; i <= n; i++ {
			tl = append(tl, done(i, "commit"))
		}
		return run(tableconfig.CopyOnWrite, tl, cfg(fmt.Sprintf("hoodie.keep.max.commits=%d", keep)), "archival").Checks[0]
	}
	if c := arch(10, 10); c.Status != Healthy || c.EffectiveConfigs.Get("effective.unhealthy.threshold.write.instants") != "11" {
		t.Errorf("10/10: %+v", c)
	}
	if c := arch(60, 10); c.Status != Unhealthy {
		t.Errorf("60/10: %s", c.Status)
	}
	if c := arch(3, 20); c.EffectiveConfigs.Get("effective.unhealthy.threshold.write.instants") != "22" {
		t.Errorf("keep 20 threshold %s", c.EffectiveConfigs.Get("effective.unhealthy.threshold.write.instants"))
	}
	if c := arch(3, 50); c.EffectiveConfigs.Get("effective.unhealthy.threshold.write.instants") != "56" {
		t.Errorf("keep 50 → 56 (float ceil): %s", c.EffectiveConfigs.Get("effective.unhealthy.threshold.write.instants"))
	}
}

func TestMDTChecks(t *testing.T) {
	data := []*timeline.Instant{done(1, "commit"), done(2, "commit"), pending(3, "commit", timeline.Inflight)}
	boot := &timeline.Instant{RequestedTime: "00000000000000010", CompletionTime: ts(0), Action: "deltacommit", State: timeline.Completed}
	in := Input{TableType: tableconfig.CopyOnWrite, MetadataPartitions: []string{"files"}, Timeline: &timeline.Timeline{Instants: data},
		MDT: &MDT{Exists: true, Timeline: &timeline.Timeline{Instants: []*timeline.Instant{boot, done(1, "deltacommit")}}}, Now: now, Zone: time.UTC}
	c := cfg("hoodie.metadata.enable=true", "hoodie.metadata.compact.max.delta.commits=2")
	sync := Run(in, Options{Config: c, Checks: []string{"mdt-sync"}}).Checks[0]
	if sync.Status != Unhealthy || sync.EffectiveConfigs.Get("observed.data.table.writes.behind") != "1" ||
		sync.EffectiveConfigs.Get("observed.mdt.synced.instant") != ts(1) || len(sync.Findings) != 2 {
		t.Errorf("sync %+v", sync)
	}
	// Bootstrap + 6 delta commits 10 minutes apart (mm:ss 01:00 … 51:00), never compacted:
	// 7 counted, the zero bootstrap instant skipped for the lag start → 50 minutes.
	mdt := []*timeline.Instant{boot}
	for m := 1; m <= 51; m += 10 {
		mdt = append(mdt, done(m*100, "deltacommit"))
	}
	in.MDT = &MDT{Exists: true, Timeline: &timeline.Timeline{Instants: mdt}}
	mc := Run(in, Options{Config: c, Checks: []string{"mdt-compaction"}}).Checks[0]
	if mc.Status != Unhealthy || mc.EffectiveConfigs.Get("observed.mdt.delta.commits.since.compaction") != "7" ||
		mc.EffectiveConfigs.Get("observed.last.mdt.compaction.instant") != "none" ||
		mc.EffectiveConfigs.Get("observed.data.table.earliest.pending.instant") != ts(3) ||
		mc.EffectiveConfigs.Get("observed.lag.duration.minutes") != "50" || !strings.Contains(mc.Findings[1], ts(3)) {
		t.Errorf("mdt-compaction %+v", mc)
	}
	in.MDT = &MDT{Exists: false}
	r := Run(in, Options{Config: cfg("hoodie.metadata.enable=true"), Checks: []string{"mdt-sync"}})
	if c := r.Checks[0]; c.Status != Skipped || !strings.Contains(c.Summary, "does not exist on storage") {
		t.Errorf("missing MDT %+v", c)
	}
	// Java engine: hoodie.metadata.enable defaults to false → skipped under --apply-all-defaults.
	r = Run(in, Options{ApplyAllDefaults: true, Config: config.New(config.Input{Engine: "java"}), Checks: []string{"mdt-sync"}})
	if c := r.Checks[0]; c.Status != Skipped || !strings.Contains(c.Summary, "disabled") {
		t.Errorf("java engine %+v", c)
	}
}

func TestEstimateFileGroupCount(t *testing.T) {
	if n := EstimateFileGroupCount(8122, 48, 10, 10000, 2, 1<<30); n != 10 {
		t.Errorf("small index → min: %d", n)
	}
	// 100M records ×2 / (1 GiB/48 = 22369621 per group) = 8
	if n := EstimateFileGroupCount(100_000_000, 48, 1, 10000, 2, 1<<30); n != 8 {
		t.Errorf("100M → %d", n)
	}
	if n := EstimateFileGroupCount(5, 48, 2, 2, 2, 1<<30); n != 2 {
		t.Errorf("fixed → %d", n)
	}
}

// Field lists of analyzers.md §4.2.
func TestHealthJSONFields(t *testing.T) {
	var tl []*timeline.Instant
	tl = append(tl, deltas(1, 25)...)
	r := Run(Input{BasePath: "/t", TableType: tableconfig.MergeOnRead, Timeline: &timeline.Timeline{Instants: tl}, Now: now, Zone: time.UTC},
		Options{ApplyAllDefaults: true, Config: cfg()})
	raw, _ := json.Marshal(r)
	var top map[string]json.RawMessage
	json.Unmarshal(raw, &top)
	want := []string{"basePath", "tableType", "overallStatus", "checks", "errors", "hudiscope"}
	if got := objKeys(t, raw); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("top keys %v", got)
	}
	var checks []json.RawMessage
	json.Unmarshal(top["checks"], &checks)
	if len(checks) != len(CheckNames) {
		t.Fatalf("%d checks", len(checks))
	}
	for _, c := range checks {
		if got := objKeys(t, c); strings.Join(got, ",") != "name,status,summary,findings,effectiveConfigs" {
			t.Errorf("check keys %v", got)
		}
		var v struct{ EffectiveConfigs map[string]any }
		json.Unmarshal(c, &v)
		for k, val := range v.EffectiveConfigs {
			if _, ok := val.(string); !ok {
				t.Errorf("effectiveConfigs %s is not a string", k)
			}
		}
	}
	comp := r.Check("compaction").EffectiveConfigs
	wantKeys := []string{"hoodie.compact.inline.trigger.strategy", "hoodie.compact.inline.max.delta.commits", "hoodie.compact.inline.max.delta.seconds",
		"effective.unhealthy.threshold.delta.commits", "observed.delta.commits.since.last.compaction", "observed.pending.compactions", "observed.last.compaction.instant"}
	for i, k := range wantKeys {
		if comp[i].Key != k {
			t.Errorf("compaction key %d %s want %s", i, comp[i].Key, k)
		}
	}
	arch := r.Check("archival").EffectiveConfigs
	for i, k := range []string{"hoodie.keep.max.commits", "effective.unhealthy.threshold.write.instants", "effective.absolute.ceiling.completed.instants", "observed.write.instants", "observed.completed.instants"} {
		if arch[i].Key != k {
			t.Errorf("archival key %d %s want %s", i, arch[i].Key, k)
		}
	}
	if errs := string(top["errors"]); errs != "[]" {
		t.Errorf("errors %s", errs)
	}
}

func objKeys(t *testing.T, raw []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.Token()
	var keys []string
	for dec.More() {
		k, _ := dec.Token()
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

func TestSecretsNotInHealthOutput(t *testing.T) {
	c := config.New(config.Input{Props: map[string]string{
		"hoodie.keep.max.commits": "30", "hoodie.clean.trigger.max.commits": "1",
		"fs.s3a.secret.key": "SUPERSECRETKEY", "hoodie.write.lock.zookeeper.password": "zkpw",
		"hoodie.clean.policy": "KEEP_LATEST_COMMITS",
	}, PropsFile: "creds.properties", HoodieConf: []string{"fs.s3a.session.token=SESSIONTOKEN"}})
	r := Run(Input{BasePath: "s3a://AKIAUSER:URISECRET@bucket/t", TableType: tableconfig.CopyOnWrite,
		Timeline: &timeline.Timeline{Instants: deltas(1, 2)}, Now: now, Zone: time.UTC}, Options{Config: c})
	r.BasePath = redact.Text(r.BasePath)
	js, _ := json.Marshal(r)
	// The text form is report.HealthText's (report/health_text_test.go).
	for _, out := range []string{string(js)} {
		for _, s := range []string{"SUPERSECRETKEY", "zkpw", "SESSIONTOKEN", "URISECRET"} {
			if strings.Contains(out, s) {
				t.Errorf("%s leaked", s)
			}
		}
		if !strings.Contains(out, "creds.properties") {
			t.Errorf("sources missing:\n%s", out)
		}
	}
}

// mdt-sync's summary and note agree with what ran: a match is claimed only when the listings
// were compared, and a note appears only when they were not.
func TestMDTSyncNoteMatchesComparison(t *testing.T) {
	data := []*timeline.Instant{done(1, "commit"), done(2, "commit")}
	mdtTL := &timeline.Timeline{Instants: []*timeline.Instant{done(1, "deltacommit"), done(2, "deltacommit")}}
	c := cfg("hoodie.metadata.enable=true")
	sync := func(m *MDT) (Check, []string) {
		m.Exists, m.Timeline = true, mdtTL
		r := Run(Input{TableType: tableconfig.CopyOnWrite, MetadataPartitions: []string{"files"}, Timeline: &timeline.Timeline{Instants: data},
			MDT: m, Now: now, Zone: time.UTC}, Options{Config: c, Checks: []string{"mdt-sync"}})
		return r.Checks[0], r.Hudiscope.Notes
	}
	view := &filegroup.View{Partitions: []*filegroup.Partition{{Path: "p"}}}
	ch, notes := sync(&MDT{Sampled: []string{"p"}, MDTView: view, FSView: view})
	if ch.Status != Healthy || !strings.Contains(ch.Summary, "its listing of 1 sampled partition(s) matches storage") || len(notes) != 0 {
		t.Errorf("compared: %q %v", ch.Summary, notes)
	}
	ch, notes = sync(&MDT{ListingSkipped: "the metadata table's files partition is not complete (still inflight)"})
	if strings.Contains(ch.Summary, "matches") || !strings.Contains(ch.Summary, "not compared with storage (the metadata table's files partition is not complete") ||
		len(notes) != 1 || !strings.HasPrefix(notes[0], "mdt-sync: its listing was not compared") || !strings.Contains(notes[0], "only sync lag was judged") {
		t.Errorf("not compared: %q %v", ch.Summary, notes)
	}
	ch, notes = sync(&MDT{ListingErr: fmt.Errorf("list p: access denied")})
	if strings.Contains(ch.Summary, "matches") || !strings.Contains(ch.Summary, "could not be compared with storage: list p: access denied") ||
		len(notes) != 1 || !strings.Contains(notes[0], "access denied") {
		t.Errorf("listing failed: %q %v", ch.Summary, notes)
	}
}

// The roll-up counts a check that failed to run as not judged, and a check with nothing to
// judge (compaction on Copy-on-Write) as judged: "unknown is never no".
func TestVerdictRollUp(t *testing.T) {
	bad := cfg("hoodie.compact.inline.trigger.strategy=BOGUS", "hoodie.compact.inline.max.delta.commits=5", "hoodie.keep.max.commits=30")
	r := run(tableconfig.MergeOnRead, []*timeline.Instant{done(1, "deltacommit")}, bad, "compaction", "archival")
	if len(r.Errors) != 1 || r.OverallStatus != Healthy || r.Verdict() != "HEALTHY · 1 of 2 not judged" {
		t.Errorf("errored compaction: %q %v", r.Verdict(), r.Errors)
	}
	r = run(tableconfig.CopyOnWrite, []*timeline.Instant{done(1, "commit")}, bad, "compaction", "archival")
	if r.Verdict() != "HEALTHY" || r.Hudiscope.Checks[0].Skip != NotApplicable {
		t.Errorf("COW compaction: %q %+v", r.Verdict(), r.Hudiscope.Checks[0])
	}
	r = run(tableconfig.CopyOnWrite, []*timeline.Instant{done(1, "commit")}, cfg(), "cleaner", "archival")
	if r.Verdict() != "SKIPPED · 2 of 2 not judged" || r.Hudiscope.Checks[0].Skip != NotJudged {
		t.Errorf("nothing supplied: %q", r.Verdict())
	}
}

// A completed commit whose write stats count failed records is a health note (no check judges
// it): 29 of 30 records failed, as Hudi 0.14.0 completed one.
func TestWriteErrorsAreAHealthNote(t *testing.T) {
	ok := &timeline.Instant{RequestedTime: "20240101000000000", Action: "commit", State: timeline.Completed,
		Totals: timeline.CommitTotals{NumWrites: 5}}
	bad := &timeline.Instant{RequestedTime: "20240101000100000", Action: "commit", State: timeline.Completed,
		Totals: timeline.CommitTotals{NumWrites: 1, TotalWriteErrors: 29}}
	r := Run(Input{TableType: "COPY_ON_WRITE", Timeline: &timeline.Timeline{Instants: []*timeline.Instant{ok, bad}}}, Options{Checks: []string{"cleaner"}})
	want := "commit 20240101000100000 completed with 29 of 30 records failed to write (totalWriteErrors): the table lacks them"
	if len(r.Hudiscope.Notes) != 1 || r.Hudiscope.Notes[0] != want {
		t.Errorf("notes %q, want [%q]", r.Hudiscope.Notes, want)
	}
}
