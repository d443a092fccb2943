package hudi

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"
	"sync"

	"github.com/hudiscope/hudiscope/hudi/bootstrap"
	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/storage"
)

// bootstrapState is a table's bootstrap index, read once, and the source stores opened.
type bootstrapState struct {
	once  sync.Once
	index *bootstrap.Index
	err   error

	mu     sync.Mutex
	stores map[string]storage.Storage // source directory → store
}

// PrefixMap rewrites the start of bootstrap source paths: the index records absolute paths
// of the machine that bootstrapped (a table unzipped elsewhere, or data moved since).
type PrefixMap struct{ Old, New string }

// ParsePrefixMap reads `OLD=NEW`.
func ParsePrefixMap(s string) (PrefixMap, error) {
	o, n, ok := strings.Cut(s, "=")
	if !ok || o == "" || n == "" {
		return PrefixMap{}, fmt.Errorf("%q is not OLD=NEW", s)
	}
	return PrefixMap{Old: o, New: n}, nil
}

// SetBootstrapPrefixes sets the rewrites applied to bootstrap source paths, first match wins.
func (t *Table) SetBootstrapPrefixes(m []PrefixMap) { t.bootPrefixes = m }

// BootstrapIndex is the table's bootstrap index, read on first use; nil when Hudi would use
// none (BootstrapIndex.useIndex: both index files present and hoodie.bootstrap.base.path set).
func (t *Table) BootstrapIndex(ctx context.Context) (*bootstrap.Index, error) {
	b := &t.boot
	b.once.Do(func() {
		if t.Config == nil || t.Config.Props["hoodie.bootstrap.base.path"] == "" {
			return
		}
		b.index, b.err = bootstrap.Read(ctx, t.Store)
		if b.err != nil {
			t.problems.Add(t.path(bootstrap.FileIDsDir), b.err.Error())
		}
	})
	return b.index, b.err
}

// attachBootstrap names the bootstrap source of every skeleton base file of p (a base file
// written by the METADATA_ONLY bootstrap instant), as Java's file-system view does
// (addBootstrapBaseFileIfPresent).
func (t *Table) attachBootstrap(ctx context.Context, p *filegroup.Partition) {
	var x *bootstrap.Index
	loaded := false
	for _, gs := range [][]*filegroup.FileGroup{p.FileGroups, p.Replaced} {
		for _, g := range gs {
			for _, s := range g.Slices {
				if s.Base == nil || s.BaseInstant != bootstrap.MetadataInstant {
					continue
				}
				if !loaded {
					x, _ = t.BootstrapIndex(ctx)
					loaded = true
				}
				src, ok := x.Lookup(p.Path, g.FileID)
				if !ok {
					continue // the reader names the missing source
				}
				base := *s.Base
				base.Bootstrap = &filegroup.BootstrapFile{Path: src.Path, Name: src.Name(), Size: src.Size, Partition: src.SourcePartition}
				s.Base = &base
			}
		}
	}
}

// ErrBootstrapSource marks a skeleton base file whose bootstrap source cannot be read: its
// rows would have no data columns, so the slice is not read.
var ErrBootstrapSource = errors.New("bootstrap source file unreadable")

// OpenBootstrapSource opens a skeleton base file's bootstrap source, after the prefix
// rewrites, through the storage backend its scheme names (a local path, s3://, hdfs://).
func (t *Table) OpenBootstrapSource(ctx context.Context, b *filegroup.BaseFile) (storage.File, error) {
	if b.Bootstrap == nil {
		idx, err := t.BootstrapIndex(ctx)
		why := "the bootstrap index does not name its source file"
		switch {
		case err != nil:
			why = "the bootstrap index cannot be read: " + err.Error()
		case idx == nil:
			why = "the table has no bootstrap index (.hoodie/.aux/.bootstrap) or no hoodie.bootstrap.base.path"
		}
		return nil, fmt.Errorf("skeleton base file %s holds meta columns only and %s: %w", b.Path, why, ErrBootstrapSource)
	}
	loc := t.remap(b.Bootstrap.Path)
	dir, name := path.Split(loc)
	st, err := t.sourceStore(strings.TrimSuffix(dir, "/"))
	if err == nil {
		var f storage.File
		if f, err = st.Open(ctx, name); err == nil {
			return f, nil
		}
	}
	hint := " (moved? --bootstrap-source-prefix OLD=NEW reads it from where it is now)"
	if loc != b.Bootstrap.Path {
		hint = " (the index names " + b.Bootstrap.Path + ")"
	}
	return nil, fmt.Errorf("skeleton base file %s: %w: %s: %w%s", b.Name, ErrBootstrapSource, loc, err, hint)
}

func (t *Table) remap(p string) string {
	for _, m := range t.bootPrefixes {
		if rest, ok := strings.CutPrefix(p, m.Old); ok {
			return m.New + rest
		}
		// Hadoop writes local paths as file:/x; a prefix given as /x matches them too.
		if rest, ok := strings.CutPrefix(strings.TrimPrefix(p, "file:"), strings.TrimPrefix(m.Old, "file:")); ok && strings.HasPrefix(p, "file:") {
			return m.New + rest
		}
	}
	return p
}

// sourceStore opens (once) the storage of one source directory with the table's options.
func (t *Table) sourceStore(dir string) (storage.Storage, error) {
	b := &t.boot
	b.mu.Lock()
	defer b.mu.Unlock()
	if st, ok := b.stores[dir]; ok {
		return st, nil
	}
	st, err := storage.Open(dir, t.storeOpts)
	if err != nil {
		return nil, err
	}
	if b.stores == nil {
		b.stores = map[string]storage.Storage{}
	}
	b.stores[dir] = st
	return st, nil
}

// IsBootstrapInstant reports whether an instant time is one of the two bootstrap instants.
func IsBootstrapInstant(t string) bool {
	return t == bootstrap.MetadataInstant || t == bootstrap.FullInstant
}
