package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/hudi/filegroup"
)

// Every string the hand-written appender meets is quoted as encoding/json quotes it.
func TestAppendJSONStringMatchesEncodingJSON(t *testing.T) {
	cases := []string{"", "plain/path=1", "<&>", `q"uote`, `back\slash`, "tab\tnl\ncr\r", "\b\f\x00\x1f\x7f",
		"é ü 日本", "\u2028\u2029", "bad \xff\xfe utf8", "\xed\xa0\x80", "a\x00b"}
	for c := 0; c < 256; c++ {
		cases = append(cases, string([]byte{byte(c)}), "x"+string([]byte{byte(c)})+"y")
	}
	for _, s := range cases {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		got := string(appendJSONString([]byte("pre"), s))
		if got != "pre"+strings.TrimSuffix(want.String(), "\n") {
			t.Errorf("%q: got %s, want %s", s, got, want.String())
		}
	}
}

// A large view is split into chunks (partitions larger than one chunk included) and written
// in order, on one worker or several, byte for byte as the whole document.
func TestWriteFilesJSONChunks(t *testing.T) {
	v := &filegroup.View{Source: "storage listing"}
	for p, n := range []int{0, 1, filesChunk - 1, filesChunk, filesChunk + 1, 2*filesChunk + 3, 5} {
		part := &filegroup.Partition{Path: fmt.Sprintf("dt=%d", p)}
		for i := range n {
			s := &filegroup.FileSlice{BaseInstant: "2"}
			if i%3 != 0 {
				s.Base = &filegroup.BaseFile{Name: fmt.Sprintf("f%d_1-0-1_2.parquet", i), Size: int64(i), Instant: "2"}
				if i%4 == 1 { // a bootstrap skeleton and its source file
					s.Base.Bootstrap = &filegroup.BootstrapFile{Path: fmt.Sprintf("s3://b/src/\"%d\".parquet", i), Name: fmt.Sprintf("\"%d\".parquet", i), Size: 9}
				}
			}
			if i%5 == 0 {
				s.Logs = []filegroup.LogFile{{Name: ".l1", Size: 1}, {Name: ".l2", Size: 2}}
			}
			g := &filegroup.FileGroup{FileID: fmt.Sprintf("f%d", i), Slices: []*filegroup.FileSlice{s}}
			if i%7 == 0 {
				g.PendingCompaction = "3"
			}
			if i%11 == 0 {
				g.PendingClustering = "4"
			}
			part.FileGroups = append(part.FileGroups, g)
		}
		if p%2 == 0 {
			part.Replaced = []*filegroup.FileGroup{{FileID: "r1"}, {FileID: "r2"}}
		}
		v.Partitions = append(v.Partitions, part)
	}
	var want bytes.Buffer
	if err := WriteJSON(&want, NewFilesDocument(v)); err != nil {
		t.Fatal(err)
	}
	units := filesChunks(v)
	if len(units) != 1+1+1+1+2+3+1 {
		t.Errorf("%d units", len(units))
	}
	for _, workers := range []int{1, 2, 3} {
		var got bytes.Buffer
		got.WriteString(want.String()[:strings.Index(want.String(), "\"partitions\": [")+len("\"partitions\": [")])
		if err := writeFilesChunks(&got, v, units, workers); err != nil {
			t.Fatal(err)
		}
		got.WriteString("\n  ]\n}\n")
		if got.String() != want.String() {
			t.Errorf("%d workers: %d bytes, want %d", workers, got.Len(), want.Len())
		}
	}
	var got bytes.Buffer
	if err := WriteFilesJSON(&got, v); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("WriteFilesJSON: %d bytes, want %d", got.Len(), want.Len())
	}
}

type failAfter struct{ n int }

func (f *failAfter) Write(p []byte) (int, error) {
	if f.n--; f.n < 0 {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

// A failing writer stops the chunk pipeline with its error (no deadlock, no leak of the error).
func TestWriteFilesJSONWriteError(t *testing.T) {
	v := &filegroup.View{Source: "s"}
	for p := range 50 {
		v.Partitions = append(v.Partitions, &filegroup.Partition{Path: fmt.Sprint(p)})
	}
	for _, n := range []int{0, 3} {
		err := writeFilesChunks(&failAfter{n}, v, filesChunks(v), 2)
		if err == nil || err.Error() != "disk full" {
			t.Errorf("after %d writes: %v", n, err)
		}
	}
}

// benchView is 100 partitions × 1000 base-file groups, as the synthetic tables name them.
func benchView() *filegroup.View {
	v := &filegroup.View{Source: "storage listing"}
	for p := range 100 {
		part := &filegroup.Partition{Path: fmt.Sprintf("dt=2026-01-%04d", p)}
		for i := range 1000 {
			id := fmt.Sprintf("%08x-0000-0000-0000-000000000000-0", p*1000+i)
			s := &filegroup.FileSlice{BaseInstant: "20260101000004004", Base: &filegroup.BaseFile{
				Name: id + "_0-1-1_20260101000004004.parquet", Size: 10240, Instant: "20260101000004004"}}
			part.FileGroups = append(part.FileGroups, &filegroup.FileGroup{FileID: id, Slices: []*filegroup.FileSlice{s}})
		}
		v.Partitions = append(v.Partitions, part)
	}
	return v
}

// BenchmarkWriteFilesJSON: the hand-written writer; Encoding: encoding/json on the document.
func BenchmarkWriteFilesJSON(b *testing.B) {
	v := benchView()
	b.ReportAllocs()
	for b.Loop() {
		if err := WriteFilesJSON(io.Discard, v); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWriteFilesJSONEncoding(b *testing.B) {
	v := benchView()
	b.ReportAllocs()
	for b.Loop() {
		if err := WriteJSON(io.Discard, NewFilesDocument(v)); err != nil {
			b.Fatal(err)
		}
	}
}

// FilesJSONWriter, fed one partition at a time, writes WriteFilesJSON's document.
func TestFilesJSONWriterMatches(t *testing.T) {
	big := benchView()
	big.Partitions[1].FileGroups = append(big.Partitions[1].FileGroups, benchView().Partitions[2].FileGroups...)
	big.Partitions[1].FileGroups = append(big.Partitions[1].FileGroups, benchView().Partitions[3].FileGroups...)
	big.Partitions[1].FileGroups = append(big.Partitions[1].FileGroups, benchView().Partitions[4].FileGroups...)
	big.Partitions[1].FileGroups = append(big.Partitions[1].FileGroups, benchView().Partitions[5].FileGroups...)
	big.Partitions[1].FileGroups = append(big.Partitions[1].FileGroups, benchView().Partitions[6].FileGroups...) // past one chunk
	big.Partitions[3].Replaced = []*filegroup.FileGroup{{FileID: "r"}}
	big.Partitions[4].FileGroups = nil
	for _, v := range []*filegroup.View{{Source: "storage listing"}, {Source: "m", Partitions: []*filegroup.Partition{{Path: ""}}}, big} {
		var want, got bytes.Buffer
		if err := WriteFilesJSON(&want, v); err != nil {
			t.Fatal(err)
		}
		fw := NewFilesJSONWriter(&got)
		if err := fw.Begin(v.Source); err != nil {
			t.Fatal(err)
		}
		for _, p := range v.Partitions {
			if err := fw.Partition(p); err != nil {
				t.Fatal(err)
			}
		}
		if err := fw.Close(); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%d partitions: %d bytes, want %d", len(v.Partitions), got.Len(), want.Len())
		}
	}
	fw := NewFilesJSONWriter(&failAfter{0})
	fw.Begin("s")
	if err := fw.Close(); err == nil || err.Error() != "disk full" {
		t.Errorf("write error: %v", err)
	}
}
