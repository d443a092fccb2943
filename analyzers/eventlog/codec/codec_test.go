package codec

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// fixtureDir returns shared/testdata/eventlogs next to the repository root.
func fixtureDir(t testing.TB) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Dir(file)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("repository root not found")
		}
		dir = parent
	}
	d := filepath.Join(dir, "..", "shared", "testdata", "eventlogs")
	if _, err := os.Stat(d); err != nil {
		t.Skipf("shared test data not present at %s (expected ../shared/testdata/eventlogs beside the repo)", d)
	}
	return d
}

func decodeFile(t *testing.T, path string) ([]byte, Codec, []Damage) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, c, _ := Open(f, path)
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return b, c, r.Damages()
}

func sha(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

const (
	shaAttempt1 = "1c589ac9b93487421d5b4e75bb988085aafd3759283a20208b7ae3774d3a0494"
	shaAttempt2 = "3bb2eb4806e6dbf24368fd4a3f45cf876f9a9588154d1c020496ede2fd8d4ac2"
	sha7846     = "cc1ebdc955cabf92be04c7c2d0ac356e15180c4f5e9662603dc2f4fbe9b41962"
)

func TestXXH32Vectors(t *testing.T) {
	for _, tc := range []struct {
		in   string
		seed uint32
		want uint32
	}{
		{"", 0, 0x02CC5D05},
		{"abc", 0, 0x32D153FF},
		{"Nobody inspects the spammish repetition", 0, 0xE2293B2F},
	} {
		if got := xxh32([]byte(tc.in), tc.seed); got != tc.want {
			t.Errorf("xxh32(%q)=%08x want %08x", tc.in, got, tc.want)
		}
	}
}

func TestReencodedFixtures(t *testing.T) {
	dir := filepath.Join(fixtureDir(t), "spark-codecs-reencoded")
	full := map[string][]byte{}
	for _, tc := range []struct {
		file  string
		codec Codec
		size  int
		sha   string
	}{
		{"application_1724877841851_0016_1.lz4", LZ4, 715111, shaAttempt1},
		{"application_1724877841851_0016_1.snappy", Snappy, 715111, shaAttempt1},
		{"application_1724877841851_0016_1.zstd", Zstd, 715111, shaAttempt1},
		{"application_1603128018386_7846.lz4", LZ4, 36555789, sha7846},
	} {
		b, c, dmg := decodeFile(t, filepath.Join(dir, tc.file))
		if c != tc.codec || len(b) != tc.size || sha(b) != tc.sha || len(dmg) != 0 {
			t.Errorf("%s: codec %s, %d bytes, sha %s, damage %v", tc.file, c, len(b), sha(b), dmg)
		}
		full[tc.sha] = b
	}
	// Attempt 2 in full comes from the spark-rapids-tools zstd file.
	att2, _, _ := decodeFile(t, filepath.Join(fixtureDir(t), "spark-rapids-tools", "multiple_attempts", "attempt_2_eventlog.zstd"))
	if sha(att2) != shaAttempt2 {
		t.Fatalf("attempt 2 sha %s", sha(att2))
	}
	full[shaAttempt2] = att2

	// In-progress files: the decodable prefix of the full log, with the damage located.
	for _, tc := range []struct {
		file       string
		size       int
		of         string
		damageKind string
		damageAt   int64
	}{
		{"application_1724877841851_0016_2.lz4.inprogress", 262144, shaAttempt2, KindTruncated, 57773},
		{"application_1724877841851_0016_2.zstd.inprogress", 192058, shaAttempt2, "", 0},
		{"application_1603128018386_7846.zstd.inprogress", 959694, sha7846, KindTruncated, 56542},
	} {
		b, _, dmg := decodeFile(t, filepath.Join(dir, tc.file))
		if len(b) != tc.size || !bytes.HasPrefix(full[tc.of], b) {
			t.Errorf("%s: %d bytes (want %d), prefix of full log: %v", tc.file, len(b), tc.size, bytes.HasPrefix(full[tc.of], b))
		}
		if tc.damageKind == "" {
			if len(dmg) != 0 {
				t.Errorf("%s: unexpected damage %v", tc.file, dmg)
			}
			continue
		}
		if len(dmg) != 1 || dmg[0].Kind != tc.damageKind || dmg[0].Offset != tc.damageAt || dmg[0].DecodedOffset != int64(tc.size) {
			t.Errorf("%s: damage %+v, want %s at %d", tc.file, dmg, tc.damageKind, tc.damageAt)
		}
	}
}

func TestSniffBeatsName(t *testing.T) {
	dir := filepath.Join(fixtureDir(t), "spark-codecs-reencoded")
	raw, err := os.ReadFile(filepath.Join(dir, "application_1724877841851_0016_1.snappy"))
	if err != nil {
		t.Fatal(err)
	}
	r, c, mismatch := Open(bytes.NewReader(raw), "renamed.lz4")
	b, _ := io.ReadAll(r)
	if c != Snappy || !mismatch || sha(b) != shaAttempt1 {
		t.Fatalf("codec %s mismatch %v sha %s", c, mismatch, sha(b))
	}
	r, c, _ = Open(bytes.NewReader([]byte(`{"Event":"x"}`+"\n")), "x.zstd")
	if c != Plain {
		t.Fatalf("plain under .zstd name detected as %s", c)
	}
	_ = r
	for name, want := range map[string]Codec{
		"app_1.lz4.inprogress": LZ4, "events_1_app.zstd": Zstd, "events_3_app.snappy.compact": Snappy,
		"eventlog-2021-06-15--15-00.gz": Gzip, "local-1532512550423": Plain, "x.zst": Zstd, "a.lzf": LZF,
	} {
		if got := FromName(name); got != want {
			t.Errorf("FromName(%s)=%s want %s", name, got, want)
		}
	}
}

func TestLZ4ChecksumAndCorruption(t *testing.T) {
	dir := filepath.Join(fixtureDir(t), "spark-codecs-reencoded")
	raw, err := os.ReadFile(filepath.Join(dir, "application_1724877841851_0016_1.lz4"))
	if err != nil {
		t.Fatal(err)
	}
	bad := bytes.Clone(raw)
	bad[17] ^= 0x01 // first block's stored checksum
	r := NewLZ4BlockReader(bytes.NewReader(bad))
	b, _ := io.ReadAll(r)
	d := r.Damages()
	if len(d) != 1 || d[0].Kind != KindChecksum || d[0].Offset != 0 || len(b) != 715111-32768 {
		t.Fatalf("damage %+v, %d bytes", d, len(b))
	}
}

func TestSnappyConcatenatedAndTruncated(t *testing.T) {
	dir := filepath.Join(fixtureDir(t), "spark-codecs-reencoded")
	raw, err := os.ReadFile(filepath.Join(dir, "application_1724877841851_0016_1.snappy"))
	if err != nil {
		t.Fatal(err)
	}
	two := append(bytes.Clone(raw), raw...)
	r := NewSnappyJavaReader(bytes.NewReader(two))
	b, _ := io.ReadAll(r)
	if len(b) != 2*715111 || len(r.Damages()) != 0 {
		t.Fatalf("concatenated: %d bytes, %v", len(b), r.Damages())
	}
	cut := raw[:len(raw)-10]
	r = NewSnappyJavaReader(bytes.NewReader(cut))
	b, _ = io.ReadAll(r)
	d := r.Damages()
	if len(d) != 1 || d[0].Kind != KindTruncated || d[0].DecodedOffset != int64(len(b)) || len(b) == 0 {
		t.Fatalf("truncated: %d bytes, %+v", len(b), d)
	}
}

func TestLZFRoundTrip(t *testing.T) {
	// "abcabcabcabc" as one literal run of 3 and a back-reference of 9 at distance 3,
	// in a compressed chunk, followed by a stored chunk "xy".
	comp := []byte{2, 'a', 'b', 'c', (7 << 5), 9 - 2 - 7, 2}
	stream := append([]byte{'Z', 'V', 1, 0, byte(len(comp)), 0, 12}, comp...)
	stream = append(stream, 'Z', 'V', 0, 0, 2, 'x', 'y')
	r := NewLZFReader(bytes.NewReader(stream))
	b, _ := io.ReadAll(r)
	if string(b) != "abcabcabcabcxy" || len(r.Damages()) != 0 {
		t.Fatalf("got %q %v", b, r.Damages())
	}
}
