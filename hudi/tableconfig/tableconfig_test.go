package tableconfig_test

import (
	"bytes"
	"runtime"
	"strings"
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
	f.Add(continuationLines(64))                         // issue 31: continuation lines, once quadratic
	f.Add([]byte("k=a\\\\\\\n\\\n#not a comment\\\n\n")) // odd/even backslashes, a '#' continued
	f.Add([]byte("#Properties saved on 2024-04-18T22:32:13.522Z\n#Thu Apr 18 17:32:13 CDT 2024\nhoodie.table.name=x\nhoodie.table.version=9\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, err := tableconfig.ParseProperties(b); err != nil {
			t.Skip()
		}
		_, _ = tableconfig.Parse(b, "fuzz")
	})
}

// continuationLines is n physical lines of `x\` under one key: one logical line of n x's.
func continuationLines(n int) []byte {
	return append([]byte("k="), bytes.Repeat([]byte("x\\\n"), n)...)
}

// TestParsePropertiesContinuationLinear: joining continuation lines allocates in proportion to
// the input. Joining by concatenation allocated ~n²/2 bytes (1.25 GB for these 50k lines; 1.8
// CPU-s at 100k lines, 27 s at 400k); bytes allocated are deterministic where time is not.
func TestParsePropertiesContinuationLinear(t *testing.T) {
	in := continuationLines(50_000)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	got, err := tableconfig.ParseProperties(in)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if v := got["k"]; len(v) != 50_000 || strings.Trim(v, "x") != "" {
		t.Fatalf("k has %d bytes, want 50000 x's", len(v))
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64*uint64(len(in)) {
		t.Errorf("parsing %d bytes allocated %d bytes (more than 64x: not linear)", len(in), alloc)
	}
}

// BenchmarkParsePropertiesContinuation1M: 1M continuation lines (3 MB).
func BenchmarkParsePropertiesContinuation1M(b *testing.B) {
	in := continuationLines(1_000_000)
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if _, err := tableconfig.ParseProperties(in); err != nil {
			b.Fatal(err)
		}
	}
}
