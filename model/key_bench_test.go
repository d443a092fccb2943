package model

import (
	"context"
	"os"
	"testing"
)

// BenchmarkKeyLookup times one key's story on each lookup path over a million-key table:
// HUDISCOPE_BENCH_KEY_TABLE names it (not committed; docs/performance.md says how the one measured
// there was written with Spark), and the benchmark is skipped without it. Paths: the metadata
// table's record index, the base files' footers (bloom filters and key ranges, --no-mdt), and a
// scan of every file group's keys (--scan).
func BenchmarkKeyLookup(b *testing.B) {
	path := os.Getenv("HUDISCOPE_BENCH_KEY_TABLE")
	if path == "" {
		b.Skip("HUDISCOPE_BENCH_KEY_TABLE is not set")
	}
	ft := openTable(b, path, false)
	ctx := context.Background()
	for _, c := range []struct {
		name   string
		noMDT  bool
		scan   bool
		method string
	}{{"record-index", false, false, KeyByRecordIndex}, {"bloom", true, false, KeyByBloom}, {"scan", false, true, KeyByScan}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				st, err := KeyLookup(ctx, ft.t, ft.tl, ft.view, c.noMDT, KeyQuery{Key: "424242", Scan: c.scan})
				if err != nil {
					b.Fatal(err)
				}
				if st.Method != c.method || st.Status != "current" || len(st.Versions) != 1 {
					b.Fatalf("%s: %s %s, %d versions", c.name, st.Method, st.Status, len(st.Versions))
				}
			}
		})
	}
}
