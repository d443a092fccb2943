package jscan

// refScanner is the scanner as it was before the word-at-a-time paths (fast.go):
// the reference those must match exactly, results, positions and error messages.

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

type refScanner struct {
	b     []byte
	i     int
	err   error
	stack []byte
	kbuf  []byte
}

// Reset points the scanner at a new document.
func (s *refScanner) Reset(b []byte) {
	s.b, s.i, s.err = b, 0, nil
	s.stack = s.stack[:0]
}

// Err is the first error met, if any.
func (s *refScanner) Err() error { return s.err }

// Pos is the current byte offset.
func (s *refScanner) Pos() int { return s.i }

func (s *refScanner) fail(format string, args ...any) {
	if s.err == nil {
		s.err = fmt.Errorf("json: %s at byte %d", fmt.Sprintf(format, args...), s.i)
	}
}

// errRefTrailing reports bytes after the top-level value.
var errRefTrailing = errors.New("json: data after the top-level value")

func (s *refScanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\r', '\n':
			s.i++
		default:
			return
		}
	}
}

// Peek returns the first byte of the next value (after whitespace), 0 at the end.
func (s *refScanner) Peek() byte {
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
func (s *refScanner) End() bool {
	if s.err != nil {
		return false
	}
	s.ws()
	if s.i != len(s.b) {
		s.err = errRefTrailing
		return false
	}
	return true
}

// Object iterates the members of an object, calling fn with each key (valid
// only during the call); fn must consume the value with one of the value
// methods (Skip when it is not wanted). A null is an empty object. Any other
// value is skipped and Object returns false.
func (s *refScanner) Object(fn func(key []byte)) bool {
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
	for s.err == nil {
		s.ws()
		if s.i >= len(s.b) || s.b[s.i] != '"' {
			s.fail("expected object key")
			return false
		}
		key := s.rawString()
		if s.err != nil {
			return false
		}
		if bytes.IndexByte(key, '\\') >= 0 {
			s.kbuf = refAppendUnescaped(s.kbuf[:0], key)
			key = s.kbuf
		}
		s.ws()
		if s.i >= len(s.b) || s.b[s.i] != ':' {
			s.fail("expected ':'")
			return false
		}
		s.i++
		start := s.i
		fn(key)
		if s.err != nil {
			return false
		}
		if s.i == start {
			s.Skip() // the callback did not consume the value
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

// Array iterates the elements of an array; fn must consume each element. A
// null is an empty array; any other value is skipped and Array returns false.
func (s *refScanner) Array(fn func()) bool {
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

func (s *refScanner) literal(lit string) {
	if len(s.b)-s.i < len(lit) || string(s.b[s.i:s.i+len(lit)]) != lit {
		s.fail("invalid literal")
		return
	}
	s.i += len(lit)
}

// rawString consumes a string at s.i (which holds '"') and returns its raw,
// still escaped, contents.
func (s *refScanner) rawString() []byte {
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
func (s *refScanner) Skip() {
	c := s.Peek()
	switch c {
	case 0:
		s.fail("unexpected end of input")
		return
	case '"':
		s.rawString()
		return
	case '{', '[':
	case '}', ']', ',', ':':
		s.fail("unexpected %q", c)
		return
	default:
		s.scalar()
		return
	}
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
func (s *refScanner) scalar() []byte {
	start := s.i
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ',', '}', ']', ' ', '\t', '\r', '\n', ':', '"', '{', '[':
			goto done
		}
		s.i++
	}
done:
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

func refParseInt(v []byte) (int64, bool) {
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
func (s *refScanner) Int(def int64) int64 {
	switch s.Peek() {
	case '"':
		raw := s.rawString()
		if n, ok := refParseInt(bytes.TrimSpace(raw)); ok {
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
	n, ok := refParseInt(v)
	if !ok {
		s.fail("bad number")
		return def
	}
	return n
}

// Bool consumes a value as a boolean: true, "true", non-zero numbers.
func (s *refScanner) Bool() bool {
	switch s.Peek() {
	case '"':
		return string(bytes.TrimSpace(s.rawString())) == "true"
	case '{', '[', 0:
		s.Skip()
		return false
	}
	v := s.scalar()
	if string(v) == "true" {
		return true
	}
	n, ok := refParseInt(v)
	return ok && n != 0
}

// String consumes a value as text: strings are unescaped, numbers and
// booleans give their literal text, null gives ok=false, containers give "".
func (s *refScanner) String() (string, bool) {
	switch s.Peek() {
	case '"':
		raw := s.rawString()
		if s.err != nil {
			return "", false
		}
		if bytes.IndexByte(raw, '\\') < 0 {
			return string(raw), true
		}
		return string(refAppendUnescaped(nil, raw)), true
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

// StringPtr is String returning nil for null.
func (s *refScanner) StringPtr() *string {
	v, ok := s.String()
	if !ok {
		return nil
	}
	return &v
}

// RawString consumes a string value and returns its raw (escaped) bytes
// without copying; ok is false for non-strings (which are skipped).
func (s *refScanner) RawString() ([]byte, bool) {
	if s.Peek() != '"' {
		s.Skip()
		return nil, false
	}
	return s.rawString(), s.err == nil
}

func refHex4(b []byte) (rune, bool) {
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

// refAppendUnescaped decodes JSON escapes; invalid escapes are kept verbatim.
func refAppendUnescaped(dst, raw []byte) []byte {
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
			r, ok := refHex4(raw[i+1:])
			if !ok {
				dst = append(dst, '\\', 'u')
				continue
			}
			i += 4
			if utf16.IsSurrogate(r) {
				if i+6 < len(raw)+0 && raw[i+1] == '\\' && raw[i+2] == 'u' {
					if r2, ok := refHex4(raw[i+3:]); ok {
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
