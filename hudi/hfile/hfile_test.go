package hfile

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

const samplesDir = "../../../shared/testdata/hudi-rs/crates/core/tests/data/hfile"

// The sample names carry their entry count: `…_<codec>_<count>[_suffix].hfile`.
var countRe = regexp.MustCompile(`_(?:GZ|NONE)_(\d+)`)

func TestSamples(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(samplesDir, "*.hfile"))
	if len(files) == 0 {
		t.Skipf("HFile samples not found at %s (external corpus absent)", samplesDir)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			want := uint64(0)
			if m := countRe.FindStringSubmatch(filepath.Base(f)); m != nil {
				want, _ = strconv.ParseUint(m[1], 10, 64)
			}
			r, err := Open(bytesReaderAt(b), int64(len(b)))
			if err != nil {
				t.Fatal(err)
			}
			distinct := map[string]bool{}
			nonUnique := regexp.MustCompile(`non_unique`).MatchString(f)
			wantDistinct := int(want)
			if nonUnique {
				// 200 distinct keys, some repeated: the trailer counts every cell.
				defer func() {
					if len(distinct) != wantDistinct {
						t.Errorf("%d distinct keys, want %d", len(distinct), wantDistinct)
					}
				}()
				want = r.EntryCount()
			}
			if r.EntryCount() != want {
				t.Fatalf("trailer entry count %d, name says %d", r.EntryCount(), want)
			}
			var n uint64
			var prev string
			sorted := true
			if err := r.Scan(func(k, v []byte) error {
				if string(k) < prev {
					sorted = false
				}
				prev = string(k)
				distinct[prev] = true
				n++
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if n != want {
				t.Fatalf("scanned %d cells, want %d", n, want)
			}
			if !sorted {
				t.Errorf("keys not in sorted order")
			}
			if len(r.FileInfo) == 0 {
				t.Errorf("no file info")
			}
		})
	}
}

func TestGarbage(t *testing.T) {
	for _, b := range [][]byte{nil, make([]byte, 5000), append(make([]byte, 10), []byte("TRABLK\"$")...)} {
		if _, err := Open(bytesReaderAt(b), int64(len(b))); err == nil {
			t.Errorf("Open(%d garbage bytes) succeeded", len(b))
		}
	}
}

func FuzzOpenScan(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(samplesDir, "*NONE_5000.hfile"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := Open(bytesReaderAt(b), int64(len(b)))
		if err != nil {
			return
		}
		_ = r.Scan(func(k, v []byte) error { return nil })
	})
}

type bytesReaderAt []byte

func (b bytesReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 || off > int64(len(b)) {
		return 0, os.ErrInvalid
	}
	n := copy(p, b[off:])
	if n < len(p) {
		return n, os.ErrClosed
	}
	return n, nil
}
