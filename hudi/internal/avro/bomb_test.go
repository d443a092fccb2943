package avro

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	kflate "github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"

	"github.com/hudiscope/hudiscope/internal/testutil"
)

const stringSchema = `{"type":"record","name":"r","fields":[{"name":"s","type":"string"}]}`

func zigzag(n int64) []byte {
	return binary.AppendUvarint(nil, uint64(n<<1)^uint64(n>>63))
}

func avroString(s string) []byte { return append(zigzag(int64(len(s))), s...) }

// buildOCF writes a container of one block holding count records: the header map, the sync
// marker, then the block as given (already compressed).
func buildOCF(codec string, count int64, block []byte) []byte {
	sync := []byte("0123456789abcdef")
	var b bytes.Buffer
	b.WriteString("Obj\x01")
	b.Write(zigzag(2))
	b.Write(avroString("avro.schema"))
	b.Write(avroString(stringSchema))
	b.Write(avroString("avro.codec"))
	b.Write(avroString(codec))
	b.Write(zigzag(0))
	b.Write(sync)
	b.Write(zigzag(count))
	b.Write(zigzag(int64(len(block))))
	b.Write(block)
	b.Write(sync)
	return b.Bytes()
}

const heapBudget = 300 << 20

func TestCodecsRoundTrip(t *testing.T) {
	datum := avroString(`{"operationType":"UPSERT"}`)
	zw, _ := zstd.NewWriter(nil)
	var fb bytes.Buffer
	fw, _ := kflate.NewWriter(&fb, kflate.BestSpeed)
	fw.Write(datum)
	fw.Close()
	for codec, block := range map[string][]byte{
		"null":      datum,
		"deflate":   fb.Bytes(),
		"snappy":    append(snappy.Encode(nil, datum), 0, 0, 0, 0),
		"zstandard": zw.EncodeAll(datum, nil),
	} {
		js, err := ContentJSON(buildOCF(codec, 1, block))
		if err != nil {
			t.Fatalf("%s: %v", codec, err)
		}
		if want := `{"s":"{\"operationType\":\"UPSERT\"}"}`; string(js) != want {
			t.Errorf("%s: got %s, want %s", codec, js, want)
		}
	}
}

// A zstd bomb of concatenated frames (each 1 MiB of zeros; frames decode one after another)
// claims 6000 MiB: refused at the ceiling without the ceiling's memory.
func TestZstdBombRefused(t *testing.T) {
	zw, _ := zstd.NewWriter(nil)
	frame := zw.EncodeAll(make([]byte, 1<<20), nil)
	bomb := bytes.Repeat(frame, 6000)
	file := buildOCF("zstandard", 1, bomb)
	t.Logf("bomb: %d bytes of file, %d MiB decoded", len(file), 6000)
	var err error
	start := time.Now()
	grew := testutil.PeakHeapGrowth(func() { _, err = ContentJSON(file) })
	took := time.Since(start)
	t.Logf("refused in %v, heap peak growth %d MiB", took, grew>>20)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
	if want := "avro container: zstandard block: block decompresses to more than 256 MiB"; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("err = %q, want prefix %q", err, want)
	}
	if grew > heapBudget {
		t.Errorf("heap grew %d MiB decoding a bomb, budget %d MiB", grew>>20, heapBudget>>20)
	}
	if took > 20*time.Second {
		t.Errorf("took %v", took)
	}
}

// A snappy block whose header claims 3 GiB is refused before any allocation; one whose claim
// is within the ceiling but beyond what its bytes can expand to is refused too.
func TestSnappyLyingLength(t *testing.T) {
	lie := append(binary.AppendUvarint(nil, 3<<30), make([]byte, 100)...)
	var err error
	grew := testutil.PeakHeapGrowth(func() { _, err = ContentJSON(buildOCF("snappy", 1, append(lie, 0, 0, 0, 0))) })
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
	if want := "avro container: snappy block: block decompresses to 3.0 GiB, more than 256 MiB: over the decoding ceiling"; err.Error() != want {
		t.Errorf("err = %q, want %q", err, want)
	}
	if grew > 16<<20 {
		t.Errorf("heap grew %d MiB", grew>>20)
	}
	lie = append(binary.AppendUvarint(nil, 200<<20), make([]byte, 100)...)
	grew = testutil.PeakHeapGrowth(func() { _, err = ContentJSON(buildOCF("snappy", 1, append(lie, 0, 0, 0, 0))) })
	if err == nil || !strings.Contains(err.Error(), "snappy header claims 200 MiB from 104 bytes: corrupt") {
		t.Errorf("err = %v, want a claim beyond snappy's expansion", err)
	}
	if grew > 16<<20 {
		t.Errorf("heap grew %d MiB", grew>>20)
	}
}

// A deflate block of 300 MiB of zeros (about 300 KB compressed) is refused, not truncated.
func TestDeflateBombRefused(t *testing.T) {
	var fb bytes.Buffer
	fw, _ := kflate.NewWriter(&fb, kflate.BestSpeed)
	zeros := make([]byte, 1<<20)
	for range 300 {
		fw.Write(zeros)
	}
	fw.Close()
	file := buildOCF("deflate", 1, fb.Bytes())
	var err error
	grew := testutil.PeakHeapGrowth(func() { _, err = ContentJSON(file) })
	t.Logf("deflate bomb: %d bytes of file, heap peak growth %d MiB", len(file), grew>>20)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
	if want := "avro container: deflate block: block decompresses to more than 256 MiB: over the decoding ceiling"; err.Error() != want {
		t.Errorf("err = %q, want %q", err, want)
	}
	if grew > heapBudget {
		t.Errorf("heap grew %d MiB", grew>>20)
	}
}

// A datum declaring a 1 TiB string, and a container block declaring 1 TiB of bytes, are errors
// naming what was decoded, never allocations.
func TestHugeDeclaredLengths(t *testing.T) {
	var err error
	grew := testutil.PeakHeapGrowth(func() { _, err = DatumJSON(stringSchema, append(zigzag(1<<40), "abc"...)) })
	if err == nil || !strings.Contains(err.Error(), "string") {
		t.Errorf("datum err = %v, want one naming the string", err)
	}
	if grew > 16<<20 {
		t.Errorf("heap grew %d MiB", grew>>20)
	}
	_, err = ContentJSON(buildOCF("null", 1, append(zigzag(-5), "x"...)))
	if err == nil || !strings.Contains(err.Error(), "avro datum") {
		t.Errorf("negative length: err = %v", err)
	}
	file := buildOCF("null", 1, []byte("abc"))
	// Rewrite the block size (after the count) to claim 1 TiB.
	i := bytes.Index(file, []byte("0123456789abcdef")) + 16
	lying := append(append(append([]byte{}, file[:i]...), zigzag(1)...), zigzag(1<<40)...)
	lying = append(lying, "abc"...)
	_, err = ContentJSON(lying)
	if want := "avro container: block of 1099511627776 bytes: length 1099511627776 exceeds the 3 bytes left: unexpected EOF"; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
}

// Distinct schemas past maxCachedSchemas are parsed but not kept.
func TestSchemaCacheBounded(t *testing.T) {
	for i := range maxCachedSchemas + 50 {
		s := `{"type":"record","name":"r` + strconv.Itoa(i) + `","fields":[]}`
		if _, err := Schema(s); err != nil {
			t.Fatal(err)
		}
	}
	schemaCache.mu.RLock()
	n := len(schemaCache.m)
	schemaCache.mu.RUnlock()
	if n != maxCachedSchemas {
		t.Errorf("cache holds %d, want %d", n, maxCachedSchemas)
	}
	if _, err := Schema(`{"type":"record","name":"late","fields":[]}`); err != nil {
		t.Errorf("a schema past the cache bound: %v", err)
	}
}
