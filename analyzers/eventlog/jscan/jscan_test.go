package jscan

import (
	"encoding/json"
	"fmt"
	"testing"
)

func TestWalk(t *testing.T) {
	doc := []byte(`{"Event":"E","a":{"x":[1,2,{"y":"}]"}],"n":-12,"f":3.9,"s":"42","t":true},"q\"k":"h\u00e9\ud83d\ude00\n","z":null}`)
	var s Scanner
	s.Reset(doc)
	var got = map[string]any{}
	s.Object(func(k []byte) {
		switch string(k) {
		case "a":
			s.Object(func(k []byte) {
				switch string(k) {
				case "n", "f", "s":
					got[string(k)] = s.Int(-1)
				case "t":
					got["t"] = s.Bool()
				}
			})
		case `q"k`:
			got["q"], _ = s.String()
		case "z":
			_, ok := s.String()
			got["z"] = ok
		}
	})
	if !s.End() || s.Err() != nil {
		t.Fatal(s.Err())
	}
	want := map[string]any{"n": int64(-12), "f": int64(3), "s": int64(42), "t": true, "q": "hé😀\n", "z": false}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: got %#v want %#v", k, got[k], v)
		}
	}
}

func TestErrors(t *testing.T) {
	for _, doc := range []string{`{"a":1`, `{"a":[1,2}`, `{"a" 1}`, `{,_"JVM Information":{}}`, `{"a":"x}`, `{"a":tru}`, `{"a":1}x`} {
		var s Scanner
		s.Reset([]byte(doc))
		s.Object(func(k []byte) { s.Skip() })
		s.End()
		if s.Err() == nil {
			t.Errorf("%s: no error", doc)
		}
	}
}

func FuzzSkip(f *testing.F) {
	f.Add([]byte(`{"a":[1,{"b":"c\"d"}],"e":null}`))
	f.Add([]byte(`{"a":"\ud83d\ude00"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var s Scanner
		s.Reset(b)
		s.Skip()
		ok := s.End()
		// Anything encoding/json accepts must pass the structural scan.
		if json.Valid(b) && !ok {
			t.Fatalf("valid JSON rejected: %q: %v", b, s.Err())
		}
	})
}

// StringInterned gives what String gives, through intern only for strings
// without escapes.
func TestStringInterned(t *testing.T) {
	for _, doc := range []string{`"Success"`, `"a\"b"`, `"\u00e9"`, `12`, `-1.5`, `true`, `null`, `{"a":1}`, `[1]`, `"cut`, ``, `"x"  `} {
		var a, b Scanner
		a.Reset([]byte(doc))
		b.Reset([]byte(doc))
		calls := 0
		got, gotOK := a.StringInterned(func(raw []byte) string { calls++; return "<" + string(raw) + ">" })
		want, wantOK := b.String()
		if calls == 1 {
			want = "<" + want + ">" // the table's value, for the same bytes
		}
		if got != want || gotOK != wantOK || a.Pos() != b.Pos() || fmt.Sprint(a.Err()) != fmt.Sprint(b.Err()) {
			t.Errorf("%q: StringInterned %q %v at %d (%v), String %q %v at %d (%v)", doc, got, gotOK, a.Pos(), a.Err(), want, wantOK, b.Pos(), b.Err())
		}
		if wantCalls := map[bool]int{true: 1}[doc == `"Success"` || doc == `"x"  `]; calls != wantCalls {
			t.Errorf("%q: intern called %d times, want %d", doc, calls, wantCalls)
		}
	}
}
