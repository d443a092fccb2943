// Package avro reads what Hudi stores as Avro: object container files (one per instant in 1.x
// timelines) and single datums written with a known schema. Parsed schemas are cached.
package avro

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/twmb/avro"
)

// ocfMagic starts every Avro object container file.
var ocfMagic = []byte{'O', 'b', 'j', 1}

// IsOCF reports whether content is an Avro object container file.
func IsOCF(b []byte) bool { return bytes.HasPrefix(b, ocfMagic) }

// ErrEmpty marks instant content of zero bytes (normal for requested files and many inflights).
var ErrEmpty = errors.New("empty file")

// ContentJSON normalises instant content to JSON: JSON text is returned as is (after a
// validity check) and an Avro OCF's first record is re-encoded as JSON with bare unions.
// Hudi writes exactly one record per instant file, with writer schemas that grow over releases,
// so we always decode with the embedded schema and never positionally.
func ContentJSON(b []byte) ([]byte, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, ErrEmpty
	}
	if IsOCF(b) {
		return ocfFirstRecordJSON(b)
	}
	if !json.Valid(b) {
		return nil, errors.New("neither valid JSON nor an Avro object container file")
	}
	return b, nil
}

func ocfFirstRecordJSON(b []byte) ([]byte, error) {
	f, err := firstBlock(b)
	if err != nil {
		return nil, err
	}
	s, err := schemaOf(f.schema)
	if err != nil {
		return nil, fmt.Errorf("avro schema: %w", err)
	}
	return datumJSON(s, f.block)
}

// firstBlock reads a container whose first block holds at least one record.
func firstBlock(b []byte) (ocfFile, error) {
	f, err := readOCF(b)
	if err != nil {
		return ocfFile{}, fmt.Errorf("avro container: %w", err)
	}
	if f.count < 1 {
		return ocfFile{}, errors.New("avro container holds no record")
	}
	return f, nil
}

// FirstRecord decodes a container file's first record into generic Go values (records as
// map[string]any, unions bare), for callers that map fields themselves.
func FirstRecord(b []byte) (any, error) {
	f, err := firstBlock(b)
	if err != nil {
		return nil, err
	}
	s, err := schemaOf(f.schema)
	if err != nil {
		return nil, fmt.Errorf("avro schema: %w", err)
	}
	var v any
	if _, err := s.Decode(f.block, &v); err != nil {
		return nil, fmt.Errorf("avro datum: %w", err)
	}
	return v, nil
}

// ErrNotInto marks a first record FirstRecordInto could not decode into the caller's struct
// (a writer schema the struct does not fit): the container, codec and schema were read, so a
// generic decode may still succeed. Any other error from FirstRecordInto a generic decode
// (FirstRecord) would return too.
var ErrNotInto = errors.New("record does not fit the struct")

// FirstRecordInto decodes a container file's first record into a struct (fields by their
// `avro` tags; record fields the struct lacks are skipped).
func FirstRecordInto(b []byte, v any) error {
	c, err := FirstBlock(b)
	if err != nil {
		return err
	}
	return c.Into(v)
}

// Container is a container file's writer schema (JSON text) and its first block, decompressed,
// which holds at least one record. Both may alias the file's bytes.
type Container struct {
	Schema, Block []byte
}

// FirstBlock reads the framing FirstRecordInto reads, failing as it fails, for callers that
// decode the first record themselves when they know the writer schema (and else call Into).
func FirstBlock(b []byte) (Container, error) {
	f, err := firstBlock(b)
	if err != nil {
		return Container{}, err
	}
	return Container{Schema: f.schema, Block: f.block}, nil
}

// Into is FirstRecordInto on the container already read.
func (c Container) Into(v any) error {
	s, err := schemaOf(c.Schema)
	if err != nil {
		return fmt.Errorf("avro schema: %w", err)
	}
	if _, err := s.Decode(c.Block, v, avro.SkipUnknown()); err != nil {
		return fmt.Errorf("avro datum: %w: %w", ErrNotInto, err)
	}
	return nil
}

// SchemaCache holds parsed writer schemas by their JSON text: archived timelines and log
// blocks repeat the same schema thousands of times. A table has a handful of schemas; past
// maxCachedSchemas (hostile input naming a new schema in every block) new ones are parsed
// but not kept, so the cache cannot grow with the input. A plain map under a read lock: a
// lookup by m[string(b)] neither copies the schema text nor boxes it, as sync.Map's would.
type SchemaCache struct {
	opts []avro.SchemaOpt
	mu   sync.RWMutex
	m    map[string]*avro.Schema
}

// NewSchemaCache is a cache whose schemas are parsed with opts (logical-type decoders).
func NewSchemaCache(opts ...avro.SchemaOpt) *SchemaCache { return &SchemaCache{opts: opts} }

const maxCachedSchemas = 1024

// schemaCache is the cache of plain schemas (no options) Schema and the container readers use.
var schemaCache SchemaCache

// Schema parses a writer schema, or returns the one parsed before from the same text.
func Schema(text string) (*avro.Schema, error) { return schemaCache.Parse(text) }

// schemaOf is Schema for text still in the container's bytes.
func schemaOf(text []byte) (*avro.Schema, error) {
	schemaCache.mu.RLock()
	s, ok := schemaCache.m[string(text)]
	schemaCache.mu.RUnlock()
	if ok {
		return s, nil
	}
	return schemaCache.parse(string(text))
}

// Parse parses a writer schema, or returns the one parsed before from the same text.
func (c *SchemaCache) Parse(text string) (*avro.Schema, error) {
	c.mu.RLock()
	s, ok := c.m[text]
	c.mu.RUnlock()
	if ok {
		return s, nil
	}
	return c.parse(text)
}

func (c *SchemaCache) parse(text string) (*avro.Schema, error) {
	s, err := avro.Parse(text, c.opts...)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if prev, ok := c.m[text]; ok {
		return prev, nil
	}
	if len(c.m) < maxCachedSchemas {
		if c.m == nil {
			c.m = make(map[string]*avro.Schema)
		}
		c.m[text] = s
	}
	return s, nil
}

// DatumJSON decodes one Avro binary datum written with schemaText and re-encodes it as JSON.
func DatumJSON(schemaText string, datum []byte) ([]byte, error) {
	s, err := Schema(schemaText)
	if err != nil {
		return nil, fmt.Errorf("avro schema: %w", err)
	}
	return datumJSON(s, datum)
}

func datumJSON(s *avro.Schema, datum []byte) ([]byte, error) {
	var v any
	if _, err := s.Decode(datum, &v); err != nil {
		return nil, fmt.Errorf("avro datum: %w", err)
	}
	return s.EncodeJSON(v)
}
