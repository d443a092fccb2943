package report

import (
	"bytes"
	"encoding/json"
	"testing"
)

// appendIndented must write what json.Indent writes for any compact JSON.
func FuzzAppendIndented(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a":[1,{"b":"x\"],{:"}],"c":{}}`, `[[],[{}],"\\"]`,
		`{"p":"dt=2026/01/01","s":[{"f":"a\\\",b","n":-1.5e3,"t":true,"z":null}]}`, `"only"`, `12`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var v any
		if json.Unmarshal(in, &v) != nil {
			return
		}
		compact, err := json.Marshal(v)
		if err != nil {
			return
		}
		var want bytes.Buffer
		if err := json.Indent(&want, compact, "  ", "  "); err != nil {
			t.Fatal(err)
		}
		if got := appendIndented(nil, compact, "  ", "  "); !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("indent %s:\ngot  %s\nwant %s", compact, got, want.Bytes())
		}
	})
}
