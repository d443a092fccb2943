// Package bootstrap reads the bootstrap index of a METADATA_ONLY bootstrapped table: which
// source Parquet file (outside the table, named by an absolute URI) holds the data columns of
// each skeleton base file (`<fileId>_<token>_00000000000001.parquet`, meta columns only).
//
// Hudi's HFileBootstrapIndex keeps two HFiles under `.hoodie/.aux/.bootstrap/`: `.partitions`
// (key `part=<partition>`) and `.fileids` (key `part=<partition>;fileid=<fileId>`), each value
// an Avro container file holding one record (HoodieBootstrapPartitionMetadata,
// HoodieBootstrapFilePartitionInfo), and the file info `INDEX_INFO` a HoodieBootstrapIndexInfo
// (the source base path). The file-system view looks file groups up in `.fileids`, so that is
// the file read here.
package bootstrap

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/hudiscope/hudiscope/hudi/hfile"
	"github.com/hudiscope/hudiscope/hudi/internal/avro"
	"github.com/hudiscope/hudiscope/hudi/storage"
)

// Instant times of the two bootstrap modes (HoodieTimeline.METADATA_BOOTSTRAP_INSTANT_TS and
// FULL_BOOTSTRAP_INSTANT_TS): 14 digits, not dates.
const (
	MetadataInstant = "00000000000001"
	FullInstant     = "00000000000002"
)

// Folders of the two index files.
const (
	Dir           = ".hoodie/.aux/.bootstrap"
	PartitionsDir = Dir + "/.partitions"
	FileIDsDir    = Dir + "/.fileids"
)

// indexFileID is BOOTSTRAP_INDEX_FILE_ID: the index files are named like base files of this id.
const indexFileID = "00000000-0000-0000-0000-000000000000-0"

// Source is the bootstrap source file of one skeleton file group.
type Source struct {
	// Path is the source file as Hudi recorded it (HoodieFileStatus.path.uri): absolute,
	// `file:/…`, `/…` or `s3://…`.
	Path string
	Size int64
	// Partition is the Hudi partition; SourcePartition the source dataset's partition path.
	Partition, SourcePartition string
}

// Name is the source file's base name.
func (s Source) Name() string { return s.Path[strings.LastIndexByte(s.Path, '/')+1:] }

// Index is a table's bootstrap index.
type Index struct {
	// BasePath is the source dataset's root as the bootstrap recorded it
	// (HoodieBootstrapIndexInfo.bootstrapBasePath).
	BasePath string
	// File names the .fileids HFile read (relative to the table root).
	File  string
	bySlc map[key]Source
}

type key struct{ partition, fileID string }

// Lookup returns the source of the file group (partition, fileID).
func (x *Index) Lookup(partition, fileID string) (Source, bool) {
	if x == nil {
		return Source{}, false
	}
	s, ok := x.bySlc[key{partition, fileID}]
	return s, ok
}

// Len is the number of file groups the index maps.
func (x *Index) Len() int {
	if x == nil {
		return 0
	}
	return len(x.bySlc)
}

// Read reads the table's .fileids index; nil, nil when the table has none (Hudi then reads
// no bootstrap file: BootstrapIndex.isPresent needs both index files).
func Read(ctx context.Context, store storage.Storage) (*Index, error) {
	fileIDs, err := indexFile(ctx, store, FileIDsDir)
	if err != nil || fileIDs == "" {
		return nil, err
	}
	parts, err := indexFile(ctx, store, PartitionsDir)
	if err != nil || parts == "" {
		return nil, err
	}
	b, err := store.ReadFile(ctx, fileIDs)
	if err != nil {
		return nil, fmt.Errorf("bootstrap index %s: %w", fileIDs, err)
	}
	x, err := Decode(b)
	if err != nil {
		return nil, fmt.Errorf("bootstrap index %s: %w", fileIDs, err)
	}
	x.File = fileIDs
	return x, nil
}

// indexFile finds the index HFile in dir ("" when the folder or the file is missing): Hudi
// names it `<indexFileID>_<token>_00000000000001.hfile`; the token differs between releases.
func indexFile(ctx context.Context, store storage.Storage, dir string) (string, error) {
	es, err := store.List(ctx, dir)
	if storage.IsNotExist(err) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("bootstrap index %s: %w", dir, err)
	}
	for _, e := range es {
		if !e.IsDir && strings.HasPrefix(e.Name, indexFileID+"_") && strings.HasSuffix(e.Name, "_"+MetadataInstant+".hfile") {
			return e.Path, nil
		}
	}
	return "", nil
}

// Decode reads a .fileids HFile: every cell's key names a file group, its value the source
// file. A cell that does not decode is an error naming its key: a view built from part of
// the index would read some skeleton files without their data columns.
func Decode(b []byte) (*Index, error) {
	h, err := hfile.Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, err
	}
	x := &Index{bySlc: map[key]Source{}}
	if info, ok := h.FileInfo["INDEX_INFO"]; ok {
		v, err := avro.FirstRecord(info)
		if err != nil {
			return nil, fmt.Errorf("INDEX_INFO: %w", err)
		}
		x.BasePath = str(field(v, "bootstrapBasePath"))
	}
	err = h.Scan(func(k, val []byte) error {
		p, id, ok := parseKey(string(k))
		if !ok {
			return fmt.Errorf("key %q is not part=<partition>;fileid=<file id>", k)
		}
		v, err := avro.FirstRecord(val)
		if err != nil {
			return fmt.Errorf("key %q: %w", k, err)
		}
		st := field(v, "bootstrapFileStatus")
		src := Source{Path: str(field(field(st, "path"), "uri")), Partition: p, SourcePartition: str(field(v, "bootstrapPartitionPath"))}
		if n, ok := field(st, "length").(int64); ok {
			src.Size = n
		}
		if src.Path == "" {
			return fmt.Errorf("key %q: no bootstrap file path", k)
		}
		x.bySlc[key{p, id}] = src
		return nil
	})
	if err != nil {
		return nil, err
	}
	return x, nil
}

// parseKey splits `part=<partition>;fileid=<fileId>` as Java's getFileGroupFromKey does (at
// the first ';', then each part at its first '=').
func parseKey(k string) (partition, fileID string, ok bool) {
	a, b, ok := strings.Cut(k, ";")
	if !ok {
		return "", "", false
	}
	partition, ok1 := strings.CutPrefix(a, "part=")
	fileID, ok2 := strings.CutPrefix(b, "fileid=")
	return partition, fileID, ok1 && ok2 && fileID != ""
}

// field is record v's field name (nil when v is not a record or lacks it).
func field(v any, name string) any {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	return m[name]
}

func str(v any) string {
	s, _ := v.(string)
	return s
}
