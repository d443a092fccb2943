package jscan

import (
	"fmt"
	"math/bits"
	"strings"
	"testing"
)

// walker is what Scanner and refScanner share.
type walker interface {
	Reset([]byte)
	Err() error
	Pos() int
	End() bool
	Object(func([]byte)) bool
	Array(func()) bool
	Skip()
	Int(int64) int64
	Bool() bool
	String() (string, bool)
	RawString() ([]byte, bool)
}

// trace walks doc with every kind of read, chosen by mode and by the keys met,
// and records each result, position and the error.
func trace(w walker, doc []byte, mode int) string {
	var out strings.Builder
	w.Reset(doc)
	var value func(choice, depth int)
	value = func(choice, depth int) {
		if depth > 6 {
			choice = 0
		}
		switch choice % 7 {
		case 0:
			w.Skip()
		case 1:
			fmt.Fprintf(&out, "i%d", w.Int(-7))
		case 2:
			fmt.Fprintf(&out, "b%v", w.Bool())
		case 3:
			v, ok := w.String()
			fmt.Fprintf(&out, "s%q%v", v, ok)
		case 4:
			ok := w.Object(func(k []byte) {
				fmt.Fprintf(&out, "k%q@%d", k, w.Pos())
				c := len(k)
				if len(k) > 0 {
					c += int(k[0])
				}
				value(c+mode, depth+1)
			})
			fmt.Fprintf(&out, "o%v", ok)
		case 5:
			n := 0
			ok := w.Array(func() { n++; value(n+mode, depth+1) })
			fmt.Fprintf(&out, "a%v", ok)
		case 6:
			v, ok := w.RawString()
			fmt.Fprintf(&out, "r%q%v", v, ok)
		}
		fmt.Fprintf(&out, "@%d;", w.Pos())
	}
	value(mode, 0)
	fmt.Fprintf(&out, "end%v@%d err %v", w.End(), w.Pos(), w.Err())
	return out.String()
}

// checkSame compares the scanner, with the vector masks and without, to the
// reference.
func checkSame(t *testing.T, doc []byte) {
	t.Helper()
	defer func(v bool) { useAVX2 = v }(useAVX2)
	vector := []bool{false}
	if useAVX2 {
		vector = append(vector, true)
	}
	for mode := range 7 {
		var r refScanner
		want := trace(&r, doc, mode)
		for _, v := range vector {
			useAVX2 = v
			var s Scanner
			if got := trace(&s, doc, mode); got != want {
				t.Fatalf("mode %d, vector %v, %q:\n got %s\nwant %s", mode, v, doc, got, want)
			}
			// Keys learnt from a task end, then from doc itself, change nothing.
			k := &keysScanner{}
			for i, learn := range [][]byte{[]byte(taskEnd), doc} {
				trace(k, learn, mode)
				if got := trace(k, doc, mode); got != want {
					t.Fatalf("ObjectKeys (learnt %d), mode %d, vector %v, %q:\n got %s\nwant %s", i, mode, v, doc, got, want)
				}
			}
			// Likewise numbered keys, the odd ones skipped by number 0.
			wantSkip := trace(&skipOdd{walker: &refScanner{}}, doc, mode)
			ids := &keysScanner{ids: true}
			for i, learn := range [][]byte{[]byte(taskEnd), doc} {
				trace(ids, learn, mode)
				if got := trace(ids, doc, mode); got != wantSkip {
					t.Fatalf("ObjectIDs (learnt %d), mode %d, vector %v, %q:\n got %s\nwant %s", i, mode, v, doc, got, wantSkip)
				}
			}
		}
	}
}

// skipOdd leaves the value of each key of odd length to Object to skip.
type skipOdd struct{ walker }

func (k *skipOdd) Object(fn func([]byte)) bool {
	return k.walker.Object(func(key []byte) {
		if len(key)%2 == 0 {
			fn(key)
		}
	})
}

// keysScanner reads every object with ObjectKeys, one Keys per depth (the
// call site of trace); with ids, with ObjectIDs, numbering the keys in the
// order met and skipping those of odd length (number 0), as skipOdd does.
type keysScanner struct {
	Scanner
	keys  [8]Keys
	depth int
	ids   bool
	names []string
	num   map[string]int
}

func (k *keysScanner) Object(fn func([]byte)) bool {
	d := min(k.depth, len(k.keys)-1)
	k.depth++
	defer func() { k.depth-- }()
	if !k.ids {
		return k.ObjectKeys(&k.keys[d], fn)
	}
	idOf := func(key []byte) int {
		if len(key)%2 == 1 {
			return 0
		}
		if n, ok := k.num[string(key)]; ok {
			return n
		}
		if k.num == nil {
			k.num = map[string]int{}
		}
		k.names = append(k.names, string(key))
		k.num[string(key)] = len(k.names)
		return len(k.names)
	}
	return k.ObjectIDs(&k.keys[d], idOf, func(id int) { fn([]byte(k.names[id-1])) })
}

// The two ways of masking a chunk agree with a byte loop, carry the state
// of being inside a string from chunk to chunk, and stop at the same
// backslash.
func TestChunkBrackets(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 on this machine")
	}
	b := make([]byte, 64*maxChunks)
	for i := range b {
		if b[i] = byte(i*7 + i/64); b[i] == '\\' { // every other byte value, at every position
			b[i] = 'a'
		}
	}
	b = append(b, taskEnd...)
	n := len(b) / 64
	for _, in0 := range []uint64{0, ^uint64(0)} {
		br1, br2 := make([]uint64, n), make([]uint64, n)
		d1, in1 := chunkBrackets(b, in0, 1<<30, br1)
		d2, in2 := chunkBracketsGeneric(b, in0, 1<<30, br2)
		inStr := in0 != 0
		for k := range n {
			if br1[k] != br2[k] {
				t.Fatalf("in %x, chunk %d: vector %x, generic %x", in0, k, br1[k], br2[k])
			}
			for j := range 64 {
				c := b[64*k+j]
				if c == '"' {
					inStr = !inStr
				}
				want := !inStr && c != '"' && strings.IndexByte("{}[]Yy_\x7f", c) >= 0
				if br1[k]>>j&1 == 1 != want {
					t.Fatalf("in %x, chunk %d byte %d (%q): bracket bit %v", in0, k, j, c, br1[k]>>j&1)
				}
			}
		}
		if d1 != n || d2 != n || in1 != in2 || (in1 != 0) != inStr {
			t.Fatalf("in %x: %d chunks, done %d (vector) %d (generic), in after %x %x, want %v", in0, n, d1, d2, in1, in2, inStr)
		}
	}
	for _, at := range []int{0, 63, 64, 100, 64*maxChunks - 1} {
		m := append([]byte(nil), b[:64*maxChunks]...)
		m[at] = '\\'
		br := make([]uint64, maxChunks)
		d1, in1 := chunkBrackets(m, 0, 1<<30, br)
		d2, in2 := chunkBracketsGeneric(m, 0, 1<<30, br)
		if d1 != at/64 || d2 != at/64 || in1 != in2 {
			t.Errorf("backslash at %d: done %d (vector) %d (generic), want %d; in after %x %x", at, d1, d2, at/64, in1, in2)
		}
	}
}

// Both stop after the same chunk, the first whose closing brackets are at
// least the depth open at its start.
func TestChunkBracketsStop(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 on this machine")
	}
	doc := []byte(strings.Repeat(taskEnd, 3))
	for off := range 64 {
		b := doc[off:]
		for depth := range 8 {
			br1, br2 := make([]uint64, maxChunks), make([]uint64, maxChunks)
			d1, in1 := chunkBrackets(b, 0, depth, br1)
			d2, in2 := chunkBracketsGeneric(b, 0, depth, br2)
			// The stop by hand, from the generic masks.
			want, d := maxChunks, depth
			for k := range maxChunks {
				var closes int
				for m := br2[k]; m != 0; m &= m - 1 {
					if c := b[64*k+bits.TrailingZeros64(m)]; c&4 != 0 {
						closes++
					}
				}
				if closes >= d {
					want = k + 1
					break
				}
				d += bits.OnesCount64(br2[k]) - 2*closes
			}
			if d1 != want || d2 != want || in1 != in2 || br1[d1-1] != br2[d1-1] {
				t.Fatalf("offset %d depth %d: done %d (vector) %d (generic), want %d; in %x %x", off, depth, d1, d2, want, in1, in2)
			}
		}
	}
}

// A Spark 3 task-end line, the bulk of an event log.
const taskEnd = `{"Event":"SparkListenerTaskEnd","Stage ID":0,"Stage Attempt ID":0,"Task Type":"ShuffleMapTask","Task End Reason":{"Reason":"Success"},"Task Info":{"Task ID":6,"Index":6,"Attempt":0,"Launch Time":1623285410189,"Executor ID":"1","Host":"hostname-08.domain.com","Locality":"PROCESS_LOCAL","Speculative":false,"Getting Result Time":0,"Finish Time":1623285411353,"Failed":false,"Killed":false,"Accumulables":[{"ID":22,"Name":"data size","Update":"24","Value":"24","Internal":true,"Count Failed Values":true,"Metadata":"sql"},{"ID":30,"Name":"shuffle bytes written","Update":"68","Value":"68","Internal":true,"Count Failed Values":true,"Metadata":"sql"},{"ID":94,"Name":"internal.metrics.executorDeserializeTime","Update":501,"Value":501,"Internal":true,"Count Failed Values":true},{"ID":95,"Name":"internal.metrics.executorDeserializeCpuTime","Update":430367119,"Value":430367119,"Internal":true,"Count Failed Values":true}]},"Task Executor Metrics":{"JVMHeapMemory":0,"JVMOffHeapMemory":0,"OnHeapExecutionMemory":0,"MinorGCCount":0,"MinorGCTime":0,"MajorGCCount":0,"MajorGCTime":0},"Task Metrics":{"Executor Deserialize Time":501,"Executor Deserialize CPU Time":430367119,"Executor Run Time":589,"Executor CPU Time":552041741,"Peak Execution Memory":67371008,"Result Size":2325,"JVM GC Time":0,"Result Serialization Time":0,"Memory Bytes Spilled":0,"Disk Bytes Spilled":0,"Shuffle Read Metrics":{"Remote Blocks Fetched":0,"Local Blocks Fetched":0,"Fetch Wait Time":0,"Remote Bytes Read":0,"Remote Bytes Read To Disk":0,"Local Bytes Read":0,"Total Records Read":0},"Shuffle Write Metrics":{"Shuffle Bytes Written":68,"Shuffle Write Time":20576768,"Shuffle Records Written":1},"Input Metrics":{"Bytes Read":0,"Records Read":0},"Output Metrics":{"Bytes Written":0,"Records Written":-12.5e1},"Updated Blocks":[]}}`

// Every prefix of a real line (a cut last line), and the line with each byte
// replaced by a byte the scanner treats specially, read in every mode, give
// what the byte-at-a-time scanner gives.
func TestFastPathsMatchReference(t *testing.T) {
	if raceEnabled {
		t.Skip("single-threaded and exhaustive (48 s under -race): runs in go test")
	}
	doc := []byte(taskEnd)
	for n := range len(doc) + 1 {
		checkSame(t, doc[:n])
	}
	for i := range doc {
		for _, c := range []byte("\"\\{}[]yY_ ,:0-e\x7f\xdf") {
			m := []byte(taskEnd)
			m[i] = c
			checkSame(t, m)
		}
	}
	for _, d := range []string{
		`{"a":"` + strings.Repeat(`\\`, 40) + `"}`,
		`{"a":"` + strings.Repeat(`\\`, 39) + `\"x"}`,
		`[` + strings.Repeat(`"\"",`, 30) + `1]`,
		`[\"` + strings.Repeat(" ", 70) + `]`,
		`["` + strings.Repeat("a", 63) + `\` + `"` + strings.Repeat("]", 70) + `"]`,
		`[` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `]`,
		`[` + strings.Repeat("{", 100) + strings.Repeat("]", 100) + `]`,
		`{"n":123456789012345678,"m":1234567890123456789,"o":-0,"p":12x,"q":1.5,"r":-}`,
	} {
		checkSame(t, []byte(d))
	}
	// Runs of backslashes inside and outside strings, across the edges of
	// the 64-byte chunks, before quotes, brackets and the end.
	for off := 50; off < 80; off++ {
		for run := 1; run <= 4; run++ {
			bs := strings.Repeat(`\`, run)
			for _, d := range []string{
				`[{"a":"` + strings.Repeat("x", off) + bs + `"],"b":[1]},"` + bs + `\""]`,
				`[` + strings.Repeat(" ", off) + bs + `"{]"]`,
				`{"a":[` + strings.Repeat(`"\n",`, off/5) + `"` + strings.Repeat("y", off%7) + bs + `"}"]}`,
				`["` + strings.Repeat("z", off) + bs,
			} {
				checkSame(t, []byte(d))
			}
		}
	}
	// Integers of every length up to 20 digits (eight at a time, then the
	// rest), ended by each kind of byte, with and without bytes after them,
	// where trace reads them with Int (key "e" in mode 4, the third element
	// in mode 5) and skips them.
	digits := "19283746501928374650"
	for n := 1; n <= len(digits); n++ {
		for _, end := range []string{",", "}", "]", " ", "x", ".5", "e3", "/", ":", "\x80", "9"} {
			for _, pad := range []string{"", `,"z":0}`, strings.Repeat(" ", 9)} {
				for _, num := range []string{digits[:n], "-" + digits[:n], digits[20-n:]} {
					checkSame(t, []byte(`{"e":`+num+end+pad))
					checkSame(t, []byte(`[0,0,`+num+end+pad))
				}
			}
		}
	}
}

func FuzzFastPaths(f *testing.F) {
	// Seeds stay small: the fuzzer minimizes every new input it finds, which
	// a 4 KB line makes slow.
	f.Add([]byte(`{"Event":"SparkListenerTaskEnd","Stage ID":0,"Task Info":{"Launch Time":1623285410189,"Accumulables":[{"ID":22,"Name":"data size","Update":"24","Value":"24","Internal":true},{"ID":94,"Update":501}]},"Task Metrics":{"Executor Run Time":589,"Input Metrics":{"Bytes Read":0}}}`))
	f.Add([]byte(`{"a":[1,{"b":"c\"d"}],"e":null}`))
	f.Add([]byte(`["` + strings.Repeat("a", 70) + `\\"]` + strings.Repeat(" ", 64)))
	f.Fuzz(func(t *testing.T, b []byte) { checkSame(t, b) })
}

func BenchmarkSkipLine(b *testing.B) {
	doc := []byte(taskEnd)
	b.SetBytes(int64(len(doc)))
	var s Scanner
	for range b.N {
		s.Reset(doc)
		s.Skip()
	}
}

func BenchmarkSkipLineRef(b *testing.B) {
	doc := []byte(taskEnd)
	b.SetBytes(int64(len(doc)))
	var s refScanner
	for range b.N {
		s.Reset(doc)
		s.Skip()
	}
}

func BenchmarkSkipLineGeneric(b *testing.B) {
	defer func(v bool) { useAVX2 = v }(useAVX2)
	useAVX2 = false
	BenchmarkSkipLine(b)
}

func BenchmarkChunkBrackets(b *testing.B) {
	doc := []byte(strings.Repeat(taskEnd, 2))[:64*maxChunks]
	b.SetBytes(int64(len(doc)))
	var br [maxChunks]uint64
	for range b.N {
		chunkBrackets(doc, 0, 1<<30, br[:])
	}
}

func BenchmarkChunkBracketsGeneric(b *testing.B) {
	doc := []byte(strings.Repeat(taskEnd, 2))[:64*maxChunks]
	b.SetBytes(int64(len(doc)))
	var br [maxChunks]uint64
	for range b.N {
		chunkBracketsGeneric(doc, 0, 1<<30, br[:])
	}
}
