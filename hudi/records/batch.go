package records

import (
	"slices"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/format"

	"github.com/hudiscope/hudiscope/hudi/filegroup"
)

// batchRows is the most rows a Batch holds: large enough to amortise the per-batch work
// (a wide table's batches hold fewer: batchValues).
const batchRows = 1024

// batchValues bounds the values one batch of base columns holds (24 bytes each): a wide
// table's batches (or a crafted footer's thousands of columns) get fewer rows, since both
// buffers are allocated when the file is opened.
const batchValues = 64 << 10

// batchRowsFor is how many rows a batch of cols columns holds: batchRows, fewer past
// batchValues values, at least one.
func batchRowsFor(cols int) int {
	return max(1, min(batchRows, batchValues/max(cols, 1)))
}

// Batch is up to batchRows rows of one file slice, in the order a snapshot returns them. Rows
// of the base file that no log record replaced stay in the base file's columns (decoded
// Parquet values, not converted to Go values until asked); the others are Records. A Batch
// and everything it returns without copying (Bytes) are valid only during the call that
// receives it: its buffers are reused for the next one.
type Batch struct {
	// Fields are the base rows' columns, in the base file's schema order (shared between
	// batches of a slice). A Record row carries its own Fields (a log block's schema).
	Fields []string
	// Schema are the reader schema's columns (Options.ReaderColumns; nil: unknown): every
	// row has each of them, null where its file's schema lacks it.
	Schema []string
	// FileGroup is the file group whose latest slice the rows were read from (set by
	// ScanBatches; nil for a single slice read).
	FileGroup *filegroup.FileGroup
	// widen are the reader schema's numeric column types (Options.ReaderTypes).
	widen map[string]string
	rows  []batchRow
	base  *baseColumns
}

type batchRow struct {
	rec  *Record // nil: base row at index base of the columns
	base int32
}

// baseColumns are the projected columns of one batch of base rows and how to read them.
type baseColumns struct {
	fields    []string
	vals      [][]parquet.Value // per field (nil: the file lacks the column)
	types     []parquet.Type
	plain     []bool // per field: numbers read as stored (plainNumber)
	ordering  []string
	keyFields []string
	// Column positions in fields of the meta columns and ordering fields (-1: absent), and of
	// every field by name.
	commitTime, key, partition int
	order                      []int
	pos                        map[string]int
}

// Len is the number of rows.
func (b *Batch) Len() int { return len(b.rows) }

// Filter keeps the rows keep accepts (keep sees each row's index before any is dropped), in order.
func (b *Batch) Filter(keep func(i int) bool) {
	n := 0
	for i := range b.rows {
		if keep(i) {
			b.rows[n] = b.rows[i]
			n++
		}
	}
	b.rows = b.rows[:n]
}

// Record is row i as a Record (its values converted to Go values), the form every row had
// before batches: callers that keep rows beyond the batch use this.
func (b *Batch) Record(i int) Record {
	r := b.rows[i]
	var rec Record
	if r.rec != nil {
		rec = *r.rec
	} else {
		rec = b.base.record(int(r.base))
	}
	missing := false
	for _, c := range b.Schema {
		if _, ok := rec.Values[c]; !ok {
			missing = true
			break
		}
	}
	if len(b.widen) > 0 || missing {
		vals := make(map[string]any, len(rec.Values)+len(b.Schema))
		for k, v := range rec.Values {
			vals[k] = widen(v, b.widen[k])
		}
		rec.Values = vals
	}
	if missing {
		// A record written before a column was added has it, null, as a reader returns it;
		// its Fields are the schema's, then any of its file's the schema lacks.
		fields := append([]string(nil), b.Schema...)
		for _, f := range rec.Fields {
			if _, ok := rec.Values[f]; ok && !slices.Contains(b.Schema, f) {
				fields = append(fields, f)
			}
		}
		for _, c := range b.Schema {
			if _, ok := rec.Values[c]; !ok {
				rec.Values[c] = nil
			}
		}
		rec.Fields = fields
	}
	return rec
}

// Value is column j (of Fields) of row i as a Go value (nil when null or absent).
func (b *Batch) Value(i, j int) any {
	r := b.rows[i]
	var v any
	if r.rec != nil {
		v = r.rec.Values[b.Fields[j]]
	} else if c := b.base; c.vals[j] != nil {
		v = parquetLeaf(c.vals[j][r.base], c.types[j])
	}
	if len(b.widen) > 0 {
		v = widen(v, b.widen[b.Fields[j]])
	}
	return v
}

// widen converts a value written before its column was widened (int to long, float or double;
// long to float or double; float to double, as Hudi's schema evolution accepts) to the reader
// schema's type: to is "long", "float" or "double" ("" keeps v).
func widen(v any, to string) any {
	switch to {
	case "long":
		if n, ok := v.(int32); ok {
			return int64(n)
		}
	case "float":
		switch n := v.(type) {
		case int32:
			return float32(n)
		case int64:
			return float32(n)
		}
	case "double":
		switch n := v.(type) {
		case int32:
			return float64(n)
		case int64:
			return float64(n)
		case float32:
			return float64(n)
		}
	}
	return v
}

// RowFields are row i's columns: Fields, or a log record's own.
func (b *Batch) RowFields(i int) []string {
	if r := b.rows[i]; r.rec != nil {
		return r.rec.Fields
	}
	return b.Fields
}

// Get is row i's value of the named column as a Go value (what Record(i).Values[name] is,
// without building the map).
func (b *Batch) Get(i int, name string) any {
	r := b.rows[i]
	if r.rec != nil {
		if len(b.widen) > 0 {
			return widen(r.rec.Values[name], b.widen[name])
		}
		return r.rec.Values[name]
	}
	j, ok := b.base.pos[name]
	if !ok {
		return nil
	}
	return b.Value(i, j)
}

// Int64 is column j of row i when it holds a 64-bit integer (no conversion, no allocation).
func (b *Batch) Int64(i, j int) (int64, bool) {
	r := b.rows[i]
	if r.rec != nil {
		v, ok := r.rec.Values[b.Fields[j]].(int64)
		return v, ok
	}
	c := b.base
	if c.vals[j] == nil {
		return 0, false
	}
	v := c.vals[j][r.base]
	if v.IsNull() || v.Kind() != parquet.Int64 || !c.plain[j] {
		return 0, false
	}
	return v.Int64(), true
}

// plainNumber says whether parquetLeaf keeps t's numbers as they are stored (no date,
// timestamp or decimal logical type).
func plainNumber(t parquet.Type) bool {
	if lt := t.LogicalType(); lt != nil && lt.Value != nil {
		if _, ok := lt.Value.(*format.IntType); !ok {
			return false
		}
	}
	if ct := t.ConvertedType(); ct != nil {
		switch *ct {
		case deprecated.Date, deprecated.TimestampMillis, deprecated.TimestampMicros, deprecated.UTF8, deprecated.Enum, deprecated.Json:
			return false
		}
	}
	return true
}

// CommitTime is row i's _hoodie_commit_time.
func (b *Batch) CommitTime(i int) string {
	r := b.rows[i]
	if r.rec != nil {
		return r.rec.CommitTime
	}
	return string(b.base.bytes(b.base.commitTime, int(r.base)))
}

// Key is row i's record key (_hoodie_record_key, or the key fields' value on a table that
// leaves meta fields empty).
func (b *Batch) Key(i int) string {
	r := b.rows[i]
	if r.rec != nil {
		return r.rec.Key
	}
	c := b.base
	if k := c.bytes(c.key, int(r.base)); len(k) > 0 || len(c.keyFields) == 0 {
		return string(k)
	}
	return c.derivedKey(int(r.base))
}

// Partition is row i's _hoodie_partition_path.
func (b *Batch) Partition(i int) string {
	r := b.rows[i]
	if r.rec != nil {
		return r.rec.Partition
	}
	return string(b.base.bytes(b.base.partition, int(r.base)))
}

// bytes is column j of base row i as bytes: the string form of the meta columns (nil when
// null or absent). Only byte-array values are returned; others go through str.
func (c *baseColumns) bytes(j, i int) []byte {
	if j < 0 || c.vals[j] == nil {
		return nil
	}
	v := c.vals[j][i]
	switch v.Kind() {
	case parquet.ByteArray, parquet.FixedLenByteArray:
		if v.IsNull() {
			return nil
		}
		return v.ByteArray()
	}
	if v.IsNull() {
		return nil
	}
	return []byte(str(parquetLeaf(v, c.types[j])))
}

// record converts base row i to a Record, as the row-at-a-time reader built it.
func (c *baseColumns) record(i int) Record {
	rec := Record{Values: make(map[string]any, len(c.fields)), Fields: c.fields}
	for j, name := range c.fields {
		var v any
		if c.vals[j] != nil {
			v = parquetLeaf(c.vals[j][i], c.types[j])
		}
		rec.Values[name] = v
	}
	finish(&rec, c.ordering)
	if rec.Key == "" && len(c.keyFields) > 0 {
		rec.Key = deriveKey(rec, c.keyFields)
	}
	return rec
}

// derivedKey is base row i's key from its key fields (a table without meta fields), as
// record(i).Key is, without converting the row's other columns.
func (c *baseColumns) derivedKey(i int) string {
	r := Record{Values: make(map[string]any, len(c.keyFields))}
	for _, f := range c.keyFields {
		if j, ok := c.pos[f]; ok && c.vals[j] != nil {
			r.Values[f] = parquetLeaf(c.vals[j][i], c.types[j])
		}
	}
	return deriveKey(r, c.keyFields)
}

// orderingOf is base row i's ordering values (what a merge compares).
func (c *baseColumns) orderingOf(i int) []any {
	out := make([]any, len(c.order))
	for k, j := range c.order {
		if j >= 0 && c.vals[j] != nil {
			out[k] = parquetLeaf(c.vals[j][i], c.types[j])
		}
	}
	return out
}
