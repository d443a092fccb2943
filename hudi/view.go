package hudi

import (
	"context"

	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/metadata"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// ListingSource says where the file-system view gets its file listing.
type ListingSource int

const (
	// ListingStorage lists partition directories on storage.
	ListingStorage ListingSource = iota
	// ListingAuto reads the metadata table's `files` partition when the table declares a
	// complete one, else lists storage. A metadata table that cannot be read is recorded as a
	// problem and storage is listed instead.
	ListingAuto
	// ListingMetadata reads the metadata table's `files` partition; failing that is an error.
	ListingMetadata
)

// View builds the file-system view (file groups and slices as of tl) from src's listing. A
// storage listing builds each partition as soon as it is listed (ViewFunc).
func (t *Table) View(ctx context.Context, tl *timeline.Timeline, src ListingSource) (*filegroup.View, error) {
	v := &filegroup.View{}
	err := t.ViewFunc(ctx, tl, src, func(source string) error {
		v.Source = source
		return nil
	}, func(p *filegroup.Partition) error {
		v.Partitions = append(v.Partitions, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return v, nil
}

// ViewFunc is View handing the partitions to emit one at a time, in path order, instead of
// returning the whole view: a storage listing emits each as soon as it and every partition
// before it are built (filegroup.ListViewFunc), so the caller writes while the listing runs
// and holds one partition at a time. begin is called once, before any partition, with the
// listing's source (View.Source); a listing that fails before that returns its error alone.
func (t *Table) ViewFunc(ctx context.Context, tl *timeline.Timeline, src ListingSource, begin func(source string) error, emitPart func(*filegroup.Partition) error) error {
	emit := func(p *filegroup.Partition) error {
		t.attachBootstrap(ctx, p)
		return emitPart(p)
	}
	if t.useMetadata(src) {
		l, err := t.metadataListing(ctx, tl, src)
		if err == nil {
			if err := begin(filegroup.SourceMetadata); err != nil {
				return err
			}
			return filegroup.BuildViewFunc(ctx, t.timeline(), tl, l.Len(), l.Entries, emit)
		}
		if src == ListingMetadata {
			return err
		}
	}
	started := false
	err := filegroup.ListViewFunc(ctx, t.Store, &t.problems, t.timeline(), tl, func(p *filegroup.Partition) error {
		if !started {
			started = true
			if err := begin(filegroup.SourceStorage); err != nil {
				return err
			}
		}
		return emit(p)
	})
	if err != nil || started {
		return err
	}
	return begin(filegroup.SourceStorage) // listed no partition
}

// ListPartitions lists every partition and its files from src (ListingAuto as in View). tl,
// the active timeline, decides which metadata-table log blocks count; storage listing ignores it.
func (t *Table) ListPartitions(ctx context.Context, tl *timeline.Timeline, src ListingSource) (map[string][]storage.Entry, error) {
	if t.useMetadata(src) {
		l, err := t.metadataListing(ctx, tl, src)
		if err == nil {
			return l.Map(), nil
		}
		if src == ListingMetadata {
			return nil, err
		}
	}
	return filegroup.ListPartitions(ctx, t.Store, &t.problems)
}

// ListStoragePartitions is ListPartitions(ListingStorage) telling listed (when set) the
// number of files of each partition as it is listed.
func (t *Table) ListStoragePartitions(ctx context.Context, listed func(files int)) (map[string][]storage.Entry, error) {
	return filegroup.ListPartitionsFunc(ctx, t.Store, &t.problems, listed)
}

// useMetadata says whether src lists from the metadata table first.
func (t *Table) useMetadata(src ListingSource) bool {
	return src == ListingMetadata || (src == ListingAuto && metadata.CanListFiles(t.Config))
}

// metadataListing reads the metadata table's listing; with ListingAuto a failure is
// recorded as a problem (the caller then lists storage).
func (t *Table) metadataListing(ctx context.Context, tl *timeline.Timeline, src ListingSource) (*metadata.Listing, error) {
	l, err := metadata.List(ctx, t.Store, &t.problems, tl)
	if err != nil && src != ListingMetadata {
		t.problems.Add(t.path(metadata.TablePath), "cannot list files from the metadata table, listing storage instead: "+err.Error())
	}
	return l, err
}

// BuildView groups already listed files (partition → files) into file groups and slices;
// source names the listing in View.Source.
func (t *Table) BuildView(ctx context.Context, tl *timeline.Timeline, parts map[string][]storage.Entry, source string) *filegroup.View {
	v := filegroup.BuildView(ctx, t.timeline(), tl, parts, source)
	for _, p := range v.Partitions {
		t.attachBootstrap(ctx, p)
	}
	return v
}

// ParquetRowCounts reads the footers of paths (relative to the table root) with at most
// workers reads in flight and records each unreadable one as a table problem (the Java tool
// logs a WARN and reports that partition's count as null).
func (t *Table) ParquetRowCounts(ctx context.Context, paths []string, workers int) []filegroup.RowCount {
	out := filegroup.ParquetRowCounts(ctx, t.Store, paths, workers)
	for _, rc := range out {
		if rc.Err != nil {
			t.problems.Add(rc.Path, "row count unreadable: "+rc.Err.Error())
		}
	}
	return out
}

// HasMetadataTable reports whether the table has a metadata table.
func (t *Table) HasMetadataTable(ctx context.Context) bool { return metadata.Exists(ctx, t.Store) }

// OpenMetadataTable opens the metadata table (a MOR Hudi table of its own) over the same
// storage. Read-only like everything else.
func (t *Table) OpenMetadataTable(ctx context.Context) (*Table, error) {
	return OpenStorage(ctx, storage.NewPrefixed(t.Store, metadata.TablePath))
}
