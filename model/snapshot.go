// Package model holds the one read-only table model every pane and report reads. Load fills a
// Snapshot step by step; each step publishes a new Snapshot value, so a pane holding an older
// one never sees it change underneath it.
package model

import (
	"context"
	"fmt"
	"time"

	"github.com/hudiscope/hudiscope/analyzers/config"
	"github.com/hudiscope/hudiscope/analyzers/health"
	"github.com/hudiscope/hudiscope/analyzers/layout"
	"github.com/hudiscope/hudiscope/hudi"
)

// Step names one load step.
type Step string

const (
	StepProperties Step = "properties"
	StepTimeline   Step = "timeline"
	StepArchived   Step = "archived timeline"
	StepFiles      Step = "file-system view"
)

// Options say what to load.
type Options struct {
	Location string
	Archived bool // also read the archived timeline
	Props    string
	EventLog string
	// HoodieConf are --hoodie-conf k=v writer properties; Engine picks the engine-effective
	// defaults (spark, flink, java; default spark).
	HoodieConf []string
	Engine     string
	// NoMDT lists partitions from storage even when the metadata table has a `files` partition.
	NoMDT bool
	// ClusterDefaults names the cluster-wide hudi-defaults.conf; "" finds it as EMR does
	// ($HUDI_CONF_DIR, /etc/hudi/conf), "-" reads none (reproducible reports and tests).
	ClusterDefaults string
	// Now is the clock ages are measured against (savepoint age, file age); nil is time.Now.
	Now func() time.Time
}

func (o Options) now() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return time.Now()
}

// Snapshot is the table model. Fields are nil until their step has run; StepErrors holds the
// error of each step that failed, and the other panes still work.
type Snapshot struct {
	Options  Options
	Table    *hudi.Table
	Config   *hudi.TableConfig
	Timeline *hudi.Timeline
	View     *hudi.FileSystemView
	// Effective is the effective writer configuration; Layout and Health the analyzers' reports.
	Effective *config.Effective
	Layout    *layout.Result
	Health    *health.Result
	EventLog  *EventLogReport // the Spark event log's analysis (nil without --event-log)
	Findings  *FindingsResult // the optimization catalogs evaluated against the rest

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

// step is one stage of Load. run returns a new snapshot (copy-on-write of the previous).
type step struct {
	name Step
	// needed reports whether the step applies to these options.
	needed func(o Options) bool
	run    func(ctx context.Context, s *Snapshot) error
}

// steps run in order; later packages' steps (layout, health, event log, findings) are appended
// in this package's other files.
var steps = []step{
	{StepProperties, always, func(ctx context.Context, s *Snapshot) error {
		t, err := hudi.Open(ctx, s.Options.Location)
		if err != nil {
			return err
		}
		s.Table, s.Config = t, t.Config
		return nil
	}},
	{StepTimeline, always, func(ctx context.Context, s *Snapshot) error {
		if s.Table == nil {
			return errSkipped(StepProperties)
		}
		tl, err := s.Table.ActiveTimeline(ctx)
		if err != nil {
			return err
		}
		s.Timeline = tl
		return nil
	}},
	{StepArchived, func(o Options) bool { return o.Archived }, func(ctx context.Context, s *Snapshot) error {
		if s.Timeline == nil {
			return errSkipped(StepTimeline)
		}
		// Copy the timeline so holders of the previous snapshot keep the active-only view.
		tl := &hudi.Timeline{Instants: s.Timeline.Instants}
		err := s.Table.LoadArchived(ctx, tl)
		s.Timeline = tl
		return err
	}},
	{StepFiles, always, func(ctx context.Context, s *Snapshot) error {
		if s.Timeline == nil {
			return errSkipped(StepTimeline)
		}
		v, err := s.Table.FileSystemViewAuto(ctx, s.Timeline, !s.Options.NoMDT)
		if err != nil {
			return err
		}
		s.View = v
		return nil
	}},
}

func always(Options) bool { return true }

func errSkipped(dep Step) error { return fmt.Errorf("skipped: %s could not be read", dep) }

// Load runs every step that applies, calling progress (if non-nil) before each step and after
// the last. It returns the final snapshot and an error only when the table could not be opened.
func Load(ctx context.Context, opts Options, progress func(Progress)) (*Snapshot, error) {
	s := &Snapshot{Options: opts, StepErrors: map[Step]error{}}
	var todo []step
	for _, st := range steps {
		if st.needed(opts) {
			todo = append(todo, st)
		}
	}
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
	s.LoadedAt = time.Now()
	if progress != nil {
		progress(Progress{Index: len(todo), Total: len(todo), Snapshot: s, Finished: true})
	}
	if s.Table == nil {
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
	return &c
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
func (s *Snapshot) Problems() []hudi.Problem {
	if s.Table == nil {
		return nil
	}
	return s.Table.Problems()
}

// IncrementalStart is the oldest point an incremental read can still start from: the later of
// the active timeline's first write and the last clean's earliest retained commit.
func (s *Snapshot) IncrementalStart(ctx context.Context) (instant, reason string) {
	if s.Timeline == nil || s.Table == nil {
		return "", ""
	}
	r := s.Table.CheckIncrementalCheckpoint(ctx, s.Timeline, "")
	instant, reason = r.ActiveStart, "active timeline start"
	if r.EarliestCommitToRetain != "" && hudi.CompareInstants(r.EarliestCommitToRetain, instant) > 0 {
		instant, reason = r.EarliestCommitToRetain, "cleaner's earliest retained commit"
	}
	return instant, reason
}
