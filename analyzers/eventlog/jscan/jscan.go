// Package jscan is a small allocation-light JSON walker for event-log lines.
// It decodes only the values a caller asks for and skips everything else with
// a structural scan (strings, bracket matching), which is what makes reading
// multi-GB event logs fast. Errors are sticky: after the first one every call
// is a no-op and Err reports it.
package jscan

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Scanner walks one JSON document held in memory.
type Scanner struct {
	b     []byte
	i     int
	err   error
	stack []byte
	kbuf  []byte
	bm    [maxChunks]uint64
	pad   [64]byte // the last bytes of a document, for the masks
}

// Reset points the scanner at a new document.
func (s *Scanner) Reset(b []byte) {
	s.b, s.i, s.err = b, 0, nil
	s.stack = s.stack[:0]
}

// Err is the first error met, if any.
func (s *Scanner) Err() error { return s.err }

// Pos is the current byte offset.
func (s *Scanner) Pos() int { return s.i }

func (s *Scanner) fail(format string, args ...any) {
	if s.err == nil {
		s.err = fmt.Errorf("json: %s at byte %d", fmt.Sprintf(format, args...), s.i)
	}
}

// ErrTrailing reports bytes after the top-level value.
var ErrTrailing = errors.New("json: data after the top-level value")

func (s *Scanner) ws() {
	for s.i < len(s.b) {
		c := s.b[s.i]
		if c > ' ' { // the usual case, in one comparison
			return
		}
		switch c {
		case ' ', '\t', '\r', '\n':
			s.i++
		default:
			return
		}
	}
}

// Peek returns the first byte of the next value (after whitespace), 0 at the end.
func (s *Scanner) Peek() byte {
	if s.err != nil {
		return 0
	}
	s.ws()
	if s.i >= len(s.b) {
		return 0
	}
	return s.b[s.i]
}

// End checks that only whitespace follows.
func (s *Scanner) End() bool {
	if s.err != nil {
		return false
	}
	s.ws()
	if s.i != len(s.b) {
		s.err = ErrTrailing
		return false
	}
	return true
}

// Object iterates the members of an object, calling fn with each key (valid
// only during the call); fn must consume the value with one of the value
// methods (Skip when it is not wanted). A null is an empty object. Any other
// value is skipped and Object returns false.
func (s *Scanner) Object(fn func(key []byte)) bool {
	return s.object(nil, fn, nil, nil)
}

// Keys remembers the keys of the last object read with it, in order, as the
// bytes they were written with. An event log writes each kind of object with
// the same keys in the same order, so the next one is read by comparing each
// member's leading bytes to the key remembered at its place, instead of
// scanning the key for its closing quote and a backslash. The zero value is
// ready; one Keys serves one kind of object (one call site).
type Keys struct {
	recs []keyRec // of the m-th member
}

// keyRec is one remembered key, with its first 32 bytes as words and masks
// to compare them without a call to memequal (a call spills every register
// of the member loop, the loop that reads each key of a task end).
type keyRec struct {
	w, m [4]uint64 // raw's first 32 bytes, and which of them there are
	raw  []byte    // `"key":`, of a key without escapes
	id   int       // for ObjectIDs, the number of the key
}

func (r *keyRec) set(raw []byte, id int) {
	r.raw, r.id = append(r.raw[:0], raw...), id
	r.w, r.m = [4]uint64{}, [4]uint64{}
	for i, c := range raw[:min(len(raw), 32)] {
		r.w[i/8] |= uint64(c) << (8 * (i % 8))
		r.m[i/8] |= 0xff << (8 * (i % 8))
	}
}

// at reports whether b starts with r.raw: for a long key, or near the end
// of b, where at32 cannot look (object uses at32 wherever it can).
func (r *keyRec) at(b []byte) bool {
	return len(b) >= len(r.raw) && string(b[:len(r.raw)]) == string(r.raw)
}

// at32 is at for a key of at most 32 bytes and b of 32 bytes.
func (r *keyRec) at32(b []byte) bool {
	le := binary.LittleEndian
	return (le.Uint64(b[0:8])^r.w[0])&r.m[0]|(le.Uint64(b[8:16])^r.w[1])&r.m[1]|
		(le.Uint64(b[16:24])^r.w[2])&r.m[2]|(le.Uint64(b[24:32])^r.w[3])&r.m[3] == 0
}

// ObjectKeys is Object, reading keys by k's prediction first: the same
// members, keys, positions and errors as Object.
func (s *Scanner) ObjectKeys(k *Keys, fn func(key []byte)) bool {
	return s.object(k, fn, nil, nil)
}

// ObjectIDs is ObjectKeys for a caller that numbers the keys it reads: id
// gives a key's number, 0 for a key whose value is skipped, and is called
// only for keys not predicted (k remembers the numbers with the keys); fn
// gets the number of each member not skipped and must consume its value.
// The id function must be a pure function of the key.
func (s *Scanner) ObjectIDs(k *Keys, id func(key []byte) int, fn func(id int)) bool {
	return s.object(k, nil, id, fn)
}

func (s *Scanner) object(ks *Keys, fn func(key []byte), idOf func([]byte) int, fnID func(int)) bool {
	switch s.Peek() {
	case '{':
	case 'n':
		s.literal("null")
		return false
	case 0:
		s.fail("unexpected end of input")
		return false
	default:
		s.Skip()
		return false
	}
	s.i++
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == '}' {
		s.i++
		return true
	}
	b := s.b // the callbacks move s.i, never s.b
	for m := 0; s.err == nil; m++ {
		var key []byte
		id := -1
		hit := false
		if ks != nil && m < len(ks.recs) {
			// The remembered `"key":` at this place: the same key, no
			// escapes, the colon right after, as the scan below would find.
			r := &ks.recs[m]
			if i := s.i; i <= len(b)-32 && len(r.raw) <= 32 {
				hit = r.at32(b[i : i+32]) // no memequal call, unlike at
			} else {
				hit = r.at(b[i:])
			}
			if hit {
				s.i += len(r.raw)
				id = r.id
				if idOf == nil {
					key = r.raw[1 : len(r.raw)-2]
				}
			}
		}
		if !hit {
			s.ws()
			if s.i >= len(s.b) || s.b[s.i] != '"' {
				s.fail("expected object key")
				return false
			}
			kstart := s.i
			k, esc := s.rawStringEsc()
			if s.err != nil {
				return false
			}
			key = k
			if esc {
				s.kbuf = appendUnescaped(s.kbuf[:0], key)
				key = s.kbuf
			}
			if s.i >= len(s.b) || s.b[s.i] != ':' { // usually right after the key
				s.ws()
				if s.i >= len(s.b) || s.b[s.i] != ':' {
					s.fail("expected ':'")
					return false
				}
			} else if ks != nil && !esc && m <= len(ks.recs) && m < maxKeys {
				// Remember this key at this place for the next object.
				if m == len(ks.recs) {
					ks.recs = append(ks.recs, keyRec{})
				}
				if idOf != nil {
					id = idOf(key)
				}
				ks.recs[m].set(s.b[kstart:s.i+1], id)
			}
			s.i++
		}
		start := s.i
		switch {
		case idOf == nil:
			fn(key)
		case id < 0:
			id = idOf(key) // a key not remembered
			fallthrough
		default:
			if id != 0 {
				fnID(id)
			}
		}
		if s.err != nil {
			return false
		}
		if s.i == start {
			s.Skip() // the callback did not consume the value
		}
		if i := s.i; i < len(b) && b[i] == ',' { // usually right after the value
			s.i = i + 1
			continue
		}
		s.ws()
		if s.i >= len(s.b) {
			s.fail("unexpected end of input in object")
			return false
		}
		switch s.b[s.i] {
		case ',':
			s.i++
		case '}':
			s.i++
			return true
		default:
			s.fail("expected ',' or '}'")
			return false
		}
	}
	return false
}

// maxKeys bounds the members a Keys remembers (a map-like object, such as
// Spark's properties, is not worth remembering beyond its first ones).
const maxKeys = 64

// Array iterates the elements of an array; fn must consume each element. A
// null is an empty array; any other value is skipped and Array returns false.
func (s *Scanner) Array(fn func()) bool {
	switch s.Peek() {
	case '[':
	case 'n':
		s.literal("null")
		return false
	case 0:
		s.fail("unexpected end of input")
		return false
	default:
		s.Skip()
		return false
	}
	s.i++
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == ']' {
		s.i++
		return true
	}
	for s.err == nil {
		start := s.i
		fn()
		if s.err != nil {
			return false
		}
		if s.i == start {
			s.Skip()
		}
		s.ws()
		if s.i >= len(s.b) {
			s.fail("unexpected end of input in array")
			return false
		}
		switch s.b[s.i] {
		case ',':
			s.i++
		case ']':
			s.i++
			return true
		default:
			s.fail("expected ',' or ']'")
			return false
		}
	}
	return false
}

func (s *Scanner) literal(lit string) {
	if len(s.b)-s.i < len(lit) || string(s.b[s.i:s.i+len(lit)]) != lit {
		s.fail("invalid literal")
		return
	}
	s.i += len(lit)
}

// rawString consumes a string at s.i (which holds '"') and returns its raw,
// still escaped, contents.
func (s *Scanner) rawString() []byte {
	// Not through rawStringEsc: Skip reads most strings here (long ones too,
	// an SQL plan) and has no use for its second pass looking for a backslash.
	start := s.i + 1
	if end, ok := fastString(s.b, start); ok {
		s.i = end + 1
		return s.b[start:end]
	}
	return s.rawStringSlow()
}

// rawStringEsc is rawString also telling whether the contents hold a backslash.
func (s *Scanner) rawStringEsc() ([]byte, bool) {
	start := s.i + 1
	if end, ok := fastString(s.b, start); ok {
		s.i = end + 1
		return s.b[start:end], false
	}
	raw := s.rawStringSlow()
	return raw, bytes.IndexByte(raw, '\\') >= 0
}

func (s *Scanner) rawStringSlow() []byte {
	start := s.i + 1
	j := start
	for {
		k := bytes.IndexByte(s.b[j:], '"')
		if k < 0 {
			s.i = len(s.b)
			s.fail("unterminated string")
			return nil
		}
		j += k
		// count the backslashes just before the quote
		n := 0
		for p := j - 1; p >= start && s.b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			s.i = j + 1
			return s.b[start:j]
		}
		j++
	}
}

// Skip consumes the next value of any kind, checking only its structure
// (matched brackets, terminated strings).
func (s *Scanner) Skip() {
	c := s.Peek()
	switch c {
	case 0:
		s.fail("unexpected end of input")
		return
	case '"':
		s.rawString()
		return
	case '{', '[':
		if end, ok := s.skipContainer(s.i); ok {
			s.i = end
			return
		}
	case '}', ']', ',', ':':
		s.fail("unexpected %q", c)
		return
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		s.skipNumber()
		return
	default:
		s.scalar()
		return
	}
	// Malformed: the byte loop finds the error and where it is.
	s.stack = append(s.stack[:0], c)
	s.i++
	for s.i < len(s.b) {
		switch ch := s.b[s.i]; ch {
		case '"':
			s.rawString()
			if s.err != nil {
				return
			}
			continue
		case '{', '[':
			s.stack = append(s.stack, ch)
		case '}', ']':
			open := s.stack[len(s.stack)-1]
			if (ch == '}' && open != '{') || (ch == ']' && open != '[') {
				s.fail("mismatched %q", ch)
				return
			}
			s.stack = s.stack[:len(s.stack)-1]
			if len(s.stack) == 0 {
				s.i++
				return
			}
		}
		s.i++
	}
	s.fail("unexpected end of input in container")
}

// scalar consumes a number or literal and returns its bytes.
func (s *Scanner) scalar() []byte {
	start := s.i
	for s.i < len(s.b) && !delim[s.b[s.i]] {
		s.i++
	}
	v := s.b[start:s.i]
	if len(v) == 0 {
		s.fail("expected a value")
		return nil
	}
	switch v[0] {
	case 't':
		if string(v) != "true" {
			s.fail("invalid literal")
		}
	case 'f':
		if string(v) != "false" {
			s.fail("invalid literal")
		}
	case 'n':
		if string(v) != "null" {
			s.fail("invalid literal")
		}
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
	default:
		s.fail("invalid value")
	}
	return v
}

func parseInt(v []byte) (int64, bool) {
	if len(v) == 0 {
		return 0, false
	}
	neg := false
	i := 0
	if v[0] == '-' {
		neg = true
		i = 1
	}
	if i == len(v) {
		return 0, false
	}
	var n int64
	for ; i < len(v); i++ {
		c := v[i]
		if c < '0' || c > '9' {
			f, err := strconv.ParseFloat(string(v), 64)
			if err != nil {
				return 0, false
			}
			return int64(f), true
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// Int consumes a value as an integer: numbers (fractions truncated), numeric
// strings and booleans (1/0) convert; null and anything else give def.
func (s *Scanner) Int(def int64) int64 {
	switch s.Peek() {
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		if b, i := s.b, s.i; i+1 < len(b) && b[i]-'0' <= 9 && delim[b[i+1]] {
			s.i = i + 1 // one digit, without a call: most of a task's metrics are 0
			return int64(b[i] - '0')
		}
		if n, ok := s.fastInt(); ok {
			return n
		}
	case '"':
		raw := s.rawString()
		if n, ok := parseInt(bytes.TrimSpace(raw)); ok {
			return n
		}
		return def
	case '{', '[', 0:
		s.Skip()
		return def
	}
	v := s.scalar()
	switch {
	case s.err != nil:
		return def
	case string(v) == "true":
		return 1
	case string(v) == "false":
		return 0
	case string(v) == "null":
		return def
	}
	n, ok := parseInt(v)
	if !ok {
		s.fail("bad number")
		return def
	}
	return n
}

// Bool consumes a value as a boolean: true, "true", non-zero numbers.
func (s *Scanner) Bool() bool {
	switch s.Peek() {
	case '"':
		return string(bytes.TrimSpace(s.rawString())) == "true"
	case '{', '[', 0:
		s.Skip()
		return false
	}
	v := s.scalar()
	switch string(v) {
	case "true":
		return true
	case "false":
		return false // without parseInt's failing ParseFloat, which allocates its error
	}
	n, ok := parseInt(v)
	return ok && n != 0
}

// String consumes a value as text: strings are unescaped, numbers and
// booleans give their literal text, null gives ok=false, containers give "".
func (s *Scanner) String() (string, bool) {
	switch s.Peek() {
	case '"':
		raw, esc := s.rawStringEsc()
		if s.err != nil {
			return "", false
		}
		if !esc {
			return string(raw), true
		}
		return string(appendUnescaped(nil, raw)), true
	case '{', '[':
		s.Skip()
		return "", true
	case 0:
		s.fail("unexpected end of input")
		return "", false
	}
	v := s.scalar()
	if s.err != nil || string(v) == "null" {
		return "", false
	}
	return string(v), true
}

// StringInterned is String, giving a string without escapes as intern makes
// it from the raw bytes: for a field with few distinct values (a task's end
// reason) a caller's table saves an allocation per value.
func (s *Scanner) StringInterned(intern func([]byte) string) (string, bool) {
	if s.Peek() != '"' {
		return s.String()
	}
	raw, esc := s.rawStringEsc()
	if s.err != nil {
		return "", false
	}
	if !esc {
		return intern(raw), true
	}
	return string(appendUnescaped(nil, raw)), true
}

// StringPtr is String returning nil for null.
func (s *Scanner) StringPtr() *string {
	v, ok := s.String()
	if !ok {
		return nil
	}
	return &v
}

// RawString consumes a string value and returns its raw (escaped) bytes
// without copying; ok is false for non-strings (which are skipped).
func (s *Scanner) RawString() ([]byte, bool) {
	if s.Peek() != '"' {
		s.Skip()
		return nil, false
	}
	return s.rawString(), s.err == nil
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	return r, true
}

// appendUnescaped decodes JSON escapes; invalid escapes are kept verbatim.
func appendUnescaped(dst, raw []byte) []byte {
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' || i+1 >= len(raw) {
			dst = append(dst, c)
			continue
		}
		i++
		switch raw[i] {
		case '"', '\\', '/':
			dst = append(dst, raw[i])
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, ok := hex4(raw[i+1:])
			if !ok {
				dst = append(dst, '\\', 'u')
				continue
			}
			i += 4
			if utf16.IsSurrogate(r) {
				if i+6 < len(raw)+0 && raw[i+1] == '\\' && raw[i+2] == 'u' {
					if r2, ok := hex4(raw[i+3:]); ok {
						if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
							dst = utf8.AppendRune(dst, d)
							i += 6
							continue
						}
					}
				}
				r = utf8.RuneError
			}
			dst = utf8.AppendRune(dst, r)
		default:
			dst = append(dst, '\\', raw[i])
		}
	}
	return dst
}
