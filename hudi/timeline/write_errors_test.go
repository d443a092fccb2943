package timeline_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/hudi/problem"
	"github.com/hudiscope/hudiscope/hudi/timeline"
)

// withWriteErrors rewrites the "totalWriteErrors" of the first n write stats of a 0.x JSON
// commit file to errs each (Hudi 0.14.0 completes commits whose records failed: show_commits
// total_errors 29 of 30).
func withWriteErrors(t *testing.T, path string, n int, errs string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(b), `"totalWriteErrors" : 0`, `"totalWriteErrors" : `+errs, n)
	if s == string(b) {
		t.Fatalf("%s has no totalWriteErrors to edit", path)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A completed commit's write errors are summed into its totals by the full decode and by the
// compact one alike (cow-services-0.15.0, commit 20261129165634001: 14 records in five files,
// the first two edited to carry 3 errors each).
func TestCommitTotalsCountWriteErrors(t *testing.T) {
	ctx := context.Background()
	for _, compact := range []bool{false, true} {
		st, cfg := openFixture(t, "cow-services-0.15.0")
		withWriteErrors(t, filepath.Join(st.Root(), ".hoodie", "20261129165634001.commit"), 2, "3")
		tl, err := (&timeline.Reader{Store: st, Config: cfg, Problems: &problem.Log{}, Compact: compact}).Active(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var errs, others int64
		var writes int64
		for _, in := range tl.Instants {
			if in.RequestedTime == "20261129165634001" {
				errs, writes = in.Totals.TotalWriteErrors, in.Totals.NumWrites
				if w, ok := in.Writes(); ok {
					var sum int64
					for _, p := range w {
						sum += p.WriteErrors
					}
					if sum != 6 {
						t.Errorf("compact %v: partition sums carry %d errors, want 6", compact, sum)
					}
				}
			} else {
				others += in.Totals.TotalWriteErrors
			}
		}
		if errs != 6 || others != 0 {
			t.Errorf("compact %v: errors %d (others %d), want 6 and 0", compact, errs, others)
		}
		if writes != 14 {
			t.Errorf("compact %v: %d writes, want 14", compact, writes)
		}
	}
}
