package health

import (
	"strings"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/hudi/tableconfig"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

func runCatalog(tl []*timeline.Instant, parts []string, cat *Catalog, checks ...string) *Result {
	return Run(Input{BasePath: "/t", TableType: tableconfig.CopyOnWrite, Timeline: &timeline.Timeline{Instants: tl},
		Partitions: parts, Catalog: cat, Now: now, Zone: time.UTC}, Options{Checks: checks, Config: cfg()})
}

func TestMetaSyncOnlyWithCatalog(t *testing.T) {
	tl := []*timeline.Instant{done(1, "commit")}
	if r := runCatalog(tl, nil, nil); r.Check(MetaSync) != nil || len(r.Checks) != len(CheckNames) {
		t.Fatalf("meta-sync ran without a catalog: %d checks", len(r.Checks))
	}
	r := runCatalog(tl, nil, nil, MetaSync)
	if c := r.Check(MetaSync); c == nil || c.Status != Skipped || !strings.Contains(c.Summary, "not known to a catalog") {
		t.Fatalf("asked for by name without a catalog: %+v", c)
	}
	if _, err := ParseChecks("meta-sync,cleaner"); err != nil {
		t.Fatal(err)
	}
}

func TestMetaSyncInSync(t *testing.T) {
	tl := []*timeline.Instant{done(1, "commit"), done(2, "commit"), pending(3, "commit", timeline.Inflight)}
	cat := &Catalog{Name: "db.t", Parameters: map[string]string{ParamLastCommitTimeSync: ts(2)}, Partitions: []string{"dt=1", "dt=2"}, Partitioned: true}
	r := runCatalog(tl, []string{"dt=2", "dt=1"}, cat, MetaSync)
	c := r.Check(MetaSync)
	if c.Status != Healthy || c.Summary != "Catalog db.t is synced to "+ts(2)+", the latest completed write; its 2 partition(s) match the table" {
		t.Fatalf("%s %q", c.Status, c.Summary)
	}
}

func TestMetaSyncLagAndPartitionDrift(t *testing.T) {
	tl := []*timeline.Instant{done(1, "commit"), done(2, "commit"), done(3, "replacecommit"), done(4, "commit")}
	cat := &Catalog{Name: "db.t", Parameters: map[string]string{ParamLastCommitTimeSync: ts(1)},
		Partitions: []string{"dt=1", "dt=old"}, Partitioned: true}
	r := runCatalog(tl, []string{"dt=1", "dt=2", "dt=3"}, cat, MetaSync)
	c := r.Check(MetaSync)
	if c.Status != Unhealthy || r.OverallStatus != Unhealthy {
		t.Fatalf("status %s", c.Status)
	}
	// Writes 2..4 are after the synced instant; the first of them completed at 00:00:02.5,
	// 11:59:57 before now (the lag is truncated to whole seconds).
	want := "Catalog db.t: sync 3 completed write(s) behind (11h59m57s); 2 partition(s) missing from the catalog; 1 partition(s) the table dropped are still in the catalog"
	if c.Summary != want {
		t.Errorf("summary\n got %q\nwant %q", c.Summary, want)
	}
	if got := c.EffectiveConfigs.Get("observed.data.table.writes.behind"); got != "3" {
		t.Errorf("behind %s", got)
	}
	if got := c.EffectiveConfigs.Get("observed.sync.lag.seconds"); got != "43197" {
		t.Errorf("lag %s", got)
	}
	if len(c.Findings) != 3 || !strings.Contains(c.Findings[1], ": dt=2, dt=3") || !strings.HasSuffix(c.Findings[2], ": dt=old") {
		t.Errorf("findings %q", c.Findings)
	}
}

func TestMetaSyncNeverSyncedAndUnreadablePartitions(t *testing.T) {
	tl := []*timeline.Instant{done(1, "commit"), done(2, "commit")}
	cat := &Catalog{Name: "db.t", Parameters: map[string]string{}, PartitionsErr: errTest("AccessDenied"), Partitioned: true}
	r := runCatalog(tl, []string{"a"}, cat)
	c := r.Check(MetaSync)
	if c.Status != Unhealthy || !strings.HasPrefix(c.Summary, "Catalog db.t: sync 2 completed write(s) behind") ||
		!strings.Contains(c.Findings[0], "no last_commit_time_sync parameter") {
		t.Fatalf("%s %q %q", c.Status, c.Summary, c.Findings)
	}
	if len(r.Hudiscope.Notes) != 1 || !strings.Contains(r.Hudiscope.Notes[0], "AccessDenied") {
		t.Errorf("notes %q", r.Hudiscope.Notes)
	}
}

type errTest string

func (e errTest) Error() string { return string(e) }
