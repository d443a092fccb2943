package records

import (
	"fmt"

	"github.com/parquet-go/parquet-go"
)

// Nested Parquet values are assembled here from a row's leaf values and their repetition and
// definition levels, not with parquet-go's reconstruction: that one rejects the 2-level lists
// parquet-avro writes for Hudi (`repeated binary array` under a LIST group) and turns
// decimals into floats. Lists follow Parquet's backward-compatibility rules (3-level
// list/element, 2-level repeated leaf or group, `array` and `*_tuple` wrappers); maps
// key_value groups; other groups structs. Leaves keep their logical types (parquetLeaf).

// assemble builds node n's value from cols (the values of each leaf column under n, for one
// instance of n). def and rep are the levels of n's parent.
func assemble(n parquet.Node, def, rep int, cols [][]parquet.Value) (any, error) {
	if len(cols) == 0 || len(cols[0]) == 0 {
		return nil, fmt.Errorf("no values for field")
	}
	if n.Repeated() {
		return assembleRepeated(n, n, def, rep, cols)
	}
	if n.Optional() {
		if int(cols[0][0].DefinitionLevel()) < def+1 {
			return nil, nil
		}
		def++
	}
	if n.Leaf() {
		return parquetLeaf(cols[0][0], n.Type()), nil
	}
	fields := n.Fields()
	switch {
	case isListNode(n) && len(fields) == 1:
		return assembleRepeated(fields[0], listElementNode(fields[0]), def, rep, cols)
	case isMapNode(n) && len(fields) == 1 && !fields[0].Leaf():
		kv := fields[0]
		items, err := assembleRepeated(kv, kv, def, rep, cols)
		if err != nil {
			return nil, err
		}
		out := make(map[string]any)
		list, _ := items.([]any)
		for _, it := range list {
			m, _ := it.(map[string]any)
			var key any
			var val any
			for k, v := range m {
				if k == "key" {
					key = v
				} else {
					val = v
				}
			}
			out[mapKey(key)] = val
		}
		return out, nil
	}
	out := make(map[string]any, len(fields))
	at := 0
	for _, f := range fields {
		k := countLeaves(f)
		if at+k > len(cols) {
			return nil, fmt.Errorf("field %s: %d leaf columns, %d left", f.Name(), k, len(cols)-at)
		}
		v, err := assemble(f, def, rep, cols[at:at+k])
		if err != nil {
			return nil, fmt.Errorf("%s.%w", f.Name(), err)
		}
		out[f.Name()] = v
		at += k
	}
	return out, nil
}

// listElementNode is the element of a LIST whose repeated child is rep: the repeated field
// itself when it is a leaf, a group of several fields, or a one-field group named `array` or
// `*_tuple` (2-level lists); else its only field (the 3-level list/element form).
func listElementNode(rep parquet.Node) parquet.Node {
	if rep.Leaf() {
		return rep
	}
	fs := rep.Fields()
	if len(fs) != 1 {
		return rep
	}
	if name, ok := rep.(interface{ Name() string }); ok {
		if nm := name.Name(); nm == "array" || len(nm) > 6 && nm[len(nm)-6:] == "_tuple" {
			return rep
		}
	}
	return fs[0]
}

// assembleRepeated splits cols into the instances of the repeated field rf (a new instance
// starts at repetition level rep+1) and assembles each as elem (rf itself, or its only field).
func assembleRepeated(rf, elem parquet.Node, def, rep int, cols [][]parquet.Value) (any, error) {
	if int(cols[0][0].DefinitionLevel()) < def+1 {
		return []any{}, nil // no instance (or a null/empty list above)
	}
	def, rep = def+1, rep+1
	split := make([][][]parquet.Value, len(cols)) // column → instances
	for c, vals := range cols {
		start := 0
		for i := 1; i <= len(vals); i++ {
			if i == len(vals) || int(vals[i].RepetitionLevel()) <= rep {
				split[c] = append(split[c], vals[start:i])
				start = i
			}
		}
	}
	n := len(split[0])
	for c := range split {
		if len(split[c]) != n {
			return nil, fmt.Errorf("repeated field: columns disagree on the number of elements (%d, %d)", n, len(split[c]))
		}
	}
	out := make([]any, 0, n)
	for i := 0; i < n; i++ {
		inst := make([][]parquet.Value, len(cols))
		for c := range split {
			inst[c] = split[c][i]
		}
		var v any
		var err error
		if elem == rf {
			v, err = assembleInstance(rf, def, rep, inst)
		} else {
			v, err = assemble(elem, def, rep, inst)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// assembleInstance assembles one instance of a repeated field as a required one (its own
// repetition and definition level are already counted).
func assembleInstance(rf parquet.Node, def, rep int, cols [][]parquet.Value) (any, error) {
	if rf.Leaf() {
		return parquetLeaf(cols[0][0], rf.Type()), nil
	}
	out := make(map[string]any)
	at := 0
	for _, f := range rf.Fields() {
		k := countLeaves(f)
		if at+k > len(cols) {
			return nil, fmt.Errorf("field %s: %d leaf columns, %d left", f.Name(), k, len(cols)-at)
		}
		v, err := assemble(f, def, rep, cols[at:at+k])
		if err != nil {
			return nil, err
		}
		out[f.Name()] = v
		at += k
	}
	return out, nil
}

func mapKey(k any) string {
	switch x := k.(type) {
	case string:
		return x
	case nil:
		return "null"
	case fmt.Stringer:
		return x.String()
	}
	return fmt.Sprint(k)
}
