package tableconfig_test

import (
	"testing"

	"github.com/hudiscope/hudiscope/hudi/tableconfig"
)

func TestParseProperties(t *testing.T) {
	in := "# comment\n! also comment\n  a=1\nb : two words \nc\\:d=e\\=f\nlong=x\\\n   y\nu=caf\\u00e9\nempty=\nspaced value\r\n"
	got, err := tableconfig.ParseProperties([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a": "1", "b": "two words ", "c:d": "e=f", "long": "xy", "u": "café", "empty": "", "spaced": "value"}
	if len(got) != len(want) {
		t.Errorf("got %q", got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
}

func FuzzParseProperties(f *testing.F) {
	f.Add([]byte("hoodie.table.name=t\nhoodie.table.version=6\n"))
	f.Add([]byte("a\\\n b=c\\u00e9\\"))
	f.Add([]byte("#Properties saved on 2024-04-18T22:32:13.522Z\n#Thu Apr 18 17:32:13 CDT 2024\nhoodie.table.name=x\nhoodie.table.version=9\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, err := tableconfig.ParseProperties(b); err != nil {
			t.Skip()
		}
		_, _ = tableconfig.Parse(b, "fuzz")
	})
}
