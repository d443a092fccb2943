package timeline

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unique"

	"github.com/parquet-go/parquet-go"

	"github.com/hudiscope/hudiscope/hudi/internal/avro"
	"github.com/hudiscope/hudiscope/hudi/internal/parquetsafe"
	"github.com/hudiscope/hudiscope/hudi/logfile"
	"github.com/hudiscope/hudiscope/hudi/problem"
	"github.com/hudiscope/hudiscope/hudi/storage"
)

// LoadArchived reads the archived timeline into tl.Archived: the 0.x archive (Hudi log files of
// HoodieArchivedMetaEntry records) and the 1.x LSM history (parquet files named by the latest
// manifest). Unreadable files are recorded as problems; what can be read is kept.
func (r *Reader) LoadArchived(ctx context.Context, tl *Timeline) error {
	var archived []*Instant
	if r.Config.HistoryDir != "" {
		lsm, err := r.readLSMHistory(ctx)
		if err != nil {
			return err
		}
		archived = append(archived, lsm...)
	}
	old, err := r.readArchiveLogs(ctx)
	if err != nil {
		return err
	}
	archived = append(archived, old...)
	// The active timeline wins where both hold an instant (archival is copy-then-delete).
	active := map[string]bool{}
	for _, in := range tl.Instants {
		active[in.RequestedTime+"/"+family(in.Action)] = true
	}
	seen := map[string]bool{}
	tl.Archived = tl.Archived[:0]
	for _, in := range archived {
		k := in.RequestedTime + "/" + family(in.Action)
		if active[k] || seen[k] {
			continue
		}
		seen[k] = true
		in.Started, _ = ParseInstantTime(in.RequestedTime, r.Config.Zone)
		if in.CompletionDerived {
			// A state-transition time is the writer's file time; its source's precision is
			// unknown, and a whole second says it was kept to the second.
			p := time.Millisecond
			if strings.HasSuffix(in.CompletionTime, "000") {
				p = time.Second
			}
			in.clampDerived(p, r.Config.Zone)
		} else if in.CompletionTime != "" {
			in.Ended, _ = ParseInstantTime(in.CompletionTime, r.Config.Zone)
		}
		tl.Archived = append(tl.Archived, in)
	}
	tl.Sort(tl.Archived)
	return nil
}

// archiveWholeMax is the largest archive log read with one request; a larger one is read a
// block at a time, so memory follows the largest block (bounded by logfile.MaxBlockBytes),
// not the file.
var archiveWholeMax int64 = 64 << 20

// openArchive opens an archive log of the listed size for block reads.
func (r *Reader) openArchive(ctx context.Context, p string, listed int64) (io.ReaderAt, int64, func(), error) {
	if listed >= 0 && listed <= archiveWholeMax {
		b, err := r.Store.ReadFile(ctx, p)
		if err != nil {
			return nil, 0, nil, err
		}
		return bytes.NewReader(b), int64(len(b)), func() {}, nil
	}
	f, err := r.Store.Open(ctx, p)
	if err != nil {
		return nil, 0, nil, err
	}
	return f, f.Size(), func() { f.Close() }, nil
}

var archiveFileRe = regexp.MustCompile(`^\.commits_\.archive\.(\d+)(?:_.*)?$`)

// readArchiveLogs reads `.hoodie/archived/.commits_.archive.<N>_<token>` files, newest first.
func (r *Reader) readArchiveLogs(ctx context.Context) ([]*Instant, error) {
	entries, err := r.Store.List(ctx, r.Config.ArchiveDir)
	if err != nil {
		if storage.IsNotExist(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("list %s: %w", r.path(r.Config.ArchiveDir), err)
	}
	type af struct {
		n    int
		path string
		size int64
	}
	var files []af
	for _, e := range entries {
		if m := archiveFileRe.FindStringSubmatch(e.Name); m != nil && !e.IsDir {
			n, _ := strconv.Atoi(m[1])
			files = append(files, af{n, e.Path, e.Size})
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].n > files[j].n })
	byKey := map[string]*Instant{}
	var out []*Instant
	for _, f := range files {
		br, size, closeFile, err := r.openArchive(ctx, f.path, f.size)
		if err != nil {
			r.Problems.Add(r.path(f.path), err.Error())
			continue
		}
		logfile.Walk(br, size, func(blk logfile.Block) bool { // one block's header held at a time
			if blk.Corrupt {
				r.Problems.Add(r.path(f.path), blk.Problem)
				return true
			}
			if blk.Type != logfile.BlockAvroData {
				return true
			}
			content, err := blk.ReadContent(br)
			if err != nil {
				r.Problems.Add(r.path(f.path), err.Error())
				return true
			}
			recs, err := logfile.AvroRecords(content)
			if err != nil {
				r.Problems.Add(r.path(f.path), fmt.Sprintf("block at byte %d: %v", blk.Offset, err))
			}
			schema := blk.Header[logfile.HeaderSchema]
			for i, rec := range recs {
				js, err := avro.DatumJSON(schema, rec)
				if err != nil {
					r.Problems.Add(r.path(f.path), fmt.Sprintf("block at byte %d, record %d: %v", blk.Offset, i, err))
					continue
				}
				in, err := archivedEntry(js)
				if err != nil {
					r.Problems.Add(r.path(f.path), fmt.Sprintf("block at byte %d, record %d: %v", blk.Offset, i, err))
					continue
				}
				k := in.RequestedTime + "/" + family(in.Action)
				if prev := byKey[k]; prev != nil {
					mergeArchived(prev, in)
					continue
				}
				byKey[k] = in
				out = append(out, in)
				r.archivedOne()
			}
			return true
		})
		closeFile()
	}
	for _, in := range out {
		if in.State == Completed && IsWriteAction(in.Action) && in.content() != nil {
			var cm CommitMetadata
			if err := json.Unmarshal(in.content(), &cm); err == nil {
				setCommit(in, &cm)
			} else {
				in.Err = err.Error()
			}
		}
	}
	return out, nil
}

// archivedEntryFields maps HoodieArchivedMetaEntry's nested metadata fields; which one is set
// depends on the action and state of the archived instant file.
var archivedContentFields = []string{"hoodieCommitMetadata", "hoodieReplaceCommitMetadata", "hoodieCleanMetadata",
	"hoodieRollbackMetadata", "hoodieSavePointMetadata", "hoodieRestoreMetadata", "hoodieIndexCommitMetadata"}
var archivedPlanFields = []string{"hoodieCompactionPlan", "hoodieCleanerPlan", "hoodieRequestedReplaceMetadata",
	"hoodieIndexPlan", "hoodieRollbackPlan"}

func archivedEntry(js []byte) (*Instant, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(js, &m); err != nil {
		return nil, err
	}
	var commitTime, action, state, transition string
	_ = json.Unmarshal(m["commitTime"], &commitTime)
	// 0.14+ record when each state file was written (its mtime, as Hudi 0.x reads completion
	// times): for the COMPLETED entry that is the completion time, derived as on the active timeline.
	_ = json.Unmarshal(m["stateTransitionTime"], &transition)
	_ = json.Unmarshal(m["actionType"], &action)
	_ = json.Unmarshal(m["actionState"], &state)
	if commitTime == "" || action == "" {
		return nil, fmt.Errorf("archived entry without commitTime/actionType")
	}
	in := &Instant{RequestedTime: commitTime, Action: action, State: Completed, Archived: true}
	switch strings.ToUpper(state) {
	case "REQUESTED":
		in.State = Requested
	case "INFLIGHT":
		in.State = Inflight
	default:
		if transition != "" {
			in.CompletionTime, in.CompletionDerived = transition, true
		}
	}
	if _, isPlan := completedAs[action]; isPlan {
		in.PlanAction = action
	}
	for _, f := range archivedContentFields {
		if v := m[f]; len(v) > 0 && string(v) != "null" {
			in.setContent(v)
			break
		}
	}
	for _, f := range archivedPlanFields {
		if v := m[f]; len(v) > 0 && string(v) != "null" {
			in.setPlan(v)
			break
		}
	}
	return in, nil
}

// mergeArchived folds another state's entry of the same instant into prev.
func mergeArchived(prev, in *Instant) {
	if in.plan() != nil && prev.plan() == nil {
		prev.setPlan(in.plan())
	}
	if in.PlanAction != "" {
		prev.PlanAction = in.PlanAction
	}
	if stateRank(in.State) > stateRank(prev.State) {
		prev.State, prev.Action = in.State, in.Action
		prev.CompletionTime, prev.CompletionDerived = in.CompletionTime, in.CompletionDerived
		if in.content() != nil {
			prev.setContent(in.content())
		}
	}
}

// lsmRow is one row of a 1.x LSM history parquet file (HoodieLSMTimelineInstant).
type lsmRow struct {
	InstantTime    string `parquet:"instantTime,optional"`
	CompletionTime string `parquet:"completionTime,optional"`
	Action         string `parquet:"action,optional"`
	Metadata       []byte `parquet:"metadata,optional"`
	Plan           []byte `parquet:"plan,optional"`
}

type lsmManifest struct {
	Files []struct {
		FileName string `json:"fileName"`
		FileLen  int64  `json:"fileLen"`
	} `json:"files"`
}

var manifestRe = regexp.MustCompile(`^manifest_(\d+)$`)

// readLSMHistory reads the live files of the latest LSM manifest.
func (r *Reader) readLSMHistory(ctx context.Context) ([]*Instant, error) {
	dir := r.Config.HistoryDir
	entries, err := r.Store.List(ctx, dir)
	if err != nil {
		if storage.IsNotExist(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("list %s: %w", r.path(dir), err)
	}
	version := -1
	maxManifest := -1
	for _, e := range entries {
		if m := manifestRe.FindStringSubmatch(e.Name); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil && n > maxManifest {
				maxManifest = n
			}
		}
	}
	if b, err := r.Store.ReadFile(ctx, dir+"/_version_"); err == nil {
		if n, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			version = n
		}
	}
	if version < 0 {
		version = maxManifest
	}
	if version < 0 {
		return nil, nil // empty history
	}
	mp := fmt.Sprintf("%s/manifest_%d", dir, version)
	mb, err := r.Store.ReadFile(ctx, mp)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", r.path(mp), err)
	}
	var man lsmManifest
	if err := json.Unmarshal(mb, &man); err != nil {
		return nil, fmt.Errorf("decode %s: %w", r.path(mp), err)
	}
	var out []*Instant
	for _, f := range man.Files {
		p := dir + "/" + f.FileName
		rows, err := r.readLSMFile(ctx, p)
		if err != nil {
			r.Problems.Add(r.path(p), err.Error())
		}
		src := &p // shared by the file's rows: Details reads a write's metadata from it again
		for _, row := range rows {
			in := &Instant{RequestedTime: row.InstantTime, CompletionTime: row.CompletionTime, Action: row.Action,
				State: Completed, Archived: true, lsm: src}
			if a, ok := completedAs[row.Action]; ok { // LSM rows store the completed action
				in.PlanAction, in.Action = row.Action, a
			}
			if IsWriteAction(in.Action) && len(row.Metadata) > 0 {
				// A write keeps the sums a compact timeline keeps (decoded straight off the
				// Avro), not its metadata: at 200k archived commits the JSON and decoded
				// metadata kept were 1.1 GB. Details reads the row again (lsmContent).
				summarizeArchived(in, row.Metadata)
				if len(row.Plan) > 0 {
					if js, err := avro.ContentJSON(row.Plan); err == nil {
						in.setPlan(js)
					}
				}
				out = append(out, in)
				r.archivedOne()
				continue
			}
			if len(row.Metadata) > 0 {
				if js, err := avro.ContentJSON(row.Metadata); err == nil {
					in.setContent(js)
				} else if err != avro.ErrEmpty {
					in.Err = err.Error()
				}
			}
			if len(row.Plan) > 0 {
				if js, err := avro.ContentJSON(row.Plan); err == nil {
					in.setPlan(js)
				}
			}
			if IsWriteAction(in.Action) && in.content() != nil {
				var cm CommitMetadata
				if err := json.Unmarshal(in.content(), &cm); err == nil {
					setCommit(in, &cm)
				}
			}
			out = append(out, in)
			r.archivedOne()
		}
	}
	return out, nil
}

// summarizeArchived sets an archived write's sums from its metadata (Avro or JSON), as the
// compact decode does for an active one; a decode error is the instant's Err.
func summarizeArchived(in *Instant, b []byte) {
	d := decodedOf(in)
	sum, err := decodeCommitSummary(b)
	if err != nil {
		d.more().err = err.Error()
	} else {
		for i := range sum.writes {
			sum.writes[i].Partition = unique.Make(sum.writes[i].Partition).Value()
		}
		d.setSummary(unique.Make(sum.op).Value(), sum.totals, sum.replaced)
		d.writes, d.summarized = sum.writes, true
	}
	decoded := in.decoded
	d.applyTo(in)
	in.decoded = decoded
}

// lsmContent is an LSM-archived write's metadata as JSON, read again from its history file.
func (r *Reader) lsmContent(ctx context.Context, in *Instant, d *Details) []byte {
	rows, err := r.readLSMFile(ctx, *in.lsm)
	if err != nil {
		d.Problems = append(d.Problems, problem.Problem{File: r.path(*in.lsm), Err: err.Error()})
	}
	for _, row := range rows {
		if row.InstantTime != in.RequestedTime || len(row.Metadata) == 0 {
			continue
		}
		if a, ok := completedAs[row.Action]; (ok && a != in.Action) || (!ok && row.Action != in.Action) {
			continue
		}
		js, err := avro.ContentJSON(row.Metadata)
		if err != nil {
			d.Problems = append(d.Problems, problem.Problem{File: r.path(*in.lsm), Err: err.Error()})
			return nil
		}
		return js
	}
	return nil
}

// lsmLimits bound one LSM history file: its pages are checked before any is read, and, as
// every row is kept, all its pages may hold no more than the storage read ceiling in bytes
// and 4 Mi values (about 800 Ki instants of five columns; a real file holds thousands). One
// page may hold 64 MiB: a page is inflated, decoded and copied into rows, about three times
// its size at once (an honest 200 MiB page took 444 MB RSS; TestBombLSMHonestBigPage).
var lsmLimits = parquetsafe.Limits{Pages: true, MaxPage: 64 << 20, MaxTotal: storage.DefaultMaxReadBytes, MaxValues: 4 << 20}

func (r *Reader) readLSMFile(ctx context.Context, p string) (rows []lsmRow, err error) {
	f, err := r.Store.Open(ctx, p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	defer func() {
		// parquet-go panics on some damaged pages; one file must not end the run.
		if v := recover(); v != nil {
			err = fmt.Errorf("parquet: %v", v)
		}
	}()
	pf, err := parquetsafe.Open(f, f.Size(), "parquet", lsmLimits)
	if err != nil {
		return nil, err
	}
	pr := parquet.NewGenericReader[lsmRow](pf)
	defer pr.Close()
	var out []lsmRow
	buf := make([]lsmRow, 64)
	for {
		n, err := pr.Read(buf)
		out = append(out, buf[:n]...)
		if err == io.EOF {
			break
		}
		if err != nil {
			return out, fmt.Errorf("parquet rows: %w", err)
		}
		if n == 0 {
			break
		}
	}
	return out, nil
}
