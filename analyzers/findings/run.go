package findings

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/hudiscope/hudiscope/analyzers/eventlog"
)

// RunFacts are run.* measurements derived from the event log where one signal needs several
// fields of the same stage (a catalog row's "a stage that is both X and Y"), or a comparison
// no single JSON field carries. Like TableFacts, nil means "not derivable".
type RunFacts struct {
	// Slots is the executor task slots the run demonstrably had: spark.executor.cores ×
	// peakConcurrentExecutors when the writer properties carry the cores, else the highest
	// concurrency a stage reached (executor run time over stage duration), a lower bound.
	Slots       *int         `json:"slots"`
	SlotsSource *string      `json:"slotsSource"`
	Tagging     TaggingFacts `json:"tagging"`
	// Skew is the most skewed stage among those long enough to matter (10 s+).
	Skew StageFact `json:"skew"`
	// UnderParallel is the longest tagging stage with fewer tasks than slots and uniformly
	// long tasks (skew ≤ 2).
	UnderParallel StageFact `json:"underParallel"`
	// TinyTasks is the stage with the most tasks among those of 200+ tasks whose median task
	// ran under 100 ms, in the phases a parallelism key governs (tagging, data write): a
	// cleaning or metadata-table stage of tiny tasks is no evidence about those keys.
	// TinyTagging and TinyWrite are the same per phase.
	TinyTasks   StageFact `json:"tinyTasks"`
	TinyTagging StageFact `json:"tinyTagging"`
	TinyWrite   StageFact `json:"tinyWrite"`
	// MaxTasks is the most tasks one stage of a phase planned: a configured parallelism far
	// above it was never used by this run (the log contradicts the props).
	MaxTasks   PhaseTasks      `json:"maxTasks"`
	Compaction CompactionFacts `json:"compaction"`
	Spill      SpillFacts      `json:"spill"`
	// ListingMillis is the stage wall clock of "Parallel listing paths" jobs (storage listing).
	ListingMillis *float64 `json:"listingMillis"`
}

// TaggingFacts describe the DEDUP_AND_INDEX_TAGGING stages.
type TaggingFacts struct {
	// FilesTrackingShare is the share of the tagging stages' wall clock in stages whose task
	// count is within 20% of layout.totalFiles: the SIMPLE-index signature.
	FilesTrackingShare *float64 `json:"filesTrackingShare"`
	// InheritsSource: the first tagging stage planned as many tasks as a source-read stage.
	InheritsSource *bool `json:"inheritsSource"`
	Tasks          *int  `json:"tasks"` // the first tagging stage's task count
}

// StageFact names one stage and its measurements.
type StageFact struct {
	Stage          *string  `json:"stage"`
	Ratio          *float64 `json:"ratio"`
	DurationMillis *float64 `json:"durationMillis"`
	Tasks          *float64 `json:"tasks"`
}

// PhaseTasks are per-phase task counts (nil: no stage of that phase in the log).
type PhaseTasks struct {
	Tagging *float64 `json:"tagging"`
	Write   *float64 `json:"write"`
	// TaggingOrWrite is the larger of the two (the shuffle parallelism keys govern both).
	TaggingOrWrite *float64 `json:"taggingOrWrite"`
}

// CompactionFacts describe the COMPACTION operation's stages.
type CompactionFacts struct {
	// ExecutionShare is the data table's compaction EXECUTION stages' share of all stage wall
	// clock (nil: no such stage in the log). OBS-015 chooses its lever by it: short executions
	// want a lower trigger, long ones more target IO.
	ExecutionShare *float64 `json:"executionShare"`
}

// SpillFacts split memory spill by phase.
type SpillFacts struct {
	TaggingBytes *float64 `json:"taggingBytes"`
	WriteBytes   *float64 `json:"writeBytes"`
	// GCFraction is the highest gcFractionOfRunTime among spilling stages (-1 never counted).
	GCFraction *float64 `json:"gcFraction"`
}

func stageName(s eventlog.Stage) string {
	n := "stage " + strconv.Itoa(s.StageID)
	if s.SubPhase != nil && *s.SubPhase != "" {
		n += " (" + s.Phase + "/" + *s.SubPhase + ")"
	} else if s.Phase != "" {
		n += " (" + s.Phase + ")"
	}
	return n
}

func stageFact(s eventlog.Stage, ratio float64) StageFact {
	return StageFact{Stage: ptr(stageName(s)), Ratio: ptr(ratio), DurationMillis: ptr(float64(s.Observed.DurationMillis)),
		Tasks: ptr(float64(s.Observed.NumTasksPlanned))}
}

// DeriveRunFacts computes the run facts (totalFiles < 0: no layout; cores 0: not supplied).
func DeriveRunFacts(r *eventlog.Report, totalFiles int64, cores int) *RunFacts {
	f := &RunFacts{}
	if r == nil {
		return f
	}
	conc := 0
	for _, s := range r.Stages {
		o := s.Observed
		if o.NumTasksPlanned >= 2 && o.DurationMillis >= 1000 {
			conc = max(conc, int(math.Round(float64(o.ExecutorRunTimeMillis)/float64(o.DurationMillis))))
		}
	}
	if ex := r.Application.Observed.PeakConcurrentExecutors; cores > 0 && ex > 0 {
		f.Slots, f.SlotsSource = ptr(cores*ex), ptr(fmt.Sprintf("spark.executor.cores %d × %d executors", cores, ex))
	} else if conc > 0 {
		f.Slots, f.SlotsSource = ptr(conc), ptr("the highest task concurrency a stage reached (a lower bound on cores)")
	}
	var tagWall, tagFiles float64
	var srcTasks []int
	for _, s := range r.Stages {
		if s.Phase == eventlog.PhaseSourceRead {
			srcTasks = append(srcTasks, s.Observed.NumTasksPlanned)
		}
	}
	var spillTag, spillWrite, gc, allWall, compactExec float64
	compacted := false
	spilled := false
	for _, s := range r.Stages {
		o := s.Observed
		if s.Phase == eventlog.PhaseDedupTagging {
			tagWall += float64(o.DurationMillis)
			if totalFiles > 0 && math.Abs(float64(o.NumTasksPlanned)-float64(totalFiles)) <= 0.2*float64(totalFiles) {
				tagFiles += float64(o.DurationMillis)
			}
			if f.Tagging.Tasks == nil {
				f.Tagging.Tasks = ptr(o.NumTasksPlanned)
				if len(srcTasks) > 0 {
					f.Tagging.InheritsSource = ptr(contains(intStrings(srcTasks), strconv.Itoa(o.NumTasksPlanned)))
				}
			}
			if f.Slots != nil && o.NumTasksPlanned < *f.Slots && o.DurationMillis >= 60000 && o.SkewRatio >= 0 && o.SkewRatio <= 2 &&
				(f.UnderParallel.DurationMillis == nil || float64(o.DurationMillis) > *f.UnderParallel.DurationMillis) {
				f.UnderParallel = stageFact(s, float64(o.SkewRatio))
			}
		}
		if o.DurationMillis >= 10000 && o.SkewRatio >= 0 && (f.Skew.Ratio == nil || float64(o.SkewRatio) > *f.Skew.Ratio) {
			f.Skew = stageFact(s, float64(o.SkewRatio))
		}
		governed := s.Phase == eventlog.PhaseDedupTagging || s.Phase == eventlog.PhaseDataWrite
		if governed {
			n := float64(o.NumTasksPlanned)
			maxTo := func(p **float64) {
				if *p == nil || n > **p {
					*p = ptr(n)
				}
			}
			maxTo(&f.MaxTasks.TaggingOrWrite)
			if s.Phase == eventlog.PhaseDedupTagging {
				maxTo(&f.MaxTasks.Tagging)
			} else {
				maxTo(&f.MaxTasks.Write)
			}
		}
		if governed && o.NumTasksPlanned >= 200 && o.TaskDurationMillis.P50 < 100 {
			tiny := func(sf *StageFact) {
				if sf.Tasks == nil || float64(o.NumTasksPlanned) > *sf.Tasks {
					*sf = stageFact(s, float64(o.TaskDurationMillis.P50))
				}
			}
			tiny(&f.TinyTasks)
			if s.Phase == eventlog.PhaseDedupTagging {
				tiny(&f.TinyTagging)
			} else {
				tiny(&f.TinyWrite)
			}
		}
		allWall += float64(o.DurationMillis)
		if o.MemoryBytesSpilled > 0 || o.DiskBytesSpilled > 0 {
			spilled = true
			switch s.Phase {
			case eventlog.PhaseDedupTagging:
				spillTag += float64(o.MemoryBytesSpilled)
			case eventlog.PhaseDataWrite:
				spillWrite += float64(o.MemoryBytesSpilled)
			}
			gc = math.Max(gc, float64(o.GcFractionOfRunTime))
		}
		if s.JobDescription != nil && strings.Contains(*s.JobDescription, "Parallel listing") {
			if f.ListingMillis == nil {
				f.ListingMillis = ptr(0.0)
			}
			*f.ListingMillis += float64(o.DurationMillis)
		}
	}
	// The data table's compaction only: the metadata table compacts on its own cadence (its
	// stages name <table>_metadata), and a stage naming no table is not counted either.
	for i, x := range r.Hudiscope.Stages {
		if i < len(r.Stages) && x.Operation == "COMPACTION" && x.Phase == eventlog.PhaseExecution &&
			x.Table != "" && !strings.HasSuffix(x.Table, "_metadata") {
			compactExec += float64(r.Stages[i].Observed.DurationMillis)
			compacted = true
		}
	}
	if compacted && allWall > 0 {
		f.Compaction.ExecutionShare = ptr(compactExec / allWall)
	}
	if tagWall > 0 && totalFiles > 0 {
		f.Tagging.FilesTrackingShare = ptr(tagFiles / tagWall)
	}
	if spilled {
		f.Spill = SpillFacts{TaggingBytes: ptr(spillTag), WriteBytes: ptr(spillWrite), GCFraction: ptr(gc)}
	} else {
		f.Spill = SpillFacts{TaggingBytes: ptr(0.0), WriteBytes: ptr(0.0)}
	}
	if f.ListingMillis == nil {
		f.ListingMillis = ptr(0.0)
	}
	return f
}

func intStrings(v []int) []string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i] = strconv.Itoa(x)
	}
	return out
}
