package model

import (
	"context"
	"fmt"
	"time"

	"github.com/hudiscope/hudiscope/analyzers/config"
	"github.com/hudiscope/hudiscope/analyzers/health"
	"github.com/hudiscope/hudiscope/analyzers/layout"
	"github.com/hudiscope/hudiscope/hudi"
	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/metadata"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/tableconfig"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// LoadConfig builds the effective configuration from a props file, --hoodie-conf entries, the
// cluster defaults and hoodie.properties.
func LoadConfig(props string, hoodieConf []string, engine string, tc *tableconfig.Config) (*config.Effective, error) {
	var table map[string]string
	if tc != nil {
		table = tc.Props
	}
	return config.Load(config.Files{Engine: engine, PropsFile: props, HoodieConf: hoodieConf, Table: table})
}

// LayoutOptions are the Java defaults plus the writer's effective small-file limit.
func LayoutOptions(eff *config.Effective) layout.Options {
	opt := layout.DefaultOptions()
	if eff != nil {
		if v, ok := eff.Lookup("hoodie.parquet.small.file.limit"); ok {
			var n int64
			if _, err := fmt.Sscan(v.Raw, &n); err == nil {
				opt.SmallFileLimit, opt.SmallFileLimitSource = n, v.SourceLabel()
			}
		}
	}
	return opt
}

// LayoutInput gathers what the layout analyzer reads: hoodie.properties' mtime, the archived
// timeline when the active one is under the small-files commit gate, the partitions inside
// opt.Dates (an error when the first partition carries no date, as the Java tool), and with
// opt.IncludeRowCounts the row counts of every kept partition's latest base files from their
// Parquet footers (8 reads in flight). The Java tool first asks the metadata table's
// column_stats partition for the value count of _hoodie_record_key; hudiscope always reads the
// footers, which give the same number for Hudi-written Parquet.
func LayoutInput(ctx context.Context, t *hudi.Table, tl *timeline.Timeline, view *filegroup.View, opt layout.Options, now time.Time) (layout.Input, error) {
	if view != nil && opt.Dates != nil {
		parts, err := layout.FilterPartitions(view.Partitions, opt.Dates)
		if err != nil {
			return layout.Input{}, err
		}
		view = &filegroup.View{Partitions: parts, Source: view.Source}
	}
	in := layout.Input{BasePath: t.Store.Root(), TableType: t.Config.Type, View: view, Timeline: tl,
		MDTEnabled: hasPart(t.Config.MetadataParts, "files"), Now: now, Zone: time.Local}
	if e, err := t.Store.Stat(ctx, ".hoodie/hoodie.properties"); err == nil {
		in.PropsModTime = e.ModTime
	}
	if opt.IncludeRowCounts && view != nil {
		in.RowCounts = RowCounts(ctx, t, view)
	}
	if opt.Characteristics && layout.IngestCommitCount(in, opt.SmallFilesMinTableCommits) < int64(opt.SmallFilesMinTableCommits) {
		if len(tl.Archived) > 0 {
			in.Archived = tl.Archived
		} else {
			arch := &timeline.Timeline{Instants: tl.Instants, ByRequested: tl.ByRequested}
			if err := t.LoadArchived(ctx, arch); err == nil {
				in.Archived = arch.Archived
			}
		}
	}
	return in, nil
}

// RowCounts reads the footer row count of every partition's latest base files and sums them per
// partition; a partition with any unreadable footer maps to nil (JSON numRecords: null).
// Partitions without base files are absent.
func RowCounts(ctx context.Context, t *hudi.Table, view *filegroup.View) map[string]*int64 {
	var paths []string
	owner := map[string]string{}
	for _, p := range view.Partitions {
		for _, g := range p.FileGroups {
			if b := layout.LatestBase(g); b != nil {
				path := b.Path
				if path == "" {
					path = storage.Join(p.Path, b.Name)
				}
				paths = append(paths, path)
				owner[path] = p.Path
			}
		}
	}
	out := map[string]*int64{}
	failed := map[string]bool{}
	for _, rc := range t.ParquetRowCounts(ctx, paths, 8) {
		p := owner[rc.Path]
		if rc.Err != nil {
			failed[p] = true
			continue
		}
		if out[p] == nil {
			out[p] = new(int64)
		}
		*out[p] += rc.Rows
	}
	for p := range failed {
		out[p] = nil
	}
	return out
}

// HealthInput gathers what the health checks read: the last clean's metadata and the metadata
// table's timeline and record-index file groups.
func HealthInput(ctx context.Context, t *hudi.Table, tl *timeline.Timeline, now time.Time) health.Input {
	return HealthInputWithView(ctx, t, tl, nil, now)
}

// HealthInputWithView is HealthInput reusing a file-system view already listed from the
// metadata table (the snapshot's), so mdt-sync does not read the metadata table a second time.
func HealthInputWithView(ctx context.Context, t *hudi.Table, tl *timeline.Timeline, view *filegroup.View, now time.Time) health.Input {
	in := health.Input{BasePath: t.Store.Root(), TableType: t.Config.Type, TableVersion: t.Config.Version, MetadataPartitions: t.Config.MetadataParts,
		Timeline: tl, Now: now, Zone: t.Config.Zone}
	var lastClean *timeline.Instant
	for _, i := range tl.Instants {
		if i.IsClean() && i.IsCompleted() && (lastClean == nil || timeline.CompareInstants(i.RequestedTime, lastClean.RequestedTime) > 0) {
			lastClean = i
		}
	}
	if lastClean != nil {
		d, err := t.Details(ctx, lastClean)
		switch {
		case err != nil:
			in.LastCleanErr = err
		case d.Clean == nil && len(d.Problems) > 0:
			in.LastCleanErr = fmt.Errorf("%s", d.Problems[0].Err)
		case d.Clean == nil:
			in.LastCleanErr = fmt.Errorf("empty clean metadata")
		default:
			in.LastClean = d.Clean
		}
	}
	if hasPart(t.Config.MetadataParts, "files") || hasPart(t.Config.MetadataParts, "record_index") {
		in.MDT = LoadMDT(ctx, t)
		switch {
		case in.MDT.Exists && metadata.CanListFiles(t.Config):
			compareMDTListing(ctx, t, tl, in.MDT, view)
		case in.MDT.Exists:
			in.MDT.ListingSkipped = "the metadata table's files partition is not complete (still inflight)"
		}
	}
	in.Archived, in.ArchiveRead = compactionArchive(ctx, t, tl)
	return in
}

// compactionArchive reads the archived timeline for the compaction check when a MERGE_ON_READ
// table's active timeline holds no completed compaction: the last one was archived (or there
// never was one), and counting from the first active delta commit would name the wrong instant.
func compactionArchive(ctx context.Context, t *hudi.Table, tl *timeline.Timeline) ([]*timeline.Instant, bool) {
	if t.Config.Type != tableconfig.MergeOnRead {
		return nil, false
	}
	for _, i := range tl.Instants {
		if i.IsCompaction(t.Config.Type) && i.IsCompleted() {
			return nil, false
		}
	}
	if len(tl.Archived) > 0 {
		return tl.Archived, true
	}
	arch := &timeline.Timeline{Instants: tl.Instants, ByRequested: tl.ByRequested}
	if err := t.LoadArchived(ctx, arch); err != nil {
		return nil, false
	}
	return arch.Archived, true
}

// LoadMDT reads the metadata table's timeline and record-index file groups.
func LoadMDT(ctx context.Context, t *hudi.Table) *health.MDT {
	m := &health.MDT{Exists: t.HasMetadataTable(ctx)}
	if !m.Exists {
		return m
	}
	mt, err := t.OpenMetadataTable(ctx)
	if err != nil {
		m.Err, m.RecordIndexErr = err, err
		return m
	}
	mtl, err := mt.ActiveTimeline(ctx)
	if err != nil {
		m.Err, m.RecordIndexErr = err, err
		return m
	}
	m.Timeline = mtl
	if hasPart(t.Config.MetadataParts, "record_index") {
		entries, err := mt.Store.List(ctx, "record_index")
		if err != nil {
			m.RecordIndexErr = err
			return m
		}
		v := mt.BuildView(ctx, mtl, map[string][]storage.Entry{"record_index": entries}, "metadata table storage listing")
		for _, p := range v.Partitions {
			m.RecordIndex = append(m.RecordIndex, p.FileGroups...)
		}
	}
	return m
}

func hasPart(parts []string, p string) bool {
	for _, x := range parts {
		if x == p {
			return true
		}
	}
	return false
}

// compareMDTListing lists the sampled partitions both ways for mdt-sync: the metadata table's
// files partition (which names every partition) and storage, one LIST per sampled partition —
// never the whole table.
func compareMDTListing(ctx context.Context, t *hudi.Table, tl *timeline.Timeline, m *health.MDT, view *filegroup.View) {
	var all []string
	var mdtParts map[string][]storage.Entry
	if view != nil && view.Source == filegroup.SourceMetadata {
		for _, p := range view.Partitions {
			all = append(all, p.Path)
		}
	} else {
		var err error
		if mdtParts, err = t.ListPartitions(ctx, tl, hudi.ListingMetadata); err != nil {
			m.ListingErr = err
			return
		}
		for p := range mdtParts {
			all = append(all, p)
		}
	}
	m.Sampled = health.SamplePartitions(all)
	mdtSample := map[string][]storage.Entry{}
	fsSample := map[string][]storage.Entry{}
	for _, p := range m.Sampled {
		if mdtParts != nil {
			mdtSample[p] = mdtParts[p]
		}
		entries, err := t.Store.List(ctx, p)
		if err != nil && !storage.IsNotExist(err) {
			m.ListingErr = err
			return
		}
		var files []storage.Entry
		for _, e := range entries {
			if !e.IsDir {
				files = append(files, e)
			}
		}
		fsSample[p] = files
	}
	if mdtParts != nil {
		m.MDTView = t.BuildView(ctx, tl, mdtSample, filegroup.SourceMetadata)
	} else {
		m.MDTView = sampledView(view, m.Sampled)
	}
	m.FSView = t.BuildView(ctx, tl, fsSample, filegroup.SourceStorage)
}

// sampledView keeps only the sampled partitions of a view.
func sampledView(v *filegroup.View, sampled []string) *filegroup.View {
	want := map[string]bool{}
	for _, p := range sampled {
		want[p] = true
	}
	out := &filegroup.View{Source: v.Source}
	for _, p := range v.Partitions {
		if want[p.Path] {
			out.Partitions = append(out.Partitions, p)
		}
	}
	return out
}
