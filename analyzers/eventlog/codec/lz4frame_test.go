package codec

import (
	"bytes"
	"io"
	"os"
	"testing"

	"github.com/pierrec/lz4/v4"
)

// testdata/lz4cli-two-frames.lz4 was written by the lz4 command-line tool (v1.9.4), two
// frames concatenated (`lz4 -c a >x; lz4 -c b >>x`), over the three lines in the .json beside it.
func TestLZ4FrameFromCLI(t *testing.T) {
	want, err := os.ReadFile("testdata/lz4cli-two-frames.json")
	if err != nil {
		t.Fatal(err)
	}
	b, c, dmg := decodeFile(t, "testdata/lz4cli-two-frames.lz4")
	if c != LZ4Frame {
		t.Fatalf("codec %q, want %q", c, LZ4Frame)
	}
	if !bytes.Equal(b, want) || len(dmg) != 0 {
		t.Fatalf("decoded %d bytes (want %d), damage %v", len(b), len(want), dmg)
	}
	if len(want) != 687 {
		t.Errorf("fixture is %d bytes, want 687", len(want))
	}
	// The .lz4 name with frame bytes is the same family: no name/content mismatch.
	f, _ := os.Open("testdata/lz4cli-two-frames.lz4")
	defer f.Close()
	if c, mismatch, _ := Detect(f, "x.lz4"); c != LZ4Frame || mismatch {
		t.Errorf("Detect = %q mismatch %v", c, mismatch)
	}
}

func lz4FrameStream(data []byte) []byte {
	var b bytes.Buffer
	w := lz4.NewWriter(&b)
	w.Write(data)
	w.Close()
	return b.Bytes()
}

// A frame cut short keeps what decoded and says it was truncated; a flipped byte in the
// content checksum is checksum damage.
func TestLZ4FrameDamage(t *testing.T) {
	full := lz4FrameStream(bytes.Repeat(seedLines, 50))
	r := NewLZ4FrameReader(bytes.NewReader(full[:len(full)-10]))
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	d := r.Damages()
	if len(d) != 1 || d[0].Kind != KindTruncated || d[0].DecodedOffset != int64(len(b)) {
		t.Errorf("truncated: %d bytes, damage %+v", len(b), d)
	}
	bad := bytes.Clone(full)
	bad[len(bad)-1] ^= 0xff // content checksum
	r = NewLZ4FrameReader(bytes.NewReader(bad))
	if _, err := io.ReadAll(r); err != nil {
		t.Fatal(err)
	}
	if d := r.Damages(); len(d) != 1 || d[0].Kind != KindChecksum {
		t.Errorf("checksum: damage %+v", d)
	}
}

func FuzzLZ4Frame(f *testing.F) {
	addTruncations(f, lz4FrameStream(seedLines))
	f.Fuzz(func(t *testing.T, b []byte) { fuzzDecode(t, NewLZ4FrameReader(bytes.NewReader(b))) })
}
