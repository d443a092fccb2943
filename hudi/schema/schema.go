// Package schema reads the writer schemas Hudi records (the Avro schema text in a commit's
// extraMetadata["schema"], and the internal schema of schema-on-read evolution in
// extraMetadata["latest_schema"]) into flat columns, and diffs two of them: which columns were
// added, removed, renamed (when internal schema ids tell) or changed type or nullability.
package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// MetaColumns are the columns Hudi adds to every record when hoodie.populate.meta.fields is
// true (the default), in the order it writes them.
var MetaColumns = []string{"_hoodie_commit_time", "_hoodie_commit_seqno", "_hoodie_record_key",
	"_hoodie_partition_path", "_hoodie_file_name"}

// metaNames are the meta columns, plus the operation column of hoodie.allow.operation.metadata.field.
var metaNames = map[string]bool{"_hoodie_commit_time": true, "_hoodie_commit_seqno": true, "_hoodie_record_key": true,
	"_hoodie_partition_path": true, "_hoodie_file_name": true, "_hoodie_operation": true}

// IsMeta reports whether a top-level column is one of Hudi's meta columns.
func IsMeta(name string) bool { return metaNames[name] }

// Column is one field of a schema, nested fields flattened to dotted names ("address.city";
// an array's element is "tags.element", a map's value "attrs.value").
type Column struct {
	Name string `json:"name"`
	// Type is the Avro type: a primitive (int, long, string...), a logical type (date,
	// timestamp-micros, decimal(10,2)), record, enum, fixed(N), array<T> or map<T>.
	Type string `json:"type"`
	// Nullable: the type is a union with null.
	Nullable bool `json:"nullable"`
	// Default is the field's default as JSON text ("null", "0", "\"x\""); "" when it has none.
	Default string `json:"default,omitempty"`
	Doc     string `json:"doc,omitempty"`
	// Meta marks Hudi's meta columns.
	Meta bool `json:"meta,omitempty"`
	// ID is the column's id in the internal schema of schema-on-read evolution; -1 when the
	// writer recorded none.
	ID int `json:"id"`
}

// Limits on hostile schema text: no real table comes near them.
const (
	maxSchemaBytes = 16 << 20
	maxColumns     = 100000
	maxDepth       = 64
)

// ErrNotRecord is returned for schema text that is JSON but not an Avro record schema.
var ErrNotRecord = errors.New("not an Avro record schema")

// Parse flattens an Avro record schema (JSON text) into its columns, in field order, nested
// fields after their parent. Named types defined earlier may be referenced by name; a
// recursive reference is listed once, not expanded.
func Parse(text string) ([]Column, error) {
	if len(text) > maxSchemaBytes {
		return nil, fmt.Errorf("schema text of %d bytes is over the %d-byte limit", len(text), maxSchemaBytes)
	}
	var root any
	if err := json.Unmarshal([]byte(text), &root); err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	obj, ok := root.(map[string]any)
	if !ok || obj["type"] != "record" {
		return nil, ErrNotRecord
	}
	p := &parser{names: map[string]bool{}, named: map[string]any{}, open: map[string]bool{}}
	p.define(obj, "")
	p.open[fullName(obj, "")] = true
	if err := p.fields(obj, "", 0); err != nil {
		return nil, err
	}
	return p.cols, nil
}

type parser struct {
	cols  []Column
	names map[string]bool // column names so far
	named map[string]any  // full name → definition
	open  map[string]bool // records being expanded (recursion guard)
}

func fullName(obj map[string]any, ns string) string {
	name, _ := obj["name"].(string)
	if s, ok := obj["namespace"].(string); ok && s != "" && !strings.Contains(name, ".") {
		ns = s
	}
	if ns != "" && !strings.Contains(name, ".") {
		return ns + "." + name
	}
	return name
}

func (p *parser) define(obj map[string]any, ns string) {
	if name, _ := obj["name"].(string); name != "" {
		fn := fullName(obj, ns)
		p.named[fn] = obj
		p.named[name] = obj
		if i := strings.LastIndex(fn, "."); i >= 0 {
			p.named[fn[i+1:]] = obj
		}
	}
}

func (p *parser) fields(rec map[string]any, prefix string, depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("schema nests deeper than %d levels", maxDepth)
	}
	list, _ := rec["fields"].([]any)
	for _, f := range list {
		fo, ok := f.(map[string]any)
		if !ok {
			return fmt.Errorf("schema: a field of %s is not an object", recName(rec))
		}
		name, _ := fo["name"].(string)
		if name == "" {
			return fmt.Errorf("schema: a field of %s has no name", recName(rec))
		}
		c := Column{Name: prefix + name, ID: -1}
		if prefix == "" {
			c.Meta = IsMeta(name)
		}
		c.Doc, _ = fo["doc"].(string)
		if d, ok := fo["default"]; ok {
			b, _ := json.Marshal(d)
			c.Default = string(b)
		}
		if err := p.add(c, fo["type"], depth); err != nil {
			return err
		}
	}
	return nil
}

func recName(rec map[string]any) string {
	if n, _ := rec["name"].(string); n != "" {
		return n
	}
	return "a record"
}

// add appends c with type t, then the nested columns t holds.
func (p *parser) add(c Column, t any, depth int) error {
	if len(p.cols) >= maxColumns {
		return fmt.Errorf("schema has more than %d columns", maxColumns)
	}
	if p.names[c.Name] {
		return fmt.Errorf("schema: two fields named %s", c.Name)
	}
	p.names[c.Name] = true
	t, c.Nullable = nonNull(t)
	c.Type = p.typeName(t, depth)
	p.cols = append(p.cols, c)
	return p.nested(c.Name, t, depth)
}

// nested flattens what type t holds under name: a record's fields, an array's element, a
// map's value (when those are records, arrays or maps themselves).
func (p *parser) nested(name string, t any, depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("schema nests deeper than %d levels", maxDepth)
	}
	t = p.resolve(t)
	obj, ok := t.(map[string]any)
	if !ok {
		return nil
	}
	switch obj["type"] {
	case "record":
		fn := fullName(obj, "")
		if p.open[fn] {
			return nil // recursive: listed once
		}
		p.define(obj, "")
		p.open[fn] = true
		defer delete(p.open, fn)
		return p.fields(obj, name+".", depth+1)
	case "array":
		if inner, _ := nonNull(obj["items"]); complexType(p.resolve(inner)) {
			return p.add(Column{Name: name + ".element", ID: -1}, obj["items"], depth+1)
		}
	case "map":
		if inner, _ := nonNull(obj["values"]); complexType(p.resolve(inner)) {
			return p.add(Column{Name: name + ".value", ID: -1}, obj["values"], depth+1)
		}
	}
	return nil
}

func complexType(t any) bool {
	obj, ok := t.(map[string]any)
	if !ok {
		return false
	}
	switch obj["type"] {
	case "record", "array", "map":
		return true
	}
	return false
}

// resolve replaces a reference to a named type by its definition.
func (p *parser) resolve(t any) any {
	if s, ok := t.(string); ok {
		if d, ok := p.lookup(s); ok {
			return d
		}
	}
	return t
}

// lookup finds a named type by full name, else by its last name part (nested definitions
// inherit their enclosing namespace, which the parser does not track).
func (p *parser) lookup(name string) (any, bool) {
	if d, ok := p.named[name]; ok {
		return d, true
	}
	if i := strings.LastIndex(name, "."); i >= 0 {
		d, ok := p.named[name[i+1:]]
		return d, ok
	}
	return nil, false
}

// nonNull is t without null when t is a union with null (nullable); a union of several
// other types stays a union.
func nonNull(t any) (any, bool) {
	u, ok := t.([]any)
	if !ok {
		return t, t == "null"
	}
	var rest []any
	nullable := false
	for _, b := range u {
		if b == "null" {
			nullable = true
			continue
		}
		rest = append(rest, b)
	}
	if len(rest) == 1 {
		return rest[0], nullable
	}
	return rest, nullable
}

// typeName names type t as Column.Type does.
func (p *parser) typeName(t any, depth int) string {
	if depth > maxDepth {
		return "?"
	}
	switch x := t.(type) {
	case string:
		if d, ok := p.lookup(x); ok {
			if obj, ok := d.(map[string]any); ok {
				if obj["type"] == "record" {
					return "record"
				}
				return p.typeName(obj, depth+1)
			}
		}
		return x
	case []any:
		names := make([]string, len(x))
		for i, b := range x {
			names[i] = p.typeName(b, depth+1)
		}
		return "union<" + strings.Join(names, ",") + ">"
	case map[string]any:
		if lt, _ := x["logicalType"].(string); lt != "" {
			if lt == "decimal" {
				return fmt.Sprintf("decimal(%v,%v)", num(x["precision"]), num(x["scale"]))
			}
			return lt
		}
		switch x["type"] {
		case "record":
			p.define(x, "")
			return "record"
		case "enum":
			p.define(x, "")
			return "enum"
		case "fixed":
			p.define(x, "")
			return fmt.Sprintf("fixed(%v)", num(x["size"]))
		case "array":
			inner, null := nonNull(x["items"])
			return "array<" + p.typeName(inner, depth+1) + q(null) + ">"
		case "map":
			inner, null := nonNull(x["values"])
			return "map<" + p.typeName(inner, depth+1) + q(null) + ">"
		}
		return p.typeName(x["type"], depth+1)
	}
	return "?"
}

func q(nullable bool) string {
	if nullable {
		return "?"
	}
	return ""
}

func num(v any) any {
	if f, ok := v.(float64); ok && f == float64(int64(f)) {
		return int64(f)
	}
	if v == nil {
		return 0
	}
	return v
}

// WithMeta is cols with Hudi's meta columns first when the schema does not list them (the
// commit's writer schema leaves them out; a table that populates them reads them first).
func WithMeta(cols []Column) []Column {
	for _, c := range cols {
		if c.Meta {
			return cols
		}
	}
	out := make([]Column, 0, len(cols)+len(MetaColumns))
	for _, m := range MetaColumns {
		out = append(out, Column{Name: m, Type: "string", Nullable: true, Default: "null", Meta: true, ID: -1})
	}
	return append(out, cols...)
}
