package hudi

import (
	"context"

	"github.com/hudiscope/hudiscope/hudi/storage"
)

// MetadataTablePath is the metadata table's base path inside a data table.
const MetadataTablePath = ".hoodie/metadata"

// HasMetadataTable reports whether `.hoodie/metadata` holds a table (its own .hoodie directory).
func (t *Table) HasMetadataTable(ctx context.Context) bool {
	_, err := t.Store.Stat(ctx, MetadataTablePath+"/.hoodie")
	return err == nil
}

// OpenMetadataTable opens the metadata table (a MOR Hudi table of its own) over the same storage.
// Read-only like everything else.
func (t *Table) OpenMetadataTable(ctx context.Context) (*Table, error) {
	return OpenStorage(ctx, storage.NewPrefixed(t.Store, MetadataTablePath))
}
