package model

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"

	"github.com/hudiscope/hudiscope/analyzers/config"
	"github.com/hudiscope/hudiscope/analyzers/eventlog"
	"github.com/hudiscope/hudiscope/analyzers/findings"
	"github.com/hudiscope/hudiscope/analyzers/layout"
	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/timeline"
	"github.com/hudiscope/hudiscope/internal/redact"
)

// Step names one load step.
type Step string

// The load steps, in the order they run.
const (
	StepProperties Step = "properties"
	StepTimeline   Step = "timeline"
	StepArchived   Step = "archived timeline"
	StepCommits    Step = "commit metadata"
	StepFiles      Step = "file-system view"
	StepConfig     Step = "effective configuration"
	StepLayout     Step = "layout"
	StepHealth     Step = "health"
	StepEventLog   Step = "event log"
	StepFindings   Step = "findings"
)

// step is one stage of Load. run fills its part of a copy of the previous snapshot.
type step struct {
	name Step
	// deps are the steps whose results run reads; asking for a step runs its deps first.
	deps []Step
	// applies reports whether the step can run with these options (an event log was given…).
	applies func(o Options) bool
	run     func(ctx context.Context, s *Snapshot) error
}

// steps is the whole pipeline, in run order: a step only reads the results of steps above it.
// Findings run last because they read every other result.
var steps = []step{
	{StepProperties, nil, needsTable, loadProperties},
	{StepTimeline, []Step{StepProperties}, needsTable, loadTimeline},
	{StepArchived, []Step{StepTimeline}, func(o Options) bool { return needsTable(o) && o.Archived }, loadArchived},
	{StepCommits, []Step{StepTimeline}, func(o Options) bool { return needsTable(o) && o.EarlyTimeline && !o.LazyCommits }, loadCommits},
	{StepFiles, []Step{StepTimeline}, needsTable, loadFiles},
	{StepConfig, []Step{StepProperties}, needsTable, loadConfig},
	{StepLayout, []Step{StepFiles, StepConfig}, needsTable, analyzeLayout},
	{StepHealth, []Step{StepTimeline, StepConfig}, needsTable, analyzeHealth},
	{StepEventLog, nil, func(o Options) bool { return o.EventLog != "" }, analyzeEventLog},
	{StepFindings, []Step{StepConfig}, needsTable, evaluateFindings},
}

func needsTable(o Options) bool { return o.Location != "" }

// plan picks the steps to run: those asked for and everything they depend on, in pipeline
// order, leaving out steps the options cannot run (no event log given, no table).
func plan(o Options) []step {
	want := map[Step]bool{}
	var add func(Step)
	add = func(name Step) {
		if want[name] {
			return
		}
		want[name] = true
		for _, st := range steps {
			if st.name == name {
				for _, d := range st.deps {
					add(d)
				}
			}
		}
	}
	if o.Steps == nil {
		for _, st := range steps {
			add(st.name)
		}
	}
	for _, name := range o.Steps {
		add(name)
	}
	if o.Archived {
		add(StepArchived)
	}
	if o.EarlyTimeline {
		add(StepCommits)
	}
	var out []step
	for _, st := range steps {
		if want[st.name] && st.applies(o) {
			out = append(out, st)
		}
	}
	return out
}

func errSkipped(dep Step) error { return fmt.Errorf("skipped: %s could not be read", dep) }

func loadProperties(ctx context.Context, s *Snapshot) error {
	t, err := hudi.Open(ctx, s.Options.Location, s.Options.Storage)
	if err != nil {
		return err
	}
	if s.Options.CountRequests {
		t.Store = storage.NewCounting(t.Store)
	}
	t.SetBootstrapPrefixes(s.Options.BootstrapPrefixes)
	if f := s.Options.OnArchived; f != nil {
		// The LSM history files decode in parallel: the hook hears one call at a time.
		var mu sync.Mutex
		t.OnArchived = func(n int) {
			mu.Lock()
			defer mu.Unlock()
			f(n)
		}
	}
	s.table, s.Config = t, t.Config
	return nil
}

func loadTimeline(ctx context.Context, s *Snapshot) error {
	if s.table == nil {
		return errSkipped(StepProperties)
	}
	load := s.table.ActiveTimeline
	early := s.Options.EarlyTimeline && !s.Options.LazyCommits
	if s.Options.LazyCommits || early {
		load = s.table.ActiveTimelineNames
	}
	tl, err := load(ctx)
	if err != nil {
		return err
	}
	if early {
		// The rows a first frame shows (either end of the list, whichever order the pane
		// opens in); StepCommits reads the rest.
		s.table.LoadCommits(ctx, earlyRows(tl.Instants), false)
	}
	s.Timeline = tl
	return nil
}

// earlyCount is how many instants at each end of the timeline the early timeline reads: more
// than a tall terminal shows.
var earlyCount = 200

func earlyRows(ins []*timeline.Instant) []*timeline.Instant {
	if len(ins) <= 2*earlyCount {
		return ins
	}
	return append(append([]*timeline.Instant(nil), ins[:earlyCount]...), ins[len(ins)-earlyCount:]...)
}

// loadCommits reads the commit metadata the early timeline left out. The published instants
// may be on screen, so it publishes a new timeline holding decoded copies. The metadata is
// read first without copying anything, and the copies are made at the end: copying first
// kept 200k copies (64 MB at 200k commits) live beside the originals through the whole read.
// It keeps sums, not the metadata (compact): on a 200k-commit table the decoded metadata
// alone was ~260 MB; the findings step decodes again the few commits it reads per file.
func loadCommits(ctx context.Context, s *Snapshot) error {
	if s.Timeline == nil {
		return errSkipped(StepTimeline)
	}
	var todo []*timeline.Instant
	var at []int // todo[k] is s.Timeline.Instants[at[k]]
	for i, in := range s.Timeline.Instants {
		if !in.MetadataLoaded() {
			todo, at = append(todo, in), append(at, i)
		}
	}
	dec := s.table.DecodeCommits(ctx, todo, true)
	todo = nil
	// The read left garbage behind; collected now, the copies below (as much memory as the
	// originals) fit under the heap goal instead of a collection marking both sets at once and
	// doubling the goal for the rest of the load.
	if len(dec) >= copyCollectMin {
		runtime.GC()
	}
	ins := slices.Clone(s.Timeline.Instants)
	for k, i := range at {
		ins[i] = ins[i].WithDecoded(&dec[k])
	}
	tl := *s.Timeline
	tl.Instants = ins
	s.Timeline = &tl
	return nil
}

// copyCollectMin is the instant count from which loadCommits collects before copying.
const copyCollectMin = 20000

func loadArchived(ctx context.Context, s *Snapshot) error {
	if s.Timeline == nil {
		return errSkipped(StepTimeline)
	}
	// Copy the timeline so holders of the previous snapshot keep the active-only view.
	tl := &timeline.Timeline{Instants: s.Timeline.Instants, ByRequested: s.Timeline.ByRequested}
	err := s.table.LoadArchived(ctx, tl)
	s.Timeline = tl
	return err
}

func loadFiles(ctx context.Context, s *Snapshot) error {
	if s.Timeline == nil {
		return errSkipped(StepTimeline)
	}
	if s.Options.OnListed == nil {
		v, err := s.table.View(ctx, s.Timeline, s.listing())
		if err != nil {
			return err
		}
		s.View = v
		return nil
	}
	v := &filegroup.View{}
	err := s.table.ViewFunc(ctx, s.Timeline, s.listing(), func(src string) error { v.Source = src; return nil },
		func(p *filegroup.Partition) error {
			v.Partitions = append(v.Partitions, p)
			s.Options.OnListed(p.NumFiles())
			return nil
		})
	if err != nil {
		return err
	}
	s.View = v
	return nil
}

func loadConfig(ctx context.Context, s *Snapshot) error {
	if s.Config == nil {
		return errSkipped(StepProperties)
	}
	eff, err := config.Load(config.Files{Engine: s.Options.Engine, PropsFile: s.Options.Props,
		HoodieConf: s.Options.HoodieConf, ClusterDefaults: s.Options.ClusterDefaults, Table: s.Config.Props})
	if err != nil {
		return err
	}
	s.Effective = eff
	return nil
}

// explorerLayout is what the Layout pane and the report show: per-partition statistics, the
// detectors and their ten worst partitions.
func explorerLayout(opt *layout.Options) {
	opt.PartitionStats, opt.Characteristics, opt.PrintTopK = true, true, 10
}

func analyzeLayout(ctx context.Context, s *Snapshot) error {
	if s.View == nil {
		return errSkipped(StepFiles)
	}
	opt := LayoutOptions(s.Effective)
	tune := s.Options.TuneLayout
	if tune == nil {
		tune = explorerLayout
	}
	tune(&opt)
	in, err := LayoutInput(ctx, s.table, s.Timeline, s.View, opt, s.Options.now())
	if err != nil {
		return err
	}
	s.Layout = layout.Analyze(in, opt)
	return nil
}

func analyzeHealth(ctx context.Context, s *Snapshot) error {
	if s.Timeline == nil {
		return errSkipped(StepTimeline)
	}
	// The file view is reused when an earlier step listed it (mdt-sync then needs no second
	// metadata-table read); the health command alone does not list the table.
	in := HealthInputWithView(ctx, s.table, s.Timeline, s.View, s.Options.now())
	addCatalog(&in, s)
	s.HealthIn = &in
	s.Health = s.RunHealth(s.Options.Health.ApplyAllDefaults)
	return nil
}

func analyzeEventLog(ctx context.Context, s *Snapshot) error {
	if s.Options.FollowEventLog {
		if err := followEventLog(ctx, s); err != nil {
			return err
		}
		s.addEventLogConfig()
		return nil
	}
	r, err := AnalyzeEventLog(ctx, s.Options.EventLog, s.Options.Storage, s.Options.EventLogTune)
	if err != nil {
		return err
	}
	s.EventLog = r
	s.addEventLogConfig()
	s.compareEventLog(ctx)
	return nil
}

// compareEventLog reads Options.CompareEventLog and compares the event log with it; a second
// log that cannot be read leaves the first one loaded (CompareErr says why).
func (s *Snapshot) compareEventLog(ctx context.Context) {
	if s.Options.CompareEventLog == "" || s.EventLog == nil {
		return
	}
	r, err := AnalyzeEventLog(ctx, s.Options.CompareEventLog, s.Options.Storage, s.Options.EventLogTune)
	if err != nil {
		s.CompareErr = fmt.Errorf("compared event log %s: %w", redact.Value("", s.Options.CompareEventLog), err)
		return
	}
	s.CompareLog, s.EventLogCompare = r, eventlog.Compare(s.EventLog, r)
}

// addEventLogConfig adds the hoodie.* keys of the event log's Spark Properties to the effective
// configuration (below hudi-defaults.conf) and judges health again with them, so a key the
// application set counts as supplied everywhere health is shown. The layout analysis, which
// ran before the event log was read, keeps the configuration it had.
func (s *Snapshot) addEventLogConfig() {
	if s.Effective == nil || s.EventLog == nil {
		return
	}
	// The origin is shown beside values: a URI's credentials are stripped from it.
	eff := s.Effective.WithEventLog(s.EventLog.Hudiscope.Hudi.Configs, "Spark Properties of "+redact.Value("", s.Options.EventLog))
	if eff == s.Effective {
		return
	}
	s.Effective = eff
	if s.HealthIn != nil {
		s.Health = s.RunHealth(s.Options.Health.ApplyAllDefaults)
	}
}

func evaluateFindings(ctx context.Context, s *Snapshot) error {
	if s.Config == nil {
		return errSkipped(StepProperties)
	}
	in := FindingsInput(s)
	in.Timeline = findingsTimeline(ctx, s)
	in.Records, in.RecordsSource = findingsRecords(ctx, s)
	s.Findings = findings.Evaluate(in, nil)
	if s.CompareLog != nil {
		s.Applied = findings.VerifyApplied(nil, s.Findings, s.EventLog, s.CompareLog)
	}
	return nil
}
