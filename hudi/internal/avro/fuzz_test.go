package avro

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzContentJSON covers the instant-metadata decoders (JSON and Avro object container files).
func FuzzContentJSON(f *testing.F) {
	for _, p := range []string{"commit_metadata/v6_commit.json", "commit_metadata/v8_deltacommit.avro"} {
		if b, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "shared", "testdata", "hudi-rs", "crates", "core", "tests", "data", p)); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("Obj\x01"))
	f.Add([]byte("{}"))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = ContentJSON(b)
	})
}
