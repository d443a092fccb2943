// Package model holds the one read-only table model every pane and report reads. Load fills a
// Snapshot step by step; each step publishes a new Snapshot value, so a pane holding an older
// one never sees it change underneath it.
package model

import (
	"context"
	"sync"
	"time"

	"github.com/hudiscope/hudiscope/analyzers/checkpoint"
	"github.com/hudiscope/hudiscope/analyzers/config"
	"github.com/hudiscope/hudiscope/analyzers/eventlog"
	"github.com/hudiscope/hudiscope/analyzers/health"
	"github.com/hudiscope/hudiscope/analyzers/layout"
	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/problem"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/tableconfig"
	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/internal/clock"
)

// Options say what to load. Every command fills one and calls Load; none wires the reader
// itself, so the TUI and the commands agree on listing source, configuration and numbers.
type Options struct {
	// Location is the table (directory, .zip or URI); "" when only an event log is analysed.
	Location string
	// Steps are the results the caller needs; Load adds the steps they depend on. nil runs
	// every step that applies (the explorer and the full report).
	Steps []Step
	// Storage configures remote backends (S3 endpoint and region, HDFS configuration).
	Storage  storage.Options
	Archived bool // also read the archived timeline
	// LazyCommits builds the timeline from file names: commit metadata is read only for
	// replacecommits (the file view needs them) until the caller streams them (StreamCommits).
	LazyCommits bool
	// EarlyTimeline (the explorer) publishes the timeline from file names with only its first
	// and last rows' metadata read, so the Timeline's first frame does not wait for every
	// commit; StepCommits reads the rest into copies and publishes them as a new timeline.
	EarlyTimeline bool
	Props         string
	EventLog      string
	// HoodieConf are --hoodie-conf k=v writer properties; Engine picks the engine-effective
	// defaults (spark, flink, java; default spark).
	HoodieConf []string
	Engine     string
	// NoMDT lists partitions from storage even when the metadata table has a `files` partition.
	NoMDT bool
	// ClusterDefaults names the cluster-wide hudi-defaults.conf; "" finds it as EMR does
	// ($HUDI_CONF_DIR, /etc/hudi/conf), "-" reads none (reproducible reports and tests).
	ClusterDefaults string
	// HudiVersion is the Hudi release that reads the table (incremental-read verdicts follow
	// its rules); "" judges for every release line that can read the table version.
	HudiVersion string
	// BootstrapPrefixes rewrite the start of bootstrap source paths (a bootstrapped table's
	// skeleton files take their data columns from files the bootstrap index names by their
	// absolute path at bootstrap time).
	BootstrapPrefixes []hudi.PrefixMap
	// HudiLibDir is where the installed Hudi bundle names the reader when HudiVersion is
	// "" (read only when a verdict needs it, never at start-up).
	HudiLibDir string
	// Now is the clock ages are measured against (savepoint age, file age); nil is time.Now.
	Now func() time.Time
	// OnListed, when set, is called by the file-system view step with the data files of each
	// partition as it is listed (a command's progress count on a terminal).
	OnListed func(files int)
	// OnArchived, when set, hears each archived instant as the archived timeline is decoded
	// (one call at a time).
	OnArchived func(instants int)
	// OnSlices, when set, hears each file slice a records read (snapshot, incremental,
	// duplicates, key) begins.
	OnSlices func(slices int)

	// TuneLayout adjusts the layout analysis after its defaults are taken from the effective
	// configuration (the layout command's thresholds, dates and output switches); nil keeps
	// the explorer's settings.
	TuneLayout func(*layout.Options)
	// Health selects checks and default handling; its Config is filled from the config step.
	Health health.Options
	// Catalog is what a metastore says about the table (fleet --glue); the meta-sync health
	// check compares it with the table. nil: not known to a catalog.
	Catalog *health.Catalog
	// EventLogTune adjusts the event-log analyzer's options (progress, task percentiles).
	EventLogTune func(*eventlog.Options)
	// CountRequests wraps the table's storage in a storage.Counting (a watch shows the
	// requests it makes and their cost).
	CountRequests bool
	// FollowEventLog reads the event log through an eventlog.Follower, so a watch can poll
	// the appended events of a running application (Snapshot.FollowEventLog).
	FollowEventLog bool
	// CompareEventLog is a second event log (the run after a change) compared with EventLog
	// (Snapshot.EventLogCompare); read with the event log, not followed.
	CompareEventLog string
}

func (o Options) now() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return clock.Now()
}

// Now is the clock the snapshot measures ages against (Options.Now, else the process clock):
// listings that count back from now (--since 7d) use it, so one setting moves them all.
func (s *Snapshot) Now() time.Time { return s.Options.now() }

// Snapshot is the table model. Fields are nil until their step has run; StepErrors holds the
// error of each step that failed, and the other panes still work.
type Snapshot struct {
	Options Options
	// table is the reader; callers read through the snapshot's methods (EachPartition,
	// StreamCommits, CheckCheckpoint, …), never the reader itself.
	table    *hudi.Table
	Config   *tableconfig.Config
	Timeline *timeline.Timeline
	View     *filegroup.View
	// Effective is the effective writer configuration; Layout and Health the analyzers' reports.
	Effective *config.Effective
	Layout    *layout.Result
	Health    *health.Result
	EventLog  *EventLogReport // the Spark event log's analysis (nil without --event-log)
	Findings  *FindingsResult // the optimization catalogs evaluated against the rest
	// CompareLog is Options.CompareEventLog's analysis and EventLogCompare the event log
	// compared with it (nil without it); CompareErr says why the second log could not be read.
	CompareLog      *EventLogReport
	EventLogCompare *eventlog.Comparison
	CompareErr      error
	// Applied are the catalog rows whose keys differ between the two logs' properties, each
	// verified on them (findings step; nil without a compared log).
	Applied []AppliedChange
	// HealthIn is what the health step read; RunHealth judges it again with other options
	// without reading the table.
	HealthIn *health.Input
	// follower tails the event log (Options.FollowEventLog).
	follower *eventlog.Follower
	// begins holds IncrementalBegins once computed: each reader line reads the newest clean's
	// metadata (a GET on S3), and the Overview, the Timeline header and the report's sections
	// all ask. Every clone gets a fresh one (its timeline may differ); nil computes each time.
	begins *beginsMemo

	// Done lists the steps that have finished (successfully or not), in order.
	Done       []Step
	StepErrors map[Step]error
	LoadedAt   time.Time
}

// Progress is one load event: the step running, how far along, and the snapshot so far.
type Progress struct {
	Step     Step
	Index    int // 1-based step number
	Total    int
	Snapshot *Snapshot
	Finished bool // the whole load is over
}

// Load runs the steps the options ask for (with their dependencies, in the order of steps),
// calling progress (if non-nil) before each step and after the last. It returns the final
// snapshot and an error only when the table could not be opened.
func Load(ctx context.Context, opts Options, progress func(Progress)) (*Snapshot, error) {
	s := &Snapshot{Options: opts, StepErrors: map[Step]error{}, begins: &beginsMemo{}}
	todo := plan(opts)
	for i, st := range todo {
		if progress != nil {
			progress(Progress{Step: st.name, Index: i + 1, Total: len(todo), Snapshot: s})
		}
		next := s.clone()
		if err := st.run(ctx, next); err != nil {
			next.StepErrors[st.name] = err
		}
		next.Done = append(next.Done, st.name)
		s = next
		if ctx.Err() != nil {
			break
		}
	}
	s.LoadedAt = opts.now()
	if progress != nil {
		progress(Progress{Index: len(todo), Total: len(todo), Snapshot: s, Finished: true})
	}
	if s.table == nil && opts.Location != "" {
		return s, s.StepErrors[StepProperties]
	}
	return s, nil
}

// clone copies the snapshot shallowly; maps are copied so steps never mutate a published one.
func (s *Snapshot) clone() *Snapshot {
	c := *s
	c.StepErrors = make(map[Step]error, len(s.StepErrors))
	for k, v := range s.StepErrors {
		c.StepErrors[k] = v
	}
	c.Done = append([]Step(nil), s.Done...)
	c.begins = &beginsMemo{}
	return &c
}

// beginsMemo is IncrementalBegins computed once (the panes ask from concurrent commands). A
// computation its context cut short is not kept: the clean it could not read would have moved
// the earliest readable value.
type beginsMemo struct {
	mu   sync.Mutex
	done bool
	v    []checkpoint.Begins
}

// RunHealth runs the health checks on what the health step read, with the loaded options but
// applyAll for ApplyAllDefaults; nil when the step has not read anything.
func (s *Snapshot) RunHealth(applyAll bool) *health.Result {
	if s.HealthIn == nil {
		return nil
	}
	opt := s.Options.Health
	opt.Config, opt.ApplyAllDefaults = s.Effective, applyAll
	opt.Releases = s.WriterReleases()
	return health.Run(*s.HealthIn, opt)
}

// WriterReleases are the Hudi release lines whose defaults apply to the keys the writer
// properties leave unset, when a --props file was given (the writer's own properties: a key it
// does not set is at the writing release's default): the lines that write the table's version
// (config.WriterReleases, newer lines too when the writer set hoodie.write.table.version).
// nil without one, or when it was not read (a key it might set is then unknown, not at a
// default): a check then skips a key nobody supplied, as the Java checker does.
func (s *Snapshot) WriterReleases() []string {
	if s.Options.Props == "" || s.Config == nil || s.Effective == nil || s.StepErrors[StepConfig] != nil {
		return nil
	}
	_, set := s.Effective.Supplied("hoodie.write.table.version")
	return config.WriterReleases(s.Config.Version, set)
}

// WithHealth is the snapshot judged with applyAll for ApplyAllDefaults (the Health pane's d): a
// copy whose options and health result say so, sharing everything read, so every surface
// reading it (Overview, panes, exports) shows one verdict. s itself when the health step has not
// read anything or already judges that way.
func (s *Snapshot) WithHealth(applyAll bool) *Snapshot {
	if s.HealthIn == nil || (s.Health != nil && s.Options.Health.ApplyAllDefaults == applyAll) {
		return s
	}
	c := s.clone()
	c.Options.Health.ApplyAllDefaults = applyAll
	c.Health = c.RunHealth(applyAll)
	return c
}

// WithFindings is s with its findings evaluated again, for a snapshot WithHealth re-judged
// (catalog rows read the health result); s itself when the findings step has not run. It reads
// commit metadata the findings need, so the explorer runs it off the UI loop.
func (s *Snapshot) WithFindings(ctx context.Context) *Snapshot {
	if !s.HasRun(StepFindings) || s.Config == nil {
		return s
	}
	c := s.clone()
	delete(c.StepErrors, StepFindings)
	if err := evaluateFindings(ctx, c); err != nil {
		c.StepErrors[StepFindings] = err
	}
	return c
}

// HasRun reports whether a step has finished.
func (s *Snapshot) HasRun(st Step) bool {
	for _, d := range s.Done {
		if d == st {
			return true
		}
	}
	return false
}

// Problems gathers bad input met by the reader.
func (s *Snapshot) Problems() []problem.Problem {
	if s.table == nil {
		return nil
	}
	return s.table.Problems()
}

// Readers are the Hudi release lines whose incremental-read rules the verdicts follow: the
// line of Options.HudiVersion, else every line that reads this table version. An unusable
// HudiVersion is returned as the error (and every line is judged).
func (s *Snapshot) Readers() ([]checkpoint.Reader, error) {
	if s.table == nil {
		return nil, errSkipped(StepProperties)
	}
	release := s.Options.HudiVersion
	if release == "" && s.Options.HudiLibDir != "" {
		release, _ = checkpoint.InstalledRelease(s.Options.HudiLibDir)
	}
	rds, err := checkpoint.ReadersFor(release, s.table.Version())
	if err != nil {
		return checkpoint.ReadersOf(s.table.Version()), err
	}
	return rds, nil
}

// IncrementalBegins are, per reader line, the begin value a pipeline stores after the latest
// write (resume) and the earliest one the cleaner still serves: the two values the Overview,
// the Timeline pane and the report show, computed here once so the views only lay them out.
func (s *Snapshot) IncrementalBegins(ctx context.Context) []checkpoint.Begins {
	if s.begins == nil {
		return s.incrementalBegins(ctx)
	}
	m := s.begins
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.done {
		v := s.incrementalBegins(ctx)
		if ctx.Err() != nil {
			return v
		}
		m.v, m.done = v, true
	}
	return m.v
}

func (s *Snapshot) incrementalBegins(ctx context.Context) []checkpoint.Begins {
	if s.Timeline == nil || s.table == nil {
		return nil
	}
	rds, _ := s.Readers()
	var out []checkpoint.Begins
	for _, rd := range rds {
		if b, ok := checkpoint.ReaderBegins(ctx, s.table, s.Timeline, rd); ok {
			out = append(out, b)
		}
	}
	return out
}

// IncrementalStarts are, per reader line, the earliest begin value that still reads every
// write on the active timeline inside the cleaner's retention (checkpoint accepts each): the
// "earliest readable" half of IncrementalBegins.
func (s *Snapshot) IncrementalStarts(ctx context.Context) []checkpoint.Start {
	var out []checkpoint.Start
	for _, b := range s.IncrementalBegins(ctx) {
		out = append(out, b.Earliest)
	}
	return out
}
