package records

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/twmb/avro"
)

// Most log blocks hold flat records: primitive fields, some in a union with null. Those are
// decoded here straight into the record's map, with the values the generic decoder gives
// (int32, int64, float32, float64, bool, string, []byte, nil): a third of its cost, most of
// which was reflection. Any other schema (logical types, nested, enum, fixed, wider unions)
// goes to the generic decoder.

type flatKind uint8

const (
	flatNull flatKind = iota
	flatBoolean
	flatInt
	flatLong
	flatFloat
	flatDouble
	flatString
	flatBytes
)

var flatKinds = map[string]flatKind{"null": flatNull, "boolean": flatBoolean, "int": flatInt, "long": flatLong,
	"float": flatFloat, "double": flatDouble, "string": flatString, "bytes": flatBytes}

type flatField struct {
	name string
	// branches are the union's member kinds; one kind for a field that is not a union.
	branches []flatKind
	union    bool
}

// flatPlan is how a flat schema's records decode; nil when the schema is not flat.
type flatPlan struct{ fields []flatField }

var (
	flatMu    sync.Mutex
	flatPlans = map[string]*flatPlan{} // by schema text; nil values cache "not flat"
)

// flatPlanFor is the plan of the writer schema text (parsed as s), cached as the schemas are.
func flatPlanFor(text string, s *avro.Schema) *flatPlan {
	flatMu.Lock()
	p, ok := flatPlans[text]
	flatMu.Unlock()
	if ok {
		return p
	}
	p = makeFlatPlan(s.Root())
	flatMu.Lock()
	if len(flatPlans) >= 256 { // every block names its schema: bound the cache
		clear(flatPlans)
	}
	flatPlans[text] = p
	flatMu.Unlock()
	return p
}

func makeFlatPlan(root *avro.SchemaNode) *flatPlan {
	if root.Type != "record" || len(root.Fields) == 0 {
		return nil
	}
	p := &flatPlan{}
	kind := func(n *avro.SchemaNode) (flatKind, bool) {
		if n.LogicalType != "" {
			return 0, false
		}
		k, ok := flatKinds[n.Type]
		return k, ok
	}
	for i := range root.Fields {
		f := &root.Fields[i]
		ff := flatField{name: f.Name, union: f.Type.Type == "union"}
		if ff.union {
			if len(f.Type.Branches) == 0 || len(f.Type.Branches) > 2 {
				return nil
			}
			for j := range f.Type.Branches {
				k, ok := kind(&f.Type.Branches[j])
				if !ok {
					return nil
				}
				ff.branches = append(ff.branches, k)
			}
		} else {
			k, ok := kind(&f.Type)
			if !ok {
				return nil
			}
			ff.branches = []flatKind{k}
		}
		p.fields = append(p.fields, ff)
	}
	return p
}

var errFlatShort = errors.New("record ends early")

// decode decodes one record datum into a map of its fields.
func (p *flatPlan) decode(src []byte) (map[string]any, error) {
	m := make(map[string]any, len(p.fields))
	for _, f := range p.fields {
		k := f.branches[0]
		if f.union {
			n, rest, err := flatVarlong(src)
			if err != nil {
				return nil, fmt.Errorf("field %s: union index: %w", f.name, err)
			}
			if n < 0 || n >= int64(len(f.branches)) {
				return nil, fmt.Errorf("field %s: union index %d of %d branches", f.name, n, len(f.branches))
			}
			k, src = f.branches[n], rest
		}
		v, rest, err := flatValue(k, src)
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", f.name, err)
		}
		m[f.name], src = v, rest
	}
	return m, nil
}

func flatValue(k flatKind, src []byte) (any, []byte, error) {
	switch k {
	case flatNull:
		return nil, src, nil
	case flatBoolean:
		if len(src) < 1 {
			return nil, nil, errFlatShort
		}
		return src[0] == 1, src[1:], nil
	case flatInt:
		n, rest, err := flatVarlong(src)
		if err != nil {
			return nil, nil, err
		}
		if n < math.MinInt32 || n > math.MaxInt32 {
			return nil, nil, fmt.Errorf("int %d overflows 32 bits", n)
		}
		return int32(n), rest, nil
	case flatLong:
		n, rest, err := flatVarlong(src)
		if err != nil {
			return nil, nil, err
		}
		return n, rest, nil
	case flatFloat:
		if len(src) < 4 {
			return nil, nil, errFlatShort
		}
		return avroValue(math.Float32frombits(binary.LittleEndian.Uint32(src))), src[4:], nil
	case flatDouble:
		if len(src) < 8 {
			return nil, nil, errFlatShort
		}
		return avroValue(math.Float64frombits(binary.LittleEndian.Uint64(src))), src[8:], nil
	case flatString, flatBytes:
		n, rest, err := flatVarlong(src)
		if err != nil {
			return nil, nil, err
		}
		if n < 0 || n > int64(len(rest)) {
			return nil, nil, fmt.Errorf("length %d with %d bytes left", n, len(rest))
		}
		if k == flatString {
			return string(rest[:n]), rest[n:], nil
		}
		return append([]byte{}, rest[:n]...), rest[n:], nil
	}
	return nil, nil, fmt.Errorf("kind %d", k)
}

// flatVarlong reads an Avro long: binary.Varint's zig-zag encoding, at most 64 bits.
func flatVarlong(src []byte) (int64, []byte, error) {
	v, n := binary.Varint(src)
	if n <= 0 {
		if n == 0 {
			return 0, nil, errFlatShort
		}
		return 0, nil, errors.New("varint overflows 64 bits")
	}
	return v, src[n:], nil
}
