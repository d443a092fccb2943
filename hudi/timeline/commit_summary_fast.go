package timeline

import (
	"bytes"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/twmb/avro"

	iavro "github.com/hudiscope/hudiscope/hudi/internal/avro"
)

// A compact timeline sums 50k+ commit files that share one writer schema. The reflective decode
// into liteCommit (union dispatch per field, a map and a slice of structs per file, every string
// copied) was most of the decode's CPU time. Here the writer schema is compiled once into a plan
// that reads the summed fields straight off the bytes and skips the rest without allocating;
// strings only live for the call (decodeInstant interns the few it keeps). A schema whose
// shape the plan does not cover (other types for these fields, logical types, recursion), and
// any datum it cannot read, take the reflective decode, so results and errors stay the Avro
// library's (FuzzDecodeCommitMetadata compares the two).

type wkind uint8

const (
	wNull wkind = iota
	wBool
	wInt
	wLong
	wFloat
	wDouble
	wString // also bytes: a length and the bytes
	wFixed
	wEnum
	wArray
	wMap
	wUnion
	wRecord
)

// wnode is a writer schema node, as much of it as reading or skipping its values needs.
type wnode struct {
	kind     wkind
	size     int      // fixed: bytes; enum: symbols
	elem     *wnode   // array items, map values
	branches []*wnode // union
	fields   []*wnode // record, in writer order
	names    []string // record field names
	logical  bool     // has a logical type
}

// maxPlanDepth bounds schema nesting the plan takes (the Avro library refuses past 1000; Hudi's
// commit schema nests five deep).
const maxPlanDepth = 32

// compileNode builds n's wnode, resolving named references through defs (full name → node);
// ok is false for recursion, unknown names or nesting past maxPlanDepth.
type compiler struct {
	defs  map[string]*avro.SchemaNode
	done  map[*avro.SchemaNode]*wnode
	doing map[*avro.SchemaNode]bool
}

func fullName(name, ns string) string {
	if strings.Contains(name, ".") || ns == "" {
		return name
	}
	return ns + "." + name
}

// collect indexes every named definition under n by its full name.
func (c *compiler) collect(n *avro.SchemaNode, ns string, depth int) bool {
	if depth > maxPlanDepth {
		return false
	}
	switch n.Type {
	case "record", "error", "enum", "fixed":
		if n.Namespace != "" {
			ns = n.Namespace
		}
		full := fullName(n.Name, ns)
		if i := strings.LastIndexByte(full, '.'); i >= 0 {
			ns = full[:i]
		}
		c.defs[full] = n
	}
	for i := range n.Fields {
		if !c.collect(&n.Fields[i].Type, ns, depth+1) {
			return false
		}
	}
	for i := range n.Branches {
		if !c.collect(&n.Branches[i], ns, depth+1) {
			return false
		}
	}
	if n.Items != nil && !c.collect(n.Items, ns, depth+1) {
		return false
	}
	if n.Values != nil && !c.collect(n.Values, ns, depth+1) {
		return false
	}
	return true
}

func (c *compiler) node(n *avro.SchemaNode, ns string, depth int) (*wnode, bool) {
	if depth > maxPlanDepth {
		return nil, false
	}
	prim := map[string]wkind{"null": wNull, "boolean": wBool, "int": wInt, "long": wLong, "float": wFloat,
		"double": wDouble, "string": wString, "bytes": wString}
	if k, ok := prim[n.Type]; ok {
		return &wnode{kind: k, logical: n.LogicalType != ""}, true
	}
	switch n.Type {
	case "array", "map":
		sub := n.Items
		k := wArray
		if n.Type == "map" {
			sub, k = n.Values, wMap
		}
		if sub == nil {
			return nil, false
		}
		e, ok := c.node(sub, ns, depth+1)
		if !ok || (k == wArray && minBytes(e) == 0) {
			return nil, false // items of no bytes: a count alone could loop for ever
		}
		return &wnode{kind: k, elem: e}, true
	case "union":
		w := &wnode{kind: wUnion}
		for i := range n.Branches {
			b, ok := c.node(&n.Branches[i], ns, depth+1)
			if !ok {
				return nil, false
			}
			w.branches = append(w.branches, b)
		}
		return w, len(w.branches) > 0
	case "record", "error", "enum", "fixed":
		if n.Namespace != "" {
			ns = n.Namespace
		}
		if w, ok := c.done[n]; ok {
			return w, true
		}
		if c.doing[n] {
			return nil, false // recursive
		}
		c.doing[n] = true
		defer delete(c.doing, n)
		w := &wnode{logical: n.LogicalType != ""}
		switch n.Type {
		case "enum":
			w.kind, w.size = wEnum, len(n.Symbols)
		case "fixed":
			w.kind, w.size = wFixed, n.Size
			if n.Size < 0 {
				return nil, false
			}
		default:
			w.kind = wRecord
			full := fullName(n.Name, ns)
			if i := strings.LastIndexByte(full, '.'); i >= 0 {
				ns = full[:i]
			}
			for i := range n.Fields {
				f, ok := c.node(&n.Fields[i].Type, ns, depth+1)
				if !ok {
					return nil, false
				}
				w.fields = append(w.fields, f)
				w.names = append(w.names, n.Fields[i].Name)
			}
		}
		c.done[n] = w
		return w, true
	}
	// A reference to a named type: by full name, else in the enclosing namespace.
	def, ok := c.defs[n.Type]
	if !ok {
		def, ok = c.defs[fullName(n.Type, ns)]
	}
	if !ok || def == n {
		return nil, false
	}
	return c.node(def, ns, depth+1)
}

// minBytes is the fewest bytes a value of w takes.
func minBytes(w *wnode) int {
	switch w.kind {
	case wNull:
		return 0
	case wFloat:
		return 4
	case wDouble:
		return 8
	case wFixed:
		return w.size
	case wRecord:
		n := 0
		for _, f := range w.fields {
			n += minBytes(f)
		}
		return n
	}
	return 1
}

// opt is a value that may be wrapped in a two-branch union with null.
type opt struct {
	union  bool
	valIdx int64 // the value's branch
}

// unwrap returns the value node of w: w itself, or the non-null branch of a [null, X] union.
func unwrap(w *wnode) (*wnode, opt, bool) {
	if w.kind != wUnion {
		return w, opt{}, true
	}
	if len(w.branches) != 2 {
		return nil, opt{}, false
	}
	switch {
	case w.branches[0].kind == wNull && w.branches[1].kind != wNull:
		return w.branches[1], opt{union: true, valIdx: 1}, true
	case w.branches[1].kind == wNull && w.branches[0].kind != wNull:
		return w.branches[0], opt{union: true, valIdx: 0}, true
	}
	return nil, opt{}, false
}

// Roles of the fields the summary reads.
const (
	roleSkip = iota
	roleOp
	roleStats
	roleReplaced
	roleFileID
	rolePath
	rolePrevCommit
	roleNumWrites
	roleNumDeletes
	roleNumUpdateWrites
	roleNumInserts
	roleTotalWriteBytes
	roleTotalWriteErrors
)

type planField struct {
	role int
	w    *wnode // the whole field, for skipping
	opt  opt
	int  bool // numeric roles: written as int (else long)
}

// summaryPlan reads a commit-metadata record: top-level fields, then the write-stat record of
// partitionToWriteStats (map → optional array → optional record) and the optional array of
// optional strings of partitionToReplaceFileIds (map → …).
type summaryPlan struct {
	top                []planField
	statsMap, statsArr opt // the map's value (array) and the array's item (record) wrappers
	stat               []planField
	replArr, replItem  opt
}

var (
	topRoles  = map[string]int{"operationType": roleOp, "partitionToWriteStats": roleStats, "partitionToReplaceFileIds": roleReplaced}
	statRoles = map[string]int{"fileId": roleFileID, "path": rolePath, "prevCommit": rolePrevCommit, "numWrites": roleNumWrites,
		"numDeletes": roleNumDeletes, "numUpdateWrites": roleNumUpdateWrites, "numInserts": roleNumInserts, "totalWriteBytes": roleTotalWriteBytes,
		"totalWriteErrors": roleTotalWriteErrors}
)

// makeSummaryPlan compiles a writer schema; nil when its shape is not one the plan reads.
func makeSummaryPlan(root *avro.SchemaNode) *summaryPlan {
	c := &compiler{defs: map[string]*avro.SchemaNode{}, done: map[*avro.SchemaNode]*wnode{}, doing: map[*avro.SchemaNode]bool{}}
	if !c.collect(root, "", 0) {
		return nil
	}
	w, ok := c.node(root, "", 0)
	if !ok || w.kind != wRecord {
		return nil
	}
	p := &summaryPlan{}
	// scalar: a string or int/long field, plain or optional, without a logical type.
	scalar := func(f *wnode, role int) (planField, bool) {
		v, o, ok := unwrap(f)
		if !ok || v.logical {
			return planField{}, false
		}
		pf := planField{role: role, w: f, opt: o}
		switch role {
		case roleOp, roleFileID, rolePath, rolePrevCommit:
			return pf, v.kind == wString
		}
		pf.int = v.kind == wInt
		return pf, v.kind == wInt || v.kind == wLong
	}
	for i, f := range w.fields {
		role, known := topRoles[w.names[i]]
		if !known {
			p.top = append(p.top, planField{role: roleSkip, w: f})
			continue
		}
		pf := planField{role: role, w: f}
		switch role {
		case roleOp:
			if pf, ok = scalar(f, role); !ok {
				return nil
			}
		case roleStats, roleReplaced:
			m, o, ok := unwrap(f)
			if !ok || m.kind != wMap {
				return nil
			}
			pf.opt = o
			arr, ao, ok := unwrap(m.elem)
			if !ok || arr.kind != wArray {
				return nil
			}
			item, io, ok := unwrap(arr.elem)
			if !ok {
				return nil
			}
			if role == roleReplaced {
				if item.kind != wString || item.logical {
					return nil
				}
				p.replArr, p.replItem = ao, io
				break
			}
			if item.kind != wRecord {
				return nil
			}
			p.statsMap, p.statsArr = ao, io
			for j, sf := range item.fields {
				r, known := statRoles[item.names[j]]
				if !known {
					p.stat = append(p.stat, planField{role: roleSkip, w: sf})
					continue
				}
				spf, ok := scalar(sf, r)
				if !ok {
					return nil
				}
				p.stat = append(p.stat, spf)
			}
		}
		p.top = append(p.top, pf)
	}
	return p
}

// wreader reads Avro binary values; any failure makes ok false and the caller takes the
// reflective decode, which reports the error.
type wreader struct {
	b   []byte
	pos int
	ok  bool
}

func (r *wreader) fail() { r.ok, r.pos = false, len(r.b) }

// uvar reads an unsigned varint of at most 5 (32-bit) or 10 (64-bit) bytes, refusing what
// overflows, as the Avro library does.
func (r *wreader) uvar(wide bool) uint64 {
	last, lastMax := 4, byte(0x0f)
	if wide {
		last, lastMax = 9, 1
	}
	var u uint64
	for i := 0; ; i++ {
		if r.pos >= len(r.b) {
			r.fail()
			return 0
		}
		c := r.b[r.pos]
		r.pos++
		if i == last {
			if c > lastMax {
				r.fail()
				return 0
			}
			return u | uint64(c)<<(7*i)
		}
		u |= uint64(c&0x7f) << (7 * i)
		if c&0x80 == 0 {
			return u
		}
	}
}

func (r *wreader) long() int64 {
	if r.pos < len(r.b) && r.b[r.pos] < 0x80 {
		u := r.b[r.pos]
		r.pos++
		return int64(u>>1) ^ -int64(u&1)
	}
	u := r.uvar(true)
	return int64(u>>1) ^ -int64(u&1)
}

func (r *wreader) int() int64 {
	u := uint32(r.uvar(false))
	return int64(int32(u>>1) ^ -int32(u&1))
}

// bytes returns the next length-prefixed bytes, aliasing the input.
func (r *wreader) bytes() []byte {
	n := r.long()
	if !r.ok || n < 0 || n > int64(len(r.b)-r.pos) {
		r.fail()
		return nil
	}
	out := r.b[r.pos : r.pos+int(n)]
	r.pos += int(n)
	return out
}

// str is bytes as a string aliasing the input (valid for this decode only).
func (r *wreader) str() string {
	b := r.bytes()
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// present reads o's union index: whether the value follows (else it is null).
func (r *wreader) present(o opt) bool {
	if !o.union {
		return true
	}
	switch r.int() {
	case o.valIdx:
		return r.ok
	case 1 - o.valIdx:
		return false
	}
	r.fail()
	return false
}

// block reads an array or map block header: the item count, 0 at the end.
func (r *wreader) block() int64 {
	n := r.long()
	if n < 0 {
		if n = -n; n < 0 {
			r.fail()
			return 0
		}
		r.long() // the block's byte size
	}
	if !r.ok {
		return 0
	}
	return n
}

func (r *wreader) skip(w *wnode) {
	if !r.ok {
		return
	}
	switch w.kind {
	case wNull:
	case wBool:
		if r.pos >= len(r.b) || r.b[r.pos] > 1 {
			r.fail()
			return
		}
		r.pos++
	case wInt:
		r.int()
	case wLong:
		r.long()
	case wFloat, wDouble, wFixed:
		n := 4
		if w.kind == wDouble {
			n = 8
		} else if w.kind == wFixed {
			n = w.size
		}
		if n > len(r.b)-r.pos {
			r.fail()
			return
		}
		r.pos += n
	case wString:
		r.bytes()
	case wEnum:
		if i := r.int(); i < 0 || i >= int64(w.size) {
			r.fail()
		}
	case wUnion:
		i := r.int()
		if i < 0 || i >= int64(len(w.branches)) {
			r.fail()
			return
		}
		b := w.branches[i]
		// Most skipped write-stat fields are a null or a one-byte number or length in a
		// [null, X] union: skip those here rather than in another call.
		if b.kind == wNull {
			return
		}
		if r.pos < len(r.b) && r.b[r.pos] < 0x80 {
			switch b.kind {
			case wInt, wLong:
				r.pos++
				return
			case wString:
				if n := int(r.b[r.pos] >> 1); r.b[r.pos]&1 == 0 && n < len(r.b)-r.pos {
					r.pos += 1 + n
					return
				}
			}
		}
		r.skip(b)
	case wRecord:
		for _, f := range w.fields {
			r.skip(f)
		}
	case wArray, wMap:
		for r.ok {
			n := r.block()
			if n == 0 {
				return
			}
			for ; n > 0 && r.ok; n-- {
				if w.kind == wMap {
					r.bytes()
				}
				r.skip(w.elem)
			}
		}
	}
}

// scalar reads a string or numeric field of the plan (null reads as the zero value).
func (r *wreader) scalar(f *planField) (string, int64) {
	if !r.present(f.opt) {
		return "", 0
	}
	switch f.role {
	case roleOp, roleFileID, rolePath, rolePrevCommit:
		return r.str(), 0
	}
	if f.int {
		return "", r.int()
	}
	return "", r.long()
}

// partSum is one partition's sums while decoding, in the order the map lists them.
type partSum struct {
	w     PartitionWrites
	stats bool // the partition lists at least one write stat
}

// decode sums the first record in block; ok false means take the reflective decode. Strings
// in the result alias block (op, partitions) except the replaced file ids, which are copied.
func (p *summaryPlan) decode(block []byte) (commitSummary, bool) {
	r := wreader{b: block, ok: true}
	var sum commitSummary
	var partsBuf [4]partSum // most commits write a few partitions: no allocation for the list
	parts := partsBuf[:0]
	var small [8]fileKey
	keys := fileKeys{list: small[:0]}
	for i := range p.top {
		f := &p.top[i]
		switch f.role {
		case roleSkip:
			r.skip(f.w)
		case roleOp:
			sum.op, _ = r.scalar(f)
		case roleStats:
			parts = parts[:0]
			keys = fileKeys{list: small[:0]}
			if !r.present(f.opt) {
				continue
			}
			for n := r.block(); n > 0 && r.ok; n = r.block() {
				for ; n > 0 && r.ok; n-- {
					ps := partSum{w: PartitionWrites{Partition: r.str()}}
					if r.present(p.statsMap) {
						keys = p.decodeStats(&r, &ps, keys)
					}
					parts = append(parts, ps)
				}
			}
		case roleReplaced:
			sum.replaced = nil
			if !r.present(f.opt) {
				continue
			}
			sum.replaced = map[string][]string{}
			for n := r.block(); n > 0 && r.ok; n = r.block() {
				for ; n > 0 && r.ok; n-- {
					k := string(r.bytes())
					var ids []string
					if r.present(p.replArr) {
						ids = []string{} // present but empty is empty, as the library decodes it
						for m := r.block(); m > 0 && r.ok; m = r.block() {
							for ; m > 0 && r.ok; m-- {
								id := ""
								if r.present(p.replItem) {
									id = string(r.bytes())
								}
								ids = append(ids, id)
							}
						}
					}
					sum.replaced[k] = ids // a repeated key: the last wins, as in a decoded map
				}
			}
		}
	}
	if !r.ok {
		return commitSummary{}, false
	}
	if len(parts) == 0 {
		return sum, true
	}
	slices.SortFunc(parts, func(a, b partSum) int { return strings.Compare(a.w.Partition, b.w.Partition) })
	sum.writes = make([]PartitionWrites, 0, len(parts))
	t := &sum.totals
	for i, ps := range parts {
		if i > 0 && parts[i-1].w.Partition == ps.w.Partition {
			return commitSummary{}, false // a repeated partition: the decoded map keeps the last only
		}
		if ps.stats {
			t.Partitions++
		}
		w := ps.w
		sum.addWrites(w)
	}
	t.Files = keys.count()
	return sum, true
}

// decodeStats reads one partition's write-stat array into ps and keys (by value in and out, so
// the caller's small key array stays on its stack).
func (p *summaryPlan) decodeStats(r *wreader, ps *partSum, keys fileKeys) fileKeys {
	for n := r.block(); n > 0 && r.ok; n = r.block() {
		for ; n > 0 && r.ok; n-- {
			ps.stats = true
			var s liteStat
			if r.present(p.statsArr) {
				for i := range p.stat {
					f := &p.stat[i]
					if f.role == roleSkip {
						r.skip(f.w)
						continue
					}
					str, num := r.scalar(f)
					switch f.role {
					case roleFileID:
						s.FileID = str
					case rolePath:
						s.Path = str
					case rolePrevCommit:
						s.PrevCommit = str
					case roleNumWrites:
						s.NumWrites = num
					case roleNumDeletes:
						s.NumDeletes = num
					case roleNumUpdateWrites:
						s.NumUpdateWrites = num
					case roleNumInserts:
						s.NumInserts = num
					case roleTotalWriteBytes:
						s.TotalWriteBytes = num
					case roleTotalWriteErrors:
						s.TotalWriteErrors = num
					}
				}
			}
			ps.w.add(s.NumWrites, s.NumInserts, s.NumUpdateWrites, s.NumDeletes, s.TotalWriteBytes, s.TotalWriteErrors, s.PrevCommit)
			keys = keys.add(ps.w.Partition, &s)
		}
	}
	return keys
}

// Plans by writer schema text. The last one used is checked first: a timeline repeats one
// schema, and comparing its text is cheaper than hashing it for the map.
var (
	planMu   sync.Mutex
	plans    = map[string]*summaryPlan{} // nil values cache "take the reflective decode"
	lastPlan atomic.Pointer[schemaPlan]
)

type schemaPlan struct {
	text string
	plan *summaryPlan
}

// maxPlans bounds the cache: hostile files could name a new schema each.
const maxPlans = 256

// summaryPlanFor is the plan of a writer schema, nil when it has none.
func summaryPlanFor(text []byte) *summaryPlan {
	if lp := lastPlan.Load(); lp != nil && bytes.Equal(text, unsafe.Slice(unsafe.StringData(lp.text), len(lp.text))) {
		return lp.plan
	}
	planMu.Lock()
	p, ok := plans[string(text)]
	planMu.Unlock()
	if !ok {
		if s, err := iavro.Schema(string(text)); err == nil {
			p = makeSummaryPlan(s.Root())
		}
		planMu.Lock()
		if len(plans) >= maxPlans {
			clear(plans)
		}
		plans[string(text)] = p
		planMu.Unlock()
	}
	lastPlan.Store(&schemaPlan{text: string(text), plan: p})
	return p
}
