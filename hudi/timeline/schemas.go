package timeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"unique"

	"github.com/hudiscope/hudiscope/hudi/internal/avro"
	"github.com/hudiscope/hudiscope/hudi/storage"
)

// Extra metadata keys of the writer schema.
const (
	// SchemaKey holds the Avro writer schema (HoodieCommitMetadata.SCHEMA_KEY).
	SchemaKey = "schema"
	// InternalSchemaKey holds the internal schema of schema-on-read evolution
	// (SerDeHelper.LATEST_SCHEMA), with the column ids that tell a rename.
	InternalSchemaKey = "latest_schema"
)

// WriterSchema is the schema a completed write recorded in its extra metadata.
type WriterSchema struct {
	// Avro is extraMetadata["schema"]; Internal extraMetadata["latest_schema"]. Equal texts
	// share one string (interned), so a 200k-commit timeline of one schema holds it once.
	Avro, Internal string
	// Operation is the write's operation type (UPSERT, INSERT...), read alongside.
	Operation string
	// Err says why the metadata could not be read ("" when it was, schema or not).
	Err string
}

// schemaOnly is what WriterSchemas decodes of Avro commit metadata: the rest is skipped.
type schemaOnly struct {
	ExtraMetadata map[string]string `avro:"extraMetadata"`
	OperationType string            `avro:"operationType"`
}

// WriterSchemas reads the writer schema of each instant (completed writes; others get a zero
// WriterSchema): from kept commit metadata (archived entries carry theirs), else from the
// completed file, decoding only the extra metadata, on the reader's bounded workers.
func (r *Reader) WriterSchemas(ctx context.Context, instants []*Instant) []WriterSchema {
	out := make([]WriterSchema, len(instants))
	ready := r.decodeEach(ctx, instants, func(i int, in *Instant, dir storage.DirReader, buf []byte) []byte {
		if in.State != Completed || !IsWriteAction(in.Action) || ctx.Err() != nil {
			return buf
		}
		if in.Commit != nil {
			out[i] = writerSchemaOf(in.Commit.ExtraMetadata, in.Commit.OperationType)
			return buf
		}
		if in.Archived {
			if in.Err != "" {
				out[i].Err = in.Err
			}
			return buf // an archived entry without metadata: nothing to read
		}
		ce, ok := completedEntry(in)
		if !ok {
			return buf
		}
		b, err := dir.ReadEntryBuf(ctx, ce, buf)
		if cap(b) > cap(buf) && cap(b) <= maxReusedBuffer {
			buf = b[:0]
		}
		if err != nil {
			out[i].Err = err.Error()
			return buf
		}
		if len(b) == 0 {
			out[i].Err = ErrEmptyCompleted
			return buf
		}
		em, op, err := decodeExtraMetadata(b)
		if err != nil {
			out[i].Err = fmt.Sprintf("decode %s: %v", r.path(ce.Path), err)
			return buf
		}
		out[i] = writerSchemaOf(em, op)
		return buf
	})
	for i := range instants {
		ready(i)
	}
	return out
}

func writerSchemaOf(em map[string]string, op string) WriterSchema {
	ws := WriterSchema{Operation: unique.Make(op).Value()}
	if s := em[SchemaKey]; s != "" {
		ws.Avro = unique.Make(s).Value()
	}
	if s := em[InternalSchemaKey]; s != "" {
		ws.Internal = unique.Make(s).Value()
	}
	return ws
}

// decodeExtraMetadata decodes only a commit's extra metadata and operation type: Avro (1.x)
// through a struct with those two fields, JSON (0.x) without building the write stats.
func decodeExtraMetadata(b []byte) (map[string]string, string, error) {
	if avro.IsOCF(b) {
		c, err := avro.FirstBlock(b)
		if err != nil {
			return nil, "", err
		}
		var so schemaOnly
		if err := c.Into(&so); err == nil {
			return so.ExtraMetadata, so.OperationType, nil
		} else if !errors.Is(err, avro.ErrNotInto) {
			return nil, "", err
		}
		cm, err := decodeCommitGeneric(b)
		if err != nil {
			return nil, "", err
		}
		return cm.ExtraMetadata, cm.OperationType, nil
	}
	var js struct {
		ExtraMetadata map[string]json.RawMessage `json:"extraMetadata"`
		OperationType string                     `json:"operationType"`
	}
	if err := json.Unmarshal(b, &js); err != nil {
		return nil, "", err
	}
	em := make(map[string]string, 2)
	for _, k := range []string{SchemaKey, InternalSchemaKey} {
		var s string
		if raw, ok := js.ExtraMetadata[k]; ok && json.Unmarshal(raw, &s) == nil {
			em[k] = s
		}
	}
	return em, js.OperationType, nil
}
