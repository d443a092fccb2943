package model

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/hudiscope/hudiscope/analyzers/mdt"
	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/hfile"
	"github.com/hudiscope/hudiscope/hudi/metadata"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// The `metadata` commands' reads: the metadata table against storage, its partitions and its
// timeline. Each reads what it needs when asked (nothing is kept on the snapshot) and hands
// the judging to analyzers/mdt.

// requireMDT returns the open metadata table, or mdt.ErrNoMetadataTable (wrapped with what
// was looked for) when the table has none.
func (s *Snapshot) requireMDT(ctx context.Context) (*hudi.Table, *timeline.Timeline, error) {
	if err := s.checkMDT(ctx); err != nil {
		return nil, nil, err
	}
	mt, err := s.table.OpenMetadataTable(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("open metadata table: %w", err)
	}
	mtl, err := mt.ActiveTimeline(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("read metadata table timeline: %w", err)
	}
	return mt, mtl, nil
}

// checkMDT is nil when the table has a metadata table, else mdt.ErrNoMetadataTable wrapped
// with what was looked for (nothing of the metadata table is read).
func (s *Snapshot) checkMDT(ctx context.Context) error {
	if s.table == nil || s.Timeline == nil {
		return errSkipped(StepTimeline)
	}
	if !s.table.HasMetadataTable(ctx) {
		return fmt.Errorf("%w: %s/%s/.hoodie does not exist (hoodie.table.metadata.partitions=%q)",
			mdt.ErrNoMetadataTable, s.table.Store.Root(), metadata.TablePath, strings.Join(s.Config.MetadataParts, ","))
	}
	return nil
}

// ValidateMetadataFiles compares, in every partition, the files the metadata table's `files`
// partition lists with the files on storage (names and sizes), as Hudi's
// validate_metadata_table_files does; storage files of instants the data timeline does not
// count as committed are told apart (mdt.StatusUncommitted). all keeps matching files too.
func (s *Snapshot) ValidateMetadataFiles(ctx context.Context, all bool) (*mdt.Validation, error) {
	// Only whether it exists: ListPartitions opens the metadata table itself.
	if err := s.checkMDT(ctx); err != nil {
		return nil, err
	}
	if !metadata.CanListFiles(s.Config) {
		return nil, fmt.Errorf("%w: its files partition is not complete (hoodie.table.metadata.partitions=%q, inflight %q)",
			mdt.ErrNoMetadataTable, strings.Join(s.Config.MetadataParts, ","), strings.Join(s.Config.MetadataPartsInflight, ","))
	}
	var mdtParts, fsParts map[string][]storage.Entry
	var mdtErr, fsErr error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		mdtParts, mdtErr = s.table.ListPartitions(ctx, s.Timeline, hudi.ListingMetadata)
	}()
	fsParts, fsErr = s.table.ListStoragePartitions(ctx, s.Options.OnListed)
	wg.Wait()
	if mdtErr != nil {
		return nil, fmt.Errorf("list files from the metadata table: %w", mdtErr)
	}
	if fsErr != nil {
		return nil, fmt.Errorf("list storage: %w", fsErr)
	}
	// The storage view's uncommitted files are the data timeline's verdict on each file.
	uncommitted := map[string]map[string]bool{}
	v := s.table.BuildView(ctx, s.Timeline, fsParts, filegroup.SourceStorage)
	for _, p := range v.Partitions {
		for _, e := range p.Uncommitted {
			if uncommitted[p.Path] == nil {
				uncommitted[p.Path] = map[string]bool{}
			}
			uncommitted[p.Path][e.Name] = true
		}
	}
	return mdt.Validate(mdt.ValidateInput{MDT: mdtParts, Storage: fsParts, Uncommitted: uncommitted, All: all}), nil
}

// MetadataStats lists the metadata table's partitions (those hoodie.properties names and those
// on storage) with their latest file slices, and the record count of each partition's base
// HFiles (read from their trailers).
func (s *Snapshot) MetadataStats(ctx context.Context) (*mdt.Stats, error) {
	mt, mtl, err := s.requireMDT(ctx)
	if err != nil {
		return nil, err
	}
	root, err := mt.Store.List(ctx, "")
	if err != nil {
		return nil, fmt.Errorf("list metadata table: %w", err)
	}
	parts := map[string][]storage.Entry{}
	for _, e := range root {
		if !e.IsDir || e.Name == ".hoodie" || e.Name == "" || e.Name[0] == '.' {
			continue
		}
		files, err := mt.Store.List(ctx, e.Name)
		if err != nil {
			return nil, fmt.Errorf("list metadata table partition %s: %w", e.Name, err)
		}
		parts[e.Name] = files
	}
	view := mt.BuildView(ctx, mtl, parts, "metadata table storage listing")
	count := func(p string) (int64, bool) {
		f, err := mt.Store.Open(ctx, p)
		if err != nil {
			return 0, false
		}
		defer f.Close()
		h, err := hfile.Open(f, f.Size())
		if err != nil {
			return 0, false
		}
		return int64(h.EntryCount()), true
	}
	return mdt.ComputeStats(mdt.StatsInput{TableVersion: mt.Config.Version, Enabled: s.Config.MetadataParts,
		Inflight: s.Config.MetadataPartsInflight, View: view, EntryCount: count}), nil
}

// MDTMaxDeltaCommitsKey is the writer key that bounds delta commits between metadata-table
// compactions.
const MDTMaxDeltaCommitsKey = "hoodie.metadata.compact.max.delta.commits"

// MetadataTimeline is the metadata table's own timeline with its compaction state (delta
// commits since the last compaction against hoodie.metadata.compact.max.delta.commits, as
// the effective configuration gives it) and its lag behind the data timeline.
func (s *Snapshot) MetadataTimeline(ctx context.Context) (*mdt.TimelineState, error) {
	_, mtl, err := s.requireMDT(ctx)
	if err != nil {
		return nil, err
	}
	in := mdt.TimelineInput{Data: s.Timeline, MDT: mtl}
	if s.Effective != nil {
		v, ok, _ := s.Effective.WriterValue(MDTMaxDeltaCommitsKey, s.WriterReleases())
		if !ok {
			v, ok = s.Effective.Lookup(MDTMaxDeltaCommitsKey)
		}
		if n, err := strconv.Atoi(v.Raw); ok && err == nil {
			in.MaxDeltaCommits, in.MaxDeltaCommitsSource = n, v.SourceLabel()
		}
	}
	return mdt.TimelineOf(in), nil
}
