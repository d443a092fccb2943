// Package health is a Go port of Hudi's HoodieTableHealthChecker: compaction, cleaner,
// savepoint, archival, record-index, mdt-sync and mdt-compaction checks, each judging observed
// table state against the writer's own configuration with the Java checker's slack thresholds.
// Its JSON matches the Java tool's (effectiveConfigs values are strings, insertion-ordered); what
// hudiscope adds (value sources, the "behind, not stopped" band) sits under the key "hudiscope".
//
// Run is a pure function of what it is handed: it does no I/O.
package health

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/hudiscope/hudiscope/analyzers/config"
	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/tableconfig"
	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/internal/clock"
)

// Statuses, in severity order.
const (
	Skipped   = "SKIPPED"
	Healthy   = "HEALTHY"
	Unhealthy = "UNHEALTHY"
)

func rank(s string) int {
	switch s {
	case Healthy:
		return 1
	case Unhealthy:
		return 2
	}
	return 0
}

// Check names in registration (report) order.
var CheckNames = []string{"compaction", "cleaner", "savepoint", "archival", "record-index", "mdt-sync", "mdt-compaction"}

// Exit codes of the Java tool (scripts branch on them; there is no 1).
const (
	ExitHealthy     = 0 // nothing UNHEALTHY (all-SKIPPED included)
	ExitBadInput    = 2 // bad arguments, an unknown check, an unreadable table
	ExitUnhealthy   = 3 // at least one UNHEALTHY
	ExitCheckFailed = 4 // a check threw; wins over UNHEALTHY
)

// KV is one effectiveConfigs entry.
type KV struct{ Key, Value string }

// Configs is an insertion-ordered string map.
type Configs []KV

func (c Configs) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, kv := range c {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(kv.Key)
		v, _ := json.Marshal(kv.Value)
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

// Get returns a value by key ("" if absent).
func (c Configs) Get(key string) string {
	for _, kv := range c {
		if kv.Key == key {
			return kv.Value
		}
	}
	return ""
}

// Check is one check's result.
type Check struct {
	Name             string   `json:"name"`
	Status           string   `json:"status"`
	Summary          string   `json:"summary"`
	Findings         []string `json:"findings"`
	EffectiveConfigs Configs  `json:"effectiveConfigs"`
}

// Result is the whole report, fields in the Java tool's order plus "hudiscope".
type Result struct {
	BasePath      string   `json:"basePath"`
	TableType     string   `json:"tableType"`
	OverallStatus string   `json:"overallStatus"`
	Checks        []Check  `json:"checks"`
	Errors        []string `json:"errors"`
	Hudiscope     *Extra   `json:"hudiscope"`
}

// Check returns the named check's result, or nil.
func (r *Result) Check(name string) *Check {
	for i := range r.Checks {
		if r.Checks[i].Name == name {
			return &r.Checks[i]
		}
	}
	return nil
}

// ExitCode is the Java tool's exit code for this result.
func (r *Result) ExitCode() int {
	if len(r.Errors) > 0 {
		return ExitCheckFailed
	}
	if r.OverallStatus == Unhealthy {
		return ExitUnhealthy
	}
	return ExitHealthy
}

// Extra is hudiscope's addition: where each value came from and where each check stands
// against its configured trigger and the checker's slack threshold.
type Extra struct {
	// SchemaVersion versions this block (hudiscope's JSON contract); the Java fields beside it
	// follow HoodieTableHealthChecker.
	SchemaVersion    string `json:"schemaVersion,omitempty"`
	Engine           string `json:"engine"`
	ApplyAllDefaults bool   `json:"applyAllDefaults"`
	// Releases are the writing release lines whose defaults judged the keys the writer
	// properties leave unset (absent when no writer properties were given).
	Releases []string      `json:"releases,omitempty"`
	Checks   []Band        `json:"checks"`
	Notes    []string      `json:"notes,omitempty"`
	Sources  []SourceEntry `json:"sources"`
}

// Band says where a cadence check stands: the observed number, the configured trigger (when the
// service should run) and the checker's slack threshold (past which it calls the table
// unhealthy). Between the two is "behind, not stopped" — where optimizations live.
type Band struct {
	Name      string `json:"name"`
	Status    string `json:"status"`
	Measure   string `json:"measure,omitempty"`
	Observed  *int64 `json:"observed,omitempty"`
	Trigger   *int64 `json:"trigger,omitempty"`
	Threshold *int64 `json:"threshold,omitempty"`
	// State is "on track", "behind, not stopped", "stopped or far behind", or "" when the check
	// has no cadence (or was skipped).
	State string `json:"state,omitempty"`
	// Skip says what a SKIPPED check means: NotApplicable (the table has nothing for it to
	// judge: no compaction on Copy-on-Write, no metadata table) or NotJudged (an input it
	// needs is missing, so the question is open).
	Skip string `json:"skip,omitempty"`
}

// Skip kinds.
const (
	NotApplicable = "not applicable"
	NotJudged     = "not judged"
)

// notApplicable is the band of a check skipped because the table has nothing for it to judge.
var notApplicable = Band{Skip: NotApplicable}

// Verdict is the one roll-up every surface prints (health text and Markdown, the report, the
// Overview, the fleet row): the overall status, and how many checks were not judged when any
// were — "HEALTHY · 2 of 7 not judged". A check that failed to run is not judged either. A
// roll-up never says plain HEALTHY over a question it left open.
func (r *Result) Verdict() string {
	n, of := r.NotJudged()
	if n == 0 {
		return r.OverallStatus
	}
	return fmt.Sprintf("%s · %d of %d not judged", r.OverallStatus, n, of)
}

// NotJudged counts the checks that left their question open (skipped for a missing input, or
// failed to run) out of every check run.
func (r *Result) NotJudged() (n, of int) {
	skip := map[string]string{}
	if r.Hudiscope != nil {
		for _, b := range r.Hudiscope.Checks {
			skip[b.Name] = b.Skip
		}
	}
	for _, c := range r.Checks {
		if c.Status == Skipped && skip[c.Name] != NotApplicable {
			n++
		}
	}
	return n + len(r.Errors), len(r.Checks) + len(r.Errors)
}

// Band states.
const (
	OnTrack = "on track"
	Behind  = "behind, not stopped"
	Stopped = "stopped or far behind"
)

// SourceEntry names where one writer property a check used came from.
type SourceEntry struct {
	Check  string `json:"check"`
	Key    string `json:"key"`
	Value  string `json:"value"`
	Source string `json:"source"`
}

// MDT is what the checks read from the metadata table.
type MDT struct {
	// Exists: .hoodie/metadata is on storage.
	Exists bool
	// Timeline is the metadata table's active timeline (nil with Err when unreadable).
	Timeline *timeline.Timeline
	Err      error
	// RecordIndex is the record_index partition's file groups (latest slice used); RecordIndexErr
	// says why they could not be read.
	RecordIndex    []*filegroup.FileGroup
	RecordIndexErr error
	// Sampled are the partitions mdt-sync compares (all when ≤ 20, else the first 2 and last 20,
	// sorted); MDTView and FSView are their file groups as listed by the metadata table and by
	// storage, built against the same timeline. ListingErr says why they could not be built.
	Sampled    []string
	MDTView    *filegroup.View
	FSView     *filegroup.View
	ListingErr error
	// ListingSkipped says why the listings were not built, when they were not tried.
	ListingSkipped string
}

// SamplePartitions picks the partitions mdt-sync compares, as the Java checker does.
func SamplePartitions(all []string) []string {
	s := append([]string(nil), all...)
	sort.Strings(s)
	if len(s) <= mdtSampleMax {
		return s
	}
	return append(append([]string{}, s[:2]...), s[len(s)-mdtSampleMax:]...)
}

// Input is the read data the checks work on.
type Input struct {
	BasePath  string
	TableType string
	// TableVersion (hoodie.table.version) picks the release line whose archival rule applies.
	TableVersion       int
	MetadataPartitions []string // hoodie.table.metadata.partitions
	Timeline           *timeline.Timeline
	// Archived are the archived instants, when read: the compaction check looks there for the
	// last compaction when the active timeline holds none.
	Archived    []*timeline.Instant
	ArchiveRead bool
	// LastClean is the latest completed clean's metadata (LastCleanErr if unreadable).
	LastClean    *timeline.CleanMetadata
	LastCleanErr error
	MDT          *MDT
	// Catalog is the metastore's view of the table (nil: not known to a catalog); Partitions
	// are the table's partitions with live file groups (nil: not listed). meta-sync reads both.
	Catalog    *Catalog
	Partitions []string
	Now        time.Time
	Zone       *time.Location
}

// Options select checks and the configuration they judge against.
type Options struct {
	Checks           []string // nil or ["all"] = all
	ApplyAllDefaults bool
	Config           *config.Effective
	// Releases are the Hudi release lines that may write the table ("1.1", "1.2"), set when
	// the writer properties were given: a key they leave unset is then at the writing
	// release's default (config.Effective.WriterValue), and the checks judge with it, its
	// source "Hudi 1.1/1.2 default". nil keeps the Java checker's rule: an unset key skips
	// its check unless ApplyAllDefaults.
	Releases []string
}

// ParseChecks lower-cases and validates a --checks list; "all" (or empty) selects every check.
func ParseChecks(s string) ([]string, error) {
	s = strings.TrimSpace(s)
	if s == "" || strings.EqualFold(s, "all") {
		return nil, nil
	}
	var out []string
	for _, c := range strings.Split(s, ",") {
		c = strings.ToLower(strings.TrimSpace(c))
		if c == "" {
			continue
		}
		if c == "all" {
			return nil, nil
		}
		found := c == MetaSync
		for _, n := range CheckNames {
			if n == c {
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("unknown check %q; available checks: %s", c, strings.Join(append(CheckNames[:len(CheckNames):len(CheckNames)], MetaSync), ", "))
		}
		out = append(out, c)
	}
	return out, nil
}

// ctx is one run's shared state.
type ctx struct {
	in    Input
	opt   Options
	cfg   *config.Effective
	srcs  []SourceEntry
	cur   string
	notes []string
	// why says, per key, why release mode could not take the release's default.
	why map[string]string
	// lines are the release lines that write the table (opt.Releases, else those of its table
	// version): a key is read under the names they give it (hoodie.clean.max.commits on 0.14
	// for 1.x's hoodie.clean.trigger.max.commits); nil when the table version is unknown.
	lines []string
	// ignored: notes already given for keys supplied under a spelling the writer ignores.
	ignored map[string]bool
}

// Run runs the selected checks in registration order.
func Run(in Input, opt Options) *Result {
	if in.Now.IsZero() {
		in.Now = clock.Now()
	}
	if in.Zone == nil {
		in.Zone = time.Local
	}
	cfg := opt.Config
	if cfg == nil {
		cfg = config.New(config.Input{})
	}
	c := &ctx{in: in, opt: opt, cfg: cfg, why: map[string]string{}, ignored: map[string]bool{}, lines: opt.Releases}
	if len(c.lines) == 0 && in.TableVersion > 0 {
		_, pinned := cfg.Supplied("hoodie.write.table.version")
		c.lines = config.WriterReleases(in.TableVersion, pinned)
	}
	r := &Result{BasePath: in.BasePath, TableType: in.TableType, OverallStatus: Skipped, Checks: []Check{}, Errors: []string{},
		Hudiscope: &Extra{Engine: cfg.Engine, ApplyAllDefaults: opt.ApplyAllDefaults, Releases: opt.Releases}}
	want := map[string]bool{}
	for _, n := range opt.Checks {
		want[n] = true
	}
	funcs := map[string]func() (Check, Band, error){
		"compaction": c.compaction, "cleaner": c.cleaner, "savepoint": c.savepoint, "archival": c.archival,
		"record-index": c.recordIndex, "mdt-sync": c.mdtSync, "mdt-compaction": c.mdtCompaction, MetaSync: c.metaSync,
	}
	names := CheckNames
	if in.Catalog != nil || want[MetaSync] {
		names = append(names[:len(names):len(names)], MetaSync)
	}
	for _, name := range names {
		if len(want) > 0 && !want[name] {
			continue
		}
		c.cur = name
		ch, band, err := safeRun(funcs[name])
		if err != nil {
			r.Errors = append(r.Errors, name+": "+err.Error())
			continue
		}
		if ch.Findings == nil {
			ch.Findings = []string{}
		}
		if ch.EffectiveConfigs == nil {
			ch.EffectiveConfigs = Configs{}
		}
		r.Checks = append(r.Checks, ch)
		band.Name, band.Status = ch.Name, ch.Status
		if ch.Status == Skipped {
			skip := band.Skip
			if skip == "" {
				skip = NotJudged
			}
			band = Band{Name: ch.Name, Status: ch.Status, Skip: skip}
		}
		r.Hudiscope.Checks = append(r.Hudiscope.Checks, band)
		if rank(ch.Status) > rank(r.OverallStatus) {
			r.OverallStatus = ch.Status
		}
	}
	r.Hudiscope.Sources = c.srcs
	if r.Hudiscope.Sources == nil {
		r.Hudiscope.Sources = []SourceEntry{}
	}
	r.Hudiscope.Notes = append(c.notes, writeErrorNotes(in.Timeline)...)
	return r
}

func safeRun(f func() (Check, Band, error)) (ch Check, b Band, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
		}
	}()
	return f()
}

func skipped(name, summary string) Check {
	return Check{Name: name, Status: Skipped, Summary: summary, Findings: []string{}, EffectiveConfigs: Configs{}}
}

func (c *ctx) skipForMissing(name, key string) Check {
	if why := c.why[key]; why != "" {
		key = c.name(key)
		return skipped(name, fmt.Sprintf("Writer property '%s' is not set in the writer properties and %s, so this check "+
			"cannot judge the table. Pass it via --props or --hoodie-conf.", key, why))
	}
	key = c.name(key)
	return skipped(name, fmt.Sprintf("Writer property '%s' was not supplied, so this check cannot judge the table against the "+
		"settings it is actually written with. Pass it via --props or --hoodie-conf, or rerun "+
		"with --apply-all-defaults to evaluate against Hudi defaults.", key))
}

// spellings are the names the writing release lines give key (the check's 1.x name) and the
// alternatives they accept for it (withAlternatives: 1.x reads hoodie.clean.max.commits for
// hoodie.clean.trigger.max.commits): the names a supplied value counts under, canonical names
// first, in line order without repeats; [key] when no line is known or none has the key.
func (c *ctx) spellings(key string) []string {
	var names, alts []string
	for _, l := range c.lines {
		n, ok := config.NameIn(key, l)
		if !ok {
			continue
		}
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
		if k, ok := config.Key(n, l); ok {
			for _, a := range k.Alternatives {
				if !slices.Contains(alts, a) {
					alts = append(alts, a)
				}
			}
		}
	}
	if len(names) == 0 {
		return []string{key}
	}
	for _, a := range alts {
		if !slices.Contains(names, a) {
			names = append(names, a)
		}
	}
	return names
}

// name is what the writing release calls key (the newest line's name when they differ).
func (c *ctx) name(key string) string {
	n := key
	for _, l := range c.lines {
		if m, ok := config.NameIn(key, l); ok {
			n = m
		}
	}
	return n
}

// suppliedExact is SuppliedExact under the writing release's names for key (Java's
// containsKey, asked of the release that reads the props). A value under a spelling that
// release does not know does nothing in the writer: it is left out, and noted once.
func (c *ctx) suppliedExact(key string) (config.Value, bool) {
	return c.supplied(key, c.cfg.SuppliedExact)
}

// suppliedAlt is suppliedExact accepting alternative keys (Supplied).
func (c *ctx) suppliedAlt(key string) (config.Value, bool) {
	return c.supplied(key, c.cfg.Supplied)
}

func (c *ctx) supplied(key string, find func(string) (config.Value, bool)) (config.Value, bool) {
	sp := c.spellings(key)
	for _, n := range sp {
		if v, ok := find(n); ok {
			if n != key {
				v.Key, v.AltKey = key, n
			}
			return v, true
		}
	}
	c.noteIgnored(key)
	return config.Value{}, false
}

// noteIgnored notes, once, that key was supplied under a spelling the writing release does
// not read (1.x names in a 0.14 writer's props are silently ignored by it).
func (c *ctx) noteIgnored(key string) {
	sp := c.spellings(key)
	if slices.Contains(sp, key) || c.ignored[key] {
		return
	}
	if v, ok := c.cfg.SuppliedExact(key); ok {
		c.ignored[key] = true
		c.notes = append(c.notes, IgnoredKeyNote(key, c.name(key), c.lines, v.Origin))
	}
}

// IgnoredKeyNote says a supplied key does nothing in the releases that write the table, and
// what they read instead ("hoodie.clean.trigger.max.commits (props /p) is ignored by Hudi
// 0.14/0.15, which writes this table: it reads hoodie.clean.max.commits").
func IgnoredKeyNote(key, theirs string, lines []string, origin string) string {
	at := ""
	if origin != "" {
		at = " (" + origin + ")"
	}
	s := fmt.Sprintf("'%s'%s is ignored by Hudi %s, which writes this table", key, at, strings.Join(lines, "/"))
	if theirs != key {
		s += fmt.Sprintf(": it reads '%s', so the checks do too", theirs)
	}
	return s
}

// firstMissing is HealthCheckContext.firstMissingConfig (exact keys, as Java's containsKey).
// In release mode a key the writer properties leave unset is not missing when the writing
// release has a default for it.
func (c *ctx) firstMissing(keys ...string) (string, bool) {
	if c.opt.ApplyAllDefaults {
		return "", false
	}
	for _, k := range keys {
		if c.releaseHas(k) {
			continue
		}
		if _, ok := c.suppliedExact(k); !ok {
			return k, true
		}
	}
	return "", false
}

// firstMissingAlt also accepts alternative keys (the record-index check's rule).
func (c *ctx) firstMissingAlt(keys ...string) (string, bool) {
	if c.opt.ApplyAllDefaults {
		return "", false
	}
	for _, k := range keys {
		if c.releaseHas(k) {
			continue
		}
		if _, ok := c.suppliedAlt(k); !ok {
			return k, true
		}
	}
	return "", false
}

// releaseHas: release mode, and the key is supplied under a spelling the writing release
// accepts or has that release's default (else why[key] says which it lacks).
func (c *ctx) releaseHas(key string) bool {
	if len(c.opt.Releases) == 0 {
		return false
	}
	v, ok, why := c.cfg.WriterValue(key, c.opt.Releases)
	if !ok {
		c.why[key] = why
	}
	if !ok || v.Source == config.SourceRelease {
		c.noteIgnored(key) // at the default although a value was supplied: say why
	}
	return ok
}

// get is props.getString(key, default): the supplied value, else the default (engine-effective
// where assets.EngineDefaults has one, else declared). alt: honour alternative keys.
func (c *ctx) get(key string, alt bool) string {
	var v config.Value
	var ok bool
	if len(c.opt.Releases) > 0 {
		v, ok, _ = c.cfg.WriterValue(key, c.opt.Releases)
	}
	switch {
	case ok:
	case alt:
		v, ok = c.suppliedAlt(key)
	default:
		v, ok = c.suppliedExact(key)
	}
	if !ok {
		v, ok = c.cfg.Default(key)
	}
	if !ok {
		return ""
	}
	src := v.SourceLabel()
	if v.AltKey != "" {
		src += " as " + v.AltKey
	}
	c.srcs = append(c.srcs, SourceEntry{Check: c.cur, Key: key, Value: v.Display(), Source: src})
	return v.Raw
}

func parseInt(s string) (int64, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 32)
	if err != nil {
		//lint:ignore ST1005 the Java tool's exception message, reproduced for JSON compatibility
		return 0, fmt.Errorf("For input string: \"%s\"", s)
	}
	return n, nil
}

func parseLong(s string) (int64, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		//lint:ignore ST1005 the Java tool's exception message, reproduced for JSON compatibility
		return 0, fmt.Errorf("For input string: \"%s\"", s)
	}
	return n, nil
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func i64(n int64) *int64 { return &n }

func slack(factor float64, n int64) int64 { return int64(math.Ceil(factor * float64(n))) }

// band computes the state of an observed count against trigger and threshold. strict: unhealthy
// past the threshold (>); else at it (≥).
func band(measure string, observed, trigger, threshold int64, strict bool) Band {
	b := Band{Measure: measure, Observed: i64(observed), Trigger: i64(trigger), Threshold: i64(threshold)}
	over := observed > threshold
	if !strict {
		over = observed >= threshold
	}
	switch {
	case over:
		b.State = Stopped
	case observed > trigger:
		b.State = Behind
	default:
		b.State = OnTrack
	}
	return b
}

// --- timeline helpers (Java HoodieTimeline views over the active timeline) ---

func (c *ctx) instants() []*timeline.Instant {
	if c.in.Timeline == nil {
		return nil
	}
	return byRequested(c.in.Timeline.Instants)
}

func byRequested(in []*timeline.Instant) []*timeline.Instant {
	out := append([]*timeline.Instant(nil), in...)
	timeline.SortByRequested(out)
	return out
}

func filter(in []*timeline.Instant, keep func(*timeline.Instant) bool) []*timeline.Instant {
	var out []*timeline.Instant
	for _, i := range in {
		if keep(i) {
			out = append(out, i)
		}
	}
	return out
}

func last(in []*timeline.Instant) *timeline.Instant {
	if len(in) == 0 {
		return nil
	}
	return in[len(in)-1]
}

func completed(i *timeline.Instant) bool { return i.IsCompleted() }

// isCommitsTimeline: getCommitsTimeline (commit, deltacommit, replacecommit, clustering).
func isCommitsTimeline(i *timeline.Instant) bool { return i.InCommitsTimeline() }

// isWriteTimeline: getWriteTimeline (+ compaction, logcompaction; pending included).
func isWriteTimeline(i *timeline.Instant) bool { return i.InWriteTimeline() }

func isDelta(i *timeline.Instant) bool { return i.IsDeltaCommit() }

// isPendingCompaction and isCompaction read MERGE_ON_READ timelines only (the compaction checks
// skip other tables; a metadata table is MOR).
func isPendingCompaction(i *timeline.Instant) bool {
	return i.IsCompaction(tableconfig.MergeOnRead) && !i.IsCompleted()
}

func after(in []*timeline.Instant, ts string) []*timeline.Instant {
	return filter(in, func(i *timeline.Instant) bool { return timeline.CompareInstants(i.RequestedTime, ts) > 0 })
}

// isCompaction: a completed compaction. On a MERGE_ON_READ timeline (the data table's or the
// metadata table's) a compaction completes as a commit; a replacecommit (clustering,
// insert_overwrite) merges no log files, so it does not reset the count.
func isCompaction(i *timeline.Instant) bool {
	return i.IsCompaction(tableconfig.MergeOnRead) && completed(i)
}

// sinceCompaction is what a compaction check counts.
type sinceCompaction struct {
	deltas []*timeline.Instant
	// compaction is the last completed compaction (nil: none on the timelines read); first is
	// then the earliest delta commit, where the count starts.
	compaction, first *timeline.Instant
}

// deltaCommitsSinceLatestCompaction is CompactionUtils.getCompletedDeltaCommitsSinceLatestCompaction
// over the active and, when read, archived instants: completed delta commits whose completion
// time is after the last compaction's requested time; with no compaction, every completed delta
// commit. ok is false when there is no delta commit at all.
func deltaCommitsSinceLatestCompaction(active, archived []*timeline.Instant) (sc sinceCompaction, ok bool) {
	all := byRequested(append(append([]*timeline.Instant(nil), archived...), active...))
	ds := filter(all, isDelta)
	if lc := last(filter(all, isCompaction)); lc != nil {
		sc.compaction = lc
		sc.deltas = filter(ds, func(i *timeline.Instant) bool {
			if !i.IsCompleted() || i.RequestedTime == lc.RequestedTime {
				return false
			}
			// Before table version 8 there is no completion time on storage (ours is the
			// file's modification time, to the second) and Hudi 0.x counts by requested time
			// (findInstantsAfter): a delta commit requested before the compaction but
			// finished in its second is not after it.
			if i.CompletionDerived || lc.CompletionDerived {
				return timeline.CompareInstants(i.RequestedTime, lc.RequestedTime) > 0
			}
			return i.CompletionTime != "" && timeline.CompareInstants(i.CompletionTime, lc.RequestedTime) > 0
		})
		return sc, true
	}
	if len(ds) == 0 {
		return sc, false
	}
	sc.first, sc.deltas = ds[0], filter(ds, completed)
	return sc, true
}

// DeltaCommitsSinceCompaction is what the mdt-compaction check counts on a merge-on-read
// timeline (the metadata table's active one): the completed delta commits since the last
// completed compaction (nil when there is none), as CompactionUtils counts them.
func DeltaCommitsSinceCompaction(instants []*timeline.Instant) (deltas []*timeline.Instant, compaction *timeline.Instant) {
	sc, _ := deltaCommitsSinceLatestCompaction(instants, nil)
	return sc.deltas, sc.compaction
}

// since names where the count starts, for summaries.
func (sc sinceCompaction) since(archiveRead bool) string {
	if c := sc.compaction; c != nil {
		if c.Archived {
			return "compaction at " + c.RequestedTime + " (archived)"
		}
		return "compaction at " + c.RequestedTime
	}
	where := "the active timeline"
	if archiveRead {
		where = "the active or archived timeline"
	}
	return "the first delta commit at " + sc.first.RequestedTime + " (no completed compaction on " + where + ")"
}

// CountsBytes reports whether b's numbers are bytes (its measure ends in "bytes").
func (b Band) CountsBytes() bool { return strings.HasSuffix(b.Measure, " bytes") }

// writeErrorNotes name the completed commits whose write stats count failed records (Hudi
// 0.14.0 completes a commit with 29 of 30 failed): no check judges them, and the table lacks
// those records while every service looks healthy.
func writeErrorNotes(tl *timeline.Timeline) []string {
	if tl == nil {
		return nil
	}
	var out []string
	for _, in := range tl.Instants {
		if t := in.Totals; in.IsCompleted() && t.TotalWriteErrors > 0 {
			out = append(out, fmt.Sprintf("%s %s completed with %d of %d records failed to write (totalWriteErrors): the table lacks them",
				in.Action, in.RequestedTime, t.TotalWriteErrors, t.NumWrites+t.TotalWriteErrors))
		}
	}
	return out
}
