package findings

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// fieldPath is a catalog path, parsed and checked against its input once, when the catalog
// loads: a misspelled path fails there instead of reading as "absent" on every table.
type fieldPath struct {
	root string // props, eventlog, layout, health or table
	// key is a props path's config key (any key: Hudi's configuration is open-ended).
	key string
	// steps walk an analyzer report's JSON document (eventlog, layout, health).
	steps []step
	// fact is the TableFacts (table) or RunFacts (run) field a path names (its reflect index).
	fact []int
}

// compilePath parses p and checks it against the type its root reads.
func compilePath(p string) (*fieldPath, error) {
	root, rest, _ := strings.Cut(p, ".")
	fp := &fieldPath{root: root}
	switch root {
	case "props":
		if rest == "" {
			return nil, fmt.Errorf("path %q: no config key after props", p)
		}
		fp.key = rest
		return fp, nil
	case "table", "run":
		idx, err := factIndex(root, rest)
		if err != nil {
			return nil, fmt.Errorf("path %q: %w", p, err)
		}
		fp.fact = idx
		return fp, nil
	}
	sh, ok := docShapes[root]
	if !ok {
		return nil, fmt.Errorf("path %q: unknown input %q (want props, eventlog, run, layout, health or table)", p, root)
	}
	steps, err := parsePath(rest)
	if err != nil {
		return nil, err
	}
	if len(steps) == 0 {
		return nil, fmt.Errorf("path %q: names no field of %s", p, root)
	}
	if err := checkDoc(root, sh, steps); err != nil {
		return nil, fmt.Errorf("path %q: %w", p, err)
	}
	fp.steps = steps
	return fp, nil
}

var factTypes = map[string]reflect.Type{"table": reflect.TypeFor[TableFacts](), "run": reflect.TypeFor[RunFacts]()}

// factIndex finds the TableFacts or RunFacts leaf a dotted name ("commits.updateShare") names,
// by the fields' JSON names.
func factIndex(root, name string) ([]int, error) {
	t, at := factTypes[root], root
	var idx []int
	for _, k := range strings.Split(name, ".") {
		if t.Kind() != reflect.Struct {
			return nil, fmt.Errorf("%s is a value, so it has no fact %q", at, k)
		}
		var names []string
		found := false
		for i := range t.NumField() {
			f := t.Field(i)
			n, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			names = append(names, n)
			if n == k {
				idx, t, found = append(idx, i), f.Type, true
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("%s has no fact %q%s", at, k, suggest(k, names))
		}
		at += "." + k
	}
	if t.Kind() == reflect.Struct {
		return nil, fmt.Errorf("%s is a group of facts, not one fact", at)
	}
	leaf := t
	if t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		leaf = t.Elem()
	}
	switch leaf.Kind() {
	case reflect.Int, reflect.Int64, reflect.Float64, reflect.String, reflect.Bool:
		if t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
			return idx, nil
		}
	}
	// Facts are nil-able so "not derived" is never read as a zero.
	return nil, fmt.Errorf("%s is a %s; facts are pointers or slices of numbers, strings or bools", at, t)
}

// factValue reads a fact the way rows compare it: numbers as float64, a list as []any, nil
// when it was not derived. f is a *TableFacts or *RunFacts.
func factValue(f any, idx []int) any {
	v := reflect.ValueOf(f).Elem().FieldByIndex(idx)
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	case reflect.Slice:
		if v.IsNil() {
			return nil
		}
		out := make([]any, v.Len())
		for i := range out {
			out[i] = v.Index(i).Interface()
		}
		return out
	}
	switch v.Kind() {
	case reflect.Int, reflect.Int64:
		return float64(v.Int())
	case reflect.Float64:
		return v.Float()
	case reflect.String:
		return v.String()
	case reflect.Bool:
		return v.Bool()
	}
	panic(fmt.Sprintf("findings: TableFacts field of kind %s", v.Kind()))
}

// step is one parsed path step: a key, or an array selector.
type step struct {
	key    string
	sel    bool
	field  string
	values []string
}

// parsePath splits "a.b[k=v].c[\"x.y\"]" into steps.
func parsePath(p string) ([]step, error) {
	var out []step
	i := 0
	for i < len(p) {
		switch p[i] {
		case '.':
			i++
		case '[':
			j := strings.IndexByte(p[i:], ']')
			if j < 0 {
				return nil, fmt.Errorf("path %q: unclosed [", p)
			}
			inner := p[i+1 : i+j]
			i += j + 1
			if strings.HasPrefix(inner, `"`) {
				out = append(out, step{key: strings.Trim(inner, `"`)})
				continue
			}
			f, v, ok := strings.Cut(inner, "=")
			if !ok {
				return nil, fmt.Errorf("path %q: selector %q is not field=value", p, inner)
			}
			out = append(out, step{sel: true, field: f, values: strings.Split(v, "|")})
		default:
			j := i
			for j < len(p) && p[j] != '.' && p[j] != '[' {
				j++
			}
			out = append(out, step{key: p[i:j]})
			i = j
		}
	}
	return out, nil
}

// walk follows steps from a decoded JSON value; arrays without a selector fan out.
func walk(v any, steps []step) []any {
	cur := []any{v}
	for _, s := range steps {
		var next []any
		for _, c := range cur {
			switch x := c.(type) {
			case map[string]any:
				if s.sel {
					continue
				}
				if y, ok := x[s.key]; ok && y != nil {
					next = append(next, y)
				}
			case []any:
				for _, e := range x {
					if s.sel {
						m, ok := e.(map[string]any)
						if ok && matchSel(m[s.field], s.values) {
							next = append(next, e)
						}
						continue
					}
					if m, ok := e.(map[string]any); ok {
						if y, ok := m[s.key]; ok && y != nil {
							next = append(next, y)
						}
					}
				}
			}
		}
		cur = next
	}
	// A final array fans out into its elements.
	if len(cur) == 1 {
		if a, ok := cur[0].([]any); ok {
			return a
		}
	}
	return cur
}

func matchSel(v any, want []string) bool {
	s := scalarString(v)
	for _, w := range want {
		if strings.EqualFold(s, w) {
			return true
		}
	}
	return false
}

// toJSONValue round-trips a value through encoding/json so paths read the same field names
// the analyzers' JSON documents use.
func toJSONValue(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil
	}
	return out
}

func num(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case bool:
		return 0, false
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return f, err == nil
	}
	return 0, false
}

func scalarString(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case float64:
		return FormatNumber(x)
	case bool:
		return strconv.FormatBool(x)
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = scalarString(e)
		}
		return strings.Join(parts, ",")
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// FormatNumber prints integers without a fraction and others with up to 3 decimals.
func FormatNumber(f float64) string {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return "n/a"
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.FormatInt(int64(f), 10)
	}
	s := strconv.FormatFloat(f, 'f', 3, 64)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// aggregate folds values by agg; ok=false when there is nothing to fold.
func aggregate(vals []any, agg string) (any, bool) {
	if agg == "count" {
		return float64(len(vals)), true
	}
	if len(vals) == 0 {
		return nil, false
	}
	switch agg {
	case "", "first", "any", "all":
		return vals[0], true
	}
	var acc float64
	n := 0
	for _, v := range vals {
		f, ok := num(v)
		if !ok {
			continue
		}
		switch {
		case n == 0:
			acc = f
		case agg == "max":
			acc = math.Max(acc, f)
		case agg == "min":
			acc = math.Min(acc, f)
		default: // sum, mean
			acc += f
		}
		n++
	}
	if n == 0 {
		return nil, false
	}
	if agg == "mean" {
		acc /= float64(n)
	}
	return acc, true
}

// compare tests a op b (b may be a list for in/nin).
func compare(a any, op string, b any) bool {
	switch op {
	case "exists":
		return a != nil
	case "missing":
		return a == nil
	case "in", "nin":
		list, _ := b.([]any)
		hit := false
		for _, x := range list {
			if equal(a, x) {
				hit = true
			}
		}
		return hit == (op == "in")
	case "has":
		return strings.Contains(strings.ToLower(scalarString(a)), strings.ToLower(scalarString(b)))
	case "contains", "ncontains":
		hit := false
		if l, ok := a.([]any); ok {
			for _, x := range l {
				if equal(x, b) {
					hit = true
				}
			}
		}
		return hit == (op == "contains")
	case "eq":
		return equal(a, b)
	case "ne":
		return !equal(a, b)
	}
	fa, ok1 := num(a)
	fb, ok2 := num(b)
	if !ok1 || !ok2 {
		return false
	}
	switch op {
	case "lt":
		return fa < fb
	case "le":
		return fa <= fb
	case "gt":
		return fa > fb
	case "ge":
		return fa >= fb
	}
	return false
}

func equal(a, b any) bool {
	fa, ok1 := num(a)
	fb, ok2 := num(b)
	if ok1 && ok2 {
		return fa == fb
	}
	return strings.EqualFold(strings.TrimSpace(scalarString(a)), strings.TrimSpace(scalarString(b)))
}
