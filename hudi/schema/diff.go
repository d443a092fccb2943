package schema

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Change kinds.
const (
	Added       = "added"
	Removed     = "removed"
	Renamed     = "renamed"
	TypeChanged = "type"
	Nullability = "nullability"
)

// Change is one difference between two schemas' columns.
type Change struct {
	Kind   string `json:"kind"`
	Column string `json:"column"`
	// From and To are the old and new type (TypeChanged), nullability (Nullability: "nullable"
	// or "required") or name (Renamed: Column is the new name).
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
	// Promotion marks a type change Avro schema resolution reads old data through (int to
	// long, float or double; long to float or double; float to double; string and bytes).
	Promotion bool `json:"promotion,omitempty"`
}

func (c Change) String() string {
	switch c.Kind {
	case Added:
		return "+" + c.Column
	case Removed:
		return "-" + c.Column
	case Renamed:
		return c.From + " → " + c.Column
	}
	s := c.Column + " " + c.From + " → " + c.To
	if c.Promotion {
		s += " (promotion)"
	}
	return s
}

var promotions = map[[2]string]bool{
	{"int", "long"}: true, {"int", "float"}: true, {"int", "double"}: true,
	{"long", "float"}: true, {"long", "double"}: true, {"float", "double"}: true,
	{"string", "bytes"}: true, {"bytes", "string"}: true,
}

// IsPromotion reports whether Avro reads data written as type from through type to.
func IsPromotion(from, to string) bool { return promotions[[2]string{from, to}] }

// Diff lists what changed from old to new: renames first (columns whose internal schema id
// stayed while the name changed, when both sides carry ids), then additions, removals, type
// and nullability changes, each in the new (for removals the old) schema's column order.
func Diff(old, new []Column) []Change {
	oldBy := make(map[string]Column, len(old))
	for _, c := range old {
		oldBy[c.Name] = c
	}
	newBy := make(map[string]Column, len(new))
	for _, c := range new {
		newBy[c.Name] = c
	}
	// ids: a column whose id is in both schemas under different names was renamed.
	oldByID := map[int]Column{}
	for _, c := range old {
		if c.ID >= 0 {
			oldByID[c.ID] = c
		}
	}
	renamedFrom := map[string]string{} // new name → old name
	renamedOld := map[string]bool{}
	var out []Change
	for _, c := range new {
		if c.ID < 0 {
			continue
		}
		if o, ok := oldByID[c.ID]; ok && o.Name != c.Name {
			if _, stillThere := newBy[o.Name]; stillThere {
				continue
			}
			renamedFrom[c.Name], renamedOld[o.Name] = o.Name, true
			out = append(out, Change{Kind: Renamed, Column: c.Name, From: o.Name})
		}
	}
	for _, c := range new {
		if _, ok := oldBy[c.Name]; !ok && renamedFrom[c.Name] == "" {
			out = append(out, Change{Kind: Added, Column: c.Name, To: c.Type})
		}
	}
	for _, c := range old {
		if _, ok := newBy[c.Name]; !ok && !renamedOld[c.Name] {
			out = append(out, Change{Kind: Removed, Column: c.Name, From: c.Type})
		}
	}
	for _, c := range new {
		o, ok := oldBy[c.Name]
		if from := renamedFrom[c.Name]; from != "" {
			o, ok = oldBy[from]
		}
		if !ok {
			continue
		}
		if o.Type != c.Type {
			out = append(out, Change{Kind: TypeChanged, Column: c.Name, From: o.Type, To: c.Type, Promotion: IsPromotion(o.Type, c.Type)})
		}
		if o.Nullable != c.Nullable {
			out = append(out, Change{Kind: Nullability, Column: c.Name, From: nullWord(o.Nullable), To: nullWord(c.Nullable)})
		}
	}
	return out
}

func nullWord(n bool) string {
	if n {
		return "nullable"
	}
	return "required"
}

// internalSchema is the JSON of Hudi's InternalSchema (SerDeHelper): one schema, or the
// history file's {"schemas": [...]}.
type internalSchema struct {
	VersionID int64            `json:"version_id"`
	Fields    []internalField  `json:"fields"`
	Schemas   []internalSchema `json:"schemas"`
}

type internalField struct {
	ID       int             `json:"id"`
	Name     string          `json:"name"`
	Optional bool            `json:"optional"`
	Type     json.RawMessage `json:"type"`
}

type internalType struct {
	Type            string          `json:"type"`
	Fields          []internalField `json:"fields"`
	ElementID       *int            `json:"element_id"`
	Element         json.RawMessage `json:"element"`
	ElementOptional bool            `json:"element_optional"`
	ValueID         *int            `json:"value_id"`
	Value           json.RawMessage `json:"value"`
	ValueOptional   bool            `json:"value_optional"`
}

// InternalIDs reads the internal schema (extraMetadata["latest_schema"], or the newest
// version of a .hoodie/.schema history file) into column ids by dotted name, named as Parse
// names columns.
func InternalIDs(text string) (map[string]int, error) {
	if len(text) > maxSchemaBytes {
		return nil, fmt.Errorf("internal schema of %d bytes is over the %d-byte limit", len(text), maxSchemaBytes)
	}
	var s internalSchema
	if err := json.Unmarshal([]byte(text), &s); err != nil {
		return nil, fmt.Errorf("internal schema: %w", err)
	}
	if len(s.Schemas) > 0 {
		sort.SliceStable(s.Schemas, func(a, b int) bool { return s.Schemas[a].VersionID < s.Schemas[b].VersionID })
		s = s.Schemas[len(s.Schemas)-1]
	}
	ids := map[string]int{}
	var walk func(fs []internalField, prefix string, depth int)
	var walkType func(raw json.RawMessage, name string, depth int)
	walkType = func(raw json.RawMessage, name string, depth int) {
		if depth > maxDepth || len(ids) > maxColumns {
			return
		}
		var t internalType
		if json.Unmarshal(raw, &t) != nil {
			return // a primitive: "int"
		}
		switch t.Type {
		case "record":
			walk(t.Fields, name+".", depth+1)
		case "array":
			if t.ElementID != nil {
				ids[name+".element"] = *t.ElementID
			}
			walkType(t.Element, name+".element", depth+1)
		case "map":
			if t.ValueID != nil {
				ids[name+".value"] = *t.ValueID
			}
			walkType(t.Value, name+".value", depth+1)
		}
	}
	walk = func(fs []internalField, prefix string, depth int) {
		for _, f := range fs {
			ids[prefix+f.Name] = f.ID
			walkType(f.Type, prefix+f.Name, depth)
		}
	}
	walk(s.Fields, "", 0)
	return ids, nil
}

// WithIDs sets the columns' ids from an internal schema's (InternalIDs).
func WithIDs(cols []Column, ids map[string]int) []Column {
	if len(ids) == 0 {
		return cols
	}
	out := make([]Column, len(cols))
	for i, c := range cols {
		if id, ok := ids[c.Name]; ok {
			c.ID = id
		}
		out[i] = c
	}
	return out
}

// WithoutMeta is cols without Hudi's meta columns: a writer schema lists them once
// schema-on-read evolution records them (ALTER TABLE commits do), which is no change of the
// table's columns.
func WithoutMeta(cols []Column) []Column {
	out := make([]Column, 0, len(cols))
	for _, c := range cols {
		if !c.Meta {
			out = append(out, c)
		}
	}
	return out
}

// InferIDs gives old, a schema recorded before schema-on-read evolution began (no ids), the
// ids Hudi gave its columns when the first internal schema was made from it
// (AvroInternalSchemaConverter numbers a flat record's fields in order, the meta columns 0-4
// first when the table has them), so a rename in the first evolution tells. old is returned
// as is when it has ids, nests fields (the converter's numbering of nested fields is not
// inferred), or new carries no ids.
func InferIDs(old, new []Column) []Column {
	newMeta, newIDs := false, false
	for _, c := range new {
		if c.ID >= 0 {
			newIDs = true
			if c.Meta {
				newMeta = true
			}
		}
	}
	if !newIDs {
		return old
	}
	for _, c := range old {
		if c.ID >= 0 || strings.Contains(c.Name, ".") {
			return old
		}
	}
	cols := WithoutMeta(old)
	if newMeta {
		cols = WithMeta(cols)
	}
	out := make([]Column, len(cols))
	for i, c := range cols {
		c.ID = i
		out[i] = c
	}
	return out
}

// InternalVersion is one version of the schema-on-read history: the internal schema Hudi
// recorded at instant VersionID, as columns named as Parse names them. Types are the internal
// schema's names (int, long, string, decimal(10,2), date, timestamp, record, array<T>, map<T>).
type InternalVersion struct {
	VersionID string
	Columns   []Column
}

// InternalVersions reads every version a .hoodie/.schema history file holds, oldest first.
func InternalVersions(text string) ([]InternalVersion, error) {
	if len(text) > maxSchemaBytes {
		return nil, fmt.Errorf("schema history of %d bytes is over the %d-byte limit", len(text), maxSchemaBytes)
	}
	var s internalSchema
	if err := json.Unmarshal([]byte(text), &s); err != nil {
		return nil, fmt.Errorf("schema history: %w", err)
	}
	list := s.Schemas
	if len(list) == 0 {
		list = []internalSchema{s}
	}
	sort.SliceStable(list, func(a, b int) bool { return list[a].VersionID < list[b].VersionID })
	out := make([]InternalVersion, 0, len(list))
	for _, v := range list {
		var cols []Column
		var walk func(fs []internalField, prefix string, depth int) error
		var add func(c Column, raw json.RawMessage, depth int) error
		add = func(c Column, raw json.RawMessage, depth int) error {
			if depth > maxDepth {
				return fmt.Errorf("schema history: nests deeper than %d levels", maxDepth)
			}
			if len(cols) >= maxColumns {
				return fmt.Errorf("schema history: more than %d columns", maxColumns)
			}
			var prim string
			if json.Unmarshal(raw, &prim) == nil {
				c.Type = prim
				cols = append(cols, c)
				return nil
			}
			var t internalType
			if err := json.Unmarshal(raw, &t); err != nil {
				return fmt.Errorf("schema history: column %s: %w", c.Name, err)
			}
			switch t.Type {
			case "record":
				c.Type = "record"
				cols = append(cols, c)
				return walk(t.Fields, c.Name+".", depth+1)
			case "array", "map":
				inner, id, opt, suffix := t.Element, t.ElementID, t.ElementOptional, ".element"
				if t.Type == "map" {
					inner, id, opt, suffix = t.Value, t.ValueID, t.ValueOptional, ".value"
				}
				var innerPrim string
				if json.Unmarshal(inner, &innerPrim) == nil {
					c.Type = t.Type + "<" + innerPrim + q(opt) + ">"
					cols = append(cols, c)
					return nil
				}
				var it internalType
				_ = json.Unmarshal(inner, &it)
				c.Type = t.Type + "<" + it.Type + q(opt) + ">"
				cols = append(cols, c)
				ec := Column{Name: c.Name + suffix, Nullable: opt, ID: -1}
				if id != nil {
					ec.ID = *id
				}
				return add(ec, inner, depth+1)
			}
			c.Type = t.Type
			cols = append(cols, c)
			return nil
		}
		walk = func(fs []internalField, prefix string, depth int) error {
			for _, f := range fs {
				c := Column{Name: prefix + f.Name, Nullable: f.Optional, ID: f.ID, Meta: prefix == "" && IsMeta(f.Name)}
				if err := add(c, f.Type, depth); err != nil {
					return err
				}
			}
			return nil
		}
		if err := walk(v.Fields, "", 0); err != nil {
			return nil, err
		}
		out = append(out, InternalVersion{VersionID: fmt.Sprint(v.VersionID), Columns: cols})
	}
	return out, nil
}
