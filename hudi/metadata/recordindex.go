package metadata

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hudiscope/hudiscope/hudi/hfile"
	"github.com/hudiscope/hudiscope/hudi/internal/avro"
	"github.com/hudiscope/hudiscope/hudi/logfile"
	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/hudi/tableconfig"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// RecordIndexPartition is the metadata-table partition of the record-level index.
const RecordIndexPartition = "record_index"

// HasRecordIndex reports whether a table declares a complete record-level index.
func HasRecordIndex(cfg *tableconfig.Config) bool {
	return slices.Contains(cfg.MetadataParts, RecordIndexPartition) &&
		!slices.Contains(cfg.MetadataPartsInflight, RecordIndexPartition)
}

// RecordLocation is where the record-level index places a record key.
type RecordLocation struct {
	Partition string
	FileID    string
	// Instant is the write the index entry names (instantTime, epoch milliseconds formatted
	// as an instant time in UTC); "" when absent.
	Instant string
	// Position is the record's row position in the base file; -1 when not recorded.
	Position int64
	// IndexFileGroup is the record_index file group holding the entry (LookupRecordIndex's
	// count says how many groups were read to find it).
	IndexFileGroup string
}

// LookupRecordIndex finds key in the record-level index of the table on store: the latest
// slice of the record_index file group the key hashes to (Hudi's
// mapRecordKeyToFileGroupIndex), then, when absent there, the other groups. A nil location
// with a nil error means the index does not hold the key. tl is the data table's timeline.
func LookupRecordIndex(ctx context.Context, store storage.Storage, tl *timeline.Timeline, key string) (*RecordLocation, int, error) {
	mdt, part, err := openPartition(ctx, store, RecordIndexPartition)
	if err != nil {
		return nil, 0, err
	}
	groups := map[string]bool{}
	for id := range part.bases {
		groups[id] = true
	}
	for _, l := range part.logs {
		groups[l.name.FileID] = true
	}
	ids := make([]string, 0, len(groups))
	for id := range groups {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	if len(ids) == 0 {
		return nil, 0, errors.New("metadata table: the record_index partition has no file groups")
	}
	if h := recordIndexGroup(key, len(ids)); h > 0 {
		ids[0], ids[h] = ids[h], ids[0]
	}
	counts := dataInstants(tl, part.mi)
	for n, id := range ids {
		if err := ctx.Err(); err != nil {
			return nil, n, err
		}
		loc, err := lookupGroup(ctx, mdt, part, id, key, counts)
		if err != nil {
			return nil, n + 1, fmt.Errorf("record index file group %s: %w", id, err)
		}
		if loc != nil {
			loc.IndexFileGroup = id
			return loc, n + 1, nil
		}
	}
	return nil, len(ids), nil
}

// recordIndexGroup is the record_index file group a key hashes to among n (Java's
// String.hashCode over UTF-16 code units, then Math.abs(Math.abs(h) % n)).
func recordIndexGroup(key string, n int) int {
	h := JavaStringHash(key)
	g := int(h) % n
	if h < 0 {
		g = int(-int64(h)) % n
	}
	return g
}

// JavaStringHash is Java's String.hashCode: s[0]*31^(n-1) + … over UTF-16 code units.
func JavaStringHash(s string) int32 {
	var h int32
	for _, r := range s {
		if r >= 0x10000 {
			r -= 0x10000
			h = 31*h + int32(0xD800+(r>>10))
			h = 31*h + int32(0xDC00+(r&0x3FF))
			continue
		}
		h = 31*h + int32(r)
	}
	return h
}

// lookupGroup reads one record_index file group's latest slice for key: the base HFile, then
// the log blocks in order (a later entry replaces an earlier one; a DELETE removes it).
func lookupGroup(ctx context.Context, mdt storage.Storage, part *mdtPartition, id, key string, counts func(string) bool) (*RecordLocation, error) {
	var loc *RecordLocation
	if base, ok := part.bases[id]; ok {
		// A point lookup: a base file larger than List reads whole is read in ranges (the
		// HFile's index, then the one data block), not into memory.
		var r io.ReaderAt
		var size int64
		if base.Size >= 0 && base.Size <= WholeReadMax {
			b, err := mdt.ReadFile(ctx, base.Path)
			if err != nil {
				return nil, err
			}
			r, size = bytes.NewReader(b), int64(len(b))
		} else {
			f, err := mdt.Open(ctx, base.Path)
			if err != nil {
				return nil, err
			}
			defer f.Close()
			r, size = f, f.Size()
		}
		var err error
		if loc, err = findInHFile(r, size, "", key); err != nil {
			return nil, fmt.Errorf("%s: %w", base.Path, err)
		}
	}
	var files []storage.File
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	rolledBack := map[string]bool{}
	for _, l := range part.logs {
		if l.name.FileID != id {
			continue
		}
		f, err := mdt.Open(ctx, l.e.Path)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
		logfile.Walk(f, f.Size(), func(blk logfile.Block) bool {
			if blk.IsRollback() {
				rolledBack[blk.TargetInstant()] = true
			}
			return true
		})
	}
	i := 0
	for _, l := range part.logs {
		if l.name.FileID != id {
			continue
		}
		f := files[i]
		i++
		var err error
		logfile.Walk(f, f.Size(), func(blk logfile.Block) bool {
			if blk.Corrupt || blk.Type != logfile.BlockHFileData && blk.Type != logfile.BlockDelete {
				return true
			}
			if inst := blk.InstantTime(); rolledBack[inst] || !counts(inst) {
				return true
			}
			var content []byte
			if content, err = blk.ReadContent(f); err != nil {
				err = fmt.Errorf("%s: block at %d: %w", l.e.Path, blk.Offset, err)
				return false
			}
			if blk.Type == logfile.BlockDelete {
				if strings.Trim(blk.InstantTime(), "0") == "" && len(content) >= 4 && content[3] < 3 {
					return true // the init instant's empty JVM-serialised delete block
				}
				keys, derr := deleteBlockKeys(content)
				if derr != nil {
					err = fmt.Errorf("%s: delete block at %d: %w", l.e.Path, blk.Offset, derr)
					return false
				}
				if slices.Contains(keys, key) {
					loc = nil
				}
				return true
			}
			found, ferr := findInHFile(bytes.NewReader(content), int64(len(content)), blk.Header[logfile.HeaderSchema], key)
			if ferr != nil {
				err = fmt.Errorf("%s: HFILE_DATA block at %d: %w", l.e.Path, blk.Offset, ferr)
				return false
			}
			if found != nil {
				loc = found
			}
			return true
		})
		if err != nil {
			return nil, err
		}
	}
	return loc, nil
}

// errFound stops an HFile scan at the key looked for.
var errFound = errors.New("found")

// findInHFile decodes key's record_index entry in one HFile (nil when absent). Cells are in
// key order, so the scan stops past the key.
func findInHFile(r io.ReaderAt, size int64, schema, key string) (*RecordLocation, error) {
	h, err := hfile.Open(r, size)
	if err != nil {
		return nil, err
	}
	if schema == "" {
		schema = h.Schema()
	}
	if schema == "" {
		return nil, errors.New("no writer schema (file info `schema` or block SCHEMA header)")
	}
	s, err := avro.Schema(schema)
	if err != nil {
		return nil, fmt.Errorf("avro schema: %w", err)
	}
	var loc *RecordLocation
	want := []byte(key)
	err = h.Scan(func(k, value []byte) error {
		switch c := bytes.Compare(k, want); {
		case c < 0:
			return nil
		case c > 0:
			return errFound // past it: not in this file
		}
		var v any
		if _, err := s.Decode(value, &v); err != nil {
			return fmt.Errorf("record %q: %w", k, err)
		}
		loc = recordLocation(v)
		return errFound
	})
	if err != nil && !errors.Is(err, errFound) {
		return nil, err
	}
	return loc, nil
}

// recordLocation reads HoodieRecordIndexInfo from a decoded metadata record: the file id is
// the UUID of fileIdHighBits/fileIdLowBits plus "-fileIndex" (fileIdEncoding 0) or fileId
// as written (encoding 1). nil when the record holds no index entry.
func recordLocation(v any) *RecordLocation {
	m, _ := v.(map[string]any)
	ri, _ := m["recordIndexMetadata"].(map[string]any)
	if ri == nil {
		return nil
	}
	loc := &RecordLocation{Position: -1}
	loc.Partition, _ = ri["partitionName"].(string)
	if enc, _ := ri["fileIdEncoding"].(int32); enc == 1 {
		loc.FileID, _ = ri["fileId"].(string)
	} else {
		hi, _ := ri["fileIdHighBits"].(int64)
		lo, _ := ri["fileIdLowBits"].(int64)
		u, l := uint64(hi), uint64(lo)
		loc.FileID = fmt.Sprintf("%08x-%04x-%04x-%04x-%012x", u>>32, (u>>16)&0xffff, u&0xffff, l>>48, l&0xffffffffffff)
		if idx, ok := ri["fileIndex"].(int32); ok && idx >= 0 {
			loc.FileID += "-" + strconv.Itoa(int(idx))
		}
	}
	if ms, ok := ri["instantTime"].(int64); ok {
		loc.Instant = time.UnixMilli(ms).UTC().Format("20060102150405.000")
		loc.Instant = strings.Replace(loc.Instant, ".", "", 1)
	}
	if p, ok := ri["position"].(int64); ok {
		loc.Position = p
	}
	return loc
}
