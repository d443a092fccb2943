package jscan

import (
	"encoding/binary"
	"math/bits"
)

// Word-at-a-time (SWAR) paths. Most bytes of an event log sit in values the
// analysis skips (a task's "Accumulables", whole ignored events) and in short
// keys and strings, where a per-byte loop or a bytes.IndexByte call per string
// costs more than the bytes. These paths look at 8 bytes per step and give
// exactly the results of the byte loops (kept as the slow paths, which also
// produce every error message). On amd64 with AVX2 the masks of a skip come
// from masks_amd64.s, 64 bytes per step; ref_test.go keeps the scanner as it
// was before all this, and fast_test.go checks the two agree.

const (
	lsb    = 0x0101010101010101
	low7   = 0x7f7f7f7f7f7f7f7f
	quote8 = '"' * lsb
	back8  = '\\' * lsb
)

// eq has 0x80 in each byte of w equal to the byte repeated in pat, 0 elsewhere
// (exact: no borrow between bytes).
func eq(w, pat uint64) uint64 {
	v := w ^ pat
	return ^((v&low7 + low7) | v | low7)
}

// eqBracket has 0x80 in each byte of w that is one of {}[] (and, harmlessly,
// Y y _ DEL, which a caller checks again: none of them may stand outside a
// string in JSON, and the byte loop ignores them there too).
func eqBracket(w uint64) uint64 {
	return eq(w&(0xdf*lsb)|0x06*lsb, 0x5f*lsb)
}

// compress gathers the top bit of each byte of m into bits 0..7.
func compress(m uint64) uint64 {
	return (m >> 7) * 0x0102040810204080 >> 56
}

// prefixXor sets bit i to the parity of bits 0..i: with quote positions in,
// the bits inside strings (opening quote included, closing quote not) come out.
func prefixXor(x uint64) uint64 {
	x ^= x << 1
	x ^= x << 2
	x ^= x << 4
	x ^= x << 8
	x ^= x << 16
	x ^= x << 32
	return x
}

// firstEq has 0x80 in the first byte of w equal to the byte repeated in pat,
// if any (bytes after it may be flagged wrongly): cheaper than eq where only
// the first match, or whether there is one, matters.
func firstEq(w, pat uint64) uint64 {
	v := w ^ pat
	return (v - lsb) &^ v & (0x80 * lsb)
}

// fastString finds the end of the string whose contents start at start when
// the closing quote comes within a few words and no backslash precedes it;
// ok is false otherwise (the caller uses the exact loop).
func fastString(b []byte, start int) (end int, ok bool) {
	for j, n := start, 0; j+8 <= len(b) && n < 4; j, n = j+8, n+1 {
		w := binary.LittleEndian.Uint64(b[j:])
		q, e := firstEq(w, quote8), firstEq(w, back8)
		if q != 0 {
			if e != 0 && bits.TrailingZeros64(e) < bits.TrailingZeros64(q) {
				return 0, false
			}
			return j + bits.TrailingZeros64(q)>>3, true
		}
		if e != 0 {
			return 0, false
		}
	}
	return 0, false
}

// chunkBracketsGeneric is chunkBrackets a word at a time.
func chunkBracketsGeneric(b []byte, in uint64, depth int, br []uint64) (int, uint64) {
	for c := range br {
		var qm, bm, cm, bs uint64
		for k := 0; k < 64; k += 8 {
			w := binary.LittleEndian.Uint64(b[64*c+k:])
			bs |= eq(w, back8)
			qm |= compress(eq(w, quote8)) << k
			bm |= compress(eqBracket(w)) << k
			cm |= compress(w<<5&(0x80*lsb)) << k // bit 2 of each byte: a closing bracket
		}
		if bs != 0 {
			return c, in
		}
		str := prefixXor(qm) ^ in
		in = uint64(int64(str) >> 63)
		br[c] = bm &^ str
		closes := bits.OnesCount64(br[c] & cm)
		if closes >= depth {
			return c + 1, in
		}
		depth += bits.OnesCount64(br[c]) - 2*closes
	}
	return len(br), in
}

// maxChunks bounds the 64-byte chunks masked at once (the masks stop early
// where the container may end).
const maxChunks = 16

const odd8 = 0xaaaaaaaaaaaaaaaa // the odd bits

// escChunk masks one 64-byte chunk as the byte loop of skipContainer reads
// it, backslashes included (a chunk of an SQL plan or a stack trace): a quote
// after an odd run of backslashes does not count, and esc says the chunk's
// first byte is escaped. It returns the brackets outside strings, in and esc
// for the byte after the chunk, and ok false when a backslash stands outside
// a string, which the byte loop ignores where this would escape the next
// byte. The escapes are found as simdjson's escape scanner finds them.
func escChunk(c []byte, in uint64, esc bool) (br, inOut uint64, escOut, ok bool) {
	var qm, bm, bs uint64
	for k := 0; k < 64; k += 8 {
		w := binary.LittleEndian.Uint64(c[k:])
		qm |= compress(eq(w, quote8)) << k
		bm |= compress(eqBracket(w)) << k
		bs |= compress(eq(w, back8)) << k
	}
	var first uint64 // the first byte is escaped
	if esc {
		first = 1
	}
	potential := bs &^ first
	code := ((potential<<1 | odd8) - potential) ^ odd8
	escaped := code ^ (bs | first)
	str := prefixXor(qm&^escaped) ^ in
	if bs&^str != 0 {
		return 0, 0, false, false
	}
	return bm &^ str, uint64(int64(str) >> 63), (code&bs)>>63 != 0, true
}

// skipContainer finds the end of the object or array opening at s.b[i] with
// the rules of the byte loop in Skip (strings and matched brackets only). ok
// is false when that loop would fail; s.i is not moved.
func (s *Scanner) skipContainer(i int) (end int, ok bool) {
	b := s.b
	st := append(s.stack[:0], b[i])
	p := i + 1
	var inStr uint64 // all ones inside a string
	esc := false     // inside a string, the previous byte was an unpaired backslash
	for p < len(b) {
		// Whole chunks without a backslash: quotes and brackets by mask,
		// strings by the parity of the quotes before each byte. The last
		// bytes are masked in a zero-padded copy: zeros match nothing.
		chunk, want := b[p:], min((len(b)-p)/64, maxChunks)
		if want == 0 {
			s.pad = [64]byte{}
			copy(s.pad[:], b[p:])
			chunk, want = s.pad[:], 1
		}
		if !esc {
			n, after := chunkBrackets(chunk, inStr, len(st), s.bm[:want])
			for k := range n {
				for br := s.bm[k]; br != 0; br &= br - 1 {
					j := 64*k + bits.TrailingZeros64(br)
					var bad, done bool
					if st, bad, done = bracket(st, chunk[j]); bad || done {
						return s.closed(st, bad, p+j+1)
					}
				}
			}
			inStr = after
			if p += 64 * n; n == want {
				continue
			}
			chunk = chunk[64*n:]
		}
		// The next chunk holds a backslash, or its first byte is escaped,
		// or the masks stopped where the container may end.
		if br, in, e, ok := escChunk(chunk, inStr, esc); ok {
			for ; br != 0; br &= br - 1 {
				j := bits.TrailingZeros64(br)
				var bad, done bool
				if st, bad, done = bracket(st, chunk[j]); bad || done {
					return s.closed(st, bad, p+j+1)
				}
			}
			inStr, esc = in, e
			p += 64
			continue
		}
		// A backslash outside a string: the byte loop, for this chunk.
		for stop := min(p+64, len(b)); p < stop; p++ {
			c := b[p]
			if inStr != 0 {
				switch {
				case esc:
					esc = false
				case c == '\\':
					esc = true
				case c == '"':
					inStr = 0
				}
				continue
			}
			switch c {
			case '"':
				inStr = ^uint64(0)
			case '{', '[', '}', ']':
				var bad, done bool
				if st, bad, done = bracket(st, c); bad || done {
					return s.closed(st, bad, p+1)
				}
			}
		}
	}
	s.stack = st
	return 0, false
}

// bracket applies c, a byte flagged as a bracket outside a string, to the
// open brackets st: bad when it closes the wrong kind, done when it closes
// the first.
func bracket(st []byte, c byte) (_ []byte, bad, done bool) {
	switch c | 0x20 { // '[' ']' are '{' '}' but for 0x20
	case '{':
		return append(st, c), false, false
	case '}':
		if st[len(st)-1]^c != '{'^'}' { // also '['^']'
			return st, true, false
		}
		st = st[:len(st)-1]
		return st, false, len(st) == 0
	}
	return st, false, false // Y y _ DEL, which the masks also flag (see eqBracket)
}

// closed ends skipContainer after bracket said bad or done, end the offset
// after the closing bracket.
func (s *Scanner) closed(st []byte, bad bool, end int) (int, bool) {
	s.stack = st
	if bad {
		return 0, false
	}
	return end, true
}

// fastInt reads a plain integer (optional minus, digits, at most 18 of them)
// at s.i that a delimiter of scalar ends; ok is false for anything else
// (fractions, exponents, literals, long numbers), which the exact path reads.
func (s *Scanner) fastInt() (int64, bool) {
	b, i := s.b, s.i
	neg := false
	if i < len(b) && b[i] == '-' {
		neg = true
		i++
	}
	start := i
	var n int64
	for ; i < len(b) && i-start < 18; i++ {
		c := b[i] - '0'
		if c > 9 {
			break
		}
		n = n*10 + int64(c)
	}
	if i == start {
		return 0, false
	}
	if i < len(b) && !delim[b[i]] {
		return 0, false
	}
	s.i = i
	if neg {
		n = -n
	}
	return n, true
}

// delim marks the bytes that end a scalar: scalar, fastInt, skipNumber and
// Int's one-digit path stop at the same bytes.
var delim = [256]bool{',': true, '}': true, ']': true, ' ': true, '\t': true, '\r': true, '\n': true, ':': true, '"': true, '{': true, '[': true}

// skipNumber skips a scalar starting with a minus or a digit the way scalar
// does (it accepts any such scalar), without its switch per byte when the
// scalar is a plain integer: the most common value a walk skips.
func (s *Scanner) skipNumber() {
	b, i := s.b, s.i+1
	for i < len(b) && b[i]-'0' <= 9 {
		i++
	}
	if i < len(b) && !delim[b[i]] {
		s.scalar() // a fraction, an exponent or garbage: the exact path
		return
	}
	s.i = i
}
