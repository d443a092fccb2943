package model

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hudiscope/hudiscope/analyzers/findings"
	"github.com/hudiscope/hudiscope/analyzers/health"
	"github.com/hudiscope/hudiscope/analyzers/layout"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// Fleet defaults: how deep discovery looks, how many entries it lists before it stops, how
// many directories it lists at once and how many tables are read at once.
const (
	DefaultFleetDepth       = 4
	DefaultFleetMaxEntries  = 200_000
	DefaultFleetListing     = 16
	DefaultFleetConcurrency = 8
)

// FleetSteps are what one fleet row needs: properties, timeline names, the file view (from the
// metadata table when it has one) and the health and findings verdicts over them. No layout
// statistics, no commit decoding beyond replacecommits (the file view needs them).
var FleetSteps = []Step{StepProperties, StepTimeline, StepFiles, StepConfig, StepHealth, StepFindings}

// FleetTarget is one table to read: found under a prefix or named by a catalog.
type FleetTarget struct {
	// Name is the catalog name (database.table) when known, else the path under the
	// discovery root.
	Name     string
	Location string
	// Catalog is the metastore's view (nil when discovered by listing).
	Catalog *health.Catalog
	// Err is set when the target is known not to be readable as a table (a catalog table
	// whose location is missing or holds no .hoodie); it becomes a failure row.
	Err string
}

// DiscoverOptions bound discovery.
type DiscoverOptions struct {
	Depth       int // directory levels below the root to look into (0: DefaultFleetDepth)
	MaxEntries  int // listed entries after which discovery stops (0: DefaultFleetMaxEntries)
	Concurrency int // directories listed at once (0: DefaultFleetListing)
	Storage     storage.Options
}

// Discovery is what one walk found and why it stopped.
type Discovery struct {
	Root    string
	Tables  []FleetTarget // sorted by location
	Entries int64         // directory entries listed
	// Stopped says why the walk ended early (the entry limit); "" when it looked everywhere.
	Stopped string
	// Errors name directories (or catalog databases) that could not be listed.
	Errors []string
	// Skipped name catalog tables left out because they are not Hudi tables.
	Skipped []string
}

// IsTable reports whether location is itself a Hudi table (.hoodie with hoodie.properties).
func IsTable(ctx context.Context, location string, so storage.Options) (bool, error) {
	st, err := storage.Open(location, so)
	if err != nil {
		return false, err
	}
	ok, _ := probeProperties(ctx, st, "")
	return ok, nil
}

// probeProperties reports whether dir/.hoodie holds hoodie.properties (or its .backup), and,
// when neither opens, why: both missing, or the first error that is not "missing" (unreadable
// is not absent). It probes with Open, one request on S3 (a HEAD), where Stat also LISTs to
// find directories.
func probeProperties(ctx context.Context, st storage.Storage, dir string) (bool, string) {
	why := ""
	for _, f := range []string{"hoodie.properties", "hoodie.properties.backup"} {
		fh, err := st.Open(ctx, storage.Join(dir, ".hoodie", f))
		if err == nil {
			fh.Close()
			return true, ""
		}
		if why == "" && !storage.IsNotExist(err) {
			why = fmt.Sprintf(".hoodie/%s cannot be opened: %v", f, err)
		}
	}
	if why == "" {
		why = "a broken table: .hoodie/ holds neither hoodie.properties nor hoodie.properties.backup"
	}
	return false, why
}

// Discover walks location for Hudi tables: directories are listed in parallel (bounded),
// at most o.Depth levels down, never below a directory whose .hoodie holds hoodie.properties
// (a table's partitions are not tables), skipping hidden and underscore directories
// (_temporary, .spark-staging). found is called once per table as it is found, from several
// goroutines one at a time. The walk stops listing after o.MaxEntries entries and says so.
func Discover(ctx context.Context, location string, o DiscoverOptions, found func(FleetTarget)) (*Discovery, error) {
	if o.Depth <= 0 {
		o.Depth = DefaultFleetDepth
	}
	if o.MaxEntries <= 0 {
		o.MaxEntries = DefaultFleetMaxEntries
	}
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultFleetListing
	}
	// A table's .hoodie folder names the table: below it is only its metadata table, which
	// is part of the table and not a table of the fleet.
	var inMeta string
	if baseName(location) == ".hoodie" {
		parent := parentLocation(location)
		if ok, _ := IsTable(ctx, parent, o.Storage); ok {
			location = parent
		} else {
			inMeta = location
		}
	}
	st, err := storage.Open(location, o.Storage)
	if err != nil {
		return nil, err
	}
	d := &Discovery{Root: st.Root()}
	if strings.HasSuffix(strings.ToLower(location), ".zip") {
		// A zip holds one table (its single top-level folder): a fleet of one.
		t := FleetTarget{Name: baseName(location), Location: location}
		d.Tables = []FleetTarget{t}
		if found != nil {
			found(t)
		}
		return d, nil
	}
	if _, err := st.List(ctx, ""); err != nil {
		return d, fmt.Errorf("list %s: %w", st.Root(), err)
	}
	var (
		mu      sync.Mutex
		wg      sync.WaitGroup
		entries atomic.Int64
		stopped atomic.Bool
		sem     = make(chan struct{}, o.Concurrency)
	)
	emit := func(rel, broken string) {
		if inMeta != "" {
			// Under a .hoodie whose table has no hoodie.properties: still a metadata table.
			mu.Lock()
			defer mu.Unlock()
			d.Skipped = append(d.Skipped, fmt.Sprintf("%s: a metadata table inside %s, not a table of its own", JoinLocation(location, rel), inMeta))
			return
		}
		t := FleetTarget{Name: rel, Location: JoinLocation(location, rel), Err: broken}
		if rel == "" {
			t.Name = baseName(location)
		}
		mu.Lock()
		defer mu.Unlock()
		d.Tables = append(d.Tables, t)
		if found != nil {
			found(t)
		}
	}
	var visit func(dir string, depth int)
	visit = func(dir string, depth int) {
		defer wg.Done()
		if ctx.Err() != nil || stopped.Load() {
			return
		}
		sem <- struct{}{}
		es, err := storage.ListNames(ctx, st, dir)
		<-sem
		if err != nil {
			if ctx.Err() == nil {
				mu.Lock()
				d.Errors = append(d.Errors, fmt.Sprintf("list %s: %v", JoinLocation(location, dir), err))
				mu.Unlock()
			}
			return
		}
		n := entries.Add(int64(len(es)))
		for _, e := range es {
			if !e.IsDir || e.Name != ".hoodie" {
				continue
			}
			sem <- struct{}{} // the properties probe counts against the same bound
			ok, why := probeProperties(ctx, st, dir)
			<-sem
			if !ok && ctx.Err() != nil {
				return
			}
			// A .hoodie without its properties is still a table's, broken (issue 31): a
			// failure row naming what is missing, not nothing; its partitions are not tables.
			if ok {
				why = ""
			}
			emit(dir, why)
			return
		}
		if depth >= o.Depth {
			return
		}
		if n >= int64(o.MaxEntries) {
			if stopped.CompareAndSwap(false, true) {
				mu.Lock()
				d.Stopped = fmt.Sprintf("stopped after listing %d entries (the limit); tables further down were not looked for — narrow the location or raise --max-entries", n)
				mu.Unlock()
			}
			return
		}
		for _, e := range es {
			if !e.IsDir || strings.HasPrefix(e.Name, ".") || strings.HasPrefix(e.Name, "_") {
				continue
			}
			wg.Add(1)
			go visit(storage.Join(dir, e.Name), depth+1)
		}
	}
	wg.Add(1)
	visit("", 0)
	wg.Wait()
	d.Entries = entries.Load()
	sort.Slice(d.Tables, func(i, j int) bool { return d.Tables[i].Location < d.Tables[j].Location })
	sort.Strings(d.Errors)
	return d, ctx.Err()
}

// JoinLocation names a path below a location: URIs join with "/", local paths with the OS
// separator.
func JoinLocation(location, rel string) string {
	if rel == "" {
		return location
	}
	if strings.Contains(location, "://") {
		return strings.TrimRight(location, "/") + "/" + rel
	}
	return filepath.Join(location, filepath.FromSlash(rel))
}

// parentLocation is the location one level up: URIs cut at the last "/", local paths with
// filepath.Dir.
func parentLocation(location string) string {
	l := strings.TrimRight(location, `/\`)
	if strings.Contains(l, "://") {
		if i := strings.LastIndex(l, "/"); i > strings.Index(l, "://")+2 {
			return l[:i]
		}
		return l
	}
	return filepath.Dir(l)
}

func baseName(location string) string {
	seps := `/\`
	l := strings.TrimRight(location, seps)
	if i := strings.LastIndexAny(l, seps); i >= 0 {
		return l[i+1:]
	}
	return l
}

// FleetPending is one kind of pending table service and how old its oldest instant is.
type FleetPending struct {
	Action string `json:"action"`
	Count  int    `json:"count"`
	Oldest string `json:"oldest"`
	// AgeSeconds is the oldest instant's age (from its requested time); nil when the
	// instant time is not a date.
	AgeSeconds *int64 `json:"ageSeconds"`
}

// FleetRow is one table of the fleet.
type FleetRow struct {
	Name         string `json:"name"`
	Location     string `json:"location"`
	TableType    string `json:"tableType"`
	TableVersion int    `json:"tableVersion"`
	// SizeBytes are the bytes of the latest base file of every live file group (the
	// Overview's size); Partitions every partition of the file view.
	SizeBytes     int64  `json:"sizeBytes"`
	Partitions    int    `json:"partitions"`
	FileGroups    int    `json:"fileGroups"`
	ListingSource string `json:"listingSource"`
	// LastCommit is the completed write that completed last (the Overview's last commit); its
	// age is measured from its completion time.
	LastCommit           string         `json:"lastCommit"`
	LastCommitAgeSeconds *int64         `json:"lastCommitAgeSeconds"`
	Pending              []FleetPending `json:"pending"`
	// Health is the overall health status; Verdict the roll-up every surface prints
	// (health.Result.Verdict: "HEALTHY · 2 of 7 not judged"); HealthChecks counts checks by
	// status.
	Health  string `json:"health"`
	Verdict string `json:"healthVerdict"`
	// UnhealthyChecks name the checks behind an UNHEALTHY verdict (its reason, for the row).
	UnhealthyChecks []string       `json:"unhealthyChecks,omitempty"`
	HealthChecks    map[string]int `json:"healthChecks"`
	// Findings counts the fired optimization findings by status.
	Findings map[string]int `json:"findings"`
	// MetaSync is the meta-sync check's status and summary ("" without a catalog).
	MetaSync        string `json:"metaSync"`
	MetaSyncSummary string `json:"metaSyncSummary"`
	Problems        int    `json:"problems"`
	// Error says why the table could not be read (the other fields are then empty); StepErrors
	// name steps that failed on a table that did open.
	Error      string            `json:"error,omitempty"`
	StepErrors map[string]string `json:"stepErrors,omitempty"`
	// Catalog is the target's catalog view, so opening the row judges meta-sync too.
	Catalog *health.Catalog `json:"-"`
}

// FleetOptions are a fleet row's load options: base's flags (storage, props, engine) with the
// fleet's steps and the target's catalog.
func FleetOptions(base Options, t FleetTarget) Options {
	o := base
	o.Location, o.Steps, o.LazyCommits, o.Archived, o.EventLog = t.Location, FleetSteps, true, false, ""
	o.Catalog = t.Catalog
	return o
}

// FleetTableOptions are the explorer's options for a table opened from its fleet row: the
// explorer's own (every step, event log, early timeline) on the row's table and catalog, judged
// as the row was (base's default handling), so Enter shows the verdict the row showed.
func FleetTableOptions(explorer, base Options, r FleetRow) Options {
	o := explorer
	o.Location, o.Catalog = r.Location, r.Catalog
	o.Health.ApplyAllDefaults = base.Health.ApplyAllDefaults
	return o
}

// LoadFleetRow reads one target and makes its row.
func LoadFleetRow(ctx context.Context, base Options, t FleetTarget) (FleetRow, *Snapshot) {
	if t.Err != "" {
		return FleetRow{Name: t.Name, Location: t.Location, Error: t.Err, Catalog: t.Catalog}, nil
	}
	o := FleetOptions(base, t)
	s, err := Load(ctx, o, nil)
	return RowFromSnapshot(t, s, err, o.now()), s
}

// RowFromSnapshot makes the fleet row of a loaded table; err is Load's.
func RowFromSnapshot(t FleetTarget, s *Snapshot, err error, now time.Time) FleetRow {
	r := FleetRow{Name: t.Name, Location: t.Location, Catalog: t.Catalog}
	if err != nil || s == nil || s.table == nil {
		if err == nil {
			err = errors.New("the table could not be opened")
		}
		r.Error = err.Error()
		return r
	}
	r.TableType, r.TableVersion = s.Config.Type, s.Config.Version
	for _, st := range s.Done {
		if e := s.StepErrors[st]; e != nil {
			if r.StepErrors == nil {
				r.StepErrors = map[string]string{}
			}
			r.StepErrors[string(st)] = e.Error()
		}
	}
	if v := s.View; v != nil {
		// The Overview's figures (from the layout analysis): bytes of the latest base file of
		// every live file group, and every partition of the view.
		r.ListingSource, r.Partitions = v.Source, len(v.Partitions)
		for _, p := range v.Partitions {
			for _, g := range p.FileGroups {
				r.FileGroups++
				if b := layout.LatestBase(g); b != nil {
					r.SizeBytes += b.Size
				}
			}
		}
	}
	if tl := s.Timeline; tl != nil {
		zone := s.Config.Zone
		// The Overview's last commit (LastCommit: one rule for both).
		last := LastCommit(tl)
		pend := map[string]*FleetPending{}
		for _, i := range tl.Instants {
			if i.IsCompleted() {
				continue
			}
			if !isService(i) {
				continue
			}
			p := pend[i.Action]
			if p == nil {
				p = &FleetPending{Action: i.Action}
				pend[i.Action] = p
			}
			p.Count++
			if p.Oldest == "" || timeline.CompareInstants(i.RequestedTime, p.Oldest) < 0 {
				p.Oldest = i.RequestedTime
			}
		}
		if last != nil {
			r.LastCommit = last.RequestedTime
			r.LastCommitAgeSeconds = age(now, completion(last), zone)
		}
		r.Pending = []FleetPending{}
		for _, p := range pend {
			p.AgeSeconds = age(now, p.Oldest, zone)
			r.Pending = append(r.Pending, *p)
		}
		sort.Slice(r.Pending, func(i, j int) bool { return r.Pending[i].Action < r.Pending[j].Action })
	}
	if h := s.Health; h != nil {
		r.Health, r.Verdict = h.OverallStatus, h.Verdict()
		r.HealthChecks = map[string]int{}
		for _, c := range h.Checks {
			if c.Name == health.MetaSync {
				r.MetaSync, r.MetaSyncSummary = c.Status, c.Summary
			}
			r.HealthChecks[c.Status]++
			if c.Status == health.Unhealthy && c.Name != health.MetaSync {
				r.UnhealthyChecks = append(r.UnhealthyChecks, c.Name)
			}
		}
		if len(h.Errors) > 0 {
			r.HealthChecks["ERROR"] = len(h.Errors)
		}
	}
	if f := s.Findings; f != nil {
		r.Findings = map[string]int{}
		for _, x := range f.Findings {
			if x.Fired && x.Status != findings.StatusWithheld {
				r.Findings[x.Status]++
			}
		}
	}
	r.Problems = CountProblems(s.ProblemList()) // the Overview's count, failed steps included
	return r
}

// isService: a pending instant of a table service (compaction, clustering, clean, rollback…),
// not a pending write.
// Pending, so the table type, which only decides completed commits, is not needed.
func isService(i *timeline.Instant) bool {
	return i.IsTableService("") || i.IsRollback() || i.IsRestore() || i.IsIndexing()
}

func completion(i *timeline.Instant) string {
	if i.CompletionTime != "" {
		return i.CompletionTime
	}
	return i.RequestedTime
}

func age(now time.Time, instant string, zone *time.Location) *int64 {
	if zone == nil {
		zone = time.UTC
	}
	t, ok := timeline.ParseInstantTime(instant, zone)
	if !ok {
		return nil
	}
	s := int64(now.Sub(t) / time.Second)
	return &s
}

// LoadFleet reads targets as they arrive, at most concurrency at once (0:
// DefaultFleetConcurrency), calling row for each (from several goroutines one at a time) with
// the target's index in arrival order. It returns when targets is closed and every row is in.
func LoadFleet(ctx context.Context, base Options, targets <-chan FleetTarget, concurrency int, row func(i int, r FleetRow)) {
	if concurrency <= 0 {
		concurrency = DefaultFleetConcurrency
	}
	var (
		mu  sync.Mutex
		wg  sync.WaitGroup
		sem = make(chan struct{}, concurrency)
		n   int
	)
	for t := range targets {
		i := n
		n++
		wg.Add(1)
		sem <- struct{}{}
		go func(t FleetTarget) {
			defer wg.Done()
			defer func() { <-sem }()
			var r FleetRow
			if ctx.Err() != nil {
				r = FleetRow{Name: t.Name, Location: t.Location, Error: ctx.Err().Error()}
			} else {
				r = safeRow(ctx, base, t)
			}
			mu.Lock()
			defer mu.Unlock()
			row(i, r)
		}(t)
	}
	wg.Wait()
}

// safeRow keeps one table's bug from ending the whole fleet: a panic becomes that row's error.
func safeRow(ctx context.Context, base Options, t FleetTarget) (r FleetRow) {
	defer func() {
		if p := recover(); p != nil {
			r = FleetRow{Name: t.Name, Location: t.Location, Error: fmt.Sprintf("internal error reading this table: %v", p)}
		}
	}()
	r, _ = LoadFleetRow(ctx, base, t)
	return r
}
