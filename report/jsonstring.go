package report

import (
	"encoding/json"
	"unicode/utf8"
)

// The hand-written JSON writers (files_json.go, timeline_json.go) quote strings here, so their
// output stays byte for byte what encoding/json writes.

// appendJSONString appends s quoted as encoding/json writes it without HTML escaping. Names,
// paths and instant times are printable ASCII almost always; anything else goes through encoding/json
// itself, so escapes (control bytes, invalid UTF-8, U+2028) stay identical.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if !jsonPlain[s[i]] {
			return appendJSONStringSlow(b, s)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// jsonPlain marks the bytes encoding/json copies as they are: printable ASCII but " and \.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

func appendJSONStringSlow(b []byte, s string) []byte {
	var buf jsonBuf
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil { // a string always encodes
		return append(b, `""`...)
	}
	return append(b, buf[:len(buf)-1]...) // without Encode's newline
}

type jsonBuf []byte

func (j *jsonBuf) Write(p []byte) (int, error) {
	*j = append(*j, p...)
	return len(p), nil
}
