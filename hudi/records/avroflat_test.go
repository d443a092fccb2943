package records

import (
	"archive/zip"
	"bytes"
	"io"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hudiscope/hudiscope/hudi/logfile"
)

// TestFlatDecoderMatchesGeneric decodes every record of every data block in the fixtures'
// log files with both decoders: the flat one must give the generic one's values, type for
// type (after the NaN/Inf conversion both paths apply).
func TestFlatDecoderMatchesGeneric(t *testing.T) {
	zips, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "fixtures", "*", "table.zip"))
	if len(zips) == 0 {
		t.Skip("fixtures absent")
	}
	records, flatBlocks, otherBlocks := 0, 0, 0
	for _, z := range zips {
		zr, err := zip.OpenReader(z)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range zr.File {
			name := path.Base(f.Name)
			if !strings.HasPrefix(name, ".") || !strings.Contains(name, ".log.") || strings.HasSuffix(name, ".crc") {
				continue
			}
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			data, _ := io.ReadAll(rc)
			rc.Close()
			r := bytes.NewReader(data)
			for _, b := range logfile.ReadBlocks(r, int64(len(data))) {
				if b.Corrupt || b.Type != logfile.BlockAvroData {
					continue
				}
				content, err := b.ReadContent(r)
				if err != nil {
					t.Fatalf("%s %s: %v", z, f.Name, err)
				}
				text := b.Header[logfile.HeaderSchema]
				s, err := dataSchemas.Parse(text)
				if err != nil {
					t.Fatalf("%s %s: %v", z, f.Name, err)
				}
				plan := makeFlatPlan(s.Root())
				if plan == nil {
					otherBlocks++
					continue
				}
				flatBlocks++
				datums, err := logfile.AvroRecords(content)
				if err != nil {
					t.Fatalf("%s %s: %v", z, f.Name, err)
				}
				for i, d := range datums {
					var v any
					if _, err := s.Decode(d, &v); err != nil {
						t.Fatalf("%s %s record %d: generic: %v", z, f.Name, i, err)
					}
					want := v.(map[string]any)
					for k, x := range want {
						want[k] = avroValue(x)
					}
					got, err := plan.decode(d)
					if err != nil {
						t.Fatalf("%s %s record %d: flat: %v", z, f.Name, i, err)
					}
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("%s %s record %d:\nflat    %#v\ngeneric %#v", z, f.Name, i, got, want)
					}
					records++
				}
			}
		}
		zr.Close()
	}
	t.Logf("%d records of %d flat blocks agree; %d blocks use the generic decoder", records, flatBlocks, otherBlocks)
	if records == 0 {
		t.Fatal("no flat block in the fixtures")
	}
}

// TestFlatDecoderRefusesBadInput: truncated data, union indexes out of range and lengths past
// the end are errors, never panics or huge allocations.
func TestFlatDecoderRefusesBadInput(t *testing.T) {
	s, err := dataSchemas.Parse(`{"type":"record","name":"r","fields":[{"name":"a","type":["null","string"]},{"name":"b","type":"long"},{"name":"c","type":"int"},{"name":"d","type":"double"}]}`)
	if err != nil {
		t.Fatal(err)
	}
	p := makeFlatPlan(s.Root())
	if p == nil {
		t.Fatal("flat schema not planned")
	}
	good := []byte{2, 4, 'h', 'i', 6, 8, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f}
	m, err := p.decode(good)
	if err != nil || !reflect.DeepEqual(m, map[string]any{"a": "hi", "b": int64(3), "c": int32(4), "d": 1.0}) {
		t.Fatalf("decode = %#v, %v", m, err)
	}
	for _, c := range []struct {
		in   []byte
		want string
	}{
		{good[:5], "field c: record ends early"},
		{good[:4], "field b: record ends early"},
		{good[:10], "field d: record ends early"},
		{[]byte{4}, "field a: union index 2 of 2 branches"},
		{[]byte{2, 0xfe, 0xff, 0xff, 0xff, 0x0f}, "field a: length 2147483647 with 0 bytes left"},
		{[]byte{0, 2, 0xfe, 0xff, 0xff, 0xff, 0x1f}, "field c: int 4294967295 overflows 32 bits"},
	} {
		if _, err := p.decode(c.in); err == nil || err.Error() != c.want {
			t.Errorf("decode(% x) = %v, want %q", c.in, err, c.want)
		}
	}
	for _, schema := range []string{
		`{"type":"record","name":"r","fields":[{"name":"t","type":{"type":"long","logicalType":"timestamp-millis"}}]}`,
		`{"type":"record","name":"r","fields":[{"name":"n","type":{"type":"record","name":"n","fields":[{"name":"x","type":"int"}]}}]}`,
		`{"type":"record","name":"r","fields":[{"name":"u","type":["null","int","string"]}]}`,
	} {
		s, err := dataSchemas.Parse(schema)
		if err != nil {
			t.Fatal(err)
		}
		if makeFlatPlan(s.Root()) != nil {
			t.Errorf("%s: planned as flat", schema)
		}
	}
}

// FuzzFlatDecode decodes arbitrary bytes as a record of a flat schema with every primitive
// kind, with the flat and the generic decoder: whatever the generic one decodes, the flat one
// must decode to the same values.
func FuzzFlatDecode(f *testing.F) {
	s, err := dataSchemas.Parse(`{"type":"record","name":"r","fields":[{"name":"a","type":["null","string"]},` +
		`{"name":"b","type":"long"},{"name":"c","type":["int","null"]},{"name":"d","type":"double"},{"name":"e","type":"float"},` +
		`{"name":"f","type":"boolean"},{"name":"g","type":["null","bytes"]},{"name":"h","type":["null"]}]}`)
	if err != nil {
		f.Fatal(err)
	}
	p := makeFlatPlan(s.Root())
	if p == nil {
		f.Fatal("not flat")
	}
	f.Add([]byte{2, 4, 'h', 'i', 6, 0, 8, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0, 0, 0xc0, 0x7f, 1, 2, 2, 0xff, 0})
	f.Add([]byte{0, 1, 2, 0, 0, 0, 0, 0, 0, 0xf8, 0x7f, 0, 0, 0x80, 0x7f, 2, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		got, ferr := p.decode(data)
		var v any
		if _, err := s.Decode(data, &v); err != nil {
			return
		}
		want := v.(map[string]any)
		for k, x := range want {
			want[k] = avroValue(x)
		}
		if ferr != nil {
			t.Fatalf("generic decodes %#v, flat: %v", want, ferr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("flat %#v, generic %#v", got, want)
		}
	})
}
