package findings

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/hudiscope/hudiscope/analyzers/eventlog"
	"github.com/hudiscope/hudiscope/analyzers/health"
	"github.com/hudiscope/hudiscope/analyzers/layout"
)

// The analyzers' reports are read as the JSON documents they print, so a catalog path uses
// the same field names an operator sees. A shape is the outline of such a document, derived
// from the report's Go type; paths are checked against it when the catalog loads.
type shapeKind int

const (
	scalarShape shapeKind = iota
	objectShape           // named fields
	mapShape              // any key, values of one shape
	listShape
	anyShape    // interface{} or a free-form object: any further step is accepted
	customShape // a type with its own MarshalJSON and no outline in shapeBuilder.custom
)

type shape struct {
	kind   shapeKind
	fields map[string]*shape // objectShape
	elem   *shape            // mapShape, listShape
	typ    reflect.Type      // customShape, for the error
}

// custom outlines the report types whose MarshalJSON changes their form (nil for others). A
// path that steps into a custom type missing here fails at load, so a new MarshalJSON is
// noticed rather than misread.
func (b *shapeBuilder) custom(t reflect.Type) *shape {
	switch t {
	case reflect.TypeFor[eventlog.GroupSummary]():
		// The label is printed under "phase" or "operation" (by summary), otherwise "label".
		s := b.structShape(t)
		for _, k := range []string{"label", "phase", "operation"} {
			s.fields[k] = scalar
		}
		return s
	case reflect.TypeFor[eventlog.DurationHistogram]():
		return &shape{kind: listShape, elem: scalar}
	case reflect.TypeFor[layout.Skew]():
		// The top-N share's key depends on N ("top5Share"), so it is not addressable.
		return object(map[string]*shape{"cv": scalar, "gini": scalar, "largestPartitionShare": scalar,
			"outliers": {kind: listShape, elem: b.of(reflect.TypeFor[layout.Outlier]())}})
	case reflect.TypeFor[layout.PartitionRow]():
		return object(map[string]*shape{"partition": scalar, "files": scalar, "totalBytes": scalar,
			"sizeStats": b.of(reflect.TypeFor[layout.Stats]()), "numRecords": scalar, "avgRowSize": scalar})
	case reflect.TypeFor[layout.Ordered]():
		return &shape{kind: anyShape} // keys are data
	case reflect.TypeFor[health.Configs]():
		return &shape{kind: mapShape, elem: scalar}
	}
	return nil
}

var scalar = &shape{kind: scalarShape}

func object(fields map[string]*shape) *shape { return &shape{kind: objectShape, fields: fields} }

// docShapes are the JSON-shaped inputs, by path root.
var docShapes = func() map[string]*shape {
	b := &shapeBuilder{seen: map[reflect.Type]*shape{}}
	return map[string]*shape{
		"eventlog": b.of(reflect.TypeFor[eventlog.Report]()),
		"layout":   b.of(reflect.TypeFor[layout.Result]()),
		"health":   b.of(reflect.TypeFor[health.Result]()),
	}
}()

type shapeBuilder struct {
	seen map[reflect.Type]*shape
}

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

func marshals(t, iface reflect.Type) bool {
	return t.Implements(iface) || reflect.PointerTo(t).Implements(iface)
}

// of outlines t's JSON form the way encoding/json prints it.
func (b *shapeBuilder) of(t reflect.Type) *shape {
	if s, ok := b.seen[t]; ok {
		return s
	}
	if s := b.custom(t); s != nil {
		b.seen[t] = s
		return s
	}
	switch {
	case marshals(t, jsonMarshaler):
		// A number or string type printed its own way (Ratio, Dec4) is still a value.
		if isBasic(t.Kind()) {
			return scalar
		}
		return &shape{kind: customShape, typ: t}
	case marshals(t, textMarshaler):
		return scalar
	}
	switch t.Kind() {
	case reflect.Pointer:
		return b.of(t.Elem())
	case reflect.Interface:
		return &shape{kind: anyShape}
	case reflect.Struct:
		return b.structShape(t)
	case reflect.Map:
		s := &shape{kind: mapShape}
		b.seen[t] = s
		s.elem = b.of(t.Elem())
		return s
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return scalar // base64
		}
		s := &shape{kind: listShape}
		b.seen[t] = s
		s.elem = b.of(t.Elem())
		return s
	}
	return scalar
}

func isBasic(k reflect.Kind) bool {
	switch k {
	case reflect.Bool, reflect.String, reflect.Float32, reflect.Float64,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	}
	return false
}

// structShape lists a struct's JSON fields (tags, "-", embedded structs promoted), ignoring
// any MarshalJSON of the struct itself.
func (b *shapeBuilder) structShape(t reflect.Type) *shape {
	s := object(map[string]*shape{})
	b.seen[t] = s
	var promoted []reflect.StructField
	for i := range t.NumField() {
		f := t.Field(i)
		name, ok := jsonName(f)
		if !ok {
			continue
		}
		if f.Anonymous && name == "" {
			promoted = append(promoted, f)
			continue
		}
		if name == "" {
			name = f.Name
		}
		s.fields[name] = b.of(f.Type)
	}
	// Direct fields win over promoted ones, as in encoding/json.
	for _, f := range promoted {
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if ft.Kind() != reflect.Struct || marshals(ft, jsonMarshaler) {
			s.fields[f.Name] = b.of(f.Type)
			continue
		}
		for k, v := range b.of(ft).fields {
			if _, dup := s.fields[k]; !dup {
				s.fields[k] = v
			}
		}
	}
	return s
}

// jsonName is a field's JSON name ("" for the Go name or an untagged embedded struct), and
// false for a field encoding/json skips.
func jsonName(f reflect.StructField) (string, bool) {
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", false
	}
	name, _, _ := strings.Cut(tag, ",")
	if !f.IsExported() && !(f.Anonymous && name == "") {
		return "", false
	}
	return name, true
}

// checkDoc checks that steps can reach something in a document of shape sh, following walk:
// a key step on a list applies to its elements, a selector step filters a list.
func checkDoc(root string, sh *shape, steps []step) error {
	at := root
	cur := sh
	for _, s := range steps {
		switch cur.kind {
		case anyShape:
			return nil
		case customShape:
			return fmt.Errorf("%s is a %s, whose JSON form the findings engine does not know (outline it in shapeBuilder.custom)", at, cur.typ)
		}
		if s.sel {
			if cur.kind != listShape {
				return fmt.Errorf("%s is not a list, so [%s=…] selects nothing", at, s.field)
			}
			if el := cur.elem; el.kind == objectShape && el.fields[s.field] == nil {
				return fmt.Errorf("%s elements have no field %q%s", at, s.field, suggest(s.field, fieldNames(el)))
			} else if el.kind == scalarShape || el.kind == listShape {
				return fmt.Errorf("%s elements are not objects, so [%s=…] selects nothing", at, s.field)
			}
			cur = cur.elem
			at += "[" + s.field + "=" + strings.Join(s.values, "|") + "]"
			continue
		}
		target := cur
		if cur.kind == listShape {
			target = cur.elem
		}
		switch target.kind {
		case objectShape:
			next, ok := target.fields[s.key]
			if !ok {
				return fmt.Errorf("%s has no field %q%s", at, s.key, suggest(s.key, fieldNames(target)))
			}
			cur = next
		case mapShape:
			cur = target.elem
		case anyShape:
			return nil
		case customShape:
			return fmt.Errorf("%s is a %s, whose JSON form the findings engine does not know (outline it in shapeBuilder.custom)", at, target.typ)
		default:
			return fmt.Errorf("%s is a value, so it has no field %q", at, s.key)
		}
		at += "." + s.key
	}
	return nil
}

func fieldNames(s *shape) []string {
	names := make([]string, 0, len(s.fields))
	for k := range s.fields {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// suggest names the nearest field within edit distance 2, for the load error.
func suggest(key string, names []string) string {
	best, bestD := "", 3
	for _, n := range names {
		if d := editDistance(strings.ToLower(key), strings.ToLower(n), bestD); d < bestD {
			best, bestD = n, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}
