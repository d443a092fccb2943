package storage_test

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hudiscope/hudiscope/hudi/storage"
	"github.com/hudiscope/hudiscope/internal/testutil"
)

// TestLocalSparseInstantTooLarge: a 2 GiB sparse instant (no disk used) is refused from its
// size, quickly and without allocating it.
func TestLocalSparseInstantTooLarge(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".hoodie"), 0o755)
	f, err := os.Create(filepath.Join(dir, ".hoodie", "20240101000000000.commit"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(2 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	st, err := storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var rerr error
	start := time.Now()
	alloc := testutil.Allocated(func() { _, rerr = st.ReadFile(context.Background(), ".hoodie/20240101000000000.commit") })
	took := time.Since(start)
	if !errors.Is(rerr, storage.ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", rerr)
	}
	for _, want := range []string{"20240101000000000.commit", "2 GiB (2147483648 bytes)", "read ceiling of 256 MiB", "--max-read-size"} {
		if !strings.Contains(rerr.Error(), want) {
			t.Errorf("message %q lacks %q", rerr, want)
		}
	}
	if took > time.Second || alloc > 1<<20 {
		t.Errorf("took %v, allocated %d bytes; want < 1s and < 1 MiB", took, alloc)
	}
	t.Logf("2 GiB sparse instant: %v in %v, %d bytes allocated", rerr, took, alloc)
}

// TestLocalCeilingBoundary: exactly the ceiling reads, one byte more is refused.
func TestLocalCeilingBoundary(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "ten"), bytes.Repeat([]byte("x"), 10), 0o644)
	os.WriteFile(filepath.Join(dir, "eleven"), bytes.Repeat([]byte("x"), 11), 0o644)
	st, err := storage.Open(dir, storage.Options{MaxReadBytes: 10})
	if err != nil {
		t.Fatal(err)
	}
	if b, err := st.ReadFile(context.Background(), "ten"); err != nil || len(b) != 10 {
		t.Errorf("10 bytes under a 10-byte ceiling: %d %v", len(b), err)
	}
	_, err = st.ReadFile(context.Background(), "eleven")
	if !errors.Is(err, storage.ErrTooLarge) || !strings.Contains(err.Error(), "11 B (11 bytes) is over the read ceiling of 10 B") {
		t.Errorf("11 bytes under a 10-byte ceiling: %v", err)
	}
	// Ranged reads are not materialised, so Open has no ceiling on local disk.
	f, err := st.Open(context.Background(), "eleven")
	if err != nil || f.Size() != 11 {
		t.Errorf("open: %v", err)
	} else {
		f.Close()
	}
}

// zerosDeflate returns a raw deflate stream that inflates to blocks×1 MiB of zeros: one
// sync-flushed block of 1 MiB zeros repeated, then a final empty block. 2048 blocks (2 GiB)
// take about 2 MB.
func zerosDeflate(t *testing.T, blocks int) []byte {
	var one bytes.Buffer
	w, _ := flate.NewWriter(&one, flate.BestCompression)
	w.Write(make([]byte, 1<<20))
	if err := w.Flush(); err != nil { // sync flush: ends byte-aligned, not final
		t.Fatal(err)
	}
	var end bytes.Buffer
	w2, _ := flate.NewWriter(&end, flate.BestCompression)
	w2.Close()
	out := bytes.Repeat(one.Bytes(), blocks)
	return append(out, end.Bytes()...)
}

// writeBomb writes a zip whose member t/.hoodie/hoodie.properties inflates to blocks MiB of
// zeros and declares declared bytes; also a small stored member t/.hoodie/small.
func writeBomb(t *testing.T, blocks int, declared uint64) string {
	p := filepath.Join(t.TempDir(), "bomb.zip")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	raw := zerosDeflate(t, blocks)
	w, err := zw.CreateRaw(&zip.FileHeader{Name: "t/.hoodie/hoodie.properties", Method: zip.Deflate,
		CompressedSize64: uint64(len(raw)), UncompressedSize64: declared})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(raw)
	sw, _ := zw.CreateHeader(&zip.FileHeader{Name: "t/.hoodie/small", Method: zip.Store})
	sw.Write([]byte("stored bytes"))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return p
}

// TestZipBomb: a 2 GiB member in a ~2 MB archive is refused from its declared size; one that
// understates its size stops at the declared size. Neither allocates more than a few MiB.
func TestZipBomb(t *testing.T) {
	ctx := context.Background()
	t.Run("declared", func(t *testing.T) {
		p := writeBomb(t, 2048, 2<<30)
		if st, _ := os.Stat(p); st.Size() > 8<<20 {
			t.Fatalf("bomb is %d bytes", st.Size())
		}
		st, err := storage.Open(p, storage.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, op := range []string{"ReadFile", "Open"} {
			var err error
			alloc := testutil.Allocated(func() {
				if op == "ReadFile" {
					_, err = st.ReadFile(ctx, ".hoodie/hoodie.properties")
				} else {
					_, err = st.Open(ctx, ".hoodie/hoodie.properties")
				}
			})
			if !errors.Is(err, storage.ErrTooLarge) || !strings.Contains(err.Error(), "bomb.zip!/.hoodie/hoodie.properties: 2 GiB") {
				t.Errorf("%s: %v", op, err)
			}
			if alloc > 4<<20 {
				t.Errorf("%s allocated %d bytes", op, alloc)
			}
		}
	})
	t.Run("understated", func(t *testing.T) {
		p := writeBomb(t, 64, 1000) // 64 MiB of zeros claiming 1000 bytes
		st, err := storage.Open(p, storage.Options{MaxReadBytes: 1 << 20})
		if err != nil {
			t.Fatal(err)
		}
		var rerr error
		alloc := testutil.Allocated(func() { _, rerr = st.ReadFile(ctx, ".hoodie/hoodie.properties") })
		if rerr == nil || !strings.Contains(rerr.Error(), "inflates past its declared size of 1000 bytes") {
			t.Errorf("understated member: %v", rerr)
		}
		if alloc > 4<<20 {
			t.Errorf("allocated %d bytes", alloc)
		}
	})
	t.Run("ceiling-while-inflating", func(t *testing.T) {
		p := writeBomb(t, 8, 8<<20) // honest 8 MiB under a 1 MiB ceiling
		st, err := storage.Open(p, storage.Options{MaxReadBytes: 1 << 20})
		if err != nil {
			t.Fatal(err)
		}
		_, err = st.ReadFile(ctx, ".hoodie/hoodie.properties")
		if !errors.Is(err, storage.ErrTooLarge) || !strings.Contains(err.Error(), "8 MiB (8388608 bytes) is over the read ceiling of 1 MiB") {
			t.Errorf("8 MiB member: %v", err)
		}
	})
	t.Run("stored-member-in-place", func(t *testing.T) {
		p := writeBomb(t, 1, 1<<20)
		st, err := storage.Open(p, storage.Options{MaxReadBytes: 4}) // stored members need no copy
		if err != nil {
			t.Fatal(err)
		}
		f, err := st.Open(ctx, ".hoodie/small")
		if err != nil {
			t.Fatal(err)
		}
		b := make([]byte, 5)
		if n, err := f.ReadAt(b, 7); n != 5 || string(b) != "bytes" || (err != nil && err != io.EOF) {
			t.Errorf("ranged read of a stored member: %q %v", b[:n], err)
		}
		if f.Size() != 12 {
			t.Errorf("size %d", f.Size())
		}
		if _, err := st.ReadFile(ctx, ".hoodie/small"); !errors.Is(err, storage.ErrTooLarge) {
			t.Errorf("ReadFile of 12 bytes under a 4-byte ceiling: %v", err)
		}
	})
}

// A size flag reads through units.ParseBytes and shows as units.BytesSetting.
func TestByteSize(t *testing.T) {
	var b storage.ByteSize
	if err := b.UnmarshalText([]byte("256MiB")); err != nil || int64(b) != storage.DefaultMaxReadBytes || b.String() != "256 MiB" {
		t.Errorf("ByteSize 256MiB = %d %q %v", b, b, err)
	}
}
