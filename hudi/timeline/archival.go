package timeline

import (
	"context"
	"regexp"
	"sort"
	"time"

	"github.com/hudiscope/hudiscope/hudi/internal/parquetsafe"
	"github.com/hudiscope/hudiscope/hudi/storage"
)

// ArchivalRun is one run of the archiver as storage shows it: nothing on the active timeline
// records archival, the files it wrote do (ArchivalRule).
type ArchivalRun struct {
	// File is the file the run wrote (the table-relative path).
	File string
	// Time is the file's modification time (its precision is the storage's: zip 2 s).
	Time time.Time
	// Instants counts the instants the run moved; First and Last are the least and greatest
	// requested times among them.
	Instants    int
	First, Last string
	// Blocks counts the log blocks of a 0.x archive file (0 for an LSM file).
	Blocks int
}

// ArchivalRule states how runs are derived from storage and what the rule cannot see.
const ArchivalRule = "one run per layer-0 file of the 1.x LSM history (.hoodie/timeline/history/<min>_<max>_0.parquet: " +
	"each archival writes one; instants = its rows, time = its modification time) and per 0.x archive log file " +
	"(.hoodie/archived/.commits_.archive.N: instants = the distinct instants of its blocks, time = its modification time); " +
	"runs whose layer-0 files the LSM compaction merged and cleaned are not seen, and on storage that appends " +
	"(HDFS) several 0.x runs can share one archive file and count as one"

var lsmL0Re = regexp.MustCompile(`^(\d+)_(\d+)_0\.parquet$`)

// lsmRuns are the runs the layer-0 files of the LSM history listing show, oldest first.
func (r *Reader) lsmRuns(ctx context.Context, entries []storage.Entry) []ArchivalRun {
	var runs []ArchivalRun
	for _, e := range entries {
		m := lsmL0Re.FindStringSubmatch(e.Name)
		if m == nil || e.IsDir {
			continue
		}
		run := ArchivalRun{File: e.Path, Time: e.ModTime, First: m[1], Last: m[2]}
		f, err := r.Store.Open(ctx, e.Path)
		if err != nil {
			r.Problems.Add(r.path(e.Path), err.Error())
			continue
		}
		pf, err := parquetsafe.Open(f, f.Size(), "parquet", lsmLimits)
		if err != nil {
			r.Problems.Add(r.path(e.Path), err.Error())
		} else {
			run.Instants = int(pf.NumRows())
		}
		f.Close()
		runs = append(runs, run)
	}
	sortRuns(runs)
	return runs
}

func sortRuns(runs []ArchivalRun) {
	sort.SliceStable(runs, func(i, j int) bool {
		if !runs[i].Time.Equal(runs[j].Time) {
			return runs[i].Time.Before(runs[j].Time)
		}
		return runs[i].First < runs[j].First
	})
}
