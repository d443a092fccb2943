package codec

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"io"
	"testing"

	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

var seedLines = []byte(`{"Event":"SparkListenerLogStart","Spark Version":"3.3.0"}` + "\n" +
	`{"Event":"SparkListenerTaskEnd","Stage ID":0,"Stage Attempt ID":0,"Task Info":{"Launch Time":1,"Finish Time":5}}` + "\n")

// lz4BlockStream builds an lz4-java stream: one LZ4 block, one RAW block, an end mark.
func lz4BlockStream(data []byte) []byte {
	var out bytes.Buffer
	block := func(token byte, payload, decoded []byte) {
		var h [lz4HeaderLen]byte
		copy(h[:], lz4BlockMagic)
		h[8] = token
		binary.LittleEndian.PutUint32(h[9:], uint32(len(payload)))
		binary.LittleEndian.PutUint32(h[13:], uint32(len(decoded)))
		if len(decoded) > 0 {
			binary.LittleEndian.PutUint32(h[17:], xxh32(decoded, lz4ChecksumSeed)&0x0FFFFFFF)
		}
		out.Write(h[:])
		out.Write(payload)
	}
	half := len(data) / 2
	comp := make([]byte, lz4.CompressBlockBound(half))
	n, _ := lz4.CompressBlock(data[:half], comp, nil)
	if n > 0 {
		block(lz4MethodLZ4|5, comp[:n], data[:half])
	} else {
		block(lz4MethodRaw|5, data[:half], data[:half])
	}
	block(lz4MethodRaw|5, data[half:], data[half:])
	block(lz4MethodRaw|5, nil, nil)
	return out.Bytes()
}

func snappyJavaStream(data []byte) []byte {
	out := append([]byte{}, snappyJavaMagic...)
	out = binary.BigEndian.AppendUint32(out, 1)
	out = binary.BigEndian.AppendUint32(out, 1)
	for _, part := range [][]byte{data[:len(data)/2], data[len(data)/2:]} {
		c := snappy.Encode(nil, part)
		out = binary.BigEndian.AppendUint32(out, uint32(len(c)))
		out = append(out, c...)
	}
	return out
}

func zstdFrames(data []byte) []byte {
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	defer enc.Close()
	out := enc.EncodeAll(data[:len(data)/2], nil)
	return enc.EncodeAll(data[len(data)/2:], out)
}

func gzipStream(data []byte) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write(data)
	w.Close()
	return b.Bytes()
}

func TestSeedStreamsDecode(t *testing.T) {
	for name, enc := range map[string]func([]byte) []byte{
		"lz4": lz4BlockStream, "snappy": snappyJavaStream, "zstd": zstdFrames, "gzip": gzipStream,
	} {
		r, _, _ := Open(bytes.NewReader(enc(seedLines)), "x."+name)
		b, err := io.ReadAll(r)
		if err != nil || !bytes.Equal(b, seedLines) || len(r.Damages()) != 0 {
			t.Errorf("%s: %q %v %v", name, b, err, r.Damages())
		}
	}
}

// fuzzDecode reads a decoder to the end and checks the damage bookkeeping.
func fuzzDecode(t *testing.T, r Reader) {
	b, err := io.ReadAll(io.LimitReader(r, 64<<20))
	if err != nil {
		return
	}
	for _, d := range r.Damages() {
		if d.DecodedOffset < 0 || d.DecodedOffset > int64(len(b)) || d.Kind == "" {
			t.Fatalf("bad damage %+v after %d bytes", d, len(b))
		}
	}
}

func addTruncations(f *testing.F, b []byte) {
	f.Add(b)
	f.Add(b[:len(b)/2])
	f.Add(b[:len(b)-1])
	f.Add([]byte{})
}

func FuzzLZ4Block(f *testing.F) {
	addTruncations(f, lz4BlockStream(seedLines))
	f.Fuzz(func(t *testing.T, b []byte) { fuzzDecode(t, NewLZ4BlockReader(bytes.NewReader(b))) })
}

func FuzzSnappyJava(f *testing.F) {
	addTruncations(f, snappyJavaStream(seedLines))
	f.Fuzz(func(t *testing.T, b []byte) { fuzzDecode(t, NewSnappyJavaReader(bytes.NewReader(b))) })
}

func FuzzZstd(f *testing.F) {
	addTruncations(f, zstdFrames(seedLines))
	f.Fuzz(func(t *testing.T, b []byte) {
		z := NewZstdReader(bytes.NewReader(b))
		defer z.Close()
		fuzzDecode(t, z)
	})
}

func FuzzGzip(f *testing.F) {
	addTruncations(f, gzipStream(seedLines))
	f.Fuzz(func(t *testing.T, b []byte) { fuzzDecode(t, NewGzipReader(bytes.NewReader(b))) })
}

func FuzzLZF(f *testing.F) {
	f.Add([]byte{'Z', 'V', 1, 0, 7, 0, 12, 2, 'a', 'b', 'c', 7 << 5, 0, 2, 'Z', 'V', 0, 0, 2, 'x', 'y'})
	f.Add([]byte{'Z', 'V', 0, 0, 5, 'a'})
	f.Fuzz(func(t *testing.T, b []byte) { fuzzDecode(t, NewLZFReader(bytes.NewReader(b))) })
}

func FuzzOpen(f *testing.F) {
	f.Add(lz4BlockStream(seedLines), "a.lz4")
	f.Add(snappyJavaStream(seedLines), "a.snappy")
	f.Add(seedLines, "a")
	f.Add(lz4FrameStream(seedLines), "a.lz4")
	f.Fuzz(func(t *testing.T, b []byte, name string) {
		r, _, _ := Open(bytes.NewReader(b), name)
		if z, ok := r.(*ZstdReader); ok {
			defer z.Close()
		}
		fuzzDecode(t, r)
	})
}
