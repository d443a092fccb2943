package avro

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/zstd"
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
	// A small ceiling keeps every exec cheap (a bomb costs CPU up to the ceiling) while the
	// over-ceiling paths stay reachable.
	old := MaxBlockBytes
	MaxBlockBytes = 1 << 20
	f.Cleanup(func() { MaxBlockBytes = old })
	// Untrusted lengths: a block claiming 1 TiB, a string claiming 1 TiB, a snappy header
	// claiming 3 GiB, and a zstd block of three one-MiB frames (over the ceiling).
	f.Add(buildOCF("null", 1, zigzag(1<<40)))
	f.Add(buildOCF("null", 1, append(zigzag(1<<40), "abc"...)))
	f.Add(buildOCF("snappy", 1, append(binary.AppendUvarint(nil, 3<<30), 0, 0, 0, 0, 0)))
	zw, _ := zstd.NewWriter(nil)
	f.Add(buildOCF("zstandard", 1, bytes.Repeat(zw.EncodeAll(make([]byte, 1<<20), nil), 3)))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = ContentJSON(b)
	})
}
