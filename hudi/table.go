// Package hudi reads Apache Hudi tables (table versions 4–9, copy-on-write and merge-on-read)
// without ever writing to them. Table ties the layers together: tableconfig (hoodie.properties),
// timeline (active and archived instants and their metadata), filegroup (the file-system view)
// and metadata (listing from the metadata table), all over one storage.Storage.
package hudi

import (
	"context"
	"errors"
	"fmt"

	"github.com/hudiscope/hudiscope/hudi/problem"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/tableconfig"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// Table is an opened Hudi table. Readers record bad input as problems and carry on, so one
// corrupt file never hides the rest of a table.
type Table struct {
	Store  storage.Storage
	Config *tableconfig.Config

	problems problem.Log

	// Bootstrap sources are opened with the table's storage options, after bootPrefixes.
	storeOpts    storage.Options
	bootPrefixes []PrefixMap
	boot         bootstrapState

	// OnArchived, when set, hears each archived instant LoadArchived decodes (a progress count).
	OnArchived func(instants int)
}

// ErrNotHudiTable is returned when the location has no .hoodie directory.
var ErrNotHudiTable = errors.New("not a Hudi table")

// Open opens the table at location (a local directory, a .zip archive or a registered URI
// scheme, configured by o) and reads hoodie.properties, falling back to
// hoodie.properties.backup when the main file is missing, unreadable or fails its checksum.
func Open(ctx context.Context, location string, o storage.Options) (*Table, error) {
	st, err := storage.Open(location, o)
	if err != nil {
		return nil, err
	}
	t, err := OpenStorage(ctx, st)
	if t != nil {
		t.storeOpts = o
	}
	return t, err
}

// OpenStorage opens a table on an already opened storage root.
func OpenStorage(ctx context.Context, st storage.Storage) (*Table, error) {
	if _, err := st.Stat(ctx, ".hoodie"); err != nil {
		if storage.IsNotExist(err) {
			return nil, fmt.Errorf("%s: no .hoodie directory: %w", st.Root(), ErrNotHudiTable)
		}
		return nil, fmt.Errorf("%s: %w", st.Root(), err)
	}
	t := &Table{Store: st}
	defer func() { // refused paths in the chosen properties file
		if t.Config != nil {
			for _, w := range t.Config.Warnings {
				t.problems.Add(t.Config.Source, w)
			}
		}
	}()
	main := ".hoodie/hoodie.properties"
	cfg, mainErr := tableconfig.Read(ctx, st, main)
	if mainErr == nil && cfg.ChecksumOK {
		t.Config = cfg
		return t, nil
	}
	backup, backupErr := tableconfig.Read(ctx, st, main+".backup")
	switch {
	case backupErr == nil:
		if mainErr != nil {
			t.problems.Add(t.path(main), mainErr.Error()+"; using hoodie.properties.backup")
		} else {
			t.problems.Add(t.path(main), "hoodie.table.checksum is missing or does not match; using hoodie.properties.backup")
		}
		t.Config = backup
		return t, nil
	case mainErr == nil:
		t.problems.Add(t.path(main), "hoodie.table.checksum is missing or does not match the table name (file may be truncated)")
		t.Config = cfg
		return t, nil
	}
	return nil, mainErr
}

// Problems returns the bad input met so far, in the order found.
func (t *Table) Problems() []problem.Problem { return t.problems.List() }

// IsMOR reports whether the table is merge-on-read.
func (t *Table) IsMOR() bool { return t.Config.Type == tableconfig.MergeOnRead }

// Version is the table version (hoodie.table.version).
func (t *Table) Version() int { return t.Config.Version }

// path names a table-relative path for messages, prefixed with the table root.
func (t *Table) path(p string) string { return t.Store.Root() + "/" + p }

// timeline reads through the table's current Store (tests swap it), recording into its problems.
func (t *Table) timeline() *timeline.Reader {
	return &timeline.Reader{Store: t.Store, Config: t.Config, Problems: &t.problems, OnArchived: t.OnArchived}
}

// ActiveTimeline lists and reads the active timeline.
func (t *Table) ActiveTimeline(ctx context.Context) (*timeline.Timeline, error) {
	return t.timeline().Active(ctx)
}

// ActiveTimelineNames lists the active timeline from file names, reading only replacecommits;
// LoadCommits reads other instants' metadata on demand.
func (t *Table) ActiveTimelineNames(ctx context.Context) (*timeline.Timeline, error) {
	return t.timeline().ActiveNames(ctx)
}

// LoadCommits reads the commit metadata of instants not read yet (see Reader.LoadCommits).
// compact keeps only what the timeline rows and the analyzers' sums need (Totals, Operation,
// Instant.Writes), not Instant.Commit.
func (t *Table) LoadCommits(ctx context.Context, instants []*timeline.Instant, compact bool) {
	r := t.timeline()
	r.Compact = compact
	r.LoadCommits(ctx, instants)
}

// DecodeCommits reads the commit metadata of instants not read yet without writing to them
// (they may be published): put each result on a copy with Instant.WithDecoded (see
// Reader.Decode). compact is LoadCommits'.
func (t *Table) DecodeCommits(ctx context.Context, instants []*timeline.Instant, compact bool) []timeline.Decoded {
	r := t.timeline()
	r.Compact = compact
	return r.Decode(ctx, instants)
}

// LoadCommitsStream is LoadCommits in the background; ready(i) blocks until instants[i] has been
// read (see Reader.LoadCommitsStream).
func (t *Table) LoadCommitsStream(ctx context.Context, instants []*timeline.Instant, compact bool) (ready func(i int)) {
	r := t.timeline()
	r.Compact = compact
	return r.LoadCommitsStream(ctx, instants)
}

// Commit returns an instant's commit metadata, decoding it again when the timeline kept only
// its sums (see Reader.Commit).
func (t *Table) Commit(ctx context.Context, in *timeline.Instant) (*timeline.CommitMetadata, error) {
	return t.timeline().Commit(ctx, in)
}

// LoadArchived reads the archived timeline into tl.Archived.
func (t *Table) LoadArchived(ctx context.Context, tl *timeline.Timeline) error {
	return t.timeline().LoadArchived(ctx, tl)
}

// Details reads and decodes an instant's plan and completed metadata.
func (t *Table) Details(ctx context.Context, in *timeline.Instant) (*timeline.Details, error) {
	return t.timeline().Details(ctx, in)
}

// WriterSchemas reads the writer schema each instant's commit metadata records (see
// timeline.Reader.WriterSchemas): only the extra metadata is decoded.
func (t *Table) WriterSchemas(ctx context.Context, instants []*timeline.Instant) []timeline.WriterSchema {
	return t.timeline().WriterSchemas(ctx, instants)
}

// SchemaHistoryDir holds the history of schema-on-read evolution (FileBasedInternalSchemaStorageManager).
const SchemaHistoryDir = ".hoodie/.schema"

// SchemaHistoryFile reads the newest completed file of the schema-on-read history
// (.hoodie/.schema/<version>_<completion>.schemacommit, or <version>.schemacommit): Hudi
// writes every version into each new file, so the newest holds the whole history. text is ""
// when the table has no such directory or no completed file in it.
func (t *Table) SchemaHistoryFile(ctx context.Context) (text, path string, err error) {
	entries, err := t.Store.List(ctx, SchemaHistoryDir)
	if errors.Is(err, storage.ErrNotExist) {
		return "", "", nil
	}
	if err != nil {
		return "", "", fmt.Errorf("list %s/%s: %w", t.Store.Root(), SchemaHistoryDir, err)
	}
	best := ""
	for _, e := range entries {
		f, ok := timeline.ParseInstantFileName(e.Name)
		if !ok || f.Action != timeline.ActionSchemaCommit || f.State != timeline.Completed {
			continue
		}
		if best == "" || timeline.CompareInstants(f.RequestedTime, bestReq(best)) > 0 {
			best = e.Name
		}
	}
	if best == "" {
		return "", "", nil
	}
	path = SchemaHistoryDir + "/" + best
	b, err := t.Store.ReadFile(ctx, path)
	if err != nil {
		return "", path, fmt.Errorf("read %s/%s: %w", t.Store.Root(), path, err)
	}
	return string(b), path, nil
}

func bestReq(name string) string {
	f, _ := timeline.ParseInstantFileName(name)
	return f.RequestedTime
}
