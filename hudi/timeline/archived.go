package timeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
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
	var runs []ArchivalRun
	if r.Config.HistoryDir != "" {
		lsm, err := r.readLSMHistory(ctx, &runs)
		if err != nil {
			return err
		}
		archived = append(archived, lsm...)
	}
	old, err := r.readArchiveLogs(ctx, &runs)
	if err != nil {
		return err
	}
	archived = append(archived, old...)
	sortRuns(runs)
	tl.ArchivalRuns = runs
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
// Each file is one archival run (ArchivalRule) appended to runs.
func (r *Reader) readArchiveLogs(ctx context.Context, runs *[]ArchivalRun) ([]*Instant, error) {
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
		mod  time.Time
	}
	var files []af
	for _, e := range entries {
		if m := archiveFileRe.FindStringSubmatch(e.Name); m != nil && !e.IsDir {
			n, _ := strconv.Atoi(m[1])
			files = append(files, af{n, e.Path, e.Size, e.ModTime})
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
		run := ArchivalRun{File: f.path, Time: f.mod}
		inFile := map[string]bool{}
		logfile.Walk(br, size, func(blk logfile.Block) bool { // one block's header held at a time
			if blk.Corrupt {
				r.Problems.Add(r.path(f.path), blk.Problem)
				return true
			}
			if blk.Type != logfile.BlockAvroData {
				return true
			}
			run.Blocks++
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
				if !inFile[k] {
					inFile[k] = true
					run.Instants++
					if run.First == "" || in.RequestedTime < run.First {
						run.First = in.RequestedTime
					}
					run.Last = max(run.Last, in.RequestedTime)
				}
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
		*runs = append(*runs, run)
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
// Its layer-0 files are archival runs (ArchivalRule) appended to runs.
func (r *Reader) readLSMHistory(ctx context.Context, runs *[]ArchivalRun) ([]*Instant, error) {
	dir := r.Config.HistoryDir
	entries, err := r.Store.List(ctx, dir)
	if err != nil {
		if storage.IsNotExist(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("list %s: %w", r.path(dir), err)
	}
	*runs = append(*runs, r.lsmRuns(ctx, entries)...)
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
	// The files are read by at most GOMAXPROCS workers (the 200k-commit benchmark: 20 files);
	// each file's instants and problem are kept by its index, so the order is the manifest's.
	type fileOut struct {
		ins []*Instant
		err error
	}
	outs := make([]fileOut, len(man.Files))
	workers := min(runtime.GOMAXPROCS(0), len(man.Files))
	next := make(chan int)
	var wg sync.WaitGroup
	wg.Add(workers)
	for range workers {
		go func() {
			defer wg.Done()
			for i := range next {
				p := dir + "/" + man.Files[i].FileName
				outs[i].ins, outs[i].err = r.lsmInstants(ctx, p)
			}
		}()
	}
	for i := range man.Files {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	n := 0
	for i := range outs {
		n += len(outs[i].ins)
	}
	out := make([]*Instant, 0, n)
	for i, o := range outs {
		if o.err != nil {
			r.Problems.Add(r.path(dir+"/"+man.Files[i].FileName), o.err.Error())
		}
		out = append(out, o.ins...)
	}
	if err := ctx.Err(); err != nil {
		return out, err
	}
	return out, nil
}

// lsmInstants are the instants of one LSM history file (those read before an error included).
func (r *Reader) lsmInstants(ctx context.Context, p string) ([]*Instant, error) {
	var out []*Instant
	src := &p // shared by the file's rows: Details reads a write's metadata from it again
	err := r.eachLSMRow(ctx, p, func(row *lsmRow) {
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
				if js, err := lsmJSON(row.Plan); err == nil {
					in.setPlan(js)
				}
			}
			out = append(out, in)
			r.archivedOne()
			return
		}
		if len(row.Metadata) > 0 {
			if js, err := lsmJSON(row.Metadata); err == nil {
				in.setContent(js)
			} else if err != avro.ErrEmpty {
				in.Err = err.Error()
			}
		}
		if len(row.Plan) > 0 {
			if js, err := lsmJSON(row.Plan); err == nil {
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
	})
	return out, err
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
		js, err := lsmJSON(row.Metadata)
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

// lsmJSON is avro.ContentJSON of a row's bytes, never pointing into them (they are a page's).
func lsmJSON(b []byte) ([]byte, error) {
	js, err := avro.ContentJSON(b)
	if err == nil && len(js) > 0 && len(b) > 0 && &js[0] == &b[0] {
		js = bytes.Clone(js)
	}
	return js, err
}

// lsmColumns are the columns eachLSMRow reads, in lsmRow's field order.
var lsmColumns = [...]string{"instantTime", "completionTime", "action", "metadata", "plan"}

// lsmBatch is how many rows eachLSMRow decodes from each column at a time.
const lsmBatch = 256

// eachLSMRow calls fn with every row of the LSM history file p, reading its five columns page
// by page: the strings are copies, Metadata and Plan point into the pages and are valid only
// during fn (a page's buffers go back to parquet-go's pools once its rows are done). Reading
// the columns, not rows, spares the per-row copy of the metadata (1.5 GB of 4.4 GB allocated
// over 200k archived commits) and holds a few pages per column, not a file of rows.
func (r *Reader) eachLSMRow(ctx context.Context, p string, fn func(*lsmRow)) (err error) {
	f, err := r.Store.Open(ctx, p)
	if err != nil {
		return err
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
		return err
	}
	var idx [len(lsmColumns)]int
	for i, name := range lsmColumns {
		idx[i] = -1
		if leaf, ok := pf.Schema().Lookup(name); ok && leaf.MaxRepetitionLevel == 0 {
			idx[i] = leaf.ColumnIndex
		}
	}
	if idx[0] < 0 {
		// Without it no row is an instant, and the footer's row counts alone would set the
		// loop's length (a hostile one: 2^62).
		return errors.New("parquet: no instantTime column (not an LSM history file)")
	}
	var cur [len(lsmColumns)]lsmCursor
	var vals [len(lsmColumns)][lsmBatch]parquet.Value
	defer func() {
		for i := range cur {
			cur[i].close()
		}
	}()
	var row lsmRow
	for g, rg := range pf.RowGroups() {
		if err := ctx.Err(); err != nil {
			return err
		}
		chunks := rg.ColumnChunks()
		for i, ci := range idx {
			cur[i].close()
			if ci >= 0 && ci < len(chunks) {
				cur[i] = lsmCursor{pages: chunks[ci].Pages()}
			}
		}
		for left := rg.NumRows(); left > 0; {
			n := int(min(left, lsmBatch))
			for i, ci := range idx {
				if ci < 0 {
					continue
				}
				k, err := cur[i].read(vals[i][:n])
				if err != nil {
					return fmt.Errorf("parquet row group %d column %s: %w", g, lsmColumns[i], err)
				}
				if k != n {
					return fmt.Errorf("parquet row group %d column %s: %d values where the footer has %d more rows", g, lsmColumns[i], k, left)
				}
			}
			for j := range n {
				row = lsmRow{}
				for i, ci := range idx {
					if ci < 0 || vals[i][j].IsNull() {
						continue
					}
					b := vals[i][j].ByteArray()
					switch i {
					case 0:
						row.InstantTime = string(b)
					case 1:
						row.CompletionTime = string(b)
					case 2:
						row.Action = unique.Make(string(b)).Value()
					case 3:
						row.Metadata = b
					case 4:
						row.Plan = b
					}
				}
				fn(&row)
			}
			for i := range cur {
				cur[i].releaseDone()
			}
			left -= int64(n)
		}
	}
	return nil
}

// lsmCursor reads one column chunk's values across batches; pages read to their end are
// released once the batch their values are in is done.
type lsmCursor struct {
	pages parquet.Pages
	page  parquet.Page
	vr    parquet.ValueReader
	done  []parquet.Page
}

func (c *lsmCursor) read(dst []parquet.Value) (int, error) {
	n := 0
	for n < len(dst) {
		if c.vr == nil {
			if c.pages == nil {
				return n, nil
			}
			p, err := c.pages.ReadPage()
			if errors.Is(err, io.EOF) {
				return n, nil
			}
			if err != nil {
				return n, err
			}
			c.page, c.vr = p, p.Values()
		}
		k, err := c.vr.ReadValues(dst[n:])
		n += k
		if err != nil && !errors.Is(err, io.EOF) {
			return n, err
		}
		if err != nil || k == 0 {
			c.done = append(c.done, c.page)
			c.page, c.vr = nil, nil
		}
	}
	return n, nil
}

// releaseDone gives the pages read to their end back to parquet-go's pools.
func (c *lsmCursor) releaseDone() {
	for _, p := range c.done {
		parquet.Release(p)
	}
	c.done = c.done[:0]
}

// close releases the chunk's pages.
func (c *lsmCursor) close() {
	c.releaseDone()
	if c.page != nil {
		parquet.Release(c.page)
	}
	if c.pages != nil {
		c.pages.Close()
	}
	*c = lsmCursor{}
}
