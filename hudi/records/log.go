package records

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"

	"github.com/hudiscope/hudiscope/hudi/filegroup"
	"github.com/hudiscope/hudiscope/hudi/internal/avro"
	"github.com/hudiscope/hudiscope/hudi/internal/parquetsafe"
	"github.com/hudiscope/hudiscope/hudi/logfile"
	"github.com/hudiscope/hudiscope/hudi/problem"
	"github.com/hudiscope/hudiscope/hudi/storage"
)

// logBlock is one decoded data or delete block.
type logBlock struct {
	instant          string
	file             string   // the log file's name
	records          []Record // deletes carry deleted=true
	undecodedDeletes bool
}

// readLogs decodes the blocks of a slice's log files in order and applies rollback command
// blocks: a rollback cancels the earlier blocks of the instant it names. Blocks of instants
// that did not complete are dropped.
func readLogs(ctx context.Context, store storage.Storage, logs []filegroup.LogFile, o Options, problems *problem.Log) []logBlock {
	cols := projection(o)
	var out []logBlock
	for _, lf := range logs {
		if lf.Meta.CDC {
			continue // CDC logs hold change images, not records
		}
		if ctx.Err() != nil {
			return out
		}
		f, err := store.Open(ctx, lf.Path)
		if err != nil {
			problems.Add(store.Root()+"/"+lf.Path, err.Error())
			continue
		}
		for _, b := range logfile.ReadBlocks(f, f.Size()) {
			where := fmt.Sprintf("%s/%s", store.Root(), lf.Path)
			if b.Corrupt {
				problems.Add(where, b.Problem)
				continue
			}
			if b.IsRollback() {
				kept := out[:0]
				for _, x := range out {
					if x.instant != b.TargetInstant() {
						kept = append(kept, x)
					}
				}
				out = kept
				continue
			}
			if b.Type != logfile.BlockAvroData && b.Type != logfile.BlockParquetData && b.Type != logfile.BlockDelete {
				if b.Type != logfile.BlockCommand {
					problems.Add(where, fmt.Sprintf("block at byte %d: type %d blocks are not read", b.Offset, b.Type))
				}
				continue
			}
			content, err := b.ReadContent(f)
			if err != nil {
				problems.Add(where, fmt.Sprintf("block at byte %d: %v", b.Offset, err))
				continue
			}
			lb := logBlock{instant: b.InstantTime(), file: lf.Name}
			switch b.Type {
			case logfile.BlockDelete:
				lb.records, lb.undecodedDeletes, err = deleteRecords(content, o.OrderingFields)
			case logfile.BlockParquetData:
				lb.records, err = parquetBlockRecords(ctx, content, cols, o.AllColumns, o.OrderingFields)
			default:
				lb.records, err = dataRecords(b.Header[logfile.HeaderSchema], content, cols, o.AllColumns, o.OrderingFields)
			}
			if err != nil {
				problems.Add(where, fmt.Sprintf("block at byte %d (instant %s): %v", b.Offset, lb.instant, err))
				if len(lb.records) == 0 {
					continue
				}
			}
			out = append(out, lb)
		}
		f.Close()
	}
	if o.Committed != nil {
		kept := out[:0]
		for _, x := range out {
			if o.Committed(x.instant) {
				kept = append(kept, x)
			}
		}
		out = kept
	}
	return out
}

// dataSchemas parses data blocks' writer schemas with the logical-type decoders; bounded as
// the container readers' cache is, since every block names its own schema text.
var dataSchemas = avro.NewSchemaCache(avroLogical...)

// dataRecords decodes an Avro data block with its writer schema (the SCHEMA header).
func dataRecords(schema string, content []byte, cols []string, all bool, ordering []string) ([]Record, error) {
	s, err := dataSchemas.Parse(schema)
	if err != nil {
		return nil, fmt.Errorf("avro schema: %w", err)
	}
	fields := cols
	if all {
		fields = nil
		for _, f := range s.Root().Fields {
			fields = append(fields, f.Name)
		}
	}
	flat := flatPlanFor(schema, s)
	datums, err := logfile.AvroRecords(content)
	out := make([]Record, 0, len(datums))
	for i, d := range datums {
		var m map[string]any
		if flat != nil {
			var derr error
			if m, derr = flat.decode(d); derr != nil {
				return out, fmt.Errorf("record %d: %w", i, derr)
			}
		} else {
			var v any
			if _, derr := s.Decode(d, &v); derr != nil {
				return out, fmt.Errorf("record %d: %w", i, derr)
			}
			var ok bool
			if m, ok = v.(map[string]any); !ok {
				return out, fmt.Errorf("record %d is %T, not a record", i, v)
			}
		}
		rec := Record{Values: m, Fields: fields}
		if all {
			// Every field is kept: the decoded map is the record's (fields are its keys).
			if flat == nil { // the flat decoder has converted its values already
				for k, v := range m {
					m[k] = avroValue(v)
				}
			}
		} else {
			rec.Values = make(map[string]any, len(fields)+3)
			for _, c := range fields {
				rec.Values[c] = avroValue(m[c])
			}
		}
		for _, c := range []string{CommitTime, RecordKey, PartitionPath} {
			if _, ok := rec.Values[c]; !ok {
				rec.Values[c] = m[c] // nil when the schema lacks it
			}
		}
		finish(&rec, nil)
		for _, f := range ordering {
			rec.ordering = append(rec.ordering, m[f])
		}
		out = append(out, rec)
	}
	return out, err
}

// parquetBlockRecords decodes a Parquet data block (hoodie.logfile.data.block.format=parquet):
// its content is a whole Parquet file, which Hudi reads back in place through an inline file
// system. Its records carry the meta columns as a base file's do and are read the same way,
// with every page checked first as for any Parquet this reader opens.
func parquetBlockRecords(ctx context.Context, content []byte, cols []string, all bool, ordering []string) ([]Record, error) {
	const name = "parquet data block"
	pf, err := parquetsafe.Open(bytes.NewReader(content), int64(len(content)), name, parquetsafe.Limits{Pages: true})
	if err != nil {
		return nil, err
	}
	var out []Record
	rg := 0
	_, err = readBaseRows(ctx, pf, name, cols, all, ordering, nil, func(r Record) error {
		out = append(out, r)
		return nil
	}, &rg)
	return out, err
}

// deleteRecords decodes a delete block (content version 3: int32 version, int32 length, Avro
// HoodieDeleteRecordList). Older versions hold Java-serialised keys, which are only counted.
func deleteRecords(content []byte, ordering []string) ([]Record, bool, error) {
	if len(content) < 8 {
		return nil, false, fmt.Errorf("delete block content too short (%d bytes)", len(content))
	}
	if v := int32(binary.BigEndian.Uint32(content)); v < 3 {
		return nil, true, nil
	}
	n := int(int32(binary.BigEndian.Uint32(content[4:])))
	if n < 0 || 8+n > len(content) {
		return nil, false, fmt.Errorf("delete block length %d exceeds content", n)
	}
	s, err := avro.Schema(logfile.DeleteRecordListSchema)
	if err != nil {
		return nil, false, err
	}
	var v any
	if _, err := s.Decode(content[8:8+n], &v); err != nil {
		return nil, false, fmt.Errorf("delete records: %w", err)
	}
	m, _ := v.(map[string]any)
	list, _ := m["deleteRecordList"].([]any)
	out := make([]Record, 0, len(list))
	for _, item := range list {
		rec, _ := item.(map[string]any)
		r := Record{Key: str(rec["recordKey"]), Partition: str(rec["partitionPath"]), deleted: true}
		if w, ok := rec["orderingVal"].(map[string]any); ok && len(ordering) > 0 {
			// Hudi writes an int 0 (DEFAULT_ORDERING_VALUE) when a delete has no ordering value:
			// such a delete wins whatever the record's ordering value (natural order).
			if ov, ok := w["value"]; ok && ov != int32(0) {
				r.ordering = []any{ov}
			}
		}
		out = append(out, r)
	}
	return out, false, nil
}
