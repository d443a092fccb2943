//go:build !race

// The race detector multiplies memory use, so the memory-ceiling tests run without it.

package cli

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// bombRSSCeiling is the promise: no hostile input takes hudiscope past 512 MB.
const bombRSSCeiling = 512 << 20

const incrZip = "../testdata/fixtures/incr-1.2.0/table.zip"

// latestCommit is the last completed commit of the incr-1.2.0 fixture (hand-checked with
// `unzip -l`): the file the timeline, files and report commands all decode.
const latestCommit = ".hoodie/timeline/20261129155632267_20261129155639090.commit"

// runBomb runs hudiscope and checks the peak RSS, the exit code and that stderr names want
// (unless want is empty). The child is killed past twice the ceiling or after a minute.
func runBomb(t *testing.T, wantExit int, want string, args ...string) {
	t.Helper()
	_, stderr, code, rss := runChild(t, nil, 2*bombRSSCeiling, args...)
	t.Logf("%s: exit %d, peak RSS %d MB", strings.Join(args, " "), code, rss>>20)
	if rss > bombRSSCeiling {
		t.Errorf("peak RSS %d MB, want ≤ %d MB", rss>>20, bombRSSCeiling>>20)
	}
	if code != wantExit {
		t.Errorf("exit %d, want %d; stderr:\n%s", code, wantExit, stderr)
	}
	if want != "" && !strings.Contains(stderr, want) {
		t.Errorf("stderr does not name %q:\n%s", want, stderr)
	}
}

// deflateBomb returns a raw deflate stream that inflates to n MiB of zeros from about a
// kilobyte per MiB: one sync-flushed, non-final chunk repeated, then an empty final block.
func deflateBomb(t *testing.T, n int) []byte {
	t.Helper()
	var chunk bytes.Buffer
	fw, _ := flate.NewWriter(&chunk, flate.BestCompression)
	fw.Write(make([]byte, 1<<20))
	fw.Flush()
	var out bytes.Buffer
	for range n {
		out.Write(chunk.Bytes())
	}
	var final bytes.Buffer
	fw, _ = flate.NewWriter(&final, flate.BestCompression)
	fw.Close()
	out.Write(final.Bytes())
	return out.Bytes()
}

// zstdBomb returns concatenated zstd frames that decode to n × 16 MiB of zeros.
func zstdBomb(t *testing.T, n int) []byte {
	t.Helper()
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	frame := enc.EncodeAll(make([]byte, 16<<20), nil)
	return bytes.Repeat(frame, n)
}

// avroLong is Avro's zig-zag varint.
func avroLong(v int64) []byte {
	return binary.AppendUvarint(nil, uint64((v<<1)^(v>>63)))
}

func avroString(s string) []byte { return append(avroLong(int64(len(s))), s...) }

// ocfWith returns an Avro object container file with one block of codec-compressed data.
func ocfWith(codec string, data []byte) []byte {
	var b bytes.Buffer
	b.WriteString("Obj\x01")
	b.Write(avroLong(2))
	b.Write(avroString("avro.schema"))
	b.Write(avroString(`{"type":"record","name":"HoodieCommitMetadata","namespace":"org.apache.hudi.avro.model","fields":[{"name":"operationType","type":["null","string"],"default":null}]}`))
	b.Write(avroString("avro.codec"))
	b.Write(avroString(codec))
	b.Write(avroLong(0))
	sync := bytes.Repeat([]byte{0x5a}, 16)
	b.Write(sync)
	b.Write(avroLong(1))
	b.Write(avroLong(int64(len(data))))
	b.Write(data)
	b.Write(sync)
	return b.Bytes()
}

func writeFile(t *testing.T, p string, b []byte) {
	t.Helper()
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// An Avro instant whose zstd block inflates to 6.4 GB (the 200 KB bomb): a warning
// naming the instant, the rest of the timeline shown, memory bounded.
func TestBombZstdInstant(t *testing.T) {
	dir := unzipTable(t, incrZip, t.TempDir())
	writeFile(t, filepath.Join(dir, latestCommit), ocfWith("zstandard", zstdBomb(t, 400)))
	runBomb(t, 0, filepath.Base(latestCommit), "timeline", dir)
	runBomb(t, 0, filepath.Base(latestCommit), "timeline", "--json", dir)
}

// The same with deflate and a snappy block whose length header claims 4 GB.
func TestBombDeflateAndSnappyInstant(t *testing.T) {
	dir := unzipTable(t, incrZip, t.TempDir())
	writeFile(t, filepath.Join(dir, latestCommit), ocfWith("deflate", deflateBomb(t, 4096)))
	runBomb(t, 0, filepath.Base(latestCommit), "timeline", dir)
	// Snappy: a varint uncompressed length just under 4 GiB, a few literal bytes, and the CRC.
	// (4 GiB itself is past snappy's uint32 length and s2 calls it corrupt before any
	// ceiling of ours is asked; the message must be the ceiling's.)
	snappyLie := append(binary.AppendUvarint(nil, 4<<30-1), 0x00, 'x', 0, 0, 0, 0)
	writeFile(t, filepath.Join(dir, latestCommit), ocfWith("snappy", snappyLie))
	runBomb(t, 0, filepath.Base(latestCommit)+": avro container: snappy block: block decompresses to 4.0 GiB", "timeline", dir)
}

// A 4 MB zip whose newest instant inflates to 4 GiB (the 9.75 GB zip bomb).
func TestBombZipEntry(t *testing.T) {
	src, err := zip.OpenReader(incrZip)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	out := filepath.Join(t.TempDir(), "bomb.zip")
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	bomb := deflateBomb(t, 4096)
	target := "incr/" + latestCommit
	for _, e := range src.File {
		if e.Name != target {
			if err := zw.Copy(e); err != nil {
				t.Fatal(err)
			}
			continue
		}
		// The header tells the truth about the size: the ceiling must hold regardless.
		w, err := zw.CreateRaw(&zip.FileHeader{Name: e.Name, Method: zip.Deflate,
			CompressedSize64: uint64(len(bomb)), UncompressedSize64: 4 << 30, Modified: e.Modified})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(bomb)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	runBomb(t, 0, filepath.Base(latestCommit), "timeline", out)
	// The file view decodes replace commits and plans only: this commit is never inflated.
	runBomb(t, 0, "", "files", "--json", out)
}

// A 2 GB instant file and a 2 GB hoodie.properties (sparse: no disk used). The instant is a
// warning and the rest loads; the table cannot be read without its properties: exit 1.
func TestBombGiantMetadataFiles(t *testing.T) {
	dir := unzipTable(t, incrZip, t.TempDir())
	if err := os.Truncate(filepath.Join(dir, latestCommit), 2<<30); err != nil {
		t.Skip("no sparse files here:", err)
	}
	runBomb(t, 0, filepath.Base(latestCommit), "timeline", dir)

	dir = unzipTable(t, incrZip, t.TempDir())
	if err := os.Truncate(filepath.Join(dir, ".hoodie/hoodie.properties"), 2<<30); err != nil {
		t.Skip("no sparse files here:", err)
	}
	runBomb(t, 1, "hoodie.properties", "timeline", dir)
}

// A metadata-table log file holding one 3 GB block (sparse), four times over: the listing
// must not hold them in memory at once, nor one of them whole.
func TestBombMetadataLogBlock(t *testing.T) {
	dir := unzipTable(t, incrZip, t.TempDir())
	files := filepath.Join(dir, ".hoodie/metadata/files")
	real := filepath.Join(files, ".files-0000-0_20261129155632267.log.1_2-65-93")
	b, err := os.ReadFile(real)
	if err != nil {
		t.Fatal(err)
	}
	// Keep the real block's magic, version, type and header; then claim 3 GB of content.
	hdrEnd := 22 + 4
	for i, n := 0, int(binary.BigEndian.Uint32(b[22:26])); i < n; i++ {
		vl := int(binary.BigEndian.Uint32(b[hdrEnd+4 : hdrEnd+8]))
		hdrEnd += 8 + vl
	}
	const content = 3 << 30
	blockLen := int64(hdrEnd-14) + 8 + content + 4 + 8 // after magic+length: … content len, content, footer count, trailer
	var head bytes.Buffer
	head.Write(b[:6])
	binary.Write(&head, binary.BigEndian, blockLen)
	head.Write(b[14:hdrEnd])
	binary.Write(&head, binary.BigEndian, int64(content))
	for _, name := range []string{".files-0000-0_20261129155610512.log.1_2-21-29",
		".files-0000-0_20261129155626253.log.1_2-43-61", ".files-0000-0_20261129155632267.log.1_2-65-93"} {
		p := filepath.Join(files, name)
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		f.Write(head.Bytes())
		var tail bytes.Buffer
		binary.Write(&tail, binary.BigEndian, int32(0))
		binary.Write(&tail, binary.BigEndian, blockLen+6)
		if _, err := f.WriteAt(tail.Bytes(), int64(head.Len())+content); err != nil {
			t.Skip("no sparse files here:", err)
		}
		f.Close()
	}
	runBomb(t, 0, ".files-0000-0_", "files", dir)
}

// /dev/zero behind an instant's name: a named error, never an endless read.
func TestBombDevZeroInstant(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip(err)
	}
	dir := unzipTable(t, incrZip, t.TempDir())
	p := filepath.Join(dir, latestCommit)
	os.Remove(p)
	if err := os.Symlink("/dev/zero", p); err != nil {
		t.Skip(err)
	}
	runBomb(t, 0, filepath.Base(latestCommit), "timeline", dir)
}

// zstdPages is a parquet-go codec that writes every page as the same zstd bomb, labelled
// ZSTD: a well-formed file whose pages each declare their real small size and inflate to GBs.
type zstdPages struct{ bomb []byte }

func (zstdPages) String() string                            { return "ZSTD" }
func (zstdPages) CompressionCodec() format.CompressionCodec { return format.Zstd }
func (c zstdPages) Encode(dst, _ []byte) ([]byte, error)    { return append(dst[:0], c.bomb...), nil }
func (zstdPages) Decode(_, _ []byte) ([]byte, error)        { return nil, errors.New("write only") }

// A 1.x LSM archived-timeline file whose pages inflate to 4 GiB each (about 400 KB on
// disk): the file is a warning naming it, the other archived files and the active timeline
// still show, memory bounded.
func TestBombLSMArchivedParquet(t *testing.T) {
	dir := unzipTable(t, "../testdata/fixtures/cow-services-1.2.0/table.zip", t.TempDir())
	const name = "20261129161724115_20261129161736306_0.parquet" // listed in manifest_12
	type lsmRow struct {
		InstantTime    string `parquet:"instantTime,optional"`
		CompletionTime string `parquet:"completionTime,optional"`
		Action         string `parquet:"action,optional"`
		Metadata       []byte `parquet:"metadata,optional"`
		Plan           []byte `parquet:"plan,optional"`
	}
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[lsmRow](&buf, parquet.Compression(zstdPages{zstdBomb(t, 256)}))
	if _, err := w.Write([]lsmRow{{InstantTime: "20261129161724115", CompletionTime: "20261129161736306",
		Action: "commit", Metadata: []byte("x")}}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, ".hoodie/timeline/history", name), buf.Bytes())
	runBomb(t, 0, name, "timeline", "--archived", dir)
}

// Base files whose footers lie: an 11-byte FileMetaData declaring 2^31 schema elements, and a
// 3 GB sparse file whose footer length claims all of it. Row counts read only footers; the
// files' counts are unknown, the layout still shows, memory bounded.
func TestBombBaseFileFooters(t *testing.T) {
	dir := unzipTable(t, incrZip, t.TempDir())
	bases, err := filepath.Glob(filepath.Join(dir, "*.parquet"))
	if err != nil || len(bases) != 3 {
		t.Fatalf("base files %v: %v", bases, err)
	}
	footer := []byte{0x15, 0x02, 0x19, 0xfc, 0xff, 0xff, 0xff, 0xff, 0x07, 0x00, 0x00}
	listBomb := append([]byte("PAR1"), footer...)
	listBomb = binary.LittleEndian.AppendUint32(listBomb, uint32(len(footer)))
	listBomb = append(listBomb, "PAR1"...)
	for _, b := range bases {
		writeFile(t, b, listBomb)
	}
	runBomb(t, 0, ".parquet: row count unreadable", "layout", "--include-row-counts", dir)
	runBomb(t, 0, ".parquet: row count unreadable", "layout", "--include-row-counts", "--json", dir)
	runBomb(t, 0, ".parquet", "snapshot", "--count", dir)

	const size = 3 << 30
	for _, b := range bases {
		f, err := os.Create(b)
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte("PAR1"))
		tail := binary.LittleEndian.AppendUint32(nil, size-12)
		if _, err := f.WriteAt(append(tail, "PAR1"...), size-8); err != nil {
			t.Skip("no sparse files here:", err)
		}
		f.Close()
	}
	runBomb(t, 0, ".parquet: row count unreadable", "layout", "--include-row-counts", dir)
	runBomb(t, 0, ".parquet", "snapshot", "--count", dir)
}

// An LSM archived-timeline file that tells the truth: one instant whose metadata is 200 MiB
// of zeros, zstd-compressed to a few KB, in one page declaring its real size (with the
// default 256 MiB page ceiling it was read: 444 MB RSS). The LSM page ceiling, 64 MiB,
// refuses it unread: a warning naming the file. Built by
// rewriting a one-value file's page, streaming, so this process stays small (a child's peak
// RSS counts its parent's from before exec).
func TestBombLSMHonestBigPage(t *testing.T) {
	dir := unzipTable(t, "../testdata/fixtures/cow-services-1.2.0/table.zip", t.TempDir())
	const name = "20261129161724115_20261129161736306_0.parquet" // listed in manifest_12
	type lsmRow struct {
		Metadata []byte `parquet:"metadata,optional,plain"`
	}
	var small bytes.Buffer
	w := parquet.NewGenericWriter[lsmRow](&small, parquet.DataPageVersion(1), parquet.DataPageStatistics(false))
	if _, err := w.Write([]lsmRow{{Metadata: []byte("x")}}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	b := small.Bytes()
	var proto thrift.CompactProtocol
	fl := int(binary.LittleEndian.Uint32(b[len(b)-8:]))
	var md format.FileMetaData
	if err := thrift.Unmarshal(&proto, b[len(b)-8-fl:len(b)-8], &md); err != nil {
		t.Fatal(err)
	}
	m := &md.RowGroups[0].Columns[0].MetaData
	pr := proto.NewReaderFromBytes(b[m.DataPageOffset:])
	var h format.PageHeader
	if err := thrift.NewDecoder(pr).Decode(&h); err != nil {
		t.Fatal(err)
	}
	body := b[m.DataPageOffset+int64(pr.BytesRead()):][:h.CompressedPageSize]
	// body is levels, then the value's 4-byte length and "x": keep the levels, claim 200 MiB.
	const big = 200 << 20
	var z bytes.Buffer
	enc, err := zstd.NewWriter(&z)
	if err != nil {
		t.Fatal(err)
	}
	enc.Write(body[:len(body)-5])
	enc.Write(binary.LittleEndian.AppendUint32(nil, big))
	zeros := make([]byte, 1<<20)
	for range big >> 20 {
		enc.Write(zeros)
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	h.UncompressedPageSize, h.CompressedPageSize, h.CRC = int32(len(body)-1+big), int32(z.Len()), 0
	hb, err := thrift.Marshal(&proto, &h)
	if err != nil {
		t.Fatal(err)
	}
	out := append(bytes.Clone(b[:m.DataPageOffset]), hb...)
	out = append(out, z.Bytes()...)
	m.Codec, m.TotalCompressedSize, m.TotalUncompressedSize = format.Zstd, int64(len(hb)+z.Len()), int64(len(hb))+int64(h.UncompressedPageSize)
	fb, err := thrift.Marshal(&proto, &md)
	if err != nil {
		t.Fatal(err)
	}
	out = append(out, fb...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(fb)))
	out = append(out, "PAR1"...)
	t.Logf("%d-byte file, one page of %d bytes", len(out), h.UncompressedPageSize)
	writeFile(t, filepath.Join(dir, ".hoodie/timeline/history", name), out)
	runBomb(t, 0, name, "timeline", "--archived", dir)
}
