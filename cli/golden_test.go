package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// assertGolden compares got with the golden file, or (with -update) writes it there: the one
// golden check of the command tests.
func assertGolden(t testing.TB, golden, got string) {
	t.Helper()
	if *updateGolden {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	test, _, _ := strings.Cut(t.Name(), "/")
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./cli -run %s -update)", err, test)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file; diff with: go test ./cli -run %s -update && git diff %s", golden, test, golden)
	}
}
